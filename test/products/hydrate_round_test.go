package products

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// associations are the product's include/expand names with their uuid-list and object fields.
var associations = [][3]string{
	{"productAttributes", "productAttributeUuids", "productAttributes"},
	{"productAssets", "productAssetUuids", "productAssets"},
	{"productCategories", "productCategoryUuids", "productCategories"},
	{"productTags", "productTagUuids", "productTags"},
	{"inputValues", "inputValueUuids", "inputValues"},
	{"productRelations", "productRelationUuids", "productRelations"},
	{"publications", "publicationUuids", "publications"},
	{"variants", "variantUuids", "variants"},
}

// Over generated products (variant parents with variants, simple products, each with a random
// share of every association), the hydrated GET, read in one round trip with the product itself,
// answers byte for byte what the list's item of the same product answers (the page read first,
// then its associations), for each association asked alone and for all of them; and each
// expanded association lists the uuids its include lists, in the same order.
func TestHydratedGetAgreesWithTheListOverGeneratedProducts(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	r := rand.New(rand.NewPCG(32, 2026))
	pick := func(from []string) []string {
		var out []string
		for _, x := range from {
			if r.IntN(2) == 0 {
				out = append(out, x)
			}
		}
		return out
	}
	post := func(path string, kv ...any) string { return Str(Want(t, c.Post(path, Body(kv...)), 201).Obj(), "uuid") }
	cats := []string{mkCategory(t, c), mkCategory(t, c), mkCategory(t, c)}
	tags := []string{mkTag(t, c), mkTag(t, c), mkTag(t, c)}
	var attrs, terms []string
	for i := 0; i < 3; i++ {
		a := post("/v1/attributes", "code", "a_"+RandomHex(4))
		attrs, terms = append(attrs, a), append(terms, post("/v1/attributes/"+a+"/terms", "code", "t_"+RandomHex(4)))
	}
	group := post("/v1/type-groups", "code", "g_"+RandomHex(4), "entityType", "product")
	inputs := []string{post("/v1/input-types", "code", "it_"+RandomHex(4), "dataType", "text", "typeGroupUuid", group),
		post("/v1/input-types", "code", "it_"+RandomHex(4), "dataType", "text", "typeGroupUuid", group)}
	assetTypes := []string{post("/v1/product-asset-types", "code", "hero_"+RandomHex(4), "isFeaturedSource", true),
		post("/v1/product-asset-types", "code", "man_"+RandomHex(4))}
	assets := []string{post("/v1/assets", "code", "as_"+RandomHex(4), "category", "image"), post("/v1/assets", "code", "as_"+RandomHex(4), "category", "image")}
	relType := post("/v1/product-relation-types", "code", "rel_"+RandomHex(4), "direction", "one_way")
	channels := []string{mkChannel(t, c), mkChannel(t, c)}

	fam := mkFamily(t, c)
	var ids []string
	for i := 0; i < 2; i++ {
		vp := mkProductID(t, c, fmt.Sprintf("VP%d", i), "variant_parent", "familyUuid", fam)
		ids = append(ids, vp, mkProductID(t, c, fmt.Sprintf("V%da", i), "variant", "familyUuid", fam, "parentUuid", vp),
			mkProductID(t, c, fmt.Sprintf("V%db", i), "variant", "familyUuid", fam, "parentUuid", vp))
	}
	for i := 0; i < 3; i++ {
		ids = append(ids, mkProductID(t, c, fmt.Sprintf("S%d", i), "simple"))
	}
	for _, p := range ids {
		base := "/v1/products/" + p
		for _, x := range pick(cats) {
			post(base+"/categories", "categoryUuid", x)
		}
		for _, x := range pick(tags) {
			post(base+"/tags", "tagUuid", x)
		}
		for i, a := range attrs {
			if r.IntN(2) == 0 {
				pa := post(base+"/attributes", "attributeUuid", a)
				if r.IntN(2) == 0 {
					post(base+"/attributes/"+pa+"/terms", "termUuid", terms[i])
				}
			}
		}
		for _, it := range pick(inputs) {
			post(base+"/input-values", "inputTypeUuid", it, "value", "v "+RandomHex(3))
		}
		for _, a := range pick(assets) {
			post(base+"/assets", "assetUuid", a, "productAssetTypeUuid", assetTypes[r.IntN(2)], "displayPriority", r.IntN(3))
		}
		if target := ids[r.IntN(len(ids))]; target != p && r.IntN(2) == 0 {
			post(base+"/relations", "productRelationTypeUuid", relType, "targetProductUuid", target)
		}
		for _, ch := range pick(channels) {
			post(base+"/publications", "channelUuid", ch)
		}
	}

	var combos []string
	var all []string
	for _, a := range associations {
		combos = append(combos, "include["+a[0]+"]=true", "expand["+a[0]+"]=true")
		all = append(all, "include["+a[0]+"]=true", "expand["+a[0]+"]=true")
	}
	combos = append(combos, "", strings.Join(all, "&"))
	compact := func(raw []byte) string {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for _, p := range ids {
		for _, q := range combos {
			get := Want(t, c.Get("/v1/products/"+p+"?"+q), 200)
			var page struct{ Items []json.RawMessage }
			if err := json.Unmarshal(Want(t, c.Get("/v1/products?uuids[eq]="+p+"&"+q), 200).Raw, &page); err != nil || len(page.Items) != 1 {
				t.Fatalf("list of %s: %d items (%v)", p, len(page.Items), err)
			}
			if g, l := compact(get.Raw), compact(page.Items[0]); g != l {
				t.Fatalf("GET and list answer %s?%s differently:\nGET  %s\nlist %s", p, q, g, l)
			}
		}
		// include lists the uuids of what expand lists, in order.
		both := Want(t, c.Get("/v1/products/"+p+"?"+strings.Join(all, "&")), 200).Obj()
		for _, a := range associations {
			objs, _ := both[a[2]].([]any)
			uuids, _ := both[a[1]].([]any)
			if objs == nil || uuids == nil || len(objs) != len(uuids) {
				t.Fatalf("%s of %s: %d uuids, %d objects", a[0], p, len(uuids), len(objs))
			}
			for i := range objs {
				if Str(objs[i].(map[string]any), "uuid") != uuids[i] {
					t.Fatalf("%s of %s: objects %v, uuids %v", a[0], p, objs, uuids)
				}
			}
		}
	}
}
