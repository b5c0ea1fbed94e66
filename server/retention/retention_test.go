package retention_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/catalogd/catalogd/db"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/retention"
	"github.com/catalogd/catalogd/server/store"
)

// now is the tests' clock: rows are placed relative to it and the pruner runs at it. It is half a
// millisecond into its millisecond, so that an event can be older than the cutoff and yet of the
// cutoff's own millisecond.
var now = time.Date(2030, 6, 1, 12, 0, 0, 500_000, time.UTC)

const window = 24 * time.Hour

// fresh is a migrated database of its own for one test (the pruner works across tenants, so tests
// must not share one).
func fresh(t *testing.T) *store.DB {
	t.Helper()
	ctx := context.Background()
	url, drop, err := apptest.CreateDatabase(ctx, "catalogd_retention")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	d, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	if _, err := db.Migrate(ctx, d.Pool); err != nil {
		t.Fatal(err)
	}
	return d
}

func exec(t *testing.T, p *pgxpool.Pool, sql string, args ...any) {
	t.Helper()
	if _, err := p.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func count(t *testing.T, p *pgxpool.Pool, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := p.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// v7 is a version 7 uuid of time at (as server/events makes them).
func v7(at time.Time) uuid.UUID {
	u, r := retention.MinV7(at), uuid.New()
	copy(u[8:], r[8:])
	u[8] = u[8]&0x3f | 0x80
	return u
}

func subscription(t *testing.T, p *pgxpool.Pool, tenant string) uuid.UUID {
	t.Helper()
	id := uuid.New()
	exec(t, p, `INSERT INTO webhook_subscriptions (tenant_id, uuid, display_name, target_url, secret_sealed, created_at, updated_at)
		VALUES ($1, $2, 'sub', 'https://example.com/hook', '\x00', $3, $3)`, tenant, id, now.Add(-100*window))
	return id
}

func event(t *testing.T, p *pgxpool.Pool, tenant string, at time.Time) uuid.UUID {
	t.Helper()
	id := v7(at)
	exec(t, p, `INSERT INTO events (tenant_id, uuid, type, payload, created_at) VALUES ($1, $2, 'attribute.created', '{}', $3)`,
		tenant, id, at)
	return id
}

// delivery inserts a delivery in status created at created, last changed at updated, with
// attempts attempts (one second apart after created), and with a lease when leased.
func delivery(t *testing.T, p *pgxpool.Pool, tenant string, sub uuid.UUID, status string, created, updated time.Time, attempts int, leased bool) uuid.UUID {
	t.Helper()
	id := uuid.New()
	var lease *uuid.UUID
	if leased {
		l := uuid.New()
		lease = &l
	}
	var scheduled *time.Time
	if status == "pending" {
		s := updated.Add(time.Hour)
		scheduled = &s
	}
	exec(t, p, `INSERT INTO webhook_deliveries (tenant_id, uuid, subscription_uuid, event_uuid, event_type, payload, status,
		attempts, scheduled_at, lease_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, 'attribute.created', '{}', $5, $6, $7, $8, $9, $10)`,
		tenant, id, sub, v7(created), status, attempts, scheduled, lease, created, updated)
	for i := 0; i < attempts; i++ {
		exec(t, p, `INSERT INTO webhook_delivery_attempts (tenant_id, uuid, delivery_uuid, status_code, response_body,
			response_time_ms, created_at) VALUES ($1, $2, $3, 500, '', 3, $4)`, tenant, uuid.New(), id, created.Add(time.Duration(i)*time.Second))
	}
	return id
}

func exists(t *testing.T, p *pgxpool.Pool, table, tenant string, id uuid.UUID) bool {
	t.Helper()
	return count(t, p, `SELECT count(*) FROM `+table+` WHERE tenant_id = $1 AND uuid = $2`, tenant, id) == 1
}

func attemptsOf(t *testing.T, p *pgxpool.Pool, tenant string, id uuid.UUID) int {
	t.Helper()
	return count(t, p, `SELECT count(*) FROM webhook_delivery_attempts WHERE tenant_id = $1 AND delivery_uuid = $2`, tenant, id)
}

func pruner(d *store.DB) *retention.Pruner {
	return &retention.Pruner{DB: d, Retention: window, Pause: -1, Now: func() time.Time { return now }}
}

func TestOldRowsArePrunedRecentAndPendingKept(t *testing.T) {
	d := fresh(t)
	p := d.Pool
	old, recent, ancient := now.Add(-window-time.Minute), now.Add(-window+time.Minute), now.Add(-30*window)
	subA, subB := subscription(t, p, "a"), subscription(t, p, "b")

	oldEvents := []uuid.UUID{event(t, p, "a", old), event(t, p, "a", ancient), event(t, p, "b", old)}
	recentEvents := []uuid.UUID{event(t, p, "a", recent), event(t, p, "b", recent), event(t, p, "b", now)}
	// An event of the cutoff's own millisecond, created just before the cutoff: its uuid is not
	// below the v7 bound, so it waits for the next run (the cut is never early).
	edge := event(t, p, "a", now.Add(-window).Add(-100*time.Microsecond))

	type row struct {
		tenant   string
		id       uuid.UUID
		attempts int
	}
	gone := []row{
		{"a", delivery(t, p, "a", subA, "delivered", ancient, old, 1, false), 1},
		{"a", delivery(t, p, "a", subA, "failed", ancient, old, 10, false), 10},
		{"b", delivery(t, p, "b", subB, "delivered", old, old, 3, false), 3},
		// Failed while an attempt was in flight, long enough ago that the lease is over.
		{"b", delivery(t, p, "b", subB, "failed", ancient, now.Add(-window-retention.DefaultLeaseGrace-time.Minute), 2, true), 2},
	}
	kept := []row{
		// Created long ago but finished recently: age counts from the last change.
		{"a", delivery(t, p, "a", subA, "delivered", ancient, recent, 1, false), 1},
		{"b", delivery(t, p, "b", subB, "failed", recent, recent, 0, false), 0},
		// Pending, whatever the age, with its attempts; also while leased (in flight).
		{"a", delivery(t, p, "a", subA, "pending", ancient, ancient, 4, false), 4},
		{"b", delivery(t, p, "b", subB, "pending", ancient, old, 2, true), 2},
		// Failed while an attempt may still be in flight: kept through the lease grace.
		{"a", delivery(t, p, "a", subA, "failed", ancient, old, 1, true), 1},
	}

	reg := prometheus.NewRegistry()
	pr := pruner(d)
	pr.Metrics = retention.NewMetrics(reg)
	res, err := pr.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped || res.Events != 3 || res.Deliveries != 4 || res.Attempts != 16 {
		t.Errorf("result %+v, want 3 events, 4 deliveries, 16 attempts", res)
	}
	for _, id := range oldEvents {
		if count(t, p, `SELECT count(*) FROM events WHERE uuid = $1`, id) != 0 {
			t.Errorf("old event %s kept", id)
		}
	}
	for _, id := range append(recentEvents, edge) {
		if count(t, p, `SELECT count(*) FROM events WHERE uuid = $1`, id) != 1 {
			t.Errorf("recent event %s deleted", id)
		}
	}
	for _, r := range gone {
		if exists(t, p, "webhook_deliveries", r.tenant, r.id) || attemptsOf(t, p, r.tenant, r.id) != 0 {
			t.Errorf("old finished delivery %s (or its attempts) kept", r.id)
		}
	}
	for _, r := range kept {
		if !exists(t, p, "webhook_deliveries", r.tenant, r.id) || attemptsOf(t, p, r.tenant, r.id) != r.attempts {
			t.Errorf("delivery %s or some of its %d attempts deleted", r.id, r.attempts)
		}
	}
	for kind, want := range map[string]float64{"events": 3, "deliveries": 4, "attempts": 16} {
		if got := metric(t, reg, "catalogd_retention_deleted_total", "kind", kind); got != want {
			t.Errorf("catalogd_retention_deleted_total{kind=%q} = %v, want %v", kind, got, want)
		}
	}
	if got := metric(t, reg, "catalogd_retention_runs_total", "outcome", "done"); got != 1 {
		t.Errorf("runs done = %v, want 1", got)
	}

	// A second run finds nothing more; the edge event goes once the clock passes its millisecond.
	if res, err = pr.RunOnce(context.Background()); err != nil || res.Events+res.Deliveries+res.Attempts != 0 {
		t.Errorf("second run: %+v, %v; want nothing deleted", res, err)
	}
	pr.Now = func() time.Time { return now.Add(time.Millisecond) }
	if res, err = pr.RunOnce(context.Background()); err != nil || res.Events != 1 {
		t.Errorf("run a millisecond later: %+v, %v; want the edge event deleted", res, err)
	}
}

func TestBatchesAreBounded(t *testing.T) {
	d := fresh(t)
	p := d.Pool
	old := now.Add(-2 * window)
	sub := subscription(t, p, "a")
	for i := 0; i < 35; i++ {
		event(t, p, "a", old.Add(time.Duration(i)*time.Millisecond))
	}
	event(t, p, "b", now) // tenant b: nothing old, one statement that finds nothing
	for i := 0; i < 25; i++ {
		delivery(t, p, "a", sub, "delivered", old, old.Add(time.Duration(i)*time.Second), 2, false)
	}
	pr := pruner(d)
	pr.Batch = 10
	res, err := pr.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 35 || res.Deliveries != 25 || res.Attempts != 50 {
		t.Errorf("result %+v, want 35 events, 25 deliveries, 50 attempts", res)
	}
	// Deliveries 10+10+5, imports 0, exports 0, tenant a's events 10+10+10+5, tenant b's events 0:
	// one statement per batch of at most 10 rows.
	if res.Statements != 3+1+1+4+1 {
		t.Errorf("%d statements, want 10 (batches of at most 10)", res.Statements)
	}
}

func TestOneReplicaAtATime(t *testing.T) {
	d := fresh(t)
	p := d.Pool
	for i := 0; i < 5; i++ {
		event(t, p, "a", now.Add(-2*window))
	}
	// Another replica is mid-run: it holds the lock.
	ctx := context.Background()
	other, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got bool
	if err := other.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended('catalogd:retention', 0))`).Scan(&got); err != nil || !got {
		t.Fatalf("take the lock: %v %v", got, err)
	}
	reg := prometheus.NewRegistry()
	pr := pruner(d)
	pr.Metrics = retention.NewMetrics(reg)
	res, err := pr.RunOnce(ctx)
	if err != nil || !res.Skipped || res.Events != 0 || res.Statements != 0 {
		t.Fatalf("while another replica prunes: %+v, %v; want skipped", res, err)
	}
	if n := count(t, p, `SELECT count(*) FROM events`); n != 5 {
		t.Errorf("%d events left, want 5 (a skipped run deletes nothing)", n)
	}
	if got := metric(t, reg, "catalogd_retention_runs_total", "outcome", "skipped"); got != 1 {
		t.Errorf("runs skipped = %v, want 1", got)
	}
	if _, err := other.Exec(ctx, `SELECT pg_advisory_unlock(hashtextextended('catalogd:retention', 0))`); err != nil {
		t.Fatal(err)
	}
	other.Release()
	if res, err = pr.RunOnce(ctx); err != nil || res.Skipped || res.Events != 5 {
		t.Errorf("after the other replica finished: %+v, %v; want 5 events deleted", res, err)
	}
}

func TestTwoPrunersAtOnce(t *testing.T) {
	d := fresh(t)
	p := d.Pool
	for i := 0; i < 30; i++ {
		event(t, p, "a", now.Add(-2*window))
	}
	// First holds the lock and waits (its clock is read right after the lock) until second has
	// tried; then it does the work and releases the lock.
	locked, release := make(chan struct{}), make(chan struct{})
	first := pruner(d)
	first.Now = func() time.Time { close(locked); <-release; return now }
	done := make(chan error, 1)
	var firstRes retention.Result
	go func() {
		var err error
		firstRes, err = first.RunOnce(context.Background())
		done <- err
	}()
	<-locked
	second := pruner(d)
	res, err := second.RunOnce(context.Background())
	close(release)
	if ferr := <-done; ferr != nil {
		t.Fatal(ferr)
	}
	if err != nil || !res.Skipped || res.Events != 0 {
		t.Errorf("second pruner: %+v, %v; want skipped", res, err)
	}
	if firstRes.Skipped || firstRes.Events != 30 {
		t.Errorf("first pruner: %+v; want 30 events deleted", firstRes)
	}
	// The lock went back with the connection: a later run takes it.
	if res, err := second.RunOnce(context.Background()); err != nil || res.Skipped {
		t.Errorf("later run: %+v, %v; want it to run", res, err)
	}
}

func TestCancelledRunStopsAndReleasesTheLock(t *testing.T) {
	d := fresh(t)
	p := d.Pool
	for i := 0; i < 30; i++ {
		event(t, p, "a", now.Add(-2*window))
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr := pruner(d)
	pr.Batch = 10
	pr.Now = func() time.Time { cancel(); return now } // cancelled once it holds the lock
	res, err := pr.RunOnce(ctx)
	if err == nil || res.Events != 0 {
		t.Errorf("cancelled run: %+v, %v; want the context's error, nothing deleted", res, err)
	}
	pr.Now = func() time.Time { return now }
	if res, err := pr.RunOnce(context.Background()); err != nil || res.Skipped || res.Events != 30 {
		t.Errorf("next run: %+v, %v; want the lock free and 30 events deleted", res, err)
	}
}

// metric reads a counter of reg by one label.
func metric(t *testing.T, reg *prometheus.Registry, name, label, value string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label && l.GetValue() == value {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	t.Fatalf("no %s{%s=%q}", name, label, value)
	return 0
}

func TestMinV7(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 678_000_000, time.UTC)
	b := retention.MinV7(at)
	if b.Version() != 7 {
		t.Errorf("version %d", b.Version())
	}
	sec, nsec := b.Time().UnixTime()
	if got := time.Unix(sec, nsec).UTC(); !got.Equal(at) {
		t.Errorf("time %s, want %s", got, at)
	}
	// Every v7 of an earlier millisecond sorts below the bound, every v7 of its millisecond or later
	// not below (bytewise, as PostgreSQL compares uuids).
	for _, c := range []struct {
		at    time.Time
		below bool
	}{{at.Add(-time.Millisecond), true}, {at.Add(-time.Hour), true}, {at, false}, {at.Add(time.Millisecond), false}} {
		u := v7(c.at)
		if got := strings.Compare(string(u[:]), string(b[:])) < 0; got != c.below {
			t.Errorf("v7 of %s below the bound of %s: %v, want %v", c.at, at, got, c.below)
		}
	}
}

func historyEntry(t *testing.T, p *pgxpool.Pool, tenant string, at time.Time) uuid.UUID {
	t.Helper()
	id := v7(at)
	exec(t, p, `INSERT INTO history (tenant_id, uuid, resource_type, resource_uuid, parent_uuids, action, actor, changes, created_at)
		VALUES ($1, $2, 'attribute', $2, '{}', 'created', '{"subject":"s"}', '[]', $3)`, tenant, id, at)
	return id
}

// History entries are pruned after HistoryRetention, in bounded batches per tenant, apart from the
// events' Retention: an entry as old as a pruned event stays while the history keeps it.
func TestHistoryIsPrunedApart(t *testing.T) {
	d := fresh(t)
	p := d.Pool
	hwin := 10 * window
	oldEvent := event(t, p, "a", now.Add(-window-time.Minute))
	kept := []uuid.UUID{historyEntry(t, p, "a", now.Add(-window-time.Minute)), historyEntry(t, p, "b", now.Add(-hwin+time.Minute))}
	var old []uuid.UUID
	for i := 0; i < 23; i++ {
		old = append(old, historyEntry(t, p, "a", now.Add(-hwin-time.Duration(i+1)*time.Millisecond)))
	}
	old = append(old, historyEntry(t, p, "b", now.Add(-2*hwin)))
	pr := pruner(d)
	pr.HistoryRetention, pr.Batch = hwin, 10
	res, err := pr.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.History != 24 || res.Events != 1 {
		t.Errorf("result %+v, want 24 history entries and 1 event", res)
	}
	if exists(t, p, "events", "a", oldEvent) {
		t.Error("the old event was kept")
	}
	for _, id := range old {
		if exists(t, p, "history", "a", id) || exists(t, p, "history", "b", id) {
			t.Errorf("old entry %s kept", id)
		}
	}
	for i, id := range kept {
		if !exists(t, p, "history", []string{"a", "b"}[i], id) {
			t.Errorf("recent entry %s pruned", id)
		}
	}
	// History only: events are kept when Retention is 0.
	recent := event(t, p, "a", now.Add(-2*window))
	pr = &retention.Pruner{DB: d, HistoryRetention: hwin, Pause: -1, Now: func() time.Time { return now }}
	if _, err := pr.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !exists(t, p, "events", "a", recent) {
		t.Error("a history-only pruner deleted an event")
	}
}
