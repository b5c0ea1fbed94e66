package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
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
	hangTimeout = flag.Duration("hang-timeout", 5*time.Second, "hang: requestTimeoutMs of the hanging subscription")
	steadyRate  = flag.Int("rate", 100, "hang: writes per second of the steady phase (half in each tenant)")
	phaseLen    = flag.Duration("duration", 30*time.Second, "hang: length of each phase")
	writers     = flag.Int("writers", 64, "hang: concurrent writers of the saturating phase")
)

// receipts records when a receiver first got the delivery of each attribute.
type receipts struct {
	mu sync.Mutex
	at map[string]time.Time
}

func (r *receipts) handler(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	var p map[string]string
	_ = json.Unmarshal(body, &p)
	now := time.Now()
	r.mu.Lock()
	if _, dup := r.at[p["attributeUuid"]]; !dup {
		r.at[p["attributeUuid"]] = now
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (r *receipts) get(id string) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.at[id]
	return t, ok
}

// between counts the receipts in [from, to).
func (r *receipts) between(from, to time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, t := range r.at {
		if !t.Before(from) && t.Before(to) {
			n++
		}
	}
	return n
}

// commit is a write whose 201 came at at, in tenant 0 or 1.
type commit struct {
	id     string
	tenant int
	at     time.Time
}

type hangBench struct {
	base    string
	tokens  [2]string
	client  *http.Client
	recv    [2]*receipts // B1 (tenant 0, beside the hanging subscription), B2 (tenant 1)
	mu      sync.Mutex
	commits []commit
	seq     atomic.Int64
	errs    atomic.Int64
}

func (b *hangBench) call(tenant int, method, path string, body any, out any) error {
	return (&measure.API{Base: b.base, Token: b.tokens[tenant], HTTP: b.client}).Call(method, path, body, out)
}

// write creates one attribute in tenant and records when its 201 came.
func (b *hangBench) write(tenant int) {
	var a struct{ Uuid string }
	if err := b.call(tenant, "POST", "/v1/attributes", map[string]any{"code": fmt.Sprintf("w-%07d", b.seq.Add(1))}, &a); err != nil {
		b.errs.Add(1)
		return
	}
	c := commit{id: a.Uuid, tenant: tenant, at: time.Now()}
	b.mu.Lock()
	b.commits = append(b.commits, c)
	b.mu.Unlock()
}

func (b *hangBench) take() []commit {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.commits
	b.commits = nil
	return out
}

// latencies waits (up to d) for the healthy deliveries of cs and returns commit-to-receipt times
// per tenant, and how many never came.
func (b *hangBench) latencies(cs []commit, d time.Duration) ([2][]time.Duration, int) {
	var out [2][]time.Duration
	end := time.Now().Add(d)
	missing := 0
	for _, c := range cs {
		for {
			if at, ok := b.recv[c.tenant].get(c.id); ok {
				out[c.tenant] = append(out[c.tenant], at.Sub(c.at))
				break
			}
			if time.Now().After(end) {
				missing++
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	return out, missing
}

func pct(xs []time.Duration, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[int(q*float64(len(s)-1))].Microseconds()) / 1000
}

func report(phase string, lat [2][]time.Duration, missing int) {
	for i, name := range []string{"B1 (tenant of the hanging subscription)", "B2 (another tenant)"} {
		fmt.Printf("  %s %s: %d deliveries, commit-to-receipt p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
			phase, name, len(lat[i]), pct(lat[i], .5), pct(lat[i], .99), pct(lat[i], 1))
	}
	if missing > 0 {
		fmt.Printf("  %s: %d healthy deliveries NOT received\n", phase, missing)
	}
}

// runHang: subscription A's receiver never answers within its time-out; B1 (same tenant) and B2
// (another tenant) are healthy. A steady write load, then a saturating one.
func runHang() error {
	var open, most, hits atomic.Int64
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // read it all, so the server notices when the client gives up
		hits.Add(1)
		n := open.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-r.Context().Done() // never answers: the attempt times out
		open.Add(-1)
	}))
	defer hang.Close()
	b := &hangBench{client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *writers + 8}}}
	var recvSrv [2]*httptest.Server
	for i := range b.recv {
		b.recv[i] = &receipts{at: map[string]time.Time{}}
		recvSrv[i] = httptest.NewServer(http.HandlerFunc(b.recv[i].handler))
		defer recvSrv[i].Close()
	}
	schedule := make([]time.Duration, 20)
	for i := range schedule {
		schedule[i] = time.Second
	}
	env, err := apptest.Start(func(c *app.Config) {
		c.WebhookAllowPrivate = true
		c.WebhookWorkers = *workers
		c.WebhookPolicy = webhooks.Policy{Schedule: schedule, SuspendAfterFailures: 1_000_000, SuspendAfter: 1000 * time.Hour}
	})
	if err != nil {
		return err
	}
	defer env.Stop()
	pool, err := pgxpool.New(context.Background(), env.DBURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	b.base = env.BaseURL
	b.tokens = [2]string{apptest.Token("bench-hang-1"), apptest.Token("bench-hang-2")}

	sub := func(tenant int, target string, timeoutMs int) (string, error) {
		var s struct{ Uuid string }
		if err := b.call(tenant, "POST", "/v1/webhook-subscriptions", map[string]any{"displayName": "bench", "targetUrl": target,
			"requestTimeoutMs": timeoutMs}, &s); err != nil {
			return "", err
		}
		return s.Uuid, b.call(tenant, "POST", "/v1/webhook-subscriptions/"+s.Uuid+"/event-types",
			map[string]any{"webhookEventTypeUuid": events.TypeUUID("attribute.created").String()}, nil)
	}
	a, err := sub(0, hang.URL+"/hook", int(hangTimeout.Milliseconds()))
	if err != nil {
		return err
	}
	if _, err := sub(0, recvSrv[0].URL+"/hook", 15000); err != nil {
		return err
	}
	if _, err := sub(1, recvSrv[1].URL+"/hook", 15000); err != nil {
		return err
	}
	fmt.Printf("webhook fairness (-scenario hang): subscription A's receiver never answers (time-out %s, retried every 1 s);\n"+
		"B1 healthy in A's tenant, B2 healthy in another tenant; %d dispatcher slots, receivers on loopback\n", *hangTimeout, *workers)

	// Phase 1: a steady write load.
	start := time.Now()
	tick := time.NewTicker(time.Second / time.Duration(*steadyRate))
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for i := 0; time.Since(start) < *phaseLen; i++ {
		<-tick.C
		sem <- struct{}{}
		wg.Add(1)
		go func() { defer wg.Done(); defer func() { <-sem }(); b.write(i % 2) }()
	}
	tick.Stop()
	wg.Wait()
	steady := b.take()
	lat, missing := b.latencies(steady, 60*time.Second)
	fmt.Printf("steady load: %d writes in %.0f s (%.0f/s), %d write errors\n", len(steady), phaseLen.Seconds(),
		float64(len(steady))/phaseLen.Seconds(), b.errs.Load())
	report("steady", lat, missing)

	// Phase 2: the API saturated with writes.
	b.errs.Store(0)
	start = time.Now()
	end := start.Add(*phaseLen)
	for w := 0; w < *writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; time.Now().Before(end); i++ {
				b.write(i % 2)
			}
		}()
	}
	wg.Wait()
	stop := time.Now()
	sat := b.take()
	got := b.recv[0].between(start, stop) + b.recv[1].between(start, stop)
	fmt.Printf("saturated: %d writers, %d writes in %.1f s (%.0f/s), %d write errors; healthy deliveries received meanwhile: %d (%.0f/s)\n",
		*writers, len(sat), stop.Sub(start).Seconds(), float64(len(sat))/stop.Sub(start).Seconds(), b.errs.Load(),
		got, float64(got)/stop.Sub(start).Seconds())
	lat, missing = b.latencies(sat, 120*time.Second)
	drained := time.Since(stop)
	report("saturated", lat, missing)
	fmt.Printf("  saturated: the healthy backlog drained %.1f s after the writes stopped\n", drained.Seconds())

	var attempts, pending int
	_ = pool.QueryRow(context.Background(), `SELECT count(*) FROM webhook_delivery_attempts t JOIN webhook_deliveries d
		ON d.tenant_id = t.tenant_id AND d.uuid = t.delivery_uuid WHERE d.subscription_uuid = $1`, a).Scan(&attempts)
	_ = pool.QueryRow(context.Background(), `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid = $1 AND status = 'pending'`, a).Scan(&pending)
	fmt.Printf("hanging subscription A: %d requests received, at most %d open at once, %d attempts recorded (all timeouts), %d deliveries pending\n",
		hits.Load(), most.Load(), attempts, pending)
	return nil
}
