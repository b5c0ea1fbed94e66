// Command idempotency measures what an Idempotency-Key costs a create (issue 16 item 4, goal
// <= 10 %): `POST /v1/attributes` of one new attribute, with clients concurrent clients, without a
// key and with a new key per request (the key's lock, look-up, savepoint and stored answer, all in
// the request's one transaction). The two are interleaved in rounds (plain, keyed, plain, keyed, …)
// of the same length, so that a table that grows or a machine that warms up favours neither; each
// figure is over all rounds of its kind. It prints the throughputs, p50 and p99, and the overhead.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
)

var (
	base     = flag.String("base", "http://127.0.0.1:8080", "catalogd's HTTP base URL")
	clients  = flag.Int("clients", 4, "concurrent clients")
	duration = flag.Duration("duration", 10*time.Second, "time per kind (split over the rounds)")
	rounds   = flag.Int("rounds", 5, "rounds per kind")
	tenant   = flag.String("tenant", "idembench", "the tenant")
	tokens   = measure.TokenFlags("catalogd-bench")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "idempotency:", err)
		os.Exit(1)
	}
}

func run() error {
	if err := tokens.Check(); err != nil {
		return err
	}
	token, err := tokens.Mint(*tenant, "bench", []string{"catalog:read", "catalog:write"}, time.Hour)
	if err != nil {
		return err
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *clients * 2}, Timeout: 30 * time.Second}
	prefix := randomHex(4)
	var seq atomic.Int64
	op := func(keyed bool) func(*mrand.Rand) error {
		return func(*mrand.Rand) error {
			n := seq.Add(1)
			body := fmt.Sprintf(`{"code":"idem-%s-%d"}`, prefix, n)
			req, err := http.NewRequest(http.MethodPost, *base+"/v1/attributes", bytes.NewBufferString(body))
			if err != nil {
				return err
			}
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			if keyed {
				req.Header.Set("Idempotency-Key", prefix+"-"+randomHex(12))
			}
			res, err := hc.Do(req)
			if err != nil {
				return err
			}
			raw, _ := io.ReadAll(res.Body)
			_ = res.Body.Close()
			if res.StatusCode != http.StatusCreated || (keyed && res.Header.Get("Idempotency-Replayed") != "") {
				return fmt.Errorf("%d %s", res.StatusCode, raw)
			}
			return nil
		}
	}
	// Warm-up: connections, caches, the first pages of the indexes.
	measure.Loop(*clients, time.Second, op(false))
	measure.Loop(*clients, time.Second, op(true))
	per := *duration / time.Duration(*rounds)
	type agg struct {
		lat     []time.Duration
		errs    int
		first   error
		elapsed time.Duration
	}
	var res [2]agg
	for r := 0; r < *rounds; r++ {
		for kind := 0; kind < 2; kind++ {
			lat, errs, first, elapsed := measure.Loop(*clients, per, op(kind == 1))
			a := &res[kind]
			a.lat, a.errs, a.first, a.elapsed = append(a.lat, lat...), a.errs+errs, measure.FirstErr(a.first, first), a.elapsed+elapsed
		}
	}
	rps := func(a agg) float64 { return float64(len(a.lat)) / a.elapsed.Seconds() }
	fmt.Printf("Idempotency-Key overhead on create (POST /v1/attributes, %d clients, %s per kind in %d rounds):\n", *clients, *duration, *rounds)
	for kind, name := range []string{"without key", "with a new key"} {
		a := res[kind]
		p50, p99, _ := measure.Pct(a.lat)
		fmt.Printf("  %-15s %8.0f creates/s  p50 %6.2f ms  p99 %6.2f ms  (%d creates, %d errors)\n", name, rps(a), p50, p99, len(a.lat), a.errs)
		if a.first != nil {
			fmt.Printf("    first error: %v\n", a.first)
		}
	}
	over := (rps(res[0]) - rps(res[1])) / rps(res[0]) * 100
	verdict := "met"
	if over > 10 {
		verdict = "MISSED"
	}
	fmt.Printf("  overhead: %.1f %% of the throughput (goal <= 10 %%): %s\n", over, verdict)
	if res[0].errs+res[1].errs > 0 {
		return fmt.Errorf("%d failed requests", res[0].errs+res[1].errs)
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
