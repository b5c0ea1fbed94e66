package publications

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// wantNotReady checks that readiness and publish agree on the missing list want (kind, uuid,
// localeUuid) and that a refused publish changes nothing.
func wantNotReady(t *testing.T, c *Client, p, pub string, want ...[3]any) {
	t.Helper()
	ready, missing := readiness(t, c, p, pub)
	if ready || !reflect.DeepEqual(kinds(missing), want) {
		t.Errorf("readiness: ready=%v missing %v, want %v", ready, kinds(missing), want)
	}
	for _, m := range missing {
		if Str(m, "detail") == "" {
			t.Errorf("missing entry without detail: %v", m)
		}
	}
	before := Want(t, c.Get(base(p)+"/"+pub), 200).Obj()
	prob := WantProblem(t, move(c, p, pub, "publish"), 409, "REQUIREMENTS_NOT_MET")
	if got := missingOf(t, prob); !reflect.DeepEqual(got, missing) {
		t.Errorf("409 meta.missing %v, want the readiness list %v", got, missing)
	}
	wantMissingErrors(t, prob, "")
	if meta := prob["meta"].(map[string]any); meta["publicationUuid"] != pub {
		t.Errorf("409 meta.publicationUuid %v", meta["publicationUuid"])
	}
	if after := Want(t, c.Get(base(p)+"/"+pub), 200).Obj(); !reflect.DeepEqual(before, after) {
		t.Errorf("refused publish changed the publication: %v → %v", before, after)
	}
	wantStoredFresh(t, p)
}

func wantReady(t *testing.T, c *Client, p, pub string) {
	t.Helper()
	if ready, missing := readiness(t, c, p, pub); !ready || len(missing) != 0 {
		t.Errorf("readiness: ready=%v missing %v, want ready", ready, missing)
	}
	wantStoredFresh(t, p)
}

func TestGateProductActive(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	pub := mkPub(t, c, p, mkChannel(t, c))
	log := NewEventLog(pool, tenant).Skip(t)
	wantNotReady(t, c, p, pub, [3]any{"product", p, nil})
	activate(t, c, p)
	wantReady(t, c, p, pub)
	Want(t, c.Patch("/v1/products/"+p+"/actions/lifecycle", Body("transition", "deactivate")), 200)
	_, missing := readiness(t, c, p, pub)
	if len(missing) != 1 || !strings.Contains(Str(missing[0], "detail"), "inactive") {
		t.Errorf("inactive product: %v", missing)
	}
	log.Skip(t)
	WantProblem(t, move(c, p, pub, "publish"), 409, "REQUIREMENTS_NOT_MET")
	log.Expect(t, "refused publish")
	activate(t, c, p)
	Want(t, move(c, p, pub, "publish"), 200)
	// Unpublish is never gated.
	Want(t, c.Patch("/v1/products/"+p+"/actions/lifecycle", Body("transition", "deactivate")), 200)
	wantPub(t, "unpublish of an inactive product", Want(t, move(c, p, pub, "unpublish"), 200).Obj(), "status", "unpublished")
	Problem(t, "readiness of unknown", c.Get(base(p)+"/"+RandomUUID()+"/readiness"), 404, "NOT_FOUND")
}

func TestGateChannelInputTypes(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	en, fr := CreateLocale(t, c, "en-US"), CreateLocale(t, c, "fr-FR")
	ch, other := mkChannel(t, c, en, fr), mkChannel(t, c, en)
	g := mkGroup(t, c)
	loc, glob, scoped, rec := mkInputType(t, c, g, true), mkInputType(t, c, g, false), mkInputType(t, c, g, false), mkInputType(t, c, g, false)
	link := func(it, level, scoping string) {
		Want(t, c.Post("/v1/channels/"+ch+"/input-types", Body("inputTypeUuid", it, "requirementLevel", level, "scoping", scoping)), 201)
	}
	link(loc, "required", "global")
	link(glob, "required", "global")
	link(scoped, "required", "channel")
	link(rec, "recommended", "global") // not required: never missing
	p := mkProduct(t, c, "simple")
	activate(t, c, p)
	pub := mkPub(t, c, p, ch)
	val := func(kv ...any) {
		Want(t, c.Post("/v1/products/"+p+"/input-values", Body(append([]any{"value", "x"}, kv...)...)), 201)
	}
	wantNotReady(t, c, p, pub, [3]any{"input_type", loc, en}, [3]any{"input_type", loc, fr},
		[3]any{"input_type", glob, nil}, [3]any{"input_type", scoped, nil})

	// A localizable input type needs a value per channel locale.
	val("inputTypeUuid", loc, "localeUuid", en)
	wantNotReady(t, c, p, pub, [3]any{"input_type", loc, fr}, [3]any{"input_type", glob, nil}, [3]any{"input_type", scoped, nil})
	// A value of another channel does not count; of all channels it does (global scoping).
	val("inputTypeUuid", loc, "localeUuid", fr, "channelUuid", other)
	val("inputTypeUuid", glob)
	wantNotReady(t, c, p, pub, [3]any{"input_type", loc, fr}, [3]any{"input_type", scoped, nil})
	val("inputTypeUuid", loc, "localeUuid", fr, "channelUuid", ch)
	// Channel scoping: a value for all channels does not count, one of this channel does.
	val("inputTypeUuid", scoped)
	wantNotReady(t, c, p, pub, [3]any{"input_type", scoped, nil})
	val("inputTypeUuid", scoped, "channelUuid", ch)
	wantReady(t, c, p, pub)
	wantPub(t, "published", Want(t, move(c, p, pub, "publish"), 200).Obj(), "status", "published")
}

func TestGateVariantInheritsAndFamily(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	g := mkGroup(t, c)
	it := mkInputType(t, c, g, false)
	ch := mkChannel(t, c)
	Want(t, c.Post("/v1/channels/"+ch+"/input-types", Body("inputTypeUuid", it, "requirementLevel", "required", "scoping", "channel")), 201)
	fam := mkFamily(t, c)
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	parentOnly := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	famIT := mkInputType(t, c, g, false)
	Want(t, c.Post("/v1/families/"+fam+"/attributes", Body("attributeUuid", attr, "requirementLevel", "required", "appliesTo", "both")), 201)
	Want(t, c.Post("/v1/families/"+fam+"/attributes", Body("attributeUuid", parentOnly, "requirementLevel", "required", "appliesTo", "parent")), 201)
	Want(t, c.Post("/v1/families/"+fam+"/input-types", Body("inputTypeUuid", famIT, "requirementLevel", "required", "appliesTo", "variant")), 201)

	parent := mkProduct(t, c, "variant_parent", "familyUuid", fam)
	variant := mkProduct(t, c, "variant", "familyUuid", fam, "parentUuid", parent)
	activate(t, c, parent)
	activate(t, c, variant)
	pp, vp := mkPub(t, c, parent, ch), mkPub(t, c, variant, ch)

	// The parent needs the channel's input type and the attributes applying to parents.
	wantNotReady(t, c, parent, pp, [3]any{"input_type", it, nil}, [3]any{"attribute", attr, nil}, [3]any{"attribute", parentOnly, nil})
	// The variant needs those applying to variants: attr (both) and famIT (variant).
	wantNotReady(t, c, variant, vp, [3]any{"input_type", it, nil}, [3]any{"attribute", attr, nil}, [3]any{"input_type", famIT, nil})

	// Values and attributes of the parent are inherited by the variant.
	Want(t, c.Post("/v1/products/"+parent+"/input-values", Body("inputTypeUuid", it, "channelUuid", ch, "value", "x")), 201)
	Want(t, c.Post("/v1/products/"+parent+"/attributes", Body("attributeUuid", attr)), 201)
	wantNotReady(t, c, parent, pp, [3]any{"attribute", parentOnly, nil})
	wantNotReady(t, c, variant, vp, [3]any{"input_type", famIT, nil})
	Want(t, c.Post("/v1/products/"+variant+"/input-values", Body("inputTypeUuid", famIT, "value", "y")), 201)
	wantReady(t, c, variant, vp)
	Want(t, move(c, variant, vp, "publish"), 200)
	Want(t, c.Post("/v1/products/"+parent+"/attributes", Body("attributeUuid", parentOnly)), 201)
	wantReady(t, c, parent, pp)
	Want(t, move(c, parent, pp, "publish"), 200)
}

func TestGateAssetTypesAndBulkAtomic(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam := mkFamily(t, c)
	at := Str(Want(t, c.Post("/v1/product-asset-types", Body("code", "at_"+RandomHex(4))), 201).Obj(), "uuid")
	p := mkProduct(t, c, "simple", "familyUuid", fam)
	activate(t, c, p)
	ready, bad := mkPub(t, c, p, mkChannel(t, c)), ""
	// A channel with a required input type the product lacks.
	g := mkGroup(t, c)
	it := mkInputType(t, c, g, false)
	ch := mkChannel(t, c)
	Want(t, c.Post("/v1/channels/"+ch+"/input-types", Body("inputTypeUuid", it, "requirementLevel", "required")), 201)
	bad = mkPub(t, c, p, ch)
	log := NewEventLog(pool, tenant).Skip(t)
	prob := WantProblem(t, c.Patch(base(p)+"/bulk/actions/lifecycle", Body("transition", "publish", "uuids", []string{ready, bad})), 409, "REQUIREMENTS_NOT_MET")
	if meta := prob["meta"].(map[string]any); meta["publicationUuid"] != bad {
		t.Errorf("bulk refusal names %v", meta)
	}
	// The errors name the item (uuids[1]) and the requirement (its index in meta.missing).
	if m := missingOf(t, prob); len(m) != 1 || m[0]["kind"] != "input_type" || m[0]["uuid"] != it {
		t.Errorf("bulk refusal meta.missing %v", m)
	}
	wantMissingErrors(t, prob, "uuids[1].")
	wantPub(t, "ready one unchanged", Want(t, c.Get(base(p)+"/"+ready), 200).Obj(), "status", "draft", "publishedAt", nil)
	log.Expect(t, "atomic bulk")

	// An asset type required by the family with minCount 2: missing until the product has two.
	Want(t, c.Post("/v1/families/"+fam+"/asset-types", Body("productAssetTypeUuid", at, "requirementLevel", "required", "minCount", 2)), 201)
	wantNotReady(t, c, p, ready, [3]any{"asset_type", at, nil})
	linkAsset(t, c, p, at)
	wantNotReady(t, c, p, ready, [3]any{"asset_type", at, nil})
	linkAsset(t, c, p, at)
	wantReady(t, c, p, ready)
}

func linkAsset(t *testing.T, c *Client, product, assetType string) string {
	t.Helper()
	a := Str(Want(t, c.Post("/v1/assets", Body("code", "as_"+RandomHex(4), "category", "image")), 201).Obj(), "uuid")
	return Str(Want(t, c.Post("/v1/products/"+product+"/assets", Body("assetUuid", a, "productAssetTypeUuid", assetType)), 201).Obj(), "uuid")
}

func linkRelation(t *testing.T, c *Client, product, relType, target string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/products/"+product+"/relations", Body("productRelationTypeUuid", relType, "targetProductUuid", target)), 201).Obj(), "uuid")
}

// Asset and relation types count: required means at least max(minCount, 1), optional ones only
// their minCount, maxCount caps; a variant counts its parent's assets/relations of a type it has
// none of; appliesTo selects the kinds.
func TestGateAssetAndRelationCounts(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	fam := mkFamily(t, c)
	images := Str(Want(t, c.Post("/v1/product-asset-types", Body("code", "img_"+RandomHex(4))), 201).Obj(), "uuid")
	manuals := Str(Want(t, c.Post("/v1/product-asset-types", Body("code", "man_"+RandomHex(4))), 201).Obj(), "uuid")
	upsell := Str(Want(t, c.Post("/v1/product-relation-types", Body("code", "up_"+RandomHex(4), "direction", "one_way")), 201).Obj(), "uuid")
	// images: required (so at least 1), at most 2; manuals: optional, minCount 0, maxCount 1 (only
	// the cap applies); upsell: recommended with minCount 1 (counts apply whatever the level).
	Want(t, c.Post("/v1/families/"+fam+"/asset-types", Body("productAssetTypeUuid", images, "requirementLevel", "required", "maxCount", 2)), 201)
	Want(t, c.Post("/v1/families/"+fam+"/asset-types", Body("productAssetTypeUuid", manuals, "requirementLevel", "optional", "maxCount", 1)), 201)
	Want(t, c.Post("/v1/families/"+fam+"/relation-types", Body("productRelationTypeUuid", upsell, "requirementLevel", "recommended",
		"minCount", 1)), 201)

	parent := mkProduct(t, c, "variant_parent", "familyUuid", fam)
	variant := mkProduct(t, c, "variant", "familyUuid", fam, "parentUuid", parent)
	other := mkProduct(t, c, "simple")
	for _, p := range []string{parent, variant} {
		activate(t, c, p)
	}
	ch := mkChannel(t, c)
	pp, vp := mkPub(t, c, parent, ch), mkPub(t, c, variant, ch)
	wantNotReady(t, c, parent, pp, [3]any{"asset_type", images, nil}, [3]any{"relation_type", upsell, nil})
	wantNotReady(t, c, variant, vp, [3]any{"asset_type", images, nil}, [3]any{"relation_type", upsell, nil})

	// The parent's image counts for the variant, which has none of its own.
	linkAsset(t, c, parent, images)
	wantNotReady(t, c, parent, pp, [3]any{"relation_type", upsell, nil})
	wantNotReady(t, c, variant, vp, [3]any{"relation_type", upsell, nil})
	_, missing := readiness(t, c, variant, vp)
	if d := Str(missing[0], "detail"); !strings.Contains(d, "at least 1") || !strings.Contains(d, "has 0") {
		t.Errorf("relation detail %q", d)
	}
	rel := linkRelation(t, c, variant, upsell, other)
	wantReady(t, c, variant, vp)
	wantNotReady(t, c, parent, pp, [3]any{"relation_type", upsell, nil})
	linkRelation(t, c, parent, upsell, other)
	wantReady(t, c, parent, pp)

	// Over the cap: three images on the variant (its own count replaces the parent's).
	a1 := linkAsset(t, c, variant, images)
	linkAsset(t, c, variant, images)
	wantReady(t, c, variant, vp)
	linkAsset(t, c, variant, images)
	wantNotReady(t, c, variant, vp, [3]any{"asset_type", images, nil})
	_, missing = readiness(t, c, variant, vp)
	if d := Str(missing[0], "detail"); !strings.Contains(d, "at most 2") || !strings.Contains(d, "has 3") {
		t.Errorf("cap detail %q", d)
	}
	Want(t, c.Delete("/v1/products/"+variant+"/assets/"+a1), 204)
	wantReady(t, c, variant, vp)
	// The optional manuals: none is fine, two is over the cap.
	linkAsset(t, c, parent, manuals)
	linkAsset(t, c, parent, manuals)
	wantNotReady(t, c, parent, pp, [3]any{"asset_type", manuals, nil})
	wantNotReady(t, c, variant, vp, [3]any{"asset_type", manuals, nil})
	// Without its own relation the variant counts the parent's again.
	Want(t, c.Delete("/v1/products/"+variant+"/relations/"+rel), 204)
	wantNotReady(t, c, variant, vp, [3]any{"asset_type", manuals, nil})
	// The variant's own manual replaces the parent's two: within the cap.
	linkAsset(t, c, variant, manuals)
	wantReady(t, c, variant, vp)
	Want(t, move(c, variant, vp, "publish"), 200)
}
