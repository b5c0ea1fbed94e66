package webhooks

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/webhooks"
)

// hangingReceiver is a webhook target whose requests never get an answer: each blocks until the
// client gives up or the test ends. It counts the requests open at once.
type hangingReceiver struct {
	*receiver
	mu      sync.Mutex
	open    int
	maxOpen int
}

func newHangingReceiver(t *testing.T) *hangingReceiver {
	t.Helper()
	h := &hangingReceiver{}
	end := make(chan struct{})
	h.receiver = newReceiver(t, func(_ int, _ http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.open++
		h.maxOpen = max(h.maxOpen, h.open)
		h.mu.Unlock()
		select {
		case <-r.Context().Done():
		case <-end:
		}
		h.mu.Lock()
		h.open--
		h.mu.Unlock()
	})
	t.Cleanup(func() { close(end) }) // before the receiver's own cleanup closes the server
	return h
}

func (h *hangingReceiver) most() int { h.mu.Lock(); defer h.mu.Unlock(); return h.maxOpen }

// ids are the distinct webhook-ids a receiver got.
func (rc *receiver) ids() map[string]bool {
	out := map[string]bool{}
	for _, h := range rc.hooks() {
		out[h.id()] = true
	}
	return out
}

// attemptRows counts the recorded attempts of a subscription's deliveries.
func (s *site) attemptRows(t *testing.T, sub string) int {
	t.Helper()
	return s.count(t, `SELECT count(*) FROM webhook_delivery_attempts a JOIN webhook_deliveries d
		ON d.tenant_id = a.tenant_id AND d.uuid = a.delivery_uuid WHERE d.subscription_uuid = $1`, sub)
}

// A subscription whose target hangs delays only itself: with 4 attempt slots and a hanging target
// holding deliveries older than everyone else's, the other subscriptions of its tenant and of
// another tenant get every delivery while the hanging attempts are still open (none of them has
// even timed out: no attempt of the hanging subscription is recorded). The old dispatcher (every
// worker claiming the oldest due row) had all 4 workers stuck on the hanging target for its 30 s
// time-out, again and again.
func TestHangingTargetDelaysOnlyItsSubscription(t *testing.T) {
	t.Parallel()
	s := startSite(t, func(c *app.Config) { c.WebhookWorkers = 4; c.WebhookLease = time.Minute })
	c1, _ := s.tenantClient(t)
	c2, _ := s.tenantClient(t)
	hang := newHangingReceiver(t)
	a := Str(createSub(t, c1, hang.URL, map[string]any{"requestTimeoutMs": webhooks.MaxTimeoutMs}, "attribute.created"), "uuid")
	for i := range 8 {
		mkAttr(t, c1, fmt.Sprintf("old-%d", i)) // the hanging subscription's backlog: the oldest due rows
	}
	WaitFor(t, 15*time.Second, "the hanging target to get a request", func() bool { return hang.count() > 0 })

	rb1, rb2 := newReceiver(t, nil), newReceiver(t, nil)
	b1, _ := newSub(t, c1, rb1.URL, "attribute.created") // same tenant
	b2, _ := newSub(t, c2, rb2.URL, "attribute.created") // another tenant
	for i := range 5 {
		mkAttr(t, c1, fmt.Sprintf("new-%d", i))
		mkAttr(t, c2, fmt.Sprintf("new-%d", i))
	}
	WaitFor(t, 25*time.Second, "5 deliveries each to the healthy subscriptions", func() bool {
		return len(rb1.ids()) == 5 && len(rb2.ids()) == 5
	})
	// Every healthy delivery arrived while the hanging attempts were still open.
	if n := s.attemptRows(t, a); n != 0 {
		t.Errorf("the hanging subscription has %d recorded attempts: the healthy deliveries waited for its time-outs", n)
	}
	for _, sub := range []struct {
		c  *Client
		id string
	}{{c1, b1}, {c2, b2}} {
		for _, d := range deliveries(t, sub.c, sub.id) {
			waitDelivery(t, sub.c, sub.id, Str(d, "uuid"), "delivered", isStatus("delivered"))
		}
	}
	// 4 slots: the per-subscription cap is 1, so the hanging target never held more than one.
	if m := hang.most(); m != 1 {
		t.Errorf("the hanging target had %d requests open at once, want 1 (the per-subscription cap)", m)
	}
}

// The per-subscription cap on attempts in flight holds across replicas: two dispatchers of 16
// slots each (cap 4 per subscription) never have more than 4 attempts open on one hanging target,
// however many of its deliveries are due; once its attempts fail, it gets one at a time.
func TestInFlightCapAcrossReplicas(t *testing.T) {
	t.Parallel()
	opts := func(c *app.Config) { c.WebhookWorkers = 16; c.WebhookLease = time.Minute }
	s := startSite(t, opts)
	startReplica(t, s, opts)
	c, _ := s.tenantClient(t)
	hang := newHangingReceiver(t)
	a := Str(createSub(t, c, hang.URL, map[string]any{"requestTimeoutMs": webhooks.MinTimeoutMs}, "attribute.created"), "uuid")
	body := make([]map[string]any, 30)
	for i := range body {
		body[i] = map[string]any{"code": fmt.Sprintf("c-%02d", i)}
	}
	Want(t, c.Post("/v1/attributes/bulk", body), 201)
	// Every attempt times out after 1 s and is retried 300 ms later.
	WaitFor(t, 60*time.Second, "8 recorded attempts", func() bool { return s.attemptRows(t, a) >= 8 })
	if m := hang.most(); m > 4 {
		t.Errorf("the hanging target had %d requests open at once across two replicas, want at most 4", m)
	} else if m < 4 {
		t.Errorf("the hanging target had at most %d requests open at once: the first claim should take 4 (the cap)", m)
	}
	// After the first failures the subscription is failing: one attempt at a time.
	before := hang.count()
	hang.mu.Lock()
	hang.maxOpen = hang.open
	hang.mu.Unlock()
	WaitFor(t, 30*time.Second, "5 more requests", func() bool { return hang.count() >= before+5 })
	if m := hang.most(); m > 1 {
		t.Errorf("a failing subscription had %d requests open at once, want 1", m)
	}
}

// stopOnce stops an env at most once (the test and its cleanup may both ask).
func stopOnce(t *testing.T, e *Env) func() {
	var once sync.Once
	stop := func() { once.Do(e.Stop) }
	t.Cleanup(stop)
	return stop
}

// replica runs a dispatcher-only catalogd on s's database with the given shutdown grace and
// returns its stop function.
func replica(t *testing.T, s *site, grace time.Duration) func() {
	t.Helper()
	return dispatcherFor(t, s, func(c *app.Config) { c.ShutdownGrace = grace })
}

// Shutdown lets an attempt in flight finish within the grace period, and records it.
func TestShutdownFinishesAttemptWithinGrace(t *testing.T) {
	t.Parallel()
	api := startSite(t, noDispatcher)
	c, _ := api.tenantClient(t)
	arrived, stopping := make(chan struct{}), make(chan struct{})
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		close(arrived)
		<-stopping // answer only once the shutdown has begun
		_, _ = w.Write([]byte("ok"))
	})
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	stop := replica(t, api, 20*time.Second)
	mkAttr(t, c, "a")
	<-arrived
	close(stopping)
	stop() // returns when the dispatcher has recorded the attempt
	did := onlyDelivery(t, c, id)
	d := getDelivery(t, c, id, did)
	if Str(d, "status") != "delivered" || num(d, "attempts") != 1 || num(d, "lastStatusCode") != 200 {
		t.Errorf("delivery after shutdown %v: want delivered, attempts 1, lastStatusCode 200", d)
	}
	if as := attempts(t, c, id, did); len(as) != 1 || num(as[0], "statusCode") != 200 {
		t.Errorf("attempts %v: want one, 200", as)
	}
}

// An attempt still running when the grace period ends is cut: not recorded, not a receiver
// failure; its delivery is due again and the next server sends it with the same webhook-id.
func TestShutdownCutAttemptIsRedelivered(t *testing.T) {
	t.Parallel()
	api := startSite(t, noDispatcher)
	c, _ := api.tenantClient(t)
	end := make(chan struct{})
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 { // the first request hangs
			select {
			case <-r.Context().Done():
			case <-end:
			}
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	t.Cleanup(func() { close(end) })
	sub := createSub(t, c, rc.URL, map[string]any{"requestTimeoutMs": webhooks.MaxTimeoutMs}, "attribute.created")
	id, secret := Str(sub, "uuid"), Str(sub, "secret")
	stop := replica(t, api, 500*time.Millisecond)
	mkAttr(t, c, "a")
	WaitFor(t, 15*time.Second, "the first request", func() bool { return rc.count() == 1 })
	stop()

	did := onlyDelivery(t, c, id)
	d := getDelivery(t, c, id, did)
	if Str(d, "status") != "pending" || num(d, "attempts") != 0 || d["lastStatusCode"] != nil {
		t.Errorf("delivery after a cut attempt %v: want pending, attempts 0, lastStatusCode null", d)
	}
	if as := attempts(t, c, id, did); len(as) != 0 {
		t.Errorf("a cut attempt was recorded: %v", as)
	}
	if n := num(getSub(t, c, id), "consecutiveFailures"); n != 0 {
		t.Errorf("consecutiveFailures %d after a cut attempt, want 0 (shutdown is not a receiver failure)", n)
	}
	if n := api.count(t, `SELECT count(*) FROM webhook_deliveries WHERE uuid = $1 AND lease_id IS NULL AND scheduled_at <= now()`, did); n != 1 {
		t.Errorf("the cut delivery is not released (lease kept or not due)")
	}

	replica(t, api, 0)
	waitDelivery(t, c, id, did, "delivered by the next server", isStatus("delivered"))
	hs := rc.hooks()
	if len(hs) != 2 || hs[0].id() != did || hs[1].id() != did {
		t.Fatalf("receiver got %d requests (%v), want 2 with webhook-id %s", len(hs), hs, did)
	}
	verify(t, "redelivery", hs[1], secret)
	if d := getDelivery(t, c, id, did); num(d, "attempts") != 1 {
		t.Errorf("delivery %v: want attempts 1 (the cut attempt is not counted)", d)
	}
}

// A tenant has at most 50 subscriptions: concurrent creates past it get 409 LIMIT_EXCEEDED with
// meta.limit, never a 51st subscription; another tenant is not affected, and a delete makes room.
func TestSubscriptionLimit(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, tenant := s.tenantClient(t)
	for i := range 45 {
		Want(t, c.Post(subs, map[string]any{"displayName": fmt.Sprintf("s%d", i), "targetUrl": "http://127.0.0.1:9/hook"}), 201)
	}
	var wg sync.WaitGroup
	codes := make([]Resp, 10)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = c.Post(subs, map[string]any{"displayName": fmt.Sprintf("race%d", i), "targetUrl": "http://127.0.0.1:9/hook"})
		}()
	}
	wg.Wait()
	created := 0
	for _, r := range codes {
		switch r.Status {
		case 201:
			created++
		case 409:
			if Problem(t, "51st subscription", r, 409, "LIMIT_EXCEEDED") {
				if l, _ := Meta(r.Obj())["limit"].(float64); l != 50 {
					t.Errorf("meta %v: want limit 50", Meta(r.Obj()))
				}
			}
		default:
			t.Errorf("concurrent create: %d %s", r.Status, r.Raw)
		}
	}
	if created != 5 {
		t.Errorf("%d of 10 concurrent creates succeeded past 45, want 5", created)
	}
	if n := s.count(t, `SELECT count(*) FROM webhook_subscriptions WHERE tenant_id = $1`, tenant); n != 50 {
		t.Errorf("the tenant has %d subscriptions, want 50", n)
	}
	other, _ := s.tenantClient(t)
	Want(t, other.Post(subs, map[string]any{"displayName": "other", "targetUrl": "http://127.0.0.1:9/hook"}), 201)
	first := Want(t, c.Get(subs+Q("size", "1")), 200).Items()[0]
	Want(t, c.Delete(subs+"/"+Str(first, "uuid")), 204)
	Want(t, c.Post(subs, map[string]any{"displayName": "again", "targetUrl": "http://127.0.0.1:9/hook"}), 201)
	Problem(t, "51st subscription", c.Post(subs, map[string]any{"displayName": "over", "targetUrl": "http://127.0.0.1:9/hook"}), 409, "LIMIT_EXCEEDED")
}
