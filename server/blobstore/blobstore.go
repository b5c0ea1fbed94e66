// Package blobstore is catalogd's blob storage for asset files (issue 12, API.md "Assets"): one
// Store type over two backends, chosen by CATALOG_BLOB_URL.
//
//   - local (URL "" or file:///dir): objects in a directory through gocloud.dev/blob/fileblob.
//     Clients upload and download through URLs that catalogd signs itself (HMAC, see Signer) and
//     serves with Handler, which enforces method, content type, size, declared SHA-256 and expiry
//     while it streams.
//   - s3 (URL s3://bucket?region=…): an S3-compatible bucket through gocloud.dev/blob/s3blob.
//     Clients talk to the S3 endpoint directly with the store's native pre-signed (SigV4) URLs;
//     Handler serves nothing. What S3 enforces is bound into the signature: method, key, expiry,
//     Content-Type, Content-Length and, when declared, x-amz-checksum-sha256 (S3 refuses a body
//     with another digest). See SignedUpload.
//
// The flow it supports: initiate-upload asks SignedUpload for a URL bound to one key, method,
// content type, size and (optionally) SHA-256, and hands the client Upload.URL and Upload.Headers;
// the client PUTs the bytes; complete-upload calls Stat, and Checksum when Stat does not know the
// digest, to compare size and checksum with what was declared (the last word on both backends); a
// file's get hands out SignedDownload; delete calls Delete. Rendition workers read with NewReader
// and write with Put, which records the SHA-256 so that Stat knows it later.
package blobstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

const (
	// DefaultMaxUploadBytes is CATALOG_MAX_UPLOAD_BYTES's default (API.md: 1 GiB).
	DefaultMaxUploadBytes int64 = 1 << 30
	// DefaultIdleTimeout is how long Handler waits for the next byte of an upload body before it
	// gives up with 408: a stalled client must not hold a connection (and a spool file) forever.
	DefaultIdleTimeout = 30 * time.Second
	// MaxTTL bounds a signed URL's lifetime; S3 has the same seven-day ceiling, so callers cannot
	// come to depend on a longer one locally.
	MaxTTL = 7 * 24 * time.Hour
	// MaxKeyLen bounds a key (S3 allows 1024 bytes; half leaves room for a bucket prefix).
	MaxKeyLen = 512
	// metaSHA256 is the local store's metadata entry holding the object's lower-case hex SHA-256.
	metaSHA256 = "sha256"
	// staleAfter is how long a temporary file may go unmodified before Sweep removes it. A live
	// upload writes to its file continuously, so an hour of silence means its writer is gone.
	staleAfter = time.Hour
	// Backend names, as Backend returns them.
	BackendLocal = "local"
	BackendS3    = "s3"
)

// Config configures Open.
type Config struct {
	// URL is CATALOG_BLOB_URL: "" for the directory <DataDir>/blobs, "file:///abs/dir" for another
	// directory, or "s3://bucket?region=…" for an S3-compatible bucket. The s3 form takes the
	// query parameters of gocloud's s3blob URL opener (v0.47), notably endpoint=http://host:port
	// for a non-AWS server, use_path_style=true (most of them need it), disable_https=true,
	// profile=…, request_checksum_calculation=when_required. Credentials come from AccessKeyID/
	// SecretAccessKey when set, else from the AWS SDK's default chain (AWS_ACCESS_KEY_ID and
	// AWS_SECRET_ACCESS_KEY, shared config files, instance roles).
	URL string
	// DataDir is CATALOG_DATA_DIR; it holds the spool (<DataDir>/blob-spool) through which
	// uploads and Put pass while hashed, on both backends, and the local store's directory.
	DataDir string
	// Key is the HMAC secret for the local store's signed URLs (at least MinKeyBytes). Every
	// replica serving the same store needs the same key. Ignored by the s3 store.
	Key []byte
	// BaseURL is where Handler is reachable from clients, e.g. "https://catalog.example/blobs";
	// local signed URLs are BaseURL + "/" + key + "?…", and Handler serves paths under its path.
	// Ignored by the s3 store.
	BaseURL string
	// MaxUploadBytes caps SignedUpload's size (0: DefaultMaxUploadBytes).
	MaxUploadBytes int64
	// IdleTimeout is how long Handler waits for the next byte of an upload (0: DefaultIdleTimeout).
	IdleTimeout time.Duration
	// AccessKeyID and SecretAccessKey, when both set, are the s3 store's credentials instead of
	// the AWS SDK's default chain; they let a caller (a test, say) pass keys without touching the
	// process environment.
	AccessKeyID, SecretAccessKey string
}

// Store is a bucket plus the way its clients reach it. It is safe for concurrent use.
type Store struct {
	backend  string
	bucket   *blob.Bucket
	spool    string
	maxBytes int64

	// local store
	dir      string // the bucket's directory
	signer   *Signer
	base     *url.URL
	basePath string // base.Path without a trailing slash
	idle     time.Duration

	// s3 store
	s3       *s3.Client
	s3Bucket string
}

// Open opens the store described by cfg, creating its directories, and removes temporary files
// that a crashed process left behind (see Sweep). An s3 store is checked once with a HEAD of the
// bucket (bounded by ctx, and by openCheckTimeout at most), so that a misconfigured service
// refuses to start instead of failing on its first upload.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("blobstore: DataDir is required")
	}
	s := &Store{maxBytes: cfg.MaxUploadBytes, spool: filepath.Join(cfg.DataDir, "blob-spool")}
	if s.maxBytes <= 0 {
		s.maxBytes = DefaultMaxUploadBytes
	}
	var u *url.URL
	if cfg.URL != "" {
		var err error
		if u, err = url.Parse(cfg.URL); err != nil {
			return nil, fmt.Errorf("blobstore: CATALOG_BLOB_URL: %w", err)
		}
	}
	var err error
	switch {
	case u == nil || u.Scheme == "file":
		err = s.openLocal(cfg, u)
	case u.Scheme == "s3":
		err = s.openS3(ctx, cfg, u)
	default:
		err = fmt.Errorf("blobstore: CATALOG_BLOB_URL scheme %q is not supported: use \"\" (the directory "+
			"<CATALOG_DATA_DIR>/blobs), file:///absolute/dir, or s3://bucket?region=…[&endpoint=…&use_path_style=true]", u.Scheme)
	}
	if err != nil {
		return nil, err
	}
	if s.backend == BackendS3 && s.maxBytes > maxSinglePut {
		// A pre-signed PUT (and complete's server-side copy) carries at most 5 GB on S3.
		s.maxBytes = maxSinglePut
	}
	if err := os.MkdirAll(s.spool, 0o750); err != nil {
		_ = s.bucket.Close()
		return nil, fmt.Errorf("blobstore: %w", err)
	}
	if _, err := s.Sweep(ctx, staleAfter); err != nil {
		_ = s.bucket.Close()
		return nil, err
	}
	return s, nil
}

// Backend is "local" or "s3" (BackendLocal, BackendS3).
func (s *Store) Backend() string { return s.backend }

// Close closes the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// Bucket is the underlying bucket, for callers that need more than this package offers.
func (s *Store) Bucket() *blob.Bucket { return s.bucket }

// MaxUploadBytes is the largest size SignedUpload accepts.
func (s *Store) MaxUploadBytes() int64 { return s.maxBytes }

var keyRE = regexp.MustCompile(`^[a-z0-9._-]+(/[a-z0-9._-]+)*$`)

// ValidateKey checks an object key: 1 to MaxKeyLen bytes of [a-z0-9/._-], no leading, trailing
// or doubled "/", no "." or ".." segment, and not ending in ".tmp" or ".attrs" (fileblob's
// temporary and attribute files). The charset needs no escaping in a URL path, on any
// filesystem or by s3blob, so a key is the same string in a URL, in the bucket and on disk.
func ValidateKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("blobstore: key must be 1 to %d bytes", MaxKeyLen)
	}
	if !keyRE.MatchString(key) {
		return fmt.Errorf("blobstore: key %q: only [a-z0-9/._-] segments separated by single slashes", key)
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "." || seg == ".." {
			return fmt.Errorf("blobstore: key %q: no . or .. segments", key)
		}
	}
	if strings.HasSuffix(key, ".tmp") || strings.HasSuffix(key, ".attrs") {
		return fmt.Errorf("blobstore: key %q: .tmp and .attrs endings are reserved", key)
	}
	return nil
}

// Upload is what initiate-upload hands a client: send Method to URL with Headers and exactly the
// signed number of bytes (as Content-Length, which HTTP clients set themselves) before ExpiresAt.
type Upload struct {
	URL       string
	Method    string
	Headers   map[string]string
	ExpiresAt time.Time
}

func checkTTL(ttl time.Duration) error {
	if ttl < time.Second || ttl > MaxTTL {
		return fmt.Errorf("blobstore: ttl must be between 1s and %s", MaxTTL)
	}
	return nil
}

// normalizeSHA256 returns a declared digest as lower-case hex, "" staying "" (not declared).
func normalizeSHA256(sum string) (string, error) {
	if sum == "" {
		return "", nil
	}
	b, err := hex.DecodeString(sum)
	if err != nil || len(b) != sha256.Size {
		return "", errors.New("blobstore: sha256 must be 64 hexadecimal digits")
	}
	return hex.EncodeToString(b), nil
}

// emptySHA256 is the digest of zero bytes.
var emptySHA256 = func() string { s := sha256.Sum256(nil); return hex.EncodeToString(s[:]) }()

// SignedUpload returns a PUT URL for key that accepts exactly size bytes (0 ≤ size ≤
// MaxUploadBytes) of contentType until now+ttl, and, when sha256Hex is not "", only a body with
// that SHA-256. Upload.Headers are exactly the headers the client must send besides the body:
//
//   - local: Content-Type (canonical; Handler compares media types, not spellings). Handler
//     refuses another content type (415), size (413/400), digest (400), method or signature (403).
//   - s3: Content-Type, byte for byte, and X-Amz-Checksum-Sha256 (the digest in base64) when
//     sha256Hex is given; all are signed, so S3 answers 403 to any other value and 400 BadDigest
//     to a body with another digest. Content-Length is signed when size > 0 (403 otherwise). A
//     size-0 upload is bound to the empty body's digest instead, since SigV4 does not sign a zero
//     Content-Length.
func (s *Store) SignedUpload(key, contentType string, size int64, sha256Hex string, ttl time.Duration) (Upload, error) {
	if err := ValidateKey(key); err != nil {
		return Upload{}, err
	}
	ct, err := CanonicalContentType(contentType)
	if err != nil {
		return Upload{}, err
	}
	if size < 0 || size > s.maxBytes {
		return Upload{}, fmt.Errorf("blobstore: size must be between 0 and %d bytes", s.maxBytes)
	}
	sum, err := normalizeSHA256(sha256Hex)
	if err != nil {
		return Upload{}, err
	}
	if size == 0 && sum != "" && sum != emptySHA256 {
		return Upload{}, errors.New("blobstore: an empty upload cannot have that sha256")
	}
	if err := checkTTL(ttl); err != nil {
		return Upload{}, err
	}
	if s.backend == BackendS3 {
		return s.signedUploadS3(key, ct, size, sum, ttl)
	}
	return s.signedUploadLocal(key, ct, size, sum, ttl), nil
}

// SignedDownload returns a GET URL for key valid until the returned time. HEAD works too on the
// local store; an S3 URL is signed for GET only.
func (s *Store) SignedDownload(key string, ttl time.Duration) (string, time.Time, error) {
	return s.SignedDownloadAs(key, "", ttl)
}

// SignedDownloadAs is SignedDownload whose answer carries Content-Disposition: attachment with
// fileName (none when ""): a browser saves the bytes under their name instead of showing them
// (uploaded HTML never runs as a page of the store's origin, S3's included). The disposition is
// part of the signature: a client cannot change it. fileName must not hold control characters.
func (s *Store) SignedDownloadAs(key, fileName string, ttl time.Duration) (string, time.Time, error) {
	if err := ValidateKey(key); err != nil {
		return "", time.Time{}, err
	}
	if err := checkTTL(ttl); err != nil {
		return "", time.Time{}, err
	}
	disposition := ""
	if fileName != "" {
		if strings.ContainsFunc(fileName, unicode.IsControl) {
			return "", time.Time{}, errors.New("blobstore: file name with control characters")
		}
		disposition = mime.FormatMediaType("attachment", map[string]string{"filename": fileName})
	}
	if s.backend == BackendS3 {
		return s.signedDownloadS3(key, disposition, ttl)
	}
	u, exp := s.signedDownloadLocal(key, disposition, ttl)
	return u, exp, nil
}

// Info describes a stored object.
type Info struct {
	Size int64
	// SHA256 is the lower-case hex digest when the store knows it without reading the object:
	// local objects written through Handler or Put; S3 objects written by Put or uploaded with a
	// declared digest (S3's own full-object SHA-256 checksum, which S3 verified). "" otherwise;
	// Checksum then computes it.
	SHA256      string
	ContentType string
	ModTime     time.Time
}

// Stat describes key; exists is false (and err nil) when there is no such object.
func (s *Store) Stat(ctx context.Context, key string) (info Info, exists bool, err error) {
	if err := ValidateKey(key); err != nil {
		return Info{}, false, err
	}
	if s.backend == BackendS3 {
		return s.statS3(ctx, key)
	}
	a, err := s.bucket.Attributes(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return Info{}, false, nil
	}
	if err != nil {
		return Info{}, false, err
	}
	return Info{Size: a.Size, SHA256: a.Metadata[metaSHA256], ContentType: a.ContentType, ModTime: a.ModTime}, true, nil
}

// ErrNotFound is returned (wrapped) for a missing object by Checksum; IsNotFound recognises it
// and the bucket's own not-found errors alike.
var ErrNotFound = errors.New("blobstore: object not found")

// IsNotFound reports whether err means that the object does not exist.
func IsNotFound(err error) bool {
	return err != nil && (errors.Is(err, ErrNotFound) || gcerrors.Code(err) == gcerrors.NotFound)
}

// Checksum returns key's lower-case hex SHA-256: Stat's when the store knows it, else computed
// by streaming the object through the hash (never all in memory).
func (s *Store) Checksum(ctx context.Context, key string) (string, error) {
	info, ok, err := s.Stat(ctx, key)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	if info.SHA256 != "" {
		return info.SHA256, nil
	}
	r, err := s.NewReader(ctx, key)
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{r}, make([]byte, copyBufSize)); err != nil {
		return "", fmt.Errorf("blobstore: reading %s: %w", key, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// NewReader opens key for reading; a missing object gives an error for which IsNotFound is true.
func (s *Store) NewReader(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := ValidateKey(key); err != nil {
		return nil, err
	}
	r, err := s.bucket.NewReader(ctx, key, nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// NewRangeReader opens key for reading from byte offset to its end (an import resuming where
// its last committed line ended); a missing object gives an error for which IsNotFound is true.
func (s *Store) NewRangeReader(ctx context.Context, key string, offset int64) (io.ReadCloser, error) {
	if err := ValidateKey(key); err != nil {
		return nil, err
	}
	r, err := s.bucket.NewRangeReader(ctx, key, offset, -1, nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Put writes r under key (server side: rendition workers) and returns its size and lower-case
// hex SHA-256. The bytes stream through a spool file while hashed (memory stays one buffer), and
// only then into the bucket with the digest recorded (local: metadata; s3: S3's checksum, which
// S3 verifies), so Stat and Checksum know it later. It is atomic: on any error, including ctx
// being cancelled, nothing is stored and a previous object under key stays as it was.
func (s *Store) Put(ctx context.Context, key, contentType string, r io.Reader) (size int64, sha256Hex string, err error) {
	if err := ValidateKey(key); err != nil {
		return 0, "", err
	}
	ct, err := CanonicalContentType(contentType)
	if err != nil {
		return 0, "", err
	}
	buf := make([]byte, copyBufSize)
	f, n, sum, err := s.spoolBody(r, -1, buf)
	if err != nil {
		return 0, "", err
	}
	defer s.dropSpool(f)
	if err := s.commit(ctx, key, ct, sum, n, f, buf); err != nil {
		return 0, "", err
	}
	return n, sum, nil
}

// spoolBody copies src (at most limit bytes, -1 for no limit) into a new spool file while hashing
// it, and returns the file positioned at its start. On error the file is already removed.
func (s *Store) spoolBody(src io.Reader, limit int64, buf []byte) (f *os.File, n int64, sum string, err error) {
	f, err = os.CreateTemp(s.spool, "upload-*")
	if err != nil {
		return nil, 0, "", fmt.Errorf("blobstore: spool: %w", err)
	}
	if limit >= 0 {
		src = io.LimitReader(src, limit)
	}
	h := sha256.New()
	n, err = io.CopyBuffer(io.MultiWriter(f, h), struct{ io.Reader }{src}, buf)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		s.dropSpool(f)
		return nil, n, "", err
	}
	return f, n, hex.EncodeToString(h.Sum(nil)), nil
}

func (s *Store) dropSpool(f *os.File) { _ = f.Close(); _ = os.Remove(f.Name()) }

// commit stores the spooled bytes src (size bytes, digest sum) under key, atomically.
func (s *Store) commit(ctx context.Context, key, contentType, sum string, size int64, src *os.File, buf []byte) error {
	if s.backend == BackendS3 {
		return s.putS3(ctx, key, contentType, sum, size, src)
	}
	return s.write(ctx, key, contentType, sum, src, buf)
}

// write copies src into key through the bucket, with sum as metadata, atomically: on any error
// the writer's context is cancelled before Close, which gocloud documents as aborting the write,
// so no partial object appears.
func (s *Store) write(ctx context.Context, key, contentType, sum string, src io.Reader, buf []byte) (err error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bw, err := s.bucket.NewWriter(wctx, key, &blob.WriterOptions{
		ContentType: contentType, Metadata: map[string]string{metaSHA256: sum},
	})
	if err != nil {
		return err
	}
	// io.CopyBuffer with bare Reader/Writer types so the one buffer is used, not a fresh one.
	if _, err = io.CopyBuffer(struct{ io.Writer }{bw}, struct{ io.Reader }{src}, buf); err != nil {
		cancel()
		_ = bw.Close()
		return err
	}
	return bw.Close()
}

// Delete removes key. Deleting a missing object is not an error: asset deletion and the expiry
// sweep may both get there, and either way the object is gone.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	if err := s.bucket.Delete(ctx, key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return err
	}
	return nil
}

// Handler serves the local store's signed URLs under BaseURL's path: PUT stores an upload, GET
// and HEAD stream an object. Mount it at that path prefix (e.g. mux.Handle("/blobs/", h)) without
// StripPrefix. It needs no authentication of its own: the signature is the authorization. The s3
// store's URLs point at S3, so its Handler answers 404 to everything.
func (s *Store) Handler() http.Handler {
	if s.backend == BackendS3 {
		return http.HandlerFunc(notServed)
	}
	return http.HandlerFunc(s.serve)
}

// fileblobTemp matches fileblob's staging names: "<path>.<hex nanoseconds>.tmp".
var fileblobTemp = regexp.MustCompile(`\.[0-9a-f]+\.tmp$`)

// Sweep removes temporary files unmodified for longer than olderThan: spool files (both backends)
// and fileblob staging files of uploads whose process died (local). Open runs it once; a periodic
// job may run it too. It returns how many files it removed. Abandoned S3 multipart uploads are
// not this package's to clean (Put uses single PUTs; a bucket lifecycle rule covers the rest).
func (s *Store) Sweep(ctx context.Context, olderThan time.Duration) (int, error) {
	cutoff := time.Now().Add(-olderThan)
	removed := 0
	sweep := func(root string, match func(string) bool) error {
		return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() || !match(d.Name()) {
				return nil
			}
			fi, err := d.Info()
			if err != nil || !fi.ModTime().Before(cutoff) {
				return nil
			}
			if os.Remove(p) == nil {
				removed++
			}
			return nil
		})
	}
	if err := sweep(s.spool, func(string) bool { return true }); err != nil {
		return removed, err
	}
	if s.backend != BackendLocal {
		return removed, nil
	}
	err := sweep(s.dir, fileblobTemp.MatchString)
	return removed, err
}

// Move renames the object from to to. It never replaces an object: when to exists already it
// leaves both as they are and returns nil (asset files move a staging object into place, and a
// second complete of the same file must not put later bytes under a key whose checksum was
// recorded). A missing from is an error for which IsNotFound is true. Asset files use it to take
// an upload's staging object out of reach of its upload URL before checking it
// (server/catalog/asset_files.go).
//
// Local: a hard link of the file to its new name (atomic, and refused when the name exists),
// then of its attributes (fileblob's "<path>.attrs": content type and digest), then the old names
// removed; no byte is copied. S3: a HEAD of to, then a server-side CopyObject asking for a
// full-object SHA-256 (which Stat reads back) and a DeleteObject of from; S3 has no copy that
// refuses an existing destination, so two Moves racing within one HEAD's time could both copy.
// A copy of an object larger than 5 GB would need a multipart copy, which this store never has
// (a pre-signed PUT is at most 5 GB, and MaxUploadBytes is held to that on S3).
func (s *Store) Move(ctx context.Context, from, to string) error {
	if err := ValidateKey(from); err != nil {
		return err
	}
	if err := ValidateKey(to); err != nil {
		return err
	}
	if s.backend == BackendS3 {
		return s.moveS3(ctx, from, to)
	}
	src, dst := filepath.Join(s.dir, filepath.FromSlash(from)), filepath.Join(s.dir, filepath.FromSlash(to))
	switch err := os.Link(src, dst); {
	case errors.Is(err, fs.ErrExist):
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s", ErrNotFound, from)
	case err != nil:
		return fmt.Errorf("blobstore: move %s: %w", from, err)
	}
	_ = os.Remove(dst + ".attrs") // a leftover of a move cut short: the new object's are src's
	if err := os.Link(src+".attrs", dst+".attrs"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobstore: move %s: %w", from, err)
	}
	_ = os.Remove(src + ".attrs")
	if err := os.Remove(src); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobstore: move %s: %w", from, err)
	}
	return nil
}
