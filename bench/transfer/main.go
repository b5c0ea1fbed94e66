// Command transfer measures imports and exports on a real catalogd (`make bench` step import): the
// one at -base (run.sh starts `catalogd serve` on a fresh database and gives its pid and its
// database, so that the figures include catalogd's RSS and the database's CPU):
//
//  1. generates -lines product lines (issue 26: a family with a variant axis, a tenth of the
//     products variant parents and the rest their variants, each with 2 categories, 1 tag, 4
//     values in 2 locales and, for variants, their axis term) after the structure lines they use,
//     into a temporary file;
//  2. imports it into an empty tenant (create with size and SHA-256, PUT to the upload URL,
//     start), polling its progress: lines/s, the database's CPU, catalogd's peak RSS;
//  3. imports the same file again: lines/s and the resource events it emitted (none is right);
//  4. exports the tenant (NDJSON): products/s while the export runs (its startedAt to finishedAt),
//     the time from the request to its completion seen, the file's size;
//  5. the reference: the product rows the import wrote (products, their links, attributes, terms
//     and values) loaded by COPY into the same tables for another tenant, with PostgreSQL's
//     triggers and foreign keys off (session_replication_role replica): lines/s of PostgreSQL alone.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/bench/measure"
)

var (
	base   = flag.String("base", "", "REST base URL of a running catalogd")
	dbURL  = flag.String("db", "", "the catalogd's database (for the COPY reference and the event count)")
	lines  = flag.Int("lines", 1_000_000, "product lines to import")
	procs  = measure.ProcFlags() // -server-pid, -pg-pid
	tokens = measure.TokenFlags("catalogd-bench")
	out    = flag.String("out", "", "also write the figures as key=value lines to this file")
)

var figures measure.Figures

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/transfer:", err)
		os.Exit(1)
	}
}

type obj = map[string]any

func run() error {
	if *base == "" || *dbURL == "" {
		return fmt.Errorf("-base and -db are required")
	}
	if err := tokens.Check(); err != nil {
		return err
	}
	tenant := fmt.Sprintf("bench-transfer-%d", time.Now().Unix())
	tok, err := tokens.Mint(tenant, "bench", []string{"catalog:read", "catalog:write"}, 24*time.Hour)
	if err != nil {
		return err
	}
	a := &measure.API{Base: *base, Token: tok, HTTP: &http.Client{Timeout: 10 * time.Minute}}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, *dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)

	path, size, sum, err := generate(*lines)
	if err != nil {
		return err
	}
	defer os.Remove(path)
	fmt.Printf("file: %d product lines (+ structure), %.1f MB\n", *lines, float64(size)/1e6)

	events := func() (n int64) {
		_ = conn.QueryRow(ctx, `SELECT count(*) FROM events WHERE tenant_id = $1 AND type NOT LIKE 'import.%' AND type NOT LIKE 'export.%'`, tenant).Scan(&n)
		return n
	}
	first, err := importFile(a, path, size, sum)
	if err != nil {
		return err
	}
	report("import", first, *lines)
	before := events()
	again, err := importFile(a, path, size, sum)
	if err != nil {
		return err
	}
	report("reimport", again, *lines)
	emitted := events() - before
	fmt.Printf("reimport: %d resource events emitted (0 expected); %.1fx the first import's rate\n", emitted, again.rate/first.rate)
	figures.Put("reimport_events", emitted)
	figures.Put("reimport_speedup", fmt.Sprintf("%.1f", again.rate/first.rate))

	exp, err := exportAll(a)
	if err != nil {
		return err
	}
	// The rate of issue 26's goal is the export's own (runTime).
	fmt.Printf("export: %d lines written in %.2f s: %.0f products/s (startedAt to finishedAt); %.1f s from the request to the bench seeing it completed; %.1f MB; catalogd peak RSS %.0f MB; database CPU %.1f s\n",
		exp.items, exp.running.Seconds(), float64(exp.items)/exp.running.Seconds(), exp.elapsed.Seconds(), float64(exp.size)/1e6, exp.rssMB, exp.pgCPU.Seconds())
	figures.Put("export_products_per_s", fmt.Sprintf("%.0f", float64(exp.items)/exp.running.Seconds()))
	figures.Put("export_end_to_end_s", fmt.Sprintf("%.2f", exp.elapsed.Seconds()))
	figures.Put("export_rss_mb", fmt.Sprintf("%.0f", exp.rssMB))

	copyRate, err := copyReference(ctx, conn, tenant, *lines)
	if err != nil {
		return err
	}
	fmt.Printf("COPY reference: the same product rows in %.0f lines/s; the import reaches %.3fx of it\n", copyRate, first.rate/copyRate)
	figures.Put("copy_lines_per_s", fmt.Sprintf("%.0f", copyRate))
	figures.Put("import_vs_copy", fmt.Sprintf("%.3f", first.rate/copyRate))
	if *out != "" {
		return figures.Write(*out)
	}
	return nil
}

// generate writes the file: structure, then parents before their variants.
func generate(n int) (string, int64, string, error) {
	f, err := os.CreateTemp("", "catalogd-bench-import-*.ndjson")
	if err != nil {
		return "", 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	colors := []string{"red", "blue", "green", "black", "white", "grey", "brown", "pink", "yellow"}
	var terms []string
	for _, c := range colors {
		terms = append(terms, fmt.Sprintf(`{"code":%q}`, c))
	}
	fmt.Fprintln(w, `{"type":"locale","code":"de-DE"}`)
	fmt.Fprintln(w, `{"type":"locale","code":"en-GB"}`)
	fmt.Fprintln(w, `{"type":"typeGroup","code":"main","entityType":"product"}`)
	fmt.Fprintln(w, `{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}`)
	fmt.Fprintln(w, `{"type":"inputType","code":"description","typeGroup":"main","dataType":"text","isLocalizable":true}`)
	fmt.Fprintf(w, `{"type":"attribute","code":"color","status":"published","terms":[%s]}`+"\n", strings.Join(terms, ","))
	fmt.Fprintln(w, `{"type":"family","code":"footwear","attributes":[{"attribute":"color","appliesTo":"variant","isVariantAxis":true}]}`)
	for i := range 100 {
		fmt.Fprintf(w, `{"type":"category","code":"cat-%d"}`+"\n", i)
	}
	for i := range 10 {
		fmt.Fprintf(w, `{"type":"tag","code":"tag-%d"}`+"\n", i)
	}
	values := func(i int) string {
		return fmt.Sprintf(`[{"inputType":"title","locale":"de-DE","value":"Stiefel %d"},{"inputType":"title","locale":"en-GB","value":"Boot %d"},`+
			`{"inputType":"description","locale":"de-DE","value":"Ein Stiefel"},{"inputType":"description","locale":"en-GB","value":"A boot"}]`, i, i)
	}
	for i := range n {
		parent := i - i%10
		common := fmt.Sprintf(`"family":"footwear","categories":["cat-%d","cat-%d"],"tags":["tag-%d"],"values":%s`, i%100, (i+1)%100, i%10, values(i))
		if i%10 == 0 {
			fmt.Fprintf(w, `{"type":"product","code":"P-%07d","kind":"variant_parent",%s}`+"\n", i, common)
		} else {
			fmt.Fprintf(w, `{"type":"product","code":"P-%07d","kind":"variant","parent":"P-%07d","attributes":{"color":[%q]},%s}`+"\n",
				i, parent, colors[i%10-1], common)
		}
	}
	if err := w.Flush(); err != nil {
		return "", 0, "", err
	}
	st, err := f.Stat()
	if err != nil {
		return "", 0, "", err
	}
	return f.Name(), st.Size(), hex.EncodeToString(h.Sum(nil)), nil
}

// run is one timed job.
type result struct {
	elapsed            time.Duration
	rate, rssMB        float64
	pgCPU, serverCPU   time.Duration
	created, unchanged int64
	items, size        int64
	running            time.Duration // an export's startedAt to finishedAt
}

// watch samples catalogd's RSS until stop is closed; the peak in MB.
func watch(stop chan struct{}) func() float64 {
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if kb, _ := measure.StatusKB(procs.Server, "VmRSS"); kb > peak.Load() {
				peak.Store(kb)
			}
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	return func() float64 { <-done; return float64(peak.Load()) / 1024 }
}

// importFile uploads the file and waits for its import.
func importFile(a *measure.API, path string, size int64, sum string) (result, error) {
	var created struct {
		Import        obj               `json:"import"`
		UploadURL     string            `json:"uploadUrl"`
		UploadHeaders map[string]string `json:"uploadHeaders"`
	}
	if err := a.Call("POST", "/v1/imports", obj{"format": "ndjson", "sizeBytes": size, "checksumSha256": sum, "fileName": "bench.ndjson"}, &created); err != nil {
		return result{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return result{}, err
	}
	req, _ := http.NewRequest("PUT", created.UploadURL, f)
	req.ContentLength = size
	for k, v := range created.UploadHeaders {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	f.Close()
	if err != nil {
		return result{}, err
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		return result{}, fmt.Errorf("upload: %s", res.Status)
	}
	id, _ := created.Import["uuid"].(string)
	stop := make(chan struct{})
	peak := watch(stop)
	cpu0, t0 := measure.SampleCPU(*procs), time.Now()
	if err := a.Call("PATCH", "/v1/imports/"+id+"/actions/lifecycle", obj{"transition": "start"}, nil); err != nil {
		return result{}, err
	}
	var imp obj
	for {
		time.Sleep(time.Second)
		if err := a.Call("GET", "/v1/imports/"+id, nil, &imp); err != nil {
			return result{}, err
		}
		if s := imp["status"]; s == "completed" || s == "failed" || s == "cancelled" {
			break
		}
		if time.Since(t0) > 24*time.Hour {
			return result{}, fmt.Errorf("import %s not finished after a day", id)
		}
	}
	elapsed := time.Since(t0)
	close(stop)
	cpu := measure.SampleCPU(*procs).Sub(cpu0)
	r := result{elapsed: elapsed, rssMB: peak(), pgCPU: cpu.Postgres, serverCPU: cpu.Server}
	if imp["status"] != "completed" || imp["failedCount"] != float64(0) {
		return r, fmt.Errorf("import %s: %v", id, imp)
	}
	r.created, r.unchanged = int64(imp["createdCount"].(float64)), int64(imp["unchangedCount"].(float64))
	if r.running, err = runTime("import "+id, imp); err != nil {
		return r, err
	}
	r.rate = float64(*lines) / r.running.Seconds()
	return r, nil
}

// runTime is how long a job ran: its startedAt to its finishedAt. The rates are of that time: the
// time to the end also holds the wait for a worker's poll (up to a second) and this client's
// polling (up to a second), as long as a re-import of 20 000 lines takes.
func runTime(job string, j obj) (time.Duration, error) {
	started, err1 := time.Parse(time.RFC3339Nano, fmt.Sprint(j["startedAt"]))
	finished, err2 := time.Parse(time.RFC3339Nano, fmt.Sprint(j["finishedAt"]))
	if err := errors.Join(err1, err2); err != nil || !finished.After(started) {
		return 0, fmt.Errorf("%s: startedAt %v, finishedAt %v: %v", job, j["startedAt"], j["finishedAt"], err)
	}
	return finished.Sub(started), nil
}

func report(name string, r result, n int) {
	fmt.Printf("%s: %d lines in %.2f s (startedAt to finishedAt; %.1f s from the start request to the bench seeing it completed): %.0f lines/s (created %d, unchanged %d); "+
		"database CPU %.1f s (%.0f%% of the wall time), %.2f ms a line; catalogd CPU %.1f s, %.2f ms a line; catalogd peak RSS %.0f MB\n",
		name, n, r.running.Seconds(), r.elapsed.Seconds(), r.rate, r.created, r.unchanged, r.pgCPU.Seconds(), 100*r.pgCPU.Seconds()/r.elapsed.Seconds(),
		1000*r.pgCPU.Seconds()/float64(n), r.serverCPU.Seconds(), 1000*r.serverCPU.Seconds()/float64(n), r.rssMB)
	figures.Put(name+"_server_cpu_s", fmt.Sprintf("%.1f", r.serverCPU.Seconds()))
	figures.Put(name+"_lines_per_s", fmt.Sprintf("%.0f", r.rate))
	figures.Put(name+"_pg_cpu_s", fmt.Sprintf("%.1f", r.pgCPU.Seconds()))
	figures.Put(name+"_rss_mb", fmt.Sprintf("%.0f", r.rssMB))
}

// exportAll exports the tenant as NDJSON, waits for it and downloads it.
func exportAll(a *measure.API) (result, error) {
	stop := make(chan struct{})
	peak := watch(stop)
	cpu0, t0 := measure.SampleCPU(*procs), time.Now()
	var exp obj
	if err := a.Call("POST", "/v1/exports", obj{"format": "ndjson"}, &exp); err != nil {
		return result{}, err
	}
	id, _ := exp["uuid"].(string)
	for exp["status"] != "completed" {
		time.Sleep(500 * time.Millisecond)
		if err := a.Call("GET", "/v1/exports/"+id, nil, &exp); err != nil {
			return result{}, err
		}
		if exp["status"] == "failed" || exp["status"] == "cancelled" {
			return result{}, fmt.Errorf("export %s: %v", id, exp)
		}
	}
	elapsed := time.Since(t0)
	close(stop)
	r := result{elapsed: elapsed, rssMB: peak(), pgCPU: measure.SampleCPU(*procs).Sub(cpu0).Postgres,
		items: int64(exp["itemCount"].(float64)), size: int64(exp["sizeBytes"].(float64))}
	var err error
	if r.running, err = runTime("export "+id, exp); err != nil {
		return r, err
	}
	res, err := http.Get(exp["downloadUrl"].(string))
	if err != nil {
		return r, err
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	if err != nil || n != r.size {
		return r, fmt.Errorf("download: %d of %d bytes, %v", n, r.size, err)
	}
	return r, nil
}

// copyTables are the tables a product line's rows go to.
var copyTables = []string{"products", "product_links", "product_attributes", "product_terms", "product_input_values"}

// copyReference copies the tenant's product rows out (untimed), then loads them by COPY for a new
// tenant with triggers and foreign keys off (timed): product lines per second of PostgreSQL alone.
func copyReference(ctx context.Context, conn *pgx.Conn, tenant string, n int) (float64, error) {
	other := tenant + "-copy"
	type table struct {
		name string
		cols []string
		data bytes.Buffer
	}
	var tables []*table
	for _, name := range copyTables {
		t := &table{name: name}
		rows, err := conn.Query(ctx, `SELECT column_name FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`, name)
		if err != nil {
			return 0, err
		}
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				return 0, err
			}
			t.cols = append(t.cols, c)
		}
		if err := rows.Err(); err != nil {
			return 0, err
		}
		sel := make([]string, len(t.cols))
		for i, c := range t.cols {
			sel[i] = pgx.Identifier{c}.Sanitize()
			if c == "tenant_id" {
				sel[i] = "'" + other + "'::text"
			}
		}
		q := fmt.Sprintf("COPY (SELECT %s FROM %s WHERE tenant_id = '%s') TO STDOUT", strings.Join(sel, ", "), pgx.Identifier{name}.Sanitize(), tenant)
		if _, err := conn.PgConn().CopyTo(ctx, &t.data, q); err != nil {
			return 0, err
		}
		tables = append(tables, t)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
		return 0, err
	}
	t0 := time.Now()
	for _, t := range tables {
		cols := make([]string, len(t.cols))
		for i, c := range t.cols {
			cols[i] = pgx.Identifier{c}.Sanitize()
		}
		q := fmt.Sprintf("COPY %s (%s) FROM STDIN", pgx.Identifier{t.name}.Sanitize(), strings.Join(cols, ", "))
		if _, err := tx.Conn().PgConn().CopyFrom(ctx, bytes.NewReader(t.data.Bytes()), q); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, err
	}
	elapsed := time.Since(t0)
	fmt.Printf("COPY reference: %s rows of %d product lines in %.1f s\n", strings.Join(copyTables, ", "), n, elapsed.Seconds())
	return float64(n) / elapsed.Seconds(), nil
}
