package transfer

import (
	"context"
	"fmt"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// An import applies the lines it reads in batches, one transaction each (every line in a
// savepoint of its own), and refreshes the products' search arrays once per batch (migration
// 0029) instead of after every statement.

// TestImportBatchesKeepSearchFresh: after an import of several batches of parents and variants in
// a category tree, with terms, every product stores the search arrays a fresh computation gives,
// and the API's search filters find them.
func TestImportBatchesKeepSearchFresh(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	var file strings.Builder
	file.WriteString(`{"type":"category","code":"shoes"}
{"type":"category","code":"boots","parent":"shoes"}
{"type":"category","code":"winter","parent":"boots"}
{"type":"attribute","code":"color","terms":[{"code":"red"},{"code":"blue"}]}
{"type":"attribute","code":"size","terms":[{"code":"s"},{"code":"m"}]}
{"type":"family","code":"footwear","attributes":[{"attribute":"color"},{"attribute":"size","appliesTo":"variant","isVariantAxis":true}]}
`)
	const parents = 300 // 600 product lines: more than two batches
	for i := 0; i < parents; i++ {
		cat := []string{"boots", "winter", "shoes"}[i%3]
		fmt.Fprintf(&file, `{"type":"product","code":"P-%d","kind":"variant_parent","family":"footwear","categories":["%s"],"attributes":{"color":["%s"]}}`+"\n",
			i, cat, []string{"red", "blue"}[i%2])
		// A variant: its own size, its parent's colour (inherited), a category of its own on every
		// other one.
		cats := "[]"
		if i%2 == 0 {
			cats = `["winter"]`
		}
		fmt.Fprintf(&file, `{"type":"product","code":"V-%d","kind":"variant","family":"footwear","parent":"P-%d","categories":%s,"attributes":{"size":["%s"]}}`+"\n",
			i, i, cats, []string{"s", "m"}[i%2])
	}
	imp := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file.String())), 201).Obj()
	done := waitImport(t, c, Str(imp, "uuid"))
	wantCounts(t, done, 6+2*parents, 0, 0, 0)
	wantLines(t, "failed lines", failedLines(t, c, Str(imp, "uuid"), "&line%5Bmax%5D=8"))

	WantSearchFresh(t, pool, tenant)
	var withCategories, withTerms int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE search_categories <> '{}'),
		count(*) FILTER (WHERE search_terms <> '{}') FROM products WHERE tenant_id = $1`, tenant).Scan(&withCategories, &withTerms); err != nil {
		t.Fatal(err)
	}
	if withCategories != parents+parents/2 || withTerms != 2*parents {
		t.Errorf("%d products with search categories, %d with terms; want %d and %d", withCategories, withTerms, parents+parents/2, 2*parents)
	}
	// Through the API: everything under shoes (the whole tree), and the variants that inherit red.
	shoes := uuidByCode(t, c, "/v1/categories", "shoes")
	p := Want(t, c.Get("/v1/products?categoryTreeUuids%5Beq%5D="+shoes+"&size=1"), 200).Obj()["pagination"].(map[string]any)
	if p["totalItems"] != float64(parents+parents/2) {
		t.Errorf("products under shoes: %v, want %d", p["totalItems"], parents+parents/2)
	}
}

// TestImportBatchSurvivesALineTheDatabaseFails: a line the database refuses for no fault of its
// own (a trigger raising an error, as a broken constraint or a bug would) rolls its batch back;
// the batch's other lines are then applied one by one and commit, and the line fails alone with
// INTERNAL.
func TestImportBatchSurvivesALineTheDatabaseFails(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	ctx := context.Background()
	bad := "EXPLODE-" + RandomHex(6)
	fn := "test_explode_" + strings.ToLower(RandomHex(6))
	for _, q := range []string{
		`CREATE FUNCTION ` + fn + `() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'test: the database fails this row'; END $$`,
		`CREATE TRIGGER ` + fn + ` BEFORE INSERT ON products FOR EACH ROW WHEN (NEW.code = '` + bad + `') EXECUTE FUNCTION ` + fn + `()`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		_, _ = pool.Exec(context.Background(), `DROP TRIGGER IF EXISTS `+fn+` ON products`)
		_, _ = pool.Exec(context.Background(), `DROP FUNCTION IF EXISTS `+fn+`()`)
	})
	var file strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&file, `{"type":"product","code":"A-%d","kind":"simple"}`+"\n", i)
	}
	fmt.Fprintf(&file, `{"type":"product","code":"%s","kind":"simple"}`+"\n", bad)
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&file, `{"type":"product","code":"B-%d","kind":"simple"}`+"\n", i)
	}
	imp := Want(t, c.SendFile("POST", "/v1/imports", "application/x-ndjson", []byte(file.String())), 201).Obj()
	id := Str(imp, "uuid")
	done := waitImport(t, c, id)
	if done["status"] != "completed" || done["linesRead"] != float64(11) {
		t.Fatalf("import: %v", done)
	}
	wantCounts(t, done, 10, 0, 0, 1)
	wantLines(t, "failed lines", failedLines(t, c, id, ""), "6 product "+bad+" :INTERNAL")
	WantTotal(t, c, "/v1/products?size=100", 10)
}
