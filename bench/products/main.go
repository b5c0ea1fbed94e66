// Command products measures the product read and publication paths on a real catalogd: the one at
// -base (`make bench` runs `catalogd serve` on a fresh database and gives its pid, so that the
// figures include the CPU catalogd spends per request), or else one started in this process on a
// fresh database of the local PostgreSQL (apptest; -cpuprofile then profiles the service):
//
//   - the hydrated product GET: GET /v1/products/{uuid} with expand of every association, on
//     products that each have 20 attributes (a term each), 10 assets, 5 categories and 30 input
//     values (plus 2 tags, 2 relations, 3 publications), REST and gRPC, against the plain GET of
//     the same products;
//   - the bulk publication lifecycle of 100: one product published on 100 channels and unpublished
//     again, PATCH …/publications/bulk/actions/lifecycle with 100 uuids, including the readiness
//     gate of every publication (each channel requires an input type the product has).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/catalogd/catalogd/bench/measure"
	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/store"
)

var (
	nProducts  = flag.Int("products", 200, "hydrated products to seed (at least 5: each relates to the next two, and fewer would make some pairs twice)")
	clients    = flag.Int("clients", 4, "concurrent clients of the timed GET runs")
	duration   = flag.Duration("duration", 10*time.Second, "length of each timed GET run (plus 1 s warm-up)")
	bulkRuns   = flag.Int("bulk-runs", 30, "publish + unpublish rounds of 100 publications")
	cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of the hydrated REST GET run to this file (catalogd in process only)")
	each       = flag.Bool("each", false, "also time the GET with each association expanded alone")
	base       = flag.String("base", "", "REST base URL of a running catalogd (empty: start one in this process on a fresh database)")
	grpcAddr   = flag.String("grpc", "", "gRPC address of the catalogd at -base")
	procs      = measure.ProcFlags()                  // -server-pid (of the catalogd at -base), -pg-pid
	tokens     = measure.TokenFlags("catalogd-bench") // of the catalogd at -base
	tenant     = flag.String("tenant", "", "tenant seeded and read (empty: bench-products-<unix time>, so that a run never meets an earlier one's codes)")
	out        = flag.String("out", "", "also write the figures as key=value lines to this file (for the summary of make bench)")
	dbURL      = flag.String("db", "", "URL of the database of the catalogd at -base: ANALYZE once seeded (in process: its own database)")
	scripts    = flag.String("scripts", "", "write pgbench scripts of the SQL the hydrated GET and the hydrated list of 20 send to this directory (product_get_hydrated_NN.sql, product_list_hydrated_NN.sql)")
)

// figures go to -out.
var figures measure.Figures

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/products:", err)
		os.Exit(1)
	}
}

// api is the bench's JSON client (measure.API) with the bulk helper below.
type api struct{ measure.API }

func (a *api) do(method, path string, body, out any) error { return a.Call(method, path, body, out) }

type obj = map[string]any

type ref struct {
	UUID string `json:"uuid"`
}

// bulk creates items at path (1..100 per request) and returns their uuids in order.
func (a *api) bulk(path string, items []obj) ([]string, error) {
	var ids []string
	for len(items) > 0 {
		n := min(100, len(items))
		var out []ref
		if err := a.do("POST", path+"/bulk", items[:n], &out); err != nil {
			return nil, err
		}
		for _, o := range out {
			ids = append(ids, o.UUID)
		}
		items = items[n:]
	}
	return ids, nil
}

func many(n int, f func(i int) obj) []obj {
	out := make([]obj, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func run() error {
	if *nProducts < 5 {
		return fmt.Errorf("-products must be at least 5")
	}
	if *tenant == "" {
		*tenant = fmt.Sprintf("bench-products-%d", time.Now().Unix())
	}
	baseURL, token, conn, dsn, stop, err := service()
	if err != nil {
		return err
	}
	defer stop()
	a := &api{measure.API{Base: baseURL, Token: token,
		HTTP: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}, Timeout: 30 * time.Second}}}

	// The shared structure: 20 attributes, 10 assets of one featured asset type, 5 categories,
	// 2 tags, 30 text input types, a relation type, 100 channels.
	fmt.Printf("seeding %d products (20 attributes, 10 assets, 5 categories, 30 input values each)...\n", *nProducts)
	t0 := time.Now()
	attrs, err := a.bulk("/v1/attributes", many(20, func(i int) obj { return obj{"code": fmt.Sprintf("attr_%02d", i)} }))
	if err != nil {
		return err
	}
	terms := make([]string, len(attrs))
	for j, at := range attrs {
		var term ref
		if err := a.do("POST", "/v1/attributes/"+at+"/terms", obj{"code": "value"}, &term); err != nil {
			return err
		}
		terms[j] = term.UUID
	}
	var assetType, relType, group ref
	if err := a.do("POST", "/v1/product-asset-types", obj{"code": "images", "isFeaturedSource": true}, &assetType); err != nil {
		return err
	}
	if err := a.do("POST", "/v1/product-relation-types", obj{"code": "related", "direction": "two_way"}, &relType); err != nil {
		return err
	}
	if err := a.do("POST", "/v1/type-groups", obj{"code": "specs", "entityType": "product"}, &group); err != nil {
		return err
	}
	cats, err := a.bulk("/v1/categories", many(5, func(i int) obj { return obj{"code": fmt.Sprintf("cat_%d", i)} }))
	if err != nil {
		return err
	}
	tags, err := a.bulk("/v1/tags", many(2, func(i int) obj { return obj{"code": fmt.Sprintf("tag_%d", i)} }))
	if err != nil {
		return err
	}
	inputs, err := a.bulk("/v1/input-types", many(30, func(i int) obj {
		return obj{"code": fmt.Sprintf("spec_%02d", i), "dataType": "text", "typeGroupUuid": group.UUID}
	}))
	if err != nil {
		return err
	}
	channels, err := a.bulk("/v1/channels", many(100, func(i int) obj { return obj{"code": fmt.Sprintf("ch_%03d", i)} }))
	if err != nil {
		return err
	}
	products, err := a.bulk("/v1/products", many(*nProducts, func(i int) obj { return obj{"code": fmt.Sprintf("SKU-%05d", i), "kind": "simple"} }))
	if err != nil {
		return err
	}
	for i, p := range products {
		base := "/v1/products/" + p
		assets, err := a.bulk("/v1/assets", many(10, func(j int) obj { return obj{"code": fmt.Sprintf("img_%05d_%d", i, j), "category": "image"} }))
		if err != nil {
			return err
		}
		steps := []struct {
			path  string
			items []obj
		}{
			{"/attributes", many(20, func(j int) obj { return obj{"attributeUuid": attrs[j]} })},
			{"/assets", many(10, func(j int) obj {
				return obj{"assetUuid": assets[j], "productAssetTypeUuid": assetType.UUID, "displayPriority": 10 - j}
			})},
			{"/categories", many(5, func(j int) obj { return obj{"categoryUuid": cats[j]} })},
			{"/tags", many(2, func(j int) obj { return obj{"tagUuid": tags[j]} })},
			{"/input-values", many(30, func(j int) obj { return obj{"inputTypeUuid": inputs[j], "value": fmt.Sprintf("value %d of %s", j, p)} })},
			{"/relations", many(2, func(j int) obj {
				return obj{"productRelationTypeUuid": relType.UUID, "targetProductUuid": products[(i+1+j)%len(products)]}
			})},
			{"/publications", many(3, func(j int) obj { return obj{"channelUuid": channels[j]} })},
		}
		for _, s := range steps {
			ids, err := a.bulk(base+s.path, s.items)
			if err != nil {
				return err
			}
			if s.path != "/attributes" {
				continue
			}
			// Each product attribute's value: one term.
			for j, pa := range ids {
				if err := a.do("POST", base+"/attributes/"+pa+"/terms", obj{"termUuid": terms[j]}, nil); err != nil {
					return err
				}
			}
		}
	}
	fmt.Printf("seeded in %s\n", time.Since(t0).Round(time.Millisecond))
	// What autovacuum does within a minute of the seed, at a known moment (as bench/load does):
	// without statistics, the generic plans the hydrated GET's round keeps (store.GenericPlans)
	// are made for tables the planner believes empty, and the runs measured those plans (3.7–5.1
	// ms of PostgreSQL CPU per hydrated GET, where pgbench's same SQL, run after autovacuum, took
	// under 1 ms).
	if dsn != "" {
		if err := analyze(dsn); err != nil {
			return err
		}
	}

	all := "?expand[productAttributes]=true&expand[productAssets]=true&expand[productCategories]=true&expand[productTags]=true" +
		"&expand[inputValues]=true&expand[productRelations]=true&expand[publications]=true&expand[variants]=true"
	var sample map[string]any
	if err := a.do("GET", "/v1/products/"+products[0]+all, nil, &sample); err != nil {
		return err
	}
	raw, _ := json.Marshal(sample)
	figures.Put("product_hydrated_json_bytes", len(raw))
	count := func(k string) int { l, _ := sample[k].([]any); return len(l) }
	fmt.Printf("hydrated product: %d bytes of JSON; productAttributes %d, productAssets %d, productCategories %d, inputValues %d, productTags %d, productRelations %d, publications %d\n",
		len(raw), count("productAttributes"), count("productAssets"), count("productCategories"), count("inputValues"),
		count("productTags"), count("productRelations"), count("publications"))

	every := &pb.ProductInclude{ProductAttributes: true, ProductAssets: true, ProductCategories: true, ProductTags: true,
		InputValues: true, ProductRelations: true, Publications: true, Variants: true}
	if *scripts != "" {
		if err := writeScripts(a, products, every); err != nil {
			return err
		}
	}

	// The timed REST GETs go through the thin client (measure.RawHTTP), as bench/load's do.
	client, err := measure.NewRawHTTP(a.Base, a.Token)
	if err != nil {
		return err
	}
	defer client.Close()
	get := func(path string) error { _, err := client.Get(path, 200); return err }
	fmt.Printf("\n== hydrated product GET, %d clients, %s each\n", *clients, *duration)
	timed("product_get_plain", "GET plain      REST /v1/products/{uuid}", func(r *rand.Rand) error {
		return get("/v1/products/" + products[r.IntN(len(products))])
	})
	if *each {
		for _, x := range []string{"productAttributes", "productAssets", "productCategories", "productTags", "inputValues",
			"productRelations", "publications", "variants"} {
			timed("", "GET expand["+x+"] alone", func(r *rand.Rand) error {
				return get("/v1/products/" + products[r.IntN(len(products))] + "?expand[" + x + "]=true")
			})
		}
	}
	if *cpuProfile != "" { // catalogd runs in this process: the profile shows its CPU (and the client's)
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	timed("product_get_hydrated_rest", "GET hydrated   REST /v1/products/{uuid}?expand[...]=true (8 associations)", func(r *rand.Rand) error {
		return get("/v1/products/" + products[r.IntN(len(products))] + all)
	})
	pprof.StopCPUProfile()
	timed("product_get_hydrated_rest_stdlib", "GET hydrated   REST, net/http's client (as issue 32's starting point was measured)", func(r *rand.Rand) error {
		return a.do("GET", "/v1/products/"+products[r.IntN(len(products))]+all, nil, nil)
	})
	grpcc := pb.NewProductServiceClient(conn)
	gctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+a.Token)
	timed("product_get_hydrated_grpc", "GET hydrated   gRPC GetProduct with expand of every association", func(r *rand.Rand) error {
		_, err := grpcc.GetProduct(gctx, &pb.GetProductRequest{ProductUuid: products[r.IntN(len(products))], Expand: every})
		return err
	})
	timed("product_list_hydrated_rest", "LIST hydrated  REST /v1/products?size=20&expand[...]=true (20 products per page)", func(r *rand.Rand) error {
		return get(fmt.Sprintf("/v1/products%s&size=20&page=%d", all, 1+r.IntN(max(1, len(products)/20))))
	})

	// Bulk publication lifecycle: one product ready on 100 channels (each requires an input type it has).
	var group2, it, pub ref
	if err := a.do("POST", "/v1/type-groups", obj{"code": "pubs", "entityType": "product"}, &group2); err != nil {
		return err
	}
	if err := a.do("POST", "/v1/input-types", obj{"code": "title", "dataType": "text", "typeGroupUuid": group2.UUID}, &it); err != nil {
		return err
	}
	if err := a.do("POST", "/v1/products", obj{"code": "PUB-1", "kind": "simple"}, &pub); err != nil {
		return err
	}
	for _, ch := range channels {
		if err := a.do("POST", "/v1/channels/"+ch+"/input-types", obj{"inputTypeUuid": it.UUID, "requirementLevel": "required"}, nil); err != nil {
			return err
		}
	}
	base := "/v1/products/" + pub.UUID
	if err := a.do("POST", base+"/input-values", obj{"inputTypeUuid": it.UUID, "value": "Title"}, nil); err != nil {
		return err
	}
	if err := a.do("PATCH", base+"/actions/lifecycle", obj{"transition": "activate"}, nil); err != nil {
		return err
	}
	pubs, err := a.bulk(base+"/publications", many(100, func(j int) obj { return obj{"channelUuid": channels[j]} }))
	if err != nil {
		return err
	}
	var pubLat, unpubLat []time.Duration
	cpu0 := measure.SampleCPU(*procs)
	for i := 0; i < *bulkRuns; i++ {
		for _, step := range []struct {
			tr  string
			lat *[]time.Duration
		}{{"publish", &pubLat}, {"unpublish", &unpubLat}} {
			t := time.Now()
			var out []map[string]any
			if err := a.do("PATCH", base+"/publications/bulk/actions/lifecycle", obj{"transition": step.tr, "uuids": pubs}, &out); err != nil {
				return err
			}
			*step.lat = append(*step.lat, time.Since(t))
			if len(out) != 100 {
				return fmt.Errorf("bulk %s returned %d items", step.tr, len(out))
			}
		}
	}
	cpu := measure.SampleCPU(*procs).Sub(cpu0)
	fmt.Printf("\n== bulk publication lifecycle of 100 (readiness checked for each), %d rounds\n", *bulkRuns)
	report := func(key, name string, lat []time.Duration) {
		p50, p99, mean := measure.Pct(lat)
		fmt.Printf("%-46s p50 %7.2f ms  p99 %7.2f ms  mean %7.2f ms  (%.0f publications/s)\n", name, p50, p99, mean, 100/(mean/1000))
		figures.Put(key+"_p50_ms", p50)
		figures.Put(key+"_p99_ms", p99)
		figures.Put(key+"_mean_ms", mean)
	}
	report("product_bulk_publish", "PATCH …/publications/bulk/actions/lifecycle publish", pubLat)
	report("product_bulk_unpublish", "PATCH …/publications/bulk/actions/lifecycle unpublish", unpubLat)
	if procs.Server > 0 {
		perReq := float64(cpu.Server.Microseconds()) / 1000 / float64(2**bulkRuns)
		fmt.Printf("catalogd CPU per bulk lifecycle request of 100: %.2f ms\n", perReq)
		figures.Put("product_bulk_lifecycle_cpu_ms", perReq)
	}
	return figures.Write(*out)
}

// service returns the catalogd to measure: the one at -base, or one started in this process on a
// fresh database (dispatcher off: nothing here subscribes), with a token of -tenant and a gRPC
// connection; stop releases what it took.
func service() (baseURL, token string, conn *grpc.ClientConn, dsn string, stop func(), err error) {
	if *base == "" {
		env, err := apptest.Start(func(c *app.Config) { c.DisableDispatcher = true })
		if err != nil {
			return "", "", nil, "", nil, err
		}
		return env.BaseURL, apptest.Token(*tenant), env.GRPC, env.DBURL, env.Stop, nil
	}
	if *cpuProfile != "" {
		return "", "", nil, "", nil, fmt.Errorf("-cpuprofile profiles this process: it needs catalogd in process (no -base)")
	}
	if *grpcAddr == "" {
		return "", "", nil, "", nil, fmt.Errorf("-grpc is required with -base")
	}
	token, err = tokens.Mint(*tenant, "bench", []string{"catalog:read", "catalog:write"}, 2*time.Hour)
	if err != nil {
		return "", "", nil, "", nil, err
	}
	conn, err = grpc.NewClient(*grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return "", "", nil, "", nil, err
	}
	return *base, token, conn, *dbURL, func() { _ = conn.Close() }, nil
}

// writeScripts writes the statements the service sends for the timed hydrated requests as pgbench
// scripts with literal values, one pipeline per round trip as the service's pgx batches: the
// hydrated GET of each of the first 20 products (the product and its 8 associations, the featured
// assets and the attributes' terms: one round trip), and each page of 20 of the hydrated list (the
// page with its count, then the page's associations: two).
func writeScripts(a *api, products []string, every *pb.ProductInclude) error {
	pipeline := func(stmts []store.Statement) string {
		var b strings.Builder
		b.WriteString("\\startpipeline\n")
		for _, st := range stmts {
			b.WriteString(measure.Literal(st.SQL, st.Args) + ";\n")
		}
		b.WriteString("\\endpipeline\n")
		return b.String()
	}
	write := func(name string, body string) error {
		return os.WriteFile(filepath.Join(*scripts, name), []byte(body), 0o644)
	}
	for k, p := range products[:min(20, len(products))] {
		id := uuid.MustParse(p)
		stmts, err := catalog.HydrationStatements(*tenant, &id, nil, nil, every)
		if err != nil {
			return err
		}
		if err := write(fmt.Sprintf("product_get_hydrated_%02d.sql", k+1), pipeline(stmts)); err != nil {
			return err
		}
		if k == 0 {
			fmt.Printf("hydrated GET: %d statements in one round trip (bench scripts in %s)\n", len(stmts), *scripts)
		}
	}
	for page := 1; page <= max(1, len(products)/20); page++ {
		req := &pb.ListProductsRequest{Page: proto.Int32(int32(page)), Size: proto.Int32(20), Expand: every}
		q, err := catalog.ProductList.Build(*tenant, req)
		if err != nil {
			return err
		}
		var got struct{ Items []ref }
		if err := a.do("GET", fmt.Sprintf("/v1/products?size=20&page=%d", page), nil, &got); err != nil {
			return err
		}
		ids := make([]uuid.UUID, len(got.Items))
		for i, it := range got.Items {
			ids[i] = uuid.MustParse(it.UUID)
		}
		hydrate, err := catalog.HydrationStatements(*tenant, nil, ids, nil, every)
		if err != nil {
			return err
		}
		pageStmts := []store.Statement{{SQL: list.CustomPlans}, {SQL: q.SQL, Args: q.Args}, {SQL: q.CountSQL, Args: q.Args}}
		if err := write(fmt.Sprintf("product_list_hydrated_%02d.sql", page), pipeline(pageStmts)+pipeline(hydrate)); err != nil {
			return err
		}
	}
	return nil
}

// timed runs op on -clients goroutines for a 1 s warm-up and then -duration and prints the rate,
// the latency and, with -server-pid, the CPU catalogd and PostgreSQL spent per request; key (when
// not empty) names the figures in -out.
func timed(key, name string, op func(*rand.Rand) error) {
	r := measure.Timed(*clients, *duration, *procs, op)
	cpu := ""
	if procs.Server > 0 {
		cpu = fmt.Sprintf("  CPU/req: catalogd %5.0f µs, postgres %5.0f µs", r.PerOp(r.CPU.Server), r.PerOp(r.CPU.Postgres))
	}
	fmt.Printf("%8.0f req/s  p50 %6.2f ms  p99 %6.2f ms%s  %s\n", r.RPS(), r.P50, r.P99, cpu, name)
	if r.Errs > 0 {
		fmt.Printf("  %d errors, first: %v\n", r.Errs, r.FirstErr)
	}
	if key == "" {
		return
	}
	figures.Put(key+"_rps", r.RPS())
	figures.Put(key+"_p50_ms", r.P50)
	figures.Put(key+"_p99_ms", r.P99)
	figures.Put(key+"_errors", r.Errs)
	if procs.Server > 0 {
		figures.Put(key+"_cpu_us", r.PerOp(r.CPU.Server))
		figures.Put(key+"_pg_cpu_us", r.PerOp(r.CPU.Postgres))
	}
}

// analyze runs ANALYZE on the database at dsn.
func analyze(dsn string) error {
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background()) //nolint:errcheck // nothing to do about a failed close
	_, err = conn.Exec(context.Background(), "ANALYZE")
	return err
}
