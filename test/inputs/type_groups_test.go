package inputs

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func wantTypeGroup(t *testing.T, what string, g map[string]any, code, name, entityType string) {
	t.Helper()
	wantKeys(t, what, g, "uuid", "createdAt", "updatedAt", "code", "displayName", "entityType")
	wantCommon(t, what, g)
	wantFields(t, what, g, "code", code, "displayName", name, "entityType", entityType)
}

func TestTypeGroupOperations(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)

	// Create: 201, Location, displayName defaults to code.
	r := Want(t, c.Post("/v1/type-groups", body("code", "seo", "entityType", "product")), 201)
	g := r.Obj()
	wantTypeGroup(t, "create", g, "seo", "seo", "product")
	if g["createdAt"] != g["updatedAt"] {
		t.Errorf("create: createdAt %v != updatedAt %v", g["createdAt"], g["updatedAt"])
	}
	id := str(g, "uuid")
	if loc := r.Header.Get("Location"); loc != "/v1/type-groups/"+id {
		t.Errorf("Location %q", loc)
	}
	if got := Want(t, c.Get("/v1/type-groups/"+id), 200).Obj(); !reflect.DeepEqual(got, g) {
		t.Errorf("get = %v, want %v", got, g)
	}
	g2 := Want(t, c.Post("/v1/type-groups", body("code", "marketing", "displayName", "Marketing texts", "entityType", "category")), 201).Obj()
	wantTypeGroup(t, "create with displayName", g2, "marketing", "Marketing texts", "category")

	// Update: only the fields given; null on a non-nullable field leaves it.
	u := Want(t, c.Patch("/v1/type-groups/"+id, body("displayName", "SEO", "code", nil)), 200).Obj()
	wantTypeGroup(t, "update", u, "seo", "SEO", "product")
	if u["createdAt"] != g["createdAt"] || !ts(t, u["updatedAt"]).After(ts(t, g["updatedAt"])) {
		t.Errorf("update timestamps: %v / %v", u, g)
	}
	// entityType changes while the group holds no input type.
	u = Want(t, c.Patch("/v1/type-groups/"+id, body("entityType", "brand")), 200).Obj()
	wantTypeGroup(t, "update entityType", u, "seo", "SEO", "brand")
	// An empty body only bumps updatedAt.
	e := Want(t, c.Patch("/v1/type-groups/"+id, body()), 200).Obj()
	wantTypeGroup(t, "empty update", e, "seo", "SEO", "brand")
	if !ts(t, e["updatedAt"]).After(ts(t, u["updatedAt"])) {
		t.Errorf("empty update did not bump updatedAt")
	}
	if got := Want(t, c.Get("/v1/type-groups/"+id), 200).Obj(); !reflect.DeepEqual(got, e) {
		t.Errorf("get after update = %v, want %v", got, e)
	}

	// Bulk create and bulk update answer in request order.
	items := Want(t, c.Post("/v1/type-groups/bulk", []any{
		body("code", "z-assets", "entityType", "asset"),
		body("code", "a-collections", "entityType", "collection", "displayName", "Collections"),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create: %v", items)
	}
	wantTypeGroup(t, "bulk [0]", items[0], "z-assets", "z-assets", "asset")
	wantTypeGroup(t, "bulk [1]", items[1], "a-collections", "Collections", "collection")
	up := Want(t, c.Patch("/v1/type-groups/bulk", []any{
		body("uuid", str(items[1], "uuid"), "code", "b-collections"),
		body("uuid", str(items[0], "uuid"), "entityType", "product", "displayName", "Assets"),
	}), 200).Objs()
	if len(up) != 2 {
		t.Fatalf("bulk update: %v", up)
	}
	wantTypeGroup(t, "bulk update [0]", up[0], "b-collections", "Collections", "collection")
	wantTypeGroup(t, "bulk update [1]", up[1], "z-assets", "Assets", "product")
	wantTotal(t, c, "/v1/type-groups", 4)

	// Delete: 204 without a body, then 404.
	d := Want(t, c.Delete("/v1/type-groups/"+id), 204)
	if len(d.Raw) != 0 {
		t.Errorf("delete body %q", d.Raw)
	}
	problem(t, "get deleted", c.Get("/v1/type-groups/"+id), 404, "NOT_FOUND")
	problem(t, "delete deleted", c.Delete("/v1/type-groups/"+id), 404, "NOT_FOUND")
	problem(t, "update deleted", c.Patch("/v1/type-groups/"+id, body("displayName", "x")), 404, "NOT_FOUND")
	wantTotal(t, c, "/v1/type-groups", 3)
}

func TestTypeGroupValidation(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	id := mkTypeGroup(t, c, "seo", "product")
	other := mkTypeGroup(t, c, "specs", "product")
	log := newLog(t, tenant)

	problem(t, "no code", c.Post("/v1/type-groups", body("entityType", "product")), 400, "VALIDATION_FAILED", "code")
	problem(t, "long code", c.Post("/v1/type-groups", body("code", strings.Repeat("é", 101), "entityType", "product")), 400, "VALIDATION_FAILED", "code")
	Want(t, c.Post("/v1/type-groups", body("code", strings.Repeat("é", 100), "entityType", "product")), 201) // characters, not bytes
	problem(t, "empty displayName", c.Post("/v1/type-groups", body("code", "x", "displayName", "", "entityType", "product")), 400, "VALIDATION_FAILED", "displayName")
	problem(t, "no entityType", c.Post("/v1/type-groups", body("code", "x")), 400, "VALIDATION_FAILED", "entityType")
	problem(t, "unknown entityType", c.Post("/v1/type-groups", body("code", "x", "entityType", "widget")), 400, "MALFORMED_REQUEST", "entityType")
	problem(t, "unknown field", c.Post("/v1/type-groups", body("code", "x", "entityType", "product", "colour", 1)), 400, "MALFORMED_REQUEST", "colour")
	problem(t, "malformed JSON", c.Post("/v1/type-groups", `{"code":`), 400, "MALFORMED_REQUEST")
	problem(t, "duplicate code", c.Post("/v1/type-groups", body("code", "seo", "entityType", "asset")), 409, "ALREADY_EXISTS", "code")
	problem(t, "bad path uuid", c.Get("/v1/type-groups/nope"), 400, "VALIDATION_FAILED", "typeGroupUuid")
	problem(t, "unknown uuid", c.Get("/v1/type-groups/"+unknownUUID), 404, "NOT_FOUND")
	problem(t, "update to a taken code", c.Patch("/v1/type-groups/"+other, body("code", "seo")), 409, "ALREADY_EXISTS", "code")
	problem(t, "update long displayName", c.Patch("/v1/type-groups/"+other, body("displayName", strings.Repeat("x", 101))), 400, "VALIDATION_FAILED", "displayName")
	problem(t, "update unknown entityType", c.Patch("/v1/type-groups/"+other, body("entityType", "widget")), 400, "MALFORMED_REQUEST", "entityType")

	// Bulk: item-indexed errors, and nothing is written.
	problem(t, "bulk duplicate in request", c.Post("/v1/type-groups/bulk", []any{body("code", "n1", "entityType", "product"), body("code", "n1", "entityType", "brand")}),
		409, "ALREADY_EXISTS", "[1].code")
	problem(t, "bulk existing code", c.Post("/v1/type-groups/bulk", []any{body("code", "n2", "entityType", "product"), body("code", "specs", "entityType", "brand")}),
		409, "ALREADY_EXISTS", "[1].code")
	r := c.Post("/v1/type-groups/bulk", []any{body("code", "n3", "entityType", "product"), body("code", "n4"), body("code", "")})
	problem(t, "bulk invalid items", r, 400, "VALIDATION_FAILED", "[1].entityType")
	problem(t, "bulk invalid items", r, 400, "VALIDATION_FAILED", "[2].code")
	problem(t, "empty bulk", c.Post("/v1/type-groups/bulk", []any{}), 400, "VALIDATION_FAILED")
	many := make([]any, 101)
	for i := range many {
		many[i] = body("code", "m"+strings.Repeat("x", i), "entityType", "product")
	}
	problem(t, "bulk of 101", c.Post("/v1/type-groups/bulk", many), 400, "VALIDATION_FAILED")
	problem(t, "bulk not an array", c.Post("/v1/type-groups/bulk", body("code", "x")), 400, "MALFORMED_REQUEST")
	wantTotal(t, c, "/v1/type-groups", 3)

	problem(t, "bulk update unknown uuid", c.Patch("/v1/type-groups/bulk", []any{body("uuid", id, "displayName", "changed"), body("uuid", unknownUUID, "displayName", "x")}),
		404, "NOT_FOUND", "[1].uuid")
	problem(t, "bulk update without uuid", c.Patch("/v1/type-groups/bulk", []any{body("uuid", id, "displayName", "changed"), body("displayName", "x")}),
		400, "VALIDATION_FAILED", "[1].uuid")
	problem(t, "bulk update taken code", c.Patch("/v1/type-groups/bulk", []any{body("uuid", id, "displayName", "changed"), body("uuid", other, "code", "seo")}),
		409, "ALREADY_EXISTS", "[1].code")
	if g := Want(t, c.Get("/v1/type-groups/"+id), 200).Obj(); g["displayName"] != "seo" {
		t.Errorf("a refused bulk update changed item [0]: %v", g)
	}
	log.expect(t, "refused writes emit nothing", ev("type_group.created", "typeGroupUuid", str(Want(t, c.Get("/v1/type-groups"+q("codes[eq]", strings.Repeat("é", 100))), 200).Items()[0], "uuid")))
}

// A type group holding input types cannot be deleted nor change its entityType.
func TestTypeGroupInUse(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	free := mkTypeGroup(t, c, "free", "product")
	it := str(mkInputType(t, c, g, "meta_title", "text"), "uuid")
	log := newLog(t, tenant)

	r := c.Delete("/v1/type-groups/" + g)
	problem(t, "delete a group with input types", r, 409, "IN_USE")
	problem(t, "change entityType of a group with input types", c.Patch("/v1/type-groups/"+g, body("entityType", "brand")), 409, "IN_USE", "entityType")
	problem(t, "bulk: change entityType of a group with input types", c.Patch("/v1/type-groups/bulk", []any{
		body("uuid", free, "entityType", "asset"), body("uuid", g, "entityType", "asset"),
	}), 409, "IN_USE", "[1].entityType")
	if x := Want(t, c.Get("/v1/type-groups/"+free), 200).Obj(); x["entityType"] != "product" {
		t.Errorf("a refused bulk update changed item [0]: %v", x)
	}
	log.expect(t, "refused")
	// The same entityType is no change: accepted.
	u := Want(t, c.Patch("/v1/type-groups/"+g, body("entityType", "product", "displayName", "SEO")), 200).Obj()
	wantTypeGroup(t, "same entityType", u, "seo", "SEO", "product")
	log.expect(t, "update", ev("type_group.updated", "typeGroupUuid", g))

	// Once its input types are gone (moved away or deleted), the group changes and goes.
	Want(t, c.Patch("/v1/input-types/"+it, body("typeGroupUuid", free)), 200)
	Want(t, c.Patch("/v1/type-groups/"+g, body("entityType", "brand")), 200)
	Want(t, c.Delete("/v1/type-groups/"+g), 204)
	problem(t, "delete free's group now holding the input type", c.Delete("/v1/type-groups/"+free), 409, "IN_USE")
	Want(t, c.Delete("/v1/input-types/"+it), 204)
	Want(t, c.Delete("/v1/type-groups/"+free), 204)
	if n := countRows(t, "type_groups", tenant); n != 0 {
		t.Errorf("%d type groups left", n)
	}
}

func TestTypeGroupList(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	items := Want(t, c.Post("/v1/type-groups/bulk", []any{
		body("code", "seo", "displayName", "Search 100%", "entityType", "product"),
		body("code", "specs", "displayName", "Specifications", "entityType", "product"),
		body("code", "brand_story", "displayName", "Story", "entityType", "brand"),
		body("code", "cat_texts", "displayName", "Category_texts", "entityType", "category"),
	}), 201).Objs()
	seo, specs, story, cat := uuidsOf(items)[0], uuidsOf(items)[1], uuidsOf(items)[2], uuidsOf(items)[3]
	late := mkTypeGroup(t, c, "zz_assets", "asset")
	lateObj := Want(t, c.Get("/v1/type-groups/"+late), 200).Obj()
	Want(t, c.Patch("/v1/type-groups/"+specs, body("displayName", "Specs")), 200)
	specsObj := Want(t, c.Get("/v1/type-groups/"+specs), 200).Obj()

	base := "/v1/type-groups"
	wantUUIDs(t, c, base, true, seo, specs, story, cat, late) // createdAt, then uuid (v7: request order)
	wantUUIDs(t, c, base+q("uuids[eq]", seo, "uuids[eq]", cat), false, seo, cat)
	wantUUIDs(t, c, base+q("codes[eq]", "seo", "codes[eq]", "brand_story", "codes[eq]", "nope"), false, seo, story)
	wantUUIDs(t, c, base+q("code[contains]", "S"), false, seo, specs, story, late, cat)
	wantUUIDs(t, c, base+q("code[contains]", "_"), false, story, cat, late) // _ is literal
	wantUUIDs(t, c, base+q("code[starts]", "sp"), false, specs)
	wantUUIDs(t, c, base+q("code[ends]", "TEXTS"), false, cat)
	wantUUIDs(t, c, base+q("displayNames[eq]", "Story", "displayNames[eq]", "Specs"), false, story, specs)
	wantUUIDs(t, c, base+q("displayName[contains]", "%"), false, seo) // % is literal
	wantUUIDs(t, c, base+q("displayName[starts]", "s"), false, seo, specs, story)
	wantUUIDs(t, c, base+q("displayName[ends]", "texts"), false, cat)
	wantUUIDs(t, c, base+q("entityTypes[eq]", "product"), false, seo, specs)
	wantUUIDs(t, c, base+q("entityTypes[eq]", "brand", "entityTypes[eq]", "asset"), false, story, late)
	wantUUIDs(t, c, base+q("entityTypes[eq]", "collection"), false)
	wantUUIDs(t, c, base+q("createdAt[min]", str(lateObj, "createdAt")), false, late)
	wantUUIDs(t, c, base+q("createdAt[eq]", str(lateObj, "createdAt")), false, late)
	wantUUIDs(t, c, base+q("createdAt[max]", str(items[0], "createdAt")), false, seo, specs, story, cat)
	wantUUIDs(t, c, base+q("updatedAt[min]", str(specsObj, "updatedAt")), false, specs)
	wantUUIDs(t, c, base+q("updatedAt[eq]", str(specsObj, "updatedAt"), "entityTypes[eq]", "brand"), false)
	wantUUIDs(t, c, base+q("updatedAt[max]", str(lateObj, "updatedAt")), false, seo, story, cat, late)
	// Ordering.
	wantUUIDs(t, c, base+q("code[order]", "desc"), true, late, specs, seo, cat, story)
	wantUUIDs(t, c, base+q("displayName[order]", "asc"), true, cat, seo, specs, story, late)
	wantUUIDs(t, c, base+q("entityType[order]", "asc", "code[order]", "desc"), true, late, story, cat, specs, seo)
	wantUUIDs(t, c, base+q("createdAt[order]", "desc"), true, late, cat, story, specs, seo)
	wantUUIDs(t, c, base+q("updatedAt[order]", "desc", "code[order]", "asc"), true, specs, late, story, cat, seo)
	// Pages.
	r := Want(t, c.Get(base+q("size", "2", "page", "3")), 200)
	if p := r.Obj()["pagination"].(map[string]any); p["page"] != 3.0 || p["size"] != 2.0 || p["totalItems"] != 5.0 || p["totalPages"] != 3.0 || len(r.Items()) != 1 || str(r.Items()[0], "uuid") != late {
		t.Errorf("page 3 of size 2: %s", r.Raw)
	}
	r = Want(t, c.Get(base+q("page", "9")), 200)
	if len(r.Items()) != 0 || r.Obj()["pagination"].(map[string]any)["totalItems"] != 5.0 {
		t.Errorf("page past the end: %s", r.Raw)
	}
	for _, it := range r.Items() {
		wantTypeGroup(t, "list item", it, str(it, "code"), str(it, "displayName"), str(it, "entityType"))
	}
	for _, it := range Want(t, c.Get(base), 200).Items() {
		if it["code"] == "specs" && !reflect.DeepEqual(it, specsObj) {
			t.Errorf("list item %v != get %v", it, specsObj)
		}
	}
	// Bad parameters name themselves.
	problem(t, "unknown entity type", c.Get(base+q("entityTypes[eq]", "widget")), 400, "VALIDATION_FAILED", "entityTypes[eq]")
	problem(t, "bad uuid", c.Get(base+q("uuids[eq]", "x")), 400, "VALIDATION_FAILED", "uuids[eq]")
	problem(t, "unknown parameter", c.Get(base+q("entityType[eq]", "brand")), 400, "MALFORMED_REQUEST")
	problem(t, "not orderable", c.Get(base+q("uuid[order]", "asc")), 400, "MALFORMED_REQUEST")
	problem(t, "size 101", c.Get(base+q("size", "101")), 400, "VALIDATION_FAILED", "size")
}

func TestTypeGroupEvents(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	log := newLog(t, tenant)
	tg := func(verb, id string) event { return ev("type_group."+verb, "typeGroupUuid", id) }

	a := mkTypeGroup(t, c, "a", "product")
	log.expect(t, "create", tg("created", a))
	items := Want(t, c.Post("/v1/type-groups/bulk", []any{body("code", "b", "entityType", "brand"), body("code", "c", "entityType", "asset")}), 201).Objs()
	b, cc := str(items[0], "uuid"), str(items[1], "uuid")
	log.expect(t, "bulk create", tg("created", b), tg("created", cc))
	Want(t, c.Patch("/v1/type-groups/"+a, body("entityType", "category")), 200)
	log.expect(t, "update", tg("updated", a))
	Want(t, c.Patch("/v1/type-groups/bulk", []any{body("uuid", b, "displayName", "B"), body("uuid", cc, "code", "cc")}), 200)
	log.expect(t, "bulk update", tg("updated", b), tg("updated", cc))
	Want(t, c.Delete("/v1/type-groups/"+cc), 204)
	log.expect(t, "delete", tg("deleted", cc))
	c.Delete("/v1/type-groups/" + cc)
	c.Post("/v1/type-groups", body("code", "a", "entityType", "product"))
	log.expect(t, "refused writes")
}
