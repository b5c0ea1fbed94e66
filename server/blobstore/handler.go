package blobstore

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/gcerrors"

	"github.com/catalogd/catalogd/server/apierr"
)

// Query parameters of a signed URL.
const (
	qMethod      = "method"
	qContentType = "contentType"
	qSize        = "size"
	qSHA256      = "sha256"
	qExpires     = "expires"
	qSignature   = "signature"
	// qDisposition is the Content-Disposition a download answers with (signed).
	qDisposition = "disposition"
)

// copyBufSize is the one buffer an upload or download streams through; memory per transfer is
// this plus the HTTP server's own buffers, whatever the object's size.
const copyBufSize = 256 << 10

func (s *Store) serve(w http.ResponseWriter, r *http.Request) {
	key, ok := strings.CutPrefix(r.URL.Path, s.basePath+"/")
	if !ok {
		problem(w, r, apierr.New(apierr.NotFound, "no resource"))
		return
	}
	if err := ValidateKey(key); err != nil {
		problem(w, r, apierr.New(apierr.ValidationFailed, "invalid object key"))
		return
	}
	q := r.URL.Query()
	signedMethod := q.Get(qMethod)
	exp, err := strconv.ParseInt(q.Get(qExpires), 10, 64)
	if err != nil || (signedMethod != "PUT" && signedMethod != "GET") {
		problem(w, r, apierr.New(apierr.Forbidden, "missing or malformed signature parameters"))
		return
	}
	expires := time.Unix(exp, 0)
	ct, size, sum := "", int64(-1), ""
	if signedMethod == "GET" {
		ct = q.Get(qDisposition) // signed in the content type's place (signedDownloadLocal)
	}
	if signedMethod == "PUT" {
		ct = q.Get(qContentType)
		size, err = strconv.ParseInt(q.Get(qSize), 10, 64)
		sum = q.Get(qSHA256)
		if norm, serr := normalizeSHA256(sum); err != nil || size < 0 || serr != nil || norm != sum {
			problem(w, r, apierr.New(apierr.Forbidden, "missing or malformed signature parameters"))
			return
		}
	}
	// Authenticity first, then expiry, then the method: a forged URL learns nothing else, and a
	// genuine one is told precisely why it does not fit.
	if !s.signer.Verify(q.Get(qSignature), signedMethod, key, ct, size, sum, expires) {
		problem(w, r, apierr.New(apierr.Forbidden, "signature does not match"))
		return
	}
	if !s.signer.now().Before(expires) {
		problem(w, r, apierr.New(apierr.Forbidden, "signed URL expired at %s", expires.UTC().Format(time.RFC3339)).
			WithMeta("expiredAt", expires.UTC().Format(time.RFC3339)))
		return
	}
	method := r.Method
	if method == http.MethodHead && signedMethod == "GET" {
		method = "GET"
	}
	// A method the URL was not signed for is refused with 403, as S3 does for a pre-signed URL,
	// so a client sees the same status whichever store is behind the URL.
	if method != signedMethod {
		problem(w, r, apierr.New(apierr.Forbidden, "URL is signed for %s, not %s", signedMethod, r.Method))
		return
	}
	if signedMethod == "PUT" {
		s.put(w, r, key, ct, size, sum, expires)
		return
	}
	s.get(w, r, key, ct)
}

// put stores the request body under key.
//
// The body is spooled to a file under DataDir while it is counted and hashed, and only a complete,
// right-sized body with the signed digest (if one was declared) is then written to the bucket,
// with its SHA-256 as metadata. Two reasons for the spool: gocloud fixes a blob's metadata when
// the Writer is opened, before a single byte is seen, so a checksum can only be attached to an
// object whose bytes were already read; and a refused upload must leave nothing behind. The
// second holds without the spool too — a blob.Writer whose context is cancelled before Close is
// not committed (fileblob removes its staging file; this package's tests check it) — and the copy
// into the bucket relies on it: any failure cancels that context. The price is writing the bytes
// twice, which the benchmarks show next to a plain file copy.
//
// A client that stops sending does not hold the connection: every read of the body must bring a
// byte within the idle timeout (a read deadline, refreshed as data arrives), else 408.
func (s *Store) put(w http.ResponseWriter, r *http.Request, key, signedCT string, size int64, signedSum string, expires time.Time) {
	if got, err := CanonicalContentType(r.Header.Get("Content-Type")); err != nil || got != signedCT {
		// 415 rather than 403: the URL is genuine and unexpired; only the request's header does
		// not match what it was signed for, and the detail says which to send.
		problem(w, r, apierr.New(apierr.UnsupportedMedia, "Content-Type must be %q as signed", signedCT).
			WithMeta("contentType", signedCT))
		return
	}
	// A declared length is checked before reading anything.
	if r.ContentLength > size {
		tooLarge(w, r, size)
		return
	}
	if r.ContentLength >= 0 && r.ContentLength < size {
		problem(w, r, apierr.New(apierr.MalformedRequest, "body must be exactly %d bytes, Content-Length says %d", size, r.ContentLength).
			WithMeta("sizeBytes", size))
		return
	}

	buf := make([]byte, copyBufSize)
	rc := http.NewResponseController(w)
	body := &idleReader{r: r.Body, rc: rc, idle: s.idle}
	// Read at most size+1 bytes: one byte beyond the signed size proves the body too large,
	// without reading (or storing) the rest of it.
	f, n, sum, err := s.spoolBody(body, size+1, buf)
	_ = rc.SetReadDeadline(time.Time{}) // not supported by test recorders
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		problem(w, r, apierr.New(apierr.RequestTimeout, "no byte of the body arrived for %s", s.idle))
		return
	case err != nil && body.failed:
		problem(w, r, apierr.New(apierr.MalformedRequest, "reading body: %v", err))
		return
	case err != nil:
		problem(w, r, apierr.New(apierr.Internal, "spool: %v", err))
		return
	}
	defer s.dropSpool(f)
	switch {
	case n > size:
		tooLarge(w, r, size)
		return
	case n < size:
		problem(w, r, apierr.New(apierr.MalformedRequest, "body must be exactly %d bytes, got %d", size, n).
			WithMeta("sizeBytes", size))
		return
	case signedSum != "" && sum != signedSum:
		// 400, as S3 answers BadDigest for a body that does not match x-amz-checksum-sha256.
		problem(w, r, apierr.New(apierr.MalformedRequest, "body SHA-256 is %s, the upload was signed for %s", sum, signedSum).
			WithMeta("checksumSha256", signedSum))
		return
	}
	// The URL's expiry holds for the whole transfer, not only its start: an upload still arriving
	// when the URL expires is refused and nothing is stored. The file it was for is failed at that
	// instant, and the object's deletion (queued for a minute after the expiry) must not meet an
	// object written later (found by the audit: a slow PUT that ended after its expiry left an
	// object nothing referred to).
	if !s.signer.now().Before(expires) {
		problem(w, r, apierr.New(apierr.Forbidden, "signed URL expired at %s, before the upload ended", expires.UTC().Format(time.RFC3339)).
			WithMeta("expiredAt", expires.UTC().Format(time.RFC3339)))
		return
	}
	if err := s.write(r.Context(), key, signedCT, sum, f, buf); err != nil {
		problem(w, r, apierr.New(apierr.Internal, "store: %v", err))
		return
	}
	w.Header().Set("ETag", `"`+sum+`"`)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"key": key, "sizeBytes": n, "checksumSha256": sum})
}

// idleReader reads an upload body under a read deadline that moves forward before every read:
// a slow but steady client is never cut off, a silent one is after idle. It remembers whether a
// failure came from the body (the client) rather than from the spool (the server).
type idleReader struct {
	r      io.Reader
	rc     *http.ResponseController
	idle   time.Duration
	failed bool
}

func (b *idleReader) Read(p []byte) (int, error) {
	_ = b.rc.SetReadDeadline(time.Now().Add(b.idle)) // not supported by test recorders
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.failed = true
	}
	return n, err
}

// get streams key through http.ServeContent, which brings HEAD, Range and If-None-Match; the
// blob.Reader seeks lazily, so nothing is read that is not sent.
func (s *Store) get(w http.ResponseWriter, r *http.Request, key, disposition string) {
	a, err := s.bucket.Attributes(r.Context(), key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		problem(w, r, apierr.New(apierr.NotFound, "object not found"))
		return
	}
	if err != nil {
		problem(w, r, apierr.New(apierr.Internal, "stat: %v", err))
		return
	}
	br, err := s.bucket.NewReader(r.Context(), key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		problem(w, r, apierr.New(apierr.NotFound, "object not found"))
		return
	}
	if err != nil {
		problem(w, r, apierr.New(apierr.Internal, "open: %v", err))
		return
	}
	defer br.Close()
	hd := w.Header()
	hd.Set("Content-Type", a.ContentType)
	// The ETag is the content's SHA-256: stable across replicas and copies, unlike fileblob's
	// modification-time ETag.
	if sum := a.Metadata[metaSHA256]; sum != "" {
		hd.Set("ETag", `"`+sum+`"`)
	} else if a.ETag != "" {
		hd.Set("ETag", a.ETag)
	}
	// Uploaded bytes are served from catalogd's own origin: never let a browser sniff them into
	// HTML or run them as a page.
	hd.Set("X-Content-Type-Options", "nosniff")
	if disposition != "" {
		hd.Set("Content-Disposition", disposition)
	}
	hd.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	hd.Set("Cache-Control", "private")
	http.ServeContent(w, r, "", a.ModTime, br)
}

// notServed is the s3 store's Handler: its URLs point at S3, never at catalogd.
func notServed(w http.ResponseWriter, r *http.Request) {
	problem(w, r, apierr.New(apierr.NotFound, "no resource: this store's URLs point at S3"))
}

func tooLarge(w http.ResponseWriter, r *http.Request, size int64) {
	problem(w, r, apierr.New(apierr.PayloadTooLarge, "body exceeds the signed size of %d bytes", size).
		WithMeta("limitBytes", size))
}

// problem writes e as the API's problem document (apierr.WriteProblem; INTERNAL says nothing more).
func problem(w http.ResponseWriter, r *http.Request, e *apierr.Error) {
	apierr.WriteProblem(w, e, r.URL.Path, "")
}
