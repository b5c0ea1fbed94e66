// Command assetfiles measures asset files through a running catalogd (docs/design.md "Asset files"),
// the way an integrator uses them:
//
//  1. transfer: a -size-mb file uploaded in the spec's two steps (initiate, PUT to the signed URL,
//     complete) and downloaded from its signed downloadUrl, in MB/s, next to a plain copy of the same
//     file on the same disk (-dir: put it on the disk of catalogd's data directory);
//
//  2. renditions: -photos photos of -megapixels each (JPEG) uploaded and completed one after the
//     other; for each, the time from complete until both renditions are listed, per megapixel, and
//     the server's peak resident memory over the phase against its resident memory before it (-pid:
//     Linux /proc; the peak is reset first through /proc/<pid>/clear_refs).
//
//     go run ./bench/assetfiles -url http://127.0.0.1:8080 -secret "$CATALOG_JWT_HS256_SECRET" -pid $PID -dir /data/disk
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
)

var (
	base       = flag.String("url", "http://127.0.0.1:8080", "REST base URL of catalogd")
	tokens     = measure.TokenFlags("catalogd-dev")
	pid        = flag.Int("pid", 0, "the server's process id: report its peak memory during renditions (Linux /proc)")
	dir        = flag.String("dir", os.TempDir(), "directory for the source file and the plain copy (the disk of catalogd's data dir)")
	sizeMB     = flag.Int("size-mb", 256, "size of the transferred file in MB")
	rounds     = flag.Int("rounds", 3, "transfers (and plain copies) measured; the best of each is reported")
	photos     = flag.Int("photos", 4, "photos rendered in the rendition phase")
	megapixels = flag.Float64("megapixels", 12, "size of each photo (4:3)")
)

func main() {
	flag.Parse()
	tok, err := tokens.Mint("assetfiles-"+strconv.FormatInt(time.Now().UnixNano(), 36),
		"bench", []string{"catalog:read", "catalog:write"}, time.Hour)
	if err != nil {
		fail(err)
	}
	api := &measure.API{Base: *base, Token: tok, HTTP: &http.Client{Timeout: 10 * time.Minute}}
	fmt.Printf("Asset files (bench/assetfiles against %s)\n", *base)
	transfer(api)
	if *photos > 0 {
		renditions(api)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "assetfiles:", err)
	os.Exit(1)
}

type fileMsg struct {
	UUID   string `json:"uuid"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Width  *int   `json:"width"`
	Height *int   `json:"height"`
	URL    string `json:"downloadUrl"`
}

type uploadMsg struct {
	File    fileMsg           `json:"file"`
	URL     string            `json:"uploadUrl"`
	Method  string            `json:"uploadMethod"`
	Headers map[string]string `json:"uploadHeaders"`
}

func newAsset(api *measure.API, code, category string) string {
	var a struct{ UUID string }
	if err := api.Call("POST", "/v1/assets", map[string]any{"code": code, "category": category}, &a); err != nil {
		fail(err)
	}
	return a.UUID
}

// upload runs initiate, PUT and complete for the file at path; it returns the file's uuid and the
// PUT's duration.
func upload(api *measure.API, asset, path, contentType string) (string, time.Duration) {
	f, err := os.Open(path)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	h := sha256.New()
	size, err := io.Copy(h, f)
	if err != nil {
		fail(err)
	}
	var up uploadMsg
	if err := api.Call("POST", "/v1/assets/"+asset+"/files/actions/initiate-upload", map[string]any{
		"kind": "original", "fileName": filepath.Base(path), "contentType": contentType, "sizeBytes": size,
		"checksumSha256": hex.EncodeToString(h.Sum(nil))}, &up); err != nil {
		fail(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		fail(err)
	}
	req, err := http.NewRequest(up.Method, up.URL, f)
	if err != nil {
		fail(err)
	}
	req.ContentLength = size
	for k, v := range up.Headers {
		req.Header.Set(k, v)
	}
	start := time.Now()
	res, err := api.HTTP.Do(req)
	if err != nil {
		fail(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	took := time.Since(start)
	if res.StatusCode != 200 {
		fail(fmt.Errorf("PUT %s: %d %s", up.URL, res.StatusCode, body))
	}
	var done fileMsg
	if err := api.Call("PATCH", "/v1/assets/"+asset+"/files/"+up.File.UUID+"/actions/complete-upload", nil, &done); err != nil {
		fail(err)
	}
	if done.Status != "uploaded" {
		fail(fmt.Errorf("complete: status %s", done.Status))
	}
	return up.File.UUID, took
}

func transfer(api *measure.API) {
	size := int64(*sizeMB) << 20
	src := filepath.Join(*dir, "assetfiles-source.bin")
	dst := filepath.Join(*dir, "assetfiles-copy.bin")
	defer os.Remove(src)
	defer os.Remove(dst)
	if err := writeRandom(src, size); err != nil {
		fail(err)
	}
	asset := newAsset(api, "transfer-"+strconv.Itoa(rand.IntN(1e9)), "video")
	var bestPut, bestGet, bestCopy time.Duration = math.MaxInt64, math.MaxInt64, math.MaxInt64
	for range *rounds {
		id, put := upload(api, asset, src, "video/mp4")
		bestPut = min(bestPut, put)
		var f fileMsg
		if err := api.Call("GET", "/v1/assets/"+asset+"/files/"+id, nil, &f); err != nil {
			fail(err)
		}
		start := time.Now()
		res, err := api.HTTP.Get(f.URL)
		if err != nil {
			fail(err)
		}
		n, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if err != nil || n != size || res.StatusCode != 200 {
			fail(fmt.Errorf("download: %d bytes, status %d, %v", n, res.StatusCode, err))
		}
		bestGet = min(bestGet, time.Since(start))
		bestCopy = min(bestCopy, plainCopy(src, dst))
		if err := api.Call("DELETE", "/v1/assets/"+asset+"/files/"+id, nil, nil); err != nil {
			fail(err)
		}
	}
	mbps := func(d time.Duration) float64 { return float64(size) / (1 << 20) / d.Seconds() }
	fmt.Printf("  transfer of %d MB (best of %d): upload %.0f MB/s (PUT to the signed URL), download %.0f MB/s (GET of downloadUrl); plain file copy on the same disk %.0f MB/s (upload %.2f×, download %.2f× of it)\n",
		*sizeMB, *rounds, mbps(bestPut), mbps(bestGet), mbps(bestCopy), bestCopy.Seconds()/bestPut.Seconds(), bestCopy.Seconds()/bestGet.Seconds())
}

// writeRandom writes size pseudo-random bytes (incompressible, like a video).
func writeRandom(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 1<<20)
	for left := size; left > 0; left -= int64(len(buf)) {
		for i := 0; i+8 <= len(buf); i += 8 {
			v := r.Uint64()
			for j := range 8 {
				buf[i+j] = byte(v >> (8 * j))
			}
		}
		if _, err := f.Write(buf[:min(int64(len(buf)), left)]); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// plainCopy copies src to dst the way the local store writes an object (a plain write of every
// byte, no fsync) and returns the time it took.
func plainCopy(src, dst string) time.Duration {
	start := time.Now()
	in, err := os.Open(src)
	if err != nil {
		fail(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		fail(err)
	}
	if _, err := io.CopyBuffer(struct{ io.Writer }{out}, struct{ io.Reader }{in}, make([]byte, 256<<10)); err != nil {
		fail(err)
	}
	if err := out.Close(); err != nil {
		fail(err)
	}
	return time.Since(start)
}

func renditions(api *measure.API) {
	w := int(math.Round(math.Sqrt(*megapixels * 1e6 * 4 / 3)))
	h := w * 3 / 4
	photo := filepath.Join(*dir, "assetfiles-photo.jpg")
	defer os.Remove(photo)
	if err := writePhoto(photo, w, h); err != nil {
		fail(err)
	}
	baseRSS, _ := measure.StatusKB(*pid, "VmRSS")
	if *pid > 0 {
		_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", *pid), []byte("5"), 0) // reset VmHWM (peak RSS)
	}
	asset := newAsset(api, "photos-"+strconv.Itoa(rand.IntN(1e9)), "image")
	var total time.Duration
	for i := range *photos {
		id, _ := upload(api, asset, photo, "image/jpeg")
		start := time.Now()
		for {
			var page struct{ Items []fileMsg }
			if err := api.Call("GET", "/v1/assets/"+asset+"/files?sourceFileUuids[eq]="+id, nil, &page); err != nil {
				fail(err)
			}
			if len(page.Items) == 2 {
				break
			}
			if time.Since(start) > 2*time.Minute {
				fail(fmt.Errorf("photo %d: renditions not ready after 2 minutes (%d listed)", i, len(page.Items)))
			}
			time.Sleep(20 * time.Millisecond)
		}
		total += time.Since(start)
	}
	mp := float64(w*h) / 1e6
	per := total / time.Duration(*photos)
	fmt.Printf("  renditions of a %.1f-megapixel JPEG (%d×%d, thumbnail + web_optimized, %d photos): %s from complete to both listed, %.1f ms per megapixel (polled every 20 ms)\n",
		mp, w, h, *photos, per.Round(time.Millisecond), float64(per.Microseconds())/1000/mp)
	if *pid > 0 {
		peak, _ := measure.StatusKB(*pid, "VmHWM")
		fmt.Printf("  catalogd resident memory: %.0f MB before, peak %.0f MB during the renditions (+%.0f MB)\n",
			float64(baseRSS)/1024, float64(peak)/1024, float64(peak-baseRSS)/1024)
	}
}

// writePhoto writes a w×h JPEG with gradients and noise, so it encodes like a photograph.
func writePhoto(path string, w, h int) error {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(3, 4))
	for y := range h {
		for x := range w {
			n := uint8(r.IntN(24))
			img.SetRGBA(x, y, color.RGBA{uint8(x*255/w) + n, uint8(y*255/h) + n, uint8((x+y)/8) + n, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 88}); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
