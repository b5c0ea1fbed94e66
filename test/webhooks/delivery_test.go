package webhooks

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	. "github.com/catalogd/catalogd/server/apptest"
)

var signatureRe = regexp.MustCompile(`^v1,[A-Za-z0-9+/]{43}=$`)

func randomSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// wantHeaders checks the Standard Webhooks headers of a request of delivery id, of type event.
func wantHeaders(t *testing.T, what string, h hook, id, event string) {
	t.Helper()
	if h.Method != http.MethodPost {
		t.Errorf("%s: method %s, want POST", what, h.Method)
	}
	if ct := h.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("%s: Content-Type %q, want application/json; charset=utf-8", what, ct)
	}
	if got := h.id(); got != id {
		t.Errorf("%s: webhook-id %q, want the delivery uuid %s", what, got, id)
	}
	if got := h.Header.Get("X-Webhook-Event-Type"); got != event {
		t.Errorf("%s: X-Webhook-Event-Type %q, want %s", what, got, event)
	}
	if sig := h.Header.Get("webhook-signature"); !signatureRe.MatchString(sig) {
		t.Errorf("%s: webhook-signature %q is not v1,<base64 of 32 bytes>", what, sig)
	}
	ts, err := strconv.ParseInt(h.Header.Get("webhook-timestamp"), 10, 64)
	if err != nil {
		t.Errorf("%s: webhook-timestamp %q is not unix seconds", what, h.Header.Get("webhook-timestamp"))
	} else if ts > h.At.Unix()+1 || ts < h.At.Unix()-60 {
		t.Errorf("%s: webhook-timestamp %d is not the time of sending (received at %d)", what, ts, h.At.Unix())
	}
}

func TestDeliverySignedAndRecorded(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, tenant := s.tenantClient(t)
	answer := "thanks " + RandomHex(4)
	rc := newReceiver(t, respondWith(200, answer))
	id, secret := newSub(t, c, rc.URL, "attribute.created")
	a := mkAttr(t, c, "color")

	WaitFor(t, 10*time.Second, "the attribute.created request", func() bool { return rc.count() > 0 })
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "delivered", isStatus("delivered"))
	hs := rc.hooks()
	if len(hs) != 1 {
		t.Fatalf("receiver got %d requests, want exactly 1", len(hs))
	}
	h := hs[0]
	wantHeaders(t, "delivery", h, did, "attribute.created")
	var body map[string]any
	if err := json.Unmarshal(h.Body, &body); err != nil {
		t.Fatalf("body %q is not JSON: %v", h.Body, err)
	}
	WantKeys(t, "payload", body, "attributeUuid")
	if body["attributeUuid"] != a {
		t.Errorf("payload %s, want {\"attributeUuid\": %q}", h.Body, a)
	}

	// The official library verifies it with the subscription secret, and only with it.
	verify(t, "delivery", h, secret)
	if err := verifyErr(t, h, randomSecret()); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
		t.Errorf("the library accepts the delivery with a wrong secret: %v", err)
	}
	tampered := h
	tampered.Body = bytes.Replace(h.Body, []byte(a), []byte(RandomUUID()), 1)
	if err := verifyErr(t, tampered, secret); err == nil {
		t.Errorf("the library accepts a tampered body")
	}

	// The delivery record.
	WantKeys(t, "delivery", d, deliveryKeys...)
	if Str(d, "status") != "delivered" || num(d, "attempts") != 1 || num(d, "lastStatusCode") != 200 || d["scheduledAt"] != nil {
		t.Errorf("delivery %v: want delivered, attempts 1, lastStatusCode 200, scheduledAt null", d)
	}
	if Str(d, "eventType") != "attribute.created" || Str(d, "subscriptionUuid") != id || d["payload"].(map[string]any)["attributeUuid"] != a {
		t.Errorf("delivery %v: eventType, subscriptionUuid or payload", d)
	}
	var eventUUID string
	if err := s.pool.QueryRow(context.Background(), `SELECT uuid::text FROM events WHERE tenant_id = $1 AND type = 'attribute.created'`, tenant).Scan(&eventUUID); err != nil {
		t.Fatal(err)
	}
	if Str(d, "eventUuid") != eventUUID {
		t.Errorf("delivery eventUuid %v, want the event's %s", d["eventUuid"], eventUUID)
	}
	wantTimestamp(t, "delivery createdAt", d["createdAt"])
	wantTimestamp(t, "delivery updatedAt", d["updatedAt"])

	atts := attempts(t, c, id, did)
	if len(atts) != 1 {
		t.Fatalf("%d attempts, want 1: %v", len(atts), atts)
	}
	at := atts[0]
	WantKeys(t, "attempt", at, attemptKeys...)
	if num(at, "statusCode") != 200 || num(at, "responseTimeMs") < 0 || at["error"] != nil || Str(at, "responseBody") != answer ||
		Str(at, "deliveryUuid") != did || !UUIDRe.MatchString(Str(at, "uuid")) {
		t.Errorf("attempt %v: want statusCode 200, responseTimeMs >= 0, error null, responseBody %q", at, answer)
	}
	wantTimestamp(t, "attempt createdAt", at["createdAt"])
	if sub := getSub(t, c, id); num(sub, "consecutiveFailures") != 0 {
		t.Errorf("subscription after a success: %v", sub)
	}
}

func TestDeliveryRetriedAfter500(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 0 {
			w.WriteHeader(500)
			_, _ = w.Write([]byte("boom"))
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	id, secret := newSub(t, c, rc.URL, "attribute.created")
	mkAttr(t, c, "a")
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "delivered", isStatus("delivered"))
	if num(d, "attempts") != 2 || num(d, "lastStatusCode") != 200 || d["scheduledAt"] != nil {
		t.Errorf("delivery %v: want attempts 2, lastStatusCode 200, scheduledAt null", d)
	}
	hs := rc.hooks()
	if len(hs) != 2 {
		t.Fatalf("receiver got %d requests, want 2", len(hs))
	}
	for i, h := range hs {
		wantHeaders(t, "attempt "+strconv.Itoa(i+1), h, did, "attribute.created")
		verify(t, "attempt "+strconv.Itoa(i+1), h, secret)
	}
	if !bytes.Equal(hs[0].Body, hs[1].Body) {
		t.Errorf("the retry sent another body: %s vs %s", hs[0].Body, hs[1].Body)
	}
	t0, _ := strconv.ParseInt(hs[0].Header.Get("webhook-timestamp"), 10, 64)
	t1, _ := strconv.ParseInt(hs[1].Header.Get("webhook-timestamp"), 10, 64)
	if t1 < t0 {
		t.Errorf("the retry's webhook-timestamp %d is before the first's %d", t1, t0)
	}
	atts := attempts(t, c, id, did)
	if len(atts) != 2 || num(atts[0], "statusCode") != 500 || Str(atts[0], "responseBody") != "boom" || atts[0]["error"] != nil ||
		num(atts[1], "statusCode") != 200 || atts[1]["error"] != nil {
		t.Errorf("attempts %v: want 500 \"boom\" then 200", atts)
	}
	if sub := getSub(t, c, id); num(sub, "consecutiveFailures") != 0 || Str(sub, "status") != "active" {
		t.Errorf("subscription after the success: %v, want consecutiveFailures 0", sub)
	}
}

func TestDeliveryConnectionRefused(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	id, _ := newSub(t, c, closedURL(t), "attribute.created")
	mkAttr(t, c, "a")
	did := onlyDelivery(t, c, id)
	// After a failed attempt the delivery is pending with its next time.
	p := waitDelivery(t, c, id, did, "pending after a failed attempt", func(d map[string]any) bool {
		return Str(d, "status") != "pending" || num(d, "attempts") >= 1
	})
	if Str(p, "status") != "pending" || p["scheduledAt"] == nil || p["lastStatusCode"] != nil {
		t.Errorf("delivery after %v attempt(s): %v, want pending with scheduledAt and lastStatusCode null", p["attempts"], p)
	}
	d := waitDelivery(t, c, id, did, "failed", isStatus("failed"))
	if num(d, "attempts") != 1+len(schedule) || d["scheduledAt"] != nil || d["lastStatusCode"] != nil {
		t.Errorf("failed delivery %v: want attempts %d, scheduledAt null, lastStatusCode null", d, 1+len(schedule))
	}
	atts := attempts(t, c, id, did)
	if len(atts) != 1+len(schedule) {
		t.Fatalf("%d attempts, want %d", len(atts), 1+len(schedule))
	}
	for i, at := range atts {
		if at["statusCode"] != nil || Str(at, "error") != "refused" || num(at, "responseTimeMs") < 0 {
			t.Errorf("attempt %d: %v, want statusCode null, error refused", i+1, at)
		}
	}
	if sub := getSub(t, c, id); num(sub, "consecutiveFailures") != 1+len(schedule) || Str(sub, "status") != "active" {
		t.Errorf("subscription %v: want active with consecutiveFailures %d", sub, 1+len(schedule))
	}
	// A manual redelivery starts a fresh retry schedule; the attempts count keeps growing.
	Want(t, c.Post(subs+"/"+id+"/deliveries/"+did+"/actions/redeliver", nil), 200)
	d = waitDelivery(t, c, id, did, "failed again", func(d map[string]any) bool {
		return Str(d, "status") == "failed" && num(d, "attempts") > 1+len(schedule)
	})
	if num(d, "attempts") != 2*(1+len(schedule)) {
		t.Errorf("after a redelivery with a fresh schedule: attempts %d, want %d", num(d, "attempts"), 2*(1+len(schedule)))
	}
}

// Success is any 2xx.
func TestDeliveryAny2xxIsSuccess(t *testing.T) {
	t.Parallel()
	for _, code := range []int{201, 202, 204, 299} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			t.Parallel()
			c, _ := mainSite().tenantClient(t)
			rc := newReceiver(t, respondWith(code, ""))
			id, _ := newSub(t, c, rc.URL, "attribute.created")
			mkAttr(t, c, "a")
			did := onlyDelivery(t, c, id)
			d := waitDelivery(t, c, id, did, "finished", func(d map[string]any) bool {
				return Str(d, "status") != "pending"
			})
			if Str(d, "status") != "delivered" || num(d, "attempts") != 1 || num(d, "lastStatusCode") != code {
				t.Errorf("delivery answered %d: %v, want delivered after 1 attempt", code, d)
			}
		})
	}
}

// An updated targetUrl applies to the next attempt of a pending delivery.
func TestUpdatedTargetAppliesToNextAttempt(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	old := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	fresh := newReceiver(t, nil)
	id, secret := newSub(t, c, old.URL, "attribute.created")
	mkAttr(t, c, "a")
	WaitFor(t, 10*time.Second, "the first attempt", func() bool { return old.count() > 0 })
	Want(t, c.Patch(subs+"/"+id, map[string]any{"targetUrl": fresh.URL}), 200)
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "delivered", isStatus("delivered"))
	if old.count() != 1 || fresh.count() != 1 || num(d, "attempts") != 2 {
		t.Fatalf("old target got %d, new target %d requests; delivery %v", old.count(), fresh.count(), d)
	}
	wantHeaders(t, "attempt at the new target", fresh.hooks()[0], did, "attribute.created")
	verify(t, "attempt at the new target", fresh.hooks()[0], secret)
}

func TestDeliveryTimeout(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
		_, _ = w.Write([]byte("too late"))
	})
	sub := createSub(t, c, rc.URL, map[string]any{"requestTimeoutMs": 1000}, "attribute.created")
	id := Str(sub, "uuid")
	if num(sub, "requestTimeoutMs") != 1000 {
		t.Fatalf("requestTimeoutMs %v", sub["requestTimeoutMs"])
	}
	mkAttr(t, c, "a")
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "failed", isStatus("failed"))
	if num(d, "attempts") != 1+len(schedule) || d["lastStatusCode"] != nil {
		t.Errorf("delivery %v", d)
	}
	for i, at := range attempts(t, c, id, did) {
		if at["statusCode"] != nil || Str(at, "error") != "timeout" {
			t.Errorf("attempt %d: %v, want statusCode null, error timeout", i+1, at)
		}
	}
	if n := rc.count(); n != 1+len(schedule) {
		t.Errorf("receiver got %d requests, want %d", n, 1+len(schedule))
	}
}

func TestDeliveryRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	elsewhere := newReceiver(t, nil)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL, http.StatusFound)
	})
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	mkAttr(t, c, "a")
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "failed", isStatus("failed"))
	if num(d, "attempts") != 1+len(schedule) || num(d, "lastStatusCode") != 302 {
		t.Errorf("delivery %v: want failed after %d attempts, lastStatusCode 302", d, 1+len(schedule))
	}
	for i, at := range attempts(t, c, id, did) {
		if num(at, "statusCode") != 302 || Str(at, "error") != "redirect" {
			t.Errorf("attempt %d: %v, want statusCode 302, error redirect", i+1, at)
		}
	}
	if n := elsewhere.count(); n != 0 {
		t.Errorf("the redirect target got %d requests: redirects must not be followed", n)
	}
	if n := rc.count(); n != 1+len(schedule) {
		t.Errorf("receiver got %d requests, want %d", n, 1+len(schedule))
	}
}

func TestDelivery410SuspendsSubscription(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, _ := s.tenantClient(t)
	rc := newReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 0 {
			w.WriteHeader(http.StatusGone)
			return
		}
		_, _ = w.Write([]byte("back"))
	})
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	mkAttr(t, c, "a")
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "failed", isStatus("failed"))
	if num(d, "attempts") != 1 || num(d, "lastStatusCode") != 410 || d["scheduledAt"] != nil {
		t.Errorf("delivery %v: want failed at once (attempts 1, lastStatusCode 410, scheduledAt null)", d)
	}
	sub := getSub(t, c, id)
	if Str(sub, "status") != "suspended" || sub["suspendedAt"] == nil || num(sub, "consecutiveFailures") != 1 {
		t.Fatalf("subscription after 410: %v, want suspended with suspendedAt", sub)
	}
	wantTimestamp(t, "suspendedAt", sub["suspendedAt"])
	if items := Want(t, c.Get(subs+Q("statuses[eq]", "suspended")), 200).Items(); len(items) != 1 || Str(items[0], "uuid") != id {
		t.Errorf("statuses[eq]=suspended: %v", items)
	}

	// A suspended subscription gets no deliveries; redelivery is refused.
	mkAttr(t, c, "b")
	if n := s.deliveryRows(t, id); n != 1 {
		t.Errorf("a suspended subscription got %d delivery rows, want 1 (the first)", n)
	}
	WantProblem(t, c.Post(subs+"/"+id+"/deliveries/"+did+"/actions/redeliver", nil), 409, "INVALID_TRANSITION")

	// activate: active again, counter reset, and events are delivered again.
	on := Want(t, lifecycle(c, id, "activate"), 200).Obj()
	if Str(on, "status") != "active" || num(on, "consecutiveFailures") != 0 || on["suspendedAt"] != nil {
		t.Errorf("activate after suspension: %v, want active, consecutiveFailures 0, suspendedAt null", on)
	}
	mkAttr(t, c, "c")
	WaitFor(t, 15*time.Second, "a delivery after re-activation", func() bool {
		return len(Want(t, c.Get(subs+"/"+id+"/deliveries"+Q("statuses[eq]", "delivered")), 200).Items()) == 1
	})
	if n := rc.count(); n != 2 {
		t.Errorf("receiver got %d requests, want 2 (the 410 and the one after activation)", n)
	}
	// deactivate also works from suspended.
	Want(t, lifecycle(c, id, "deactivate"), 200)
}

func TestDeliveryRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		status int
		value  func() string
	}{
		{"503 delay-seconds", 503, func() string { return "2" }},
		{"429 HTTP-date", 429, func() string { return time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := mainSite().tenantClient(t)
			rc := newReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
				if n == 0 {
					w.Header().Set("Retry-After", tc.value())
					w.WriteHeader(tc.status)
					return
				}
				_, _ = w.Write([]byte("ok"))
			})
			id, _ := newSub(t, c, rc.URL, "attribute.created")
			mkAttr(t, c, "a-"+RandomHex(3))
			did := onlyDelivery(t, c, id)
			d := waitDelivery(t, c, id, did, "delivered", isStatus("delivered"))
			if num(d, "attempts") != 2 {
				t.Errorf("delivery %v: want attempts 2", d)
			}
			hs := rc.hooks()
			if len(hs) != 2 {
				t.Fatalf("receiver got %d requests, want 2", len(hs))
			}
			// The schedule's delay is 300 ms: a gap this long is the Retry-After.
			if gap := hs[1].At.Sub(hs[0].At); gap < 1500*time.Millisecond {
				t.Errorf("second attempt %s after the first: Retry-After (2 s or more) not honoured", gap)
			}
		})
	}
}

func TestDeliveryLargeResponseBody(t *testing.T) {
	t.Parallel()
	const tenMB = 10 << 20
	cases := []struct {
		name string
		body []byte
		want string
	}{
		{"ascii", bytes.Repeat([]byte("a"), tenMB), strings.Repeat("a", 2048)},
		{"three-byte characters", bytes.Repeat([]byte("日"), tenMB/3), strings.Repeat("日", 2048)},
		{"two-byte characters", bytes.Repeat([]byte("é"), tenMB/2), strings.Repeat("é", 2048)},
		{"four-byte characters", bytes.Repeat([]byte("😀"), tenMB/4), strings.Repeat("😀", 2048)},
		// Invalid UTF-8 and NUL bytes are replaced (by U+FFFD; how many per invalid run is not fixed).
		{"invalid bytes", []byte("ok\xff\x00\xe6\x97 done"), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := mainSite().tenantClient(t)
			rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				_, _ = w.Write(tc.body)
			})
			id, _ := newSub(t, c, rc.URL, "attribute.created")
			mkAttr(t, c, "a-"+RandomHex(3))
			did := onlyDelivery(t, c, id)
			d := waitDelivery(t, c, id, did, "delivered", isStatus("delivered"))
			if num(d, "lastStatusCode") != 200 {
				t.Errorf("delivery %v", d)
			}
			atts := attempts(t, c, id, did)
			if len(atts) != 1 {
				t.Fatalf("%d attempts", len(atts))
			}
			got := Str(atts[0], "responseBody")
			if !utf8.ValidString(got) {
				t.Errorf("responseBody is not valid UTF-8")
			}
			if tc.want == "" {
				if !strings.HasPrefix(got, "ok\uFFFD") || !strings.HasSuffix(got, "\uFFFD done") || strings.ContainsRune(got, 0) {
					t.Errorf("responseBody %q: want the valid parts kept and invalid bytes and NUL replaced by U+FFFD", got)
				}
			} else if got != tc.want {
				t.Errorf("responseBody has %d characters (%.40q…), want %d characters %.40q…",
					utf8.RuneCountInString(got), got, utf8.RuneCountInString(tc.want), tc.want)
			}
		})
	}
}
