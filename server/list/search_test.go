package list

import (
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

func TestParseQuery(t *testing.T) {
	for q, want := range map[string]struct {
		items   []string
		phrases []bool
		prefix  bool
	}{
		"red boots":                {[]string{"red", "boots"}, []bool{false, false}, true},
		`  "red boots"  `:          {[]string{"red boots"}, []bool{true}, false},
		`waterproof "red boots" s`: {[]string{"waterproof", "red boots", "s"}, []bool{false, true, false}, true},
		`"open phrase`:             {[]string{"open phrase"}, []bool{true}, false},
		`- ... "" boot-1`:          {[]string{"boot-1"}, []bool{false}, true},
		"   ":                      {nil, nil, false},
		`men's \x`:                 {[]string{"men's", `\x`}, []bool{false, false}, true},
	} {
		got := parseQuery(q)
		if !slices.Equal(got.items, want.items) || !slices.Equal(got.phrases, want.phrases) || got.prefix != want.prefix {
			t.Errorf("%q: %q %v prefix %v, want %q %v %v", q, got.items, got.phrases, got.prefix, want.items, want.phrases, want.prefix)
		}
	}
}

var searchSpec = &Spec{
	Table: "products",
	Filters: CodeNameFilters(map[string]Field{
		"statuses":   {Column: "status", Type: Enum, Values: []string{"draft", "removed"}},
		"kinds":      {Column: "kind", Type: Enum, Values: []string{"simple", "variant"}},
		"brandUuids": {Column: "brand_uuid", Type: UUID},
	}),
	Order:      CodeNameOrder(map[string]string{"status": "status", "kind": "kind", "relevance": Relevance}),
	SoftDelete: &SoftDelete{StatusColumn: "status", Removed: "removed", IsRemovedField: "isRemoved", StatusesField: "statuses"},
	Search:     &Search{Document: "doc", LocalesField: "locales", Query: "q(@tenant, @items, @phrases, @prefix, @locales)"},
	Facets: map[string]Facet{
		"brands":   {Filter: "brandUuids", Keys: "SELECT m.brand_uuid AS k FROM m", Codes: "SELECT uuid AS k, code FROM brands WHERE tenant_id = @tenant"},
		"kinds":    {Filter: "kinds", Keys: "SELECT m.kind AS k FROM m"},
		"statuses": {Filter: "statuses", Keys: "SELECT m.status AS k FROM m"},
	},
}

// q is a tsquery parameter of the WHERE; the default order is its rank, ties by uuid ascending.
func TestBuildSearch(t *testing.T) {
	brand := "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"
	req := &catalogv1.ListProductsRequest{Q: proto.String("red boot"), Kinds: &catalogv1.StringsFilter{Eq: []string{"simple"}},
		BrandUuids: &catalogv1.StringsFilter{Eq: []string{brand}}, Facets: []string{"brands", "kinds", "brands"}, FacetSize: proto.Int32(3)}
	q, err := searchSpec.Build("t1", req)
	if err != nil {
		t.Fatal(err)
	}
	// The matches are read once (m: uuid and order keys), the page is m's first rows, the
	// count m's (the last column).
	for _, want := range []string{"doc @@ $3::tsquery", "(ts_rank(doc, $3::tsquery)) AS catalogd_list_k0, (uuid) AS catalogd_list_k1 FROM products WHERE",
		"ORDER BY catalogd_list_k0 DESC, catalogd_list_k1 ASC LIMIT 21 OFFSET 0", "kind IN ('simple')",
		"(SELECT count(*) FROM m) AS " + TotalColumn + " FROM pg JOIN products t ON t.tenant_id = $1 AND t.uuid = pg.catalogd_list_uuid"} {
		if !strings.Contains(q.SQL, want) {
			t.Errorf("SQL without %s:\n%s", want, q.SQL)
		}
	}
	if q.searchArg != 3 || q.Args[2] != nil || !strings.Contains(q.CountSQL, "doc @@ $3::tsquery") || !q.countInPage {
		t.Errorf("search arg %d %v\n%s", q.searchArg, q.Args, q.CountSQL)
	}
	if len(q.facets) != 2 || q.facets[0].name != "brands" || q.facets[1].name != "kinds" {
		t.Fatalf("facets %+v", q.facets)
	}
	// Each facet leaves out its own filter, keeps the others and q.
	b, k := q.facets[0], q.facets[1]
	if strings.Contains(b.sql, "brand_uuid = ANY") || !strings.Contains(b.sql, "kind IN ('simple')") || !strings.Contains(b.sql, "doc @@") ||
		!strings.Contains(b.sql, "LIMIT 3") || !strings.Contains(b.sql, "FROM brands WHERE tenant_id = $1") {
		t.Errorf("brands facet:\n%s", b.sql)
	}
	if strings.Contains(k.sql, "kind IN") || !strings.Contains(k.sql, "brand_uuid = ANY") {
		t.Errorf("kinds facet:\n%s", k.sql)
	}
	// relevance ascending keeps ties ascending; another order replaces relevance.
	req.OrderBy = []*catalogv1.OrderBy{{Field: "relevance", Direction: catalogv1.SortDirection_SORT_DIRECTION_ASC}}
	if q, _ = searchSpec.Build("t1", req); !strings.Contains(q.SQL, "(ts_rank(doc, $3::tsquery)) AS catalogd_list_k0") ||
		!strings.Contains(q.SQL, "ORDER BY catalogd_list_k0 ASC, catalogd_list_k1 ASC LIMIT") {
		t.Errorf("relevance asc:\n%s", q.SQL)
	}
	req.OrderBy = []*catalogv1.OrderBy{{Field: "code", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}}
	if q, _ = searchSpec.Build("t1", req); !strings.Contains(q.SQL, "(code) AS catalogd_list_k0") ||
		!strings.Contains(q.SQL, "ORDER BY catalogd_list_k0 DESC, catalogd_list_k1 DESC LIMIT") {
		t.Errorf("code desc:\n%s", q.SQL)
	}
	// A cursor page reads after the cursor's position, with no count.
	req.OrderBy = nil
	q, _ = searchSpec.Build("t1", req)
	cur := encodeCursor(q.hash, &position{Page: 2, Total: 30, Key: []*string{proto.String("0.5"), proto.String(brand)}})
	req.Cursor = &cur
	if q, err = searchSpec.Build("t1", req); err != nil || q.countInPage || q.CountSQL != "" || strings.Contains(q.SQL, TotalColumn) ||
		!strings.Contains(q.SQL, "ORDER BY ts_rank(doc, $3::tsquery) DESC, uuid ASC LIMIT 21) products ORDER BY ts_rank(doc, $3::tsquery) DESC, uuid ASC") {
		t.Errorf("cursor page: %v\n%s", err, q.SQL)
	}
}

// The facets whose own filter the request lacks share one statement over the matches read once.
func TestBuildFacetsShared(t *testing.T) {
	brand := "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"
	req := &catalogv1.ListProductsRequest{Q: proto.String("boot"), BrandUuids: &catalogv1.StringsFilter{Eq: []string{brand}},
		Facets: []string{"kinds", "brands", "statuses"}, FacetSize: proto.Int32(3)}
	q, err := searchSpec.Build("t1", req)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.facets) != 2 || q.facets[0].name != "brands" || !slices.Equal(q.facets[1].names, []string{"kinds", "statuses"}) {
		t.Fatalf("facets %+v", q.facets)
	}
	sh := q.facets[1]
	for _, want := range []string{"WITH m AS MATERIALIZED (SELECT kind, status FROM products WHERE tenant_id = $1 AND brand_uuid = ANY($2::uuid[])",
		"c0 AS (SELECT k, count(*) AS n FROM (SELECT m.kind AS k FROM m)", "c1 AS (SELECT k, count(*) AS n FROM (SELECT m.status AS k FROM m)",
		"LIMIT 3", "SELECT 1 AS f, c.k::text AS k", ") u ORDER BY f, r"} {
		if !strings.Contains(sh.sql, want) {
			t.Errorf("shared facets without %s:\n%s", want, sh.sql)
		}
	}
	if sh.searchArg != 3 || len(sh.args) != 3 {
		t.Errorf("shared facets: search arg %d of %v", sh.searchArg, sh.args)
	}
}

func TestBuildSearchRefusals(t *testing.T) {
	for _, c := range []struct {
		req   *catalogv1.ListProductsRequest
		field string
	}{
		{&catalogv1.ListProductsRequest{Q: proto.String("")}, "q"},
		{&catalogv1.ListProductsRequest{Q: proto.String(" ... ")}, "q"},
		{&catalogv1.ListProductsRequest{Q: proto.String(strings.Repeat("é", 201))}, "q"},
		{&catalogv1.ListProductsRequest{Q: proto.String("a:*")}, "q"},
		{&catalogv1.ListProductsRequest{Q: proto.String("a | b")}, "q"},
		{&catalogv1.ListProductsRequest{Facets: []string{"colours"}}, "facets[]"},
		{&catalogv1.ListProductsRequest{FacetSize: proto.Int32(0)}, "facetSize"},
	} {
		_, err := searchSpec.Build("t1", c.req)
		if !slices.Contains(errFields(err), c.field) {
			t.Errorf("%v: %v, want an error naming %s", c.req, err, c.field)
		}
	}
	// Without q, relevance leaves the ties' order (uuid ascending), and locales limit nothing.
	q, err := searchSpec.Build("t1", &catalogv1.ListProductsRequest{Locales: &catalogv1.StringsFilter{Eq: []string{"de-DE"}},
		OrderBy: []*catalogv1.OrderBy{{Field: "relevance", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}}})
	if err != nil || !strings.Contains(q.SQL, "ORDER BY uuid ASC") || strings.Contains(q.SQL, "@@") {
		t.Errorf("relevance without q: %v\n%v", err, q)
	}
	// 200 characters are fine.
	if _, err := searchSpec.Build("t1", &catalogv1.ListProductsRequest{Q: proto.String(strings.Repeat("é", 200))}); err != nil {
		t.Error(err)
	}
}
