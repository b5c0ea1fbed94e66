package webhooks_test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/catalogd/catalogd/server/webhooks"
)

func newBoxKey(t *testing.T) []byte {
	t.Helper()
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

func TestBoxRoundTrip(t *testing.T) {
	box, err := webhooks.NewBox(newBoxKey(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range []string{"", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", strings.Repeat("ü", 1000)} {
		sealed, err := box.Seal(pt)
		if err != nil {
			t.Fatal(err)
		}
		if len(sealed) != 12+len(pt)+16 {
			t.Errorf("sealed length %d, want nonce 12 + %d + tag 16", len(sealed), len(pt))
		}
		if pt != "" && bytes.Contains(sealed, []byte(pt)) {
			t.Error("sealed contains the plaintext")
		}
		got, err := box.Open(sealed)
		if err != nil || got != pt {
			t.Fatalf("Open = %q, %v; want %q", got, err, pt)
		}
		again, _ := box.Seal(pt)
		if bytes.Equal(again, sealed) {
			t.Error("two seals of the same plaintext are equal (nonce reuse)")
		}
	}
}

func TestBoxTamper(t *testing.T) {
	box, _ := webhooks.NewBox(newBoxKey(t))
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	sealed, _ := box.Seal(secret)
	for i := range sealed {
		b := bytes.Clone(sealed)
		b[i] ^= 0x01
		if got, err := box.Open(b); err == nil {
			t.Fatalf("flipping byte %d: Open = %q, want error", i, got)
		}
	}
	for _, b := range [][]byte{nil, sealed[:11], sealed[:27], sealed[:len(sealed)-1], append(bytes.Clone(sealed), 0)} {
		if _, err := box.Open(b); err == nil {
			t.Fatalf("Open(%d bytes) succeeded, want error", len(b))
		}
	}
}

func TestBoxWrongKey(t *testing.T) {
	a, _ := webhooks.NewBox(newBoxKey(t))
	b, _ := webhooks.NewBox(newBoxKey(t))
	sealed, _ := a.Seal("whsec_abc")
	if got, err := b.Open(sealed); err == nil {
		t.Fatalf("Open with another key = %q, want error", got)
	}
	for _, n := range []int{0, 16, 24, 31, 33} {
		if _, err := webhooks.NewBox(make([]byte, n)); err == nil {
			t.Errorf("NewBox(%d-byte key) succeeded, want error", n)
		}
	}
}

func TestLoadKeyFromBase64(t *testing.T) {
	k := newBoxKey(t)
	dir := t.TempDir()
	for _, s := range []string{base64.StdEncoding.EncodeToString(k), " " + base64.StdEncoding.EncodeToString(k) + "\n", base64.RawStdEncoding.EncodeToString(k)} {
		got, err := webhooks.LoadKey(s, dir)
		if err != nil || !bytes.Equal(got, k) {
			t.Fatalf("LoadKey(%q) = %x, %v; want %x", s, got, err, k)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "secret-key")); !os.IsNotExist(err) {
		t.Fatalf("LoadKey with a key created a file: %v", err)
	}
	for _, s := range []string{base64.StdEncoding.EncodeToString(k[:16]), base64.StdEncoding.EncodeToString(append(k, 1)), "not base64!"} {
		if _, err := webhooks.LoadKey(s, dir); err == nil {
			t.Errorf("LoadKey(%q) succeeded, want error", s)
		} else if strings.Contains(err.Error(), s) {
			t.Errorf("error %q leaks the key", err)
		}
	}
}

func TestLoadKeyFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data") // does not exist yet
	k1, err := webhooks.LoadKey("", dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(k1) != 32 {
		t.Fatalf("generated key has %d bytes", len(k1))
	}
	path := filepath.Join(dir, "secret-key")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	if dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(data))); err != nil || !bytes.Equal(dec, k1) {
		t.Fatalf("key file holds %q, want base64 of the key", data)
	}
	k2, err := webhooks.LoadKey("", dir)
	if err != nil || !bytes.Equal(k1, k2) {
		t.Fatalf("second LoadKey = %x, %v; want the same key %x", k2, err, k1)
	}
	// A box from the reloaded key opens what the first sealed.
	b1, _ := webhooks.NewBox(k1)
	b2, _ := webhooks.NewBox(k2)
	sealed, _ := b1.Seal("whsec_x")
	if got, err := b2.Open(sealed); err != nil || got != "whsec_x" {
		t.Fatalf("reloaded key: Open = %q, %v", got, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("data dir holds %d entries, want only secret-key", len(entries))
	}
}

func TestLoadKeyFileConcurrentCreate(t *testing.T) {
	dir := t.TempDir()
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := webhooks.LoadKey("", dir)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for i := range keys {
		if !bytes.Equal(keys[i], keys[0]) {
			t.Fatalf("concurrent LoadKey returned different keys")
		}
	}
}

func TestLoadKeyFileBad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret-key")
	bad := base64.StdEncoding.EncodeToString(make([]byte, 16))
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := webhooks.LoadKey("", dir); err == nil {
		t.Fatal("LoadKey with a 16-byte key file succeeded, want error")
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Fatal("LoadKey overwrote an existing key file")
	}
	if _, err := webhooks.LoadKey("", ""); err == nil {
		t.Fatal("LoadKey without key and data dir succeeded, want error")
	}
}
