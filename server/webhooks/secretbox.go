package webhooks

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the size of the AES-256 key that encrypts secrets at rest.
const KeySize = 32

// SecretKeyFile is the name of the generated key file in the data dir.
const SecretKeyFile = "secret-key"

const nonceSize = 12

var errOpen = errors.New("webhooks: cannot decrypt secret (wrong key or corrupted data)")

// Box encrypts subscription secrets at rest with AES-256-GCM. It is safe for concurrent use.
type Box struct {
	aead cipher.AEAD
}

// NewBox returns a Box for a 32-byte key.
func NewBox(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("webhooks: secret key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCMWithNonceSize(block, nonceSize)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Seal encrypts plaintext and returns a random 12-byte nonce followed by the ciphertext and GCM tag.
func (b *Box) Seal(plaintext string) ([]byte, error) {
	out := make([]byte, nonceSize, nonceSize+len(plaintext)+b.aead.Overhead())
	if _, err := rand.Read(out); err != nil {
		return nil, err
	}
	return b.aead.Seal(out, out[:nonceSize], []byte(plaintext), nil), nil
}

// Open decrypts the output of Seal. It fails on a wrong key or any modification.
func (b *Box) Open(sealed []byte) (string, error) {
	if len(sealed) < nonceSize+b.aead.Overhead() {
		return "", errOpen
	}
	pt, err := b.aead.Open(nil, sealed[:nonceSize], sealed[nonceSize:], nil)
	if err != nil {
		return "", errOpen
	}
	return string(pt), nil
}

// LoadKey returns the 32-byte key encrypting secrets at rest: decoded from b64 (CATALOG_SECRET_KEY)
// when non-empty, else read from "<dataDir>/secret-key", which is created (base64 of 32 random
// bytes, mode 0600) when it does not exist. An existing file is never overwritten. Errors never
// contain key material.
func LoadKey(b64, dataDir string) ([]byte, error) {
	if strings.TrimSpace(b64) != "" {
		key, err := decodeKey(b64)
		if err != nil {
			return nil, fmt.Errorf("webhooks: CATALOG_SECRET_KEY: %w", err)
		}
		return key, nil
	}
	if dataDir == "" {
		return nil, errors.New("webhooks: no CATALOG_SECRET_KEY and no data dir to keep a generated key in")
	}
	path := filepath.Join(dataDir, SecretKeyFile)
	key, err := readKeyFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("webhooks: create data dir: %w", err)
	}
	key = make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	created, err := createExclusive(path, []byte(base64.StdEncoding.EncodeToString(key)+"\n"))
	if err != nil {
		return nil, fmt.Errorf("webhooks: write %s: %w", path, err)
	}
	if !created { // another process created it first: use theirs
		return readKeyFile(path)
	}
	return key, nil
}

func decodeKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		key, err = base64.RawStdEncoding.DecodeString(s)
	}
	if err != nil {
		return nil, errors.New("not valid base64")
	}
	if len(key) != KeySize {
		return nil, fmt.Errorf("must be base64 of %d bytes, got %d bytes", KeySize, len(key))
	}
	return key, nil
}

func readKeyFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, err := decodeKey(string(data))
	if err != nil {
		return nil, fmt.Errorf("webhooks: %s: %w", path, err)
	}
	return key, nil
}

// createExclusive writes data to path only if path does not exist, atomically: the content is
// written to a temporary file in the same directory and hard-linked into place, so a concurrent
// reader never sees a partial key. It reports false when path already existed.
func createExclusive(path string, data []byte) (bool, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+SecretKeyFile+".tmp-*")
	if err != nil {
		return false, err
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return false, err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	err = os.Link(tmpName, path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrExist):
		return false, nil
	}
	// No hard links on this file system: fall back to an exclusive create.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return false, err
	}
	return true, f.Close()
}
