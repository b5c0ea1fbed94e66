package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

// results are the figures of one run.sh run: run.env (the settings), load.env (bench/load, upper
// case keys), products.env (bench/products, product_*), webhooks.env (bench/webhooks,
// webhook_*) and search.env (bench/search, search_*), merged. A step that did not run, or a figure its program did not write, is
// missing: the summary says "not measured" for it and never shows a number in its place.
type results struct {
	m    map[string]string
	used map[string]bool // keys shown, so that the rest of webhooks.env can be listed as is
}

func readResults(dir string) results {
	r := results{m: map[string]string{}, used: map[string]bool{}}
	for _, f := range []string{"load.env", "products.env", "webhooks.env", "search.env", "run.env"} { // run.sh's settings win
		m, _ := measure.ReadFigures(filepath.Join(dir, f)) // a missing file: nothing measured there
		for k, v := range m {
			r.m[k] = v
		}
	}
	return r
}

// num returns the figure k and whether it was measured (present, a number, not NaN or infinite).
func (r results) num(k string) (float64, bool) {
	r.used[k] = true
	f, err := strconv.ParseFloat(r.m[k], 64)
	return f, err == nil && f == f && f-f == 0
}

func (r results) str(k string) string {
	r.used[k] = true
	if s, err := strconv.Unquote(r.m[k]); err == nil {
		return s
	}
	return r.m[k]
}

// figure is a measured number (ok false: not measured).
type figure struct {
	v  float64
	ok bool
}

func (r results) fig(k string) figure { v, ok := r.num(k); return figure{v, ok} }

func (p pgbenchRun) fig() figure { return figure{p.tps, p.ok} }

// ratio is a/b, measured when both are (and b is not 0).
func ratio(a, b figure) figure { return figure{a.v / b.v, a.ok && b.ok && b.v != 0} }

const notMeasured = "not measured"

// printSummary prints the goals, the table of every figure, the CPU catalogd spends per
// request on each path and the ratios that explain the gaps, and writes it all to latest.txt. It
// reads what the run left in dir: what a step did not measure shows as "not measured".
func printSummary(dir string) error {
	res := readResults(dir)
	var b strings.Builder
	pf := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	line := func() { pf("%s\n", strings.Repeat("-", 97)) }
	host, _ := os.Hostname()
	setting := func(k, unit string) string {
		if v := res.str(k); v != "" {
			return v + unit
		}
		return "?" + unit
	}
	pf("catalogd bench, %s on %s: %d cores, PostgreSQL %s; %s, %s per timed run, %s\n",
		time.Now().Format("2006-01-02 15:04"), host, runtime.NumCPU(), setting("PG_VERSION", ""),
		setting("CLIENTS", " clients"), setting("DURATION_S", " s"), setting("ITEMS", " seeded attributes"))
	if s := res.str("STEPS"); s != "" {
		pf("steps run: %s\n", s)
	}

	pg := map[string]pgbenchRun{}
	for _, n := range []string{"pgbench_select", "pgbench_select_prepared", "pgbench_get_pk", "pgbench_list_a", "pgbench_list_a_param",
		"pgbench_list_a_generic", "pgbench_list_b", "pgbench_list_b_param", "pgbench_list_b_generic", "pgbench_search",
		"pgbench_product_get_hydrated", "pgbench_product_list_hydrated"} {
		pg[n] = readPgbench(dir, n)
	}
	cpu := func(k string) string { // catalogd CPU per request of a timed run of bench/load, µs
		if v, ok := res.num(k + "_CPU_SERVER_US"); ok {
			return fmt.Sprintf("%.0f µs", v)
		}
		return notMeasured
	}

	// --- the goals of issue 13 ---
	pf("\n%-60s %12s %10s  %s\n", "goal (issue 13)", "value", "goal", "verdict")
	line()
	goal := func(name string, f figure, format string, atLeast bool, want float64) {
		g := fmt.Sprintf("<= %g", want)
		if atLeast {
			g = fmt.Sprintf(">= %g", want)
		}
		if !f.ok {
			pf("%-60s %12s %10s  %s\n", name, "-", g, notMeasured)
			return
		}
		verdict := "met"
		if (atLeast && f.v < want) || (!atLeast && f.v > want) {
			verdict = "MISSED"
		}
		pf("%-60s %12s %10s  %s\n", name, fmt.Sprintf(format, f.v), g, verdict)
	}
	goal("GET by uuid: REST req/s / pgbench -S tps", ratio(res.fig("GET_REST_RPS"), pg["pgbench_select"].fig()), "%.3f", true, 0.25)
	// REST and gRPC each through their usual Go client (net/http's, grpc-go's): the thin client of
	// GET_REST would flatter REST against gRPC.
	goal("GET by uuid: REST req/s / gRPC req/s", ratio(res.fig("GET_REST_STDLIB_RPS"), res.fig("GET_GRPC_RPS")), "%.3f", true, 0.9)
	pf("    catalogd CPU per GET: REST %s, gRPC %s\n", cpu("GET_REST"), cpu("GET_GRPC"))
	goal("list A: REST req/s / pgbench same SQL tps (literal values)", ratio(res.fig("LIST_A_REST_RPS"), pg["pgbench_list_a"].fig()), "%.3f", true, 0.9)
	goal("bulk create of 100: COPY time / REST time (p50 per batch)", ratio(res.fig("BULK_COPY_P50_MS"), res.fig("BULK_API_P50_MS")), "%.3f", true, 0.8)
	goal("webhook deliveries/s to a loopback receiver", res.fig("webhook_deliveries_per_s"), "%.0f", true, 2500)
	recv, okR := res.num("webhook_received")
	rec, okA := res.num("webhook_attempts_recorded")
	switch {
	case !okR || !okA:
		pf("    every attempt recorded: %s\n", notMeasured)
	case rec == recv:
		pf("    every attempt recorded: met (%.0f attempts recorded, %.0f requests received)\n", rec, recv)
	default:
		pf("    every attempt recorded: MISSED (%.0f attempts recorded, %.0f requests received)\n", rec, recv)
	}
	goal("webhook commit -> receipt p99 at 1 000 deliveries/s, ms", res.fig("webhook_p99_ms_at_1000"), "%.2f", false, 50)

	// --- the goals of issue 32 (step 5, bench/products, and steps 2-3) ---
	pf("\n%-60s %12s %10s  %s\n", "goal (issue 32)", "value", "goal", "verdict")
	line()
	goal("hydrated GET: REST req/s / pgbench same SQL tps", ratio(res.fig("product_get_hydrated_rest_rps"), pg["pgbench_product_get_hydrated"].fig()), "%.3f", true, 0.8)
	goal("GET by uuid: REST req/s / pgbench -S tps", ratio(res.fig("GET_REST_RPS"), pg["pgbench_select"].fig()), "%.3f", true, 0.25)
	goal("bulk create of 100: COPY time / REST time (p50 per batch)", ratio(res.fig("BULK_COPY_P50_MS"), res.fig("BULK_API_P50_MS")), "%.3f", true, 0.75)
	goal("hydrated GET: REST req/s / 342 (issue 32's starting point)", ratio(res.fig("product_get_hydrated_rest_rps"), figure{342, true}), "%.3f", true, 2)
	if f := ratio(res.fig("product_get_hydrated_rest_stdlib_rps"), figure{342, true}); f.ok {
		pf("    the same through net/http's client, as the 342 was measured: %.3f\n", f.v)
	}
	if f := ratio(res.fig("product_list_hydrated_rest_rps"), pg["pgbench_product_list_hydrated"].fig()); f.ok {
		pf("    hydrated list of 20: REST req/s / pgbench same SQL tps: %.3f\n", f.v)
	}
	if v, ok := res.num("product_get_hydrated_rest_cpu_us"); ok {
		pf("    catalogd CPU per hydrated GET: REST %.0f µs\n", v)
	}

	// --- the goals of issue 15 (step 11, bench/search) ---
	pf("\n%-60s %12s %10s  %s\n", fmt.Sprintf("goal (issue 15, %s products)", setting("SEARCH_PRODUCTS", "")), "value", "goal", "verdict")
	line()
	goal("search (tree + term + not ready on web), REST p99, ms", res.fig("search_rest_p99_ms"), "%.2f", false, 100)
	goal("keyset: page "+res.str("search_deep_page")+" / first keyset page (p50 latency)",
		ratio(res.fig("search_keyset_deep_p50_ms"), res.fig("search_page_2_p50_ms")), "%.3f", false, 1.5)
	famMs, okMs := res.num("search_family_change_ms")
	famN, okN := res.num("search_family_products")
	switch verified, okV := res.num("search_family_verified"); {
	case !okMs || !okN || !okV:
		pf("    family requirement change: %s\n", notMeasured)
	default:
		pf("    family requirement change over %.0f products: finished in %.0f ms, readiness followed (%.0f publications sampled): met\n", famN, famMs, verified)
	}

	// --- every figure ---
	pf("\n%-60s %12s %-9s %7s %7s\n", "figure", "value", "", "p50 ms", "p99 ms")
	line()
	row := func(name string, f figure, unit string, p50, p99 figure) {
		if !f.ok {
			pf("%-60s %12s\n", name, notMeasured)
			return
		}
		pct := func(p figure) string {
			if p.ok {
				return fmt.Sprintf("%.2f", p.v)
			}
			return "-"
		}
		pf("%-60s %12.2f %-9s %7s %7s\n", name, f.v, unit, pct(p50), pct(p99))
	}
	errors := func(k string) { // a timed run's failed requests (its figures count the others)
		if n, ok := res.num(k); ok && n > 0 {
			pf("  ^ %.0f requests failed (see the step's output)\n", n)
		}
	}
	run := func(k, label, unit, value string) { // value, <k>_P50_MS and <k>_P99_MS of bench/load
		row(label, res.fig(k+value), unit, res.fig(k+"_P50_MS"), res.fig(k+"_P99_MS"))
		errors(k + "_ERRORS")
	}
	pgRow := func(name, label string) {
		p := pg[name]
		row(label, p.fig(), "tps", figure{p.p50, p.ok}, figure{p.p99, p.ok})
	}
	prod := func(k, label string) { // a timed run of bench/products
		row(label, res.fig(k+"_rps"), "req/s", res.fig(k+"_p50_ms"), res.fig(k+"_p99_ms"))
		errors(k + "_errors")
	}
	run("SEED", "seed: REST bulk create, 100 per request, concurrent", "items/s", "_ITEMS_PER_S")
	run("BULK_API", "bulk 100: REST POST /v1/attributes/bulk, sequential", "ms/batch", "_MS")
	run("BULK_COPY", "bulk 100: pgx CopyFrom into attributes", "ms/batch", "_MS")
	run("BULK_SQL", "bulk 100: the service's INSERT ... unnest, pgx", "ms/batch", "_MS")
	run("BULK_TX", "bulk 100: the service's whole transaction, pgx", "ms/batch", "_MS")
	run("GET_REST", "GET by uuid: REST GET /v1/attributes/{uuid}", "req/s", "_RPS")
	run("GET_REST_STDLIB", "GET by uuid: REST, load client net/http", "req/s", "_RPS")
	run("GET_GRPC", "GET by uuid: gRPC GetAttribute", "req/s", "_RPS")
	pgRow("pgbench_select", "pgbench -S (select-only, simple protocol)")
	pgRow("pgbench_select_prepared", "pgbench -S -M prepared")
	pgRow("pgbench_get_pk", "pgbench attributes PK SELECT (-M prepared)")
	for _, l := range []struct{ k, n string }{{"LIST_A", "list A"}, {"LIST_B", "list B"}} {
		run(l.k+"_REST", l.n+": REST", "req/s", "_RPS")
		if l.k == "LIST_A" {
			run(l.k+"_GRPC", l.n+": gRPC", "req/s", "_RPS")
		}
		name := "pgbench_" + strings.ToLower(l.k)
		pgRow(name, l.n+": pgbench, same SQL, literal values")
		pgRow(name+"_param", l.n+": pgbench, same SQL, parameters")
		pgRow(name+"_generic", l.n+": pgbench, parameters, generic plan")
	}
	for _, k := range []string{"LIST_A", "LIST_B"} {
		if p := res.str(k + "_PATH"); p != "" {
			pf("  list %s = GET %s\n", strings.ToLower(k[5:]), p)
		}
	}
	prod("product_get_plain", "product GET, plain: REST")
	prod("product_get_hydrated_rest", "product GET, hydrated (8 associations): REST")
	prod("product_get_hydrated_grpc", "product GET, hydrated (8 associations): gRPC")
	prod("product_list_hydrated_rest", "product list of 20 hydrated: REST")
	if n, ok := res.num("product_hydrated_json_bytes"); ok {
		pf("  a hydrated product is %.0f bytes of JSON\n", n)
	}
	for _, s := range []struct{ k, n string }{{"product_bulk_publish", "publish"}, {"product_bulk_unpublish", "unpublish"}} {
		row("bulk publication lifecycle of 100, "+s.n+" (mean)", res.fig(s.k+"_mean_ms"), "ms/req", res.fig(s.k+"_p50_ms"), res.fig(s.k+"_p99_ms"))
	}
	row("webhook deliveries/s to a loopback receiver", res.fig("webhook_deliveries_per_s"), "/s", figure{}, figure{})
	row("webhook commit -> receipt at 1 000 deliveries/s", figure{1000, res.fig("webhook_p50_ms_at_1000").ok || res.fig("webhook_p99_ms_at_1000").ok},
		"/s", res.fig("webhook_p50_ms_at_1000"), res.fig("webhook_p99_ms_at_1000"))
	row("webhook deliveries/s while the API is saturated", res.fig("webhook_saturated_deliveries_per_s"), "/s", figure{}, figure{})
	row("search seed: products and their rows, set-based SQL", res.fig("search_seed_s"), "s", figure{}, figure{})
	row("  of which readiness_refresh of every publication", res.fig("search_seed_readiness_s"), "s", figure{}, figure{})
	row("search: REST (p95 in the next line)", res.fig("search_rest_rps"), "req/s", res.fig("search_rest_p50_ms"), res.fig("search_rest_p99_ms"))
	errors("search_rest_errors")
	if v, ok := res.num("search_rest_p95_ms"); ok {
		pf("  search REST p95 %.2f ms; %s matching products of %s\n", v, res.str("search_matches"), res.str("search_products"))
	}
	pgRow("pgbench_search", "search: pgbench, same SQL (page + count), literal")
	for _, d := range []string{"1", "2", "100", "1000", "10000"} {
		label := "keyset page " + d + " of 100 products, 1 client"
		if d == "1" {
			label = "page 1 of 100 products (with the count), 1 client"
		}
		row(label, res.fig("search_page_"+d+"_p50_ms"), "ms", res.fig("search_page_"+d+"_p50_ms"), res.fig("search_page_"+d+"_p99_ms"))
	}
	if deep := res.str("search_deep_page"); deep != "" && !slices.Contains([]string{"1", "2", "100", "1000", "10000"}, deep) {
		row("keyset page "+deep+" (the last) of 100 products, 1 client", res.fig("search_keyset_deep_p50_ms"), "ms",
			res.fig("search_keyset_deep_p50_ms"), res.fig("search_keyset_deep_p99_ms"))
	}
	row("offset page "+res.str("search_deep_page")+" (page=N) of 100 products", res.fig("search_offset_page_p50_ms"), "ms", res.fig("search_offset_page_p50_ms"), figure{})
	row("family requirement change (PATCH), "+res.str("search_family_products")+" products", res.fig("search_family_change_ms"), "ms", figure{}, figure{})

	// --- CPU per request ---
	// PG_PID: run.sh found the cluster's postmaster (bench/load and bench/products count its
	// processes alone); 0: every postgres process of the machine, other clusters included.
	if pid, ok := res.num("PG_PID"); ok && pid == 0 {
		pf("\n(postgres below: every postgres process of the machine; run.sh did not find the cluster's postmaster)")
	}
	pf("\n%-60s %14s %14s\n", "CPU per request (from /proc)", "catalogd", "postgres")
	line()
	na := figure{v: -1} // a figure the program cannot measure
	cpuRow := func(name string, server, pgCPU figure, scale float64) {
		f := func(x figure) string {
			switch {
			case x == na:
				return "-"
			case !x.ok:
				return notMeasured
			}
			return fmt.Sprintf("%.0f µs", x.v*scale)
		}
		pf("%-60s %s %s\n", name, right(f(server), 14), right(f(pgCPU), 14))
	}
	for _, c := range []struct{ k, n string }{
		{"GET_REST", "GET by uuid: REST"}, {"GET_REST_STDLIB", "GET by uuid: REST, net/http client"}, {"GET_GRPC", "GET by uuid: gRPC"},
		{"LIST_A_REST", "list A: REST"}, {"LIST_A_GRPC", "list A: gRPC"}, {"LIST_B_REST", "list B: REST"},
	} {
		cpuRow(c.n, res.fig(c.k+"_CPU_SERVER_US"), res.fig(c.k+"_CPU_PG_US"), 1)
	}
	// bench/load interleaves the bulk methods, most of them straight on PostgreSQL: catalogd only.
	cpuRow("bulk create of 100: REST", res.fig("BULK_API_CPU_SERVER_MS"), na, 1000)
	for _, c := range []struct{ k, n string }{
		{"product_get_plain", "product GET, plain: REST"},
		{"product_get_hydrated_rest", "product GET, hydrated: REST"},
		{"product_get_hydrated_grpc", "product GET, hydrated: gRPC"},
		{"product_list_hydrated_rest", "product list of 20 hydrated: REST"},
	} {
		cpuRow(c.n, res.fig(c.k+"_cpu_us"), res.fig(c.k+"_pg_cpu_us"), 1)
	}
	cpuRow("bulk publication lifecycle of 100", res.fig("product_bulk_lifecycle_cpu_ms"), na, 1000)
	cpuRow("search page (tree + term + not ready): REST", res.fig("search_rest_cpu_us"), res.fig("search_rest_pg_cpu_us"), 1)
	cpuRow("webhook delivery", res.fig("webhook_cpu_us_per_delivery"), res.fig("webhook_pg_cpu_us_per_delivery"), 1)

	// --- ratios that split the gaps ---
	pf("\n%-60s %12s\n", "other ratios (for reading the above)", "ratio")
	line()
	info := func(name string, f figure) {
		if f.ok {
			pf("%-60s %12.3f\n", name, f.v)
		} else {
			pf("%-60s %12s\n", name, notMeasured)
		}
	}
	info("GET by uuid REST / pgbench attributes PK SELECT", ratio(res.fig("GET_REST_RPS"), pg["pgbench_get_pk"].fig()))
	info("GET by uuid REST, net/http client / pgbench -S", ratio(res.fig("GET_REST_STDLIB_RPS"), pg["pgbench_select"].fig()))
	info("GET by uuid gRPC / pgbench -S", ratio(res.fig("GET_GRPC_RPS"), pg["pgbench_select"].fig()))
	info("GET by uuid catalogd CPU: gRPC / REST", ratio(res.fig("GET_GRPC_CPU_SERVER_US"), res.fig("GET_REST_CPU_SERVER_US")))
	info("list_b REST / pgbench same SQL, literal (was a target: 0.9)", ratio(res.fig("LIST_B_REST_RPS"), pg["pgbench_list_b"].fig()))
	for _, k := range []string{"LIST_A", "LIST_B"} {
		l := "pgbench_" + strings.ToLower(k)
		info(strings.ToLower(k)+" REST / pgbench parameterised SQL", ratio(res.fig(k+"_REST_RPS"), pg[l+"_param"].fig()))
		info(strings.ToLower(k)+" pgbench parameterised / literal SQL", ratio(pg[l+"_param"].fig(), pg[l].fig()))
		info(strings.ToLower(k)+" pgbench parameters, generic plan / literal SQL", ratio(pg[l+"_generic"].fig(), pg[l].fig()))
	}
	info("list_a REST / gRPC", ratio(res.fig("LIST_A_REST_RPS"), res.fig("LIST_A_GRPC_RPS")))
	info("bulk: COPY time / REST bulk time, means", ratio(res.fig("BULK_COPY_MS"), res.fig("BULK_API_MS")))
	info("bulk: COPY time / the service's transaction on pgx (p50)", ratio(res.fig("BULK_COPY_P50_MS"), res.fig("BULK_TX_P50_MS")))
	info("bulk: service transaction on pgx / REST bulk time (p50)", ratio(res.fig("BULK_TX_P50_MS"), res.fig("BULK_API_P50_MS")))
	info("product GET hydrated: REST / gRPC", ratio(res.fig("product_get_hydrated_rest_rps"), res.fig("product_get_hydrated_grpc_rps")))
	info("search REST req/s / pgbench same SQL tps", ratio(res.fig("search_rest_rps"), pg["pgbench_search"].fig()))
	info("offset page / keyset page at the same depth (p50)", ratio(res.fig("search_offset_page_p50_ms"), res.fig("search_keyset_deep_p50_ms")))

	// Whatever else bench/webhooks reported, as it wrote it.
	var more []string
	for k, v := range res.m {
		if strings.HasPrefix(k, "webhook_") && !res.used[k] {
			more = append(more, k+"="+v)
		}
	}
	if len(more) > 0 {
		slices.Sort(more)
		pf("\nother figures of bench/webhooks (webhooks.env):\n  %s\n", strings.Join(more, "\n  "))
	}
	fmt.Print(b.String())
	return os.WriteFile(filepath.Join(dir, "latest.txt"), []byte(b.String()), 0o644)
}

// right pads s on the left to w columns (fmt counts bytes, and µs is two bytes for one column).
func right(s string, w int) string {
	return strings.Repeat(" ", max(0, w-utf8.RuneCountInString(s))) + s
}
