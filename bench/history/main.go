// Command history measures what the history (issue 30, API.md "History (who changed what)") costs
// catalogd's writes: bulk create of 100 attributes and a single PATCH of an attribute through REST,
// against `catalogd serve` run two ways in turn, -rounds times, on one database: with its history
// (the default) and without (CATALOG_BENCH_HISTORY_OFF=1, a switch for this program alone: no entry
// is compared or written; the messages the engine keeps for them are still made). Figures are CPU
// per operation (catalogd's and PostgreSQL's, the cluster of the database alone) beside the
// throughput, medians over the rounds; the machine is shared, so CPU is the figure to compare. It
// ends with the size of the history table per entry (pg_total_relation_size: heap, TOAST and
// indexes) and per million writes.
//
//	go run ./cmd/testpg -durable -- go run ./bench/history
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/bench/measure"
)

var (
	items    = flag.Int("items", 2_000, "attributes seeded for the PATCH runs (multiple of 100)")
	clients  = flag.Int("clients", 4, "concurrent clients of the PATCH runs")
	duration = flag.Duration("duration", 10*time.Second, "length of each timed run (plus 1 s warm-up)")
	rounds   = flag.Int("rounds", 3, "times each way runs")
)

type way struct {
	name string
	env  []string
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	dir, bin, dbURL, done := measure.Setup("bench-history")
	defer done()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	postmaster := postmasterPID(ctx, pool)

	ways := []way{{"with history", nil}, {"without (CATALOG_BENCH_HISTORY_OFF=1)", []string{"CATALOG_BENCH_HISTORY_OFF=1"}}}
	type figures struct{ bulk, bulkApp, bulkPG, patch, patchApp, patchPG []float64 }
	results := make([]figures, len(ways))
	var ids []string
	var patches atomic.Int64
	for round := range *rounds {
		for i, w := range ways {
			stop, api, pid := measure.Serve(bin, dir, dbURL, "bench-history", w.env)
			procs := measure.Procs{Server: pid, Postmaster: postmaster}
			// Each run ends with a VACUUM (ANALYZE) of the database, inside its CPU figures: the
			// autovacuum its writes would start (the history table is insert-only) then runs in
			// its own figures, not in those of the run after it.
			settle := func() {
				if _, err := pool.Exec(ctx, "VACUUM (ANALYZE)"); err != nil {
					log.Fatal(err)
				}
			}
			if ids == nil {
				ids = measure.SeedAttributes(api, *items)
				settle()
			}
			var n atomic.Int64
			bulk := measure.TimedSettled(1, *duration, procs, func(r *rand.Rand) error {
				batch := make([]map[string]any, 100)
				k := n.Add(1)
				for j := range batch {
					batch[j] = map[string]any{"code": fmt.Sprintf("b%d_%d_%d_%d", round, i, k, j), "displayName": "Bulk attribute"}
				}
				return api.Call("POST", "/v1/attributes/bulk", batch, nil)
			}, settle)
			// Every PATCH changes the display name (a counter): a write, never a no-op.
			patch := measure.TimedSettled(*clients, *duration, procs, func(r *rand.Rand) error {
				return api.Call("PATCH", "/v1/attributes/"+ids[r.IntN(len(ids))],
					map[string]any{"displayName": "Name " + strconv.FormatInt(patches.Add(1), 10)}, nil)
			}, settle)
			stop()
			if bulk.Errs > 0 || patch.Errs > 0 {
				log.Fatalf("%s: %d bulk and %d PATCH errors: %v %v", w.name, bulk.Errs, patch.Errs, bulk.FirstErr, patch.FirstErr)
			}
			f := &results[i]
			f.bulk, f.bulkApp, f.bulkPG = append(f.bulk, bulk.RPS()), append(f.bulkApp, bulk.PerOp(bulk.CPU.Server)), append(f.bulkPG, bulk.PerOp(bulk.CPU.Postgres))
			f.patch, f.patchApp, f.patchPG = append(f.patch, patch.RPS()), append(f.patchApp, patch.PerOp(patch.CPU.Server)), append(f.patchPG, patch.PerOp(patch.CPU.Postgres))
			log.Printf("round %d, %s: bulk 100 %.1f req/s (CPU µs: catalogd %.0f, PostgreSQL %.0f), PATCH %.0f req/s (CPU µs: catalogd %.0f, PostgreSQL %.0f)",
				round+1, w.name, bulk.RPS(), bulk.PerOp(bulk.CPU.Server), bulk.PerOp(bulk.CPU.Postgres),
				patch.RPS(), patch.PerOp(patch.CPU.Server), patch.PerOp(patch.CPU.Postgres))
		}
	}
	fmt.Printf("\n%d rounds of %s (bulk: 1 client; PATCH: %d clients over %d attributes); medians; CPU per request\n\n", *rounds, *duration, *clients, *items)
	fmt.Println("| history | bulk 100 req/s | CPU µs per bulk (catalogd + PostgreSQL) | PATCH req/s | CPU µs per PATCH (catalogd + PostgreSQL) |")
	fmt.Println("|---|---|---|---|---|")
	for i, w := range ways {
		f := results[i]
		fmt.Printf("| %s | %.1f | %.0f (%.0f + %.0f) | %.0f | %.0f (%.0f + %.0f) |\n", w.name, measure.Median(f.bulk),
			measure.Median(f.bulkApp)+measure.Median(f.bulkPG), measure.Median(f.bulkApp), measure.Median(f.bulkPG), measure.Median(f.patch),
			measure.Median(f.patchApp)+measure.Median(f.patchPG), measure.Median(f.patchApp), measure.Median(f.patchPG))
	}
	on, off := results[0], results[1]
	bulkCost := (measure.Median(on.bulkApp)+measure.Median(on.bulkPG))/(measure.Median(off.bulkApp)+measure.Median(off.bulkPG)) - 1
	patchCost := (measure.Median(on.patchApp)+measure.Median(on.patchPG))/(measure.Median(off.patchApp)+measure.Median(off.patchPG)) - 1
	fmt.Printf("\nhistory's cost in CPU per request: bulk create of 100 %+.1f %% (goal <= 15 %%: %s), single PATCH %+.1f %% (goal <= 10 %%: %s)\n",
		100*bulkCost, verdict(bulkCost <= 0.15), 100*patchCost, verdict(patchCost <= 0.10))

	var bytes, entries int64
	if err := pool.QueryRow(ctx, `SELECT pg_total_relation_size('history'), (SELECT count(*) FROM history)`).Scan(&bytes, &entries); err != nil {
		log.Fatal(err)
	}
	per := float64(bytes) / float64(max(entries, 1))
	fmt.Printf("history size: %d entries in %d kB (heap, TOAST, indexes): %.0f bytes per entry, %.2f GB per million writes\n",
		entries, bytes>>10, per, per*1e6/1e9)
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

// postmasterPID is the pid of the postmaster of the cluster pool's database runs on: the parent of
// one of its backends.
func postmasterPID(ctx context.Context, pool *pgxpool.Pool) int {
	var backend int
	if err := pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		log.Fatal(err)
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(backend) + "/stat")
	if err != nil {
		return 0 // not on this machine: every postgres process counts
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
