package blobstore

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob/fileblob"
)

// openLocal sets s up as the local store: the directory <DataDir>/blobs, or u's path.
func (s *Store) openLocal(cfg Config, u *url.URL) error {
	signer, err := NewSigner(cfg.Key)
	if err != nil {
		return err
	}
	base, err := url.Parse(cfg.BaseURL)
	if err != nil || base.Scheme == "" || base.Host == "" || base.RawQuery != "" || base.Fragment != "" {
		return fmt.Errorf("blobstore: BaseURL %q must be an absolute URL without query", cfg.BaseURL)
	}
	dir := filepath.Join(cfg.DataDir, "blobs")
	if u != nil {
		if u.Path == "" || u.Host != "" || u.RawQuery != "" {
			return fmt.Errorf("blobstore: CATALOG_BLOB_URL %q: a directory is file:///absolute/path", cfg.URL)
		}
		dir = filepath.FromSlash(u.Path)
	}
	// NoTempDir: fileblob otherwise stages every write in os.TempDir, which is often tmpfs
	// (memory) and on another mount, where its final rename fails. Staging next to the object
	// instead can strand "<key>.<hex>.tmp" files after a crash; Sweep removes those, and keys
	// ending in ".tmp" are refused so that no real object can look like one.
	bucket, err := fileblob.OpenBucket(dir, &fileblob.Options{CreateDir: true, NoTempDir: true, DirFileMode: 0o750})
	if err != nil {
		return fmt.Errorf("blobstore: open %s: %w", dir, err)
	}
	s.backend, s.bucket, s.dir, s.signer, s.base = BackendLocal, bucket, dir, signer, base
	s.basePath = strings.TrimSuffix(base.Path, "/")
	s.idle = cfg.IdleTimeout
	if s.idle <= 0 {
		s.idle = DefaultIdleTimeout
	}
	return nil
}

// expiry is now+ttl in whole seconds: the URL carries a Unix time, and ExpiresAt must be the
// instant Handler checks.
func (s *Store) expiry(ttl time.Duration) time.Time {
	return s.signer.now().Add(ttl).Truncate(time.Second)
}

func (s *Store) signedUploadLocal(key, ct string, size int64, sum string, ttl time.Duration) Upload {
	exp := s.expiry(ttl)
	q := url.Values{}
	q.Set(qMethod, "PUT")
	q.Set(qContentType, ct)
	q.Set(qSize, strconv.FormatInt(size, 10))
	if sum != "" {
		q.Set(qSHA256, sum)
	}
	q.Set(qExpires, strconv.FormatInt(exp.Unix(), 10))
	q.Set(qSignature, s.signer.Sign("PUT", key, ct, size, sum, exp))
	return Upload{URL: s.urlFor(key, q), Method: "PUT", Headers: map[string]string{"Content-Type": ct}, ExpiresAt: exp}
}

// signedDownloadLocal signs a GET; the Content-Disposition the answer is to carry (may be "") is
// signed in the content type's place, which a GET has no use for.
func (s *Store) signedDownloadLocal(key, disposition string, ttl time.Duration) (string, time.Time) {
	exp := s.expiry(ttl)
	q := url.Values{}
	q.Set(qMethod, "GET")
	if disposition != "" {
		q.Set(qDisposition, disposition)
	}
	q.Set(qExpires, strconv.FormatInt(exp.Unix(), 10))
	q.Set(qSignature, s.signer.Sign("GET", key, disposition, -1, "", exp))
	return s.urlFor(key, q), exp
}

func (s *Store) urlFor(key string, q url.Values) string {
	u := *s.base
	u.Path = s.basePath + "/" + key
	u.RawPath = ""
	u.RawQuery = q.Encode()
	return u.String()
}
