package structure_basic

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// The fields beyond code and displayName: isFeaturedSource and direction.

func TestProductAssetTypeFeaturedSource(t *testing.T) {
	t.Parallel()
	f := assetTypesF
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant)

	plain := f.create(t, c, "gallery")
	if plain["isFeaturedSource"] != false {
		t.Errorf("isFeaturedSource defaults to %v, want false", plain["isFeaturedSource"])
	}
	hero := f.create(t, c, "hero", "isFeaturedSource", true)
	if hero["isFeaturedSource"] != true {
		t.Errorf("created with isFeaturedSource true: %v", hero)
	}
	res := Want(t, c.Post(f.path+"/bulk", []any{
		map[string]any{"code": "packshot", "isFeaturedSource": true},
		map[string]any{"code": "manual", "isFeaturedSource": false},
		map[string]any{"code": "swatch", "isFeaturedSource": nil},
	}), 201).Objs()
	if res[0]["isFeaturedSource"] != true || res[1]["isFeaturedSource"] != false || res[2]["isFeaturedSource"] != false {
		t.Errorf("bulk create: %v", res)
	}
	WantProblem(t, c.Post(f.path, map[string]any{"code": "x", "isFeaturedSource": "yes"}), 400, "MALFORMED_REQUEST", "isFeaturedSource")

	// Filters and order.
	wantCodes(t, "featured", listCodes(t, c, f.path+Q("isFeaturedSource[eq]", "true")), false, "hero", "packshot")
	wantCodes(t, "not featured", listCodes(t, c, f.path+Q("isFeaturedSource[eq]", "false")), false, "gallery", "manual", "swatch")
	wantCodes(t, "featured first", listCodes(t, c, f.path+Q("isFeaturedSource[order]", "desc", "code[order]", "asc")), true,
		"hero", "packshot", "gallery", "manual", "swatch")
	WantProblem(t, c.Get(f.path+Q("isFeaturedSource[eq]", "maybe")), 400, "MALFORMED_REQUEST", "isFeaturedSource[eq]")

	// Update: true, false, and null (unchanged) with another field.
	id := Str(plain, "uuid")
	log.Skip(t)
	u := Want(t, c.Patch(f.item(id), map[string]any{"isFeaturedSource": true}), 200).Obj()
	if u["isFeaturedSource"] != true || u["code"] != "gallery" {
		t.Errorf("update to true: %v", u)
	}
	u = Want(t, c.Patch(f.item(id), map[string]any{"isFeaturedSource": nil, "displayName": "Gallery"}), 200).Obj()
	if u["isFeaturedSource"] != true || u["displayName"] != "Gallery" {
		t.Errorf("null leaves isFeaturedSource: %v", u)
	}
	u = Want(t, c.Patch(f.item(id), map[string]any{"isFeaturedSource": false}), 200).Obj()
	if u["isFeaturedSource"] != false {
		t.Errorf("update to false: %v", u)
	}
	bulk := Want(t, c.Patch(f.path+"/bulk", []any{
		map[string]any{"uuid": Str(hero, "uuid"), "isFeaturedSource": false},
		map[string]any{"uuid": id, "isFeaturedSource": true},
	}), 200).Objs()
	if bulk[0]["isFeaturedSource"] != false || bulk[1]["isFeaturedSource"] != true {
		t.Errorf("bulk update: %v", bulk)
	}
	log.Expect(t, "updates", f.ev("updated", id), f.ev("updated", id), f.ev("updated", id), f.ev("updated", id), f.ev("updated", Str(hero, "uuid")))
	WantProblem(t, c.Patch(f.item(id), map[string]any{"isFeaturedSource": 1}), 400, "MALFORMED_REQUEST", "isFeaturedSource")
	if g := f.get(t, c, id); g["isFeaturedSource"] != true {
		t.Errorf("get after updates: %v", g)
	}
}

func TestProductRelationTypeDirection(t *testing.T) {
	t.Parallel()
	f := relationTypesF
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant)

	// Required on create, one of one_way and two_way.
	WantProblem(t, c.Post(f.path, map[string]any{"code": "related"}), 400, "VALIDATION_FAILED", "direction")
	WantProblem(t, c.Post(f.path, map[string]any{"code": "related", "direction": nil}), 400, "VALIDATION_FAILED", "direction")
	WantProblem(t, c.Post(f.path, map[string]any{"code": "related", "direction": "sideways"}), 400, "MALFORMED_REQUEST", "direction")
	WantProblem(t, c.Post(f.path, map[string]any{"code": "related", "direction": 1}), 400, "MALFORMED_REQUEST", "direction")
	WantProblem(t, c.Post(f.path+"/bulk", []any{
		map[string]any{"code": "a", "direction": "one_way"},
		map[string]any{"code": "b"},
	}), 400, "VALIDATION_FAILED", "[1].direction")
	if n := CountRows(t, pool, f.table, tenant); n != 0 {
		t.Fatalf("%d rows after refused creates", n)
	}

	upsell := f.create(t, c, "upsell", "direction", "one_way")
	related := f.create(t, c, "related", "direction", "two_way")
	if upsell["direction"] != "one_way" || related["direction"] != "two_way" {
		t.Errorf("created %v and %v", upsell, related)
	}
	res := Want(t, c.Post(f.path+"/bulk", []any{
		map[string]any{"code": "accessory", "direction": "one_way", "displayName": "Accessory"},
		map[string]any{"code": "bundle", "direction": "two_way"},
	}), 201).Objs()
	if res[0]["direction"] != "one_way" || res[1]["direction"] != "two_way" {
		t.Errorf("bulk create: %v", res)
	}

	// Only the documented short names: the proto name of a value is refused.
	WantProblem(t, c.Post(f.path, map[string]any{"code": "proto-name", "direction": "PRODUCT_RELATION_DIRECTION_TWO_WAY"}), 400, "MALFORMED_REQUEST", "direction")

	// Filter and order.
	wantCodes(t, "two-way", listCodes(t, c, f.path+Q("directions[eq]", "two_way")), false, "related", "bundle")
	wantCodes(t, "both", listCodes(t, c, f.path+Q("directions[eq]", "two_way", "directions[eq]", "one_way")), false, "upsell", "related", "accessory", "bundle")
	wantCodes(t, "by direction", listCodes(t, c, f.path+Q("direction[order]", "desc", "code[order]", "asc")), true, "bundle", "related", "accessory", "upsell")
	WantProblem(t, c.Get(f.path+Q("directions[eq]", "sideways")), 400, "VALIDATION_FAILED", "directions[eq]")

	// The direction is fixed after creation: the same value is accepted, another refused (and
	// nothing of the update applies).
	id := Str(upsell, "uuid")
	log.Skip(t)
	u := Want(t, c.Patch(f.item(id), map[string]any{"direction": "one_way", "displayName": "Up-sell"}), 200).Obj()
	if u["direction"] != "one_way" || u["displayName"] != "Up-sell" {
		t.Errorf("update with the same direction: %v", u)
	}
	u = Want(t, c.Patch(f.item(id), map[string]any{"direction": nil, "code": "up-sell"}), 200).Obj()
	if u["direction"] != "one_way" || u["code"] != "up-sell" {
		t.Errorf("null direction: %v", u)
	}
	log.Expect(t, "accepted updates", f.ev("updated", id), f.ev("updated", id))
	WantProblem(t, c.Patch(f.item(id), map[string]any{"direction": "two_way", "code": "changed"}), 400, "VALIDATION_FAILED", "direction")
	WantProblem(t, c.Patch(f.path+"/bulk", []any{
		map[string]any{"uuid": Str(related, "uuid"), "direction": "two_way", "displayName": "Related"},
		map[string]any{"uuid": id, "direction": "two_way"},
	}), 400, "VALIDATION_FAILED", "[1].direction")
	WantProblem(t, c.Patch(f.item(id), map[string]any{"direction": "sideways"}), 400, "MALFORMED_REQUEST", "direction")
	log.Expect(t, "refused updates")
	if g := f.get(t, c, id); !reflect.DeepEqual(g, u) {
		t.Errorf("refused updates changed %v into %v", u, g)
	}
	if g := f.get(t, c, Str(related, "uuid")); g["displayName"] != "related" {
		t.Errorf("a refused bulk update changed %v", g)
	}
}
