package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/catalogd/catalogd/bench/measure"
)

// pgbenchRun is one pgbench result of run.sh: <name>.txt (its output) and <name>.log.* (-l logs).
type pgbenchRun struct {
	tps, p50, p99 float64
	ok            bool
}

var tpsRE = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

func readPgbench(dir, name string) pgbenchRun {
	out, err := os.ReadFile(filepath.Join(dir, name+".txt"))
	if err != nil {
		return pgbenchRun{}
	}
	m := tpsRE.FindSubmatch(out)
	if m == nil {
		return pgbenchRun{}
	}
	r := pgbenchRun{ok: true}
	r.tps, _ = strconv.ParseFloat(string(m[1]), 64)
	logs, _ := filepath.Glob(filepath.Join(dir, name+".log.*"))
	var lat []time.Duration
	for _, l := range logs {
		f, err := os.Open(l)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() { // client_id transaction_no time(µs) script_no time_epoch time_us
			if fs := strings.Fields(sc.Text()); len(fs) >= 3 {
				if us, err := strconv.ParseInt(fs[2], 10, 64); err == nil {
					lat = append(lat, time.Duration(us)*time.Microsecond)
				}
			}
		}
		f.Close()
	}
	r.p50, r.p99, _ = measure.Pct(lat)
	return r
}

func readEnv(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			m[k] = v
		}
	}
	return m, nil
}

// printSummary prints the table of every figure and the target ratios, and writes it to latest.txt.
func printSummary(dir string) error {
	env, err := readEnv(filepath.Join(dir, "load.env"))
	if err != nil {
		return fmt.Errorf("no load results (run bench/run.sh): %w", err)
	}
	num := func(k string) float64 { f, _ := strconv.ParseFloat(env[k], 64); return f }
	var b strings.Builder
	pf := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	version, _ := strconv.Unquote(env["PG_VERSION"])
	host, _ := os.Hostname()
	pf("catalogd bench, %s on %s: %d cores, PostgreSQL %s; %s clients, %s s per timed run, %s seeded attributes\n\n",
		time.Now().Format("2006-01-02 15:04"), host, runtime.NumCPU(), version, env["CLIENTS"], strings.TrimSuffix(env["DURATION_S"], ".000"), env["ITEMS"])
	row := func(name string, value float64, unit string, p50, p99 float64) {
		pf("%-58s %10.2f %-9s %8.2f %8.2f\n", name, value, unit, p50, p99)
	}
	pf("%-58s %10s %-9s %8s %8s\n", "figure", "value", "", "p50 ms", "p99 ms")
	pf("%s\n", strings.Repeat("-", 97))
	row("seed: REST bulk create, 100 per request, concurrent", num("SEED_ITEMS_PER_S"), "items/s", num("SEED_P50_MS"), num("SEED_P99_MS"))
	for _, m := range []struct{ k, n string }{
		{"BULK_API", "bulk 100: REST POST /v1/attributes/bulk, sequential"},
		{"BULK_COPY", "bulk 100: pgx CopyFrom into attributes"},
		{"BULK_SQL", "bulk 100: the service's INSERT ... unnest, pgx"},
		{"BULK_TX", "bulk 100: the service's whole transaction, pgx"},
	} {
		row(m.n, num(m.k+"_MS"), "ms/batch", num(m.k+"_P50_MS"), num(m.k+"_P99_MS"))
	}
	pg := func(name, label string) pgbenchRun {
		r := readPgbench(dir, name)
		if r.ok {
			row(label, r.tps, "tps", r.p50, r.p99)
		} else {
			pf("%-58s %10s\n", label, "(no result)")
		}
		return r
	}
	load := func(k, label string) {
		if _, ok := env[k+"_RPS"]; ok {
			row(label, num(k+"_RPS"), "req/s", num(k+"_P50_MS"), num(k+"_P99_MS"))
		}
	}
	load("GET_REST", "GET by uuid: REST GET /v1/attributes/{uuid}")
	load("GET_GRPC", "GET by uuid: gRPC GetAttribute")
	selS := pg("pgbench_select", "pgbench -S (select-only, simple protocol)")
	pg("pgbench_select_prepared", "pgbench -S -M prepared")
	pk := pg("pgbench_get_pk", "pgbench attributes PK SELECT (-M prepared)")
	lists := map[string][3]pgbenchRun{}
	for _, l := range []struct{ k, n string }{{"LIST_A", "list A"}, {"LIST_B", "list B"}} {
		load(l.k+"_REST", l.n+": REST")
		load(l.k+"_GRPC", l.n+": gRPC")
		name := "pgbench_" + strings.ToLower(l.k)
		lists[l.k] = [3]pgbenchRun{pg(name, l.n+": pgbench, same SQL, literal values"), pg(name+"_param", l.n+": pgbench, same SQL, parameters"),
			pg(name+"_generic", l.n+": pgbench, parameters, generic plan")}
	}
	for _, k := range []string{"LIST_A", "LIST_B"} {
		p, _ := strconv.Unquote(env[k+"_PATH"])
		pf("  list %s = GET %s\n", strings.ToLower(k[5:]), p)
	}

	pf("\n%-58s %10s %10s\n", "target", "ratio", "goal")
	pf("%s\n", strings.Repeat("-", 97))
	target := func(name string, ratio, goal float64, ok bool) {
		if !ok || ratio == 0 || ratio != ratio {
			pf("%-58s %10s %10s\n", name, "n/a", fmt.Sprintf(">= %.2f", goal))
			return
		}
		verdict := "met"
		if ratio < goal {
			verdict = "MISSED"
		}
		pf("%-58s %10.3f %10s  %s\n", name, ratio, fmt.Sprintf(">= %.2f", goal), verdict)
	}
	target("GET by uuid REST req/s / pgbench -S tps", num("GET_REST_RPS")/selS.tps, 0.2, selS.ok)
	for _, k := range []string{"LIST_A", "LIST_B"} {
		target(strings.ToLower(k)+" REST req/s / pgbench same SQL tps", num(k+"_REST_RPS")/lists[k][0].tps, 0.9, lists[k][0].ok)
	}
	target("bulk create: COPY time / REST bulk time (p50 per 100)", num("BULK_COPY_P50_MS")/num("BULK_API_P50_MS"), 0.8, num("BULK_API_P50_MS") > 0)

	pf("\n%-58s %10s\n", "other ratios (for reading the above)", "ratio")
	pf("%s\n", strings.Repeat("-", 97))
	info := func(name string, ratio float64, ok bool) {
		if ok && ratio == ratio && ratio != 0 {
			pf("%-58s %10.3f\n", name, ratio)
		}
	}
	info("GET by uuid REST / pgbench attributes PK SELECT", num("GET_REST_RPS")/pk.tps, pk.ok)
	info("GET by uuid gRPC / pgbench -S", num("GET_GRPC_RPS")/selS.tps, selS.ok)
	info("GET by uuid REST / gRPC", num("GET_REST_RPS")/num("GET_GRPC_RPS"), true)
	for _, k := range []string{"LIST_A", "LIST_B"} {
		info(strings.ToLower(k)+" REST / pgbench parameterised SQL", num(k+"_REST_RPS")/lists[k][1].tps, lists[k][1].ok)
		info(strings.ToLower(k)+" pgbench parameterised / literal SQL", lists[k][1].tps/lists[k][0].tps, lists[k][0].ok && lists[k][1].ok)
		info(strings.ToLower(k)+" pgbench parameters, generic plan / literal SQL", lists[k][2].tps/lists[k][0].tps, lists[k][0].ok && lists[k][2].ok)
	}
	info("list_a REST / gRPC", num("LIST_A_REST_RPS")/num("LIST_A_GRPC_RPS"), true)
	info("bulk: COPY time / REST bulk time, means", num("BULK_COPY_MS")/num("BULK_API_MS"), true)
	info("bulk: COPY time / the service's transaction on pgx (p50)", num("BULK_COPY_P50_MS")/num("BULK_TX_P50_MS"), true)
	info("bulk: service transaction on pgx / REST bulk time (p50)", num("BULK_TX_P50_MS")/num("BULK_API_P50_MS"), true)

	pf("\ncatalogd CPU per REST bulk create of 100: %.2f ms\n", num("BULK_API_CPU_SERVER_MS"))
	pf("CPU per request (µs; catalogd process / all postgres processes):\n")
	for _, k := range []string{"GET_REST", "GET_GRPC", "LIST_A_REST", "LIST_A_GRPC", "LIST_B_REST"} {
		if _, ok := env[k+"_CPU_SERVER_US"]; ok {
			pf("  %-14s %6.0f / %6.0f\n", k, num(k+"_CPU_SERVER_US"), num(k+"_CPU_PG_US"))
		}
	}
	fmt.Print(b.String())
	return os.WriteFile(filepath.Join(dir, "latest.txt"), []byte(b.String()), 0o644)
}
