// Command webhooks measures webhook delivery on a real catalogd (in process, on a fresh database of
// the local PostgreSQL) to a loopback receiver (a process of its own), in one run:
//
//   - throughput: -n deliveries of attributes written by bulk creates of 100 as fast as the API
//     takes them, from the first write to the last receipt (deliveries/s), and how fast the backlog
//     drained once the writes ended, with the CPU catalogd, PostgreSQL and the receiver spent per
//     delivery meanwhile;
//   - latency at a steady -latency-rate deliveries/s (bulk creates of -latency-batch, paced):
//     from each write's 201 (the change, its event and its delivery committed just before) to the
//     receipt of its delivery, p50/p99/max;
//   - saturated: -sat-writers writers creating attributes one at a time as fast as the API takes
//     them: the deliveries received meanwhile per second;
//   - every attempt recorded: the requests the receiver answered against the attempt rows.
//
// -out writes the figures as key=value lines for the summary of make bench (webhook_*).
//
// -scenario topology (topology.go) runs the latency run with catalogd on PostgreSQL directly, then
// behind a private PgBouncer in transaction mode with and without CATALOG_DATABASE_DIRECT_URL.
//
// -scenario hang (hang.go) measures fairness instead: a subscription whose receiver hangs beside
// healthy ones, in the same and in another tenant, under a steady and then a saturating write load.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/bench/measure"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/webhooks"
)

var (
	nThroughput  = flag.Int("n", 20000, "deliveries of the throughput run (bulk creates of 100)")
	bulkWriters  = flag.Int("bulk-writers", 4, "concurrent bulk creates of the throughput run")
	latencyRate  = flag.Int("latency-rate", 1000, "deliveries per second of the latency run")
	latencyBatch = flag.Int("latency-batch", 10, "items per bulk create of the latency run")
	latencyLen   = flag.Duration("latency-duration", 10*time.Second, "length of the latency run")
	satWriters   = flag.Int("sat-writers", 8, "concurrent single creates of the saturated run")
	satLen       = flag.Duration("sat-duration", 10*time.Second, "length of the saturated run")
	subsN        = flag.Int("subs", 1, "subscriptions (one tenant) to the receiver; each write makes one delivery per subscription")
	workers      = flag.Int("workers", 64, "dispatcher attempt slots (CATALOG_WEBHOOK_WORKERS)")
	out          = flag.String("out", "", "also write the figures as key=value lines to this file (for the summary of make bench)")
	cpuProfile   = flag.String("cpuprofile", "", "write a CPU profile of the throughput run to this file (catalogd runs in this process)")
	scenario     = flag.String("scenario", "throughput", "throughput (the figures above), hang (fairness beside a hanging receiver) or topology (the latency run directly and behind PgBouncer)")
	receiverMode = flag.Bool("receiver", false, "internal: run as the loopback receiver of the throughput scenario")
)

func main() {
	flag.Parse()
	run := run
	switch {
	case *receiverMode:
		run = serveReceiver
	case *scenario == "hang":
		run = runHang
	case *scenario == "topology":
		run = runTopology
	case *scenario != "throughput":
		fmt.Fprintln(os.Stderr, "bench/webhooks: -scenario is throughput, hang or topology")
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/webhooks:", err)
		os.Exit(1)
	}
}

// bench is the throughput scenario's state.
type bench struct {
	api    *measure.API
	recv   *remoteReceiver
	pool   *pgxpool.Pool
	pgPID  int // the postmaster of catalogd's database
	seq    atomic.Int64
	figs   measure.Figures
	issued int // attributes written so far: the receiver's distinct count once all is delivered
}

// cpuSample is the CPU spent so far by this process (catalogd and the load), PostgreSQL (the
// postmaster of catalogd's database and its children) and the receiver.
type cpuSample struct{ self, pg, recv, machine time.Duration }

func (b *bench) cpu() cpuSample {
	c := measure.SampleCPU(measure.Procs{Postmaster: b.pgPID})
	return cpuSample{self: c.Self, pg: c.Postgres, recv: b.recv.cpu(), machine: machineBusy()}
}

func (c cpuSample) sub(o cpuSample) cpuSample {
	return cpuSample{c.self - o.self, c.pg - o.pg, c.recv - o.recv, c.machine - o.machine}
}

// others is the CPU the rest of the machine spent.
func (c cpuSample) others() time.Duration { return max(c.machine-c.self-c.pg-c.recv, 0) }

// perItem is d in µs per item.
func perItem(d time.Duration, n int) float64 { return float64(d.Microseconds()) / float64(max(n, 1)) }

func run() error {
	recv, err := startReceiver()
	if err != nil {
		return err
	}
	defer recv.stop()
	b, stop, err := setup(recv, 0)
	if err != nil {
		return err
	}
	defer stop()
	fmt.Printf("webhooks: %d dispatcher slots, %d subscription(s) of one tenant, receiver on loopback (own process)\n", *workers, *subsN)
	b.figs.Put("webhook_workers", *workers)
	b.figs.Put("webhook_subscriptions", *subsN)

	for _, step := range []func() error{b.throughput, b.latency, b.saturated, b.recorded} {
		if err = step(); err != nil {
			break
		}
	}
	// The figures measured so far are written even when a step failed (the summary shows the rest
	// as not measured; "every attempt recorded" as missed).
	return measure.FirstErr(err, b.figs.Write(*out))
}

// setup starts catalogd (in process, on a fresh database, with opts) subscribed to recv, whose
// receipts already count issued attributes; stop stops it.
func setup(recv *remoteReceiver, issued int, opts ...func(*app.Config)) (_ *bench, stop func(), err error) {
	env, err := apptest.Start(append([]func(*app.Config){func(c *app.Config) {
		c.WebhookAllowPrivate = true
		c.WebhookWorkers = *workers
		c.WebhookPolicy = webhooks.Policy{Schedule: []time.Duration{time.Second}, SuspendAfterFailures: 1000, SuspendAfter: time.Hour}
	}}, opts...)...)
	if err != nil {
		return nil, nil, err
	}
	pool, err := pgxpool.New(context.Background(), env.DBURL)
	if err != nil {
		env.Stop()
		return nil, nil, err
	}
	stop = func() { pool.Close(); env.Stop() }
	defer func() {
		if err != nil {
			stop()
		}
	}()
	pgPID, err := measure.PostmasterPID(pool)
	if err != nil {
		return nil, nil, err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b := &bench{api: &measure.API{Base: env.BaseURL, Token: apptest.Token("bench-webhooks"), HTTP: client}, recv: recv, pool: pool,
		pgPID: pgPID, issued: issued}
	for i := 0; i < *subsN; i++ {
		var sub struct{ Uuid string }
		if err := b.api.Call("POST", "/v1/webhook-subscriptions", map[string]any{"displayName": fmt.Sprintf("bench %d", i), "targetUrl": recv.URL()}, &sub); err != nil {
			return nil, nil, err
		}
		if err := b.api.Call("POST", "/v1/webhook-subscriptions/"+sub.Uuid+"/event-types",
			map[string]any{"webhookEventTypeUuid": events.TypeUUID("attribute.created").String()}, nil); err != nil {
			return nil, nil, err
		}
	}
	// The API reference page renders in the background at start-up (a few hundred ms of CPU):
	// asking for it waits for that, so that it is not in the figures.
	if err := b.get("/docs"); err != nil {
		return nil, nil, err
	}
	return b, stop, nil
}

// get fetches path of the API and discards the answer.
func (b *bench) get(path string) error {
	res, err := b.api.HTTP.Get(b.api.Base + path)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return err
}

// bulk creates n attributes in one request and returns their uuids.
func (b *bench) bulk(n int) ([]string, error) {
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = map[string]any{"code": fmt.Sprintf("wh-%08d", b.seq.Add(1))}
	}
	var res []struct{ Uuid string }
	if err := b.api.Call("POST", "/v1/attributes/bulk", items, &res); err != nil {
		return nil, err
	}
	ids := make([]string, len(res))
	for i, r := range res {
		ids[i] = r.Uuid
	}
	return ids, nil
}

// deliveries is how many deliveries n writes make (one per subscription each); the receiver
// counts attributes, so its distinct count is the writes'.
func deliveries(n int) int { return n * *subsN }

// throughput: bulk creates of 100 as fast as the API takes them (-bulk-writers at once), then the
// backlog drains; deliveries per second from the first write to the last receipt.
func (b *bench) throughput() error {
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	writes := (*nThroughput + 99) / 100
	var next atomic.Int64
	var firstErr error
	var mu sync.Mutex
	cpu0 := b.cpu()
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < *bulkWriters; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(writes) {
				if _, err := b.bulk(100); err != nil {
					mu.Lock()
					firstErr = measure.FirstErr(firstErr, err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	wrote := time.Now()
	cpuW := b.cpu()
	b.issued += writes * 100
	if err := b.recv.waitDistinct(b.issued, 5*time.Minute); err != nil {
		return err
	}
	cpu1 := b.cpu()
	rec, err := b.recv.receipts()
	if err != nil {
		return err
	}
	var last time.Time
	afterWrites := 0
	for _, at := range rec {
		if at.After(last) {
			last = at
		}
		if !at.Before(wrote) {
			afterWrites++
		}
	}
	n := deliveries(writes * 100)
	el := last.Sub(start)
	rate := float64(n) / el.Seconds()
	drain := last.Sub(wrote)
	drainRate := float64(deliveries(afterWrites)) / drain.Seconds()
	all, dr := cpu1.sub(cpu0), cpu1.sub(cpuW)
	fmt.Printf("throughput: %d deliveries in %.2f s = %.0f deliveries/s (writes took %.2f s; %d delivered after them at %.0f/s)\n",
		n, el.Seconds(), rate, wrote.Sub(start).Seconds(), deliveries(afterWrites), drainRate)
	fmt.Printf("  CPU per delivery, whole run (writes included): catalogd+load %.0f µs, PostgreSQL %.0f µs, receiver %.0f µs\n",
		perItem(all.self, n), perItem(all.pg, n), perItem(all.recv, n))
	fmt.Printf("  CPU per delivery once the writes ended (the dispatcher alone): catalogd %.0f µs, PostgreSQL %.0f µs, receiver %.0f µs\n",
		perItem(dr.self, deliveries(afterWrites)), perItem(dr.pg, deliveries(afterWrites)), perItem(dr.recv, deliveries(afterWrites)))
	fmt.Printf("  other processes of the machine meanwhile: %.1f of its %d cores (the run's own: %.1f)\n",
		all.others().Seconds()/el.Seconds(), runtime.NumCPU(), (all.self+all.pg+all.recv).Seconds()/el.Seconds())
	b.figs.Put("webhook_deliveries_per_s", rate)
	b.figs.Put("webhook_throughput_deliveries", n)
	b.figs.Put("webhook_throughput_write_s", wrote.Sub(start).Seconds())
	b.figs.Put("webhook_drain_deliveries_per_s", drainRate)
	// The dispatcher alone: measured once the writes ended, so the API's bulk creates are not in it.
	b.figs.Put("webhook_cpu_us_per_delivery", perItem(dr.self, deliveries(afterWrites)))
	b.figs.Put("webhook_pg_cpu_us_per_delivery", perItem(dr.pg, deliveries(afterWrites)))
	b.figs.Put("webhook_receiver_cpu_us_per_delivery", perItem(dr.recv, deliveries(afterWrites)))
	b.figs.Put("webhook_others_cores", all.others().Seconds()/el.Seconds())
	return nil
}

// latency: bulk creates of -latency-batch paced to make -latency-rate deliveries per second; from
// each write's 201 to the receipt of its delivery.
func (b *bench) latency() error {
	l, err := b.latencyRun()
	if err != nil {
		return err
	}
	fmt.Printf("latency at %.0f deliveries/s (bulk creates of %d every %s): commit-to-receipt p50 %.2f ms, p99 %.2f ms, max %.2f ms (n=%d)\n",
		l.rate, *latencyBatch, l.interval, l.p50, l.p99, l.max, l.n)
	b.figs.Put("webhook_latency_rate", l.rate)
	b.figs.Put("webhook_p50_ms_at_1000", l.p50)
	b.figs.Put("webhook_p99_ms_at_1000", l.p99)
	b.figs.Put("webhook_max_ms_at_1000", l.max)
	return nil
}

// latencyFigures are a latency run's: the rate it made, the pace of its writes, commit-to-receipt
// quantiles in ms, and the deliveries measured.
type latencyFigures struct {
	rate, p50, p99, max float64
	interval            time.Duration
	n                   int
}

// latencyRun makes the latency run: bulk creates of -latency-batch paced at -latency-rate
// deliveries/s for -latency-duration, each delivery timed from its write's answer to its receipt.
func (b *bench) latencyRun() (latencyFigures, error) {
	perWrite := *latencyBatch * *subsN
	interval := time.Second * time.Duration(perWrite) / time.Duration(*latencyRate)
	type write struct {
		ids []string
		at  time.Time
	}
	var (
		mu       sync.Mutex
		done     []write
		errs     int
		firstErr error
	)
	sem := make(chan struct{}, 32) // a write slower than the interval does not hold the pace back
	var wg sync.WaitGroup
	tick := time.NewTicker(interval)
	start := time.Now()
	for time.Since(start) < *latencyLen {
		<-tick.C
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			ids, err := b.bulk(*latencyBatch)
			at := time.Now()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs++
				firstErr = measure.FirstErr(firstErr, err)
				return
			}
			done = append(done, write{ids, at})
		}()
	}
	tick.Stop()
	wg.Wait()
	el := time.Since(start)
	if firstErr != nil {
		return latencyFigures{}, fmt.Errorf("latency run: %d writes failed: %w", errs, firstErr)
	}
	n := 0
	for _, w := range done {
		n += len(w.ids)
	}
	b.issued += n
	if err := b.recv.waitDistinct(b.issued, 2*time.Minute); err != nil {
		return latencyFigures{}, err
	}
	rec, err := b.recv.receipts()
	if err != nil {
		return latencyFigures{}, err
	}
	var lat []time.Duration
	for _, w := range done {
		for _, id := range w.ids {
			lat = append(lat, rec[id].Sub(w.at))
		}
	}
	slices.Sort(lat)
	q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))].Microseconds()) / 1000 }
	return latencyFigures{rate: float64(deliveries(n)) / el.Seconds(), p50: q(.5), p99: q(.99), max: q(1), interval: interval, n: len(lat)}, nil
}

// saturated: -sat-writers writers creating attributes one at a time as fast as the API takes
// them; the deliveries received meanwhile.
func (b *bench) saturated() error {
	var (
		wg     sync.WaitGroup
		writes atomic.Int64
		errs   atomic.Int64
	)
	before, err := b.recv.stats()
	if err != nil {
		return err
	}
	cpu0 := b.cpu()
	start := time.Now()
	end := start.Add(*satLen)
	for w := 0; w < *satWriters; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				if err := b.api.Call("POST", "/v1/attributes", map[string]any{"code": fmt.Sprintf("wh-%08d", b.seq.Add(1))}, nil); err != nil {
					errs.Add(1)
					continue
				}
				writes.Add(1)
			}
		}()
	}
	wg.Wait()
	stop := time.Now()
	used := b.cpu().sub(cpu0)
	after, err := b.recv.stats()
	if err != nil {
		return err
	}
	b.issued += int(writes.Load())
	if err := b.recv.waitDistinct(b.issued, 2*time.Minute); err != nil {
		return err
	}
	drained := time.Since(stop)
	el := stop.Sub(start).Seconds()
	got := deliveries(after.Distinct - before.Distinct)
	fmt.Printf("saturated: %d writers, %d single creates in %.1f s (%.0f/s, %d errors); deliveries received meanwhile %d (%.0f/s); backlog drained %.2f s after\n",
		*satWriters, writes.Load(), el, float64(writes.Load())/el, errs.Load(), got, float64(got)/el, drained.Seconds())
	fmt.Printf("  CPU meanwhile: catalogd and the writers %.2f cores, PostgreSQL %.2f, receiver %.2f, other processes %.2f (of %d)\n",
		used.self.Seconds()/el, used.pg.Seconds()/el, used.recv.Seconds()/el, used.others().Seconds()/el, runtime.NumCPU())
	b.figs.Put("webhook_saturated_writes_per_s", float64(writes.Load())/el)
	b.figs.Put("webhook_saturated_deliveries_per_s", float64(got)/el)
	b.figs.Put("webhook_saturated_drain_s", drained.Seconds())
	return nil
}

// recorded: every request the receiver answered is an attempt row, every delivery is delivered.
func (b *bench) recorded() error {
	ctx := context.Background()
	s, err := b.recv.stats()
	if err != nil {
		return err
	}
	var attempts, delivered, total int
	// The records of the last receipts may still be on their way.
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err := b.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM webhook_delivery_attempts),
			count(*) FILTER (WHERE status = 'delivered'), count(*) FROM webhook_deliveries`).Scan(&attempts, &delivered, &total); err != nil {
			return err
		}
		if (attempts >= s.Requests && delivered == total) || time.Now().After(end) {
			break
		}
	}
	fmt.Printf("recorded: the receiver answered %d requests (%d distinct attributes) on %d connections; %d attempt rows; %d of %d deliveries delivered\n",
		s.Requests, s.Distinct, s.Conns, attempts, delivered, total)
	b.figs.Put("webhook_received", s.Requests)
	b.figs.Put("webhook_attempts_recorded", attempts)
	b.figs.Put("webhook_deliveries_delivered", delivered)
	b.figs.Put("webhook_deliveries_total", total)
	b.figs.Put("webhook_receiver_connections", s.Conns)
	if attempts != s.Requests || delivered != total {
		return fmt.Errorf("not every attempt recorded: %d requests answered, %d attempt rows, %d of %d delivered", s.Requests, attempts, delivered, total)
	}
	return nil
}
