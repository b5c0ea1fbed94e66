// Command replicas is the read-replica half of `make bench` step topology (issue 28): the GET and
// list mix of step 2 (GET /v1/attributes/{uuid}, the two list pages LIST_A and LIST_B) against
// catalogd on the primary alone, then against catalogd with DATABASE_READ_URL on a streaming
// standby of it (apptest.Standby: pg_basebackup -R of TEST_DATABASE_URL's cluster), on the same
// database, with the same clients and duration. It reports the req/s of each and the CPU the
// primary's processes spent per read (measure.SampleCPU of the primary's postmaster and its
// children: the backends, the WAL sender that streams to the standby, …), and the standby's. The
// goal of issue 28: with reads on the standby, the primary's CPU per read falls by 80 % or more
// and the req/s stays at 0.9x or more of the primary-only run.
//
//	go run ./cmd/testpg -install -durable -- go run ./bench/replicas [-items 10000] [-clients 4] [-duration 10s] [-rounds 2]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/bench/measure"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/pgembed"
)

var (
	items    = flag.Int("items", 10000, "attributes seeded (100 per bulk create)")
	clients  = flag.Int("clients", 4, "concurrent clients")
	duration = flag.Duration("duration", 10*time.Second, "timed part of each run")
	rounds   = flag.Int("rounds", 2, "runs of each configuration, alternating (the machine is shared: figures are the mean)")
	out      = flag.String("out", "", "write the figures (KEY=value lines) to this file")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/replicas:", err)
		os.Exit(1)
	}
}

// The list pages of step 2 (bench/load LIST_A, LIST_B); the contains term matches ~1 % of codes.
const (
	listA = "/v1/attributes?statuses[eq]=published&code[contains]=k7&size=20"
	listB = "/v1/attributes?statuses[eq]=draft&code[order]=asc&size=50"
)

func run() error {
	ctx := context.Background()
	dbURL, drop, err := apptest.CreateDatabase(ctx, "catalogd_bench_replicas")
	if err != nil {
		return err
	}
	defer drop()
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	primaryPID, err := measure.PostmasterPID(pool)
	if err != nil {
		return err
	}
	sb, err := apptest.Standby()
	if err != nil {
		return fmt.Errorf("standby: %w", err)
	}
	defer sb.Remove() //nolint:errcheck // the watchdog removes it anyway
	standbyPID, err := postmaster(sb)
	if err != nil {
		return err
	}
	ids, token, err := seed(dbURL)
	if err != nil {
		return err
	}
	if err := sb.WaitReplayed(ctx, dbURL); err != nil {
		return err
	}
	type result struct {
		rps, primaryUS, standbyUS, catalogdUS float64
		n                                     int
	}
	results := map[string]*result{"primary": {}, "standby": {}}
	for round := 0; round < *rounds; round++ {
		for _, mode := range []string{"primary", "standby"} {
			var opts []func(*app.Config)
			if mode == "standby" {
				opts = append(opts, apptest.ReadsOn(sb))
			}
			opts = append(opts, func(c *app.Config) { c.RateLimitRPS = 0; c.DisableDispatcher = true })
			env, err := apptest.StartOn(dbURL, nil, opts...)
			if err != nil {
				return err
			}
			api := &measure.API{Base: env.BaseURL, Token: token, HTTP: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
			op := func(r *rand.Rand) error {
				switch r.IntN(4) {
				case 0:
					return api.Call("GET", listA, nil, nil)
				case 1:
					return api.Call("GET", listB, nil, nil)
				default:
					return api.Call("GET", "/v1/attributes/"+ids[r.IntN(len(ids))], nil, nil)
				}
			}
			// The primary's CPU and the standby's, sampled in turn around the same timed run.
			before := measure.SampleCPU(measure.Procs{Postmaster: standbyPID})
			r := measure.Timed(*clients, *duration, measure.Procs{Postmaster: primaryPID}, op)
			standbyCPU := measure.SampleCPU(measure.Procs{Postmaster: standbyPID}).Sub(before)
			reads := api.Metric(`catalogd_db_reads_total{target="primary"}`)
			env.Stop()
			if r.Errs > 0 {
				return fmt.Errorf("%s: %d of %d reads failed: %v", mode, r.Errs, r.Ops+r.Errs, r.FirstErr)
			}
			res := results[mode]
			res.n++
			res.rps += r.RPS()
			res.primaryUS += r.PerOp(r.CPU.Postgres)
			res.standbyUS += r.PerOp(standbyCPU.Postgres)
			res.catalogdUS += r.PerOp(r.CPU.Self)
			fmt.Printf("topology: reads (GET by uuid 50 %%, LIST_A 25 %%, LIST_B 25 %%), %d clients, %s, %s: %.0f req/s, "+
				"primary PostgreSQL CPU %.0f µs/read, standby %.0f µs/read, catalogd+load %.0f µs/read (p50 %.2f ms, p99 %.2f ms; %s reads counted on the primary; load average %s)\n",
				*clients, *duration, label(mode), r.RPS(), r.PerOp(r.CPU.Postgres), r.PerOp(standbyCPU.Postgres), r.PerOp(r.CPU.Self),
				r.P50, r.P99, reads, measure.LoadAverage())
		}
	}
	var figs measure.Figures
	for mode, res := range results {
		n := float64(res.n)
		figs.Put("topology_reads_rps_"+mode, res.rps/n)
		figs.Put("topology_reads_primary_cpu_us_"+mode, res.primaryUS/n)
		figs.Put("topology_reads_standby_cpu_us_"+mode, res.standbyUS/n)
	}
	p, s := results["primary"], results["standby"]
	cpuFall := 1 - (s.primaryUS/float64(s.n))/(p.primaryUS/float64(p.n))
	rpsRatio := (s.rps / float64(s.n)) / (p.rps / float64(p.n))
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	fmt.Printf("topology: goal (issue 28): the primary's CPU per read falls by >= 80 %% with reads on the standby: %.0f %% (%s); "+
		"REST req/s >= 0.9x of primary-only: %.2fx (%s)\n", 100*cpuFall, verdict(cpuFall >= 0.8), rpsRatio, verdict(rpsRatio >= 0.9))
	figs.Put("topology_reads_primary_cpu_fall_pct", 100*cpuFall)
	figs.Put("topology_reads_rps_ratio", rpsRatio)
	if *out != "" {
		return figs.Write(*out)
	}
	return nil
}

func label(mode string) string {
	if mode == "standby" {
		return "reads on the standby (DATABASE_READ_URL, read-your-writes)"
	}
	return "primary alone"
}

// seed creates the attributes through the API (a third published, so that LIST_A has matches)
// and answers their uuids and the tenant's token.
func seed(dbURL string) ([]string, string, error) {
	env, err := apptest.StartOn(dbURL, nil, func(c *app.Config) { c.RateLimitRPS = 0; c.DisableDispatcher = true })
	if err != nil {
		return nil, "", err
	}
	defer env.Stop()
	token := apptest.Token("bench-replicas")
	api := &measure.API{Base: env.BaseURL, Token: token}
	var ids []string
	for i := 0; i < *items; i += 100 {
		batch := make([]map[string]any, 0, 100)
		for j := i; j < min(i+100, *items); j++ {
			batch = append(batch, map[string]any{"code": "attr-" + strconv.FormatInt(int64(j)*7919%1000003, 36), "displayName": "Attribute"})
		}
		var created []struct{ Uuid string }
		if err := api.Call("POST", "/v1/attributes/bulk", batch, &created); err != nil {
			return nil, "", err
		}
		for k, c := range created {
			ids = append(ids, c.Uuid)
			if k%3 == 0 {
				if err := api.Call("PATCH", "/v1/attributes/"+c.Uuid+"/actions/lifecycle", map[string]any{"transition": "publish"}, nil); err != nil {
					return nil, "", err
				}
			}
		}
	}
	if len(ids) == 0 {
		return nil, "", errors.New("no attribute created")
	}
	return ids, token, nil
}

// postmaster is the pid of a cluster's postmaster (the first line of postmaster.pid).
func postmaster(c *pgembed.Cluster) (int, error) {
	b, err := os.ReadFile(filepath.Join(c.Dir(), "data", "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}
