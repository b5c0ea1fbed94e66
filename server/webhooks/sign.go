// Package webhooks holds the database-free parts of webhook delivery: Standard Webhooks
// signing, encryption of subscription secrets at rest, the SSRF guard for target URLs and
// dialled addresses, and the HTTP sender that makes one delivery attempt.
package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix is the prefix of every subscription secret (Standard Webhooks).
const SecretPrefix = "whsec_"

// secretBytes is the number of random bytes in a generated secret.
const secretBytes = 32

// errMalformedSecret never includes the secret itself.
var errMalformedSecret = errors.New("webhooks: malformed signing secret (want whsec_ followed by base64)")

// NewSecret returns "whsec_" + base64(32 random bytes).
func NewSecret() (string, error) {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b), nil
}

// secretKey returns the HMAC key of a "whsec_..." secret: the base64-decoded part after the prefix.
func secretKey(secret string) ([]byte, error) {
	enc, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok || enc == "" {
		return nil, errMalformedSecret
	}
	key, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(key) == 0 {
		return nil, errMalformedSecret
	}
	return key, nil
}

// Sign returns the Standard Webhooks signature header value "v1,<base64 HMAC-SHA256(key, id + "." + ts + "." + body)>",
// where ts is ts.Unix() in decimal and key is the base64-decoded part of secret after "whsec_".
// It returns an error for a malformed secret (the error never contains the secret).
func Sign(secret, msgID string, ts time.Time, body []byte) (string, error) {
	key, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID))
	mac.Write([]byte{'.'})
	mac.Write(strconv.AppendInt(nil, ts.Unix(), 10))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
