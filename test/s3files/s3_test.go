// Package s3files runs asset files end to end on the S3 backend: catalogd with CATALOG_BLOB_URL
// naming a bucket of a real S3-compatible server (versitygw, built by server/blobstore/s3test),
// clients transferring bytes to the bucket's own pre-signed URLs. test/assetfiles covers every
// operation and error on the local store; this package checks what differs with S3: the upload
// headers S3 signs, S3 refusing a body that does not match, complete's move and checks on the
// bucket, renditions read from and written to it, download URLs of the bucket, deletion of objects.
package s3files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/blobstore/s3test"
)

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

// transfer sends data as an initiate answer says: its method, URL and headers (no token).
func transfer(t *testing.T, up map[string]any, data []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest(Str(up, "uploadMethod"), Str(up, "uploadUrl"), bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range up["uploadHeaders"].(map[string]any) {
		req.Header.Set(k, v.(string))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

func fetch(t *testing.T, url string) (int, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func photo(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// objects lists the bucket's keys under prefix.
func objects(t *testing.T, srv s3test.Server, prefix string) []string {
	t.Helper()
	out, err := srv.Client().ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: aws.String(srv.Bucket), Prefix: aws.String(prefix)})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range out.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	return keys
}

func TestS3(t *testing.T) {
	srv := s3test.Start(t)
	t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
	env, err := Start(func(c *app.Config) { c.BlobURL = srv.BlobURL })
	if err != nil {
		t.Fatal(err)
	}
	defer env.Stop()
	c := env.Client(t)
	asset := Str(Want(t, c.Post("/v1/assets", Body("code", "s3-photo", "category", "image")), 201).Obj(), "uuid")
	files := "/v1/assets/" + asset + "/files"

	// A photo with its checksum declared: S3 gets the upload, complete moves and checks it, the
	// workers make the renditions from the bucket and store them there.
	pic := photo(t, 4000, 3000) // 12 megapixels
	up := Want(t, c.Post(files+"/actions/initiate-upload", Body("kind", "original", "fileName", "p.jpg",
		"contentType", "image/jpeg", "sizeBytes", len(pic), "checksumSha256", sum(pic))), 201).Obj()
	if u := Str(up, "uploadUrl"); !strings.HasPrefix(u, srv.Endpoint+"/"+srv.Bucket+"/") || !strings.Contains(u, "X-Amz-Signature=") {
		t.Fatalf("uploadUrl %s is not a pre-signed URL of the bucket", u)
	}
	if h := up["uploadHeaders"].(map[string]any); h["Content-Type"] != "image/jpeg" || h["X-Amz-Checksum-Sha256"] == nil {
		t.Fatalf("uploadHeaders %v: want the content type and the signed checksum", h)
	}
	// Another body of the declared size is refused by S3 itself (BadDigest): the checksum is signed.
	bad := append([]byte{}, pic...)
	bad[len(bad)/2] ^= 1
	if res := transfer(t, up, bad); res.StatusCode != 400 {
		t.Fatalf("PUT of other bytes: %d, want 400 from S3", res.StatusCode)
	}
	if res := transfer(t, up, pic); res.StatusCode != 200 {
		t.Fatalf("PUT: %d", res.StatusCode)
	}
	file := Str(up["file"].(map[string]any), "uuid")
	done := Want(t, c.Patch(files+"/"+file+"/actions/complete-upload", nil), 200).Obj()
	WantFields(t, "completed photo", done, "status", "uploaded", "checksumSha256", sum(pic), "width", float64(4000), "height", float64(3000))
	// The upload URL still works until it expires, but only on the staging object.
	if res := transfer(t, up, pic); res.StatusCode != 200 {
		t.Fatalf("late PUT: %d", res.StatusCode)
	}
	got := Want(t, c.Get(files+"/"+file), 200).Obj()
	if code, b := fetch(t, Str(got, "downloadUrl")); code != 200 || !bytes.Equal(b, pic) {
		t.Fatalf("downloadUrl: %d, %d bytes", code, len(b))
	}
	if !strings.Contains(Str(got, "downloadUrl"), "response-content-disposition=attachment") {
		t.Errorf("downloadUrl %s does not ask S3 for an attachment disposition", Str(got, "downloadUrl"))
	}
	var rends []map[string]any
	for deadline := time.Now().Add(60 * time.Second); ; {
		rends = Want(t, c.Get(files+"?sourceFileUuids[eq]="+file+"&kind[order]=asc"), 200).Items()
		if len(rends) == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(rends) != 2 {
		t.Fatalf("%d renditions after 60 s, want 2", len(rends))
	}
	for _, r := range rends {
		want := map[string]int{"thumbnail": 256, "web_optimized": 2048}[Str(r, "kind")]
		g := Want(t, c.Get(files+"/"+Str(r, "uuid")), 200).Obj()
		code, b := fetch(t, Str(g, "downloadUrl"))
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(b))
		if code != 200 || err != nil || cfg.Width != want || sum(b) != Str(g, "checksumSha256") {
			t.Errorf("%s rendition: %d, %v, width %d (want %d), checksum %s of %s", Str(r, "kind"), code, err, cfg.Width, want, sum(b), Str(g, "checksumSha256"))
		}
	}

	// 50 MB without a declared checksum: complete computes it from the bucket.
	video := bytes.Repeat([]byte("0123456789abcdef"), 50<<20/16)
	up = Want(t, c.Post(files+"/actions/initiate-upload", Body("kind", "original", "fileName", "v.mp4",
		"contentType", "video/mp4", "sizeBytes", len(video))), 201).Obj()
	if res := transfer(t, up, video); res.StatusCode != 200 {
		t.Fatalf("PUT of 50 MB: %d", res.StatusCode)
	}
	vid := Str(up["file"].(map[string]any), "uuid")
	WantFields(t, "completed video", Want(t, c.Patch(files+"/"+vid+"/actions/complete-upload", nil), 200).Obj(),
		"status", "uploaded", "checksumSha256", sum(video), "width", nil)

	// Nothing transferred: 409 and failed.
	up = Want(t, c.Post(files+"/actions/initiate-upload", Body("kind", "original", "fileName", "n.txt",
		"contentType", "text/plain", "sizeBytes", 3)), 201).Obj()
	none := Str(up["file"].(map[string]any), "uuid")
	Problem(t, "complete without transfer", c.Patch(files+"/"+none+"/actions/complete-upload", nil), 409, "UPLOAD_VERIFICATION_FAILED", "fileUuid")

	// Deleting the asset's files removes their objects from the bucket (the blob collector).
	prefix := strings.SplitN(Str(got, "downloadUrl"), "/"+srv.Bucket+"/", 2)[1]
	prefix = prefix[:strings.LastIndex(prefix, "/")+1]
	Want(t, c.Delete(files+"/"+file), 204)
	Want(t, c.Delete(files+"/"+vid), 204)
	var left []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		left = nil
		for _, k := range objects(t, srv, prefix) {
			if strings.Contains(k, file) || strings.Contains(k, vid) || strings.Contains(k, Str(rends[0], "uuid")) || strings.Contains(k, Str(rends[1], "uuid")) {
				left = append(left, k)
			}
		}
		// The photo's staging object (written again after complete) waits for its URL to expire.
		if len(left) == 1 && strings.HasSuffix(left[0], file+".upload") {
			break
		}
	}
	if len(left) != 1 || !strings.HasSuffix(left[0], file+".upload") {
		t.Errorf("objects left after the deletes: %v, want only the photo's staging object (removed once its URL expires)", left)
	}
}
