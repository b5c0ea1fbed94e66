package blobstore

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"mime"
	"strconv"
	"strings"
	"time"
)

// MinKeyBytes is the shortest HMAC secret a Signer accepts: a key shorter than the SHA-256 output
// would make the MAC weaker than the hash it is built on.
const MinKeyBytes = 32

// signatureVersion prefixes every signed message, so a later change of the canonical form (a new
// bound field, say) can never make an old signature verify under the new meaning.
const signatureVersion = "catalogd-blob-v2"

// Signer makes and checks catalogd's own signed URLs: HMAC-SHA256 over the method, the object key,
// the content type, the size, the declared SHA-256 and the expiry, encoded base64url without padding.
//
// The fileblob driver ships a URLSigner (fileblob.URLSignerHMAC), but it binds neither the size nor
// (for GET) anything but key and method, and its KeyFromURL answers one opaque error for an expired
// and a forged URL alike; catalogd needs the size bound (an initiate-upload declares it) and
// distinct answers, so the signature is ours and the bucket's SignedURL is not used for the local
// store.
type Signer struct {
	key []byte
	// now is the clock; tests replace it to make a URL expire without sleeping.
	now func() time.Time
}

// NewSigner returns a Signer for secret, which must be at least MinKeyBytes long. The secret is
// copied.
func NewSigner(secret []byte) (*Signer, error) {
	if len(secret) < MinKeyBytes {
		return nil, errors.New("blobstore: signing key must be at least 32 bytes")
	}
	return &Signer{key: append([]byte(nil), secret...), now: time.Now}, nil
}

// Sign returns the signature of one request shape. contentType must already be canonical (see
// CanonicalContentType), size is -1 when not bound (downloads) and sum is the lower-case hex
// SHA-256 the body must have, "" when none was declared. Every field is validated before it gets
// here (keys, content types and digests cannot hold a newline), so joining with "\n" is
// unambiguous.
func (s *Signer) Sign(method, key, contentType string, size int64, sum string, expires time.Time) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(signatureVersion + "\n" + method + "\n" + key + "\n" + contentType + "\n" +
		strconv.FormatInt(size, 10) + "\n" + sum + "\n" + strconv.FormatInt(expires.Unix(), 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is the signature of the given shape, in constant time. It does not
// look at the clock: the caller checks expiry after authenticity, so that a forged URL is never
// told whether its expiry would have been acceptable.
func (s *Signer) Verify(sig, method, key, contentType string, size int64, sum string, expires time.Time) bool {
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return false
	}
	want, _ := base64.RawURLEncoding.DecodeString(s.Sign(method, key, contentType, size, sum, expires))
	return hmac.Equal(got, want)
}

// CanonicalContentType parses a media type and formats it back (type and subtype lower-cased,
// parameters sorted and quoted as needed), so that "Image/JPEG" and "image/jpeg" sign and compare
// alike while "image/png" and "image/jpeg" never do. An empty or unparsable value is an error.
func CanonicalContentType(ct string) (string, error) {
	if strings.TrimSpace(ct) == "" {
		return "", errors.New("blobstore: content type is required")
	}
	t, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", errors.New("blobstore: invalid content type: " + err.Error())
	}
	// mime accepts a bare token ("pdf") and wildcards ("*/*"); a stored object's type is one
	// concrete type/subtype.
	if typ, sub, ok := strings.Cut(t, "/"); !ok || typ == "" || sub == "" || strings.Contains(sub, "/") || typ == "*" || sub == "*" {
		return "", errors.New("blobstore: invalid content type: not type/subtype")
	}
	out := mime.FormatMediaType(t, params)
	if out == "" {
		return "", errors.New("blobstore: invalid content type")
	}
	return out, nil
}
