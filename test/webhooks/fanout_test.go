package webhooks

import (
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/webhooks"
)

// Deactivated and unsubscribed subscriptions get no delivery rows; neither does one subscribed
// to other event types.
func TestNoDeliveriesForInactiveOrUnsubscribed(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, _ := s.tenantClient(t)
	rc := newReceiver(t, nil)
	control, _ := newSub(t, c, rc.URL, "attribute.created")
	inactive, _ := newSub(t, c, rc.URL, "attribute.created")
	Want(t, lifecycle(c, inactive, "deactivate"), 200)
	unsubscribed, _ := newSub(t, c, rc.URL, "attribute.created", "attribute.updated")
	Want(t, c.Delete(subs+"/"+unsubscribed+"/event-types/"+eventTypeUUID(t, c, "attribute.created")), 204)
	otherType, _ := newSub(t, c, rc.URL, "attribute.deleted")

	a := mkAttr(t, c, "a")
	// Fan-out happens in the writing transaction: the rows exist once the create has returned.
	if n := s.deliveryRows(t, control); n != 1 {
		t.Fatalf("the active subscribed subscription has %d delivery rows, want 1", n)
	}
	for name, id := range map[string]string{"deactivated": inactive, "unsubscribed": unsubscribed, "other event type": otherType} {
		if n := s.deliveryRows(t, id); n != 0 {
			t.Errorf("%s subscription has %d delivery rows, want 0", name, n)
		}
	}
	WaitFor(t, 15*time.Second, "the control delivery", func() bool {
		return Str(getDelivery(t, c, control, onlyDelivery(t, c, control)), "status") == "delivered"
	})
	if n := rc.count(); n != 1 {
		t.Errorf("receiver got %d requests, want 1 (the control's)", n)
	}
	// Re-activated, a subscription receives later events, not the ones it missed.
	Want(t, lifecycle(c, inactive, "activate"), 200)
	Want(t, c.Patch("/v1/attributes/"+a, map[string]any{"displayName": "A"}), 200) // unsubscribed: attribute.updated
	if n := s.deliveryRows(t, unsubscribed); n != 1 {
		t.Errorf("the unsubscribed subscription's remaining event type made %d rows, want 1", n)
	}
	mkAttr(t, c, "b")
	if n := s.deliveryRows(t, inactive); n != 1 {
		t.Errorf("re-activated subscription has %d delivery rows, want 1 (only the event after activation)", n)
	}
	if n := s.deliveryRows(t, otherType); n != 0 {
		t.Errorf("subscription of attribute.deleted has %d rows", n)
	}
}

func TestDeactivateFailsPendingDeliveries(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	Want(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "a"}, {"code": "b"}}), 201)
	var ds []map[string]any
	WaitFor(t, 15*time.Second, "two deliveries waiting for their second attempt", func() bool {
		ds = deliveries(t, c, id)
		if len(ds) != 2 {
			return false
		}
		for _, d := range ds {
			if num(d, "attempts") != 1 || Str(d, "status") != "pending" || d["scheduledAt"] == nil ||
				TS(t, d["scheduledAt"]).Before(time.Now().Add(30*time.Minute)) {
				return false
			}
		}
		return true
	})
	off := Want(t, lifecycle(c, id, "deactivate"), 200).Obj()
	if Str(off, "status") != "inactive" {
		t.Fatalf("deactivate: %v", off)
	}
	for _, d := range deliveries(t, c, id) {
		if Str(d, "status") != "failed" || d["scheduledAt"] != nil || num(d, "attempts") != 1 || num(d, "lastStatusCode") != 503 {
			t.Errorf("delivery after deactivation: %v, want failed, scheduledAt null, attempts 1", d)
		}
	}
	// Activating again does not revive them.
	Want(t, lifecycle(c, id, "activate"), 200)
	for _, d := range deliveries(t, c, id) {
		if Str(d, "status") != "failed" {
			t.Errorf("delivery after re-activation: %v", d)
		}
	}
	if n := rc.count(); n != 2 {
		t.Errorf("receiver got %d requests, want 2", n)
	}
}

// After a rotation the next attempt is signed with the new secret only.
func TestRotationAppliesToNextAttempt(t *testing.T) {
	t.Parallel()
	c, _ := mainSite().tenantClient(t)
	var healthy atomic.Bool
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		if !healthy.Load() {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	id, old := newSub(t, c, rc.URL, "attribute.created")
	mkAttr(t, c, "a")
	WaitFor(t, 10*time.Second, "the first (failing) attempt", func() bool { return rc.count() > 0 })
	fresh := Str(Want(t, c.Patch(subs+"/"+id+"/actions/rotate-secret", nil), 200).Obj(), "secret")
	healthy.Store(true)
	did := onlyDelivery(t, c, id)
	d := waitDelivery(t, c, id, did, "delivered", isStatus("delivered"))
	hs := rc.hooks()
	if len(hs) < 2 || num(d, "attempts") != len(hs) {
		t.Fatalf("receiver got %d requests, delivery %v", len(hs), d)
	}
	first, last := hs[0], hs[len(hs)-1]
	verify(t, "attempt before the rotation, old secret", first, old)
	if err := verifyErr(t, first, fresh); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
		t.Errorf("the attempt before the rotation verifies with the new secret: %v", err)
	}
	verify(t, "attempt after the rotation, new secret", last, fresh)
	if err := verifyErr(t, last, old); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
		t.Errorf("the succeeding attempt after the rotation still verifies with the old secret: %v", err)
	}
	if first.id() != did || last.id() != did {
		t.Errorf("webhook-id changed across attempts: %s, %s (delivery %s)", first.id(), last.id(), did)
	}
}

// A write that rolls back records no event and no delivery.
func TestRolledBackWriteMakesNoDelivery(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, tenant := s.tenantClient(t)
	rc := newReceiver(t, nil)
	id, _ := newSub(t, c, rc.URL, "attribute.created", "attribute.updated")
	mkAttr(t, c, "existing")
	events, rows := s.eventRows(t, tenant), s.deliveryRows(t, id)
	if events != 1 || rows != 1 {
		t.Fatalf("after one create: %d events, %d delivery rows; want 1 and 1", events, rows)
	}

	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "new-1"}, {"code": "new-2"}, {"code": "existing"}}), 409, "ALREADY_EXISTS")
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "dup"}, {"code": "dup"}}), 409, "ALREADY_EXISTS")
	WantProblem(t, c.Post("/v1/attributes", map[string]any{"code": "existing"}), 409, "ALREADY_EXISTS")
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": RandomUUID(), "displayName": "x"}}), 404, "NOT_FOUND")

	if n := s.eventRows(t, tenant); n != events {
		t.Errorf("rolled-back writes recorded %d event(s)", n-events)
	}
	if n := s.deliveryRows(t, id); n != rows {
		t.Errorf("rolled-back writes made %d delivery row(s)", n-rows)
	}
	if p := Want(t, c.Get("/v1/attributes"), 200).Obj()["pagination"].(map[string]any); num(p, "totalItems") != 1 {
		t.Errorf("attributes after the refused bulk: %v", p)
	}
	did := onlyDelivery(t, c, id)
	waitDelivery(t, c, id, did, "delivered", isStatus("delivered"))
	if n := rc.count(); n != 1 {
		t.Errorf("receiver got %d requests, want 1", n)
	}
}

// With SuspendAfterFailures=3 and SuspendAfter=500ms, a failing subscription is suspended and its
// pending deliveries failed.
func TestSuspensionPolicy(t *testing.T) {
	t.Parallel()
	// After four quick retries the next is an hour away: without suspension the deliveries would
	// stay pending.
	st := startSite(t, func(c *app.Config) {
		c.WebhookPolicy = webhooks.Policy{Schedule: []time.Duration{retryDelay, retryDelay, retryDelay, retryDelay, time.Hour},
			SuspendAfterFailures: 3, SuspendAfter: 500 * time.Millisecond}
	})
	c, _ := st.tenantClient(t)
	rc := newReceiver(t, respondWith(500, "down"))
	healthy := newReceiver(t, nil)
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	other, _ := newSub(t, c, healthy.URL, "attribute.created")
	Want(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "a"}, {"code": "b"}, {"code": "c"}}), 201)

	var sub map[string]any
	WaitFor(t, 20*time.Second, "the failing subscription to be suspended", func() bool {
		sub = getSub(t, c, id)
		return Str(sub, "status") != "active"
	})
	if Str(sub, "status") != "suspended" || sub["suspendedAt"] == nil || num(sub, "consecutiveFailures") < 3 {
		t.Fatalf("subscription %v: want suspended, suspendedAt set, consecutiveFailures >= 3", sub)
	}
	ds := deliveries(t, c, id)
	if len(ds) != 3 {
		t.Fatalf("%d deliveries, want 3", len(ds))
	}
	for _, d := range ds {
		if Str(d, "status") != "failed" || d["scheduledAt"] != nil {
			t.Errorf("delivery of the suspended subscription: %v, want failed with scheduledAt null", d)
		}
		if num(d, "attempts") >= 1+4+1 {
			t.Errorf("delivery %v made its hour-later attempt", d)
		}
	}
	// The healthy subscription of the same tenant is unaffected.
	if g := getSub(t, c, other); Str(g, "status") != "active" {
		t.Errorf("healthy subscription: %v", g)
	}
	mkAttr(t, c, "d")
	if n := st.deliveryRows(t, id); n != 3 {
		t.Errorf("the suspended subscription got a new delivery row (%d rows)", n)
	}
	WaitFor(t, 15*time.Second, "the healthy subscription's 4 deliveries", func() bool {
		n := 0
		for _, d := range deliveries(t, c, other) {
			if Str(d, "status") == "delivered" {
				n++
			}
		}
		return n == 4
	})
}

// Concurrent attempts of one subscription are recorded by concurrent transactions; a 410 Gone
// among them suspends the subscription and fails its other pending deliveries. The result must be
// the same as when they come one by one: the subscription suspended, nothing left pending.
func TestGoneBurstSuspendsSubscription(t *testing.T) {
	t.Parallel()
	// A dedicated env: if recording goes wrong (see the report), its stuck transactions must not
	// starve the main env's database pool and push the other tests' deliveries past their leases.
	// 32 slots: a subscription may have 8 attempts in flight (the per-subscription cap).
	s := startSite(t, func(c *app.Config) { c.WebhookWorkers = 32 })
	c, _ := s.tenantClient(t)
	release := make(chan struct{})
	var once sync.Once
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		<-release // all answers come back together
		w.WriteHeader(http.StatusGone)
	})
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // a failed wait must not leave the handlers blocked
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	body := make([]map[string]any, 8)
	for i := range body {
		body[i] = map[string]any{"code": "c" + RandomHex(3)}
	}
	Want(t, c.Post("/v1/attributes/bulk", body), 201)
	WaitFor(t, 15*time.Second, "8 attempts in flight", func() bool { return rc.count() >= len(body) })
	once.Do(func() { close(release) })
	end := time.Now().Add(10 * time.Second)
	for {
		sub := getSub(t, c, id)
		pending := s.count(t, `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid = $1 AND status = 'pending'`, id)
		if Str(sub, "status") == "suspended" && pending == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("10 s after a burst of %d deliveries to a target answering 410 Gone: the receiver got %d requests, "+
				"but the subscription is %s (consecutiveFailures %d), %d deliveries are still pending and %d attempts are recorded",
				len(body), rc.count(), Str(sub, "status"), num(sub, "consecutiveFailures"), pending,
				s.count(t, `SELECT coalesce(sum(attempts), 0) FROM webhook_deliveries WHERE subscription_uuid = $1`, id))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := s.count(t, `SELECT count(*) FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.tenant_id = a.tenant_id AND d.uuid = a.delivery_uuid
		WHERE d.subscription_uuid = $1 AND a.status_code = 410`, id); n < 1 {
		t.Errorf("the subscription is suspended but no 410 attempt is recorded")
	}
	// Each delivery was sent once: an attempt is only repeated after a failure is recorded, and
	// the first recorded 410 suspends the subscription and fails the rest.
	seen := map[string]int{}
	for _, h := range rc.hooks() {
		seen[h.id()]++
	}
	for wid, n := range seen {
		if n > 1 {
			t.Errorf("delivery %s was sent %d times (the receiver got %d requests for %d deliveries)", wid, n, rc.count(), len(body))
			break
		}
	}
}

// Every HTTP request made is recorded as an attempt (spec: a delivery attempt is the "record ...
// of each HTTP request made"; "attempts: number of delivery attempts made"), also one that was in
// flight when the subscription was deactivated or suspended.
func TestInFlightAttemptRecordedAfterDeactivation(t *testing.T) {
	t.Parallel()
	s := mainSite()
	c, _ := s.tenantClient(t)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		time.Sleep(time.Second)
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte("slow failure"))
	})
	id, _ := newSub(t, c, rc.URL, "attribute.created")
	mkAttr(t, c, "a")
	WaitFor(t, 10*time.Second, "the attempt to be in flight", func() bool { return rc.count() == 1 })
	Want(t, lifecycle(c, id, "deactivate"), 200)
	did := onlyDelivery(t, c, id)
	// The answer comes about a second later; its record must appear.
	end := time.Now().Add(10 * time.Second)
	var atts []map[string]any
	for time.Now().Before(end) {
		if atts = attempts(t, c, id, did); len(atts) > 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	d := getDelivery(t, c, id, did)
	if len(atts) != 1 || num(atts[0], "statusCode") != 500 || num(d, "attempts") != 1 || Str(d, "status") != "failed" {
		t.Errorf("the receiver got %d request(s) and answered 500; 10 s later the delivery is %s with attempts %d and %d attempt record(s): "+
			"want failed, attempts 1, one attempt with statusCode 500", rc.count(), Str(d, "status"), num(d, "attempts"), len(atts))
	}
}

// Deactivating a subscription while its attempts are being recorded succeeds: the lifecycle
// operation has no reason to fail (DESIGN.md: deactivate: active, suspended → inactive).
func TestDeactivateWhileAttemptsAreRecorded(t *testing.T) {
	t.Parallel()
	st := startSite(t) // dedicated: see TestGoneBurstSuspendsSubscription
	for round := 0; round < 6; round++ {
		c, _ := st.tenantClient(t)
		release := make(chan struct{})
		rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			<-release
			w.WriteHeader(http.StatusInternalServerError)
		})
		id, _ := newSub(t, c, rc.URL, "attribute.created")
		body := make([]map[string]any, 12)
		for i := range body {
			body[i] = map[string]any{"code": "c" + RandomHex(3)}
		}
		Want(t, c.Post("/v1/attributes/bulk", body), 201)
		WaitFor(t, 15*time.Second, "12 attempts in flight", func() bool { return rc.count() >= len(body) })
		close(release) // the 12 answers come back together and are recorded...
		time.Sleep(time.Duration(round) * time.Millisecond)
		r := lifecycle(c, id, "deactivate") // ...while the subscription is deactivated
		if r.Status != 200 {
			t.Fatalf("round %d: PATCH %s/%s/actions/lifecycle {\"transition\":\"deactivate\"} while 12 attempts were being recorded: %d %s",
				round, subs, id, r.Status, r.Raw)
		}
		for _, d := range deliveries(t, c, id) {
			if Str(d, "status") == "pending" {
				t.Errorf("round %d: delivery still pending after deactivation: %v", round, d)
			}
		}
	}
}
