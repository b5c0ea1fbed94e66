package products

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func mkChannel(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/channels", Body("code", "ch_"+RandomHex(4))), 201).Obj(), "uuid")
}

// Publications and variants through include (uuids) and expand (objects), on get and list.
func TestIncludeExpandPublicationsAndVariants(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	fam := mkFamily(t, c)
	vp := mkProductID(t, c, "VP", "variant_parent", "familyUuid", fam)
	v1 := mkProduct(t, c, "V1", "variant", "familyUuid", fam, "parentUuid", vp)
	v2 := mkProduct(t, c, "V2", "variant", "familyUuid", fam, "parentUuid", vp)
	v3 := mkProductID(t, c, "V3", "variant", "familyUuid", fam, "parentUuid", vp)
	s := mkProductID(t, c, "S", "simple")
	ch1, ch2 := mkChannel(t, c), mkChannel(t, c)
	pub1 := Want(t, c.Post("/v1/products/"+vp+"/publications", Body("channelUuid", ch1)), 201).Obj()
	pub2 := Want(t, c.Post("/v1/products/"+vp+"/publications", Body("channelUuid", ch2)), 201).Obj()
	Want(t, c.Post("/v1/products/"+v3+"/publications", Body("channelUuid", ch1)), 201)
	// A removed variant is not among the variants.
	Want(t, transition(c, v3, "remove"), 200)

	g := Want(t, c.Get("/v1/products/"+vp), 200).Obj()
	wantProduct(t, "plain", g, "publicationUuids", nil, "publications", nil, "variantUuids", nil, "variants", nil)

	g = Want(t, c.Get("/v1/products/"+vp+Q("include[publications]", "true", "include[variants]", "true")), 200).Obj()
	wantProduct(t, "include", g, "publicationUuids", []string{Str(pub1, "uuid"), Str(pub2, "uuid")},
		"variantUuids", []string{Str(v1, "uuid"), Str(v2, "uuid")}, "publications", nil, "variants", nil)

	g = Want(t, c.Get("/v1/products/"+vp+Q("expand[publications]", "true", "expand[variants]", "true")), 200).Obj()
	wantProduct(t, "expand", g, "publications", []any{pub1, pub2}, "variants", []any{v1, v2}, "publicationUuids", nil, "variantUuids", nil)

	// Asked and none: [] (a simple product has no variants and here no publication).
	g = Want(t, c.Get("/v1/products/"+s+Q("include[publications]", "true", "expand[variants]", "true", "include[variants]", "true", "expand[publications]", "true")), 200).Obj()
	wantProduct(t, "none", g, "publicationUuids", []string{}, "publications", []any{}, "variantUuids", []string{}, "variants", []any{})

	// The list hydrates every item with one query per association.
	items := Want(t, c.Get("/v1/products"+Q("kinds[eq]", "variant_parent", "kinds[eq]", "simple", "code[order]", "asc", "include[variants]", "true", "expand[publications]", "true")), 200).Items()
	if len(items) != 2 {
		t.Fatalf("list: %v", items)
	}
	wantProduct(t, "list s", items[0], "uuid", s, "variantUuids", []string{}, "publications", []any{})
	wantProduct(t, "list vp", items[1], "uuid", vp, "variantUuids", []string{Str(v1, "uuid"), Str(v2, "uuid")}, "publications", []any{pub1, pub2})
	// A variant lists its own publications; the removed variant keeps its publication.
	g = Want(t, c.Get("/v1/products/"+v3+Q("include[publications]", "true")), 200).Obj()
	if ids, _ := g["publicationUuids"].([]any); len(ids) != 1 {
		t.Fatalf("removed variant's publications: %v", g["publicationUuids"])
	}
}

// One GET rebuilds a product's whole state: every association expanded, a variant's inherited
// values, the featured asset; the same through include as uuid lists.
func TestHydratedProduct(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam := mkFamily(t, c)
	vp := mkProductID(t, c, "VP", "variant_parent", "familyUuid", fam)
	v := mkProductID(t, c, "V", "variant", "familyUuid", fam, "parentUuid", vp)
	other := mkProductID(t, c, "O", "simple")

	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	pa := Want(t, c.Post("/v1/products/"+vp+"/attributes", Body("attributeUuid", attr)), 201).Obj()
	cat := Want(t, c.Post("/v1/products/"+vp+"/categories", Body("categoryUuid", mkCategory(t, c))), 201).Obj()
	tag := Want(t, c.Post("/v1/products/"+vp+"/tags", Body("tagUuid", mkTag(t, c))), 201).Obj()
	group := Str(Want(t, c.Post("/v1/type-groups", Body("code", "g_"+RandomHex(4), "entityType", "product")), 201).Obj(), "uuid")
	it := Str(Want(t, c.Post("/v1/input-types", Body("code", "it_"+RandomHex(4), "dataType", "text", "typeGroupUuid", group)), 201).Obj(), "uuid")
	val := Want(t, c.Post("/v1/products/"+vp+"/input-values", Body("inputTypeUuid", it, "value", "from the parent")), 201).Obj()
	images := Str(Want(t, c.Post("/v1/product-asset-types", Body("code", "img_"+RandomHex(4), "isFeaturedSource", true)), 201).Obj(), "uuid")
	manuals := Str(Want(t, c.Post("/v1/product-asset-types", Body("code", "man_"+RandomHex(4))), 201).Obj(), "uuid")
	mkAsset := func(cat string) string {
		return Str(Want(t, c.Post("/v1/assets", Body("code", "as_"+RandomHex(4), "category", cat)), 201).Obj(), "uuid")
	}
	a1, a2, a3 := mkAsset("image"), mkAsset("image"), mkAsset("document")
	// The manual has the lowest priority but its type is no featured source: a2 is featured.
	pas := Want(t, c.Post("/v1/products/"+vp+"/assets/bulk", []any{
		Body("assetUuid", a1, "productAssetTypeUuid", images, "displayPriority", 5),
		Body("assetUuid", a2, "productAssetTypeUuid", images, "displayPriority", 1),
		Body("assetUuid", a3, "productAssetTypeUuid", manuals, "displayPriority", 0),
	}), 201).Objs()
	rt := Str(Want(t, c.Post("/v1/product-relation-types", Body("code", "rel_"+RandomHex(4), "direction", "one_way")), 201).Obj(), "uuid")
	rel := Want(t, c.Post("/v1/products/"+vp+"/relations", Body("productRelationTypeUuid", rt, "targetProductUuid", other)), 201).Obj()
	pub := Want(t, c.Post("/v1/products/"+vp+"/publications", Body("channelUuid", mkChannel(t, c))), 201).Obj()

	all := Q("expand[productAttributes]", "true", "expand[productAssets]", "true", "expand[productCategories]", "true",
		"expand[productTags]", "true", "expand[inputValues]", "true", "expand[productRelations]", "true",
		"expand[publications]", "true", "expand[variants]", "true")
	g := Want(t, c.Get("/v1/products/"+vp+all), 200).Obj()
	// Each expanded product asset is the one the asset endpoint returns (isFeatured included).
	byPriority := []any{Want(t, c.Get("/v1/products/"+vp+"/assets/"+Str(pas[2], "uuid")), 200).Obj(),
		Want(t, c.Get("/v1/products/"+vp+"/assets/"+Str(pas[1], "uuid")), 200).Obj(),
		Want(t, c.Get("/v1/products/"+vp+"/assets/"+Str(pas[0], "uuid")), 200).Obj()}
	variant := Want(t, c.Get("/v1/products/"+v), 200).Obj()
	paExp := Want(t, c.Get("/v1/products/"+vp+"/attributes/"+Str(pa, "uuid")+Q("expand[productTerms]", "true")), 200).Obj()
	wantProduct(t, "hydrated", g, "featuredAssetUuid", a2,
		"productAttributes", []any{paExp}, "productAssets", byPriority, "productCategories", []any{cat}, "productTags", []any{tag},
		"productRelations", []any{rel}, "publications", []any{pub}, "variants", []any{variant})
	if vals, _ := g["inputValues"].([]any); len(vals) != 1 || Str(vals[0].(map[string]any), "uuid") != Str(val, "uuid") {
		t.Fatalf("inputValues: %v", g["inputValues"])
	}
	if byPriority[1].(map[string]any)["isFeatured"] != true || byPriority[0].(map[string]any)["isFeatured"] != false {
		t.Fatalf("isFeatured: %v", byPriority)
	}

	// include: the same as uuid lists.
	inc := Q("include[productAttributes]", "true", "include[productAssets]", "true", "include[productCategories]", "true",
		"include[productTags]", "true", "include[inputValues]", "true", "include[productRelations]", "true",
		"include[publications]", "true", "include[variants]", "true")
	g = Want(t, c.Get("/v1/products/"+vp+inc), 200).Obj()
	wantProduct(t, "include", g, "featuredAssetUuid", a2,
		"productAttributeUuids", []string{Str(pa, "uuid")},
		"productAssetUuids", []string{Str(pas[2], "uuid"), Str(pas[1], "uuid"), Str(pas[0], "uuid")},
		"productCategoryUuids", []string{Str(cat, "uuid")}, "productTagUuids", []string{Str(tag, "uuid")},
		"inputValueUuids", []string{Str(val, "uuid")}, "productRelationUuids", []string{Str(rel, "uuid")},
		"publicationUuids", []string{Str(pub, "uuid")}, "variantUuids", []string{v},
		"productAssets", nil, "productRelations", nil, "variants", nil)

	// The variant inherits the parent's value and attribute, and, having no assets of its own, shows
	// the parent's featured asset (its own asset list stays empty).
	g = Want(t, c.Get("/v1/products/"+v+all), 200).Obj()
	wantProduct(t, "variant", g, "featuredAssetUuid", a2, "productAssets", []any{}, "productRelations", []any{}, "variants", []any{})
	inheritedPA := map[string]any{}
	for k, x := range paExp {
		inheritedPA[k] = x
	}
	inheritedPA["inherited"] = true
	WantFields(t, "variant attributes", g, "productAttributes", []any{inheritedPA})
	if vals, _ := g["inputValues"].([]any); len(vals) != 1 || vals[0].(map[string]any)["inherited"] != true {
		t.Fatalf("variant inputValues: %v", g["inputValues"])
	}
	g = Want(t, c.Get("/v1/products/"+v+Q("include[productAttributes]", "true")), 200).Obj()
	WantFields(t, "variant attribute uuids", g, "productAttributeUuids", []string{Str(pa, "uuid")})

	// The featured asset follows the priorities, and write responses carry it too.
	Want(t, c.Patch("/v1/products/"+vp+"/assets/"+Str(pas[0], "uuid"), Body("displayPriority", 0)), 200)
	up := Want(t, c.Patch("/v1/products/"+vp, Body("displayName", "renamed")), 200).Obj()
	wantProduct(t, "update response", up, "featuredAssetUuid", a1)
	lc := Want(t, transition(c, vp, "activate"), 200).Obj()
	wantProduct(t, "transition response", lc, "featuredAssetUuid", a1)
	items := Want(t, c.Get("/v1/products"+Q("uuids[eq]", vp, "uuids[eq]", other)), 200).Items()
	if len(items) != 2 || Str(items[0], "featuredAssetUuid") != a1 || items[1]["featuredAssetUuid"] != nil {
		t.Fatalf("list featuredAssetUuid: %v", items)
	}
	wantProduct(t, "variant follows", Want(t, c.Get("/v1/products/"+v), 200).Obj(), "featuredAssetUuid", a1)
	// A featured-source asset of the variant's own wins over the parent's, whatever the priorities;
	// one of another type does not.
	own := mkAsset("image")
	Want(t, c.Post("/v1/products/"+v+"/assets", Body("assetUuid", a3, "productAssetTypeUuid", manuals, "displayPriority", -9)), 201)
	wantProduct(t, "variant manual", Want(t, c.Get("/v1/products/"+v), 200).Obj(), "featuredAssetUuid", a1)
	Want(t, c.Post("/v1/products/"+v+"/assets", Body("assetUuid", own, "productAssetTypeUuid", images, "displayPriority", 99)), 201)
	wantProduct(t, "variant own", Want(t, c.Get("/v1/products/"+v), 200).Obj(), "featuredAssetUuid", own)
	vs, _ := Want(t, c.Get("/v1/products/"+vp+Q("expand[variants]", "true")), 200).Obj()["variants"].([]any)
	if len(vs) != 1 {
		t.Fatalf("variants: %v", vs)
	}
	WantFields(t, "expanded variant", vs[0].(map[string]any), "featuredAssetUuid", own)
	// Without featured-source assets there is none.
	Want(t, c.Delete("/v1/products/"+vp+"/assets/"+Str(pas[0], "uuid")), 204)
	Want(t, c.Delete("/v1/products/"+vp+"/assets/"+Str(pas[1], "uuid")), 204)
	wantProduct(t, "no featured", Want(t, c.Get("/v1/products/"+vp), 200).Obj(), "featuredAssetUuid", nil)

	// A term: the expanded product attributes carry it (the parent's and, inherited, the variant's);
	// a variant's own link of the attribute wins over the parent's.
	term := Str(Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", "t_"+RandomHex(4))), 201).Obj(), "uuid")
	pt := Want(t, c.Post("/v1/products/"+vp+"/attributes/"+Str(pa, "uuid")+"/terms", Body("termUuid", term)), 201).Obj()
	for _, p := range []string{vp, v} {
		g = Want(t, c.Get("/v1/products/"+p+Q("expand[productAttributes]", "true")), 200).Obj()
		if as, _ := g["productAttributes"].([]any); len(as) != 1 {
			t.Fatalf("%s attributes: %v", p, g["productAttributes"])
		}
		WantFields(t, "expanded terms of "+p, g["productAttributes"].([]any)[0].(map[string]any), "productTerms", []any{pt}, "uuid", Str(pa, "uuid"))
	}
	ownPA := Want(t, c.Post("/v1/products/"+v+"/attributes", Body("attributeUuid", attr, "isVariantAxis", true)), 201).Obj()
	g = Want(t, c.Get("/v1/products/"+v+Q("expand[productAttributes]", "true")), 200).Obj()
	WantFields(t, "variant's own attribute", g["productAttributes"].([]any)[0].(map[string]any),
		"uuid", Str(ownPA, "uuid"), "inherited", false, "isVariantAxis", true, "productTerms", []any{})
	// The workflow above, plus a value update and a publish, emitted every event name the
	// specification gives as an example, in the writing transactions.
	Want(t, c.Patch("/v1/products/"+vp+"/input-values/"+Str(val, "uuid"), Body("value", "changed")), 200)
	Want(t, c.Patch("/v1/products/"+vp+"/publications/"+Str(pub, "uuid")+"/actions/lifecycle", Body("transition", "publish")), 200)
	Want(t, c.Patch("/v1/products/"+vp+"/publications/"+Str(pub, "uuid")+"/actions/lifecycle", Body("transition", "unpublish")), 200)
	seen := map[string]bool{}
	for _, e := range NewEventLog(pool, tenant).All(t) {
		seen[e.Type] = true
	}
	for _, name := range []string{"product.created", "product.updated", "product.published", "product.unpublished",
		"product.attribute.linked", "product.attribute_term.linked", "product.tag.linked", "product.asset.linked",
		"product.input_value.created", "product.input_value.updated"} {
		if !seen[name] {
			t.Errorf("no %s event among %v", name, seen)
		}
	}
}
