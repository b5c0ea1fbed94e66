package main

import (
	"context"
	"fmt"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

// warmUp brings a fresh database to its steady state before a timed run: a burst of deliveries,
// then ANALYZE, which autovacuum would run within its first minute. Without it, the statements the
// dispatcher runs most keep the generic plans PostgreSQL built while its tables were empty, where the
// primary key and webhook_deliveries_subscription (whose leading column is also tenant_id) cost the
// same: a lookup by (tenant_id, uuid) then reads every delivery of the tenant through the wrong one,
// and a run at 1 000 deliveries/s falls behind (p50 1.8–8 s) until the first autoanalyze
// invalidates those plans. The throughput run of -scenario throughput plays this part for its
// latency run.
func (b *bench) warmUp() error {
	for range 20 {
		ids, err := b.bulk(100)
		if err != nil {
			return err
		}
		b.issued += len(ids)
	}
	if err := b.recv.waitDistinct(b.issued, 2*time.Minute); err != nil {
		return err
	}
	_, err := b.pool.Exec(context.Background(), "ANALYZE")
	return err
}

// runTopology is -scenario topology (make bench step topology): the latency run (latencyRun) with
// catalogd on PostgreSQL directly, then behind a private PgBouncer in transaction mode
// (apptest.BehindPooler) with CATALOG_DATABASE_DIRECT_URL (the dispatcher LISTENs on it), then
// behind it without (the dispatcher polls every second), each on a fresh database with the same
// receiver. The goal of issue 28: the p99 through the pooler (with the direct URL) within 1.5x of
// the direct one.
func runTopology() error {
	recv, err := startReceiver()
	if err != nil {
		return err
	}
	defer recv.stop()
	var figs measure.Figures
	issued := 0
	p99 := map[string]float64{}
	for _, c := range []struct {
		name, key string
		pooled    bool
		direct    bool
	}{
		{"PostgreSQL directly", "direct", false, false},
		{"PgBouncer (transaction mode) + CATALOG_DATABASE_DIRECT_URL", "pooler", true, true},
		{"PgBouncer (transaction mode), no direct URL: polling", "pooler_polling", true, false},
	} {
		var opts []func(*app.Config)
		if c.pooled {
			opt, err := apptest.BehindPooler("transaction", c.direct)
			if err != nil {
				return err
			}
			opts = append(opts, opt)
		}
		b, stop, err := setup(recv, issued, opts...)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if err := b.warmUp(); err != nil {
			stop()
			return fmt.Errorf("%s: warm-up: %w", c.name, err)
		}
		l, err := b.latencyRun()
		issued = b.issued
		listening := b.api.Metric("catalogd_webhook_listening") == "1"
		stop()
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		fmt.Printf("topology: delivery commit-to-receipt at %.0f/s, %s: p50 %.2f ms, p99 %.2f ms, max %.2f ms (n=%d, listening %v, load average %s)\n",
			l.rate, c.name, l.p50, l.p99, l.max, l.n, listening, measure.LoadAverage())
		figs.Put("topology_webhook_p50_ms_"+c.key, l.p50)
		figs.Put("topology_webhook_p99_ms_"+c.key, l.p99)
		p99[c.key] = l.p99
	}
	ratio := p99["pooler"] / p99["direct"]
	verdict := "met"
	if ratio > 1.5 {
		verdict = "MISSED"
	}
	fmt.Printf("topology: delivery p99 through the pooler / direct = %.2f (goal <= 1.5: %s)\n", ratio, verdict)
	figs.Put("topology_webhook_p99_ratio", ratio)
	return figs.Write(*out)
}
