package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

// The dispatcher records successes in batches: one statement, one commit for the successes that
// end together, in the transaction of the claim that refills their room (docs/design.md
// "Webhook dispatcher: batches"). These tests hold its guarantees: one attempt row per attempt,
// the counters, the lease, failures beside successes, and shutdown.

// dispatcherFor runs a dispatcher-only catalogd on s's database (main options, a 1 min lease,
// then opts) and returns its stop function.
func dispatcherFor(t *testing.T, s *site, opts ...func(*app.Config)) func() {
	t.Helper()
	gate.Lock()
	e, err := StartOn(s.env.DBURL, nil, append([]func(*app.Config){mainOptions, func(c *app.Config) { c.WebhookLease = time.Minute }}, opts...)...)
	gate.Unlock()
	if err != nil {
		t.Fatalf("start dispatcher: %v", err)
	}
	return stopOnce(t, e)
}

// bulkAttrs creates n attributes in bulks of 100 at most.
func bulkAttrs(t *testing.T, c *Client, prefix string, n int) {
	t.Helper()
	for done := 0; done < n; done += 100 {
		body := make([]map[string]any, min(100, n-done))
		for i := range body {
			body[i] = map[string]any{"code": fmt.Sprintf("%s-%04d", prefix, done+i)}
		}
		Want(t, c.Post("/v1/attributes/bulk", body), 201)
	}
}

// deliveryRow is a delivery as the database has it.
type deliveryRow struct {
	status    string
	attempts  int
	lastCode  *int32
	leased    bool
	scheduled *time.Time
}

func (s *site) deliveryRowsOf(t *testing.T, sub string) map[string]deliveryRow {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT uuid::text, status, attempts, last_status_code, lease_id IS NOT NULL, scheduled_at
		FROM webhook_deliveries WHERE subscription_uuid = $1`, sub)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]deliveryRow{}
	for rows.Next() {
		var id string
		var d deliveryRow
		if err := rows.Scan(&id, &d.status, &d.attempts, &d.lastCode, &d.leased, &d.scheduled); err != nil {
			t.Fatal(err)
		}
		out[id] = d
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// attemptCodes are the status codes of each delivery's recorded attempts, oldest first.
func (s *site) attemptCodes(t *testing.T, sub string) map[string][]int {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT a.delivery_uuid::text, coalesce(a.status_code, 0)
		FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.tenant_id = a.tenant_id AND d.uuid = a.delivery_uuid
		WHERE d.subscription_uuid = $1 ORDER BY a.created_at, a.uuid`, sub)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]int{}
	for rows.Next() {
		var id string
		var code int
		if err := rows.Scan(&id, &code); err != nil {
			t.Fatal(err)
		}
		out[id] = append(out[id], code)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// 200 deliveries, their successes recorded in batches: each delivery is delivered once, with one
// attempt row, its counters and lease cleared, the subscription's counters untouched; and some
// attempts were written together (a batch stamps its attempts with one time).
func TestBatchedSuccessesEachRecordedOnce(t *testing.T) {
	t.Parallel()
	api := startSite(t, noDispatcher)
	c, _ := api.tenantClient(t)
	rc := newReceiver(t, nil)
	id, secret := newSub(t, c, rc.URL, "attribute.created")
	// The backlog first, so that claims take full room: 8 attempts in flight with 32 slots.
	bulkAttrs(t, c, "b", 200)
	dispatcherFor(t, api, func(c *app.Config) { c.WebhookWorkers = 32 })
	WaitFor(t, 60*time.Second, "200 delivered", func() bool {
		return api.count(t, `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid = $1 AND status = 'delivered'`, id) == 200
	})

	ds, codes := api.deliveryRowsOf(t, id), api.attemptCodes(t, id)
	if len(ds) != 200 {
		t.Fatalf("%d deliveries, want 200", len(ds))
	}
	for did, d := range ds {
		if d.status != "delivered" || d.attempts != 1 || d.lastCode == nil || *d.lastCode != 200 || d.leased || d.scheduled != nil {
			t.Errorf("delivery %s: %+v, want delivered, attempts 1, last status 200, no lease, not scheduled", did, d)
		}
		if got := codes[did]; len(got) != 1 || got[0] != 200 {
			t.Errorf("delivery %s: attempts recorded %v, want one 200", did, got)
		}
	}
	if n := api.attemptRows(t, id); n != 200 {
		t.Errorf("%d attempt rows, want 200", n)
	}
	hs := rc.hooks()
	seen := map[string]int{}
	for _, h := range hs {
		seen[h.id()]++
	}
	if len(hs) != 200 || len(seen) != 200 {
		t.Errorf("the receiver got %d requests with %d distinct webhook-ids, want 200 and 200", len(hs), len(seen))
	}
	for wid := range seen {
		if _, ok := ds[wid]; !ok {
			t.Errorf("webhook-id %s is not a delivery of the subscription", wid)
		}
	}
	for i := 0; i < len(hs); i += 40 { // the headers and signature are each attempt's own
		wantHeaders(t, "batched delivery", hs[i], hs[i].id(), "attribute.created")
		verify(t, "batched delivery "+hs[i].id(), hs[i], secret)
	}
	if s := getSub(t, c, id); num(s, "consecutiveFailures") != 0 || Str(s, "status") != "active" {
		t.Errorf("subscription after 200 successes: %v", s)
	}
	if n := api.count(t, `SELECT count(*) FROM webhook_subscriptions WHERE uuid = $1 AND failing_since IS NULL`, id); n != 1 {
		t.Errorf("failing_since set after successes only")
	}
	batched := api.count(t, `SELECT count(*) FROM (SELECT a.created_at FROM webhook_delivery_attempts a JOIN webhook_deliveries d
		ON d.tenant_id = a.tenant_id AND d.uuid = a.delivery_uuid WHERE d.subscription_uuid = $1
		GROUP BY a.created_at HAVING count(*) > 1) b`, id)
	if batched == 0 {
		t.Errorf("no two of 200 attempts (8 at once) were recorded together: no batches")
	}
}

// A batch in which one delivery's lease was lost (it ran out and another dispatcher took the
// delivery) records the others and writes nothing for that one: its new holder records its own
// attempt. Given back (its lease run out), it is delivered again with the same webhook-id.
func TestBatchWithALostLease(t *testing.T) {
	t.Parallel()
	api := startSite(t, noDispatcher)
	c, _ := api.tenantClient(t)
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		select { // hold every request until the test lets them go
		case <-release:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	bulkAttrs(t, c, "l", 4)
	dispatcherFor(t, api) // 16 slots: 4 attempts in flight on the subscription
	WaitFor(t, 15*time.Second, "4 requests open", func() bool { return rc.count() == 4 })

	lost := rc.hooks()[0].id()
	var stolen string
	if err := api.pool.QueryRow(context.Background(), `UPDATE webhook_deliveries SET lease_id = gen_random_uuid(),
		scheduled_at = now() + interval '1 hour' WHERE uuid = $1 RETURNING lease_id::text`, lost).Scan(&stolen); err != nil {
		t.Fatal(err)
	}
	once.Do(func() { close(release) }) // the 4 succeed together
	WaitFor(t, 15*time.Second, "the 3 others delivered", func() bool {
		return api.count(t, `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid = $1 AND status = 'delivered'`, id) >= 3
	})

	ds, codes := api.deliveryRowsOf(t, id), api.attemptCodes(t, id)
	for did, d := range ds {
		if did == lost {
			continue
		}
		if d.status != "delivered" || d.attempts != 1 || len(codes[did]) != 1 {
			t.Errorf("delivery %s beside the lost lease: %+v, attempts recorded %v; want delivered with one attempt", did, d, codes[did])
		}
	}
	if d := ds[lost]; d.status != "pending" || d.attempts != 0 || d.lastCode != nil || len(codes[lost]) != 0 {
		t.Errorf("the delivery whose lease was lost: %+v, attempts recorded %v; want pending, nothing recorded", d, codes[lost])
	}
	if n := api.count(t, `SELECT count(*) FROM webhook_deliveries WHERE uuid = $1 AND lease_id::text = $2`, lost, stolen); n != 1 {
		t.Errorf("the new holder's lease was overwritten")
	}

	// Its lease runs out: the dispatcher takes it again and sends it with the same webhook-id.
	if _, err := api.pool.Exec(context.Background(), `UPDATE webhook_deliveries SET scheduled_at = now() WHERE uuid = $1`, lost); err != nil {
		t.Fatal(err)
	}
	waitDelivery(t, c, id, lost, "delivered after its lease ran out", isStatus("delivered"))
	if got := api.attemptCodes(t, id)[lost]; len(got) != 1 || got[0] != 200 {
		t.Errorf("the re-sent delivery's attempts %v, want one 200", got)
	}
	n := 0
	for _, h := range rc.hooks() {
		if h.id() == lost {
			n++
		}
	}
	if n != 2 {
		t.Errorf("webhook-id %s received %d times, want 2 (the attempt whose lease was lost, then the new one)", lost, n)
	}
}

// Failures beside successes: the first attempt of every other delivery gets a 500. Each request
// is one attempt row with its code, in order; failures are retried and counted on the
// subscription, a success after a failure resets it (the exclusive path), the others go in
// batches; in the end every delivery is delivered and the subscription healthy.
func TestBatchesWithFailures(t *testing.T) {
	t.Parallel()
	api := startSite(t, noDispatcher)
	c, _ := api.tenantClient(t)
	var mu sync.Mutex
	answered := map[string][]int{} // webhook-id -> the codes answered, in order
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		wid := r.Header.Get("webhook-id")
		code := http.StatusOK
		mu.Lock()
		if len(answered[wid]) == 0 && n%2 == 0 {
			code = http.StatusInternalServerError
		}
		answered[wid] = append(answered[wid], code)
		mu.Unlock()
		w.WriteHeader(code)
	})
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	bulkAttrs(t, c, "f", 20)
	dispatcherFor(t, api)
	WaitFor(t, 60*time.Second, "20 delivered", func() bool {
		return api.count(t, `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid = $1 AND status = 'delivered'`, id) == 20
	})

	ds, codes := api.deliveryRowsOf(t, id), api.attemptCodes(t, id)
	mu.Lock()
	defer mu.Unlock()
	failed := 0
	for did, d := range ds {
		want := answered[did]
		if fmt.Sprint(codes[did]) != fmt.Sprint(want) {
			t.Errorf("delivery %s: attempts recorded %v, the receiver answered %v", did, codes[did], want)
		}
		if d.status != "delivered" || d.attempts != len(want) || d.lastCode == nil || *d.lastCode != 200 || d.leased {
			t.Errorf("delivery %s: %+v, want delivered after %d attempts, last status 200, no lease", did, d, len(want))
		}
		if len(want) > 1 {
			failed++
		}
	}
	if failed == 0 || failed == len(ds) {
		t.Errorf("%d of %d deliveries failed first: the test wants both kinds", failed, len(ds))
	}
	if n, want := api.attemptRows(t, id), rc.count(); n != want {
		t.Errorf("%d attempt rows for %d requests", n, want)
	}
	if s := getSub(t, c, id); num(s, "consecutiveFailures") != 0 || Str(s, "status") != "active" {
		t.Errorf("subscription after the last success: %v, want active with no failures", s)
	}
	if n := api.count(t, `SELECT count(*) FROM webhook_subscriptions WHERE uuid = $1 AND failing_since IS NULL`, id); n != 1 {
		t.Errorf("failing_since not reset by the last success")
	}
}

// Shutdown while successes are being batched: attempts that end within the grace period are
// recorded (the loop keeps writing its batches until every attempt is in), those cut at its end
// are released; no claimed delivery is left with its lease.
func TestShutdownRecordsOrReleasesEveryClaim(t *testing.T) {
	t.Parallel()
	api := startSite(t, noDispatcher)
	c, _ := api.tenantClient(t)
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	quick := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		select { // answer once the shutdown has begun
		case <-release:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	hang := newHangingReceiver(t)
	q, _ := newSub(t, c, quick.URL, "attribute.created")
	h := Str(createSub(t, c, hang.URL, map[string]any{"requestTimeoutMs": 30000}, "attribute.created"), "uuid")
	bulkAttrs(t, c, "s", 4)
	stop := dispatcherFor(t, api, func(c *app.Config) { c.ShutdownGrace = 3 * time.Second })
	WaitFor(t, 15*time.Second, "4 requests open on each receiver", func() bool { return quick.count() == 4 && hang.count() == 4 })
	once.Do(func() { close(release) })
	stop() // returns once every attempt is recorded or released

	for did, d := range api.deliveryRowsOf(t, q) {
		if d.status != "delivered" || d.attempts != 1 || d.leased {
			t.Errorf("delivery %s answered during the shutdown: %+v, want delivered, attempts 1, no lease", did, d)
		}
	}
	if n := api.attemptRows(t, q); n != 4 {
		t.Errorf("%d attempts recorded for the 4 answered during the shutdown", n)
	}
	for did, d := range api.deliveryRowsOf(t, h) {
		if d.status != "pending" || d.attempts != 0 || d.leased || d.scheduled == nil || d.scheduled.After(time.Now()) {
			t.Errorf("delivery %s cut by the shutdown: %+v, want pending, attempts 0, released (no lease, due)", did, d)
		}
	}
	if n := api.attemptRows(t, h); n != 0 {
		t.Errorf("%d attempts recorded for cut attempts", n)
	}
	if n := num(getSub(t, c, h), "consecutiveFailures"); n != 0 {
		t.Errorf("consecutiveFailures %d after cut attempts, want 0", n)
	}
	if n := api.count(t, `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid IN ($1, $2) AND lease_id IS NOT NULL`, q, h); n != 0 {
		t.Errorf("%d deliveries still leased after the shutdown", n)
	}
}
