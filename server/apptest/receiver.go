package apptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/webhooks"
)

// ReceiverBurst is the number of writes CheckReceiver makes to one product.
const ReceiverBurst = 8

// ReceiverDebounceMs is the debounce CheckReceiver gives the receiver (DEBOUNCE_MS): long beside
// the few milliseconds between the deliveries of a burst, so the burst is one fetch.
const ReceiverDebounceMs = 2000

// CheckReceiver tests a webhook receiver program (the Go, TypeScript and Python SDKs' examples)
// against the live catalogd e, whose configuration must allow private targets
// (CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS). start returns the command of the program, not started;
// its environment gets CATALOG_URL, TOKEN, WEBHOOK_SECRET, LISTEN=127.0.0.1:0 and DEBOUNCE_MS
// appended. The program prints one JSON object per line: {"listening": url} first, then
// {"delivery": webhook-id, "type": event type, "payload": {...}} for each delivery it verified and
// {"fetched": productUuid, "status": HTTP status, "product": body} for each fetch.
//
// In a fresh tenant, with a subscription to product.updated:
//   - deliveries with a body other than the signed one, a timestamp 10 minutes old (correctly
//     signed), a wrong secret or no signature are refused (4xx) and not handled;
//   - one whose webhook-signature lists a wrong signature before the right one is handled (2xx);
//   - ReceiverBurst updates of one product are each delivered (catalogd records a 2xx for every
//     delivery) and verified, and result in fewer fetches of the product than events, the last of
//     which sees the product's last state.
func CheckReceiver(t *testing.T, e *Env, start func(env []string) *exec.Cmd) {
	t.Helper()
	c, tenant := e.TenantClient(t)

	// The subscription first (its secret is the receiver's), aimed at the receiver once it listens.
	sub := Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "receiver", "targetUrl", "http://127.0.0.1:9/")), 201).Obj()
	subUUID, secret := Str(sub, "uuid"), Str(sub, "secret")
	rc := startReceiver(t, start([]string{"CATALOG_URL=" + e.BaseURL, "TOKEN=" + Token(tenant), "WEBHOOK_SECRET=" + secret,
		"LISTEN=127.0.0.1:0", fmt.Sprintf("DEBOUNCE_MS=%d", ReceiverDebounceMs)}))
	url := rc.listening(t)

	product := Str(Want(t, c.Post("/v1/products", Body("code", "rcv-"+RandomHex(4), "kind", "simple")), 201).Obj(), "uuid")

	// Refused: each answered 4xx and never handled.
	body := []byte(`{"productUuid":"` + product + `"}`)
	now := time.Now()
	sign := func(secret, id string, ts time.Time, b []byte) string {
		s, err := webhooks.Sign(secret, id, ts, b)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	other, _ := webhooks.NewSecret()
	for _, r := range []struct {
		what, id string
		ts       time.Time
		sig      string
		body     []byte
	}{
		{"a body other than the signed one", "refused-1", now, sign(secret, "refused-1", now, body), []byte(`{"productUuid":"` + RandomUUID() + `"}`)},
		{"a timestamp 10 minutes old", "refused-2", now.Add(-10 * time.Minute), sign(secret, "refused-2", now.Add(-10*time.Minute), body), body},
		{"a timestamp 10 minutes ahead", "refused-3", now.Add(10 * time.Minute), sign(secret, "refused-3", now.Add(10*time.Minute), body), body},
		{"another secret", "refused-4", now, sign(other, "refused-4", now, body), body},
		{"no signature", "refused-5", now, "", body},
	} {
		if code := post(t, url, r.id, r.ts, r.sig, r.body); code < 400 || code > 499 {
			t.Errorf("a delivery with %s: the receiver answered %d, want 4xx", r.what, code)
		}
	}
	// Accepted: a wrong signature first, the right one second (rotation), for another product.
	stranger := RandomUUID()
	sb := []byte(`{"productUuid":"` + stranger + `"}`)
	if code := post(t, url, "accepted-1", now, "v1,AAAA "+sign(other, "accepted-1", now, sb)+" "+sign(secret, "accepted-1", now, sb), sb); code < 200 || code > 299 {
		t.Errorf("a delivery whose second signature is right: the receiver answered %d, want 2xx", code)
	}

	// Subscribe the receiver to product.updated, then a burst of updates of one product.
	Want(t, c.Patch("/v1/webhook-subscriptions/"+subUUID, Body("targetUrl", url)), 200)
	types := Want(t, c.Get("/v1/webhook-event-types?names[eq]=product.updated"), 200).Items()
	if len(types) != 1 {
		t.Fatalf("event type product.updated: %v", types)
	}
	Want(t, c.Post("/v1/webhook-subscriptions/"+subUUID+"/event-types", Body("webhookEventTypeUuid", Str(types[0], "uuid"))), 201)
	last := ""
	for i := 1; i <= ReceiverBurst; i++ {
		last = fmt.Sprintf("burst %d", i)
		Want(t, c.Patch("/v1/products/"+product, Body("displayName", last)), 200)
	}

	// Every delivery delivered (2xx) and verified; the product fetched in its last state.
	var deliveries []map[string]any
	WaitFor(t, 2*time.Minute, "the burst's deliveries delivered and the product fetched in its last state", func() bool {
		deliveries = Want(t, c.Get("/v1/webhook-subscriptions/"+subUUID+"/deliveries?size=100"), 200).Items()
		delivered := 0
		for _, d := range deliveries {
			if Str(d, "status") == "delivered" {
				delivered++
			}
		}
		f := rc.fetches(product)
		return delivered == ReceiverBurst && len(f) > 0 && Str(mapOf(f[len(f)-1]["product"]), "displayName") == last
	})
	if len(deliveries) != ReceiverBurst {
		t.Errorf("%d deliveries, want %d (one per update)", len(deliveries), ReceiverBurst)
	}
	handled := map[string]bool{}
	for _, l := range rc.all() {
		if id, ok := l["delivery"].(string); ok {
			handled[id] = true
			if strings.HasPrefix(id, "refused-") {
				t.Errorf("the receiver handled the refused delivery %s", id)
			}
		}
	}
	if !handled["accepted-1"] {
		t.Errorf("the receiver did not handle the delivery whose second signature is right")
	}
	for _, d := range deliveries {
		if !handled[Str(d, "uuid")] {
			t.Errorf("delivery %s (webhook-id) was not handled by the receiver", Str(d, "uuid"))
		}
	}
	f := rc.fetches(product)
	if len(f) >= ReceiverBurst {
		t.Errorf("%d events made %d fetches of the product, want fewer (coalesced): %v", ReceiverBurst, len(f), f)
	}
	for _, x := range f {
		if x["status"] != float64(200) {
			t.Errorf("a fetch of the product answered %v, want 200: %v", x["status"], x)
		}
	}
	t.Logf("%d deliveries, %d fetch(es) of the product", len(deliveries), len(f))
	// The stranger's fetch is the current state of a product that does not exist: 404.
	WaitFor(t, time.Minute, "the fetch of the unknown product", func() bool { return len(rc.fetches(stranger)) > 0 })
	if s := rc.fetches(stranger)[0]["status"]; s != float64(404) {
		t.Errorf("the fetch of an unknown product answered %v, want 404", s)
	}
}

func mapOf(v any) map[string]any { m, _ := v.(map[string]any); return m }

// post sends one webhook request to url with the given headers (no webhook-signature when sig is
// empty) and returns the status.
func post(t *testing.T, url, id string, ts time.Time, sig string, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header["webhook-id"] = []string{id}
	req.Header["webhook-timestamp"] = []string{fmt.Sprint(ts.Unix())}
	if sig != "" {
		req.Header["webhook-signature"] = []string{sig}
	}
	req.Header.Set("X-Webhook-Event-Type", "product.updated")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// receiverProc is a running receiver program and the lines it printed.
type receiverProc struct {
	mu     sync.Mutex
	lines  []map[string]any
	done   chan struct{}
	stderr bytes.Buffer
}

func startReceiver(t *testing.T, cmd *exec.Cmd) *receiverProc {
	t.Helper()
	rc := &receiverProc{done: make(chan struct{})}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &syncWriter{mu: &rc.mu, w: &rc.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the receiver %s: %v", cmd.Path, err)
	}
	go func() {
		defer close(rc.done)
		s := bufio.NewScanner(out)
		s.Buffer(make([]byte, 1<<20), 1<<20)
		for s.Scan() {
			var m map[string]any
			if json.Unmarshal(s.Bytes(), &m) != nil {
				m = map[string]any{"text": s.Text()}
			}
			rc.mu.Lock()
			rc.lines = append(rc.lines, m)
			rc.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-rc.done
		_ = cmd.Wait()
		if t.Failed() {
			rc.mu.Lock()
			defer rc.mu.Unlock()
			b, _ := json.Marshal(rc.lines)
			t.Logf("the receiver printed:\n%s\nand on stderr:\n%s", b, rc.stderr.String())
		}
	})
	return rc
}

// listening waits for the receiver's {"listening": url} line.
func (rc *receiverProc) listening(t *testing.T) string {
	t.Helper()
	url := ""
	WaitFor(t, 2*time.Minute, "the receiver's {\"listening\": url} line", func() bool {
		select {
		case <-rc.done:
			rc.mu.Lock()
			defer rc.mu.Unlock()
			t.Fatalf("the receiver exited before listening:\n%s", rc.stderr.String())
		default:
		}
		for _, l := range rc.all() {
			if u, ok := l["listening"].(string); ok {
				url = u
				return true
			}
		}
		return false
	})
	return url
}

func (rc *receiverProc) all() []map[string]any {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]map[string]any(nil), rc.lines...)
}

// fetches are the receiver's {"fetched": id} lines of one entity, in order.
func (rc *receiverProc) fetches(id string) []map[string]any {
	var out []map[string]any
	for _, l := range rc.all() {
		if l["fetched"] == id {
			out = append(out, l)
		}
	}
	return out
}

type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
