// Command search measures finding products in a large catalog (issue 15, item 5) on a running
// catalogd (`make bench` step 11 starts `catalogd serve` on a fresh database and gives its URL, its
// pid and the database's URL):
//
//   - seed: the structure through the API (5 channels, a category tree, colour and size attributes
//     with their terms, an input type required by the web channel, 10 families with their
//     requirement links), then -products products with their category links, product attributes
//     and terms, input values and publications straight into the tables with set-based SQL, in
//     chunks of -chunk products, triggers off; then the search arrays of every product and the
//     readiness of every publication by search_refresh (migration 0023) and readiness_refresh
//     (migration 0020), then ready_channels_refresh, 10 000 products a call;
//   - search: GET /v1/products?categoryTreeUuids[eq]=<root>&termUuids[eq]=<colour>&
//     notReadyChannelUuids[eq]=<web>&size=20 with -clients clients for -duration (two roots by two
//     colours, drawn per request), and the SQL the service runs for those pages written as pgbench
//     scripts (run.sh runs them with the same clients and duration), with their plans;
//   - keyset pages: one client walks every page of 100 (`cursor` = pagination.nextCursor), then
//     times the pages at depths 1, 2, 100, 1 000 and 10 000 again, and the offset page 10 000;
//   - full-text search (text.go): names and descriptions in two locales from a Zipf vocabulary,
//     q alone, q with a category tree and q with 4 facets timed over queries drawn from the same
//     law, each with its SQL written as pgbench scripts;
//   - a family requirement change: the PATCH of the family link that makes `size` required in the
//     family holding a tenth of the products; its time, and readiness checked before and after.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/bench/measure"
	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
)

var (
	base      = flag.String("base", "", "REST base URL of the catalogd to measure (required)")
	dbURL     = flag.String("db", "", "URL of catalogd's database, for the set-based seeding and the checks (required)")
	tenant    = flag.String("tenant", "bench-search", "tenant seeded and read")
	nProducts = flag.Int("products", 1_000_000, "products to seed")
	roots     = flag.Int("roots", 10, "root categories")
	children  = flag.Int("children", 49, "child categories per root (products are linked to the children)")
	chunk     = flag.Int("chunk", 100_000, "products seeded per SQL statement (and readiness trigger run)")
	clients   = flag.Int("clients", 4, "concurrent clients of the timed search run")
	duration  = flag.Duration("duration", 10*time.Second, "length of the timed search run (plus 1 s warm-up)")
	pageSize  = flag.Int("page-size", 100, "page size of the keyset walk")
	repeat    = flag.Int("repeat", 50, "times each keyset page depth is timed again after the walk")
	offsetN   = flag.Int("offset-runs", 5, "times the deep offset page is timed")
	outDir    = flag.String("out", "", "directory for search.env, the pgbench scripts and search_explain.txt (empty: figures printed only)")
	procs     = measure.ProcFlags()
	tokens    = measure.TokenFlags("catalogd-bench")
)

// figures go to <out>/search.env (search_* keys, read by the summary).
var figures measure.Figures

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench/search:", err)
		os.Exit(1)
	}
}

type obj = map[string]any

type ref struct {
	UUID string `json:"uuid"`
}

type api struct{ measure.API }

// bulk creates items at path (100 per request) and returns their uuids in order.
func (a *api) bulk(path string, items []obj) ([]string, error) {
	var ids []string
	for len(items) > 0 {
		n := min(100, len(items))
		var out []ref
		if err := a.Call("POST", path+"/bulk", items[:n], &out); err != nil {
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

// structure is what the API seeded.
type structure struct {
	channels       []string // web first
	roots, leaves  []string // leaves[r*children+j] is the j-th child of roots[r]
	colour, size   string   // attributes
	colours, sizes []string // their terms (12, 8)
	title          string   // input type, required by the web channel
	families       []string
	sizeLinks      []string // each family's link to size (optional)
	text           *textTypes
	gens           []*zipfText // per locale of text
}

func run() error {
	if *base == "" || *dbURL == "" {
		return fmt.Errorf("-base and -db are required")
	}
	if *nProducts < 1000 || *chunk < 1 {
		return fmt.Errorf("-products must be at least 1000 and -chunk positive")
	}
	token, err := tokens.Mint(*tenant, "bench", []string{"catalog:read", "catalog:write"}, 4*time.Hour)
	if err != nil {
		return err
	}
	a := &api{measure.API{Base: *base, Token: token,
		HTTP: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}, Timeout: 30 * time.Minute}}}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, *dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			return err
		}
	}

	s, err := seedStructure(a)
	if err != nil {
		return fmt.Errorf("seeding the structure: %w", err)
	}
	if s.text, err = seedTextStructure(a); err != nil {
		return fmt.Errorf("seeding the locales and text input types: %w", err)
	}
	for i, lang := range s.text.langs {
		s.gens = append(s.gens, newZipfText(rand.New(rand.NewPCG(uint64(i), 1)), vocabulary(lang, *vocabSize, uint64(i))))
	}
	if err := seedProducts(ctx, conn, s); err != nil {
		return fmt.Errorf("seeding the products: %w", err)
	}
	if err := search(ctx, a, conn, s); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	if err := textSearch(ctx, a, conn, s, s.gens); err != nil {
		return fmt.Errorf("full-text search: %w", err)
	}
	if err := keyset(a); err != nil {
		return fmt.Errorf("keyset pages: %w", err)
	}
	if err := familyChange(ctx, a, conn, s); err != nil {
		return fmt.Errorf("family requirement change: %w", err)
	}
	if *outDir != "" {
		return figures.Write(filepath.Join(*outDir, "search.env"))
	}
	return nil
}

// seedStructure creates through the API what the products refer to.
func seedStructure(a *api) (*structure, error) {
	t0 := time.Now()
	s := &structure{}
	var err error
	if s.channels, err = a.bulk("/v1/channels", many(5, func(i int) obj {
		return obj{"code": []string{"web", "mobile", "print", "marketplace", "pos"}[i]}
	})); err != nil {
		return nil, err
	}
	if s.roots, err = a.bulk("/v1/categories", many(*roots, func(i int) obj {
		return obj{"code": fmt.Sprintf("root-%02d", i), "position": i}
	})); err != nil {
		return nil, err
	}
	if s.leaves, err = a.bulk("/v1/categories", many(*roots**children, func(i int) obj {
		return obj{"code": fmt.Sprintf("cat-%02d-%02d", i / *children, i%*children), "parentUuid": s.roots[i / *children], "position": i % *children}
	})); err != nil {
		return nil, err
	}
	attrs, err := a.bulk("/v1/attributes", []obj{{"code": "colour"}, {"code": "size"}})
	if err != nil {
		return nil, err
	}
	s.colour, s.size = attrs[0], attrs[1]
	colours := []string{"red", "blue", "green", "black", "white", "yellow", "orange", "purple", "pink", "brown", "grey", "beige"}
	if s.colours, err = a.bulk("/v1/attributes/"+s.colour+"/terms", many(len(colours), func(i int) obj {
		return obj{"code": colours[i], "position": i}
	})); err != nil {
		return nil, err
	}
	sizes := []string{"xxs", "xs", "s", "m", "l", "xl", "xxl", "3xl"}
	if s.sizes, err = a.bulk("/v1/attributes/"+s.size+"/terms", many(len(sizes), func(i int) obj {
		return obj{"code": sizes[i], "position": i}
	})); err != nil {
		return nil, err
	}
	var group, title ref
	if err := a.Call("POST", "/v1/type-groups", obj{"code": "content", "entityType": "product"}, &group); err != nil {
		return nil, err
	}
	if err := a.Call("POST", "/v1/input-types", obj{"code": "title", "dataType": "text", "typeGroupUuid": group.UUID}, &title); err != nil {
		return nil, err
	}
	s.title = title.UUID
	if err := a.Call("POST", "/v1/channels/"+s.channels[0]+"/input-types",
		obj{"inputTypeUuid": s.title, "requirementLevel": "required", "scoping": "global"}, nil); err != nil {
		return nil, err
	}
	if s.families, err = a.bulk("/v1/families", many(10, func(i int) obj { return obj{"code": fmt.Sprintf("family-%d", i)} })); err != nil {
		return nil, err
	}
	for _, f := range s.families {
		links, err := a.bulk("/v1/families/"+f+"/attributes", []obj{
			{"attributeUuid": s.colour, "requirementLevel": "required"},
			{"attributeUuid": s.size, "requirementLevel": "optional"},
		})
		if err != nil {
			return nil, err
		}
		s.sizeLinks = append(s.sizeLinks, links[1])
	}
	fmt.Printf("== seed\nstructure through the API in %s: 5 channels (web requires input type title), %d categories (%d roots x %d children), "+
		"colour (12 terms), size (8 terms), 10 families (colour required, size optional)\n",
		time.Since(t0).Round(time.Millisecond), len(s.roots)+len(s.leaves), *roots, *children)
	return s, nil
}

// seedProducts inserts the products and what hangs on them with set-based SQL, chunk by chunk:
// each product is active (95 %), in family i % 10, linked to one child category, has a colour term
// and (90 %) a size term, (70 %) a title, a publication on web and (10 % each, drawn
// independently) on the 4 other channels. bench_search_seed keeps each product's draws for the checks afterwards.
func seedProducts(ctx context.Context, conn *pgx.Conn, s *structure) error {
	n := *nProducts
	t0 := time.Now()
	steps := []string{
		// The rows are consistent by construction: the bulk inserts run with the triggers off (the
		// foreign key checks, and the readiness triggers of migration 0020, which would plan each
		// chunk against the statistics of the tables before it and recompute per statement);
		// readiness is computed afterwards by readiness_refresh, chunk by chunk (needs a superuser,
		// as the bench cluster's). Without JIT: PostgreSQL's estimate of the readiness statements
		// passes jit_above_cost, and compiling them costs ~2 s per call.
		`SET session_replication_role = replica`,
		`SET jit = off`,
		`SET plan_cache_mode = force_custom_plan`,
		`SELECT setseed(0.15)`,
		`CREATE TABLE bench_search_seed (i integer PRIMARY KEY, uuid uuid NOT NULL UNIQUE, leaf integer NOT NULL,
			colour integer NOT NULL, size integer, has_title boolean NOT NULL, active boolean NOT NULL, family integer NOT NULL,
			pa_colour uuid NOT NULL, pa_size uuid NOT NULL, channels integer NOT NULL)`,
		fmt.Sprintf(`INSERT INTO bench_search_seed
			SELECT i, gen_random_uuid(), floor(random() * %d)::int, floor(random() * 12)::int,
			       CASE WHEN random() < 0.9 THEN floor(random() * 8)::int END, random() < 0.7, random() < 0.95, i %% 10,
			       gen_random_uuid(), gen_random_uuid(),
			       (random() < 0.1)::int | (random() < 0.1)::int << 1 | (random() < 0.1)::int << 2 | (random() < 0.1)::int << 3
			FROM generate_series(0, %d) i`, len(s.leaves), n-1),
		`ANALYZE bench_search_seed`,
	}
	for _, q := range steps {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%.60s: %w", q, err)
		}
	}
	// The secondary indexes of the tables seeded are built after their rows: those of the
	// products' rows before the refresh, which reads them by product; those of products after it.
	var indexes, rowIndexes []index
	for _, table := range []string{"products", "product_links", "product_attributes", "product_terms", "product_input_values", "product_publications"} {
		idx, err := dropIndexes(ctx, conn, table)
		if err != nil {
			return fmt.Errorf("dropping the indexes of %s: %w", table, err)
		}
		if table == "products" {
			indexes = idx
		} else {
			rowIndexes = append(rowIndexes, idx...)
		}
	}
	// The chunk is the products @lo <= i < @hi; @t is the time of product 0.
	inserts := []struct{ name, sql string }{
		{"products", `INSERT INTO products (tenant_id, uuid, code, display_name, kind, status, family_uuid, created_at, updated_at)
			SELECT @tenant, s.uuid, 'SKU-' || lpad(s.i::text, 7, '0'), 'Product ' || s.i, 'simple',
			       CASE WHEN s.active THEN 'active' ELSE 'draft' END, (@families::uuid[])[1 + s.family],
			       @t::timestamptz + s.i * interval '1 millisecond', @t::timestamptz + s.i * interval '1 millisecond'
			FROM bench_search_seed s WHERE s.i >= @lo AND s.i < @hi ORDER BY s.i`},
		{"category links", `INSERT INTO product_links (tenant_id, uuid, product_uuid, kind, target_uuid, created_at, updated_at)
			SELECT @tenant, gen_random_uuid(), s.uuid, 'category', (@leaves::uuid[])[1 + s.leaf], @t::timestamptz, @t::timestamptz
			FROM bench_search_seed s WHERE s.i >= @lo AND s.i < @hi`},
		{"product attributes", `INSERT INTO product_attributes (tenant_id, uuid, product_uuid, attribute_uuid, created_at, updated_at)
			SELECT @tenant, s.pa_colour, s.uuid, @colour::uuid, @t::timestamptz, @t::timestamptz FROM bench_search_seed s WHERE s.i >= @lo AND s.i < @hi
			UNION ALL
			SELECT @tenant, s.pa_size, s.uuid, @size::uuid, @t::timestamptz, @t::timestamptz FROM bench_search_seed s WHERE s.i >= @lo AND s.i < @hi AND s.size IS NOT NULL`},
		{"product terms", `INSERT INTO product_terms (tenant_id, uuid, product_uuid, product_attribute_uuid, term_uuid, created_at, updated_at)
			SELECT @tenant, gen_random_uuid(), s.uuid, s.pa_colour, (@colours::uuid[])[1 + s.colour], @t::timestamptz, @t::timestamptz
			FROM bench_search_seed s WHERE s.i >= @lo AND s.i < @hi
			UNION ALL
			SELECT @tenant, gen_random_uuid(), s.uuid, s.pa_size, (@sizes::uuid[])[1 + s.size], @t::timestamptz, @t::timestamptz
			FROM bench_search_seed s WHERE s.i >= @lo AND s.i < @hi AND s.size IS NOT NULL`},
		{"input values", `INSERT INTO product_input_values (tenant_id, uuid, product_uuid, input_type_uuid, value, created_at, updated_at)
			SELECT @tenant, gen_random_uuid(), s.uuid, @title::uuid, to_jsonb('Title of product ' || s.i), @t::timestamptz, @t::timestamptz
			FROM bench_search_seed s WHERE s.i >= @lo AND s.i < @hi AND s.has_title`},
		{"publications", `INSERT INTO product_publications (tenant_id, uuid, product_uuid, channel_uuid, status, created_at, updated_at)
			SELECT @tenant, gen_random_uuid(), s.uuid, (@channels::uuid[])[1 + c], 'draft', @t::timestamptz, @t::timestamptz
			FROM bench_search_seed s CROSS JOIN generate_series(0, 4) c
			WHERE s.i >= @lo AND s.i < @hi AND (c = 0 OR s.channels & (1 << (c - 1)) <> 0)`},
	}
	baseTime := time.Now().Add(-time.Duration(n+1000) * time.Millisecond).UTC().Truncate(time.Second)
	took := make([]time.Duration, len(inserts))
	var textTook time.Duration
	var mu sync.Mutex
	inserted := 0
	// Chunks on two connections at once, each in its own transaction; the text of a chunk is
	// drawn from generators of its own (seeded by the chunk), so it is the same whatever the order.
	err := inChunks(ctx, conn, n, *chunk, func(c *pgx.Conn, a, b int) error {
		tx, err := c.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx) //nolint:errcheck // after Commit it does nothing
		var spent [8]time.Duration
		for k, ins := range inserts {
			t := time.Now()
			if _, err := tx.Exec(ctx, ins.sql, pgx.NamedArgs{"tenant": *tenant, "lo": a, "hi": b, "t": baseTime,
				"families": s.families, "leaves": s.leaves, "colour": s.colour, "size": s.size, "colours": s.colours,
				"sizes": s.sizes, "title": s.title, "channels": s.channels}); err != nil {
				return fmt.Errorf("%s: %w", ins.name, err)
			}
			spent[k] = time.Since(t)
		}
		t := time.Now()
		gens := make([]*zipfText, len(s.gens))
		for l, g := range s.gens {
			gens[l] = newZipfText(rand.New(rand.NewPCG(uint64(l), uint64(a)+2)), g.words)
		}
		if err := copyText(ctx, tx, s.text, gens, rand.New(rand.NewPCG(15, uint64(a))), a, b, baseTime); err != nil {
			return fmt.Errorf("names and descriptions: %w", err)
		}
		text := time.Since(t)
		if err := tx.Commit(ctx); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for k := range inserts {
			took[k] += spent[k]
		}
		textTook += text
		inserted += b - a
		fmt.Printf("  %d/%d products inserted (%s)\n", inserted, n, time.Since(t0).Round(time.Second))
		return nil
	})
	if err != nil {
		return err
	}
	// The search arrays and documents (migrations 0023, 0033) and the readiness of every
	// publication, by the functions the triggers call, on fresh statistics, two connections at a
	// time (chunks of refreshChunk products); products' secondary indexes are built afterwards.
	t := time.Now()
	if err := buildIndexes(ctx, conn, rowIndexes); err != nil {
		return fmt.Errorf("building the indexes of the products' rows: %w", err)
	}
	rowBuild := time.Since(t)
	t = time.Now()
	if _, err := conn.Exec(ctx, "ANALYZE products, product_links, product_attributes, product_terms, product_input_values, product_publications"); err != nil {
		return err
	}
	analyze := time.Since(t)
	t = time.Now()
	refreshTook, err := refreshAll(ctx, conn, n)
	if err != nil {
		return err
	}
	refresh := time.Since(t)
	t = time.Now()
	if err := buildIndexes(ctx, conn, indexes); err != nil {
		return fmt.Errorf("building the indexes of products: %w", err)
	}
	build := time.Since(t)
	t = time.Now()
	sampled, err := checkSample(ctx, conn, max(1, n/1000))
	if err != nil {
		return err
	}
	check := time.Since(t)
	if _, err := conn.Exec(ctx, "RESET session_replication_role"); err != nil {
		return err
	}
	insertTime := time.Since(t0)
	t1 := time.Now()
	for _, t := range []string{"products", "product_links", "product_attributes", "product_terms", "product_input_values", "product_publications", "bench_search_seed", "locales"} {
		if _, err := conn.Exec(ctx, "VACUUM (ANALYZE) "+t); err != nil {
			return err
		}
	}
	if _, err := conn.Exec(ctx, "CHECKPOINT"); err != nil {
		return err
	}
	vacuum := time.Since(t1)
	var pubs, ready, webNotReady int64
	if err := conn.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE ready), count(*) FILTER (WHERE channel_uuid = $2 AND NOT ready)
		FROM product_publications WHERE tenant_id = $1`, *tenant, s.channels[0]).Scan(&pubs, &ready, &webNotReady); err != nil {
		return err
	}
	fmt.Printf("products, links, attributes, terms, values, publications and their readiness in %s (%d chunks of %d); VACUUM (ANALYZE) and CHECKPOINT %s\n",
		insertTime.Round(time.Millisecond), (n+*chunk-1) / *chunk, *chunk, vacuum.Round(time.Millisecond))
	for k, ins := range inserts {
		fmt.Printf("  %-42s %8.1f s\n", ins.name, took[k].Seconds())
	}
	fmt.Printf("  %-42s %8.1f s\n", "names, descriptions (en-US, de-DE; COPY)", textTook.Seconds())
	fmt.Printf("  %-42s %8.1f s\n", "ANALYZE", analyze.Seconds())
	fmt.Printf("  %-42s %8.1f s (%d connections; in them: search_refresh %.0f µs per product, readiness_refresh %.0f µs, ready_channels_refresh %.0f µs)\n",
		fmt.Sprintf("refresh, %d products a call", refreshChunk), refresh.Seconds(), refreshWorkers,
		float64(refreshTook.search.Microseconds())/float64(n), float64(refreshTook.readiness.Microseconds())/float64(n), float64(refreshTook.channels.Microseconds())/float64(n))
	fmt.Printf("  %-42s %8.1f s\n", fmt.Sprintf("%d secondary indexes of their rows", len(rowIndexes)), rowBuild.Seconds())
	fmt.Printf("  %-42s %8.1f s\n", fmt.Sprintf("the %d secondary indexes of products", len(indexes)), build.Seconds())
	fmt.Printf("  %-42s %8.1f s (%d products: arrays and document as search_arrays and search_documents compute them now)\n", "sample checked", check.Seconds(), sampled)
	fmt.Printf("%d publications: %d ready, %d not ready (web: %d not ready of %d)\n", pubs, ready, pubs-ready, webNotReady, n)
	var size string
	if err := conn.QueryRow(ctx, `SELECT pg_size_pretty(pg_database_size(current_database()))`).Scan(&size); err != nil {
		return err
	}
	fmt.Printf("database size %s\n", size)
	figures.Put("search_products", n)
	figures.Put("search_categories", len(s.roots)+len(s.leaves))
	figures.Put("search_publications", pubs)
	figures.Put("search_publications_ready", ready)
	figures.Put("search_seed_s", insertTime.Seconds())
	figures.Put("search_seed_publications_s", took[len(took)-1].Seconds())
	figures.Put("search_seed_readiness_s", refresh.Seconds())
	figures.Put("search_seed_refresh_search_us", float64(refreshTook.search.Microseconds())/float64(n))
	figures.Put("search_seed_indexes_s", build.Seconds())
	figures.Put("search_seed_vacuum_s", vacuum.Seconds())
	figures.Put("search_db_size", strconv.Quote(size))
	return nil
}

// combo is one search of the timed run.
type combo struct{ root, colour, name string }

func (c combo) path(web string) string {
	return "/v1/products?categoryTreeUuids[eq]=" + c.root + "&termUuids[eq]=" + c.colour + "&notReadyChannelUuids[eq]=" + web + "&size=20"
}

func (c combo) req(web string) *pb.ListProductsRequest {
	return &pb.ListProductsRequest{
		CategoryTreeUuids:    &pb.StringsFilter{Eq: []string{c.root}},
		TermUuids:            &pb.StringsFilter{Eq: []string{c.colour}},
		NotReadyChannelUuids: &pb.StringsFilter{Eq: []string{web}},
		Size:                 proto.Int32(20),
	}
}

type page struct {
	Items      []ref `json:"items"`
	Pagination struct {
		TotalItems int64  `json:"totalItems"`
		NextCursor string `json:"nextCursor"`
	} `json:"pagination"`
}

// search times the filtered page and writes the SQL the service runs for it as pgbench scripts.
func search(ctx context.Context, a *api, conn *pgx.Conn, s *structure) error {
	web := s.channels[0]
	combos := []combo{
		{s.roots[0], s.colours[0], "root-00, red"}, {s.roots[0], s.colours[1], "root-00, blue"},
		{s.roots[1], s.colours[0], "root-01, red"}, {s.roots[1], s.colours[1], "root-01, blue"},
	}
	fmt.Printf("\n== search: GET %s (2 roots x 2 colours)\n", combos[0].path(web))
	var explain strings.Builder
	for k, c := range combos {
		q, err := catalog.ProductList.Build(*tenant, c.req(web))
		if err != nil {
			return err
		}
		var p page
		if err := a.Call("GET", c.path(web), nil, &p); err != nil {
			return err
		}
		// What the seed says: products under the root, of that colour, not ready on web.
		var want, viaSQL int64
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM bench_search_seed sd
			WHERE sd.leaf / $1 = $2 AND sd.colour = $3
			  AND NOT EXISTS (SELECT 1 FROM product_publications pp WHERE pp.tenant_id = $4 AND pp.product_uuid = sd.uuid
			                  AND pp.channel_uuid = $5 AND pp.ready)`,
			*children, k/2, k%2, *tenant, web).Scan(&want); err != nil {
			return err
		}
		if err := conn.QueryRow(ctx, q.CountSQL, q.Args...).Scan(&viaSQL); err != nil {
			return err
		}
		fmt.Printf("%s: %d items on the page, totalItems %d (the count SQL: %d; from the seed: %d)\n", c.name, len(p.Items), p.Pagination.TotalItems, viaSQL, want)
		if p.Pagination.TotalItems != want || viaSQL != want {
			return fmt.Errorf("%s: totalItems %d, count SQL %d, expected %d from the seed", c.name, p.Pagination.TotalItems, viaSQL, want)
		}
		if k == 0 {
			figures.Put("search_matches", want)
			fmt.Printf("SQL the service runs (one pipelined batch):\n  %s;\n  %s;\n", measure.Literal(q.SQL, q.Args), measure.Literal(q.CountSQL, q.Args))
			for _, x := range []struct{ what, sql string }{{"page", q.SQL}, {"count", q.CountSQL}} {
				rows, err := conn.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+measure.Literal(x.sql, q.Args), pgx.QueryExecModeSimpleProtocol)
				if err != nil {
					return err
				}
				lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
				if err != nil {
					return err
				}
				fmt.Fprintf(&explain, "== %s query, %s (literal values)\n%s\n\n", x.what, c.name, strings.Join(lines, "\n"))
				fmt.Printf("  %s query: %s\n", x.what, lines[len(lines)-1])
			}
		}
		if *outDir != "" {
			script := fmt.Sprintf("\\startpipeline\n%s;\n%s;\n\\endpipeline\n", measure.Literal(q.SQL, q.Args), measure.Literal(q.CountSQL, q.Args))
			if err := os.WriteFile(filepath.Join(*outDir, fmt.Sprintf("search_%d.sql", k+1)), []byte(script), 0o644); err != nil {
				return err
			}
		}
	}
	if *outDir != "" {
		if err := os.WriteFile(filepath.Join(*outDir, "search_explain.txt"), []byte(explain.String()), 0o644); err != nil {
			return err
		}
	}
	r := measure.Timed(*clients, *duration, *procs, func(r *rand.Rand) error {
		return a.Call("GET", combos[r.IntN(len(combos))].path(web), nil, nil)
	})
	lat := r.P99
	cpu := ""
	if procs.Server > 0 {
		cpu = fmt.Sprintf("  CPU/req: catalogd %5.0f µs, postgres %5.0f µs", r.PerOp(r.CPU.Server), r.PerOp(r.CPU.Postgres))
		figures.Put("search_rest_cpu_us", r.PerOp(r.CPU.Server))
		figures.Put("search_rest_pg_cpu_us", r.PerOp(r.CPU.Postgres))
	}
	fmt.Printf("%8.1f req/s  p50 %6.2f ms  p95 %6.2f ms  p99 %6.2f ms%s  REST search, %d clients, %s\n",
		r.RPS(), r.P50, r.P95, lat, cpu, *clients, *duration)
	if r.Errs > 0 {
		fmt.Printf("  %d errors, first: %v\n", r.Errs, r.FirstErr)
	}
	figures.Put("search_rest_rps", r.RPS())
	figures.Put("search_rest_p50_ms", r.P50)
	figures.Put("search_rest_p95_ms", r.P95)
	figures.Put("search_rest_p99_ms", r.P99)
	figures.Put("search_rest_errors", r.Errs)
	return nil
}

// keyset walks every page of -page-size with the cursor, then times the pages at a few depths
// again (-repeat rounds, the depths taking turns, one client) and the offset page at the deepest depth.
func keyset(a *api) error {
	last := (*nProducts + *pageSize - 1) / *pageSize
	deep := min(10000, last) // the deepest page timed again, and by offset
	depths := []int{1, 2, 100, 1000, 10000}
	if !slices.Contains(depths, deep) {
		depths = append(depths, deep)
	}
	fmt.Printf("\n== keyset pages: GET /v1/products?size=%d, then cursor=pagination.nextCursor to the last page (%d), one client\n", *pageSize, last)
	cursors := map[int]string{} // the query string of page d
	walk := make([]time.Duration, 0, last)
	q := fmt.Sprintf("/v1/products?size=%d", *pageSize)
	t0 := time.Now()
	seen := 0
	for d := 1; ; d++ {
		cursors[d] = q
		t := time.Now()
		var p page
		if err := a.Call("GET", q, nil, &p); err != nil {
			return fmt.Errorf("page %d: %w", d, err)
		}
		walk = append(walk, time.Since(t))
		seen += len(p.Items)
		if p.Pagination.NextCursor == "" {
			break
		}
		q = fmt.Sprintf("/v1/products?size=%d&cursor=%s", *pageSize, url.QueryEscape(p.Pagination.NextCursor))
		if d > last+1 {
			return fmt.Errorf("the walk went past page %d", last+1)
		}
	}
	elapsed := time.Since(t0)
	fmt.Printf("walked %d pages, %d products in %s (%.0f pages/s)\n", len(walk), seen, elapsed.Round(time.Millisecond), float64(len(walk))/elapsed.Seconds())
	if seen != *nProducts || len(walk) != last {
		return fmt.Errorf("the walk saw %d products in %d pages, want %d in %d", seen, len(walk), *nProducts, last)
	}
	figures.Put("search_walk_pages", len(walk))
	figures.Put("search_walk_s", elapsed.Seconds())
	// The depths take turns, one request each per round, so that a machine getting busier or quieter
	// during the repeats (autovacuum after the walk, another process) weighs on every depth alike.
	lats := map[int][]time.Duration{}
	for range *repeat {
		for _, d := range depths {
			q, ok := cursors[d]
			if !ok {
				continue
			}
			t := time.Now()
			if err := a.Call("GET", q, nil, nil); err != nil {
				return err
			}
			lats[d] = append(lats[d], time.Since(t))
		}
	}
	for _, d := range depths {
		lat, ok := lats[d]
		if !ok {
			continue
		}
		p50, p99, _ := measure.Pct(lat)
		what := "keyset"
		if d == 1 {
			what = "first page, with the count"
		}
		fmt.Printf("page %5d (%s): during the walk %6.2f ms; again %d times: p50 %6.2f ms  p99 %6.2f ms\n",
			d, what, ms(walk[d-1]), *repeat, p50, p99)
		figures.Put(fmt.Sprintf("search_page_%d_walk_ms", d), ms(walk[d-1]))
		figures.Put(fmt.Sprintf("search_page_%d_p50_ms", d), p50)
		figures.Put(fmt.Sprintf("search_page_%d_p99_ms", d), p99)
		if d == deep {
			figures.Put("search_keyset_deep_p50_ms", p50)
			figures.Put("search_keyset_deep_p99_ms", p99)
		}
	}
	figures.Put("search_deep_page", deep)
	lat := make([]time.Duration, 0, *offsetN)
	for range *offsetN {
		t := time.Now()
		var p page
		if err := a.Call("GET", fmt.Sprintf("/v1/products?size=%d&page=%d", *pageSize, deep), nil, &p); err != nil {
			return err
		}
		lat = append(lat, time.Since(t))
		if len(p.Items) == 0 {
			return fmt.Errorf("offset page %d is empty", deep)
		}
	}
	p50, p99, _ := measure.Pct(lat)
	fmt.Printf("page %5d by offset (page=%d): %d times: p50 %6.2f ms  max %6.2f ms\n", deep, deep, *offsetN, p50, p99)
	figures.Put("search_offset_page_p50_ms", p50)
	figures.Put("search_offset_page_max_ms", p99)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

type readiness struct {
	Ready   bool `json:"ready"`
	Missing []struct {
		Kind string `json:"kind"`
		UUID string `json:"uuid"`
	} `json:"missing"`
}

// familyChange makes size required in family 0 (a tenth of the products) with one PATCH and checks
// that the readiness of its products followed.
func familyChange(ctx context.Context, a *api, conn *pgx.Conn, s *structure) error {
	fmt.Printf("\n== family requirement change: PATCH /v1/families/{family-0}/attributes/{size link} requirementLevel optional -> required\n")
	var products, pubs, readyBefore, losing int64
	if err := conn.QueryRow(ctx, `SELECT count(DISTINCT sd.i), count(pp.uuid), count(pp.uuid) FILTER (WHERE pp.ready),
			count(pp.uuid) FILTER (WHERE pp.ready AND sd.size IS NULL)
		FROM bench_search_seed sd LEFT JOIN product_publications pp ON pp.tenant_id = $1 AND pp.product_uuid = sd.uuid
		WHERE sd.family = 0`, *tenant).Scan(&products, &pubs, &readyBefore, &losing); err != nil {
		return err
	}
	fmt.Printf("family-0: %d products, %d publications, %d ready; %d of those lack a size\n", products, pubs, readyBefore, losing)
	// A sample of web publications that are ready now: those without a size must turn not ready
	// (missing the size attribute), the others stay ready.
	rows, err := conn.Query(ctx, `(SELECT pp.product_uuid::text, pp.uuid::text, false FROM bench_search_seed sd
			JOIN product_publications pp ON pp.tenant_id = $1 AND pp.product_uuid = sd.uuid AND pp.channel_uuid = $2
			WHERE sd.family = 0 AND sd.size IS NULL AND pp.ready ORDER BY sd.i LIMIT 20)
		UNION ALL
		(SELECT pp.product_uuid::text, pp.uuid::text, true FROM bench_search_seed sd
			JOIN product_publications pp ON pp.tenant_id = $1 AND pp.product_uuid = sd.uuid AND pp.channel_uuid = $2
			WHERE sd.family = 0 AND sd.size IS NOT NULL AND pp.ready ORDER BY sd.i LIMIT 20)`, *tenant, s.channels[0])
	if err != nil {
		return err
	}
	type sample struct {
		product, pub string
		stays        bool
	}
	samples, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (sample, error) {
		var x sample
		return x, r.Scan(&x.product, &x.pub, &x.stays)
	})
	if err != nil {
		return err
	}
	check := func(when string, want func(sample) bool) error {
		for _, x := range samples {
			var r readiness
			if err := a.Call("GET", "/v1/products/"+x.product+"/publications/"+x.pub+"/readiness", nil, &r); err != nil {
				return err
			}
			if r.Ready != want(x) {
				return fmt.Errorf("%s: publication %s of product %s: ready %v, want %v (missing %+v)", when, x.pub, x.product, r.Ready, want(x), r.Missing)
			}
			if !r.Ready && !slices.ContainsFunc(r.Missing, func(m struct {
				Kind string `json:"kind"`
				UUID string `json:"uuid"`
			}) bool {
				return m.Kind == "attribute" && m.UUID == s.size
			}) {
				return fmt.Errorf("%s: publication %s misses %+v, not the size attribute", when, x.pub, r.Missing)
			}
		}
		return nil
	}
	if err := check("before", func(sample) bool { return true }); err != nil {
		return err
	}
	t := time.Now()
	if err := a.Call("PATCH", "/v1/families/"+s.families[0]+"/attributes/"+s.sizeLinks[0], obj{"requirementLevel": "required"}, nil); err != nil {
		return err
	}
	took := time.Since(t)
	var readyAfter int64
	if err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE pp.ready) FROM bench_search_seed sd
		JOIN product_publications pp ON pp.tenant_id = $1 AND pp.product_uuid = sd.uuid WHERE sd.family = 0`, *tenant).Scan(&readyAfter); err != nil {
		return err
	}
	fmt.Printf("PATCH took %s; ready publications of family-0: %d before, %d after (expected %d)\n",
		took.Round(time.Millisecond), readyBefore, readyAfter, readyBefore-losing)
	if readyAfter != readyBefore-losing {
		return fmt.Errorf("after the change %d publications of family-0 are ready, want %d", readyAfter, readyBefore-losing)
	}
	if err := check("after", func(x sample) bool { return x.stays }); err != nil {
		return err
	}
	fmt.Printf("readiness GET of %d sampled web publications agrees (those without a size now miss it, the others stay ready)\n", len(samples))
	figures.Put("search_family_products", products)
	figures.Put("search_family_publications", pubs)
	figures.Put("search_family_change_ms", ms(took))
	figures.Put("search_family_turned_not_ready", losing)
	figures.Put("search_family_verified", len(samples))
	return nil
}
