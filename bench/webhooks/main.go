// Command webhooks measures webhook delivery on a real catalogd (in process, on a fresh database of
// the local PostgreSQL): deliveries per second to a local receiver, and the latency from the write
// that commits an event to the receipt of its delivery (p50/p99).
//
// -scenario hang (hang.go) measures fairness instead: a subscription whose receiver hangs beside
// healthy ones, in the same and in another tenant, under a steady and then a saturating write load.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/webhooks"
)

var (
	latencyN = flag.Int("latency-n", 300, "single writes, one at a time, for the latency figure")
	bulks    = flag.Int("bulks", 30, "bulk creates of 100 for the throughput figure")
	workers  = flag.Int("workers", 64, "dispatcher attempt slots (CATALOG_WEBHOOK_WORKERS)")
	scenario = flag.String("scenario", "throughput", "throughput (latency and deliveries/s to one receiver) or hang (fairness beside a hanging receiver)")
)

func main() {
	flag.Parse()
	run := run
	if *scenario == "hang" {
		run = runHang
	} else if *scenario != "throughput" {
		fmt.Fprintln(os.Stderr, "bench/webhooks: -scenario is throughput or hang")
		os.Exit(2)
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/webhooks:", err)
		os.Exit(1)
	}
}

func run() error {
	var mu sync.Mutex
	got := map[string]time.Time{}
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p map[string]string
		_ = json.Unmarshal(body, &p)
		mu.Lock()
		if _, dup := got[p["attributeUuid"]]; !dup {
			got[p["attributeUuid"]] = time.Now()
		}
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()

	env, err := apptest.Start(func(c *app.Config) {
		c.WebhookAllowPrivate = true
		c.WebhookWorkers = *workers
		c.WebhookPolicy = webhooks.Policy{Schedule: []time.Duration{time.Second}, SuspendAfterFailures: 1000, SuspendAfter: time.Hour}
	})
	if err != nil {
		return err
	}
	defer env.Stop()
	token := apptest.Token("bench-webhooks")
	call := (&measure.API{Base: env.BaseURL, Token: token}).Call
	var sub struct{ Uuid string }
	if err := call("POST", "/v1/webhook-subscriptions", map[string]any{"displayName": "bench", "targetUrl": recv.URL + "/hook"}, &sub); err != nil {
		return err
	}
	if err := call("POST", "/v1/webhook-subscriptions/"+sub.Uuid+"/event-types",
		map[string]any{"webhookEventTypeUuid": events.TypeUUID("attribute.created").String()}, nil); err != nil {
		return err
	}

	// Latency: one write at a time; from the moment the write's 201 arrives (the change and its
	// delivery are committed just before) to the moment the receiver has the delivery.
	var lat []time.Duration
	for i := 0; i < *latencyN; i++ {
		var a struct{ Uuid string }
		if err := call("POST", "/v1/attributes", map[string]any{"code": fmt.Sprintf("lat-%05d", i)}, &a); err != nil {
			return err
		}
		committed := time.Now()
		at, err := waitFor(&mu, got, a.Uuid, 10*time.Second)
		if err != nil {
			return err
		}
		lat = append(lat, at.Sub(committed))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }

	// Throughput: bulks of 100 as fast as the API takes them; deliveries per second from the first
	// write to the last receipt.
	start := time.Now()
	var ids []string
	for i := 0; i < *bulks; i++ {
		batch := make([]map[string]any, 100)
		for j := range batch {
			batch[j] = map[string]any{"code": fmt.Sprintf("tp-%03d-%03d", i, j)}
		}
		var out []struct{ Uuid string }
		if err := call("POST", "/v1/attributes/bulk", batch, &out); err != nil {
			return err
		}
		for _, o := range out {
			ids = append(ids, o.Uuid)
		}
	}
	var last time.Time
	for _, id := range ids {
		at, err := waitFor(&mu, got, id, 60*time.Second)
		if err != nil {
			return err
		}
		if at.After(last) {
			last = at
		}
	}
	rate := float64(len(ids)) / last.Sub(start).Seconds()
	fmt.Printf("webhook commit-to-receipt latency (n=%d, one write at a time): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		len(lat), p(0.50), p(0.99), p(1))
	fmt.Printf("webhook throughput: %d deliveries in %.2f s = %.0f deliveries/s (%d workers, receiver on loopback)\n",
		len(ids), last.Sub(start).Seconds(), rate, *workers)
	return nil
}

func waitFor(mu *sync.Mutex, got map[string]time.Time, id string, d time.Duration) (time.Time, error) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		mu.Lock()
		at, ok := got[id]
		mu.Unlock()
		if ok {
			return at, nil
		}
		time.Sleep(200 * time.Microsecond)
	}
	return time.Time{}, fmt.Errorf("delivery for %s not received within %s", id, d)
}
