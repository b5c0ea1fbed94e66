package mock_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/mock"
)

var env *apptest.Env

func TestMain(m *testing.M) { apptest.Main(m, &env, nil) }

// counting counts the calls made on a connection.
type counting struct {
	grpc.ClientConnInterface
	calls atomic.Int32
}

func (c *counting) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	c.calls.Add(1)
	return c.ClientConnInterface.Invoke(ctx, method, args, reply, opts...)
}

// seed seeds a fresh tenant and returns a REST client for it with the summary.
func seed(t *testing.T) (*apptest.Client, mock.Summary) {
	t.Helper()
	tenant := "t-" + apptest.RandomHex(8)
	conn := &counting{ClientConnInterface: env.GRPC}
	start := time.Now()
	sum, err := mock.Seed(apptest.GRPCContext(t, tenant), conn, tenant)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("seeded tenant %s in %v with %d calls: %v", tenant, time.Since(start).Round(time.Millisecond), conn.calls.Load(), sum)
	// Seeding counts against the tenant's rate limit (default burst 400): it must leave most of
	// it to the requests that follow.
	if n := conn.calls.Load(); n > 200 {
		t.Errorf("Seed made %d calls, more than half of the default rate-limit burst", n)
	}
	if sum.Tenant != tenant {
		t.Errorf("summary tenant %q, want %q", sum.Tenant, tenant)
	}
	return env.ClientFor(t, tenant), sum
}

// all is every item of a list (the demo catalog's lists fit one page of 100).
func all(t *testing.T, c *apptest.Client, path string) []map[string]any {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	r := apptest.Want(t, c.Get(path+sep+"size=100"), 200)
	if tot := r.Obj()["pagination"].(map[string]any)["totalItems"].(float64); int(tot) != len(r.Items()) {
		t.Fatalf("GET %s: %v items of %d on the first page of 100", path, tot, len(r.Items()))
	}
	return r.Items()
}

// byCode indexes items by code.
func byCode(items []map[string]any) map[string]map[string]any {
	m := map[string]map[string]any{}
	for _, it := range items {
		m[apptest.Str(it, "code")] = it
	}
	return m
}

// under sums the items of the list child(parent) over every parent item of the list at parents.
func under(t *testing.T, c *apptest.Client, parents []map[string]any, child func(p map[string]any) string) int {
	t.Helper()
	n := 0
	for _, p := range parents {
		n += len(all(t, c, child(p)))
	}
	return n
}

func uuidOf(p map[string]any) string { return apptest.Str(p, "uuid") }

// The seeded catalog is there, through REST, as the summary counts it, and holds together.
func TestSeed(t *testing.T) {
	t.Parallel()
	c, sum := seed(t)
	get := func(path string) map[string]any { return apptest.Want(t, c.Get(path), 200).Obj() }

	locales := all(t, c, "/v1/locales")
	attributes := all(t, c, "/v1/attributes")
	categories := all(t, c, "/v1/categories")
	brands := all(t, c, "/v1/brands")
	tags := all(t, c, "/v1/tags")
	families := all(t, c, "/v1/families")
	channels := all(t, c, "/v1/channels")
	assets := all(t, c, "/v1/assets")
	products := all(t, c, "/v1/products")
	var terms []map[string]any
	for _, a := range attributes {
		for _, term := range all(t, c, "/v1/attributes/"+uuidOf(a)+"/terms") {
			term["attributeUuid"] = uuidOf(a)
			terms = append(terms, term)
		}
	}
	var productAttributes []map[string]any
	for _, p := range products {
		productAttributes = append(productAttributes, all(t, c, "/v1/products/"+uuidOf(p)+"/attributes")...)
	}
	productList := func(kind string) int {
		return under(t, c, products, func(p map[string]any) string { return "/v1/products/" + uuidOf(p) + "/" + kind })
	}

	counts := []struct {
		what      string
		got, want int
	}{
		{"locales", len(locales), sum.Locales},
		{"attributes", len(attributes), sum.Attributes},
		{"attribute contents", under(t, c, attributes, func(a map[string]any) string { return "/v1/attributes/" + uuidOf(a) + "/contents" }), sum.AttributeContents},
		{"attribute terms", len(terms), sum.AttributeTerms},
		{"attribute term contents", under(t, c, terms, func(x map[string]any) string {
			return "/v1/attributes/" + apptest.Str(x, "attributeUuid") + "/terms/" + uuidOf(x) + "/contents"
		}), sum.AttributeTermContents},
		{"categories", len(categories), sum.Categories},
		{"category contents", under(t, c, categories, func(x map[string]any) string { return "/v1/categories/" + uuidOf(x) + "/contents" }), sum.CategoryContents},
		{"brands", len(brands), sum.Brands},
		{"brand contents", under(t, c, brands, func(x map[string]any) string { return "/v1/brands/" + uuidOf(x) + "/contents" }), sum.BrandContents},
		{"tags", len(tags), sum.Tags},
		{"tag contents", under(t, c, tags, func(x map[string]any) string { return "/v1/tags/" + uuidOf(x) + "/contents" }), sum.TagContents},
		{"type groups", len(all(t, c, "/v1/type-groups")), sum.TypeGroups},
		{"input types", len(all(t, c, "/v1/input-types")), sum.InputTypes},
		{"product asset types", len(all(t, c, "/v1/product-asset-types")), sum.ProductAssetTypes},
		{"product relation types", len(all(t, c, "/v1/product-relation-types")), sum.ProductRelationTypes},
		{"families", len(families), sum.Families},
		{"family attributes", under(t, c, families, func(x map[string]any) string { return "/v1/families/" + uuidOf(x) + "/attributes" }), sum.FamilyAttributes},
		{"family input types", under(t, c, families, func(x map[string]any) string { return "/v1/families/" + uuidOf(x) + "/input-types" }), sum.FamilyInputTypes},
		{"family categories", under(t, c, families, func(x map[string]any) string { return "/v1/families/" + uuidOf(x) + "/categories" }), sum.FamilyCategories},
		{"family asset types", under(t, c, families, func(x map[string]any) string { return "/v1/families/" + uuidOf(x) + "/asset-types" }), sum.FamilyAssetTypes},
		{"family relation types", under(t, c, families, func(x map[string]any) string { return "/v1/families/" + uuidOf(x) + "/relation-types" }), sum.FamilyRelationTypes},
		{"channels", len(channels), sum.Channels},
		{"channel input types", under(t, c, channels, func(x map[string]any) string { return "/v1/channels/" + uuidOf(x) + "/input-types" }), sum.ChannelInputTypes},
		{"assets", len(assets), sum.Assets},
		{"collections", len(all(t, c, "/v1/collections?statuses[eq]=active")), sum.Collections},
		{"asset collections", under(t, c, assets, func(x map[string]any) string { return "/v1/assets/" + uuidOf(x) + "/collections" }), sum.AssetCollections},
		{"products", len(products), sum.Products},
		{"variants", len(all(t, c, "/v1/products?kinds[eq]=variant")), sum.Variants},
		{"product attributes", len(productAttributes), sum.ProductAttributes},
		{"product terms", under(t, c, productAttributes, func(x map[string]any) string {
			return "/v1/products/" + apptest.Str(x, "productUuid") + "/attributes/" + uuidOf(x) + "/terms"
		}), sum.ProductTerms},
		{"product categories", productList("categories"), sum.ProductCategories},
		{"product tags", productList("tags"), sum.ProductTags},
		{"product assets", productList("assets"), sum.ProductAssets},
		{"product relations", productList("relations"), sum.ProductRelations},
		{"product input values", productList("input-values"), sum.ProductInputValues},
		{"publications", productList("publications"), sum.Publications},
		{"published publications", productList("publications?status[eq]=published"), sum.PublishedPublications},
	}
	for _, n := range counts {
		if n.got != n.want || n.want == 0 {
			t.Errorf("%s: the API lists %d, the summary says %d (and every family has some)", n.what, n.got, n.want)
		}
	}

	// docs/mock-catalog.md names every code of the catalog, so that it stays in step with it.
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "mock-catalog.md"))
	if err != nil {
		t.Fatal(err)
	}
	everything := slices.Concat(locales, attributes, terms, categories, brands, tags, families, channels, assets, products,
		all(t, c, "/v1/type-groups"), all(t, c, "/v1/input-types"), all(t, c, "/v1/product-asset-types"),
		all(t, c, "/v1/product-relation-types"), all(t, c, "/v1/collections"))
	for _, x := range everything {
		if code := apptest.Str(x, "code"); !strings.Contains(string(doc), "`"+code+"`") {
			t.Errorf("docs/mock-catalog.md does not name `%s`", code)
		}
	}

	// Locales: three, en-US the default.
	loc := byCode(locales)
	if len(loc) != 3 || loc[mock.DefaultLocale]["isDefault"] != true || loc["de-DE"]["isDefault"] != false || loc["fr-FR"] == nil {
		t.Errorf("locales %v", locales)
	}
	localeSet := apptest.UUIDsOf(locales)
	// everyLocale checks that the contents at path are one per locale, with the want display names
	// (en-US, de-DE, fr-FR) when given.
	everyLocale := func(path string, want ...string) {
		t.Helper()
		cs := all(t, c, path)
		names := map[string]string{}
		for _, x := range cs {
			names[apptest.Str(x, "localeUuid")] = apptest.Str(x, "displayName")
		}
		var got []string
		for k := range names {
			got = append(got, k)
		}
		if len(cs) != 3 || !apptest.SameSet(got, localeSet) {
			t.Errorf("%s: contents in locales %v, want one in each of %v", path, got, localeSet)
		}
		for i, l := range []string{"en-US", "de-DE", "fr-FR"} {
			if len(want) > i && names[uuidOf(loc[l])] != want[i] {
				t.Errorf("%s: %s content %q, want %q", path, l, names[uuidOf(loc[l])], want[i])
			}
		}
	}

	// Attributes are published; every attribute and every term has a content in each locale.
	for _, a := range attributes {
		if a["status"] != "published" {
			t.Errorf("attribute %s is %v", a["code"], a["status"])
		}
		everyLocale("/v1/attributes/" + uuidOf(a) + "/contents")
	}
	for _, x := range terms {
		everyLocale("/v1/attributes/" + apptest.Str(x, "attributeUuid") + "/terms/" + uuidOf(x) + "/contents")
	}
	color := uuidOf(byCode(attributes)["color"])
	red := byCode(all(t, c, "/v1/attributes/"+color+"/terms"))["red"]
	everyLocale("/v1/attributes/"+color+"/terms/"+uuidOf(red)+"/contents", "Red", "Rot", "Rouge")

	// The category tree: Apparel > Shoes > Running shoes, three levels at most, all active,
	// localized.
	cat := byCode(categories)
	depth := func(x map[string]any) int {
		d := 1
		for x["parentUuid"] != nil {
			for _, y := range categories {
				if uuidOf(y) == x["parentUuid"] {
					x = y
				}
			}
			d++
			if d > len(categories) {
				t.Fatalf("the category tree has a cycle")
			}
		}
		return d
	}
	maxDepth := 0
	for _, x := range categories {
		maxDepth = max(maxDepth, depth(x))
		if x["status"] != "active" {
			t.Errorf("category %s is %v", x["code"], x["status"])
		}
		everyLocale("/v1/categories/" + uuidOf(x) + "/contents")
	}
	if maxDepth != 3 || cat["running_shoes"]["parentUuid"] != uuidOf(cat["shoes"]) || cat["shoes"]["parentUuid"] != uuidOf(cat["apparel"]) ||
		cat["apparel"]["parentUuid"] != nil {
		t.Errorf("category tree: depth %d, running_shoes %v, shoes %v, apparel %v", maxDepth, cat["running_shoes"], cat["shoes"], cat["apparel"])
	}
	everyLocale("/v1/categories/"+uuidOf(cat["running_shoes"])+"/contents", "Running shoes", "Laufschuhe", "Chaussures de running")
	apptest.WantTotal(t, c, "/v1/categories?isRoot[eq]=true", 2)

	// The product with variants: 4 variants of its family, under it, differing by color and shoe
	// size, inheriting its values and (the red ones) its packshot.
	prod := byCode(products)
	parent := prod[mock.VariantParent]
	if parent["kind"] != "variant_parent" || parent["status"] != "active" {
		t.Errorf("parent %v", parent)
	}
	variants := all(t, c, "/v1/products?parentUuids[eq]="+uuidOf(parent))
	withVariants := get("/v1/products/" + uuidOf(parent) + "?include[variants]=true")
	got, _ := apptest.Strings(withVariants["variantUuids"])
	if len(variants) != 4 || !apptest.SameSet(got, apptest.UUIDsOf(variants)) {
		t.Errorf("variants %v, parent's variantUuids %v", apptest.UUIDsOf(variants), got)
	}
	var combos []string
	for _, v := range variants {
		if v["kind"] != "variant" || v["familyUuid"] != parent["familyUuid"] || v["status"] != "active" {
			t.Errorf("variant %v", v)
		}
		full := get("/v1/products/" + uuidOf(v) + "?expand[productAttributes]=true&expand[inputValues]=true")
		combo := ""
		for _, pa := range full["productAttributes"].([]any) {
			pa := pa.(map[string]any)
			if pa["isVariantAxis"] == true {
				for _, term := range pa["productTerms"].([]any) {
					combo += apptest.Str(term.(map[string]any), "termUuid") + " "
				}
			}
		}
		combos = append(combos, combo)
		inherited := 0
		for _, iv := range full["inputValues"].([]any) {
			if iv.(map[string]any)["inherited"] == true {
				inherited++
			}
		}
		if inherited == 0 {
			t.Errorf("variant %s inherits no value of its parent", v["code"])
		}
	}
	sort.Strings(combos)
	if len(slices.Compact(slices.Clone(combos))) != 4 || combos[0] == "" {
		t.Errorf("variants' axis term combinations %v, want 4 distinct", combos)
	}
	packshot := uuidOf(byCode(assets)["trail-runner-x-packshot"])
	if prod["trail-runner-x-red-42"]["featuredAssetUuid"] != packshot ||
		prod["trail-runner-x-blue-42"]["featuredAssetUuid"] != uuidOf(byCode(assets)["trail-runner-x-blue-packshot"]) {
		t.Errorf("featured assets: red %v, blue %v, parent's packshot %s", prod["trail-runner-x-red-42"]["featuredAssetUuid"],
			prod["trail-runner-x-blue-42"]["featuredAssetUuid"], packshot)
	}

	// Lifecycles and publications: each product's publications in the state its status allows,
	// ready where published.
	ch := byCode(channels)
	pubs := func(code string) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, p := range all(t, c, "/v1/products/"+uuidOf(prod[code])+"/publications") {
			for k, x := range ch {
				if uuidOf(x) == p["channelUuid"] {
					out[k] = p
				}
			}
		}
		return out
	}
	readiness := func(code string, pub map[string]any) map[string]any {
		return get("/v1/products/" + uuidOf(prod[code]) + "/publications/" + uuidOf(pub) + "/readiness")
	}
	for code, want := range map[string]struct {
		status string
		pubs   map[string]string
	}{
		mock.PublishedProduct:    {"active", map[string]string{"web": "published", "retail_de": "published"}},
		mock.VariantParent:       {"active", map[string]string{"web": "published", "mobile": "published"}},
		"trail-runner-x-blue-43": {"active", map[string]string{"web": "published"}},
		"daypack-20":             {"active", map[string]string{"web": "published", "mobile": "published"}},
		"merino-tee":             {"active", map[string]string{"web": "draft"}},
		mock.DraftProduct:        {"draft", map[string]string{"web": "draft"}},
		"classic-windbreaker":    {"inactive", map[string]string{"web": "unpublished"}},
	} {
		if prod[code]["status"] != want.status {
			t.Errorf("%s is %v, want %s", code, prod[code]["status"], want.status)
		}
		got := pubs(code)
		if len(got) != len(want.pubs) {
			t.Errorf("%s: publications on %v, want %v", code, got, want.pubs)
		}
		for k, st := range want.pubs {
			if got[k]["status"] != st {
				t.Errorf("%s: publication on %s is %v, want %s", code, k, got[k]["status"], st)
				continue
			}
			if r := readiness(code, got[k]); (st == "published") != (r["ready"] == true) && code != "merino-tee" {
				t.Errorf("%s on %s (%s): readiness %v", code, k, st, r)
			}
		}
	}
	if r := readiness("merino-tee", pubs("merino-tee")["web"]); r["ready"] != true {
		t.Errorf("merino-tee on web: readiness %v, want ready (a publication ready to publish)", r)
	}
	r := readiness(mock.DraftProduct, pubs(mock.DraftProduct)["web"])
	kinds := map[string]int{}
	for _, m := range r["missing"].([]any) {
		kinds[apptest.Str(m.(map[string]any), "kind")]++
	}
	if r["ready"] != false || kinds["product"] != 1 || kinds["input_type"] == 0 || kinds["asset_type"] != 1 {
		t.Errorf("%s on web: readiness %v, want not ready: a draft without descriptions or packshot", mock.DraftProduct, r)
	}
	var readyForWeb []string
	for code := range prod {
		if pub := pubs(code)["web"]; pub != nil && readiness(code, pub)["ready"] == true {
			readyForWeb = append(readyForWeb, code)
		}
	}
	if len(readyForWeb) != 8 { // the parent, its 4 variants, the jacket, the daypack and the tee
		t.Errorf("products ready for web: %v", readyForWeb)
	}

	// The published product's values, as the README's examples show them.
	jacket := get("/v1/products/" + uuidOf(prod[mock.PublishedProduct]) + "?expand[inputValues]=true&include[productCategories]=true&include[productTags]=true")
	cats, _ := apptest.Strings(jacket["productCategoryUuids"])
	if len(cats) != 2 || jacket["brandUuid"] != uuidOf(byCode(brands)["alpenglow"]) {
		t.Errorf("jacket: categories %v, brand %v", cats, jacket["brandUuid"])
	}
	prices := map[any]any{}
	for _, iv := range jacket["inputValues"].([]any) {
		iv := iv.(map[string]any)
		if iv["inputTypeUuid"] == uuidOf(byCode(all(t, c, "/v1/input-types"))["price"]) {
			prices[iv["channelUuid"]] = iv["value"].(map[string]any)["amount"]
		}
	}
	if prices[nil] != "299.00" || prices[uuidOf(ch["retail_de"])] != "279.00" {
		t.Errorf("jacket prices %v", prices)
	}
}

// byCodeKeys is the codes of items, sorted.
func byCodeKeys(items []map[string]any) []string {
	var out []string
	for k := range byCode(items) {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Two tenants get two catalogs with the same codes and nothing shared.
func TestTenantsAreIndependent(t *testing.T) {
	t.Parallel()
	a, _ := seed(t)
	b, _ := seed(t)
	pa, pb := all(t, a, "/v1/products"), all(t, b, "/v1/products")
	if !slices.Equal(byCodeKeys(pa), byCodeKeys(pb)) || len(pa) == 0 {
		t.Errorf("codes differ: %v, %v", byCodeKeys(pa), byCodeKeys(pb))
	}
	for _, p := range pa {
		if slices.Contains(apptest.UUIDsOf(pb), uuidOf(p)) {
			t.Errorf("product %s has the same uuid in both tenants", p["code"])
		}
		apptest.WantProblem(t, b.Get("/v1/products/"+uuidOf(p)), 404, "NOT_FOUND")
	}
}

// A second Seed of a tenant refuses with ErrSeeded and changes nothing.
func TestSeedTwice(t *testing.T) {
	t.Parallel()
	tenant := "t-" + apptest.RandomHex(8)
	ctx := apptest.GRPCContext(t, tenant)
	if _, err := mock.Seed(ctx, env.GRPC, tenant); err != nil {
		t.Fatal(err)
	}
	c := env.ClientFor(t, tenant)
	before := fmt.Sprint(len(all(t, c, "/v1/products")), len(all(t, c, "/v1/locales")), len(all(t, c, "/v1/attributes")))
	_, err := mock.Seed(ctx, env.GRPC, tenant)
	if !errors.Is(err, mock.ErrSeeded) {
		t.Fatalf("second seed: %v, want ErrSeeded", err)
	}
	t.Logf("second seed: %v", err)
	if after := fmt.Sprint(len(all(t, c, "/v1/products")), len(all(t, c, "/v1/locales")), len(all(t, c, "/v1/attributes"))); after != before {
		t.Errorf("counts after the second seed %s, before %s", after, before)
	}
}
