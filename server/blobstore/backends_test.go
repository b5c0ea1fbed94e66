package blobstore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/blobstore/s3test"
)

// newS3Env opens an s3 store on srv's bucket, with a handler server like newEnv's (whose
// Handler must answer 404 to everything).
func newS3Env(t testing.TB, srv s3test.Server) *env {
	t.Helper()
	e := &env{dir: t.TempDir(), s3: &srv}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { e.st.Handler().ServeHTTP(w, r) }))
	t.Cleanup(e.srv.Close)
	st, err := Open(context.Background(), Config{URL: srv.BlobURL, DataDir: e.dir, MaxUploadBytes: 100 << 20,
		AccessKeyID: srv.AccessKey, SecretAccessKey: srv.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e.st = st
	return e
}

// s3Error is S3's XML error body.
type s3Error struct {
	Code    string `xml:"Code"`
	Message string `xml:"Message"`
}

// refused checks that a request the store must refuse was refused: on the local store with the
// problem (status, code, detail part) that Handler answers, on S3 with status and error code
// (the XML body's Code, when the response has a body).
func (e *env) refused(t *testing.T, res *http.Response, local problemBody, s3Status int, s3Code string) {
	t.Helper()
	if e.s3 == nil {
		wantProblem(t, res, local.Status, local.Code, local.Detail)
		return
	}
	body, _ := io.ReadAll(res.Body)
	var x s3Error
	_ = xml.Unmarshal(body, &x)
	if res.StatusCode != s3Status || (s3Code != "" && x.Code != s3Code) {
		t.Fatalf("S3 answered %d %s (%s), want %d %s", res.StatusCode, x.Code, body, s3Status, s3Code)
	}
}

func pb(status int, code, detail string) problemBody {
	return problemBody{Status: status, Code: code, Detail: detail}
}

// put sends data to an upload as a client following Upload.Headers would.
func put(t *testing.T, up Upload, data []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest(up.Method, up.URL, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 {
		req.Body = http.NoBody
	}
	for k, v := range up.Headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = res.Body.Close() })
	return res
}

func b64(hexSum string) string {
	b, _ := hex.DecodeString(hexSum)
	return base64.StdEncoding.EncodeToString(b)
}

func readAll(t *testing.T, r io.ReadCloser, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *env) get(t *testing.T, key string) *http.Response {
	t.Helper()
	dl, exp, err := e.st.SignedDownload(key, time.Minute)
	if err != nil || !exp.After(time.Now()) {
		t.Fatal(err, exp)
	}
	return do(t, "GET", dl, "", nil, 0)
}

// TestBackends runs one behaviour suite against both stores: the local one (Handler behind an
// httptest server) and an s3 one on a real S3-compatible server (versitygw, see s3test).
func TestBackends(t *testing.T) {
	envs := map[string]func(t *testing.T) *env{
		"local": func(t *testing.T) *env { return newEnv(t) },
		"s3":    func(t *testing.T) *env { return newS3Env(t, s3test.Start(t)) },
	}
	for _, name := range []string{"local", "s3"} {
		t.Run(name, func(t *testing.T) {
			e := envs[name](t)
			if e.st.Backend() != name {
				t.Fatalf("Backend() = %q", e.st.Backend())
			}
			t.Run("UploadThenRead", e.testUploadThenRead)
			t.Run("PutAndChecksum", e.testPutAndChecksum)
			t.Run("WrongContentType", e.testWrongContentType)
			t.Run("WrongSize", e.testWrongSize)
			t.Run("TamperedSignature", e.testTamperedSignature)
			t.Run("WrongMethod", e.testWrongMethod)
			t.Run("ChecksumMismatch", e.testChecksumMismatch)
			t.Run("Delete", e.testDelete)
			t.Run("Move", e.testMove)
			t.Run("DownloadAs", e.testDownloadAs)
			t.Run("Expired", e.testExpiredBoth)
			t.Run("Handler", e.testHandler)
		})
	}
}

func (e *env) testUploadThenRead(t *testing.T) {
	ctx := context.Background()
	data := bytes.Repeat([]byte("catalog asset bytes "), 5000)
	sum := sha(data)
	for _, declared := range []bool{false, true} {
		key := "assets/u1/undeclared.jpg"
		declare := ""
		if declared {
			key, declare = "assets/u1/declared.jpg", sum
		}
		up, err := e.st.SignedUpload(key, "image/jpeg", int64(len(data)), declare, 15*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"Content-Type": "image/jpeg"}
		if e.s3 != nil && declared {
			want["X-Amz-Checksum-Sha256"] = b64(sum)
		}
		if up.Method != "PUT" || len(up.Headers) != len(want) {
			t.Fatalf("upload %+v, want headers %v", up, want)
		}
		for k, v := range want {
			if up.Headers[k] != v {
				t.Fatalf("header %s = %q, want %q (%v)", k, up.Headers[k], v, up.Headers)
			}
		}
		if e.s3 != nil && !strings.HasPrefix(up.URL, e.s3.Endpoint+"/"+e.s3.Bucket+"/"+key+"?") {
			t.Fatalf("url %s", up.URL)
		}
		if d := time.Until(up.ExpiresAt); d <= 14*time.Minute || d > 15*time.Minute {
			t.Fatalf("expiresAt in %v", d)
		}
		if res := put(t, up, data); res.StatusCode != 200 {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("upload: %d %s", res.StatusCode, b)
		}

		info, ok, err := e.st.Stat(ctx, key)
		if err != nil || !ok {
			t.Fatalf("stat ok=%v err=%v", ok, err)
		}
		// The local store always knows the digest (Handler computed it); S3 knows it when the
		// upload declared it (S3 verified and kept the checksum), else Checksum computes it.
		wantSum := sum
		if e.s3 != nil && !declared {
			wantSum = ""
		}
		if info.Size != int64(len(data)) || info.SHA256 != wantSum || info.ContentType != "image/jpeg" ||
			time.Since(info.ModTime) > time.Minute {
			t.Fatalf("info %+v, want sha %q", info, wantSum)
		}
		if got, err := e.st.Checksum(ctx, key); err != nil || got != sum {
			t.Fatalf("checksum %q %v, want %s", got, err, sum)
		}
		r, err := e.st.NewReader(ctx, key)
		if got := readAll(t, r, err); !bytes.Equal(got, data) {
			t.Fatalf("NewReader gave %d bytes", len(got))
		}
		res := e.get(t, key)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !bytes.Equal(body, data) || res.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("download %d %d bytes %v", res.StatusCode, len(body), res.Header)
		}
	}

	// An empty upload works too, and is bound to zero bytes on S3 through the empty digest.
	up, err := e.st.SignedUpload("assets/u1/empty.txt", "text/plain", 0, "", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if res := put(t, up, nil); res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("empty upload: %d %s", res.StatusCode, b)
	}
	if got, err := e.st.Checksum(ctx, "assets/u1/empty.txt"); err != nil || got != sha(nil) {
		t.Fatalf("empty checksum %q %v", got, err)
	}
}

func (e *env) testPutAndChecksum(t *testing.T) {
	ctx := context.Background()
	key := "assets/p1/thumbnail.webp"
	data := bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7}, 300001)
	n, sum, err := e.st.Put(ctx, key, "Image/WebP", bytes.NewReader(data))
	if err != nil || n != int64(len(data)) || sum != sha(data) {
		t.Fatalf("put n=%d sum=%s err=%v", n, sum, err)
	}
	info, ok, err := e.st.Stat(ctx, key)
	if err != nil || !ok || info.Size != n || info.SHA256 != sum || info.ContentType != "image/webp" {
		t.Fatalf("stat %+v %v %v", info, ok, err)
	}
	if got, err := e.st.Checksum(ctx, key); err != nil || got != sum {
		t.Fatalf("checksum %q %v", got, err)
	}
	r, err := e.st.NewReader(ctx, key)
	if got := readAll(t, r, err); !bytes.Equal(got, data) {
		t.Fatal("NewReader content differs")
	}
	if res := e.get(t, key); res.StatusCode != 200 {
		t.Fatalf("download %d", res.StatusCode)
	}

	// A Put that fails half-way stores nothing and leaves the previous object as it was.
	_, _, err = e.st.Put(ctx, key, "image/webp", io.MultiReader(bytes.NewReader(data[:1000]), &failingReader{}))
	if err == nil || !strings.Contains(err.Error(), "connection reset") {
		t.Fatalf("failing put: %v", err)
	}
	if info2, _, _ := e.st.Stat(ctx, key); info2.SHA256 != sum || info2.Size != n {
		t.Fatalf("previous object changed: %+v", info2)
	}
	// So does a Put whose context is already cancelled.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := e.st.Put(cctx, "assets/p1/cancelled.webp", "image/webp", bytes.NewReader(data)); err == nil {
		t.Fatal("put with a cancelled context succeeded")
	}
	e.wantAbsent(t, "assets/p1/cancelled.webp")
	// A second Put replaces the object, digest included.
	n2, sum2, err := e.st.Put(ctx, key, "image/webp", strings.NewReader("smaller"))
	if got, _ := e.st.Checksum(ctx, key); err != nil || n2 != 7 || got != sum2 || sum2 != sha([]byte("smaller")) {
		t.Fatalf("replace: %d %s %s %v", n2, sum2, got, err)
	}
	if _, _, err := e.st.Put(ctx, "../x", "image/webp", strings.NewReader("x")); err == nil {
		t.Fatal("put accepted a traversal key")
	}
}

func (e *env) testWrongContentType(t *testing.T) {
	up, err := e.st.SignedUpload("assets/c1/a.jpg", "image/jpeg", 3, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	for _, ct := range []string{"image/png", "text/html; charset=utf-8", "image/jpeg; x=1"} {
		res := do(t, "PUT", up.URL, ct, strings.NewReader("abc"), 3)
		// S3 signs Content-Type: another value breaks the signature.
		e.refused(t, res, pb(415, "UNSUPPORTED_MEDIA_TYPE", `"image/jpeg"`), 403, "SignatureDoesNotMatch")
	}
	e.wantAbsent(t, "assets/c1/a.jpg")
}

func (e *env) testWrongSize(t *testing.T) {
	key := "assets/s1/a.bin"
	up, err := e.st.SignedUpload(key, "application/octet-stream", 10, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	ct := up.Headers["Content-Type"]
	// S3 signs Content-Length: a body of another declared length breaks the signature.
	e.refused(t, do(t, "PUT", up.URL, ct, strings.NewReader("012345678"), 9),
		pb(400, "MALFORMED_REQUEST", "exactly 10 bytes"), 403, "SignatureDoesNotMatch")
	e.refused(t, do(t, "PUT", up.URL, ct, strings.NewReader("01234567890"), 11),
		pb(413, "PAYLOAD_TOO_LARGE", "10 bytes"), 403, "SignatureDoesNotMatch")
	// Without Content-Length (chunked) the signed length is missing from the request, so the
	// signature does not match either.
	e.refused(t, do(t, "PUT", up.URL, ct, strings.NewReader("01234567890"), -1),
		pb(413, "PAYLOAD_TOO_LARGE", "10 bytes"), 403, "SignatureDoesNotMatch")
	if e.s3 != nil {
		// Even the right number of bytes is refused without Content-Length on S3 (the local store
		// takes it: TestChunkedUpload).
		e.refused(t, do(t, "PUT", up.URL, ct, strings.NewReader("0123456789"), -1), problemBody{}, 403, "SignatureDoesNotMatch")
	}
	e.wantAbsent(t, key)

	// A size-0 upload: SigV4 does not sign a zero Content-Length, so S3 refuses a body through
	// the empty body's digest bound instead (400 BadDigest).
	up, err = e.st.SignedUpload("assets/s1/empty.bin", "application/octet-stream", 0, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	res := put(t, up, []byte("abc"))
	if e.s3 != nil {
		// Content-Length 3 is not in the signed headers; the server accepts the signature and
		// then checks the digest.
		e.refused(t, res, problemBody{}, 400, "BadDigest")
	} else {
		wantProblem(t, res, 413, "PAYLOAD_TOO_LARGE", "0 bytes")
	}
	e.wantAbsent(t, "assets/s1/empty.bin")
}

func (e *env) testTamperedSignature(t *testing.T) {
	key := "assets/t1/a.bin"
	data := []byte("0123456789")
	up, err := e.st.SignedUpload(key, "application/octet-stream", 10, "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	sigParam, expParam, expValue := qSignature, qExpires, "99999999999"
	if e.s3 != nil {
		sigParam, expParam, expValue = "X-Amz-Signature", "X-Amz-Expires", "7200"
	}
	u, _ := url.Parse(up.URL)
	for name, mutate := range map[string]func(q url.Values, u *url.URL){
		"signature": func(q url.Values, _ *url.URL) {
			s := q.Get(sigParam)
			q.Set(sigParam, strings.Repeat("0", 8)+s[8:])
		},
		"expiry": func(q url.Values, _ *url.URL) { q.Set(expParam, expValue) },
		"key":    func(_ url.Values, u *url.URL) { u.Path = strings.Replace(u.Path, "/a.bin", "/b.bin", 1) },
	} {
		v := *u
		q := v.Query()
		mutate(q, &v)
		v.RawQuery = q.Encode()
		res := do(t, "PUT", v.String(), "application/octet-stream", bytes.NewReader(data), 10)
		t.Run(name, func(t *testing.T) {
			e.refused(t, res, pb(403, "FORBIDDEN", "signature does not match"), 403, "SignatureDoesNotMatch")
		})
	}
	if e.s3 != nil {
		// Headers the signature does not cover: an x-amz-* one (metadata, ACL, a checksum) is
		// refused, so a client cannot attach anything S3 would keep with the object.
		for _, h := range [][2]string{{"X-Amz-Meta-Sha256", sha(data)}, {"X-Amz-Acl", "public-read"}} {
			req, _ := http.NewRequest("PUT", up.URL, bytes.NewReader(data))
			req.Header.Set("Content-Type", "application/octet-stream")
			req.Header.Set(h[0], h[1])
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			e.refused(t, res, problemBody{}, 403, "AccessDenied")
			res.Body.Close()
		}
	}
	e.wantAbsent(t, key)
	e.wantAbsent(t, "assets/t1/b.bin")
}

func (e *env) testWrongMethod(t *testing.T) {
	ctx := context.Background()
	key := "assets/m1/a.bin"
	if _, _, err := e.st.Put(ctx, key, "application/octet-stream", strings.NewReader("abc")); err != nil {
		t.Fatal(err)
	}
	up, _ := e.st.SignedUpload(key, "application/octet-stream", 3, "", time.Hour)
	dl, _, _ := e.st.SignedDownload(key, time.Hour)
	// S3 signs the method: any other one breaks the signature.
	e.refused(t, do(t, "GET", up.URL, "", nil, 0), pb(403, "FORBIDDEN", "signed for PUT, not GET"), 403, "SignatureDoesNotMatch")
	e.refused(t, do(t, "PUT", dl, "application/octet-stream", strings.NewReader("xyz"), 3),
		pb(403, "FORBIDDEN", "signed for GET, not PUT"), 403, "SignatureDoesNotMatch")
	e.refused(t, do(t, "DELETE", dl, "", nil, 0), pb(403, "FORBIDDEN", "signed for GET, not DELETE"), 403, "SignatureDoesNotMatch")
	// HEAD on a download URL: the local store serves it; S3 signed GET only (no body to read).
	res := do(t, "HEAD", dl, "", nil, 0)
	if want := map[bool]int{false: 200, true: 403}[e.s3 != nil]; res.StatusCode != want {
		t.Fatalf("HEAD: %d, want %d", res.StatusCode, want)
	}
	if got, err := e.st.Checksum(ctx, key); err != nil || got != sha([]byte("abc")) {
		t.Fatalf("object changed: %s %v", got, err)
	}
}

func (e *env) testChecksumMismatch(t *testing.T) {
	key := "assets/x1/a.bin"
	data := []byte("the real bytes")
	up, err := e.st.SignedUpload(key, "application/octet-stream", int64(len(data)), sha([]byte("other bytes...")), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// The local store compares after hashing; S3 compares with the signed x-amz-checksum-sha256.
	e.refused(t, put(t, up, data), pb(400, "MALFORMED_REQUEST", "the upload was signed for "+sha([]byte("other bytes..."))), 400, "BadDigest")
	e.wantAbsent(t, key)
	// A client that drops the checksum header breaks the S3 signature.
	if e.s3 != nil {
		res := do(t, "PUT", up.URL, up.Headers["Content-Type"], bytes.NewReader(data), int64(len(data)))
		e.refused(t, res, problemBody{}, 403, "SignatureDoesNotMatch")
		e.wantAbsent(t, key)
	}
}

func (e *env) testDelete(t *testing.T) {
	ctx := context.Background()
	key := "assets/d1/a.bin"
	if _, _, err := e.st.Put(ctx, key, "application/octet-stream", strings.NewReader("abc")); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := e.st.Delete(ctx, key); err != nil {
			t.Fatalf("delete: %v", err)
		}
	}
	e.wantAbsent(t, key)
	if _, err := e.st.NewReader(ctx, key); !IsNotFound(err) {
		t.Fatalf("NewReader of a deleted object: %v", err)
	}
	if _, err := e.st.Checksum(ctx, key); !IsNotFound(err) {
		t.Fatalf("Checksum of a deleted object: %v", err)
	}
	if IsNotFound(errors.New("other")) || IsNotFound(nil) {
		t.Fatal("IsNotFound too broad")
	}
	e.refused(t, e.get(t, key), pb(404, "NOT_FOUND", "object not found"), 404, "NoSuchKey")
	if err := e.st.Delete(ctx, "a/../b"); err == nil {
		t.Fatal("delete accepted a traversal key")
	}
}

// testExpiredBoth waits for real expiry (the S3 server has its own clock): URLs signed for one
// second are refused once that second is over.
func (e *env) testExpiredBoth(t *testing.T) {
	key := "assets/e1/a.bin"
	if _, _, err := e.st.Put(context.Background(), key, "text/plain", strings.NewReader("abc")); err != nil {
		t.Fatal(err)
	}
	up, err := e.st.SignedUpload(key, "text/plain", 3, "", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	dl, exp, err := e.st.SignedDownload(key, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// S3 compares in whole seconds; one more second leaves no doubt.
	last := up.ExpiresAt
	if exp.After(last) {
		last = exp
	}
	time.Sleep(time.Until(last) + 1100*time.Millisecond)
	e.refused(t, put(t, up, []byte("xyz")), pb(403, "FORBIDDEN", "expired"), 403, "AccessDenied")
	e.refused(t, do(t, "GET", dl, "", nil, 0), pb(403, "FORBIDDEN", "expired"), 403, "AccessDenied")
	if got, _ := e.st.Checksum(context.Background(), key); got != sha([]byte("abc")) {
		t.Fatal("object changed")
	}
}

func (e *env) testHandler(t *testing.T) {
	res := do(t, "GET", e.srv.URL+"/blobs/assets/x?method=GET", "", nil, 0)
	if e.s3 == nil {
		// Local: Handler serves (and here refuses the unsigned URL).
		wantProblem(t, res, 403, "FORBIDDEN", "signature")
		return
	}
	wantProblem(t, res, 404, "NOT_FOUND", "S3")
	wantProblem(t, do(t, "PUT", e.srv.URL+"/anything", "text/plain", strings.NewReader("x"), 1), 404, "NOT_FOUND", "S3")
}

func TestOpenS3Errors(t *testing.T) {
	srv := s3test.Start(t)
	ctx := context.Background()
	dir := t.TempDir()
	open := func(rawURL, access, secret string) error {
		st, err := Open(ctx, Config{URL: rawURL, DataDir: dir, AccessKeyID: access, SecretAccessKey: secret})
		if err == nil {
			_ = st.Close()
		}
		return err
	}
	other := strings.Replace(srv.BlobURL, "s3://"+srv.Bucket+"?", "s3://no-such-bucket?", 1)
	for _, c := range []struct {
		name, url, access, secret, want string
	}{
		{"no bucket", other, srv.AccessKey, srv.SecretKey, `bucket "no-such-bucket" does not exist at ` + srv.Endpoint},
		{"bad secret", srv.BlobURL, srv.AccessKey, "wrong", `access to bucket "catalogd-test" at ` + srv.Endpoint + " denied"},
		{"half credentials", srv.BlobURL, srv.AccessKey, "", "go together"},
		{"unknown parameter", srv.BlobURL + "&colour=blue", srv.AccessKey, srv.SecretKey, `unknown query parameter "colour"`},
		{"scheme", "gs://bucket", "", "", "CATALOG_BLOB_URL"},
		{"no bucket name", "s3:///?region=us-east-1", "", "", "names no bucket"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := open(c.url, c.access, c.secret); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// Open fails fast and says so when nothing listens at the endpoint.
func TestOpenS3Unreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Open(ctx, Config{URL: "s3://bucket?region=us-east-1&use_path_style=true&endpoint=" + url.QueryEscape(endpoint),
		DataDir: t.TempDir(), AccessKeyID: "a", SecretAccessKey: "b"})
	if err == nil || !strings.Contains(err.Error(), `bucket "bucket" at `+endpoint+" is unreachable") ||
		!strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("got %v", err)
	}
	// It gave up on its own (one attempt, no retries), not because ctx ran out.
	if ctx.Err() != nil {
		t.Fatal("Open waited for the context to end")
	}
}

// Without explicit keys the AWS SDK's default chain is used: the standard environment variables.
func TestOpenS3EnvCredentials(t *testing.T) {
	srv := s3test.Start(t)
	t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	st, err := Open(context.Background(), Config{URL: srv.BlobURL, DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, sum, err := st.Put(context.Background(), "k", "text/plain", strings.NewReader("env")); err != nil || sum != sha([]byte("env")) {
		t.Fatal(sum, err)
	}
	// And without a region anywhere, Open says what is missing.
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	noRegion := strings.Replace(srv.BlobURL, "region=us-east-1", "", 1)
	if _, err := Open(context.Background(), Config{URL: noRegion, DataDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no region") {
		t.Fatalf("no region: %v", err)
	}
}

// A PUT body that stalls ends with 408 after the idle timeout, and nothing is stored; a slow but
// steady one is not cut off.
func TestIdleTimeout(t *testing.T) {
	e := &env{dir: t.TempDir()}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { e.st.Handler().ServeHTTP(w, r) }))
	t.Cleanup(e.srv.Close)
	st, err := Open(context.Background(), Config{DataDir: e.dir, Key: testKey, BaseURL: e.srv.URL + "/blobs", IdleTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e.st = st
	up, _ := st.SignedUpload("a/slow.bin", "application/octet-stream", 10, "", time.Hour)
	u, _ := url.Parse(up.URL)

	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = io.WriteString(conn, "PUT "+u.RequestURI()+" HTTP/1.1\r\nHost: "+u.Host+
		"\r\nContent-Type: application/octet-stream\r\nContent-Length: 10\r\n\r\n0123")
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // a safety net, far above 300 ms
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	wantProblem(t, res, 408, "REQUEST_TIMEOUT", "no byte of the body arrived for 300ms")
	if !res.Close { // "Connection: close", which ReadResponse moves from Header to Close
		t.Fatalf("connection kept open: %v", res.Header)
	}
	e.wantAbsent(t, "a/slow.bin")

	// Bytes that keep coming, each within the idle timeout, make a successful upload even though
	// the whole takes longer than it.
	pr, pw := io.Pipe()
	go func() {
		for i := range 5 {
			time.Sleep(100 * time.Millisecond)
			_, _ = pw.Write([]byte{'0' + byte(2*i), '1' + byte(2*i)})
		}
		_ = pw.Close()
	}()
	res2 := do(t, "PUT", up.URL, "application/octet-stream", pr, 10)
	if res2.StatusCode != 200 {
		b, _ := io.ReadAll(res2.Body)
		t.Fatalf("steady upload: %d %s", res2.StatusCode, b)
	}
	if got, _ := st.Checksum(context.Background(), "a/slow.bin"); got != sha([]byte("0123456789")) {
		t.Fatalf("steady upload stored %s", got)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "blob-spool")); err != nil {
		t.Fatal(err)
	}
}

// testMove: an uploaded object moves to another key with its content type and digest, the old key
// is gone (a later PUT through the old URL cannot reach the moved bytes), a missing source is
// IsNotFound, and a move onto an existing key leaves that object as it was.
func (e *env) testMove(t *testing.T) {
	ctx := context.Background()
	data := []byte("the bytes of a completed upload")
	up, err := e.st.SignedUpload("assets/m1/f.upload", "text/plain", int64(len(data)), "", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if res := put(t, up, data); res.StatusCode != 200 {
		t.Fatalf("upload %d", res.StatusCode)
	}
	if err := e.st.Move(ctx, "assets/m1/f.upload", "assets/m1/f"); err != nil {
		t.Fatalf("move: %v", err)
	}
	e.wantAbsent(t, "assets/m1/f.upload")
	info, ok, err := e.st.Stat(ctx, "assets/m1/f")
	if err != nil || !ok || info.Size != int64(len(data)) || info.ContentType != "text/plain" {
		t.Fatalf("stat after move %+v %v %v", info, ok, err)
	}
	if sum, err := e.st.Checksum(ctx, "assets/m1/f"); err != nil || sum != sha(data) {
		t.Fatalf("checksum after move %s %v", sum, err)
	}
	// The upload URL still works, but only on the staging key: the moved object stays.
	other := []byte("other bytes of the same length!")
	if res := put(t, up, other); res.StatusCode != 200 {
		t.Fatalf("second upload %d", res.StatusCode)
	}
	r, err := e.st.NewReader(ctx, "assets/m1/f")
	if got := readAll(t, r, err); !bytes.Equal(got, data) {
		t.Fatalf("moved object changed to %q", got)
	}
	if err := e.st.Move(ctx, "assets/m1/missing", "assets/m1/g"); !IsNotFound(err) {
		t.Fatalf("move of a missing object: %v", err)
	}
	// A move onto an existing key changes nothing: the object there stays (a second complete
	// must never replace bytes whose checksum was recorded).
	if err := e.st.Move(ctx, "assets/m1/f.upload", "assets/m1/f"); err != nil {
		t.Fatalf("move onto an existing key: %v", err)
	}
	if sum, _ := e.st.Checksum(ctx, "assets/m1/f"); sum != sha(data) {
		t.Fatalf("move onto an existing key replaced the object")
	}
	if err := e.st.Move(ctx, "assets/m1/f", "../x"); err == nil {
		t.Fatal("move accepted a traversal key")
	}
}

// testDownloadAs: a download URL signed with a file name answers with Content-Disposition:
// attachment and that name (RFC 2231 for non-ASCII), and the disposition cannot be changed.
func (e *env) testDownloadAs(t *testing.T) {
	ctx := context.Background()
	key := "assets/dl/page"
	if _, _, err := e.st.Put(ctx, key, "text/html", strings.NewReader("<script>alert(1)</script>")); err != nil {
		t.Fatal(err)
	}
	u, _, err := e.st.SignedDownloadAs(key, "Résumé final.html", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cd := res.Header.Get("Content-Disposition")
	if res.StatusCode != 200 || !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, "R%C3%A9sum%C3%A9") {
		t.Fatalf("download: %d, Content-Disposition %q", res.StatusCode, cd)
	}
	if _, _, err := e.st.SignedDownloadAs(key, "a\nb", time.Minute); err == nil {
		t.Fatal("a name with a control character was signed")
	}
	// Another disposition than the signed one: refused (S3 signs response-content-disposition).
	parsed, _ := url.Parse(u)
	q := parsed.Query()
	name := "disposition"
	if e.s3 != nil {
		name = "response-content-disposition"
	}
	q.Set(name, "inline")
	parsed.RawQuery = q.Encode()
	res, err = http.Get(parsed.String())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Fatalf("changed disposition: %d, want 403", res.StatusCode)
	}
}
