package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/bench/measure"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

// profileBulk runs catalogd in this process on a fresh database of TEST_DATABASE_URL's server,
// seeds -items attributes, then times -bulk-n REST bulk creates of 100 (the BULK_API method of the
// bulk comparison, alone) under a CPU profile written to file (the load's HTTP client is in the
// process too: go tool pprof -focus 'net/http.\(\*conn\).serve' for catalogd's part). When the
// server has pg_stat_statements (shared_preload_libraries), its statistics are reset after the
// warm-up and printed per bulk at the end, planning included with track_planning: where the
// database's time of a bulk goes, statement by statement.
func profileBulk(ctx context.Context, file string) error {
	env, err := apptest.Start(func(*app.Config) {})
	if err != nil {
		return err
	}
	defer env.Stop()
	pool, err := pgxpool.New(ctx, env.DBURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	api := &measure.API{Base: env.BaseURL, Token: apptest.Token("apibench")}
	fmt.Printf("seeding %d attributes\n", *items)
	measure.SeedAttributes(api, *items)
	for _, q := range []string{"VACUUM (ANALYZE)", "CHECKPOINT"} {
		if _, err := pool.Exec(ctx, q); err != nil {
			return err
		}
	}
	bulk := func(r int) error {
		var b strings.Builder
		b.WriteByte('[')
		for i := range 100 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"code":"api-%06d-%s"}`, r*100+i, words[(r+i)%len(words)])
		}
		b.WriteByte(']')
		var raw json.RawMessage
		if err := api.Call("POST", "/v1/attributes/bulk", rawJSON(b.String()), &raw); err != nil {
			return err
		}
		if n := bytes.Count(raw, []byte(`"uuid":`)); n != 100 {
			return fmt.Errorf("bulk create answered %d items for 100", n)
		}
		return nil
	}
	const warm = 10
	for r := range warm {
		if err := bulk(r); err != nil {
			return err
		}
	}
	_, pgErr := pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
	if pgErr == nil {
		_, pgErr = pool.Exec(ctx, "SELECT pg_stat_statements_reset()")
	}
	pm, _ := measure.PostmasterPID(pool)
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	cpu0 := measure.SampleCPU(measure.Procs{Postmaster: pm})
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	lat := make([]time.Duration, 0, *bulkN)
	for r := range *bulkN {
		t := time.Now()
		if err := bulk(warm + r); err != nil {
			pprof.StopCPUProfile()
			return err
		}
		lat = append(lat, time.Since(t))
	}
	pprof.StopCPUProfile()
	cpu := measure.SampleCPU(measure.Procs{Postmaster: pm}).Sub(cpu0)
	p50, p99, mean := measure.Pct(lat)
	n := float64(*bulkN)
	fmt.Printf("%d REST bulk creates of 100: p50 %.2f ms, p99 %.2f ms, mean %.2f ms; CPU per bulk: this process (catalogd and the client) %.0f µs, PostgreSQL %.0f µs (postmaster %d); load average %s\n",
		*bulkN, p50, p99, mean, float64(cpu.Self.Microseconds())/n, float64(cpu.Postgres.Microseconds())/n, pm, measure.LoadAverage())
	if pgErr != nil {
		fmt.Printf("no pg_stat_statements: %v\n", pgErr)
		return nil
	}
	rows, err := pool.Query(ctx, `SELECT calls, rows, total_exec_time, total_plan_time, plans, left(regexp_replace(query, '\s+', ' ', 'g'), 110)
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		ORDER BY total_exec_time + total_plan_time DESC LIMIT 15`)
	if err != nil {
		return err
	}
	defer rows.Close()
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "calls/bulk\trows/call\texec µs/bulk\tplan µs/bulk\tplans\t statement\t")
	var sumExec, sumPlan float64
	for rows.Next() {
		var calls, nrows, plans int64
		var exec, plan float64
		var q string
		if err := rows.Scan(&calls, &nrows, &exec, &plan, &plans, &q); err != nil {
			return err
		}
		sumExec, sumPlan = sumExec+exec, sumPlan+plan
		fmt.Fprintf(w, "%.2f\t%.1f\t%.0f\t%.0f\t%d\t %s\t\n", float64(calls)/n, float64(nrows)/max(float64(calls), 1), exec*1000/n, plan*1000/n, plans, q)
	}
	fmt.Fprintf(w, "\t\t%.0f\t%.0f\t\t (the statements above)\t\n", sumExec*1000/n, sumPlan*1000/n)
	_ = w.Flush()
	return rows.Err()
}

// rawJSON is a request body that measure.API sends as it is.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }
