// Command retention shows that retention (CATALOG_RETENTION, server/retention) keeps the database
// flat under a steady write load: a real catalogd (in process, on a fresh database of the local
// PostgreSQL, as bench/webhooks) with a short retention window and one subscription to a fast local
// receiver takes a steady stream of attribute updates (each one event, one delivery, one attempt)
// for several windows, while the sizes of events, webhook_deliveries, webhook_delivery_attempts
// (pg_total_relation_size: heap, indexes and TOAST) and of the whole database are sampled. Without
// retention they grow with every write; with it they stop growing once past the window (plus
// autovacuum's lag: deleted rows' space is reused after the table is vacuumed).
//
// It prints the series, the growth over the first windows against the growth over the last ones
// and a verdict, the bytes per write before pruning starts (and so per million writes without
// retention), and, with -explain-rows, the plans of the pruner's statements on tables of that many
// expired rows (EXPLAIN ANALYZE inside a rolled-back transaction).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/bench/measure"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/retention"
	"github.com/catalogd/catalogd/server/webhooks"
)

var (
	window      = flag.Duration("window", 30*time.Second, "CATALOG_RETENTION of the run (the pruner runs every tenth of it, at least every second)")
	windows     = flag.Int("windows", 8, "length of the run in windows")
	rate        = flag.Int("rate", 100, "writes per second (attribute updates, each one event, one delivery, one attempt)")
	writers     = flag.Int("writers", 4, "concurrent writers sharing the rate")
	sample      = flag.Duration("sample", 5*time.Second, "time between two size samples")
	explainRows = flag.Int("explain-rows", 0, "after the run, EXPLAIN ANALYZE the first batch of each prune statement on this many expired events and deliveries (0: skip)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/retention:", err)
		os.Exit(1)
	}
}

type point struct {
	at                                     time.Duration
	writes, received                       int64
	events, deliveries, attempts, database int64
	rEvents, rDeliveries, rAttempts        int64
	pending                                int64
}

func (p point) tables() int64 { return p.events + p.deliveries + p.attempts }

func run() error {
	var received atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		received.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	env, err := apptest.Start(func(c *app.Config) {
		c.Retention = *window
		c.WebhookAllowPrivate = true
		c.WebhookPolicy = webhooks.Policy{Schedule: []time.Duration{time.Second}, SuspendAfterFailures: 1000, SuspendAfter: time.Hour}
	})
	if err != nil {
		return err
	}
	defer env.Stop()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, env.DBURL)
	if err != nil {
		return err
	}
	defer pool.Close()

	token := apptest.Token("bench-retention")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *writers * 2}}
	call := (&measure.API{Base: env.BaseURL, Token: token, HTTP: client}).Call
	var sub struct{ Uuid string }
	if err := call("POST", "/v1/webhook-subscriptions", map[string]any{"displayName": "bench", "targetUrl": recv.URL + "/hook"}, &sub); err != nil {
		return err
	}
	if err := call("POST", "/v1/webhook-subscriptions/"+sub.Uuid+"/event-types",
		map[string]any{"webhookEventTypeUuid": events.TypeUUID("attribute.updated").String()}, nil); err != nil {
		return err
	}
	// The catalog itself stays the same size: the load updates these attributes over and over.
	batch := make([]map[string]any, 100)
	for i := range batch {
		batch[i] = map[string]any{"code": fmt.Sprintf("attr-%03d", i), "displayName": "x"}
	}
	var attrs []struct{ Uuid string }
	if err := call("POST", "/v1/attributes/bulk", batch, &attrs); err != nil {
		return err
	}

	total := time.Duration(*windows) * *window
	fmt.Printf("retention %s, %d windows (%s), %d writes/s by %d writers, one subscription to a local receiver, samples every %s\n",
		*window, *windows, total, *rate, *writers, *sample)
	var writes, failures atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	interval := time.Duration(float64(time.Second) * float64(*writers) / float64(*rate))
	for w := 0; w < *writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			t := time.NewTicker(interval)
			defer t.Stop()
			for n := w; ; n += *writers {
				select {
				case <-stop:
					return
				case <-t.C:
				}
				a := attrs[n%len(attrs)]
				if err := call("PATCH", "/v1/attributes/"+a.Uuid, map[string]any{"displayName": fmt.Sprintf("v%d", n)}, nil); err != nil {
					failures.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				writes.Add(1)
			}
		}(w)
	}

	var series []point
	take := func() (point, error) {
		p := point{at: time.Since(start).Round(time.Second), writes: writes.Load(), received: received.Load()}
		err := pool.QueryRow(ctx, `SELECT pg_total_relation_size('events'), pg_total_relation_size('webhook_deliveries'),
			pg_total_relation_size('webhook_delivery_attempts'), pg_database_size(current_database()),
			(SELECT count(*) FROM events), (SELECT count(*) FROM webhook_deliveries), (SELECT count(*) FROM webhook_delivery_attempts),
			(SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')`).Scan(
			&p.events, &p.deliveries, &p.attempts, &p.database, &p.rEvents, &p.rDeliveries, &p.rAttempts, &p.pending)
		return p, err
	}
	fmt.Printf("\n%7s %9s %9s | %10s %10s %10s %10s | %10s | %8s %8s %8s %7s\n", "t", "writes", "received",
		"events", "deliveries", "attempts", "3 tables", "database", "ev rows", "del rows", "att rows", "pending")
	tick := time.NewTicker(*sample)
	for {
		p, err := take()
		if err != nil {
			close(stop)
			wg.Wait()
			return err
		}
		series = append(series, p)
		fmt.Printf("%7s %9d %9d | %10s %10s %10s %10s | %10s | %8d %8d %8d %7d\n", p.at, p.writes, p.received,
			mb(p.events), mb(p.deliveries), mb(p.attempts), mb(p.tables()), mb(p.database), p.rEvents, p.rDeliveries, p.rAttempts, p.pending)
		if time.Since(start) >= total {
			break
		}
		<-tick.C
	}
	tick.Stop()
	close(stop)
	wg.Wait()
	if failures.Load() > 0 {
		return fmt.Errorf("%d writes failed, the first: %v", failures.Load(), firstErr.Load())
	}

	// Growth of the three tables over the first two windows (before and as pruning starts) against
	// the growth over the last two.
	at := func(d time.Duration) point {
		best := series[0]
		for _, p := range series {
			if absDur(p.at-d) < absDur(best.at-d) {
				best = p
			}
		}
		return best
	}
	last := series[len(series)-1]
	span := 2 * *window
	first0, first1 := series[0], at(span)
	last0 := at(last.at - span)
	gFirst, gLast := first1.tables()-first0.tables(), last.tables()-last0.tables()
	dbFirst, dbLast := first1.database-first0.database, last.database-last0.database
	fmt.Printf("\n3 tables: +%s over the first %s (%d writes), %+.1f MB over the last %s (%d writes); database: +%s, then %+.1f MB\n",
		mb(gFirst), span, first1.writes-first0.writes, float64(gLast)/1e6, last.at-last0.at, last.writes-last0.writes,
		mb(dbFirst), float64(dbLast)/1e6)
	// Bytes per write before any row is old enough to be pruned: what every write costs forever
	// without retention.
	w1 := at(*window)
	if n := w1.writes - first0.writes; n > 0 {
		per := float64(w1.tables()-first0.tables()) / float64(n)
		fmt.Printf("before pruning (first window): %.0f bytes per write in the 3 tables = %.2f GB per million writes without retention\n",
			per, per*1e6/1e9)
	}
	var steady int64
	tail := series[len(series)/2:]
	for _, p := range tail {
		steady += p.tables()
	}
	steady /= int64(len(tail))
	fmt.Printf("steady state (mean of the second half): %s in the 3 tables for %.0f writes per window (%d writes in all)\n",
		mb(steady), float64(*rate)*window.Seconds(), last.writes)
	verdict := "FLAT"
	if gLast > gFirst/4 {
		verdict = "GROWING"
	}
	fmt.Printf("verdict: %s (growth over the last %s is %.0f %% of the growth over the first %s)\n",
		verdict, span, 100*float64(gLast)/float64(max(gFirst, 1)), span)

	if *explainRows > 0 {
		if err := explain(ctx, pool, *explainRows); err != nil {
			return err
		}
	}
	if verdict != "FLAT" {
		return fmt.Errorf("the tables kept growing")
	}
	return nil
}

// explain fills tenant bench-explain with n expired events and n finished deliveries (one attempt
// each), ANALYZEs, and prints EXPLAIN (ANALYZE, BUFFERS) of the first batch of each prune statement,
// each inside a transaction that is rolled back.
func explain(ctx context.Context, pool *pgxpool.Pool, n int) error {
	fmt.Printf("\n== EXPLAIN of the prune statements on %d expired events and %d finished deliveries (tenant bench-explain)\n", n, n)
	// Hold the service's pruner off (its lock) while the tables fill and the plans are taken.
	lock, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer lock.Release()
	for {
		var got bool
		if err := lock.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended('catalogd:retention', 0))`).Scan(&got); err != nil {
			return err
		}
		if got {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	old := time.Now().Add(-1000 * time.Hour)
	t0 := time.Now()
	var sub string
	if err := pool.QueryRow(ctx, `SELECT uuid::text FROM webhook_subscriptions LIMIT 1`).Scan(&sub); err != nil {
		return err
	}
	for _, q := range []string{
		// v7 uuids of increasing milliseconds from old, like server/events makes them.
		`INSERT INTO events (tenant_id, uuid, type, payload, created_at)
		 SELECT 'bench-explain',
		        (lpad(to_hex((extract(epoch FROM $1::timestamptz) * 1000)::bigint + i), 12, '0') || '7' ||
		         substr(md5(i::text), 1, 3) || '8' || substr(md5(i::text), 4, 15))::uuid,
		        'attribute.updated', '{"attributeUuid":"00000000-0000-0000-0000-000000000000"}', $1::timestamptz + i * interval '1 ms'
		 FROM generate_series(1, $2::int) i`,
		`INSERT INTO webhook_deliveries (tenant_id, uuid, subscription_uuid, event_uuid, event_type, payload, status, attempts,
		        created_at, updated_at)
		 SELECT s.tenant_id, gen_random_uuid(), s.uuid, gen_random_uuid(), 'attribute.updated', '{}', 'delivered', 1,
		        $1::timestamptz + i * interval '1 ms', $1::timestamptz + i * interval '1 ms'
		 FROM generate_series(1, $2::int) i, webhook_subscriptions s WHERE s.uuid = '` + sub + `'::uuid`,
		`INSERT INTO webhook_delivery_attempts (tenant_id, uuid, delivery_uuid, status_code, response_body, response_time_ms, created_at)
		 SELECT d.tenant_id, gen_random_uuid(), d.uuid, 204, '', 1, d.created_at FROM webhook_deliveries d
		 WHERE d.status = 'delivered' AND d.created_at < $1::timestamptz + interval '1 day' AND $2::int > 0`,
		`ANALYZE events, webhook_deliveries, webhook_delivery_attempts`,
	} {
		args := []any{old, n}
		if strings.HasPrefix(q, "ANALYZE") {
			args = nil
		}
		if _, err := pool.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("%.60s: %w", q, err)
		}
	}
	fmt.Printf("(filled in %s)\n", time.Since(t0).Round(time.Millisecond))
	// The generated queries themselves, through a DBTX that runs EXPLAIN of whatever they send.
	cutoff := time.Now().Add(-time.Hour)
	for _, s := range []struct {
		name string
		call func(q *db.Queries) error
	}{
		{"RetentionNextEventTenant", func(q *db.Queries) error {
			_, err := q.RetentionNextEventTenant(ctx, "bench-explaim")
			return err
		}},
		{"PruneEvents, first batch of 1000", func(q *db.Queries) error {
			_, err := q.PruneEvents(ctx, db.PruneEventsParams{TenantID: "bench-explain", Bound: retention.MinV7(cutoff), Cutoff: cutoff, Max: 1000})
			return err
		}},
		{"PruneDeliveries, first batch of 1000", func(q *db.Queries) error {
			_, err := q.PruneDeliveries(ctx, db.PruneDeliveriesParams{AfterAt: time.Unix(0, 0), Cutoff: cutoff,
				LeaseCutoff: cutoff.Add(-retention.DefaultLeaseGrace), Max: 1000})
			return err
		}},
	} {
		tx, err := pool.Begin(ctx)
		if err != nil {
			return err
		}
		ex := &explainer{tx: tx}
		err = s.call(db.New(ex))
		_ = tx.Rollback(ctx)
		if err != errExplained {
			return fmt.Errorf("%s: %v", s.name, err)
		}
		fmt.Printf("\n-- %s\n%s\n", s.name, strings.Join(ex.plan, "\n"))
	}

	// Then let the service's own pruner at them, and time it.
	if _, err := lock.Exec(ctx, `SELECT pg_advisory_unlock(hashtextextended('catalogd:retention', 0))`); err != nil {
		return err
	}
	t0 = time.Now()
	for {
		var left int64
		if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM events WHERE tenant_id = 'bench-explain')
			+ (SELECT count(*) FROM webhook_deliveries WHERE created_at < $1::timestamptz + interval '1 day')`, old).Scan(&left); err != nil {
			return err
		}
		if left == 0 {
			break
		}
		if time.Since(t0) > 30*time.Minute {
			return fmt.Errorf("the service's pruner left %d rows after %s", left, time.Since(t0).Round(time.Second))
		}
		time.Sleep(100 * time.Millisecond)
	}
	d := time.Since(t0)
	fmt.Printf("\nthe service's pruner deleted %d events, %d deliveries and %d attempts in %s (%.0f rows/s, from the next run after the lock was free; batches of %d with rests)\n",
		n, n, n, d.Round(100*time.Millisecond), 3*float64(n)/d.Seconds(), retention.DefaultBatch)
	return nil
}

var errExplained = errors.New("explained")

// explainer is a db.DBTX that answers a query with its plan: it runs EXPLAIN (ANALYZE, BUFFERS) of
// the statement in tx and keeps the lines.
type explainer struct {
	tx   pgx.Tx
	plan []string
}

func (e *explainer) Exec(context.Context, string, ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, errors.New("explainer: Exec")
}

func (e *explainer) Query(context.Context, string, ...any) (pgx.Rows, error) {
	return nil, errors.New("explainer: Query")
}

func (e *explainer) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	rows, err := e.tx.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) "+sql, args...)
	if err == nil {
		e.plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err == nil {
		err = errExplained
	}
	return errRow{err}
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
