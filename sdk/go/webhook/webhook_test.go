package webhook_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/catalogd/catalogd/sdk/go/webhook"
)

// The example of the Standard Webhooks specification: this secret, id, timestamp and body sign to
// this value.
const (
	specSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	specID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	specTS     = "1614265330"
	specBody   = `{"test": 2432232314}`
	specSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func headers(id, ts, sig string) http.Header {
	h := http.Header{}
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", ts)
	h.Set("webhook-signature", sig)
	h.Set("X-Webhook-Event-Type", "product.updated")
	return h
}

func specVerifier(t *testing.T) *webhook.Verifier {
	t.Helper()
	v, err := webhook.NewVerifier(specSecret)
	if err != nil {
		t.Fatal(err)
	}
	secs, _ := strconv.ParseInt(specTS, 10, 64)
	v.Now = func() time.Time { return time.Unix(secs, 0) }
	return v
}

func TestVerify(t *testing.T) {
	v := specVerifier(t)
	d, err := v.Verify(headers(specID, specTS, specSig), []byte(specBody))
	if err != nil {
		t.Fatalf("the specification's example: %v", err)
	}
	if d.ID != specID || d.EventType != "product.updated" || string(d.Body) != specBody || d.Timestamp.Unix() != 1614265330 {
		t.Errorf("delivery %+v", d)
	}
	if got := v.Sign(specID, d.Timestamp, []byte(specBody)); got != specSig {
		t.Errorf("Sign = %s, want %s", got, specSig)
	}
	// Several signatures (a rotation, other versions): one valid v1 is enough.
	for _, sig := range []string{"v1,AAAA " + specSig, "v2,xyz " + specSig + " v1,bm90IGl0", "v1a,abc " + specSig} {
		if _, err := v.Verify(headers(specID, specTS, sig), []byte(specBody)); err != nil {
			t.Errorf("signatures %q: %v", sig, err)
		}
	}
	for name, tc := range map[string]struct {
		h    http.Header
		body string
		want error
	}{
		"tampered body":          {headers(specID, specTS, specSig), `{"test": 2432232315}`, webhook.ErrSignature},
		"other id":               {headers("msg_other", specTS, specSig), specBody, webhook.ErrSignature},
		"other timestamp":        {headers(specID, "1614265331", specSig), specBody, webhook.ErrSignature},
		"no v1 signature":        {headers(specID, specTS, "v2,"+strings.TrimPrefix(specSig, "v1,")), specBody, webhook.ErrSignature},
		"bad base64":             {headers(specID, specTS, "v1,%%%"), specBody, webhook.ErrSignature},
		"no signature header":    {headers(specID, specTS, ""), specBody, webhook.ErrMissingHeaders},
		"no id":                  {headers("", specTS, specSig), specBody, webhook.ErrMissingHeaders},
		"timestamp not a number": {headers(specID, "1614265330.5", specSig), specBody, webhook.ErrTimestamp},
	} {
		if _, err := v.Verify(tc.h, []byte(tc.body)); !errors.Is(err, tc.want) {
			t.Errorf("%s: Verify = %v, want %v", name, err, tc.want)
		}
	}
}

func TestVerifyTimestampWindow(t *testing.T) {
	v := specVerifier(t)
	sent := time.Unix(1614265330, 0)
	for _, tc := range []struct {
		now time.Time
		tol time.Duration
		ok  bool
	}{
		{sent.Add(5 * time.Minute), 0, true},
		{sent.Add(-5 * time.Minute), 0, true},
		{sent.Add(5*time.Minute + time.Second), 0, false},  // too old: a replay
		{sent.Add(-5*time.Minute - time.Second), 0, false}, // too far in the future
		{sent.Add(time.Hour), 2 * time.Hour, true},
		{sent.Add(time.Minute + time.Second), time.Minute, false},
	} {
		v.Now, v.Tolerance = func() time.Time { return tc.now }, tc.tol
		_, err := v.Verify(headers(specID, specTS, specSig), []byte(specBody))
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, webhook.ErrTimestamp)) {
			t.Errorf("now %s, tolerance %s: Verify = %v, want ok=%v", tc.now.Sub(sent), tc.tol, err, tc.ok)
		}
	}
}

func TestNewVerifier(t *testing.T) {
	for _, s := range []string{"", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_%%%"} {
		if _, err := webhook.NewVerifier(s); err == nil {
			t.Errorf("NewVerifier(%q) accepted", s)
		}
	}
}

func TestHandler(t *testing.T) {
	v := specVerifier(t)
	var got []webhook.Delivery
	srv := httptest.NewServer(v.Handler(func(d webhook.Delivery) error {
		got = append(got, d)
		if d.ID == "msg_fail" {
			return errors.New("cannot handle it now")
		}
		return nil
	}))
	defer srv.Close()
	post := func(h http.Header, body string) int {
		req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
		for k, vs := range h {
			req.Header[k] = vs
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := post(headers(specID, specTS, specSig), specBody); s != 204 {
		t.Errorf("a valid delivery: %d, want 204", s)
	}
	if s := post(headers(specID, specTS, specSig), specBody+" "); s != 401 {
		t.Errorf("a tampered delivery: %d, want 401", s)
	}
	if s := post(headers("msg_fail", specTS, v.Sign("msg_fail", time.Unix(1614265330, 0), []byte(specBody))), specBody); s != 500 {
		t.Errorf("a delivery the handler fails: %d, want 500", s)
	}
	if len(got) != 2 || got[0].ID != specID {
		t.Errorf("handled %+v, want the valid delivery and the failing one", got)
	}
	p, err := webhook.Delivery{Body: []byte(`{"productUuid":"p1","n":3}`)}.Payload()
	if err != nil || len(p) != 1 || p["productUuid"] != "p1" {
		t.Errorf("Payload = %v, %v", p, err)
	}
}

// fetches records the fetches of a Coalescer; a fetch blocks while hold is set, until released.
type fetches struct {
	mu      sync.Mutex
	at      []time.Duration // since start
	keys    []string
	start   time.Time
	hold    chan struct{}
	running int
}

func (f *fetches) fetch(_ context.Context, key string) {
	f.mu.Lock()
	f.at = append(f.at, time.Since(f.start))
	f.keys = append(f.keys, key)
	hold := f.hold
	f.running++
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	f.mu.Lock()
	f.running--
	f.mu.Unlock()
}

func (f *fetches) snapshot() ([]time.Duration, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.at...), append([]string(nil), f.keys...)
}

// The timings below are on synctest's fake clock: exact, whatever the machine's load.
func TestCoalescerDebounce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fetches{start: time.Now()}
		c := webhook.NewCoalescer(2*time.Second, f.fetch)
		defer c.Close()
		// A burst: an event every 500 ms for 3 s restarts the timer each time.
		for range 7 {
			c.Signal("p1")
			time.Sleep(500 * time.Millisecond)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		at, keys := f.snapshot()
		// The last event was at 3 s: one fetch, 2 s later.
		if len(at) != 1 || at[0] != 5*time.Second || keys[0] != "p1" {
			t.Fatalf("fetches at %v of %v, want one at 5s of p1", at, keys)
		}
		// After the fetch, a new event starts a new debounce.
		c.Signal("p1")
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if at, _ = f.snapshot(); len(at) != 2 || at[1] != 15500*time.Millisecond {
			t.Errorf("fetches at %v, want a second one at 15.5s (2s after the event at 13.5s)", at)
		}
	})
}

func TestCoalescerPerEntity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fetches{start: time.Now()}
		c := webhook.NewCoalescer(time.Second, f.fetch)
		defer c.Close()
		c.Signal("a")
		time.Sleep(500 * time.Millisecond)
		c.Signal("b") // does not restart a's timer
		time.Sleep(5 * time.Second)
		synctest.Wait()
		at, keys := f.snapshot()
		if len(at) != 2 || keys[0] != "a" || at[0] != time.Second || keys[1] != "b" || at[1] != 1500*time.Millisecond {
			t.Errorf("fetches %v at %v, want a at 1s and b at 1.5s", keys, at)
		}
	})
}

func TestCoalescerPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := make(chan struct{})
		f := &fetches{start: time.Now(), hold: h}
		c := webhook.NewCoalescer(time.Second, f.fetch)
		defer c.Close()
		c.Signal("p")
		time.Sleep(time.Second)
		synctest.Wait() // the fetch has started and is held
		if at, _ := f.snapshot(); len(at) != 1 {
			t.Fatalf("fetches %v, want one in progress", at)
		}
		// Events during the fetch: no second fetch at once, no timer.
		for range 5 {
			c.Signal("p")
			time.Sleep(time.Second)
		}
		synctest.Wait()
		if at, _ := f.snapshot(); len(at) != 1 {
			t.Fatalf("fetches %v during a fetch, want still one", at)
		}
		// The fetch returns: exactly one further fetch follows at once.
		f.mu.Lock()
		f.hold = nil
		f.mu.Unlock()
		close(h)
		time.Sleep(10 * time.Second)
		synctest.Wait()
		at, _ := f.snapshot()
		if len(at) != 2 || at[1] != 6*time.Second {
			t.Fatalf("fetches at %v, want a second one when the first returned (6s)", at)
		}
		// Nothing arrived during the second fetch: no third.
		c.Signal("p")
		time.Sleep(time.Second)
		synctest.Wait()
		if at, _ := f.snapshot(); len(at) != 3 || at[2] != 17*time.Second {
			t.Errorf("fetches at %v, want a third only after a new event and its debounce (17s)", at)
		}
	})
}

func TestCoalescerClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fetches{start: time.Now()}
		c := webhook.NewCoalescer(time.Second, f.fetch)
		c.Signal("p")
		c.Close() // the waiting entity is dropped
		c.Signal("q")
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if at, _ := f.snapshot(); len(at) != 0 {
			t.Errorf("fetches after Close: %v", at)
		}
	})
}
