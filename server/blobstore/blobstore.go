// Package blobstore is catalogd's blob storage for asset files: objects in a gocloud.dev/blob
// bucket, written and read by clients through URLs that catalogd signs and serves itself.
//
// The flow it supports (issue 12, API.md "Assets"): initiate-upload asks SignedUpload for a URL
// bound to one key, method, content type and size; the client PUTs the bytes there; Handler
// streams them into the bucket, enforcing the size and computing the SHA-256 on the way;
// complete-upload calls Stat to compare size and checksum with what was declared; a file's get
// hands out SignedDownload; delete calls Delete.
//
// Only the local store exists so far (a directory through fileblob). A cloud store (s3blob) will
// hand out the store's native pre-signed URLs instead and bypass Handler; Open refuses any other
// scheme until that is wired.
package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/gcerrors"
)

const (
	// DefaultMaxUploadBytes is CATALOG_MAX_UPLOAD_BYTES's default (API.md: 1 GiB).
	DefaultMaxUploadBytes int64 = 1 << 30
	// MaxTTL bounds a signed URL's lifetime; S3 has the same seven-day ceiling, so callers cannot
	// come to depend on a longer one locally.
	MaxTTL = 7 * 24 * time.Hour
	// MaxKeyLen bounds a key (S3 allows 1024 bytes; half leaves room for a bucket prefix).
	MaxKeyLen = 512
	// metaSHA256 is the metadata entry holding the object's lower-case hex SHA-256.
	metaSHA256 = "sha256"
	// staleAfter is how long a temporary file may go unmodified before Sweep removes it. A live
	// upload writes to its file continuously, so an hour of silence means its writer is gone.
	staleAfter = time.Hour
)

// Config configures Open.
type Config struct {
	// URL is CATALOG_BLOB_URL. "" means the directory <DataDir>/blobs; "file:///abs/dir" names
	// another directory. Other schemes are refused for now.
	URL string
	// DataDir is CATALOG_DATA_DIR; it also holds the upload spool (<DataDir>/blob-spool).
	DataDir string
	// Key is the HMAC secret for signed URLs (at least MinKeyBytes). Every replica serving the
	// same store needs the same key.
	Key []byte
	// BaseURL is where Handler is reachable from clients, e.g. "https://catalog.example/blobs";
	// signed URLs are BaseURL + "/" + key + "?…", and Handler serves paths under its path.
	BaseURL string
	// MaxUploadBytes caps SignedUpload's size (0: DefaultMaxUploadBytes).
	MaxUploadBytes int64
}

// Store is a bucket plus the signer and handler for its URLs. It is safe for concurrent use.
type Store struct {
	bucket   *blob.Bucket
	dir      string // the bucket's directory (local store)
	spool    string
	signer   *Signer
	base     *url.URL
	basePath string // base.Path without a trailing slash
	maxBytes int64
}

// Open opens the store described by cfg, creating its directories, and removes temporary files
// that a crashed process left behind (see Sweep).
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("blobstore: DataDir is required")
	}
	signer, err := NewSigner(cfg.Key)
	if err != nil {
		return nil, err
	}
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || base.Scheme == "" || base.Host == "" || base.RawQuery != "" || base.Fragment != "" {
		return nil, fmt.Errorf("blobstore: BaseURL %q must be an absolute URL without query", cfg.BaseURL)
	}
	dir := filepath.Join(cfg.DataDir, "blobs")
	if cfg.URL != "" {
		u, err := url.Parse(cfg.URL)
		if err != nil {
			return nil, fmt.Errorf("blobstore: blob URL: %w", err)
		}
		if u.Scheme != "file" || u.Path == "" {
			return nil, fmt.Errorf("blobstore: blob URL scheme %q is not supported yet (only a local directory)", u.Scheme)
		}
		dir = filepath.FromSlash(u.Path)
	}
	// NoTempDir: fileblob otherwise stages every write in os.TempDir, which is often tmpfs
	// (memory) and on another mount, where its final rename fails. Staging next to the object
	// instead can strand "<key>.<hex>.tmp" files after a crash; Sweep removes those, and keys
	// ending in ".tmp" are refused so that no real object can look like one.
	bucket, err := fileblob.OpenBucket(dir, &fileblob.Options{CreateDir: true, NoTempDir: true, DirFileMode: 0o750})
	if err != nil {
		return nil, fmt.Errorf("blobstore: open %s: %w", dir, err)
	}
	spool := filepath.Join(cfg.DataDir, "blob-spool")
	if err := os.MkdirAll(spool, 0o750); err != nil {
		_ = bucket.Close()
		return nil, fmt.Errorf("blobstore: %w", err)
	}
	maxBytes := cfg.MaxUploadBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxUploadBytes
	}
	s := &Store{bucket: bucket, dir: dir, spool: spool, signer: signer, base: base,
		basePath: strings.TrimSuffix(base.Path, "/"), maxBytes: maxBytes}
	if _, err := s.Sweep(ctx, staleAfter); err != nil {
		_ = bucket.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// Bucket is the underlying bucket, for readers such as the rendition workers.
func (s *Store) Bucket() *blob.Bucket { return s.bucket }

// MaxUploadBytes is the largest size SignedUpload accepts.
func (s *Store) MaxUploadBytes() int64 { return s.maxBytes }

var keyRE = regexp.MustCompile(`^[a-z0-9._-]+(/[a-z0-9._-]+)*$`)

// ValidateKey checks an object key: 1 to MaxKeyLen bytes of [a-z0-9/._-], no leading, trailing
// or doubled "/", no "." or ".." segment, and not ending in ".tmp" or ".attrs" (fileblob's
// temporary and attribute files). The charset needs no escaping in a URL path or on any
// filesystem, so a key is the same string in a URL, in the bucket and on disk.
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
// signed number of bytes before ExpiresAt.
type Upload struct {
	URL       string
	Method    string
	Headers   map[string]string
	ExpiresAt time.Time
}

func (s *Store) expiry(ttl time.Duration) (time.Time, error) {
	if ttl < time.Second || ttl > MaxTTL {
		return time.Time{}, fmt.Errorf("blobstore: ttl must be between 1s and %s", MaxTTL)
	}
	// Whole seconds: the URL carries a Unix time, and ExpiresAt must be the instant it checks.
	return s.signer.now().Add(ttl).Truncate(time.Second), nil
}

// SignedUpload returns a PUT URL for key that accepts exactly size bytes (0 ≤ size ≤
// MaxUploadBytes) of contentType until now+ttl. The content type is returned canonical in
// Headers; the client must send it (Handler compares media types, not spellings).
func (s *Store) SignedUpload(key, contentType string, size int64, ttl time.Duration) (Upload, error) {
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
	exp, err := s.expiry(ttl)
	if err != nil {
		return Upload{}, err
	}
	q := url.Values{}
	q.Set(qMethod, "PUT")
	q.Set(qContentType, ct)
	q.Set(qSize, strconv.FormatInt(size, 10))
	q.Set(qExpires, strconv.FormatInt(exp.Unix(), 10))
	q.Set(qSignature, s.signer.Sign("PUT", key, ct, size, exp))
	return Upload{URL: s.urlFor(key, q), Method: "PUT", Headers: map[string]string{"Content-Type": ct}, ExpiresAt: exp}, nil
}

// SignedDownload returns a GET URL for key valid until the returned time (HEAD works too).
func (s *Store) SignedDownload(key string, ttl time.Duration) (string, time.Time, error) {
	if err := ValidateKey(key); err != nil {
		return "", time.Time{}, err
	}
	exp, err := s.expiry(ttl)
	if err != nil {
		return "", time.Time{}, err
	}
	q := url.Values{}
	q.Set(qMethod, "GET")
	q.Set(qExpires, strconv.FormatInt(exp.Unix(), 10))
	q.Set(qSignature, s.signer.Sign("GET", key, "", -1, exp))
	return s.urlFor(key, q), exp, nil
}

func (s *Store) urlFor(key string, q url.Values) string {
	u := *s.base
	u.Path = s.basePath + "/" + key
	u.RawPath = ""
	u.RawQuery = q.Encode()
	return u.String()
}

// Info describes a stored object.
type Info struct {
	Size        int64
	SHA256      string // lower-case hex; "" if the object was not written through Handler
	ContentType string
	ModTime     time.Time
}

// Stat describes key; exists is false (and err nil) when there is no such object.
func (s *Store) Stat(ctx context.Context, key string) (info Info, exists bool, err error) {
	if err := ValidateKey(key); err != nil {
		return Info{}, false, err
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

// fileblobTemp matches fileblob's staging names: "<path>.<hex nanoseconds>.tmp".
var fileblobTemp = regexp.MustCompile(`\.[0-9a-f]+\.tmp$`)

// Sweep removes temporary files unmodified for longer than olderThan: spool files and fileblob
// staging files of uploads whose process died. Open runs it once; a periodic job may run it too.
// It returns how many files it removed.
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
	err := sweep(s.dir, fileblobTemp.MatchString)
	return removed, err
}
