// Command load drives a running catalogd for `make bench` (bench/run.sh; see bench/README.md).
//
// It seeds one tenant through the REST API, measures bulk create against COPY on the same table,
// GET by uuid (REST and gRPC) and two list pages under concurrent load, and writes the list SQL the
// service runs as pgbench scripts so run.sh can replay exactly that SQL. Figures go to stdout and
// to <out>/load.env; `load -summary` (summary.go) joins them with the pgbench results.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/bench/measure"
	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/store"
)

var (
	base     = flag.String("base", "http://127.0.0.1:8080", "REST base URL of catalogd")
	grpcAddr = flag.String("grpc", "127.0.0.1:9090", "gRPC address of catalogd")
	dbURL    = flag.String("db", "", "URL of catalogd's database (COPY, reference SQL, EXPLAIN)")
	tokens   = measure.TokenFlags("catalogd-bench")
	tenant   = flag.String("tenant", "bench", "tenant seeded and read")
	items    = flag.Int("items", 100_000, "attributes to seed (multiple of 100)")
	seedConc = flag.Int("seed-clients", 4, "concurrent bulk requests while seeding")
	bulkN    = flag.Int("bulk-n", 200, "sequential 100-item batches per method in the bulk vs COPY run")
	clients  = flag.Int("clients", 4, "concurrent clients of the timed runs")
	duration = flag.Duration("duration", 10*time.Second, "length of each timed run (plus 1 s warm-up)")
	procs    = measure.ProcFlags() // -server-pid, -pg-pid: whose CPU time per request to report
	outDir   = flag.String("out", "bench/results", "directory for load.env, the pgbench scripts and explain.txt")
	summary  = flag.Bool("summary", false, "print the summary table of the results in -out and exit")
	profBulk = flag.String("profile-bulk", "", "instead of the load: run catalogd in this process on a fresh database of TEST_DATABASE_URL, seed -items, profile -bulk-n REST bulk creates of 100 into this CPU profile, and print pg_stat_statements per bulk (profile.go)")
)

// The term of the contains filter: exactly one word of the list holds it, so it matches ~1 % of codes.
const term = "voltage"

var words = strings.Fields(`color size material weight width height depth length brand model pattern
finish style fit gender season voltage wattage capacity diameter thickness flavor scent volume
texture shape origin warranty connector resolution storage memory processor battery screen lens
sensor speed power torque fabric lining sole heel collar sleeve neckline closure pocket strap
buckle zipper button hood cuff waist inseam rise cup band grade purity karat gemstone setting clasp
chain pendant dial bezel movement crystal caseback frequency impedance driver cable plug socket
bulb lumen kelvin beam mount thread gauge tension grip handle blade edge nib ink paper binding
cover format language region rating age`)

func main() {
	flag.Parse()
	log.SetFlags(0)
	if *summary {
		if err := printSummary(*outDir); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *profBulk != "" {
		if err := profileBulk(context.Background(), *profBulk); err != nil {
			log.Fatal("load: ", err)
		}
		return
	}
	if err := run(context.Background()); err != nil {
		log.Fatal("load: ", err)
	}
}

// env collects the figures written to load.env, in order.
var env measure.Figures

func put(k string, v any) { env.Put(k, v) }

func run(ctx context.Context) error {
	if *items%100 != 0 || *items < 100 {
		return fmt.Errorf("-items must be a multiple of 100")
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, *dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	var version string
	_ = pool.QueryRow(ctx, "SHOW server_version").Scan(&version)
	put("CLIENTS", *clients)
	put("DURATION_S", duration.Seconds())
	put("ITEMS", *items)
	put("PG_VERSION", strconv.Quote(version))
	api := newREST(*tenant)

	// a. Seed through POST /v1/attributes/bulk, then move a share through the lifecycle.
	_, ids, err := seed(ctx, api, pool)
	if err != nil {
		return err
	}
	// Fresh statistics and visibility map (autovacuum would get there too, at a random moment), and
	// no checkpoint debt from the seed in the middle of the timed runs.
	settle := func(sql ...string) error {
		for _, q := range append(sql, "VACUUM (ANALYZE) attributes", "VACUUM (ANALYZE) events", "CHECKPOINT") {
			if _, err := pool.Exec(ctx, q); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return nil
	}
	if err := settle(); err != nil {
		return err
	}

	// b. Bulk create of 100: REST vs COPY vs the service's SQL. Their rows (other tenants) are then
	// deleted so that the reads below, and pgbench, see the seeded tenant alone.
	if err := bulkVsCopy(ctx, pool); err != nil {
		return err
	}
	others := "tenant_id IN ('apibench', 'copybench', 'sqlbench', 'txbench', " + measure.Quote(sentinel) + ")"
	if err := settle("DELETE FROM attributes WHERE "+others, "DELETE FROM events WHERE "+others); err != nil {
		return err
	}

	// c. GET by uuid, REST and gRPC; plus the helper table of pgbench's primary-key script.
	if err := pkScript(ctx, pool, len(ids)); err != nil {
		return err
	}
	conn, err := grpc.NewClient(*grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	gctx := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+api.tok)
	attrs := pb.NewAttributeServiceClient(conn)
	fmt.Printf("\n== c. GET by uuid, %d clients, %s each\n", *clients, *duration)
	// The timed REST runs use the thin client (measure.RawHTTP), as pgbench is for SQL; GET_REST_STDLIB
	// is the same GET through net/http's client, whose own CPU the two cores also pay.
	raw, err := measure.NewRawHTTP(*base, api.tok)
	if err != nil {
		return err
	}
	defer raw.Close()
	rawGet := func(path string) error { _, err := raw.Get(path, 200); return err }
	timed("GET_REST", "REST GET /v1/attributes/{uuid}", func(r *rand.Rand) error {
		return rawGet("/v1/attributes/" + ids[r.IntN(len(ids))])
	})
	timed("GET_REST_STDLIB", "REST GET /v1/attributes/{uuid}, net/http's client", func(r *rand.Rand) error {
		return api.do("GET", "/v1/attributes/"+ids[r.IntN(len(ids))], nil, 200, nil)
	})
	timed("GET_GRPC", "gRPC GetAttribute", func(r *rand.Rand) error {
		_, err := attrs.GetAttribute(gctx, &pb.GetAttributeRequest{AttributeUuid: ids[r.IntN(len(ids))]})
		return err
	})

	// d, e. List pages: REST (and gRPC) under load, the SQL the service runs, pgbench scripts, plans.
	shapes := []struct {
		key, path string
		req       *pb.ListAttributesRequest
		grpc      bool
	}{
		{"LIST_A", "/v1/attributes?statuses[eq]=published&code[contains]=" + term + "&size=20",
			&pb.ListAttributesRequest{Statuses: &pb.StringsFilter{Eq: []string{"published"}},
				Code: &pb.StringFilter{Contains: proto.String(term)}, Size: proto.Int32(20)}, true},
		{"LIST_B", "/v1/attributes?statuses[eq]=draft&code[order]=asc&size=50",
			&pb.ListAttributesRequest{Statuses: &pb.StringsFilter{Eq: []string{"draft"}}, Size: proto.Int32(50),
				OrderBy: []*pb.OrderBy{{Field: "code", Direction: pb.SortDirection_SORT_DIRECTION_ASC}}}, false},
	}
	explain, err := os.Create(filepath.Join(*outDir, "explain.txt"))
	if err != nil {
		return err
	}
	defer explain.Close()
	for _, s := range shapes {
		q, err := catalog.AttributeList.Build(*tenant, s.req)
		if err != nil {
			return err
		}
		fmt.Printf("\n== d/e. %s: GET %s\n", s.key, s.path)
		put(s.key+"_PATH", strconv.Quote(s.path))
		var page struct {
			Items      []json.RawMessage `json:"items"`
			Pagination struct {
				TotalItems int `json:"totalItems"`
			} `json:"pagination"`
		}
		if err := api.do("GET", s.path, nil, 200, &page); err != nil {
			return err
		}
		var total int
		if err := pool.QueryRow(ctx, q.CountSQL, q.Args...).Scan(&total); err != nil {
			return err
		}
		fmt.Printf("page of %d items, totalItems %d (the count SQL gives %d)\n", len(page.Items), page.Pagination.TotalItems, total)
		fmt.Printf("SQL the service runs (one pipelined batch):\n  %s;\n  %s;\n", measure.Literal(q.SQL, q.Args), measure.Literal(q.CountSQL, q.Args))
		if err := writeScripts(strings.ToLower(s.key), q.SQL, q.CountSQL, q.Args); err != nil {
			return err
		}
		if err := explainPlans(ctx, pool, explain, s.key, q.SQL, q.CountSQL, q.Args); err != nil {
			return err
		}
		timed(s.key+"_REST", "REST GET "+s.path, func(*rand.Rand) error { return rawGet(s.path) })
		if s.grpc {
			timed(s.key+"_GRPC", "gRPC ListAttributes", func(*rand.Rand) error {
				_, err := attrs.ListAttributes(gctx, s.req)
				return err
			})
		}
	}
	return env.Write(filepath.Join(*outDir, "load.env"))
}

// --- REST ----------------------------------------------------------------------------------------

type rest struct {
	tok string
	c   *http.Client
}

func newREST(tenant string) *rest {
	tok, err := tokens.Mint(tenant, "bench", []string{"catalog:read", "catalog:write"}, 2*time.Hour)
	if err != nil {
		log.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64, DisableCompression: true}
	return &rest{tok: tok, c: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// do sends a request and checks the status; out, when given, receives the decoded JSON body.
func (a *rest) do(method, path string, body any, want int, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, *base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+a.tok)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := a.c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: status %d: %.300s", method, path, res.StatusCode, raw)
	}
	if r, ok := out.(*[]byte); ok {
		*r = raw
		return nil
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

type attrCreate struct {
	Code        string  `json:"code"`
	DisplayName *string `json:"displayName,omitempty"`
}

// bulkCreate posts one batch and returns the uuids in request order.
func (a *rest) bulkCreate(batch []attrCreate) ([]string, error) {
	var out []struct {
		UUID string `json:"uuid"`
	}
	if err := a.do("POST", "/v1/attributes/bulk", batch, 201, &out); err != nil {
		return nil, err
	}
	if len(out) != len(batch) {
		return nil, fmt.Errorf("bulk create returned %d items for %d", len(out), len(batch))
	}
	ids := make([]string, len(out))
	for i, o := range out {
		ids[i] = o.UUID
	}
	return ids, nil
}

// --- a. seed -------------------------------------------------------------------------------------

func seed(ctx context.Context, api *rest, pool *pgxpool.Pool) (codes, ids []string, err error) {
	n := *items
	rng := rand.New(rand.NewPCG(1, 2))
	codes = make([]string, n)
	batches := make([][]attrCreate, n/100)
	for i := range n {
		w := words[rng.IntN(len(words))]
		codes[i] = fmt.Sprintf("attr-%06d-%s", i, w)
		c := attrCreate{Code: codes[i]}
		if rng.IntN(2) == 0 { // half carry a display name, the others default to the code
			dn := strings.ToUpper(w[:1]) + w[1:] + " " + strconv.Itoa(i)
			c.DisplayName = &dn
		}
		batches[i/100] = append(batches[i/100], c)
	}
	ids = make([]string, n)
	fmt.Printf("== a. seeding %d attributes for tenant %q: %d bulk requests of 100, %d concurrent\n", n, *tenant, len(batches), *seedConc)
	lat, elapsed, err := parallel(len(batches), *seedConc, func(b int) error {
		got, err := api.bulkCreate(batches[b])
		copy(ids[b*100:], got)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	p50, p99, _ := measure.Pct(lat)
	rate := float64(n) / elapsed.Seconds()
	fmt.Printf("bulk create: %.0f items/s (%.1f s); per 100-item request p50 %.1f ms, p99 %.1f ms\n", rate, elapsed.Seconds(), p50, p99)
	put("SEED_ITEMS_PER_S", rate)
	put("SEED_P50_MS", p50)
	put("SEED_P99_MS", p99)

	// Lifecycle mix: 35 % published (10 % of all then unpublished), 5 % removed, 60 % draft.
	var publish, unpublish, remove []string
	for _, id := range ids {
		switch x := rng.Float64(); {
		case x < 0.35:
			publish = append(publish, id)
			if x < 0.10 {
				unpublish = append(unpublish, id)
			}
		case x < 0.40:
			remove = append(remove, id)
		}
	}
	start := time.Now()
	var all []time.Duration
	for _, step := range []struct {
		t   string
		ids []string
	}{{"publish", publish}, {"unpublish", unpublish}, {"remove", remove}} {
		nb := (len(step.ids) + 99) / 100
		lat, _, err := parallel(nb, *seedConc, func(b int) error {
			part := step.ids[b*100 : min(len(step.ids), b*100+100)]
			return api.do("PATCH", "/v1/attributes/bulk/actions/lifecycle", map[string]any{"transition": step.t, "uuids": part}, 200, nil)
		})
		if err != nil {
			return nil, nil, err
		}
		all = append(all, lat...)
	}
	p50, p99, _ = measure.Pct(all)
	fmt.Printf("lifecycle: %d PATCH /v1/attributes/bulk/actions/lifecycle in %.1f s; p50 %.1f ms, p99 %.1f ms\n",
		len(all), time.Since(start).Seconds(), p50, p99)
	put("LIFECYCLE_P50_MS", p50)
	put("LIFECYCLE_P99_MS", p99)

	rows, err := pool.Query(ctx, "SELECT status, count(*) FROM attributes WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1", *tenant)
	if err != nil {
		return nil, nil, err
	}
	var mix []string
	for rows.Next() {
		var s string
		var c int
		if err := rows.Scan(&s, &c); err != nil {
			return nil, nil, err
		}
		mix = append(mix, fmt.Sprintf("%s %d", s, c))
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	matches := 0
	for _, c := range codes {
		if strings.Contains(c, term) {
			matches++
		}
	}
	fmt.Printf("statuses: %s; code[contains]=%s matches %d codes (%.2f %%)\n", strings.Join(mix, ", "), term, matches, 100*float64(matches)/float64(n))
	return codes, ids, nil
}

// parallel runs job(0..n-1) on conc workers, returning each job's latency and the wall time.
func parallel(n, conc int, job func(int) error) ([]time.Duration, time.Duration, error) {
	var next atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					break
				}
				t := time.Now()
				if err := job(i); err != nil {
					mu.Lock()
					firstErr = measure.FirstErr(firstErr, err)
					mu.Unlock()
					next.Store(int64(n)) // stop everyone
					break
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return lat, time.Since(start), firstErr
}

// --- b. bulk create vs COPY ----------------------------------------------------------------------

// sentinel is a tenant after every tenant of the bulk comparison, with a row in attributes and in
// events: the B-tree indexes that start with tenant_id take an insert at their rightmost leaf by a
// fast path, which would favour whichever method's tenant sorts last ("txbench"; in an experiment
// the service's transaction ran up to 0.8 ms per batch faster under the last tenant name).
const sentinel = "zzzz-sentinel"

// bulkVsCopy times, interleaved round by round so that table growth and checkpoints hit every
// method alike, 100-row batches into attributes: the REST bulk create, COPY, the service's INSERT ...
// unnest alone, and the service's whole transaction (insert, events, commit) straight on pgx. The
// service's statements are those of a create without a conflict (crud.Plain: its first attempt).
func bulkVsCopy(ctx context.Context, pool *pgxpool.Pool) error {
	c, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	conn := c.Conn()
	q := db.New(crud.Plain(conn))
	if _, err := q.InsertAttributes(ctx, db.InsertAttributesParams{TenantID: sentinel, Uuids: []uuid.UUID{uuid.Must(uuid.NewV7())},
		Codes: []string{"sentinel"}, DisplayNames: []string{"sentinel"}, Now: store.Now()}); err != nil {
		return err
	}
	if err := events.Record(ctx, q, sentinel, store.Now(), []events.Event{events.New("attribute.created", "attributeUuid", uuid.Nil.String())}); err != nil {
		return err
	}
	apiT := newREST("apibench")
	cols := []string{"tenant_id", "uuid", "code", "display_name", "status", "created_at", "updated_at"}
	batch := func(prefix string, r int) ([]uuid.UUID, []string) {
		ids, codes := make([]uuid.UUID, 100), make([]string, 100)
		for i := range ids {
			ids[i] = uuid.Must(uuid.NewV7())
			codes[i] = fmt.Sprintf("%s-%06d-%s", prefix, r*100+i, words[(r+i)%len(words)])
		}
		return ids, codes
	}
	methods := []struct {
		key, name string
		fn        func(r int) error
	}{
		{"BULK_API", "REST POST /v1/attributes/bulk (100 items)", func(r int) error {
			_, codes := batch("api", r)
			b := make([]attrCreate, len(codes))
			for i, c := range codes {
				b[i] = attrCreate{Code: c}
			}
			// The answer is checked by counting its items, as COPY's by its row count: decoding the
			// ~25 KB array with encoding/json costs this program ~0.23 ms per batch, which is the
			// client's time, not the service's.
			var raw []byte
			if err := apiT.do("POST", "/v1/attributes/bulk", b, 201, &raw); err != nil {
				return err
			}
			if n := bytes.Count(raw, []byte(`"uuid":`)); n != len(b) {
				return fmt.Errorf("bulk create answered %d items for %d", n, len(b))
			}
			return nil
		}},
		{"BULK_COPY", "pgx CopyFrom of 100 rows into attributes", func(r int) error {
			ids, codes := batch("copy", r)
			now := store.Now()
			rows := make([][]any, len(ids))
			for i := range ids {
				rows[i] = []any{"copybench", ids[i], codes[i], codes[i], "draft", now, now}
			}
			n, err := conn.CopyFrom(ctx, pgx.Identifier{"attributes"}, cols, pgx.CopyFromRows(rows))
			if err == nil && n != 100 {
				err = fmt.Errorf("COPY wrote %d rows", n)
			}
			return err
		}},
		{"BULK_SQL", "the service's INSERT ... SELECT unnest(...) alone (autocommit)", func(r int) error {
			ids, codes := batch("sql", r)
			_, err := q.InsertAttributes(ctx, db.InsertAttributesParams{TenantID: "sqlbench", Uuids: ids, Codes: codes, DisplayNames: codes, Now: store.Now()})
			return err
		}},
		{"BULK_TX", "the service's transaction: BEGIN with INSERT unnest, events with COMMIT (store.Pipe)", func(r int) error {
			ids, codes := batch("tx", r)
			tx := store.NewPipe(conn, nil, "BEGIN") // as DB.Tx: two round trips
			defer tx.Rollback(ctx)                  //nolint:errcheck
			now := store.Now()
			qt := db.New(crud.Plain(tx))
			if _, err := qt.InsertAttributes(ctx, db.InsertAttributesParams{TenantID: "txbench", Uuids: ids, Codes: codes, DisplayNames: codes, Now: now}); err != nil {
				return err
			}
			evs := make([]events.Event, len(ids))
			for i, id := range ids {
				evs[i] = events.New("attribute.created", "attributeUuid", id.String())
			}
			if err := events.RecordAtCommit(ctx, tx, "txbench", now, evs); err != nil {
				return err
			}
			return tx.Commit(ctx)
		}},
	}
	const warm = 10
	lat := make([][]time.Duration, len(methods))
	cpu0 := measure.SampleCPU(*procs) // only the REST method runs in catalogd
	for r := range *bulkN + warm {
		for m, meth := range methods {
			t := time.Now()
			if err := meth.fn(r); err != nil {
				return fmt.Errorf("%s: %w", meth.key, err)
			}
			if r >= warm {
				lat[m] = append(lat[m], time.Since(t))
			}
		}
	}
	cpu := measure.SampleCPU(*procs).Sub(cpu0)
	fmt.Printf("\n== b. bulk create of 100 rows, %d sequential batches per method (interleaved, after %d warm-up rounds)\n", *bulkN, warm)
	for m, meth := range methods {
		p50, p99, mean := measure.Pct(lat[m])
		fmt.Printf("%-10s mean %6.2f ms  p50 %6.2f ms  p99 %6.2f ms  %s\n", meth.key, mean, p50, p99, meth.name)
		put(meth.key+"_MS", mean)
		put(meth.key+"_P50_MS", p50)
		put(meth.key+"_P99_MS", p99)
	}
	perReq := float64(cpu.Server.Microseconds()) / 1000 / float64(*bulkN+warm)
	fmt.Printf("catalogd CPU per REST bulk request: %.2f ms\n", perReq)
	put("BULK_API_CPU_SERVER_MS", perReq)
	return nil
}

// --- c. helper table for pgbench's primary-key script ----------------------------------------------

func pkScript(ctx context.Context, pool *pgxpool.Pool, n int) error {
	lit := measure.Quote(*tenant)
	for _, s := range []string{
		"DROP TABLE IF EXISTS bench_ids",
		"CREATE TABLE bench_ids AS SELECT (row_number() OVER (ORDER BY uuid))::int AS n, uuid FROM attributes WHERE tenant_id = " + lit,
		"ALTER TABLE bench_ids ADD PRIMARY KEY (n)",
		"ANALYZE bench_ids",
	} {
		if _, err := pool.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	script := fmt.Sprintf("\\set n random(1, %d)\nSELECT * FROM attributes WHERE tenant_id = %s AND uuid = (SELECT uuid FROM bench_ids WHERE n = :n);\n", n, lit)
	return os.WriteFile(filepath.Join(*outDir, "get_pk.sql"), []byte(script), 0o644)
}

// --- d. timed runs -------------------------------------------------------------------------------

// timed runs op on -clients goroutines for a 1 s warm-up and then -duration, and reports
// throughput, latency and the CPU each process spent per request.
func timed(key, name string, op func(*rand.Rand) error) {
	r := measure.Timed(*clients, *duration, *procs, op)
	fmt.Printf("%-10s %8.0f req/s  p50 %6.2f ms  p99 %6.2f ms  CPU/req: catalogd %4.0f µs, postgres %4.0f µs, load %4.0f µs  %s\n",
		key, r.RPS(), r.P50, r.P99, r.PerOp(r.CPU.Server), r.PerOp(r.CPU.Postgres), r.PerOp(r.CPU.Self), name)
	if r.Errs > 0 {
		fmt.Printf("  %d errors, first: %v\n", r.Errs, r.FirstErr)
	}
	put(key+"_RPS", r.RPS())
	put(key+"_P50_MS", r.P50)
	put(key+"_P99_MS", r.P99)
	put(key+"_ERRORS", r.Errs)
	put(key+"_CPU_SERVER_US", r.PerOp(r.CPU.Server))
	put(key+"_CPU_PG_US", r.PerOp(r.CPU.Postgres))
}

// --- e. the list SQL: literal text, pgbench scripts, plans -----------------------------------------

func pgType(v any) string {
	switch v.(type) {
	case string:
		return "text"
	case []string:
		return "text[]"
	case time.Time:
		return "timestamptz"
	case bool:
		return "boolean"
	default:
		return "integer"
	}
}

// writeScripts writes <name>.sql (literal values) and <name>_param.sql (the parameterised SQL with
// pgbench variables, values in <name>_param.vars as -D options): both pipeline the page and count
// queries as the service's pgx batch does (one round trip).
func writeScripts(name, sql, countSQL string, args []any) error {
	lits := fmt.Sprintf("\\startpipeline\n%s;\n%s;\n\\endpipeline\n", measure.Literal(sql, args), measure.Literal(countSQL, args))
	toVar := func(s string) string { return measure.ParamRE.ReplaceAllString(s, ":p$1") }
	params := fmt.Sprintf("\\startpipeline\n%s;\n%s;\n\\endpipeline\n", toVar(sql), toVar(countSQL))
	var vars []string
	for i, a := range args {
		s, ok := a.(string)
		if !ok {
			return fmt.Errorf("%s: argument $%d is a %T, not a string: cannot pass it to pgbench -D", name, i+1, a)
		}
		vars = append(vars, fmt.Sprintf("-Dp%d=%s", i+1, s))
	}
	for f, body := range map[string]string{name + ".sql": lits, name + "_param.sql": params, name + "_param.vars": strings.Join(vars, "\n") + "\n"} {
		if err := os.WriteFile(filepath.Join(*outDir, f), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// explainPlans writes EXPLAIN (ANALYZE, BUFFERS) of the page and count queries into w: the literal
// SQL (planned for its values), and the parameterised SQL as a prepared statement forced onto its
// generic plan. It also runs the prepared statement 10 times the way pgx's statement cache does
// and reads from pg_prepared_statements whether PostgreSQL settled on the generic plan or keeps
// planning every execution. A summary line per query goes to stdout.
func explainPlans(ctx context.Context, pool *pgxpool.Pool, w io.Writer, key, sql, countSQL string, args []any) error {
	c, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	types := make([]string, len(args))
	vals := make([]string, len(args))
	for i, a := range args {
		types[i], vals[i] = pgType(a), measure.Lit(a)
	}
	exec := "EXECUTE bench_q(" + strings.Join(vals, ", ") + ")"
	// (Only bench_q is deallocated: pgx keeps its own prepared statements on this connection.)
	explain := func(stmt string) ([]string, error) {
		rows, err := c.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+stmt, pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			return nil, fmt.Errorf("EXPLAIN %s: %w", stmt, err)
		}
		return pgx.CollectRows(rows, pgx.RowTo[string])
	}
	timing := func(lines []string) string {
		var t []string
		for _, l := range lines {
			if strings.HasPrefix(l, "Planning Time") || strings.HasPrefix(l, "Execution Time") {
				t = append(t, strings.TrimSpace(strings.TrimSuffix(l, " ms")))
			}
		}
		return strings.Join(t, ", ") + " ms"
	}
	for _, q := range []struct{ what, sql string }{{"page", sql}, {"count", countSQL}} {
		custom, err := explain(measure.Literal(q.sql, args))
		if err != nil {
			return err
		}
		var generic []string
		var nGeneric, nCustom int64
		for _, s := range []string{"PREPARE bench_q(" + strings.Join(types, ", ") + ") AS " + q.sql} {
			if _, err := c.Exec(ctx, s); err != nil {
				return fmt.Errorf("%s: %w", s, err)
			}
		}
		for range 10 {
			if _, err := c.Exec(ctx, exec, pgx.QueryExecModeSimpleProtocol); err != nil {
				return err
			}
		}
		if err := c.QueryRow(ctx, "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'bench_q'").Scan(&nGeneric, &nCustom); err != nil {
			return err
		}
		if _, err := c.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
			return err
		}
		generic, err = explain(exec)
		for _, s := range []string{"RESET plan_cache_mode", "DEALLOCATE bench_q"} {
			_, _ = c.Exec(ctx, s)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "=== %s %s query, custom plan (literal values)\n%s\n\n", key, q.what, strings.Join(custom, "\n"))
		fmt.Fprintf(w, "=== %s %s query, generic plan (PREPARE bench_q(%s) AS <the service's SQL>; plan_cache_mode = force_generic_plan; %s)\n%s\n\n",
			key, q.what, strings.Join(types, ", "), exec, strings.Join(generic, "\n"))
		fmt.Fprintf(w, "=== %s %s query: after 10 EXECUTEs with plan_cache_mode = auto: %d generic, %d custom plans\n\n", key, q.what, nGeneric, nCustom)
		fmt.Printf("plan %-5s custom:  %s; %s\n", q.what, nodes(custom), timing(custom))
		fmt.Printf("plan %-5s generic: %s; %s; plan cache (auto, 10 runs): %d generic, %d custom\n", q.what, nodes(generic), timing(generic), nGeneric, nCustom)
	}
	return nil
}

// nodes summarises a plan as its scan nodes ("Index Scan using attributes_status", ...).
func nodes(lines []string) string {
	var out []string
	for _, l := range lines {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "->"))
		for _, k := range []string{"Index Only Scan", "Index Scan", "Bitmap Index Scan", "Seq Scan"} {
			if strings.HasPrefix(l, k) {
				if i := strings.Index(l, "  (cost"); i > 0 {
					l = l[:i]
				}
				out = append(out, strings.TrimSpace(l))
				break
			}
		}
	}
	return strings.Join(out, "; ")
}
