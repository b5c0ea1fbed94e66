package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

func noDispatcher(c *app.Config) { c.DisableDispatcher = true }

// A worker that claimed a delivery and crashed before recording it: the delivery is sent again
// once the lease runs out, once, with the same webhook-id.
func TestCrashedWorkerDeliveryResentAfterLease(t *testing.T) {
	t.Parallel()
	api := startSite(t, noDispatcher) // an API-only replica: nothing races the claim below
	c, _ := api.tenantClient(t)
	rc := newReceiver(t, nil)
	id, secret := newSub(t, c, rc.URL, "attribute.created")
	mkAttr(t, c, "a")
	did := onlyDelivery(t, c, id)

	// Claim it exactly as a dispatcher does (ClaimDueDeliveries, a 3 s lease), then "crash".
	lease := uuid.New()
	rows, err := db.New(api.pool).ClaimDueDeliveries(context.Background(), db.ClaimDueDeliveriesParams{PerSubscription: 1, PerTenant: 1, Max: 1, LeaseSeconds: 3, LeaseID: lease})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Uuid.String() != did {
		t.Fatalf("claimed %v, want delivery %s", rows, did)
	}
	var leaseEnd time.Time
	if err := api.pool.QueryRow(context.Background(), `SELECT scheduled_at FROM webhook_deliveries WHERE uuid = $1`, did).Scan(&leaseEnd); err != nil {
		t.Fatal(err)
	}
	if d := getDelivery(t, c, id, did); Str(d, "status") != "pending" || num(d, "attempts") != 0 {
		t.Fatalf("claimed delivery %v", d)
	}

	// A replica with a dispatcher takes over once the lease has run out.
	startReplica(t, api)
	d := waitDelivery(t, c, id, did, "delivered by the replica", isStatus("delivered"))
	hs := rc.hooks()
	if len(hs) != 1 {
		t.Fatalf("receiver got %d requests, want exactly 1", len(hs))
	}
	if hs[0].At.Before(leaseEnd.Add(-100 * time.Millisecond)) {
		t.Errorf("the delivery arrived at %s, before the crashed worker's lease ended at %s", hs[0].At.Format(time.StampMilli), leaseEnd.Format(time.StampMilli))
	}
	wantHeaders(t, "re-sent delivery", hs[0], did, "attribute.created")
	verify(t, "re-sent delivery", hs[0], secret)
	if num(d, "attempts") != 1 || num(d, "lastStatusCode") != 200 {
		t.Errorf("delivery %v: want attempts 1 (the crashed claim recorded nothing)", d)
	}
	var leaseID *uuid.UUID
	if err := api.pool.QueryRow(context.Background(), `SELECT lease_id FROM webhook_deliveries WHERE uuid = $1`, did).Scan(&leaseID); err != nil {
		t.Fatal(err)
	}
	if leaseID != nil {
		t.Errorf("lease_id %v left on a finished delivery", leaseID)
	}
}

// Two dispatchers on one database deliver every delivery exactly once.
func TestTwoDispatchersDeliverEachOnce(t *testing.T) {
	t.Parallel()
	// A generous lease: a lease running out mid-attempt is a legitimate duplicate (at least once),
	// which is not what this test is about.
	long := func(c *app.Config) { c.WebhookLease = 30 * time.Second; c.WebhookWorkers = 8 }
	a := startSite(t, long)
	startReplica(t, a, long)
	c, _ := a.tenantClient(t)

	var mu sync.Mutex
	seen := map[string]int{}
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Header.Get("webhook-id")]++
		mu.Unlock()
		_, _ = w.Write([]byte("ok"))
	})
	id, secret := newSub(t, c, rc.URL, "attribute.created")
	for b := 0; b < 3; b++ {
		body := make([]map[string]any, 100)
		for i := range body {
			body[i] = map[string]any{"code": fmt.Sprintf("c-%d-%03d", b, i)}
		}
		Want(t, c.Post("/v1/attributes/bulk", body), 201)
	}
	if n := a.deliveryRows(t, id); n != 300 {
		t.Fatalf("%d delivery rows, want 300", n)
	}
	WaitFor(t, 90*time.Second, "300 delivered deliveries", func() bool {
		return a.count(t, `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid = $1 AND status = 'delivered'`, id) == 300
	})
	rows, err := a.pool.Query(context.Background(), `SELECT uuid::text, attempts FROM webhook_deliveries WHERE subscription_uuid = $1`, id)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for rows.Next() {
		var u string
		var n int
		if err := rows.Scan(&u, &n); err != nil {
			t.Fatal(err)
		}
		ids[u] = true
		if n != 1 {
			t.Errorf("delivery %s made %d attempts, want 1", u, n)
		}
	}
	rows.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 300 {
		t.Errorf("receiver saw %d distinct webhook-ids, want 300", len(seen))
	}
	dups := 0
	for wid, n := range seen {
		if !ids[wid] {
			t.Errorf("webhook-id %s is not a delivery of the subscription", wid)
		}
		if n != 1 {
			dups++
			if dups <= 5 {
				t.Errorf("webhook-id %s received %d times", wid, n)
			}
		}
	}
	if dups > 0 {
		t.Errorf("%d deliveries received more than once", dups)
	}
	// Both replicas decrypt with the shared key: a sample verifies.
	hs := rc.hooks()
	for i := 0; i < len(hs); i += 50 {
		verify(t, "delivery "+hs[i].id(), hs[i], secret)
	}
	if p := Want(t, c.Get(subs+"/"+id+"/deliveries"+Q("statuses[eq]", "delivered")), 200).Obj()["pagination"].(map[string]any); num(p, "totalItems") != 300 {
		t.Errorf("API lists %v delivered", p)
	}
}
