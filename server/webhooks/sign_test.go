package webhooks_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/catalogd/catalogd/server/webhooks"
)

// The test vector published by Standard Webhooks (and used by every official library).
func TestSignStandardWebhooksVector(t *testing.T) {
	got, err := webhooks.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("Sign = %q, want %q", got, want)
	}
	// The timestamp is in whole seconds, independent of the time zone and sub-second part.
	got2, _ := webhooks.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 999_999_999).In(time.FixedZone("x", 5*3600)), []byte(`{"test": 2432232314}`))
	if got2 != got {
		t.Fatalf("Sign with sub-second/zoned time = %q, want %q", got2, got)
	}
}

func TestSignMalformedSecret(t *testing.T) {
	for _, s := range []string{"", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_!!!not-base64!!!", "whsk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"} {
		if sig, err := webhooks.Sign(s, "id", time.Now(), []byte("{}")); err == nil {
			t.Errorf("Sign(%q) = %q, want error", s, sig)
		} else if k := strings.TrimPrefix(s, "whsec_"); k != "" && strings.Contains(err.Error(), k) {
			t.Errorf("error %q leaks the secret", err)
		}
	}
}

func TestNewSecret(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		s, err := webhooks.NewSecret()
		if err != nil {
			t.Fatal(err)
		}
		enc, ok := strings.CutPrefix(s, "whsec_")
		if !ok {
			t.Fatalf("secret %q lacks the whsec_ prefix", s)
		}
		key, err := base64.StdEncoding.DecodeString(enc)
		if err != nil || len(key) != 32 {
			t.Fatalf("secret %q: decoded %d bytes, err %v; want 32 bytes", s, len(key), err)
		}
		if seen[s] {
			t.Fatalf("duplicate secret %q", s)
		}
		seen[s] = true
		if _, err := webhooks.Sign(s, "id", time.Now(), nil); err != nil {
			t.Fatalf("Sign with a new secret: %v", err)
		}
	}
}

// An actual delivery, received by an HTTP server, verifies with the official Standard Webhooks
// library (all headers, timestamp tolerance enforced); a tampered body does not.
func TestDeliveryVerifiesWithOfficialLibrary(t *testing.T) {
	secret, err := webhooks.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	type received struct {
		header http.Header
		body   []byte
	}
	got := make(chan received, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- received{r.Header.Clone(), b}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()

	payload := []byte(`{"productUuid":"0190c3c8-5f4e-7c39-a0c1-0123456789ab","note":"é ☃ 😀"}`)
	res := webhooks.NewSender(webhooks.Guard{AllowPrivate: true}).Send(context.Background(), webhooks.Request{
		MsgID: "0190c3c8-5f4e-7c39-a0c1-ba9876543210", EventType: "product.created", Payload: payload,
		Secret: secret, URL: srv.URL + "/hook", Timeout: 5 * time.Second,
	})
	if !res.Success || res.StatusCode != 204 {
		t.Fatalf("Send = %+v, want 204 success", res)
	}
	rcv := <-got
	if !bytes.Equal(rcv.body, payload) {
		t.Fatalf("received body %q, want %q", rcv.body, payload)
	}
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(rcv.body, rcv.header); err != nil {
		t.Fatalf("official library rejects the delivery: %v (headers %v)", err, rcv.header)
	}
	tampered := bytes.Replace(rcv.body, []byte("created"), []byte("creatad"), 1)
	tampered = append(tampered[:len(tampered)-1], ',', '}')
	if err := wh.Verify(tampered, rcv.header); err == nil {
		t.Fatal("official library accepts a tampered body")
	}
	other, _ := webhooks.NewSecret()
	whOther, _ := standardwebhooks.NewWebhook(other)
	if err := whOther.Verify(rcv.body, rcv.header); err == nil {
		t.Fatal("official library accepts the delivery with another secret")
	}
}
