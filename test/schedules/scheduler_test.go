package schedules

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/scheduler"
	"github.com/catalogd/catalogd/server/store"

	. "github.com/catalogd/catalogd/server/apptest"
)

// The tests below drive the scheduler with an injected clock a day ahead; they run sequentially
// (no t.Parallel), so each run sees only its own test's due schedules.

// dayAhead is a moment a day from now: not due for the service's own scheduler.
func dayAhead() time.Time { return time.Now().UTC().Add(24 * time.Hour).Truncate(time.Microsecond) }

// runAt runs the scheduler once as if it were now.
func runAt(t *testing.T, now time.Time) catalog.ScheduleRun {
	t.Helper()
	res, err := catalog.RunDueSchedules(context.Background(), env.Server.DB, now, 100)
	if err != nil {
		t.Fatalf("run due schedules: %v", err)
	}
	return res
}

func wantRun(t *testing.T, what string, got catalog.ScheduleRun, claimed, executed, failed int) {
	t.Helper()
	if want := (catalog.ScheduleRun{Claimed: claimed, Executed: executed, Failed: failed}); got != want {
		t.Errorf("%s: run %+v, want %+v", what, got, want)
	}
}

// wantExecutedAt checks that executedAt is set and was stamped around now (the real clock).
func wantExecutedAt(t *testing.T, what string, v map[string]any, from time.Time) {
	t.Helper()
	if v["executedAt"] == nil {
		t.Fatalf("%s: executedAt is null", what)
	}
	if at := TS(t, v["executedAt"]); at.Before(from.Add(-time.Second)) || at.After(time.Now().Add(time.Second)) {
		t.Errorf("%s: executedAt %v not within the run (from %v)", what, at, from)
	}
}

func TestSchedulerPublishUnpublish(t *testing.T) {
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	activate(t, c, p)
	pub := mkPub(t, c, p)
	t0 := dayAhead()
	s1 := mkSched(t, c, p, pub, "publish", t0.Add(time.Minute))
	s2 := mkSched(t, c, p, pub, "unpublish", t0.Add(2*time.Minute))
	// Another tenant's schedule due at the same time runs in its own tenant.
	c2, tenant2 := env.TenantClient(t)
	p2 := mkProduct(t, c2)
	activate(t, c2, p2)
	pub2 := mkPub(t, c2, p2)
	s3 := mkSched(t, c2, p2, pub2, "publish", t0.Add(time.Minute))
	log, log2 := NewEventLog(pool, tenant).Skip(t), NewEventLog(pool, tenant2).Skip(t)

	wantRun(t, "nothing due yet", runAt(t, t0), 0, 0, 0)
	log.Expect(t, "nothing due")
	wantSched(t, "not due", getSched(t, c, p, pub, s1), "status", "pending", "executedAt", nil)

	start := time.Now()
	wantRun(t, "publish due", runAt(t, t0.Add(90*time.Second)), 2, 2, 0)
	v := getSched(t, c, p, pub, s1)
	wantSched(t, "executed", v, "status", "executed", "failureCode", nil, "failureReason", nil, "transition", "publish")
	wantExecutedAt(t, "executed", v, start)
	pv := getPub(t, c, p, pub)
	if pv["status"] != "published" || pv["publishedAt"] == nil {
		t.Errorf("publication after the publish schedule: %v", pv)
	}
	// The move and the run carry one time.
	if pv["publishedAt"] != v["executedAt"] || pv["updatedAt"] != v["executedAt"] {
		t.Errorf("publishedAt %v / updatedAt %v, want the schedule's executedAt %v", pv["publishedAt"], pv["updatedAt"], v["executedAt"])
	}
	log.Expect(t, "publish run", moveEv("published", p, pub), ev("executed", p, pub, s1))
	log2.Expect(t, "other tenant's run", moveEv("published", p2, pub2), ev("executed", p2, pub2, s3))
	wantSched(t, "other tenant's schedule", getSched(t, c2, p2, pub2, s3), "status", "executed")
	wantSched(t, "later one still pending", getSched(t, c, p, pub, s2), "status", "pending", "executedAt", nil)

	// An executed schedule cannot change or be cancelled.
	prob := WantProblem(t, cancel(c, p, pub, s1), 409, "INVALID_TRANSITION")
	WantTransitionMeta(t, "cancel executed", Meta(prob), "executed")
	prob = WantProblem(t, c.Patch(base(p, pub)+"/"+s1, Body("scheduledAt", ts(t0.Add(time.Hour)))), 409, "INVALID_TRANSITION")
	WantTransitionMeta(t, "update executed", Meta(prob), "executed")
	log.Expect(t, "refused changes")

	wantRun(t, "unpublish due", runAt(t, t0.Add(3*time.Minute)), 1, 1, 0)
	wantSched(t, "unpublish executed", getSched(t, c, p, pub, s2), "status", "executed", "failureCode", nil)
	pv2 := getPub(t, c, p, pub)
	if pv2["status"] != "unpublished" || pv2["publishedAt"] != pv["publishedAt"] {
		t.Errorf("publication after the unpublish schedule: %v (publishedAt was %v)", pv2, pv["publishedAt"])
	}
	log.Expect(t, "unpublish run", moveEv("unpublished", p, pub), ev("executed", p, pub, s2))
	wantRun(t, "nothing left", runAt(t, t0.Add(time.Hour)), 0, 0, 0)

	// Two publishes: the second finds the publication published already, a no-op that counts as
	// executed (without a second product.published).
	a := mkSched(t, c, p, pub, "publish", t0.Add(4*time.Minute))
	b := mkSched(t, c, p, pub, "publish", t0.Add(5*time.Minute))
	log.Skip(t)
	wantRun(t, "two publishes", runAt(t, t0.Add(6*time.Minute)), 2, 2, 0)
	wantSched(t, "first", getSched(t, c, p, pub, a), "status", "executed")
	wantSched(t, "same state", getSched(t, c, p, pub, b), "status", "executed", "failureCode", nil)
	log.Expect(t, "two publishes", moveEv("published", p, pub), ev("executed", p, pub, a), ev("executed", p, pub, b))
}

func TestSchedulerFailures(t *testing.T) {
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c) // draft: not ready to be published
	pub := mkPub(t, c, p)
	t0 := dayAhead()
	notReady := mkSched(t, c, p, pub, "publish", t0.Add(time.Minute))
	invalid := mkSched(t, c, p, pub, "unpublish", t0.Add(2*time.Minute)) // a draft cannot be unpublished
	log := NewEventLog(pool, tenant).Skip(t)
	before := getPub(t, c, p, pub)

	start := time.Now()
	wantRun(t, "failing run", runAt(t, t0.Add(3*time.Minute)), 2, 0, 2)
	v := getSched(t, c, p, pub, notReady)
	wantSched(t, "not ready", v, "status", "failed", "failureCode", "REQUIREMENTS_NOT_MET")
	wantExecutedAt(t, "not ready", v, start)
	if r := Str(v, "failureReason"); !strings.Contains(r, "cannot be published") || !strings.Contains(r, "active") {
		t.Errorf("failureReason %q", r)
	}
	v = getSched(t, c, p, pub, invalid)
	wantSched(t, "invalid transition", v, "status", "failed", "failureCode", "INVALID_TRANSITION")
	if r := Str(v, "failureReason"); !strings.Contains(r, "draft") {
		t.Errorf("failureReason %q", r)
	}
	if after := getPub(t, c, p, pub); after["status"] != "draft" || after["updatedAt"] != before["updatedAt"] || after["publishedAt"] != nil {
		t.Errorf("a failed run changed the publication: %v → %v", before, after)
	}
	log.Expect(t, "failed runs", ev("failed", p, pub, notReady), ev("failed", p, pub, invalid))
	WantUUIDs(t, c, base(p, pub)+Q("status[eq]", "failed"), true, notReady, invalid)
	Problem(t, "cancel failed", cancel(c, p, pub, notReady), 409, "INVALID_TRANSITION")
	Problem(t, "update failed", c.Patch(base(p, pub)+"/"+notReady, Body("transition", "unpublish")), 409, "INVALID_TRANSITION")
	wantRun(t, "failed ones never run again", runAt(t, t0.Add(time.Hour)), 0, 0, 0)

	// A cancelled schedule never runs.
	activate(t, c, p)
	cancelled := mkSched(t, c, p, pub, "publish", t0.Add(4*time.Minute))
	Want(t, cancel(c, p, pub, cancelled), 200)
	log.Skip(t)
	wantRun(t, "cancelled", runAt(t, t0.Add(time.Hour)), 0, 0, 0)
	wantSched(t, "cancelled", getSched(t, c, p, pub, cancelled), "status", "cancelled", "executedAt", nil)
	if got := getPub(t, c, p, pub); got["status"] != "draft" {
		t.Errorf("a cancelled schedule published: %v", got)
	}
	log.Expect(t, "cancelled never runs")

	// A database error leaves the schedule pending; the next run executes it.
	due := mkSched(t, c, p, pub, "publish", t0.Add(5*time.Minute))
	log.Skip(t)
	closed, err := store.Open(context.Background(), env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	if res, err := catalog.RunDueSchedules(context.Background(), closed, t0.Add(time.Hour), 100); err == nil || res.Executed+res.Failed != 0 {
		t.Errorf("run on a closed pool: %+v %v", res, err)
	}
	wantSched(t, "after the database error", getSched(t, c, p, pub, due), "status", "pending")
	log.Expect(t, "nothing recorded")
	wantRun(t, "retry", runAt(t, t0.Add(time.Hour)), 1, 1, 0)
	wantSched(t, "retried", getSched(t, c, p, pub, due), "status", "executed")
	log.Expect(t, "retried", moveEv("published", p, pub), ev("executed", p, pub, due))
}

// TestSchedulerExactlyOnce runs four schedulers, each on its own pool (as four replicas), over 50
// due schedules at once: every schedule runs exactly once.
func TestSchedulerExactlyOnce(t *testing.T) {
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	activate(t, c, p)
	t0 := dayAhead()
	const pubs = 25
	pubIDs := make([]string, pubs)
	var scheds []string
	for i := range pubIDs {
		pubIDs[i] = mkPub(t, c, p)
		// Two publishes per publication: the second is a same-state no-op, whoever runs it.
		items := Want(t, c.Post(base(p, pubIDs[i])+"/bulk", []any{
			Body("transition", "publish", "scheduledAt", ts(t0.Add(time.Duration(i)*time.Millisecond))),
			Body("transition", "publish", "scheduledAt", ts(t0.Add(time.Duration(i)*time.Millisecond)))}), 201).Objs()
		scheds = append(scheds, UUIDsOf(items)...)
	}
	log := NewEventLog(pool, tenant).Skip(t)

	const replicas = 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total catalog.ScheduleRun
	startGate := make(chan struct{})
	for r := 0; r < replicas; r++ {
		d, err := store.Open(context.Background(), env.DBURL)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		run := &scheduler.Runner{DB: d, Batch: 3, Now: func() time.Time { return t0.Add(time.Minute) }}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startGate
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			for ctx.Err() == nil {
				res := run.Tick(ctx)
				mu.Lock()
				total.Claimed += res.Claimed
				total.Executed += res.Executed
				total.Failed += res.Failed
				mu.Unlock()
				if res.Claimed == 0 {
					return
				}
			}
		}()
	}
	close(startGate)
	wg.Wait()

	if total != (catalog.ScheduleRun{Claimed: 50, Executed: 50}) {
		t.Errorf("replicas ran %+v, want 50 claimed and executed", total)
	}
	if n := CountRows(t, pool, "publication_schedules", tenant, "status = 'executed' AND executed_at IS NOT NULL"); n != len(scheds) {
		t.Errorf("%d of %d schedules executed", n, len(scheds))
	}
	executed, published := map[string]int{}, map[string]int{}
	for _, e := range log.All(t)[log.Seen():] {
		switch e.Type {
		case "product.publication.schedule.executed":
			executed[e.Payload["scheduleUuid"]]++
		case "product.published":
			published[e.Payload["publicationUuid"]]++
		default:
			t.Errorf("unexpected event %v", e)
		}
	}
	for _, s := range scheds {
		if executed[s] != 1 {
			t.Errorf("schedule %s: %d executed events", s, executed[s])
		}
	}
	for _, pb := range pubIDs {
		if published[pb] != 1 {
			t.Errorf("publication %s: %d product.published events", pb, published[pb])
		}
		if v := getPub(t, c, p, pb); v["status"] != "published" {
			t.Errorf("publication %s is %v", pb, v["status"])
		}
	}
	if len(executed) != len(scheds) || len(published) != pubs {
		t.Errorf("%d schedules and %d publications in the events, want %d and %d", len(executed), len(published), len(scheds), pubs)
	}
}

// TestSchedulerEndToEnd waits for the service's own scheduler (1 s interval) to run a schedule due
// in a moment.
func TestSchedulerEndToEnd(t *testing.T) {
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	activate(t, c, p)
	pub := mkPub(t, c, p)
	log := NewEventLog(pool, tenant).Skip(t)
	at := time.Now().UTC().Add(1500 * time.Millisecond)
	id := mkSched(t, c, p, pub, "publish", at)
	log.Expect(t, "create", ev("created", p, pub, id))
	deadline := time.Now().Add(15 * time.Second)
	var v map[string]any
	for {
		v = getSched(t, c, p, pub, id)
		if v["status"] != "pending" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	wantSched(t, "run by the service", v, "status", "executed", "failureCode", nil, "failureReason", nil)
	if v["executedAt"] == nil {
		t.Fatalf("executedAt null: %v", v)
	}
	if ex := TS(t, v["executedAt"]); ex.Before(at) || ex.After(at.Add(3*time.Second)) {
		t.Errorf("executedAt %v, scheduledAt %v: want within seconds after", ex, at)
	}
	pv := getPub(t, c, p, pub)
	if pv["status"] != "published" || pv["publishedAt"] == nil {
		t.Errorf("publication %v", pv)
	}
	log.Expect(t, "run", moveEv("published", p, pub), ev("executed", p, pub, id))
}
