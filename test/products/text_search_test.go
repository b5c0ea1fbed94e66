package products

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// textCatalog is a tenant with two locales and the input types the text search reads.
type textCatalog struct {
	c                        *Client
	tenant                   string
	de, en                   string // locales de-DE, en-US
	title, desc, note, price string // text (localizable), rich_text (localizable), text, decimal
	mkValue                  func(p, it, locale string, v any) string
	search                   func(kv ...string) string
	wantFound                func(q string, extra []string, want ...string)
	codeSuffix               string
}

func newTextCatalog(t *testing.T) *textCatalog {
	c, tenant := env.TenantClient(t)
	x := &textCatalog{c: c, tenant: tenant, codeSuffix: RandomHex(3)}
	x.de = Str(Want(t, c.Post("/v1/locales", Body("code", "de-DE")), 201).Obj(), "uuid")
	x.en = Str(Want(t, c.Post("/v1/locales", Body("code", "en-US")), 201).Obj(), "uuid")
	group := Str(Want(t, c.Post("/v1/type-groups", Body("code", "g_"+RandomHex(4), "entityType", "product")), 201).Obj(), "uuid")
	mkType := func(code, dt string, loc bool) string {
		return Str(Want(t, c.Post("/v1/input-types", Body("typeGroupUuid", group, "code", code+"_"+RandomHex(3), "dataType", dt, "isLocalizable", loc)), 201).Obj(), "uuid")
	}
	x.title, x.desc = mkType("title", "text", true), mkType("desc", "rich_text", true)
	x.note, x.price = mkType("note", "text", false), mkType("price", "decimal", false)
	x.mkValue = func(p, it, locale string, v any) string {
		b := Body("inputTypeUuid", it, "value", v)
		if locale != "" {
			b["localeUuid"] = locale
		}
		return Str(Want(t, c.Post("/v1/products/"+p+"/input-values", b), 201).Obj(), "uuid")
	}
	x.search = func(kv ...string) string { return "/v1/products" + Q(append([]string{"size", "100"}, kv...)...) }
	x.wantFound = func(q string, extra []string, want ...string) {
		t.Helper()
		WantUUIDs(t, c, x.search(append([]string{"q", q}, extra...)...), false, want...)
	}
	return x
}

// q finds a product by every text API.md names, each in its locale's language, and nothing else.
func TestTextSearchFindsEveryText(t *testing.T) {
	t.Parallel()
	x := newTextCatalog(t)
	c, found := x.c, x.wantFound
	fam := mkFamily(t, c)
	boots := mkProductID(t, c, "BOOT-1-RED", "variant_parent", "familyUuid", fam, "displayName", "Trail runner")
	variant := mkProductID(t, c, "BOOT-1-RED-42", "variant", "familyUuid", fam, "parentUuid", boots)
	other := mkProductID(t, c, "SOCK-9", "simple")
	x.mkValue(boots, x.title, x.de, "Wasserdichte Stiefel für Herren")
	x.mkValue(boots, x.desc, x.en, `<p class="zebra">Waterproof <b>leather</b> boots &amp; laces</p>`)
	x.mkValue(other, x.note, "", "Cotton socks, knitted")
	x.mkValue(other, x.price, "", "12.50") // not text: never searched
	WantSearchFresh(t, pool, x.tenant)

	// German stemming of German text (wasserdichten -> wasserdicht); English of English (booting -> boot).
	found("wasserdichten stiefel", nil, boots, variant)
	found("booting", nil, boots, variant)
	found("the booting", nil, boots, variant) // "the": an English stop word, left out
	// The last word is a prefix (type-ahead); the others are whole words.
	found("stie", nil, boots, variant)
	found("stie wasser", nil)
	found("knit", nil, other)
	// Phrases in double quotes match in order.
	found(`"waterproof leather"`, nil, boots, variant)
	found(`"leather waterproof"`, nil)
	// The code as typed, its parts, and the displayName.
	found("boot-1", nil, boots, variant)
	found("BOOT-1-RED-4", nil, variant)
	found("trail", nil, boots)
	found("sock", nil, other)
	// Markup and non-text values are not text.
	found("zebra", nil)
	found("12.50", nil)
	// locales[eq] limits the localized text (by code or uuid); code and names still match.
	found("stiefel", []string{"locales[eq]", "en-US"})
	found("stiefel", []string{"locales[eq]", "de-DE"}, boots, variant)
	found("stiefel", []string{"locales[eq]", x.de}, boots, variant)
	found("trail", []string{"locales[eq]", "en-US"}, boots)
	// With every other filter (AND).
	found("stiefel", []string{"kinds[eq]", "variant"}, variant)
	found("sock", []string{"kinds[eq]", "variant"})

	// Terms, categories and brands: codes, names and their contents in their locale.
	colour := Str(Want(t, c.Post("/v1/attributes", Body("code", "colour_"+RandomHex(3))), 201).Obj(), "uuid")
	red := Str(Want(t, c.Post("/v1/attributes/"+colour+"/terms", Body("code", "crimson", "displayName", "Crimson")), 201).Obj(), "uuid")
	Want(t, c.Post("/v1/attributes/"+colour+"/terms/"+red+"/contents", Body("localeUuid", x.de, "displayName", "Karminrot")), 201)
	pa := Str(Want(t, c.Post("/v1/products/"+boots+"/attributes", Body("attributeUuid", colour)), 201).Obj(), "uuid")
	Want(t, c.Post("/v1/products/"+boots+"/attributes/"+pa+"/terms", Body("termUuid", red)), 201)
	found("crimson", nil, boots, variant) // the variant's effective terms
	found("karminrot", nil, boots, variant)
	cat := Str(Want(t, c.Post("/v1/categories", Body("code", "footwear_"+x.codeSuffix, "displayName", "Outdoor footwear")), 201).Obj(), "uuid")
	Want(t, c.Post("/v1/categories/"+cat+"/contents", Body("localeUuid", x.de, "displayName", "Schuhe", "description", "Bequeme Wanderschuhe")), 201)
	Want(t, c.Post("/v1/products/"+other+"/categories", Body("categoryUuid", cat)), 201)
	found("outdoor", nil, other)
	found("wanderschuh", nil, other)
	found("footwear_"+x.codeSuffix, nil, other)
	brand := Str(Want(t, c.Post("/v1/brands", Body("code", "acme_"+x.codeSuffix, "displayName", "Acme Outfitters")), 201).Obj(), "uuid")
	Want(t, c.Patch("/v1/products/"+other, Body("brandUuid", brand)), 200)
	found("outfitters", nil, other)
	WantSearchFresh(t, pool, x.tenant)

	// Renames and content changes reach the products at once.
	Want(t, c.Patch("/v1/attributes/"+colour+"/terms/"+red, Body("displayName", "Scarlet")), 200)
	found("crimson", nil, boots, variant) // its code
	found("scarlet", nil, boots, variant)
	Want(t, c.Patch("/v1/categories/"+cat, Body("displayName", "Mountain gear")), 200)
	found("outdoor", nil)
	found("mountain", nil, other)
	Want(t, c.Patch("/v1/brands/"+brand, Body("displayName", "Zenith")), 200)
	found("outfitters", nil)
	found("zenith", nil, other)
	bc := Str(Want(t, c.Post("/v1/brands/"+brand+"/contents", Body("localeUuid", x.en, "displayName", "Zenith Mountaineering")), 201).Obj(), "uuid")
	found("mountaineering", nil, other)
	Want(t, c.Delete("/v1/brands/"+brand+"/contents/"+bc), 204)
	found("mountaineering", nil)
	found("sock-9", nil, other)
	Want(t, c.Patch("/v1/products/"+other, Body("code", "STOCKING-9", "displayName", "Warm stockings")), 200)
	found("sock-9", nil)
	found("stocking", nil, other)
	// A variant's own value hides the parent's for that key; deleting it shows the parent's again.
	own := x.mkValue(variant, x.title, x.de, "Gummistiefel")
	found("wasserdichte", nil, boots)
	found("gummistiefel", nil, variant)
	Want(t, c.Delete("/v1/products/"+variant+"/input-values/"+own), 204)
	found("wasserdichte", nil, boots, variant)
	WantSearchFresh(t, pool, x.tenant)
	// A locale whose code changes language is parsed in the new one (English: no German stem).
	Want(t, c.Patch("/v1/locales/"+x.de, Body("code", "en-GB")), 200)
	WantSearchFresh(t, pool, x.tenant)
	found("wasserdichten stiefel", nil)
	found("wasserdichte stiefel", nil, boots, variant)
}

// Relevance: the default order with q, text in the code and name first, ties by uuid ascending;
// keyset pages walk it like the offset pages.
func TestTextSearchRelevanceAndPages(t *testing.T) {
	t.Parallel()
	x := newTextCatalog(t)
	c := x.c
	named := mkProductID(t, c, "lantern-"+x.codeSuffix, "simple", "displayName", "Lantern")
	var described []string
	for i := range 5 {
		p := mkProductID(t, c, fmt.Sprintf("item-%d-%s", i, x.codeSuffix), "simple")
		x.mkValue(p, x.desc, x.en, "<p>Comes with a small lantern.</p>")
		described = append(described, p)
	}
	slices.Sort(described) // equal relevance: by uuid ascending
	want := append([]string{named}, described...)
	WantUUIDs(t, c, x.search("q", "lantern"), true, want...)
	WantUUIDs(t, c, x.search("q", "lantern", "relevance[order]", "asc"), true, append(slices.Clone(described), named)...)
	// Keyset: size 2 from the first page on, by nextCursor, gives the same order.
	var walked []string
	r := Want(t, c.Get("/v1/products"+Q("q", "lantern", "size", "2")), 200)
	for {
		walked = append(walked, UUIDsOf(r.Items())...)
		next, _ := r.Obj()["pagination"].(map[string]any)["nextCursor"].(string)
		if next == "" {
			break
		}
		r = Want(t, c.Get("/v1/products"+Q("q", "lantern", "size", "2", "cursor", next)), 200)
	}
	if !slices.Equal(walked, want) {
		t.Errorf("keyset walk %v, want %v", walked, want)
	}
	// Another order field replaces relevance.
	WantUUIDs(t, c, x.search("q", "lantern", "code[order]", "desc"), false, want...)
	// The page counts its matches: a later page by offset, a page past the last (counted on its
	// own) and a q matching nothing keep the exact totalItems.
	for _, p := range []struct {
		page  string
		items int
	}{{"2", 2}, {"3", 2}, {"4", 0}, {"40", 0}} {
		r := Want(t, c.Get("/v1/products"+Q("q", "lantern", "size", "2", "page", p.page)), 200)
		if got, tot := UUIDsOf(r.Items()), r.Obj()["pagination"].(map[string]any)["totalItems"]; len(got) != p.items || tot != float64(len(want)) {
			t.Errorf("page %s of 2: %v, totalItems %v; want %d items of %d", p.page, got, tot, p.items, len(want))
		}
	}
	WantTotal(t, c, x.search("q", "zyzzyvalantern"), 0)
}

// Facets count every product matching the request, each without its own filter.
func TestFacets(t *testing.T) {
	t.Parallel()
	x := newTextCatalog(t)
	c := x.c
	b1, b2 := mkBrand(t, c), mkBrand(t, c)
	tag := mkTag(t, c)
	root, _, leaf, _ := mkCategoryTree(t, c)
	var ps []string
	for i := range 25 {
		extra := []any{"brandUuid", []string{b1, b1, b2}[i%3]}
		p := mkProductID(t, c, fmt.Sprintf("f%02d-%s", i, x.codeSuffix), "simple", extra...)
		x.mkValue(p, x.note, "", "facet fodder")
		if i%5 == 0 {
			Want(t, c.Post("/v1/products/"+p+"/categories", Body("categoryUuid", leaf)), 201)
			Want(t, c.Post("/v1/products/"+p+"/tags", Body("tagUuid", tag)), 201)
		}
		ps = append(ps, p)
	}
	Want(t, transition(c, ps[0], "activate"), 200)
	mkProductID(t, c, "unrelated-"+x.codeSuffix, "simple", "brandUuid", b2)
	facets := func(kv ...string) map[string]any {
		t.Helper()
		r := Want(t, c.Get("/v1/products"+Q(kv...)), 200)
		f, _ := r.Obj()["facets"].(map[string]any)
		return f
	}
	counts := func(v any) map[string]int {
		out := map[string]int{}
		for _, e := range v.([]any) {
			m := e.(map[string]any)
			k, _ := m["uuid"].(string)
			if k == "" {
				k = m["value"].(string)
			}
			out[k] = int(m["count"].(float64))
		}
		return out
	}
	all := []string{"q", "fodder", "size", "2", "facets[]", "brands", "facets[]", "categoryTree", "facets[]", "categories",
		"facets[]", "tags", "facets[]", "kinds", "facets[]", "statuses"}
	f := facets(all...)
	if got := counts(f["brands"]); got[b1] != 17 || got[b2] != 8 || len(got) != 2 {
		t.Errorf("brands %v", got)
	}
	if got := counts(f["categoryTree"]); got[root] != 5 || got[leaf] != 5 || len(got) != 3 {
		t.Errorf("categoryTree %v", got)
	}
	if got := counts(f["categories"]); got[leaf] != 5 || len(got) != 1 {
		t.Errorf("categories %v", got)
	}
	if got := counts(f["tags"]); got[tag] != 5 {
		t.Errorf("tags %v", got)
	}
	if got := counts(f["kinds"]); got["simple"] != 25 {
		t.Errorf("kinds %v", got)
	}
	if got := counts(f["statuses"]); got["draft"] != 24 || got["active"] != 1 {
		t.Errorf("statuses %v", got)
	}
	for _, name := range []string{"terms", "families", "publishedChannels", "readyChannels"} {
		if v, ok := f[name]; !ok || v != nil {
			t.Errorf("facet %s not asked for: %v", name, v)
		}
	}
	// Most frequent first, with its code.
	first := f["brands"].([]any)[0].(map[string]any)
	if first["uuid"] != b1 || !strings.HasPrefix(first["code"].(string), "b_") {
		t.Errorf("first brand %v", first)
	}
	// The brand filter narrows every facet but brands.
	f = facets(append(all, "brandUuids[eq]", b2)...)
	if got := counts(f["brands"]); got[b1] != 17 || got[b2] != 8 {
		t.Errorf("brands with a brand selected %v", got)
	}
	if got := counts(f["kinds"]); got["simple"] != 8 {
		t.Errorf("kinds with a brand selected %v", got)
	}
	// facetSize cuts each facet; no facets[]: null.
	f = facets("q", "fodder", "facets[]", "brands", "facetSize", "1")
	if got := counts(f["brands"]); len(got) != 1 || got[b1] != 17 {
		t.Errorf("facetSize 1: %v", got)
	}
	if r := Want(t, c.Get("/v1/products"+Q("q", "fodder")), 200); r.Obj()["facets"] != nil {
		t.Errorf("facets without facets[]: %v", r.Obj()["facets"])
	}
	// Without q too, over the whole filtered list.
	f = facets("facets[]", "brands")
	if got := counts(f["brands"]); got[b2] != 9 {
		t.Errorf("brands without q %v", got)
	}
}

// Bad input is 400 naming the parameter.
func TestTextSearchBadInput(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	for _, tc := range []struct {
		query []string
		field string
	}{
		{[]string{"q", ""}, "q"},
		{[]string{"q", "   "}, "q"},
		{[]string{"q", `"" ...`}, "q"},
		{[]string{"q", strings.Repeat("a", 201)}, "q"},
		{[]string{"q", "red & blue"}, "q"},
		{[]string{"q", "red | blue"}, "q"},
		{[]string{"q", "!red"}, "q"},
		{[]string{"q", "re:*"}, "q"},
		{[]string{"q", "(red)"}, "q"},
		{[]string{"q", "red <-> blue"}, "q"},
		{[]string{"facets[]", "colours"}, "facets[]"},
		{[]string{"facetSize", "0"}, "facetSize"},
		{[]string{"facetSize", "101"}, "facetSize"},
	} {
		WantProblem(t, c.Get("/v1/products"+Q(tc.query...)), 400, "VALIDATION_FAILED", tc.field)
	}
	// 200 characters and quotes, backslashes and apostrophes are words like any other.
	Want(t, c.Get("/v1/products"+Q("q", strings.Repeat("a", 200))), 200)
	Want(t, c.Get("/v1/products"+Q("q", `men's \"boots\ 'x'`)), 200)
}

// Writers that meet: names and contents of terms, categories and brands changing while products
// link them, and text values on a parent while variants arrive under it. Every product ends with
// the document its texts give.
func TestTextSearchUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	x := newTextCatalog(t)
	c := x.c
	fam := mkFamily(t, c)
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	term := Str(Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", "t_"+RandomHex(4))), 201).Obj(), "uuid")
	cat := mkCategory(t, c)
	brand := mkBrand(t, c)
	vp := mkProductID(t, c, "vp-"+x.codeSuffix, "variant_parent", "familyUuid", fam)

	wg := newRacing()
	wantStatus := wg.want
	wg.Add(1)
	go func() { // renames and contents
		defer wg.Done()
		for i := range 8 {
			wantStatus("term", c.Patch("/v1/attributes/"+attr+"/terms/"+term, Body("displayName", fmt.Sprintf("Term%d", i))), 200)
			wantStatus("category", c.Patch("/v1/categories/"+cat, Body("displayName", fmt.Sprintf("Cat%d", i))), 200)
			wantStatus("brand", c.Patch("/v1/brands/"+brand, Body("displayName", fmt.Sprintf("Brand%d", i))), 200)
		}
		wantStatus("term content", c.Post("/v1/attributes/"+attr+"/terms/"+term+"/contents", Body("localeUuid", x.de, "displayName", "Rot")), 201)
		wantStatus("category content", c.Post("/v1/categories/"+cat+"/contents", Body("localeUuid", x.en, "displayName", "Shoes")), 201)
		wantStatus("brand content", c.Post("/v1/brands/"+brand+"/contents", Body("localeUuid", x.de, "displayName", "Marke")), 201)
	}()
	for w := range 3 { // products linking them
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 {
				r := c.Post("/v1/products", Body("code", fmt.Sprintf("p%d-%d", w, i), "kind", "simple", "brandUuid", brand))
				wantStatus("create", r, 201)
				if r.Status != 201 {
					continue
				}
				p := Str(r.Obj(), "uuid")
				wantStatus("link", c.Post("/v1/products/"+p+"/categories", Body("categoryUuid", cat)), 201)
				r = c.Post("/v1/products/"+p+"/attributes", Body("attributeUuid", attr))
				wantStatus("attribute", r, 201)
				if r.Status == 201 {
					wantStatus("term", c.Post("/v1/products/"+p+"/attributes/"+Str(r.Obj(), "uuid")+"/terms", Body("termUuid", term)), 201)
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // values on the parent
		defer wg.Done()
		var ids []string
		for _, locale := range []string{x.de, x.en} {
			r := c.Post("/v1/products/"+vp+"/input-values", Body("inputTypeUuid", x.title, "localeUuid", locale, "value", "Titel"))
			wantStatus("value", r, 201)
			if r.Status == 201 {
				ids = append(ids, Str(r.Obj(), "uuid"))
			}
		}
		for i := range 6 {
			if len(ids) == 2 {
				wantStatus("value update", c.Patch("/v1/products/"+vp+"/input-values/"+ids[i%2], Body("value", fmt.Sprintf("Titel%d", i))), 200)
			}
		}
	}()
	for w := range 2 { // variants arriving under it
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 {
				wantStatus("variant", c.Post("/v1/products", Body("code", fmt.Sprintf("v%d-%d", w, i), "kind", "variant", "familyUuid", fam, "parentUuid", vp)), 201)
			}
		}()
	}
	wg.report(t)
	WantSearchFresh(t, pool, x.tenant)
	WantTotal(t, c, x.search("q", "term7 cat7 brand7"), 12)
	WantTotal(t, c, x.search("q", "rot marke shoes"), 12)
	WantTotal(t, c, x.search("q", "titel5", "kinds[eq]", "variant"), 8)
}

// gRPC ListProducts takes q, facets and facetSize, and refuses bad ones as REST does.
func TestGRPCTextSearch(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	pc := pb.NewProductServiceClient(env.GRPC)
	for _, code := range []string{"LAMP-1", "LAMP-2", "DESK-1"} {
		if _, err := pc.CreateProduct(ctx, &pb.CreateProductRequest{Product: &pb.ProductCreate{Code: code, Kind: pb.ProductKind_PRODUCT_KIND_SIMPLE}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := pc.ListProducts(ctx, &pb.ListProductsRequest{Q: ptr("lam"), Facets: []string{"kinds"}, FacetSize: ptr(int32(5))})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 2 || got.Pagination.TotalItems != 2 || len(got.Facets.GetKinds().GetItems()) != 1 ||
		got.Facets.Kinds.Items[0].Value != "simple" || got.Facets.Kinds.Items[0].Count != 2 || got.Facets.Brands != nil {
		t.Errorf("q=lam: %v", got)
	}
	_, err = pc.ListProducts(ctx, &pb.ListProductsRequest{Q: ptr("lamp & desk")})
	WantGRPC(t, "operator", err, codes.InvalidArgument, "VALIDATION_FAILED", "q")
	_, err = pc.ListProducts(ctx, &pb.ListProductsRequest{Facets: []string{"colour"}})
	WantGRPC(t, "unknown facet", err, codes.InvalidArgument, "VALIDATION_FAILED", "facets[]")
	_, err = pc.ListProducts(ctx, &pb.ListProductsRequest{FacetSize: ptr(int32(101))})
	WantGRPC(t, "facetSize", err, codes.InvalidArgument, "VALIDATION_FAILED", "facetSize")
}
