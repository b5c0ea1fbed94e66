package fault

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

// (a) Writes keep coming while the receiver is slow; catalogd is killed with SIGKILL while
// deliveries are in flight and started again: every acknowledged write's event is delivered.
func TestKill9MidDeliveryLosesNoDelivery(t *testing.T) {
	t.Parallel()
	dbURL, dataDir := newDatabase(t), t.TempDir()
	rc := newReceiver(t)
	rc.delay.Store(int64(300 * time.Millisecond))
	first := startCatalogd(t, dbURL, dataDir)
	c := newClient(first.base)
	c.subscribe(t, rc.srv.URL)

	w := startWriters(c, 3, 20*time.Millisecond)
	apptest.WaitFor(t, 30*time.Second, "no delivery in flight while writing", func() bool {
		return w.ackedCount() >= 20 && rc.inFlight.Load() > 0
	})
	first.kill(syscall.SIGKILL) // mid-delivery: the receiver is holding at least one attempt
	inFlightAtKill := rc.inFlight.Load()

	second := startCatalogd(t, dbURL, dataDir)
	c.setBase(second.base)
	before := w.ackedCount()
	apptest.WaitFor(t, 30*time.Second, "no write acknowledged by the restarted catalogd", func() bool { return w.ackedCount() >= before+20 })
	w.halt()
	rc.delay.Store(0)

	if len(w.bad) > 0 {
		t.Errorf("%d answers broke the contract, e.g. %s", len(w.bad), w.bad[0])
	}
	t.Logf("%d writes acknowledged, answers %v; %d attempts in flight at the kill", len(w.acked), w.statuses, inFlightAtKill)
	// The killed process's claims come due again when their lease (3 s here) runs out.
	rc.waitDelivered(t, w.acked, 45*time.Second)
	second.kill(syscall.SIGTERM)
}

// (b) PostgreSQL is restarted, then crashed (immediate shutdown), under a steady write load:
// while it is down clients get 503 UNAVAILABLE with Retry-After and never a 500, /readyz is 503;
// afterwards /readyz is 200, every acknowledged write is there and its delivery arrives.
func TestDatabaseRestartAndCrashMidWrite(t *testing.T) {
	// Not parallel: it stops the cluster every other test of the package uses.
	dbURL, dataDir := newDatabase(t), t.TempDir()
	rc := newReceiver(t)
	p := startCatalogd(t, dbURL, dataDir)
	c := newClient(p.base)
	c.subscribe(t, rc.srv.URL)

	w := startWriters(c, 4, 5*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, mode := range []string{"fast", "immediate"} {
		before := w.ackedCount()
		apptest.WaitFor(t, 30*time.Second, "no write acknowledged before the outage", func() bool { return w.ackedCount() >= before+20 })
		unavailBefore := w.unavailable()
		if err := cluster.Halt(mode); err != nil {
			t.Fatal(err)
		}
		apptest.WaitFor(t, 20*time.Second, "/readyz is not 503 while PostgreSQL is down ("+mode+")", func() bool { return readyz(p.base) == 503 })
		apptest.WaitFor(t, 20*time.Second, "no 503 while PostgreSQL is down ("+mode+")", func() bool { return w.unavailable() > unavailBefore })
		if err := cluster.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		apptest.WaitFor(t, 30*time.Second, "/readyz not 200 after PostgreSQL is back ("+mode+")", func() bool { return readyz(p.base) == 200 })
		before = w.ackedCount()
		apptest.WaitFor(t, 30*time.Second, "no write acknowledged after the outage ("+mode+")", func() bool { return w.ackedCount() >= before+20 })
	}
	w.halt()

	t.Logf("%d writes acknowledged; answers by status %v, by code %v", len(w.acked), w.statuses, w.seen)
	if len(w.bad) > 0 {
		t.Errorf("%d answers broke the outage contract (want 201, 503 with Retry-After, or no answer), e.g. %s", len(w.bad), w.bad[0])
	}
	for _, id := range w.acked {
		if r, err := c.do("GET", "/v1/attributes/"+id, nil); err != nil || r.status != 200 {
			t.Errorf("acknowledged attribute %s: %d %v %s", id, r.status, err, r.raw)
		}
	}
	rc.waitDelivered(t, w.acked, 45*time.Second)
	p.kill(syscall.SIGTERM)
}

func (w *writers) unavailable() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.unavail
}

// /readyz answers from a pool of its own: with every connection of the API pool taken it stays
// 200 (the pool figures on /metrics show the API pool full), and it is 503 only when the database
// is down.
func TestReadyzIgnoresASaturatedAPIPool(t *testing.T) {
	t.Parallel()
	env, err := apptest.StartOn(newDatabase(t), nil, func(cfg *app.Config) { cfg.DisableDispatcher, cfg.DisableScheduler = true, true })
	if err != nil {
		t.Fatal(err)
	}
	defer env.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pool := env.Server.DB.Pool
	full := int(pool.Stat().MaxConns())
	for range full {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Release()
	}
	if got := readyz(env.BaseURL); got != 200 {
		t.Errorf("/readyz with the API pool full: %d, want 200", got)
	}
	res, err := http.Get(env.BaseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	for pool, want := range map[string]int{"api": full, "ops": 0} {
		m := regexp.MustCompile(`(?m)^catalogd_db_pool_in_use_connections\{pool="` + pool + `"\} (\d+)$`).FindSubmatch(body)
		if m == nil {
			t.Errorf("/metrics has no in-use figure of pool %s", pool)
		} else if n, _ := strconv.Atoi(string(m[1])); n != want {
			t.Errorf("pool %s: %d connections in use, want %d", pool, n, want)
		}
	}
	for _, name := range []string{"idle_connections", "connections", "max_connections", "acquires_total", "acquire_waits_total",
		"acquire_wait_seconds_total", "canceled_acquires_total"} {
		if !regexp.MustCompile(`(?m)^catalogd_db_pool_` + name + `\{pool="ops"\} `).Match(body) {
			t.Errorf("/metrics lacks catalogd_db_pool_%s of pool ops", name)
		}
	}
}
