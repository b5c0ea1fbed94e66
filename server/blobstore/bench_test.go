package blobstore

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// benchSize is the object every benchmark moves; b.SetBytes makes `go test -bench` report MB/s.
const benchSize = 64 << 20

// benchSource writes a benchSize file on the same disk as the store, so upload, download and the
// plain copy all read from and write to the same filesystem.
func benchSource(b *testing.B, dir string) string {
	b.Helper()
	p := filepath.Join(dir, "source.bin")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(f, newGen(benchSize)); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkUpload PUTs a 64 MB file through the handler over real TCP (httptest server).
func BenchmarkUpload(b *testing.B) {
	e := newEnv(b)
	src := benchSource(b, e.dir)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for b.Loop() {
		up, err := e.st.SignedUpload("bench/up.bin", "application/octet-stream", benchSize, time.Hour)
		if err != nil {
			b.Fatal(err)
		}
		f, _ := os.Open(src)
		req, _ := http.NewRequest("PUT", up.URL, f)
		req.ContentLength = benchSize
		req.Header.Set("Content-Type", up.Headers["Content-Type"])
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		f.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
}

// BenchmarkDownload GETs a 64 MB object through the handler over real TCP.
func BenchmarkDownload(b *testing.B) {
	e := newEnv(b)
	src := benchSource(b, e.dir)
	f, _ := os.Open(src)
	if err := e.st.write(context.Background(), "bench/down.bin", "application/octet-stream", "x", f, make([]byte, copyBufSize)); err != nil {
		b.Fatal(err)
	}
	f.Close()
	dl, _, _ := e.st.SignedDownload("bench/down.bin", time.Hour)
	buf := make([]byte, copyBufSize)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for b.Loop() {
		res, err := http.Get(dl)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.CopyBuffer(io.Discard, struct{ io.Reader }{res.Body}, buf)
		res.Body.Close()
		if n != benchSize {
			b.Fatalf("got %d bytes", n)
		}
	}
}

// BenchmarkFileCopy is the baseline: os.File to os.File with io.Copy on the same disk (the
// kernel may use copy_file_range, so this is the best the disk offers).
func BenchmarkFileCopy(b *testing.B) {
	dir := b.TempDir()
	src := benchSource(b, dir)
	dst := filepath.Join(dir, "copy.bin")
	b.SetBytes(benchSize)
	b.ResetTimer()
	for b.Loop() {
		in, _ := os.Open(src)
		out, _ := os.Create(dst)
		if _, err := io.Copy(out, in); err != nil {
			b.Fatal(err)
		}
		in.Close()
		if err := out.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileCopyUserspace copies through a 256 KB user-space buffer, as the handler does, to
// separate the kernel shortcut from the HTTP and hashing costs.
func BenchmarkFileCopyUserspace(b *testing.B) {
	dir := b.TempDir()
	src := benchSource(b, dir)
	dst := filepath.Join(dir, "copy.bin")
	buf := make([]byte, copyBufSize)
	b.SetBytes(benchSize)
	b.ResetTimer()
	for b.Loop() {
		in, _ := os.Open(src)
		out, _ := os.Create(dst)
		if _, err := io.CopyBuffer(struct{ io.Writer }{out}, struct{ io.Reader }{in}, buf); err != nil {
			b.Fatal(err)
		}
		in.Close()
		if err := out.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
