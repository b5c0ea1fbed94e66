package transfer

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/transfer"
)

// richCatalog has every line type and every child a line carries: contents (of attributes, terms,
// categories, brands, tags), terms, a category tree, family links of every kind, a channel's
// locales and input types, products of every kind with categories, tags, attributes with terms,
// values (localized, per channel, decimal, money, boolean), assets, relations that form a cycle
// and a two-way relation, publications in every status, and lifecycle statuses off the first
// move (an inactive category, an unpublished attribute). Lines are in an order an export would
// not use (children first), so the import defers some.
var richCatalog = strings.Join([]string{
	`{"type":"product","code":"BOOT-1-RED","kind":"variant","family":"footwear","parent":"BOOT-1","status":"active","attributes":{"color":["red"]},` +
		`"values":[{"inputType":"title","locale":"en-GB","value":"Red boot"}],"publications":[{"channel":"web","status":"published"}]}`,
	`{"type":"locale","code":"de-DE","displayName":"Deutsch"}`,
	`{"type":"locale","code":"en-GB","isDefault":true}`,
	`{"type":"locale","code":"fr-FR"}`,
	`{"type":"attribute","code":"color","displayName":"Color","status":"published","contents":{"de-DE":{"displayName":"Farbe"}},` +
		`"terms":[{"code":"red","displayName":"Red","contents":{"de-DE":{"displayName":"Rot"}}},{"code":"blue","position":2}]}`,
	`{"type":"attribute","code":"size","status":"unpublished","terms":[{"code":"s"},{"code":"m","position":1}]}`,
	`{"type":"category","code":"boots","parent":"shoes","position":2,"status":"active","contents":{"de-DE":{"displayName":"Stiefel"}}}`,
	`{"type":"category","code":"shoes","displayName":"Shoes","status":"active"}`,
	`{"type":"category","code":"archive","status":"inactive"}`,
	`{"type":"collection","code":"summer-kids","parent":"summer"}`,
	`{"type":"collection","code":"summer","displayName":"Summer"}`,
	`{"type":"brand","code":"acme","displayName":"ACME","contents":{"de-DE":{"displayName":"Acme DE"}}}`,
	`{"type":"tag","code":"sale","contents":{"fr-FR":{"displayName":"Soldes"}}}`,
	`{"type":"tag","code":"new"}`,
	`{"type":"typeGroup","code":"main","entityType":"product"}`,
	`{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true,"constraints":{"maxLength":80}}`,
	`{"type":"inputType","code":"weight","typeGroup":"main","dataType":"decimal"}`,
	`{"type":"inputType","code":"price","typeGroup":"main","dataType":"money"}`,
	`{"type":"inputType","code":"vegan","typeGroup":"main","dataType":"boolean"}`,
	`{"type":"channel","code":"web","locales":["en-GB","de-DE"],"inputTypes":[{"inputType":"title","requirementLevel":"required","scoping":"global"}]}`,
	`{"type":"channel","code":"app","displayName":"App"}`,
	`{"type":"productAssetType","code":"gallery"}`,
	`{"type":"productAssetType","code":"hero","isFeaturedSource":true}`,
	`{"type":"productRelationType","code":"cross_sell","direction":"one_way"}`,
	`{"type":"productRelationType","code":"pair","direction":"two_way"}`,
	`{"type":"family","code":"footwear","attributes":[{"attribute":"color","requirementLevel":"required","appliesTo":"variant","isVariantAxis":true},{"attribute":"size"}],` +
		`"inputTypes":[{"inputType":"title","requirementLevel":"required"}],"categories":[{"category":"shoes"}],` +
		`"assetTypes":[{"assetType":"gallery","minCount":1}],"relationTypes":[{"relationType":"cross_sell","minCount":1}]}`,
	`{"type":"asset","code":"boot-front","category":"image","description":"The front","metadata":{"alt":"Boot <front> & side"}}`,
	`{"type":"asset","code":"boot-side","category":"image"}`,
	`{"type":"product","code":"BOOT-1","displayName":"Boot \"One\"","kind":"variant_parent","family":"footwear","brand":"acme","status":"active",` +
		`"categories":["boots","shoes"],"tags":["sale"],"attributes":{"size":["s","m"]},` +
		`"values":[{"inputType":"title","locale":"en-GB","value":"Boot"},{"inputType":"title","locale":"de-DE","value":"Stiefel"},` +
		`{"inputType":"weight","value":"1.50"},{"inputType":"price","channel":"web","value":{"amount":"89.90","currency":"EUR"}}],` +
		`"assets":[{"asset":"boot-front","assetType":"hero"},{"asset":"boot-side","assetType":"gallery","displayPriority":3}],` +
		`"relations":[{"relationType":"cross_sell","target":"SOCK-1"}],"publications":[{"channel":"web","status":"published"},{"channel":"app"}]}`,
	`{"type":"product","code":"SOCK-1","kind":"simple","status":"active","tags":["new","sale"],"values":[{"inputType":"vegan","value":true},{"inputType":"title","locale":"en-GB","value":"Sock"},{"inputType":"title","locale":"de-DE","value":"Socke"}],` +
		`"publications":[{"channel":"web","status":"published"}]}`,
	`{"type":"product","code":"SOCK-1","relations":[{"relationType":"cross_sell","target":"BOOT-1"},{"relationType":"pair","target":"LACE-1"}]}`,
	`{"type":"product","code":"LACE-1","kind":"simple","status":"inactive","publications":[{"channel":"app"}]}`,
	`{"type":"product","code":"OLD-1","kind":"simple","status":"removed"}`,
	`{"type":"product","code":"GONE-1","kind":"simple","status":"active","publications":[{"channel":"app","status":"published"}]}`,
	`{"type":"product","code":"GONE-1","status":"removed"}`,
	`{"type":"product","code":"BOOT-1-BLUE","kind":"variant","family":"footwear","parent":"BOOT-1","attributes":{"color":{"terms":["blue"],"isVariantAxis":true}}}`,
}, "\n")

func tenantCtx(tenant string) context.Context {
	return reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: tenant, Subject: "exporter"})
}

func exporter() *transfer.Exporter {
	return transfer.NewExporter(env.Server.DB, catalog.TransferKinds(), catalog.ProductList)
}

// export runs an export in tenant and returns its text and item count.
func export(t *testing.T, tenant string, opts transfer.ExportOptions) (string, int64) {
	t.Helper()
	var b bytes.Buffer
	n, err := exporter().Export(tenantCtx(tenant), opts, &b, nil)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return b.String(), n
}

// load imports file into a new tenant and fails the test on any failed line.
func load(t *testing.T, file string) (*Client, string, transfer.Counts) {
	t.Helper()
	c, tenant := env.TenantClient(t)
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds())
	counts, err := im.Run(tenantCtx(tenant), strings.NewReader(file), func(r transfer.LineResult) {
		t.Errorf("line %d (%s %s) failed: %+v", r.Line, r.Type, r.Code, r.Errors)
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, tenant, counts
}

func TestExportRoundTrip(t *testing.T) {
	t.Parallel()
	_, a, _ := load(t, richCatalog)
	exA, items := export(t, a, transfer.ExportOptions{})
	lines := strings.Split(strings.TrimSuffix(exA, "\n"), "\n")
	// 3 locales, 2 attributes, 3 categories, 2 collections, 1 brand, 2 tags, 1 type group, 4
	// input types, 2 channels, 2 asset types, 2 relation types, 1 family, 2 assets, 7 products;
	// then 4 lines completing the related products (BOOT-1, SOCK-1, LACE-1 by the two-way
	// inverse, and BOOT-1's variants, whose readiness counts their parent's relations) and one
	// moving GONE-1 (removed, its publication unpublished by the removal) to its status.
	if items != 34 || len(lines) != 39 {
		t.Errorf("%d items in %d lines, want 34 in 39:\n%s", items, len(lines), exA)
	}
	for _, want := range []string{
		`{"type":"product","code":"GONE-1","kind":"simple","status":"active","publications":[{"channel":"app","status":"published"}]}`,
		// A product attribute that is a variant axis travels in the object form.
		`"attributes":{"color":{"terms":["blue"],"isVariantAxis":true}}`,
		`{"type":"product","code":"GONE-1","status":"removed"}`,
	} {
		if !strings.Contains(exA, want+"\n") && !strings.Contains(exA, want+"}\n") {
			t.Errorf("no line %s", want)
		}
	}
	// Every line is a JSON object, without uuids or times.
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d %q: %v", i+1, l, err)
		}
		if strings.Contains(l, "Uuid") || strings.Contains(l, `"uuid"`) || strings.Contains(l, "createdAt") || strings.Contains(l, "updatedAt") {
			t.Errorf("line %d has uuids or times: %s", i+1, l)
		}
	}
	// Everything referenced is defined before: the importer resolves the export in one pass (no
	// line deferred: lines in order, each applied once), into an empty tenant.
	cB, b := env.TenantClient(t)
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds())
	ctxB := tenantCtx(b)
	for i, l := range lines {
		res, err := im.Apply(ctxB, []byte(l))
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome == transfer.Failed {
			t.Errorf("line %d failed in the new tenant: %+v\n%s", i+1, res.Errors, l)
		}
	}
	exB, itemsB := export(t, b, transfer.ExportOptions{})
	if exB != exA || itemsB != items {
		t.Errorf("the export of the copy differs:\nA:\n%s\nB:\n%s", exA, exB)
	}
	// The copy is the catalog: a sample through the API.
	prods := map[string]map[string]any{}
	for _, p := range Want(t, cB.Get("/v1/products"+Q("size", "100", "isRemoved[eq]", "false")), 200).Items() {
		prods[Str(p, "code")] = p
	}
	if len(prods) != 5 || prods["BOOT-1"]["status"] != "active" || prods["LACE-1"]["status"] != "inactive" || prods["BOOT-1"]["displayName"] != `Boot "One"` {
		t.Errorf("products of the copy: %v", prods)
	}
	for _, v := range Want(t, cB.Get("/v1/products"+Q("size", "100", "codes[eq]", "BOOT-1-BLUE")), 200).Items() {
		pa := Want(t, cB.Get("/v1/products/"+Str(v, "uuid")+"/attributes"), 200).Items()
		if len(pa) != 1 || pa[0]["isVariantAxis"] != true {
			t.Errorf("BOOT-1-BLUE's attributes in the copy: %v", pa)
		}
	}
	pubs := Want(t, cB.Get("/v1/products/"+Str(prods["BOOT-1"], "uuid")+"/publications"), 200).Items()
	statuses := map[string]bool{}
	for _, p := range pubs {
		statuses[Str(p, "status")] = true
	}
	if len(pubs) != 2 || !statuses["published"] || !statuses["draft"] {
		t.Errorf("BOOT-1's publications in the copy: %v", pubs)
	}
	// The whole file through Run: every line applied, none failed or unchanged, in one pass.
	_, c, counts := load(t, exA)
	if counts.FailedLines != 0 || counts.LinesRead != int64(len(lines)) {
		t.Errorf("import of the export: %+v", counts)
	}
	if exC, _ := export(t, c, transfer.ExportOptions{}); exC != exA {
		t.Errorf("the export of a Run import differs:\n%s", exC)
	}
	// Exporting the same tenant again gives the same bytes.
	if again, _ := export(t, a, transfer.ExportOptions{}); again != exA {
		t.Errorf("a second export differs")
	}
}

// TestExportOrder checks the order rules on the rich catalog's export: kinds after the kinds
// they refer to, parents before children, variants after their parents, relations after every
// product.
func TestExportOrder(t *testing.T) {
	t.Parallel()
	_, a, _ := load(t, richCatalog)
	ex, _ := export(t, a, transfer.ExportOptions{})
	var order []string
	relationsAt, lastProduct := -1, -1
	for i, l := range strings.Split(strings.TrimSuffix(ex, "\n"), "\n") {
		var m map[string]any
		_ = json.Unmarshal([]byte(l), &m)
		key := m["type"].(string) + ":" + m["code"].(string)
		if _, ok := m["kind"]; ok || m["type"] != "product" {
			order = append(order, key)
			if m["type"] == "product" {
				lastProduct = i
			}
		} else if relationsAt < 0 {
			relationsAt = i
		}
		if _, ok := m["relations"]; ok && m["kind"] != nil {
			t.Errorf("relations inside a product's defining line: %s", l)
		}
	}
	pos := map[string]int{}
	for i, k := range order {
		pos[k] = i
	}
	for _, before := range [][2]string{
		{"locale:de-DE", "attribute:color"}, {"locale:fr-FR", "tag:sale"}, {"category:shoes", "category:boots"},
		{"collection:summer", "collection:summer-kids"}, {"typeGroup:main", "inputType:title"},
		{"inputType:title", "channel:web"}, {"attribute:color", "family:footwear"}, {"productRelationType:pair", "family:footwear"},
		{"family:footwear", "product:BOOT-1"}, {"asset:boot-side", "product:BOOT-1"}, {"brand:acme", "product:BOOT-1"},
		{"product:BOOT-1", "product:BOOT-1-BLUE"}, {"product:SOCK-1", "product:BOOT-1-BLUE"},
		{"product:BOOT-1", "product:LACE-1"}, {"category:archive", "category:boots"},
	} {
		if pos[before[0]] >= pos[before[1]] {
			t.Errorf("%s is not before %s: %v", before[0], before[1], order)
		}
	}
	if relationsAt <= lastProduct {
		t.Errorf("relation lines at %d, the last product at %d", relationsAt, lastProduct)
	}
}

func TestExportProductFilter(t *testing.T) {
	t.Parallel()
	c, a, _ := load(t, richCatalog)
	var shoes string
	for _, it := range Want(t, c.Get("/v1/categories"), 200).Items() {
		if it["code"] == "shoes" {
			shoes = Str(it, "uuid")
		}
	}
	codes := func(filter *catalogv1.ListProductsRequest) []string {
		t.Helper()
		ex, n := export(t, a, transfer.ExportOptions{Types: []string{"product"}, Products: filter})
		var out []string
		for _, l := range strings.Split(strings.TrimSuffix(ex, "\n"), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			if m["type"] != "product" {
				t.Errorf("a product export has %s", l)
			}
			if m["kind"] != nil {
				out = append(out, m["code"].(string))
			}
		}
		if n != int64(len(out)) {
			t.Errorf("%d items for %d products", n, len(out))
		}
		return out
	}
	if got := codes(nil); !reflect.DeepEqual(got, []string{"BOOT-1", "GONE-1", "LACE-1", "OLD-1", "SOCK-1", "BOOT-1-BLUE", "BOOT-1-RED"}) {
		t.Errorf("all products: %v", got)
	}
	// The list's rules: removed products only when asked for.
	if got := codes(&catalogv1.ListProductsRequest{}); !reflect.DeepEqual(got, []string{"BOOT-1", "LACE-1", "SOCK-1", "BOOT-1-BLUE", "BOOT-1-RED"}) {
		t.Errorf("an empty filter: %v", got)
	}
	active := &catalogv1.ListProductsRequest{Statuses: &catalogv1.StringsFilter{Eq: []string{"active"}}}
	if got := codes(active); !reflect.DeepEqual(got, []string{"BOOT-1", "SOCK-1", "BOOT-1-RED"}) {
		t.Errorf("statuses active: %v", got)
	}
	tree := &catalogv1.ListProductsRequest{CategoryTreeUuids: &catalogv1.StringsFilter{Eq: []string{shoes}}, Statuses: &catalogv1.StringsFilter{Eq: []string{"active", "draft"}}}
	if got := codes(tree); !reflect.DeepEqual(got, []string{"BOOT-1"}) {
		t.Errorf("category tree of shoes: %v", got)
	}
	removed := &catalogv1.ListProductsRequest{Statuses: &catalogv1.StringsFilter{Eq: []string{"removed"}}, Size: ptr(int32(1)), Page: ptr(int32(3))}
	if got := codes(removed); !reflect.DeepEqual(got, []string{"GONE-1", "OLD-1"}) {
		t.Errorf("statuses removed (page and size ignored): %v", got)
	}
	// A bad filter is the list's error, named under productFilter.
	_, err := exporter().Export(tenantCtx(a), transfer.ExportOptions{Products: &catalogv1.ListProductsRequest{Statuses: &catalogv1.StringsFilter{Eq: []string{"shiny"}}}}, &bytes.Buffer{}, nil)
	if err == nil || !strings.Contains(err.Error(), "shiny") {
		t.Errorf("a bad status: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestExportCSV(t *testing.T) {
	t.Parallel()
	_, a, _ := load(t, richCatalog)
	ex, n := export(t, a, transfer.ExportOptions{Format: "csv", Products: &catalogv1.ListProductsRequest{}})
	rows, err := csv.NewReader(strings.NewReader(ex)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := []string{"code", "kind", "family", "parent", "brand", "status", "categories", "tags",
		"attribute:color", "attribute:size",
		"value:price#web", "value:title@de-DE", "value:title@en-GB", "value:vegan", "value:weight",
		"publication:app", "publication:web"}
	if !reflect.DeepEqual(rows[0], wantHeader) {
		t.Fatalf("header %q, want %q", rows[0], wantHeader)
	}
	if n != 5 || len(rows) != 6 {
		t.Fatalf("%d items, rows %q", n, rows)
	}
	byCode := map[string]map[string]string{}
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = r[i]
		}
		byCode[r[0]] = m
	}
	if got := rows[1][0] + " " + rows[4][0] + " " + rows[5][0]; got != "BOOT-1 BOOT-1-BLUE BOOT-1-RED" {
		t.Errorf("row order: %s", got)
	}
	boot := byCode["BOOT-1"]
	for col, want := range map[string]string{
		"kind": "variant_parent", "family": "footwear", "parent": "", "brand": "acme", "status": "active",
		"categories": "boots|shoes", "tags": "sale", "attribute:size": "m|s", "attribute:color": "",
		"value:title@en-GB": "Boot", "value:title@de-DE": "Stiefel", "value:weight": "1.50",
		"value:price#web": "89.90 EUR", "value:vegan": "",
		"publication:web": "published", "publication:app": "draft",
	} {
		if boot[col] != want {
			t.Errorf("BOOT-1 %s = %q, want %q", col, boot[col], want)
		}
	}
	if s := byCode["SOCK-1"]; s["value:vegan"] != "true" || s["tags"] != "new|sale" || s["categories"] != "" {
		t.Errorf("SOCK-1: %v", s)
	}
	if r := byCode["BOOT-1-RED"]; r["parent"] != "BOOT-1" || r["attribute:color"] != "red" || r["kind"] != "variant" {
		t.Errorf("BOOT-1-RED: %v", r)
	}
	// A filter narrows the columns to what its products use.
	ex, _ = export(t, a, transfer.ExportOptions{Format: "csv", Products: &catalogv1.ListProductsRequest{Codes: &catalogv1.StringsFilter{Eq: []string{"LACE-1"}}}})
	if want := "code,kind,family,parent,brand,status,categories,tags,publication:app\nLACE-1,simple,,,,inactive,,,draft\n"; ex != want {
		t.Errorf("LACE-1 alone:\n%s\nwant:\n%s", ex, want)
	}
	// The CSV import reads the export back as it is: every row unchanged, nothing written.
	all, _ := export(t, a, transfer.ExportOptions{Format: "csv"})
	log := NewEventLog(pool, a).Skip(t)
	ctx := tenantCtx(a)
	src, err := transfer.CSV(ctx, memOpen(all), transfer.Position{}, transfer.InputDataTypes(env.Server.DB))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	im := transfer.NewImporter(env.Server.DB, catalog.TransferKinds()).Merging()
	rowsRead := 0
	for {
		l, err := src.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rowsRead++
		if l.Fail != nil {
			t.Errorf("row %d: %+v", l.No, l.Fail)
			continue
		}
		res, err := im.Apply(ctx, l.Raw)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != transfer.Unchanged {
			t.Errorf("row %d (%s): %s %+v\n%s", l.No, res.Code, res.Outcome, res.Errors, l.Raw)
		}
	}
	if rowsRead != 7 {
		t.Errorf("%d rows read back, want 7", rowsRead)
	}
	log.Expect(t, "a CSV export imported back")
	// CSV has products only.
	_, err = exporter().Export(tenantCtx(a), transfer.ExportOptions{Format: "csv", Types: []string{"category"}}, &bytes.Buffer{}, nil)
	if err == nil {
		t.Errorf("a csv export of categories was accepted")
	}
}

func TestExportTypes(t *testing.T) {
	t.Parallel()
	_, a, _ := load(t, richCatalog)
	ex, n := export(t, a, transfer.ExportOptions{Types: []string{"tag", "locale", "category"}})
	var got []string
	for _, l := range strings.Split(strings.TrimSuffix(ex, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m["type"].(string)+":"+m["code"].(string))
	}
	want := []string{"locale:de-DE", "locale:en-GB", "locale:fr-FR", "category:archive", "category:shoes", "category:boots", "tag:new", "tag:sale"}
	if !reflect.DeepEqual(got, want) || n != int64(len(want)) {
		t.Errorf("types locale, category, tag: %v (%d items), want %v", got, n, want)
	}
	// The lines of a kind are the same in a partial export as in the whole one.
	all, _ := export(t, a, transfer.ExportOptions{})
	for _, l := range strings.Split(strings.TrimSuffix(ex, "\n"), "\n") {
		if !strings.Contains(all, l+"\n") {
			t.Errorf("%s is not in the whole export", l)
		}
	}
	if _, err := exporter().Export(tenantCtx(a), transfer.ExportOptions{Types: []string{"planet"}}, &bytes.Buffer{}, nil); err == nil || !strings.Contains(err.Error(), "planet") {
		t.Errorf("an unknown type: %v", err)
	}
	if _, err := exporter().Export(tenantCtx(a), transfer.ExportOptions{Format: "xml"}, &bytes.Buffer{}, nil); err == nil {
		t.Errorf("format xml was accepted")
	}
}

// TestExportJob runs exports as jobs over REST: the worker writes the file with this exporter,
// stores it and the download is the export, byte for byte.
func TestExportJob(t *testing.T) {
	t.Parallel()
	c, a, _ := load(t, richCatalog)
	download := func(opts string) (map[string]any, string) {
		t.Helper()
		exp := Want(t, c.Post("/v1/exports", opts), 201).Obj()
		id := Str(exp, "uuid")
		WaitFor(t, 60*time.Second, "export "+id+" to finish", func() bool {
			exp = Want(t, c.Get("/v1/exports/"+id), 200).Obj()
			return exp["status"] != "queued" && exp["status"] != "running"
		})
		if exp["status"] != "completed" {
			t.Fatalf("export %s: %v", id, exp)
		}
		res, err := http.Get(Str(exp, "downloadUrl"))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("download: %d %s", res.StatusCode, b)
		}
		return exp, string(b)
	}
	exp, file := download(`{"format":"ndjson"}`)
	if want, n := export(t, a, transfer.ExportOptions{}); file != want || exp["itemCount"] != float64(n) {
		t.Errorf("the export job's file (%v items):\n%s\nwant (%d items):\n%s", exp["itemCount"], file, n, want)
	}
	exp, file = download(`{"format":"csv","productFilter":{"statuses":["active"]}}`)
	want, n := export(t, a, transfer.ExportOptions{Format: "csv", Products: &catalogv1.ListProductsRequest{Statuses: &catalogv1.StringsFilter{Eq: []string{"active"}}}})
	if file != want || exp["itemCount"] != float64(3) || n != 3 {
		t.Errorf("the CSV export job's file (%v items):\n%s\nwant (%d items):\n%s", exp["itemCount"], file, n, want)
	}
}
