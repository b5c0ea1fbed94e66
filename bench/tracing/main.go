// Command tracing measures what OpenTelemetry tracing costs catalogd (issue 29, item 5; bench/README.md
// "Tracing"): GET by uuid and bulk create of 100 through REST, against `catalogd serve` run three ways —
// tracing off (no OTEL_* variable), on with the always_off sampler (spans made, none recorded), and on
// with every request sampled and exported by OTLP/HTTP to a receiver in this program that decodes
// nothing and answers at once. The three ways run in turn, -rounds times, on one seeded database (each
// round starting with the next way), so that a drift of the machine's load spreads over all of them; the table shows each way's median, and
// the median of each round's change against that round's off run. -before BIN adds the off and
// every-request-sampled ways of another catalogd binary to each round (a change measured against the
// code before it, in the same run). -profile SAMPLER (off, always_off, always_on) profiles catalogd run
// in this process under the GET load instead (-cpuprofile, -memprofile; profile.go).
//
//	go run ./cmd/testpg -durable -- go run ./bench/tracing
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
)

var (
	items    = flag.Int("items", 10_000, "attributes seeded (multiple of 100)")
	clients  = flag.Int("clients", 4, "concurrent clients of the GET runs")
	duration = flag.Duration("duration", 10*time.Second, "length of each timed run (plus 1 s warm-up)")
	rounds   = flag.Int("rounds", 3, "times each way runs")
	bulkRuns = flag.Bool("bulk", true, "run the bulk create of each way too (false: GET by uuid only)")
	profWay  = flag.String("profile", "", "instead of the table: profile catalogd run in this process under the GET load, with tracing off or with this OTEL_TRACES_SAMPLER (always_on, always_off); see -cpuprofile, -memprofile")
	cpuProf  = flag.String("cpuprofile", "", "with -profile: the CPU profile's file")
	memProf  = flag.String("memprofile", "", "with -profile: the allocation profile's file (and FILE.base, taken after the warm-up)")
	before   = flag.String("before", "", "another catalogd binary (say, built from the commit before a change): its off and every-request-sampled ways run too, in the same rounds")
)

// exports and exportBytes count what the receiver took.
var exports, exportBytes atomic.Int64

// receiver starts the OTLP/HTTP receiver, which reads each export and answers 200 with an empty
// response, and returns its address.
func receiver() string {
	sink, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(sink, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { //nolint:errcheck
		n, _ := io.Copy(io.Discard, r.Body)
		exports.Add(1)
		exportBytes.Add(n)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	return sink.Addr().String()
}

type way struct {
	name string
	env  []string
	bin  string // "": the catalogd built from this tree
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	if *profWay != "" {
		if err := profile(*profWay, "http://"+receiver(), *cpuProf, *memProf); err != nil {
			log.Fatal(err)
		}
		return
	}
	dir, bin, dbURL, done := measure.Setup("bench-tracing")
	defer done()

	otlp := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + receiver(), "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf"}
	ways := []way{
		{"off", nil, ""},
		{"on, always_off sampler", append(slices.Clone(otlp), "OTEL_TRACES_SAMPLER=always_off"), ""},
		{"on, every request sampled", append(slices.Clone(otlp), "OTEL_TRACES_SAMPLER=always_on"), ""},
	}
	if *before != "" {
		ways = append(ways, way{"before: off", nil, *before}, way{"before: every request sampled", ways[2].env, *before})
	}

	type figures struct{ get, getP50, getP99, getCPU, bulk, bulkP50, bulkCPU []float64 }
	results := make([]figures, len(ways))
	// The attributes are seeded first, by a catalogd of their own, so that no way's run follows the
	// seeding's writes more closely than another's.
	stop, api, _ := measure.Serve(bin, dir, dbURL, "bench-tracing", nil)
	ids := measure.SeedAttributes(api, *items)
	stop()
	for round := range *rounds {
		// Each round starts with another way, so that no way always follows the same one.
		for k := range ways {
			i := (round + k) % len(ways)
			w := ways[i]
			exe := bin
			if w.bin != "" {
				exe = w.bin
			}
			stop, api, pid := measure.Serve(exe, dir, dbURL, "bench-tracing", w.env)
			procs := measure.Procs{Server: pid}
			get := measure.Timed(*clients, *duration, procs, func(r *rand.Rand) error {
				return api.Call("GET", "/v1/attributes/"+ids[r.IntN(len(ids))], nil, nil)
			})
			var n atomic.Int64
			var bulk measure.Run
			if *bulkRuns {
				bulk = measure.Timed(1, *duration, procs, func(r *rand.Rand) error {
					batch := make([]map[string]any, 100)
					k := n.Add(1)
					for j := range batch {
						batch[j] = map[string]any{"code": fmt.Sprintf("b%d_%d_%d_%d", round, i, k, j)}
					}
					return api.Call("POST", "/v1/attributes/bulk", batch, nil)
				})
			}
			stop()
			if get.Errs > 0 || bulk.Errs > 0 {
				log.Fatalf("%s: %d GET and %d bulk errors: %v %v", w.name, get.Errs, bulk.Errs, get.FirstErr, bulk.FirstErr)
			}
			f := &results[i]
			f.get, f.getP50, f.getP99 = append(f.get, get.RPS()), append(f.getP50, get.P50), append(f.getP99, get.P99)
			f.getCPU = append(f.getCPU, get.PerOp(get.CPU.Server))
			line := fmt.Sprintf("round %d, %s (load %s): GET %.0f req/s (p50 %.2f ms, p99 %.2f ms, catalogd %.0f µs CPU)",
				round+1, w.name, measure.LoadAverage(), get.RPS(), get.P50, get.P99, get.PerOp(get.CPU.Server))
			if *bulkRuns {
				f.bulk, f.bulkP50 = append(f.bulk, bulk.RPS()), append(f.bulkP50, bulk.P50)
				f.bulkCPU = append(f.bulkCPU, bulk.PerOp(bulk.CPU.Server))
				line += fmt.Sprintf(", bulk 100 %.1f req/s (p50 %.2f ms, catalogd %.0f µs CPU)", bulk.RPS(), bulk.P50, bulk.PerOp(bulk.CPU.Server))
			}
			log.Print(line)
		}
	}
	fmt.Printf("\n%d rounds of %s, %d GET clients, %d attributes; medians; the OTLP receiver took %d exports (%d kB); load average %s\n\n",
		*rounds, *duration, *clients, *items, exports.Load(), exportBytes.Load()>>10, measure.LoadAverage())
	// "vs off" is the median over the rounds of each round's change against that round's off run: the
	// runs of one round are close in time, so a drift of the machine's load between rounds cancels out.
	fmt.Println("| tracing | GET req/s | vs off | GET p50 / p99 ms | catalogd CPU µs per GET | vs off | bulk 100 req/s | vs off | bulk p50 ms | catalogd CPU µs per bulk |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	base := results[0]
	for i, w := range ways {
		f := results[i]
		fmt.Printf("| %s | %.0f | %+.1f %% | %.2f / %.2f | %.0f | %+.1f %% | %.1f | %+.1f %% | %.2f | %.0f |\n", w.name,
			measure.Median(f.get), paired(f.get, base.get), measure.Median(f.getP50), measure.Median(f.getP99),
			measure.Median(f.getCPU), paired(f.getCPU, base.getCPU),
			measure.Median(f.bulk), paired(f.bulk, base.bulk), measure.Median(f.bulkP50), measure.Median(f.bulkCPU))
	}
}

// paired is the median over the rounds of x's change against base in the same round, in per cent.
func paired(x, base []float64) float64 {
	var changes []float64
	for r := range min(len(x), len(base)) {
		if base[r] > 0 {
			changes = append(changes, 100*(x[r]/base[r]-1))
		}
	}
	return measure.Median(changes)
}
