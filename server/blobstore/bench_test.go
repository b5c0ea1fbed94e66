package blobstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/blobstore/s3test"
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

// benchStores are the stores the upload and download benchmarks run against: the local one
// (Handler behind an httptest server, over real TCP) and an s3 one on versitygw (s3test; its
// POSIX backend on the same disk). One versitygw serves all sub-benchmarks of a benchmark.
func benchStores(b *testing.B, run func(b *testing.B, e *env)) {
	b.Run("local", func(b *testing.B) { run(b, newEnv(b)) })
	srv := s3test.Start(b)
	b.Run("s3", func(b *testing.B) { run(b, newS3Env(b, srv)) })
}

// BenchmarkUpload PUTs a 64 MB file to a signed upload URL, sending Upload.Headers; "sha256"
// declares the digest (the local store compares it, S3 verifies x-amz-checksum-sha256).
func BenchmarkUpload(b *testing.B) {
	benchStores(b, func(b *testing.B, e *env) {
		src := benchSource(b, e.dir)
		for _, declared := range []bool{false, true} {
			sum := ""
			name := "plain"
			if declared {
				f, _ := os.Open(src)
				h := sha256.New()
				_, _ = io.Copy(h, f)
				f.Close()
				sum, name = hex.EncodeToString(h.Sum(nil)), "sha256"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(benchSize)
				for b.Loop() {
					up, err := e.st.SignedUpload("bench/up.bin", "application/octet-stream", benchSize, sum, time.Hour)
					if err != nil {
						b.Fatal(err)
					}
					f, _ := os.Open(src)
					req, _ := http.NewRequest("PUT", up.URL, f)
					req.ContentLength = benchSize
					for k, v := range up.Headers {
						req.Header.Set(k, v)
					}
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
			})
		}
	})
}

// BenchmarkDownload GETs a 64 MB object through a signed download URL.
func BenchmarkDownload(b *testing.B) {
	benchStores(b, func(b *testing.B, e *env) {
		src := benchSource(b, e.dir)
		f, _ := os.Open(src)
		if _, _, err := e.st.Put(context.Background(), "bench/down.bin", "application/octet-stream", f); err != nil {
			b.Fatal(err)
		}
		f.Close()
		dl, _, _ := e.st.SignedDownload("bench/down.bin", time.Hour)
		buf := make([]byte, copyBufSize)
		b.SetBytes(benchSize)
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
	})
}

// BenchmarkPut writes a 64 MB file with Put (what rendition workers do): spool and hash, then
// the bucket (local) or one PutObject carrying the SHA-256 (S3).
func BenchmarkPut(b *testing.B) {
	benchStores(b, func(b *testing.B, e *env) {
		src := benchSource(b, e.dir)
		b.SetBytes(benchSize)
		for b.Loop() {
			f, _ := os.Open(src)
			if _, _, err := e.st.Put(context.Background(), "bench/put.bin", "application/octet-stream", f); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	})
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
