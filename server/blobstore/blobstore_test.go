package blobstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/blobstore/s3test"
)

var testKey = bytes.Repeat([]byte("k"), 32)

type env struct {
	st  *Store
	srv *httptest.Server
	dir string
	s3  *s3test.Server // the S3 server behind st; nil for the local store
}

func newEnv(t testing.TB) *env {
	t.Helper()
	e := &env{dir: t.TempDir()}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { e.st.Handler().ServeHTTP(w, r) }))
	t.Cleanup(e.srv.Close)
	st, err := Open(context.Background(), Config{DataDir: e.dir, Key: testKey, BaseURL: e.srv.URL + "/blobs", MaxUploadBytes: 100 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e.st = st
	return e
}

// do sends method to rawURL with body; length -1 sends it chunked (no Content-Length).
func do(t testing.TB, method, rawURL, ct string, body io.Reader, length int64) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.ContentLength = length
		if length == 0 {
			req.Body = http.NoBody
		}
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}

type problemBody struct {
	Status int            `json:"status"`
	Code   string         `json:"code"`
	Detail string         `json:"detail"`
	Meta   map[string]any `json:"meta"`
}

func wantProblem(t *testing.T, res *http.Response, status int, code, detailPart string) {
	t.Helper()
	if res.StatusCode != status {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("status %d, want %d: %s", res.StatusCode, status, b)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("content-type %q", ct)
	}
	var p problemBody
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
		t.Fatal(err)
	}
	if p.Status != status || p.Code != code || !strings.Contains(p.Detail, detailPart) {
		t.Fatalf("problem %+v, want %d %s containing %q", p, status, code, detailPart)
	}
}

func (e *env) wantAbsent(t *testing.T, key string) {
	t.Helper()
	if _, ok, err := e.st.Stat(context.Background(), key); err != nil || ok {
		t.Fatalf("object %s exists=%v err=%v, want absent", key, ok, err)
	}
	// Nothing half-written either: no spool file and no fileblob staging file.
	var leftovers []string
	roots := []string{e.st.spool}
	if e.st.dir != "" {
		roots = append(roots, e.st.dir)
	}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (root == e.st.spool || strings.HasSuffix(p, ".tmp")) {
				leftovers = append(leftovers, p)
			}
			return nil
		})
	}
	if len(leftovers) > 0 {
		t.Fatalf("leftover temporary files: %v", leftovers)
	}
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func (e *env) upload(t *testing.T, key, ct string, data []byte) Upload {
	t.Helper()
	up, err := e.st.SignedUpload(key, ct, int64(len(data)), "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, up.Method, up.URL, up.Headers["Content-Type"], bytes.NewReader(data), int64(len(data)))
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("upload: %d %s", res.StatusCode, b)
	}
	return up
}

func TestUploadStatDownload(t *testing.T) {
	e := newEnv(t)
	data := []byte("hello, catalog asset bytes")
	up, err := e.st.SignedUpload("assets/a1/original.txt", "Text/Plain; charset=UTF-8", int64(len(data)), "", 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if up.Method != "PUT" || up.Headers["Content-Type"] != "text/plain; charset=UTF-8" {
		t.Fatalf("upload %+v", up)
	}
	if !strings.HasPrefix(up.URL, e.srv.URL+"/blobs/assets/a1/original.txt?") {
		t.Fatalf("url %s", up.URL)
	}
	if d := time.Until(up.ExpiresAt); d <= 14*time.Minute || d > 15*time.Minute {
		t.Fatalf("expiresAt %v", up.ExpiresAt)
	}
	// The media type is compared, not its spelling.
	res := do(t, "PUT", up.URL, "text/plain; charset=UTF-8", bytes.NewReader(data), int64(len(data)))
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	var out struct {
		SizeBytes      int64  `json:"sizeBytes"`
		ChecksumSha256 string `json:"checksumSha256"`
	}
	_ = json.NewDecoder(res.Body).Decode(&out)
	if out.SizeBytes != int64(len(data)) || out.ChecksumSha256 != sha(data) || res.Header.Get("ETag") != `"`+sha(data)+`"` {
		t.Fatalf("put answer %+v etag %s", out, res.Header.Get("ETag"))
	}

	info, ok, err := e.st.Stat(context.Background(), "assets/a1/original.txt")
	if err != nil || !ok {
		t.Fatalf("stat ok=%v err=%v", ok, err)
	}
	if info.Size != int64(len(data)) || info.SHA256 != sha(data) || info.ContentType != "text/plain; charset=UTF-8" {
		t.Fatalf("info %+v", info)
	}

	dl, exp, err := e.st.SignedDownload("assets/a1/original.txt", time.Minute)
	if err != nil || !exp.After(time.Now()) {
		t.Fatal(err, exp)
	}
	res = do(t, "GET", dl, "", nil, 0)
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !bytes.Equal(body, data) {
		t.Fatalf("get %d %q", res.StatusCode, body)
	}
	h := res.Header
	if h.Get("Content-Type") != "text/plain; charset=UTF-8" || h.Get("Content-Length") != "26" ||
		h.Get("ETag") != `"`+sha(data)+`"` || h.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
		t.Fatalf("headers %v", h)
	}
	res = do(t, "HEAD", dl, "", nil, 0)
	if res.StatusCode != 200 || res.Header.Get("Content-Length") != "26" {
		t.Fatalf("head %d %v", res.StatusCode, res.Header)
	}
	req, _ := http.NewRequest("GET", dl, nil)
	req.Header.Set("If-None-Match", `"`+sha(data)+`"`)
	res2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res2.Body.Close()
	if res2.StatusCode != http.StatusNotModified {
		t.Fatalf("if-none-match: %d", res2.StatusCode)
	}
	req, _ = http.NewRequest("GET", dl, nil)
	req.Header.Set("Range", "bytes=7-13")
	res3, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(res3.Body)
	res3.Body.Close()
	if res3.StatusCode != http.StatusPartialContent || string(part) != "catalog" {
		t.Fatalf("range: %d %q", res3.StatusCode, part)
	}
}

func TestEmptyUpload(t *testing.T) {
	e := newEnv(t)
	e.upload(t, "a/empty.bin", "application/octet-stream", nil)
	info, ok, _ := e.st.Stat(context.Background(), "a/empty.bin")
	if !ok || info.Size != 0 || info.SHA256 != sha(nil) {
		t.Fatalf("%+v %v", info, ok)
	}
}

func TestChunkedUpload(t *testing.T) {
	e := newEnv(t)
	data := bytes.Repeat([]byte("x"), 300000)
	up, _ := e.st.SignedUpload("a/chunked", "image/png", int64(len(data)), "", time.Hour)
	res := do(t, "PUT", up.URL, "image/png", io.MultiReader(bytes.NewReader(data)), -1)
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	info, ok, _ := e.st.Stat(context.Background(), "a/chunked")
	if !ok || info.SHA256 != sha(data) {
		t.Fatalf("%+v", info)
	}
}

func TestDeleteAndMissing(t *testing.T) {
	e := newEnv(t)
	e.upload(t, "a/x.bin", "application/octet-stream", []byte("abc"))
	ctx := context.Background()
	if err := e.st.Delete(ctx, "a/x.bin"); err != nil {
		t.Fatal(err)
	}
	e.wantAbsent(t, "a/x.bin")
	if err := e.st.Delete(ctx, "a/x.bin"); err != nil {
		t.Fatalf("second delete: %v", err)
	}
	dl, _, _ := e.st.SignedDownload("a/x.bin", time.Minute)
	wantProblem(t, do(t, "GET", dl, "", nil, 0), 404, "NOT_FOUND", "object not found")
	if err := e.st.Delete(ctx, "../x"); err == nil {
		t.Fatal("delete accepted a traversal key")
	}
	if _, _, err := e.st.Stat(ctx, "/abs"); err == nil {
		t.Fatal("stat accepted a leading slash")
	}
}

func TestTamperedSignature(t *testing.T) {
	e := newEnv(t)
	data := []byte("0123456789")
	up, _ := e.st.SignedUpload("a/t.bin", "application/octet-stream", 10, "", time.Hour)
	u, _ := url.Parse(up.URL)
	mutate := map[string]func(q url.Values, u *url.URL){
		"signature":    func(q url.Values, _ *url.URL) { s := q.Get(qSignature); q.Set(qSignature, "A"+s[1:]) },
		"no signature": func(q url.Values, _ *url.URL) { q.Del(qSignature) },
		"size":         func(q url.Values, _ *url.URL) { q.Set(qSize, "11") },
		"content type": func(q url.Values, _ *url.URL) { q.Set(qContentType, "text/html") },
		"expires":      func(q url.Values, _ *url.URL) { q.Set(qExpires, "99999999999") },
		"sha256":       func(q url.Values, _ *url.URL) { q.Set(qSHA256, sha([]byte("0123456789"))) },
		"key":          func(_ url.Values, u *url.URL) { u.Path = "/blobs/a/other.bin" },
	}
	for name, m := range mutate {
		t.Run(name, func(t *testing.T) {
			v := *u
			q := v.Query()
			m(q, &v)
			v.RawQuery = q.Encode()
			body := data
			ct := "application/octet-stream"
			if name == "size" {
				body = append(data, 'x')
			}
			if name == "content type" {
				ct = "text/html"
			}
			res := do(t, "PUT", v.String(), ct, bytes.NewReader(body), int64(len(body)))
			wantProblem(t, res, 403, "FORBIDDEN", "signature")
			e.wantAbsent(t, "a/t.bin")
			e.wantAbsent(t, "a/other.bin")
		})
	}
	// A signature made with another secret is refused as well.
	other, _ := NewSigner(bytes.Repeat([]byte("z"), 32))
	q := u.Query()
	exp := time.Unix(mustParse(q.Get(qExpires)), 0)
	q.Set(qSignature, other.Sign("PUT", "a/t.bin", "application/octet-stream", 10, "", exp))
	v := *u
	v.RawQuery = q.Encode()
	wantProblem(t, do(t, "PUT", v.String(), "application/octet-stream", bytes.NewReader(data), 10), 403, "FORBIDDEN", "signature does not match")
}

func TestExpired(t *testing.T) {
	e := newEnv(t)
	up, _ := e.st.SignedUpload("a/e.bin", "application/octet-stream", 3, "", time.Minute)
	dl, _, _ := e.st.SignedDownload("a/e.bin", time.Minute)
	// The clock moves to the expiry instant: the URL is no longer valid (expiry is exclusive).
	e.st.signer.now = func() time.Time { return up.ExpiresAt }
	wantProblem(t, do(t, "PUT", up.URL, "application/octet-stream", strings.NewReader("abc"), 3), 403, "FORBIDDEN", "expired")
	e.wantAbsent(t, "a/e.bin")
	wantProblem(t, do(t, "GET", dl, "", nil, 0), 403, "FORBIDDEN", "expired")
	// One second earlier it is accepted.
	e.st.signer.now = func() time.Time { return up.ExpiresAt.Add(-time.Second) }
	if res := do(t, "PUT", up.URL, "application/octet-stream", strings.NewReader("abc"), 3); res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
}

func TestWrongMethod(t *testing.T) {
	e := newEnv(t)
	e.upload(t, "a/m.bin", "application/octet-stream", []byte("abc"))
	up, _ := e.st.SignedUpload("a/m.bin", "application/octet-stream", 3, "", time.Hour)
	dl, _, _ := e.st.SignedDownload("a/m.bin", time.Hour)
	wantProblem(t, do(t, "GET", up.URL, "", nil, 0), 403, "FORBIDDEN", "signed for PUT, not GET")
	wantProblem(t, do(t, "POST", up.URL, "application/octet-stream", strings.NewReader("xyz"), 3), 403, "FORBIDDEN", "signed for PUT, not POST")
	wantProblem(t, do(t, "PUT", dl, "application/octet-stream", strings.NewReader("xyz"), 3), 403, "FORBIDDEN", "signed for GET, not PUT")
	wantProblem(t, do(t, "DELETE", dl, "", nil, 0), 403, "FORBIDDEN", "signed for GET, not DELETE")
	// A download URL cannot be turned into an upload one by adding the upload parameters.
	u, _ := url.Parse(dl)
	q := u.Query()
	q.Set(qMethod, "PUT")
	q.Set(qSize, "3")
	q.Set(qContentType, "application/octet-stream")
	u.RawQuery = q.Encode()
	wantProblem(t, do(t, "PUT", u.String(), "application/octet-stream", strings.NewReader("xyz"), 3), 403, "FORBIDDEN", "signature does not match")
	info, _, _ := e.st.Stat(context.Background(), "a/m.bin")
	if info.SHA256 != sha([]byte("abc")) {
		t.Fatal("object changed")
	}
}

func TestWrongContentType(t *testing.T) {
	e := newEnv(t)
	up, _ := e.st.SignedUpload("a/c.jpg", "image/jpeg", 3, "", time.Hour)
	for _, ct := range []string{"image/png", "", "text/html; charset=utf-8", "image/jpeg; x=1", "not a type"} {
		res := do(t, "PUT", up.URL, ct, strings.NewReader("abc"), 3)
		wantProblem(t, res, 415, "UNSUPPORTED_MEDIA_TYPE", `"image/jpeg"`)
	}
	e.wantAbsent(t, "a/c.jpg")
}

func TestTooLargeAndTooShort(t *testing.T) {
	e := newEnv(t)
	up, _ := e.st.SignedUpload("a/s.bin", "application/octet-stream", 10, "", time.Hour)
	ct := up.Headers["Content-Type"]
	wantProblem(t, do(t, "PUT", up.URL, ct, strings.NewReader("01234567890"), 11), 413, "PAYLOAD_TOO_LARGE", "10 bytes")
	wantProblem(t, do(t, "PUT", up.URL, ct, strings.NewReader("01234567890"), -1), 413, "PAYLOAD_TOO_LARGE", "10 bytes")
	wantProblem(t, do(t, "PUT", up.URL, ct, strings.NewReader("012345678"), 9), 400, "MALFORMED_REQUEST", "exactly 10 bytes")
	wantProblem(t, do(t, "PUT", up.URL, ct, strings.NewReader("012345678"), -1), 400, "MALFORMED_REQUEST", "exactly 10 bytes, got 9")
	e.wantAbsent(t, "a/s.bin")
}

// countingReader counts what the handler consumed of an endless body.
type countingReader struct{ n int64 }

func (c *countingReader) Read(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func TestTooLargeStopsReading(t *testing.T) {
	e := newEnv(t)
	up, _ := e.st.SignedUpload("a/big.bin", "application/octet-stream", 1000, "", time.Hour)
	body := &countingReader{}
	req := httptest.NewRequest("PUT", up.URL, body)
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/octet-stream")
	rec := httptest.NewRecorder()
	e.st.Handler().ServeHTTP(rec, req)
	if rec.Code != 413 {
		t.Fatalf("status %d", rec.Code)
	}
	if body.n > 1001 {
		t.Fatalf("handler read %d bytes of an oversized body, want at most size+1", body.n)
	}
	e.wantAbsent(t, "a/big.bin")
}

type failingReader struct{ left int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.left == 0 {
		return 0, errors.New("connection reset")
	}
	n := min(len(p), f.left)
	f.left -= n
	return n, nil
}

// A broken upload leaves nothing, and does not disturb the object already there.
func TestBrokenUploadKeepsPrevious(t *testing.T) {
	e := newEnv(t)
	old := []byte("previous version")
	e.upload(t, "a/p.bin", "application/octet-stream", old)
	up, _ := e.st.SignedUpload("a/p.bin", "application/octet-stream", 1<<20, "", time.Hour)
	req := httptest.NewRequest("PUT", up.URL, &failingReader{left: 700000})
	req.ContentLength = 1 << 20
	req.Header.Set("Content-Type", "application/octet-stream")
	rec := httptest.NewRecorder()
	e.st.Handler().ServeHTTP(rec, req)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "connection reset") {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	info, ok, _ := e.st.Stat(context.Background(), "a/p.bin")
	if !ok || info.SHA256 != sha(old) || info.Size != int64(len(old)) {
		t.Fatalf("previous object changed: %+v", info)
	}
	if err := e.st.Delete(context.Background(), "a/p.bin"); err != nil {
		t.Fatal(err)
	}
	e.wantAbsent(t, "a/p.bin")
}

// The semantics write relies on: a blob.Writer whose context is cancelled before Close commits
// nothing, even after bytes were written.
func TestCancelledWriterCommitsNothing(t *testing.T) {
	e := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := e.st.Bucket().NewWriter(ctx, "a/w.bin", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(bytes.Repeat([]byte("y"), 100000)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := w.Close(); err == nil {
		t.Fatal("Close after cancel succeeded")
	}
	e.wantAbsent(t, "a/w.bin")
}

func TestKeyValidation(t *testing.T) {
	good := []string{"a", "assets/0f1e/original.jpg", "a-b_c.d/e", "x/.hidden"}
	bad := []string{"", "/a", "a/", "a//b", "../a", "a/../b", "a/./b", ".", "A/b", "a b", "a%2fb",
		"a\nb", "a/b.tmp", "a/b.attrs", strings.Repeat("a", MaxKeyLen+1), "é"}
	for _, k := range good {
		if err := ValidateKey(k); err != nil {
			t.Errorf("%q: %v", k, err)
		}
	}
	for _, k := range bad {
		if err := ValidateKey(k); err == nil {
			t.Errorf("%q accepted", k)
		}
	}
	e := newEnv(t)
	if _, err := e.st.SignedUpload("../../etc/passwd", "text/plain", 1, "", time.Hour); err == nil {
		t.Fatal("signed a traversal key")
	}
	if _, _, err := e.st.SignedDownload("a/../../x", time.Hour); err == nil {
		t.Fatal("signed a traversal key")
	}
	// Traversal in the request path itself never reaches the bucket, encoded or not.
	up, _ := e.st.SignedUpload("a/b", "text/plain", 1, "", time.Hour)
	u, _ := url.Parse(up.URL)
	for _, p := range []string{"/blobs/a/../../../x", "/blobs/a/%2e%2e/%2e%2e/x", "/blobs//etc/x"} {
		req := httptest.NewRequest("PUT", p+"?"+u.RawQuery, strings.NewReader("z"))
		req.Header.Set("Content-Type", "text/plain")
		rec := httptest.NewRecorder()
		e.st.Handler().ServeHTTP(rec, req)
		if rec.Code != 400 {
			t.Errorf("%s: %d", p, rec.Code)
		}
	}
	req := httptest.NewRequest("GET", "/elsewhere/a/b", nil)
	rec := httptest.NewRecorder()
	e.st.Handler().ServeHTTP(rec, req)
	if rec.Code != 404 {
		t.Errorf("outside prefix: %d", rec.Code)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "x")); err == nil {
		t.Fatal("wrote outside the bucket")
	}
}

func TestSigningArguments(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		ct   string
		size int64
		sum  string
		ttl  time.Duration
	}{
		{"", 1, "", time.Hour}, {"bad type/", 1, "", time.Hour}, {"image/png", -1, "", time.Hour},
		{"image/png", 100<<20 + 1, "", time.Hour}, {"image/png", 1, "", 0}, {"image/png", 1, "", MaxTTL + time.Second},
		{"image/png", 1, "abc", time.Hour}, {"image/png", 1, sha(nil)[1:], time.Hour}, {"image/png", 1, sha(nil) + "00", time.Hour},
		{"image/png", 1, strings.Repeat("g", 64), time.Hour},
		{"image/png", 0, sha([]byte("x")), time.Hour}, // an empty body has one digest only
	}
	for _, c := range cases {
		if _, err := e.st.SignedUpload("a/b", c.ct, c.size, c.sum, c.ttl); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if _, err := e.st.SignedUpload("a/b", "image/png", 100<<20, "", MaxTTL); err != nil {
		t.Errorf("limit itself refused: %v", err)
	}
	// A digest in capitals is taken, and signed in lower case.
	up, err := e.st.SignedUpload("a/b", "image/png", 0, strings.ToUpper(sha(nil)), time.Hour)
	if u, _ := url.Parse(up.URL); err != nil || u.Query().Get(qSHA256) != sha(nil) {
		t.Errorf("upper-case digest: %v %s", err, up.URL)
	}
	if _, err := NewSigner(make([]byte, 31)); err == nil {
		t.Error("short key accepted")
	}
}

func TestOpenConfig(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, c := range []Config{
		{DataDir: dir, Key: make([]byte, 8), BaseURL: "http://h/blobs"},
		{DataDir: "", Key: testKey, BaseURL: "http://h/blobs"},
		{DataDir: dir, Key: testKey, BaseURL: "/blobs"},
		{DataDir: dir, Key: testKey, BaseURL: "http://h/blobs?x=1"},
		{DataDir: dir, Key: testKey, BaseURL: "http://h/blobs", URL: "gs://bucket"},
		{DataDir: dir, Key: testKey, BaseURL: "http://h/blobs", URL: "file://host/dir"},
	} {
		if st, err := Open(ctx, c); err == nil {
			st.Close()
			t.Errorf("%+v accepted", c)
		}
	}
	other := t.TempDir()
	st, err := Open(ctx, Config{DataDir: dir, Key: testKey, BaseURL: "http://h/blobs/", URL: "file://" + filepath.ToSlash(other)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.MaxUploadBytes() != DefaultMaxUploadBytes {
		t.Fatalf("max %d", st.MaxUploadBytes())
	}
	w, _ := st.Bucket().NewWriter(ctx, "k/v", nil)
	_, _ = w.Write([]byte("1"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(other, "k", "v")); err != nil {
		t.Fatalf("file URL not used: %v", err)
	}
	dl, _, _ := st.SignedDownload("k/v", time.Minute)
	if !strings.HasPrefix(dl, "http://h/blobs/k/v?") {
		t.Fatalf("trailing slash in base: %s", dl)
	}
}

func TestSweep(t *testing.T) {
	e := newEnv(t)
	e.upload(t, "a/keep.bin", "application/octet-stream", []byte("keep"))
	old := time.Now().Add(-2 * time.Hour)
	mk := func(p string, mtime time.Time) {
		_ = os.MkdirAll(filepath.Dir(p), 0o750)
		if err := os.WriteFile(p, []byte("junk"), 0o600); err != nil {
			t.Fatal(err)
		}
		_ = os.Chtimes(p, mtime, mtime)
	}
	staleSpool := filepath.Join(e.st.spool, "upload-1")
	freshSpool := filepath.Join(e.st.spool, "upload-2")
	staleTmp := filepath.Join(e.st.dir, "a", "x.bin.17f3a9c0d1e2.tmp")
	mk(staleSpool, old)
	mk(freshSpool, time.Now())
	mk(staleTmp, old)
	keep := filepath.Join(e.st.dir, "a", "keep.bin")
	_ = os.Chtimes(keep, old, old)
	n, err := e.st.Sweep(context.Background(), time.Hour)
	if err != nil || n != 2 {
		t.Fatalf("removed %d, err %v", n, err)
	}
	for p, want := range map[string]bool{staleSpool: false, staleTmp: false, freshSpool: true, keep: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", p, err == nil, want)
		}
	}
}

// genReader yields n deterministic pseudo-random bytes without holding them, hashing as it goes.
type genReader struct {
	left  int64
	state uint64
	h     interface {
		io.Writer
		Sum([]byte) []byte
	}
}

func newGen(n int64) *genReader {
	return &genReader{left: n, state: 0x9E3779B97F4A7C15, h: sha256.New()}
}

func (g *genReader) Read(p []byte) (int, error) {
	if g.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > g.left {
		p = p[:g.left]
	}
	for i := range p {
		g.state ^= g.state << 13
		g.state ^= g.state >> 7
		g.state ^= g.state << 17
		p[i] = byte(g.state)
	}
	g.left -= int64(len(p))
	g.h.Write(p)
	return len(p), nil
}

func (g *genReader) sum() string { return hex.EncodeToString(g.h.Sum(nil)) }

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// A 50 MB upload and download stream through fixed buffers: everything allocated during each,
// client and server together, stays far below the object's size.
func TestLargeUploadBoundedMemory(t *testing.T) {
	const size = 50 << 20
	const budget = 8 << 20
	e := newEnv(t)
	up, err := e.st.SignedUpload("a/video.mp4", "video/mp4", size, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	gen := newGen(size)
	before := totalAlloc()
	res := do(t, "PUT", up.URL, "video/mp4", gen, size)
	_, _ = io.Copy(io.Discard, res.Body)
	allocated := totalAlloc() - before
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	if allocated > budget {
		t.Fatalf("upload allocated %d MB for a %d MB body", allocated>>20, size>>20)
	}
	info, ok, _ := e.st.Stat(context.Background(), "a/video.mp4")
	if !ok || info.Size != size || info.SHA256 != gen.sum() {
		t.Fatalf("stored %+v, want sha %s", info, gen.sum())
	}

	dl, _, _ := e.st.SignedDownload("a/video.mp4", time.Minute)
	h := sha256.New()
	before = totalAlloc()
	res = do(t, "GET", dl, "", nil, 0)
	n, err := io.CopyBuffer(h, res.Body, make([]byte, 64<<10))
	allocated = totalAlloc() - before
	if err != nil || n != size || hex.EncodeToString(h.Sum(nil)) != gen.sum() {
		t.Fatalf("download n=%d err=%v", n, err)
	}
	if allocated > budget {
		t.Fatalf("download allocated %d MB for a %d MB object", allocated>>20, size>>20)
	}
}

func mustParse(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }

// A content type is type/subtype: mime's parser alone accepts a bare token such as "pdf".
func TestCanonicalContentType(t *testing.T) {
	for in, want := range map[string]string{
		"image/JPEG": "image/jpeg", "Text/Plain; Charset=UTF-8": "text/plain; charset=UTF-8", "application/vnd.api+json": "application/vnd.api+json",
	} {
		if got, err := CanonicalContentType(in); err != nil || got != want {
			t.Errorf("CanonicalContentType(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "pdf", "nope", "image/", "/jpeg", "a/b/c", "image/jpeg; x", "image jpeg", "*/*", "image/*"} {
		if got, err := CanonicalContentType(bad); err == nil {
			t.Errorf("CanonicalContentType(%q) = %q, want an error", bad, got)
		}
	}
}

// An upload whose URL expires while its body is still arriving is refused at the end, and
// nothing is stored: the expiry holds for the whole transfer.
func TestUploadOutlivingItsURL(t *testing.T) {
	e := newEnv(t)
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	e.st.signer.now = func() time.Time { return time.Unix(0, clock.Load()) }
	data := bytes.Repeat([]byte("x"), 1<<16)
	up, err := e.st.SignedUpload("assets/slow/f.upload", "text/plain", int64(len(data)), "", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	done := make(chan *http.Response, 1)
	go func() {
		req, _ := http.NewRequest("PUT", up.URL, pr)
		req.ContentLength = int64(len(data))
		req.Header.Set("Content-Type", "text/plain")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	if _, err := pw.Write(data[:1000]); err != nil {
		t.Fatal(err)
	}
	// The handler has passed its checks at the start once it spools the body.
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if ents, _ := os.ReadDir(e.st.spool); len(ents) > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the upload never reached the spool")
		}
	}
	clock.Add(int64(2 * time.Minute)) // the URL expires mid-transfer
	if _, err := pw.Write(data[1000:]); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	res := <-done
	wantProblem(t, res, 403, "FORBIDDEN", "before the upload ended")
	e.wantAbsent(t, "assets/slow/f.upload")
}
