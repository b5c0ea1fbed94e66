package transfer

import (
	"context"
	"fmt"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Migration 0036: a search refresh of up to search_refresh_generic_max() products runs plans kept
// for the connection (generic), a larger one plans for the call; refresh_defer keeps its queue
// table for the connection, emptied at every commit.

// TestImportSearchDocumentsMatchOneFreshComputation: after an import of several batches (each
// batch's products refreshed together, a few at a time: the kept plans), every product's search
// document and arrays equal what one computation over all of them gives (more products than
// search_refresh_generic_max: plans made for the call).
func TestImportSearchDocumentsMatchOneFreshComputation(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	ctx := context.Background()
	var file strings.Builder
	file.WriteString(`{"type":"locale","code":"de-DE"}
{"type":"locale","code":"en-GB"}
{"type":"typeGroup","code":"main","entityType":"product"}
{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}
{"type":"category","code":"shoes","contents":{"en-GB":{"displayName":"Shoes","description":"For feet"}}}
{"type":"category","code":"boots","parent":"shoes"}
{"type":"attribute","code":"size","terms":[{"code":"s","displayName":"Small"},{"code":"m","displayName":"Medium"}]}
{"type":"family","code":"footwear","attributes":[{"attribute":"size","appliesTo":"variant","isVariantAxis":true}]}
`)
	const parents = 80 // 160 products: more than search_refresh_generic_max() in one computation
	for i := 0; i < parents; i++ {
		fmt.Fprintf(&file, `{"type":"product","code":"P-%d","kind":"variant_parent","family":"footwear","categories":["%s"],`+
			`"values":[{"inputType":"title","locale":"de-DE","value":"Stiefel %d"},{"inputType":"title","locale":"en-GB","value":"Boot %d"}]}`+"\n",
			i, []string{"boots", "shoes"}[i%2], i, i)
		fmt.Fprintf(&file, `{"type":"product","code":"V-%d","kind":"variant","family":"footwear","parent":"P-%d","attributes":{"size":["%s"]},`+
			`"values":[{"inputType":"title","locale":"en-GB","value":"Boot %d %s"}]}`+"\n", i, i, []string{"s", "m"}[i%2], i, []string{"small", "medium"}[i%2])
	}
	imp := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file.String())), 201).Obj()
	done := waitImport(t, c, Str(imp, "uuid"))
	wantCounts(t, done, 8+2*parents, 0, 0, 0)

	WantSearchFresh(t, pool, tenant)
	var n, stale, empty int
	var max int
	if err := pool.QueryRow(ctx, `SELECT search_refresh_generic_max()`).Scan(&max); err != nil {
		t.Fatal(err)
	}
	// Compared as their lexemes, each with its weights and its number of positions: the positions
	// themselves follow the order in which a plan reads a product's values, which SQL leaves open.
	if err := pool.QueryRow(ctx, `
		WITH all_products AS (SELECT array_agg(uuid) AS ids, jsonb_object_agg(uuid, search_terms) AS terms
		                      FROM products WHERE tenant_id = $1),
		docs AS (SELECT p.search_document AS have, d.document AS want
		         FROM all_products a, search_documents($1, a.ids, a.terms) d
		         JOIN products p ON p.tenant_id = $1 AND p.uuid = d.product_uuid)
		SELECT count(*), count(*) FILTER (WHERE `+lexemes("have")+` IS DISTINCT FROM `+lexemes("want")+`),
		       count(*) FILTER (WHERE have = ''::tsvector)
		FROM docs`, tenant).Scan(&n, &stale, &empty); err != nil {
		t.Fatal(err)
	}
	if n != 2*parents || n <= max || stale != 0 || empty != 0 {
		t.Errorf("%d products (want %d, more than %d): %d store another document than one computation over all gives, %d none",
			n, 2*parents, max, stale, empty)
	}
	// The API finds them by their text: a variant by its own value and its parent's (inherited).
	for q, want := range map[string]float64{"stiefel": 2 * parents, "medium": parents / 2, "feet": parents / 2} {
		p := Want(t, c.Get("/v1/products?q="+q+"&size=1"), 200).Obj()["pagination"].(map[string]any)
		if p["totalItems"] != want {
			t.Errorf("q=%s: %v products, want %v", q, p["totalItems"], want)
		}
	}
}

// lexemes is SQL for the lexemes of tsvector doc, each with its weights and number of positions.
func lexemes(doc string) string {
	return `(SELECT array_agg(u.lexeme || ':' || array_to_string(ARRAY(SELECT DISTINCT w FROM unnest(u.weights) w ORDER BY 1), '')
	                 || cardinality(u.positions) ORDER BY u.lexeme) FROM unnest(` + doc + `) u)`
}

// TestRefreshPlansAndQueueStayInTheirScope: search_refresh's choice of plans ends with the call
// (the session's plan_cache_mode is as before), and refresh_defer's queue table, kept by the
// connection, is empty in every new transaction, whether the last one flushed, committed without
// flushing or rolled back.
func TestRefreshPlansAndQueueStayInTheirScope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	queued := func() (n int) {
		t.Helper()
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_temp.refresh_pending`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	tenant := "t-" + RandomHex(8)
	exec(`INSERT INTO products (tenant_id, uuid, code, display_name, kind, status, created_at, updated_at)
		VALUES ($1, gen_random_uuid(), 'A', 'A', 'simple', 'draft', now(), now())`, tenant)
	var mode string
	if err := conn.QueryRow(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	exec(`SELECT search_refresh($1, ARRAY(SELECT uuid FROM products WHERE tenant_id = $1), false)`, tenant)
	var after string
	if err := conn.QueryRow(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after != mode {
		t.Errorf("plan_cache_mode %q after search_refresh, %q before", after, mode)
	}

	queue := `SELECT search_refresh($1, ARRAY(SELECT uuid FROM products WHERE tenant_id = $1), true)`
	for _, end := range []string{"flush", "COMMIT", "ROLLBACK"} {
		exec("BEGIN")
		exec(`SELECT refresh_defer()`)
		if n := queued(); n != 0 {
			t.Errorf("after %s: %d rows queued at the start of a new transaction", end, n)
		}
		exec(queue, tenant)
		if n := queued(); n != 1 {
			t.Errorf("%d rows queued, want 1", n)
		}
		switch end {
		case "flush":
			exec(`SELECT refresh_flush()`)
			exec("COMMIT")
		default:
			exec(end)
		}
	}
	exec("BEGIN")
	exec(`SELECT refresh_defer()`)
	if n := queued(); n != 0 {
		t.Errorf("%d rows queued at the start of the last transaction", n)
	}
	exec("ROLLBACK")
	// Without refresh_defer, a transaction refreshes at once and queues nothing.
	exec("BEGIN")
	exec(queue, tenant)
	if n := queued(); n != 0 {
		t.Errorf("%d rows queued without refresh_defer", n)
	}
	exec("ROLLBACK")
}
