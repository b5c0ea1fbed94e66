package products

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestProductOperations(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam, brand := mkFamily(t, c), mkBrand(t, c)
	log := NewEventLog(pool, tenant).Skip(t)

	// Create a simple product: displayName defaults to code; nulls for the unset references.
	r := Want(t, c.Post("/v1/products", Body("code", "SKU-1", "kind", "simple")), 201)
	p := r.Obj()
	id := Str(p, "uuid")
	wantProduct(t, "create", p, "code", "SKU-1", "displayName", "SKU-1", "kind", "simple", "status", "draft",
		"removedAt", nil, "familyUuid", nil, "parentUuid", nil, "brandUuid", nil,
		"productCategoryUuids", nil, "productCategories", nil, "productTagUuids", nil, "productTags", nil)
	if loc := r.Header.Get("Location"); loc != "/v1/products/"+id {
		t.Errorf("Location %q", loc)
	}
	if p["createdAt"] != p["updatedAt"] {
		t.Errorf("createdAt %v != updatedAt %v", p["createdAt"], p["updatedAt"])
	}
	log.Expect(t, "create", pev("created", id))
	if got := Want(t, c.Get("/v1/products/"+id), 200).Obj(); !reflect.DeepEqual(got, p) {
		t.Errorf("get = %v, want %v", got, p)
	}

	// Create with every field.
	vp := mkProduct(t, c, "TEE", "variant_parent", "displayName", "Tee", "familyUuid", fam, "brandUuid", brand)
	wantProduct(t, "variant_parent", vp, "code", "TEE", "displayName", "Tee", "kind", "variant_parent", "familyUuid", fam, "brandUuid", brand, "parentUuid", nil)
	vpID := Str(vp, "uuid")
	log.Expect(t, "create variant_parent", pev("created", vpID))

	// Bulk create, in request order, one event each.
	items := Want(t, c.Post("/v1/products/bulk", []any{
		Body("code", "TEE-S", "kind", "variant", "familyUuid", fam, "parentUuid", vpID),
		Body("code", "MUG", "kind", "simple", "familyUuid", fam, "brandUuid", brand),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk: %v", items)
	}
	wantProduct(t, "bulk [0]", items[0], "code", "TEE-S", "kind", "variant", "familyUuid", fam, "parentUuid", vpID, "brandUuid", nil)
	wantProduct(t, "bulk [1]", items[1], "code", "MUG", "kind", "simple", "familyUuid", fam, "brandUuid", brand)
	variant, mug := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk create", pev("created", variant), pev("created", mug))

	// Update: code, displayName, brand; null clears the brand; the kind may be repeated.
	u := Want(t, c.Patch("/v1/products/"+id, Body("code", "SKU-1b", "displayName", "One", "brandUuid", brand, "kind", "simple")), 200).Obj()
	wantProduct(t, "update", u, "code", "SKU-1b", "displayName", "One", "brandUuid", brand, "kind", "simple", "createdAt", p["createdAt"])
	if !TS(t, u["updatedAt"]).After(TS(t, p["updatedAt"])) {
		t.Errorf("updatedAt did not move: %v", u)
	}
	u = Want(t, c.Patch("/v1/products/"+id, Body("brandUuid", nil)), 200).Obj()
	wantProduct(t, "clear brand", u, "brandUuid", nil, "code", "SKU-1b")
	// A simple product's family may be set and cleared.
	u = Want(t, c.Patch("/v1/products/"+id, Body("familyUuid", fam)), 200).Obj()
	wantProduct(t, "set family", u, "familyUuid", fam)
	u = Want(t, c.Patch("/v1/products/"+id, Body("familyUuid", nil)), 200).Obj()
	wantProduct(t, "clear family", u, "familyUuid", nil)
	before := u
	u = Want(t, c.Patch("/v1/products/"+id, Body()), 200).Obj()
	wantProduct(t, "empty update", u, "code", "SKU-1b", "displayName", "One")
	// An update that changes nothing writes nothing: same updatedAt, no event.
	if u = Want(t, c.Patch("/v1/products/"+id, Body("code", "SKU-1b", "displayName", "One", "familyUuid", nil)), 200).Obj(); !reflect.DeepEqual(u, before) {
		t.Errorf("same-value update = %v, want the stored product %v", u, before)
	}
	log.Expect(t, "updates", pev("updated", id), pev("updated", id), pev("updated", id), pev("updated", id))

	// Bulk update, in request order.
	up := Want(t, c.Patch("/v1/products/bulk", []any{Body("uuid", mug, "displayName", "Mug"), Body("uuid", id, "brandUuid", brand)}), 200).Objs()
	if len(up) != 2 {
		t.Fatalf("bulk update: %v", up)
	}
	wantProduct(t, "bulk update [0]", up[0], "uuid", mug, "displayName", "Mug")
	wantProduct(t, "bulk update [1]", up[1], "uuid", id, "brandUuid", brand)
	log.Expect(t, "bulk update", pev("updated", mug), pev("updated", id))

	// Delete: 204, empty body, then 404 everywhere.
	d := Want(t, c.Delete("/v1/products/"+mug), 204)
	if len(d.Raw) != 0 {
		t.Errorf("delete body %q", d.Raw)
	}
	log.Expect(t, "delete", pev("deleted", mug))
	Problem(t, "get deleted", c.Get("/v1/products/"+mug), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete("/v1/products/"+mug), 404, "NOT_FOUND")
	Problem(t, "update deleted", c.Patch("/v1/products/"+mug, Body()), 404, "NOT_FOUND")
	Problem(t, "malformed uuid", c.Get("/v1/products/nope"), 400, "VALIDATION_FAILED", "productUuid")
	log.Expect(t, "failures write nothing")
}

func TestProductCreateRules(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam, fam2 := mkFamily(t, c), mkFamily(t, c)
	vp := mkProductID(t, c, "VP", "variant_parent", "familyUuid", fam)
	simple := mkProductID(t, c, "S", "simple", "familyUuid", fam)
	variant := mkProductID(t, c, "V", "variant", "familyUuid", fam, "parentUuid", vp)
	c2, _ := env.TenantClient(t)
	famB, brandB := mkFamily(t, c2), mkBrand(t, c2)
	vpB := mkProductID(t, c2, "VP", "variant_parent", "familyUuid", famB)
	log := NewEventLog(pool, tenant).Skip(t)

	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
		field  string
	}{
		{"no kind", Body("code", "x"), 400, "VALIDATION_FAILED", "kind"},
		{"unknown kind", Body("code", "x", "kind", "bundle"), 400, "MALFORMED_REQUEST", "kind"},
		{"no code", Body("kind", "simple"), 400, "VALIDATION_FAILED", "code"},
		{"code too long", Body("code", strings.Repeat("x", 101), "kind", "simple"), 400, "VALIDATION_FAILED", "code"},
		{"empty displayName", Body("code", "x", "kind", "simple", "displayName", ""), 400, "VALIDATION_FAILED", "displayName"},
		{"variant_parent without family", Body("code", "x", "kind", "variant_parent"), 400, "VALIDATION_FAILED", "familyUuid"},
		{"variant without family", Body("code", "x", "kind", "variant", "parentUuid", vp), 400, "VALIDATION_FAILED", "familyUuid"},
		{"variant without parent", Body("code", "x", "kind", "variant", "familyUuid", fam), 400, "VALIDATION_FAILED", "parentUuid"},
		{"simple with parent", Body("code", "x", "kind", "simple", "parentUuid", vp), 400, "VALIDATION_FAILED", "parentUuid"},
		{"variant_parent with parent", Body("code", "x", "kind", "variant_parent", "familyUuid", fam, "parentUuid", vp), 400, "VALIDATION_FAILED", "parentUuid"},
		{"malformed family", Body("code", "x", "kind", "simple", "familyUuid", "nope"), 400, "VALIDATION_FAILED", "familyUuid"},
		{"malformed brand", Body("code", "x", "kind", "simple", "brandUuid", "nope"), 400, "VALIDATION_FAILED", "brandUuid"},
		{"parent is simple", Body("code", "x", "kind", "variant", "familyUuid", fam, "parentUuid", simple), 400, "VALIDATION_FAILED", "parentUuid"},
		{"parent is a variant", Body("code", "x", "kind", "variant", "familyUuid", fam, "parentUuid", variant), 400, "VALIDATION_FAILED", "parentUuid"},
		{"parent of another family", Body("code", "x", "kind", "variant", "familyUuid", fam2, "parentUuid", vp), 400, "VALIDATION_FAILED", "parentUuid"},
		{"unknown family", Body("code", "x", "kind", "simple", "familyUuid", UnknownUUID), 404, "NOT_FOUND", "familyUuid"},
		{"another tenant's family", Body("code", "x", "kind", "variant_parent", "familyUuid", famB), 404, "NOT_FOUND", "familyUuid"},
		{"unknown brand", Body("code", "x", "kind", "simple", "brandUuid", UnknownUUID), 404, "NOT_FOUND", "brandUuid"},
		{"another tenant's brand", Body("code", "x", "kind", "simple", "brandUuid", brandB), 404, "NOT_FOUND", "brandUuid"},
		{"unknown parent", Body("code", "x", "kind", "variant", "familyUuid", fam, "parentUuid", UnknownUUID), 404, "NOT_FOUND", "parentUuid"},
		{"another tenant's parent", Body("code", "x", "kind", "variant", "familyUuid", fam, "parentUuid", vpB), 404, "NOT_FOUND", "parentUuid"},
		{"duplicate code", Body("code", "S", "kind", "simple"), 409, "ALREADY_EXISTS", "code"},
		{"response-only field", Body("code", "x", "kind", "simple", "status", "active"), 400, "MALFORMED_REQUEST", "status"},
	} {
		Problem(t, tc.name, c.Post("/v1/products", tc.body), tc.status, tc.code, tc.field)
	}
	// Bulk: item-indexed errors, all or nothing.
	Problem(t, "bulk duplicate", c.Post("/v1/products/bulk", []any{Body("code", "n1", "kind", "simple"), Body("code", "S", "kind", "simple")}), 409, "ALREADY_EXISTS", "[1].code")
	Problem(t, "bulk duplicate within", c.Post("/v1/products/bulk", []any{Body("code", "n1", "kind", "simple"), Body("code", "n1", "kind", "simple")}), 409, "ALREADY_EXISTS", "[1].code")
	Problem(t, "bulk invalid", c.Post("/v1/products/bulk", []any{Body("code", "n1", "kind", "simple"), Body("code", "n2")}), 400, "VALIDATION_FAILED", "[1].kind")
	Problem(t, "bulk unknown family", c.Post("/v1/products/bulk", []any{Body("code", "n1", "kind", "simple"), Body("code", "n2", "kind", "simple", "familyUuid", famB)}), 404, "NOT_FOUND", "[1].familyUuid")
	Problem(t, "bulk unknown brand", c.Post("/v1/products/bulk", []any{Body("code", "n1", "kind", "simple"), Body("code", "n2", "kind", "simple", "brandUuid", brandB)}), 404, "NOT_FOUND", "[1].brandUuid")
	Problem(t, "bulk bad parent", c.Post("/v1/products/bulk", []any{Body("code", "n1", "kind", "simple"), Body("code", "n2", "kind", "variant", "familyUuid", fam, "parentUuid", simple)}), 400, "VALIDATION_FAILED", "[1].parentUuid")
	Problem(t, "bulk unknown parent", c.Post("/v1/products/bulk", []any{Body("code", "n1", "kind", "simple"), Body("code", "n2", "kind", "variant", "familyUuid", fam, "parentUuid", vpB)}), 404, "NOT_FOUND", "[1].parentUuid")
	Problem(t, "empty bulk", c.Post("/v1/products/bulk", []any{}), 400, "VALIDATION_FAILED")
	log.Expect(t, "failed requests write nothing")
	WantTotal(t, c, "/v1/products", 3)
}

func TestProductUpdateRules(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam, fam2, brand := mkFamily(t, c), mkFamily(t, c), mkBrand(t, c)
	vp := mkProductID(t, c, "VP", "variant_parent", "familyUuid", fam)
	vp2 := mkProductID(t, c, "VP2", "variant_parent", "familyUuid", fam)
	vpOther := mkProductID(t, c, "VP3", "variant_parent", "familyUuid", fam2)
	simple := mkProductID(t, c, "S", "simple")
	variant := mkProductID(t, c, "V", "variant", "familyUuid", fam, "parentUuid", vp)
	c2, _ := env.TenantClient(t)
	famB, brandB := mkFamily(t, c2), mkBrand(t, c2)
	before := Want(t, c.Get("/v1/products/"+variant), 200).Obj()
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "change kind", c.Patch("/v1/products/"+simple, Body("kind", "variant_parent")), 400, "VALIDATION_FAILED", "kind")
	Problem(t, "unknown kind", c.Patch("/v1/products/"+simple, Body("kind", "bundle")), 400, "MALFORMED_REQUEST", "kind")
	Problem(t, "change a variant's family", c.Patch("/v1/products/"+variant, Body("familyUuid", fam2)), 400, "VALIDATION_FAILED", "familyUuid")
	Problem(t, "clear a variant_parent's family", c.Patch("/v1/products/"+vp, Body("familyUuid", nil)), 400, "VALIDATION_FAILED", "familyUuid")
	Problem(t, "clear a variant's parent", c.Patch("/v1/products/"+variant, Body("parentUuid", nil)), 400, "VALIDATION_FAILED", "parentUuid")
	Problem(t, "give a simple product a parent", c.Patch("/v1/products/"+simple, Body("parentUuid", vp)), 400, "VALIDATION_FAILED", "parentUuid")
	Problem(t, "parent of another family", c.Patch("/v1/products/"+variant, Body("parentUuid", vpOther)), 400, "VALIDATION_FAILED", "parentUuid")
	Problem(t, "parent not a variant_parent", c.Patch("/v1/products/"+variant, Body("parentUuid", simple)), 400, "VALIDATION_FAILED", "parentUuid")
	Problem(t, "unknown parent", c.Patch("/v1/products/"+variant, Body("parentUuid", UnknownUUID)), 404, "NOT_FOUND", "parentUuid")
	Problem(t, "unknown family", c.Patch("/v1/products/"+simple, Body("familyUuid", UnknownUUID)), 404, "NOT_FOUND", "familyUuid")
	Problem(t, "another tenant's family", c.Patch("/v1/products/"+simple, Body("familyUuid", famB)), 404, "NOT_FOUND", "familyUuid")
	Problem(t, "unknown brand", c.Patch("/v1/products/"+simple, Body("brandUuid", UnknownUUID)), 404, "NOT_FOUND", "brandUuid")
	Problem(t, "another tenant's brand", c.Patch("/v1/products/"+simple, Body("brandUuid", brandB)), 404, "NOT_FOUND", "brandUuid")
	Problem(t, "duplicate code", c.Patch("/v1/products/"+simple, Body("code", "VP")), 409, "ALREADY_EXISTS", "code")
	Problem(t, "bulk: item-indexed", c.Patch("/v1/products/bulk", []any{Body("uuid", simple, "code", "S2"), Body("uuid", variant, "kind", "simple")}), 400, "VALIDATION_FAILED", "[1].kind")
	Problem(t, "bulk: bad parent", c.Patch("/v1/products/bulk", []any{Body("uuid", simple, "code", "S2"), Body("uuid", variant, "parentUuid", vpOther)}), 400, "VALIDATION_FAILED", "[1].parentUuid")
	Problem(t, "bulk: unknown brand", c.Patch("/v1/products/bulk", []any{Body("uuid", simple, "code", "S2"), Body("uuid", variant, "brandUuid", brandB)}), 404, "NOT_FOUND", "[1].brandUuid")
	Problem(t, "bulk: unknown product", c.Patch("/v1/products/bulk", []any{Body("uuid", simple, "code", "S2"), Body("uuid", UnknownUUID)}), 404, "NOT_FOUND", "[1].uuid")
	Problem(t, "bulk: without uuid", c.Patch("/v1/products/bulk", []any{Body()}), 400, "VALIDATION_FAILED", "[0].uuid")
	log.Expect(t, "refused updates write nothing")
	if got := Want(t, c.Get("/v1/products/"+variant), 200).Obj(); !reflect.DeepEqual(got, before) {
		t.Errorf("a refused update changed the variant: %v", got)
	}
	WantTotal(t, c, "/v1/products"+Q("codes[eq]", "S2"), 0)

	// Allowed: the same family and kind repeated, a move to another variant_parent of the family.
	u := Want(t, c.Patch("/v1/products/"+variant, Body("kind", "variant", "familyUuid", fam, "parentUuid", vp2, "brandUuid", brand)), 200).Obj()
	wantProduct(t, "move variant", u, "parentUuid", vp2, "familyUuid", fam, "brandUuid", brand, "kind", "variant")
	log.Expect(t, "move", pev("updated", variant))
}

func TestProductInUse(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam, brand := mkFamily(t, c), mkBrand(t, c)
	vp := mkProductID(t, c, "VP", "variant_parent", "familyUuid", fam, "brandUuid", brand)
	variant := mkProductID(t, c, "V", "variant", "familyUuid", fam, "parentUuid", vp)
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "delete a variant_parent with variants", c.Delete("/v1/products/"+vp), 409, "IN_USE")
	Problem(t, "delete a family used by products", c.Delete("/v1/families/"+fam), 409, "IN_USE")
	Problem(t, "delete a brand used by products", c.Delete("/v1/brands/"+brand), 409, "IN_USE")
	log.Expect(t, "refused deletes write nothing")

	// Once the variant is gone, the parent can go, then the family and the brand.
	Want(t, c.Delete("/v1/products/"+variant), 204)
	Want(t, c.Delete("/v1/products/"+vp), 204)
	Want(t, c.Delete("/v1/families/"+fam), 204)
	Want(t, c.Delete("/v1/brands/"+brand), 204)
	log.Expect(t, "deletes", pev("deleted", variant), pev("deleted", vp), Ev("family.deleted", "familyUuid", fam), Ev("brand.deleted", "brandUuid", brand))
}
