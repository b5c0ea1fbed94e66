// Package topology runs catalogd as a company runs it (DESIGN.md "Production topology"): behind a
// private PgBouncer in transaction mode (the tests start it themselves: pgembed.StartBouncer, in
// front of the tests' private PostgreSQL), with several replicas sharing a database.
package topology

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/pgembed"
	"github.com/catalogd/catalogd/server/retention"
	"github.com/catalogd/catalogd/server/store"
)

var ctx = context.Background()

// behind starts a catalogd on a fresh database, behind the process's transaction-mode PgBouncer;
// with direct, CATALOG_DATABASE_DIRECT_URL is the database itself.
func behind(t *testing.T, direct bool, opts ...func(*app.Config)) *apptest.Env {
	t.Helper()
	dbURL, drop, err := apptest.CreateDatabase(ctx, "catalogd_topology")
	if err != nil {
		t.Fatal(err)
	}
	return replica(t, dbURL, drop, direct, opts...)
}

// replica starts another catalogd on dbURL behind the transaction pooler (drop runs at its Stop).
func replica(t *testing.T, dbURL string, drop func(), direct bool, opts ...func(*app.Config)) *apptest.Env {
	t.Helper()
	pooled, err := apptest.BehindPooler("transaction", direct)
	if err != nil {
		t.Fatal(err)
	}
	e, err := apptest.StartOn(dbURL, drop, append(opts, pooled)...)
	if err != nil {
		t.Fatalf("catalogd behind PgBouncer (transaction mode): %v", err)
	}
	t.Cleanup(e.Stop)
	return e
}

// database is a fresh database, dropped when the test ends.
func database(t *testing.T) string {
	t.Helper()
	dbURL, drop, err := apptest.CreateDatabase(ctx, "catalogd_topology")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return dbURL
}

// dbName is the database of a URL.
func dbName(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(p.Path, "/")
}

// xacts is how many transactions the transaction-mode bouncer has passed to e's database.
func xacts(t *testing.T, e *apptest.Env) int64 {
	t.Helper()
	b, err := apptest.Bouncer("transaction")
	if err != nil {
		t.Fatal(err)
	}
	n, err := b.Transactions(ctx, dbName(t, e.DBURL))
	if err != nil {
		t.Fatalf("PgBouncer's SHOW STATS: %v", err)
	}
	return n
}

// direct is a pool on the database itself (not through a pooler), for what the tests look at
// beside the API.
func direct(t *testing.T, dbURL string) *pgxpool.Pool {
	t.Helper()
	p, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// idleAdvisoryLocks counts the advisory locks on dbURL's database held by connections that are in
// no transaction: session locks, which behind a transaction pooler nobody can release.
func idleAdvisoryLocks(t *testing.T, p *pgxpool.Pool) int {
	t.Helper()
	var n int
	if err := p.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database() AND a.state = 'idle'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The README walk-through (scripts/tour.sh) works against a catalogd whose every connection goes
// through PgBouncer in transaction mode, and its statements do go through the pooler.
func TestWalkThroughBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	e := behind(t, false, func(c *app.Config) { c.DisableDispatcher = true }) // the tour's target is https://erp.example.com
	before := xacts(t, e)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "tour.sh"))
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "BASE="+e.BaseURL, "TOKEN="+apptest.Token("tour-"+apptest.RandomHex(4)))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/tour.sh behind the pooler: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	out := strings.TrimRight(stdout.String(), "\n")
	if last := out[strings.LastIndex(out, "\n")+1:]; last != "tour complete" {
		t.Fatalf("last line %q, want %q:\n%s", last, "tour complete", out)
	}
	if after := xacts(t, e); after <= before {
		t.Errorf("PgBouncer passed %d transactions to the database before the walk-through and %d after: catalogd does not go through it", before, after)
	}
}

// The webhook dispatcher behind a transaction pooler LISTENs on CATALOG_DATABASE_DIRECT_URL: a
// write's NOTIFY wakes it (catalogd_webhook_notifications_total counts it, listening is 1).
// Without a direct URL it says on /metrics that it only polls, and deliveries still arrive.
func TestWakeUpsBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		direct    bool
		listening float64
	}{{"with the direct URL", true, 1}, {"without a direct URL", false, 0}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := behind(t, c.direct, func(c *app.Config) { c.WebhookAllowPrivate = true })
			var got atomic.Int64
			rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				got.Add(1)
			}))
			defer rc.Close()
			cl, _ := e.TenantClient(t)
			subscribe(t, cl, rc.URL+"/hook")
			// The listener is up before the write whose NOTIFY the test expects.
			apptest.WaitFor(t, 10*time.Second, "the dispatcher's listener", func() bool {
				return !c.direct || e.Metrics(t)["catalogd_webhook_listening"] == 1
			})
			apptest.Want(t, cl.Post("/v1/attributes", apptest.Body("code", "a_"+apptest.RandomHex(4))), 201)
			apptest.WaitFor(t, 20*time.Second, "the delivery", func() bool { return got.Load() >= 1 })
			m := e.Metrics(t)
			if m["catalogd_webhook_listening"] != c.listening {
				t.Errorf("catalogd_webhook_listening %v, want %v", m["catalogd_webhook_listening"], c.listening)
			}
			notified := m["catalogd_webhook_notifications_total"]
			if c.direct && notified < 1 {
				t.Errorf("catalogd_webhook_notifications_total %v: the write's NOTIFY did not reach the dispatcher", notified)
			}
			if !c.direct && notified != 0 {
				t.Errorf("catalogd_webhook_notifications_total %v without a session to LISTEN on", notified)
			}
		})
	}
}

// subscribe subscribes cl's tenant to attribute.created at target: each attribute created then
// makes a delivery (and its NOTIFY).
func subscribe(t *testing.T, cl *apptest.Client, target string) {
	t.Helper()
	sub := apptest.Str(apptest.Want(t, cl.Post("/v1/webhook-subscriptions",
		apptest.Body("displayName", "topology", "targetUrl", target)), 201).Obj(), "uuid")
	et := apptest.Want(t, cl.Get("/v1/webhook-event-types"+apptest.Q("names[eq]", "attribute.created")), 200).Items()
	if len(et) != 1 {
		t.Fatalf("event type attribute.created: %v", et)
	}
	apptest.Want(t, cl.Post("/v1/webhook-subscriptions/"+sub+"/event-types",
		map[string]any{"webhookEventTypeUuid": apptest.Str(et[0], "uuid")}), 201)
}

// Retention runs with two replicas behind the transaction pooler: one prunes at a time, old
// events are deleted run after run (a lock left behind would stop every later run), no run fails,
// and no advisory lock stays with an idle connection.
func TestRetentionWithTwoReplicasBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	dbURL, drop, err := apptest.CreateDatabase(ctx, "catalogd_topology")
	if err != nil {
		t.Fatal(err)
	}
	// Retention 10s: a run every second or so on each replica (a tenth of it, at least 1 s).
	opt := func(c *app.Config) { c.Retention = 10 * time.Second; c.DisableDispatcher = true }
	a := replica(t, dbURL, drop, true, opt)
	b := replica(t, dbURL, nil, true, opt)
	p := direct(t, a.DBURL)
	tenant := "t-" + apptest.RandomHex(6)
	runs := func(e *apptest.Env) float64 {
		m := e.Metrics(t)
		if n := m[`catalogd_retention_runs_total{outcome="error"}`]; n != 0 {
			t.Fatalf("%v retention runs failed", n)
		}
		return m[`catalogd_retention_runs_total{outcome="done"}`] + m[`catalogd_retention_runs_total{outcome="skipped"}`]
	}
	for round := range 3 {
		// Events of an hour ago, after runs of both replicas since the last round.
		ra, rb := runs(a), runs(b)
		apptest.WaitFor(t, 30*time.Second, "runs of both replicas", func() bool { return runs(a) >= ra+2 && runs(b) >= rb+2 })
		at := time.Now().Add(-time.Hour).Add(time.Duration(round) * time.Minute)
		for i := range 5 {
			ts := at.Add(time.Duration(i) * time.Millisecond)
			if _, err := p.Exec(ctx, `INSERT INTO events (tenant_id, uuid, type, payload, created_at) VALUES ($1, $2, 'attribute.created', '{}', $3)`,
				tenant, retention.MinV7(ts), ts); err != nil {
				t.Fatal(err)
			}
		}
		apptest.WaitFor(t, 30*time.Second, "round "+string(rune('1'+round))+"'s old events deleted", func() bool {
			return apptest.CountRows(t, p, "events", tenant) == 0
		})
	}
	m := a.Metrics(t)
	mb := b.Metrics(t)
	if done := m[`catalogd_retention_runs_total{outcome="done"}`] + mb[`catalogd_retention_runs_total{outcome="done"}`]; done < 3 {
		t.Errorf("%v runs done by the two replicas, want at least one a round", done)
	}
	if n := idleAdvisoryLocks(t, p); n != 0 {
		t.Errorf("%d advisory locks held by idle connections", n)
	}
}

// pooledDB opens a store.DB on dbURL through b in transaction mode (CATALOG_DATABASE_POOLER
// transaction; nil b: the process's transaction-mode bouncer), with conns connections.
func pooledDB(t *testing.T, b *pgembed.Bouncer, dbURL string, conns int32) *store.DB {
	t.Helper()
	if b == nil {
		var err error
		if b, err = apptest.Bouncer("transaction"); err != nil {
			t.Fatal(err)
		}
	}
	u, err := b.URL(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	d, err := store.OpenWith(ctx, u, store.Options{MaxConns: conns, Topology: store.Topology{Pooler: store.PoolerTransaction}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

// soloBouncer is a PgBouncer of the test's own in transaction mode with one server connection per
// database: whatever a transaction leaves on its server connection, the next one, of any client,
// finds.
func soloBouncer(t *testing.T) *pgembed.Bouncer {
	t.Helper()
	admin, err := apptest.AdminURL()
	if err != nil {
		t.Fatal(err)
	}
	b, err := pgembed.StartBouncer(ctx, admin, pgembed.BouncerOptions{Mode: "transaction", PoolSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Stop(); err != nil {
			t.Error(err)
		}
	})
	return b
}

// Through a transaction pooler whose clients share one server connection, statements, locks and
// settings end with their transaction: two clients run the same statements in turn (pgx's named
// prepared statements would collide there: "prepared statement already exists" or "does not
// exist"), a lock taken by DB.TryLock is the other client's to take once released and no idle
// connection holds one, and a list's plan setting holds in its batch and not after it.
func TestNothingOutlivesItsTransactionBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	b := soloBouncer(t)
	dbURL := database(t)
	one, two := pooledDB(t, b, dbURL, 1), pooledDB(t, b, dbURL, 1)

	for i := range 8 {
		for _, d := range []*store.DB{one, two} {
			var n int
			if err := d.Pool.QueryRow(ctx, "SELECT $1::int + 1", i).Scan(&n); err != nil || n != i+1 {
				t.Fatalf("round %d: %d, %v", i, n, err)
			}
		}
	}

	release, ok, err := one.TryLock(ctx, "topology-test")
	if err != nil || !ok {
		t.Fatalf("TryLock: %v, %v", ok, err)
	}
	// The lock's transaction holds the only server connection: the other client's try waits for it
	// in the pooler, so it runs once the lock is released.
	var wg sync.WaitGroup
	wg.Add(1)
	var twoOK bool
	var twoErr error
	go func() {
		defer wg.Done()
		var rel func()
		rel, twoOK, twoErr = two.TryLock(ctx, "topology-test")
		if twoOK {
			rel()
		}
	}()
	release()
	wg.Wait()
	if twoErr != nil || !twoOK {
		t.Errorf("after release, the other client's TryLock: %v, %v", twoOK, twoErr)
	}
	if n := idleAdvisoryLocks(t, direct(t, dbURL)); n != 0 {
		t.Errorf("%d advisory locks held by idle connections", n)
	}

	var inBatch, after string
	batch := &pgx.Batch{}
	batch.Queue(list.CustomPlans)
	batch.Queue("SELECT current_setting('plan_cache_mode')").QueryRow(func(r pgx.Row) error { return r.Scan(&inBatch) })
	if err := one.Pool.SendBatch(ctx, batch).Close(); err != nil {
		t.Fatal(err)
	}
	if err := two.Pool.QueryRow(ctx, "SELECT current_setting('plan_cache_mode')").Scan(&after); err != nil {
		t.Fatal(err)
	}
	if inBatch != "force_custom_plan" || after != "auto" {
		t.Errorf("plan_cache_mode %q in a list's batch, %q after it on the same server connection; want force_custom_plan, auto", inBatch, after)
	}
}

// Retention behind a transaction pooler: a run holds its lock for the run only; another replica's
// run skips while it is held and prunes once it is released.
func TestRetentionLockBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	dbURL := database(t)
	one, two := pooledDB(t, nil, dbURL, 4), pooledDB(t, nil, dbURL, 4)
	if err := app.Migrate(ctx, one, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	p1 := &retention.Pruner{DB: one, Retention: time.Hour, IdempotencyTTL: time.Hour}
	p2 := &retention.Pruner{DB: two, Retention: time.Hour, IdempotencyTTL: time.Hour}
	for i, p := range []*retention.Pruner{p1, p2, p1, p2} {
		if res, err := p.RunOnce(ctx); err != nil || res.Skipped {
			t.Fatalf("run %d: %+v, %v; want done (nobody else holds the lock)", i, res, err)
		}
	}
	release, ok, err := one.TryLock(ctx, retention.LockKey)
	if err != nil || !ok {
		t.Fatalf("TryLock: %v, %v", ok, err)
	}
	if res, err := p2.RunOnce(ctx); err != nil || !res.Skipped {
		t.Errorf("a run while another holds the lock: %+v, %v; want skipped", res, err)
	}
	release()
	if res, err := p2.RunOnce(ctx); err != nil || res.Skipped {
		t.Errorf("a run after the lock's release: %+v, %v; want done", res, err)
	}
	if n := idleAdvisoryLocks(t, direct(t, dbURL)); n != 0 {
		t.Errorf("%d advisory locks held by idle connections", n)
	}
}

// Replicas starting together behind a transaction pooler apply every migration once.
func TestMigrationsBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	dbURL := database(t)
	dbs := []*store.DB{pooledDB(t, nil, dbURL, 2), pooledDB(t, nil, dbURL, 2), pooledDB(t, nil, dbURL, 2)}
	errs := make([]error, len(dbs))
	var wg sync.WaitGroup
	for i, d := range dbs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = app.Migrate(ctx, d, slog.New(slog.DiscardHandler)) }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../../db/migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("migrations: %v, %v", files, err)
	}
	var n int
	if err := direct(t, dbURL).QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(files) {
		t.Errorf("%d migrations recorded, want %d", n, len(files))
	}
}

// CATALOG_DATABASE_DIRECT_URL is for a transaction pooler; beside any other it is refused at start.
func TestDirectURLWithoutTransactionPooler(t *testing.T) {
	t.Parallel()
	for _, pooler := range []store.Pooler{store.PoolerNone, store.PoolerSession} {
		_, err := app.Start(ctx, app.Config{DatabaseURL: "postgres://nobody@127.0.0.1:1/none", DatabasePooler: pooler,
			DatabaseDirectURL: "postgres://nobody@127.0.0.1:1/none", DataDir: t.TempDir()}, slog.New(slog.DiscardHandler))
		if err == nil || !strings.Contains(err.Error(), "CATALOG_DATABASE_DIRECT_URL is for CATALOG_DATABASE_POOLER=transaction") {
			t.Errorf("pooler %s with a direct URL: %v", pooler, err)
		}
	}
}

// The listener's session on the direct URL comes back after its backend is terminated (a restart,
// a failover): a new LISTEN connection, and the next write's NOTIFY wakes the dispatcher again.
func TestListenerReconnectsOnTheDirectURL(t *testing.T) {
	t.Parallel()
	e := behind(t, true, func(c *app.Config) { c.WebhookAllowPrivate = true })
	p := direct(t, e.DBURL)
	listener := func() (pid int) {
		_ = p.QueryRow(ctx, `SELECT coalesce(max(pid), 0) FROM pg_stat_activity
			WHERE datname = current_database() AND query = 'LISTEN catalogd_webhooks'`).Scan(&pid)
		return pid
	}
	var first int
	apptest.WaitFor(t, 10*time.Second, "the dispatcher's LISTEN on the direct URL", func() bool {
		first = listener()
		return first != 0 && e.Metrics(t)["catalogd_webhook_listening"] == 1
	})
	if _, err := p.Exec(ctx, "SELECT pg_terminate_backend($1)", first); err != nil {
		t.Fatal(err)
	}
	apptest.WaitFor(t, 20*time.Second, "a new LISTEN connection", func() bool {
		pid := listener()
		return pid != 0 && pid != first && e.Metrics(t)["catalogd_webhook_listening"] == 1
	})
	before := e.Metrics(t)["catalogd_webhook_notifications_total"]
	cl, _ := e.TenantClient(t)
	subscribe(t, cl, closedURL(t))
	apptest.Want(t, cl.Post("/v1/attributes", apptest.Body("code", "a_"+apptest.RandomHex(4))), 201)
	apptest.WaitFor(t, 10*time.Second, "the write's NOTIFY", func() bool {
		return e.Metrics(t)["catalogd_webhook_notifications_total"] > before
	})
}

// closedURL is a webhook target on 127.0.0.1 where nothing listens.
func closedURL(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL + "/hook"
}
