package fault

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"github.com/catalogd/catalogd/server/apptest"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// bigPhoto is a w×h JPEG whose decode and scaling take long enough (a few hundred milliseconds at
// least) to kill the process in the middle of its renditions.
func bigPhoto(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		img.Y[i] = uint8(i*7 + i/w)
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = uint8(i), uint8(i/3)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// (d) A replica killed with SIGKILL while it makes an original's renditions: another one makes
// them once the claim's lease (3 s here) has run out, each rendition exactly once, with stored
// bytes matching their checksums.
func TestKill9MidRenditionMakesThemOnce(t *testing.T) {
	t.Parallel()
	dbURL, dataDir := newDatabase(t), t.TempDir()
	first := startCatalogd(t, dbURL, dataDir)
	c := newClient(first.base)
	asset := str(c.must(t, 201, "POST", "/v1/assets", map[string]any{"code": "big", "category": "image"}).body, "uuid")
	files := "/v1/assets/" + asset + "/files"
	pic := bigPhoto(t, 8000, 6000) // 48 megapixels
	up := c.must(t, 201, "POST", files+"/actions/initiate-upload", map[string]any{"kind": "original",
		"fileName": "big.jpg", "contentType": "image/jpeg", "sizeBytes": len(pic)}).body
	req, _ := http.NewRequest("PUT", str(up, "uploadUrl"), bytes.NewReader(pic))
	req.Header.Set("Content-Type", "image/jpeg")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("PUT: %v %v", res, err)
	}
	res.Body.Close()
	original := str(up["file"].(map[string]any), "uuid")

	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	claimed := func() bool {
		var n int
		_ = conn.QueryRow(context.Background(), "SELECT count(*) FROM rendition_jobs WHERE lease_until IS NOT NULL").Scan(&n)
		return n == 1
	}
	c.must(t, 200, "PATCH", files+"/"+original+"/actions/complete-upload", nil)
	apptest.WaitFor(t, 30*time.Second, "the rendition job was not claimed", claimed)
	first.kill(syscall.SIGKILL) // mid-rendition: claimed, not yet committed
	var made int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM asset_files WHERE source_file_uuid = $1", original).Scan(&made); err != nil || made != 0 {
		t.Fatalf("renditions committed before the kill (%d, %v): the image renders too fast for this test", made, err)
	}

	second := startCatalogd(t, dbURL, dataDir)
	c.setBase(second.base)
	var rends []any
	apptest.WaitFor(t, 60*time.Second, "no renditions from the second process", func() bool {
		r, err := c.do("GET", files+"?sourceFileUuids[eq]="+original, nil)
		rends, _ = r.body["items"].([]any)
		return err == nil && len(rends) == 2
	})
	kinds := map[string]int{}
	for _, x := range rends {
		f := x.(map[string]any)
		kinds[str(f, "kind")]++
		got := c.must(t, 200, "GET", files+"/"+str(f, "uuid"), nil).body
		res, err := http.Get(str(got, "downloadUrl"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		h := sha256.Sum256(b)
		if res.StatusCode != 200 || hex.EncodeToString(h[:]) != str(got, "checksumSha256") {
			t.Errorf("%s rendition: %d, checksum differs from the stored bytes", str(f, "kind"), res.StatusCode)
		}
	}
	if kinds["thumbnail"] != 1 || kinds["web_optimized"] != 1 {
		t.Errorf("renditions %v, want one of each kind", kinds)
	}
	var jobs int
	_ = conn.QueryRow(context.Background(), "SELECT count(*) FROM rendition_jobs").Scan(&jobs)
	if jobs != 0 {
		t.Errorf("%d rendition jobs left", jobs)
	}
	// Objects of the asset on disk: the original and its two renditions; whatever the killed
	// process had written is an intent the blob collector removes later (an hour), never a file.
	var keys []string
	_ = filepath.WalkDir(filepath.Join(dataDir, "blobs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, asset) && !strings.HasSuffix(p, ".attrs") {
			keys = append(keys, filepath.Base(p))
		}
		return nil
	})
	t.Logf("objects of the asset after the restart: %v", keys)
	second.kill(syscall.SIGTERM)
}
