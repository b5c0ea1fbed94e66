// Package webhook receives catalogd's webhooks: a Verifier checks a delivery's Standard Webhooks
// signature and timestamp, and a Coalescer turns a burst of events about one entity into one fetch
// of its current state, as the interface specification's "Consumer guidance" describes.
//
// A delivery carries the headers webhook-id (the delivery's uuid: the same on every retry of that
// delivery, so a receiver that keeps the ids it has handled drops retries), webhook-timestamp (Unix
// seconds, set per attempt), webhook-signature ("v1,<base64>", several separated by spaces) and
// X-Webhook-Event-Type; the body is a thin JSON object of the uuids that fetch the current state
// (for example {"productUuid":"…"}).
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is how far a delivery's webhook-timestamp may be from the receiver's clock, in
// either direction (the specification's replay window).
const DefaultTolerance = 5 * time.Minute

// MaxBody is the largest body Handler reads (payloads are a few uuids).
const MaxBody = 1 << 20

// Errors of Verify; each refusal wraps exactly one of them.
var (
	ErrMissingHeaders = errors.New("webhook: missing webhook-id, webhook-timestamp or webhook-signature")
	ErrTimestamp      = errors.New("webhook: webhook-timestamp outside the tolerance window")
	ErrSignature      = errors.New("webhook: no valid signature")
)

// Verifier checks deliveries signed with one subscription secret. It is safe for concurrent use.
type Verifier struct {
	key []byte
	// Tolerance is the accepted distance between webhook-timestamp and Now (DefaultTolerance when 0).
	Tolerance time.Duration
	// Now is the receiver's clock (time.Now when nil).
	Now func() time.Time
}

// NewVerifier returns a Verifier for a subscription secret as catalogd returns it ("whsec_" followed
// by base64); the key is the base64-decoded part.
func NewVerifier(secret string) (*Verifier, error) {
	enc, ok := strings.CutPrefix(secret, "whsec_")
	if !ok || enc == "" {
		return nil, errors.New("webhook: the secret must be whsec_ followed by base64")
	}
	key, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(key) == 0 {
		return nil, errors.New("webhook: the secret must be whsec_ followed by base64")
	}
	return &Verifier{key: key}, nil
}

// Delivery is a verified webhook.
type Delivery struct {
	ID        string    // webhook-id: the delivery's uuid (stable across retries)
	Timestamp time.Time // webhook-timestamp of this attempt
	EventType string    // X-Webhook-Event-Type, e.g. "product.updated"
	Body      []byte    // the raw JSON payload
}

// Payload decodes the thin payload: its string values by key (e.g. "productUuid").
func (d Delivery) Payload() (map[string]string, error) {
	var raw map[string]any
	if err := json.Unmarshal(d.Body, &raw); err != nil {
		return nil, fmt.Errorf("webhook: payload: %w", err)
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out, nil
}

// Sign returns the signature header value "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>" (for
// tests of a receiver).
func (v *Verifier) Sign(id string, ts time.Time, body []byte) string {
	return "v1," + base64.StdEncoding.EncodeToString(v.mac(id, strconv.FormatInt(ts.Unix(), 10), body))
}

func (v *Verifier) mac(id, ts string, body []byte) []byte {
	m := hmac.New(sha256.New, v.key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Verify checks the headers of a delivery against its raw body: the timestamp within the tolerance
// window, and at least one "v1," signature (of those separated by spaces) equal, compared in
// constant time, to the HMAC of "id.timestamp.body".
func (v *Verifier) Verify(h http.Header, body []byte) (Delivery, error) {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return Delivery{}, ErrMissingHeaders
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return Delivery{}, fmt.Errorf("%w: %q is not Unix seconds", ErrTimestamp, ts)
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	tol := v.Tolerance
	if tol <= 0 {
		tol = DefaultTolerance
	}
	sent := time.Unix(secs, 0)
	if d := now().Sub(sent); d > tol || d < -tol {
		return Delivery{}, fmt.Errorf("%w: sent %s, %s from now", ErrTimestamp, sent.UTC().Format(time.RFC3339), d.Round(time.Second))
	}
	want := v.mac(id, ts, body)
	ok := false
	for _, s := range strings.Fields(sigs) {
		enc, found := strings.CutPrefix(s, "v1,")
		if !found {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(enc)
		if err == nil && hmac.Equal(got, want) {
			ok = true // keep going: the time taken does not depend on which signature matched
		}
	}
	if !ok {
		return Delivery{}, ErrSignature
	}
	return Delivery{ID: id, Timestamp: sent, EventType: h.Get("X-Webhook-Event-Type"), Body: body}, nil
}

// Handler is an http.Handler that verifies each delivery and passes it to handle: a refused
// delivery is answered 401 (catalogd retries it later), a verified one 204 once handle returned
// without error, 500 otherwise (retried). handle should be quick: hand slow work to a Coalescer.
func (v *Verifier) Handler(handle func(Delivery) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
		if err != nil || len(body) > MaxBody {
			http.Error(w, "cannot read the body", http.StatusBadRequest)
			return
		}
		d, err := v.Verify(r.Header, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		if err := handle(d); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
