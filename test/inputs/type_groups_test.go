package inputs

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func wantTypeGroup(t *testing.T, what string, g map[string]any, code, name, entityType string) {
	t.Helper()
	WantKeys(t, what, g, "uuid", "createdAt", "updatedAt", "code", "displayName", "entityType")
	WantCommon(t, what, g)
	WantFields(t, what, g, "code", code, "displayName", name, "entityType", entityType)
}

func TestTypeGroupOperations(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)

	// Create: 201, Location, displayName defaults to code.
	r := Want(t, c.Post("/v1/type-groups", Body("code", "seo", "entityType", "product")), 201)
	g := r.Obj()
	wantTypeGroup(t, "create", g, "seo", "seo", "product")
	if g["createdAt"] != g["updatedAt"] {
		t.Errorf("create: createdAt %v != updatedAt %v", g["createdAt"], g["updatedAt"])
	}
	id := Str(g, "uuid")
	if loc := r.Header.Get("Location"); loc != "/v1/type-groups/"+id {
		t.Errorf("Location %q", loc)
	}
	if got := Want(t, c.Get("/v1/type-groups/"+id), 200).Obj(); !reflect.DeepEqual(got, g) {
		t.Errorf("get = %v, want %v", got, g)
	}
	g2 := Want(t, c.Post("/v1/type-groups", Body("code", "marketing", "displayName", "Marketing texts", "entityType", "category")), 201).Obj()
	wantTypeGroup(t, "create with displayName", g2, "marketing", "Marketing texts", "category")

	// Update: only the fields given; null on a non-nullable field leaves it.
	u := Want(t, c.Patch("/v1/type-groups/"+id, Body("displayName", "SEO", "code", nil)), 200).Obj()
	wantTypeGroup(t, "update", u, "seo", "SEO", "product")
	if u["createdAt"] != g["createdAt"] || !TS(t, u["updatedAt"]).After(TS(t, g["updatedAt"])) {
		t.Errorf("update timestamps: %v / %v", u, g)
	}
	// entityType changes while the group holds no input type.
	u = Want(t, c.Patch("/v1/type-groups/"+id, Body("entityType", "brand")), 200).Obj()
	wantTypeGroup(t, "update entityType", u, "seo", "SEO", "brand")
	// An empty body changes nothing, updatedAt included.
	e := Want(t, c.Patch("/v1/type-groups/"+id, Body()), 200).Obj()
	wantTypeGroup(t, "empty update", e, "seo", "SEO", "brand")
	if !reflect.DeepEqual(e, u) {
		t.Errorf("empty update = %v, want the stored %v", e, u)
	}
	if got := Want(t, c.Get("/v1/type-groups/"+id), 200).Obj(); !reflect.DeepEqual(got, e) {
		t.Errorf("get after update = %v, want %v", got, e)
	}

	// Bulk create and bulk update answer in request order.
	items := Want(t, c.Post("/v1/type-groups/bulk", []any{
		Body("code", "z-assets", "entityType", "asset"),
		Body("code", "a-collections", "entityType", "collection", "displayName", "Collections"),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create: %v", items)
	}
	wantTypeGroup(t, "bulk [0]", items[0], "z-assets", "z-assets", "asset")
	wantTypeGroup(t, "bulk [1]", items[1], "a-collections", "Collections", "collection")
	up := Want(t, c.Patch("/v1/type-groups/bulk", []any{
		Body("uuid", Str(items[1], "uuid"), "code", "b-collections"),
		Body("uuid", Str(items[0], "uuid"), "entityType", "product", "displayName", "Assets"),
	}), 200).Objs()
	if len(up) != 2 {
		t.Fatalf("bulk update: %v", up)
	}
	wantTypeGroup(t, "bulk update [0]", up[0], "b-collections", "Collections", "collection")
	wantTypeGroup(t, "bulk update [1]", up[1], "z-assets", "Assets", "product")
	WantTotal(t, c, "/v1/type-groups", 4)

	// Delete: 204 without a body, then 404.
	d := Want(t, c.Delete("/v1/type-groups/"+id), 204)
	if len(d.Raw) != 0 {
		t.Errorf("delete body %q", d.Raw)
	}
	Problem(t, "get deleted", c.Get("/v1/type-groups/"+id), 404, "NOT_FOUND")
	Problem(t, "delete deleted", c.Delete("/v1/type-groups/"+id), 404, "NOT_FOUND")
	Problem(t, "update deleted", c.Patch("/v1/type-groups/"+id, Body("displayName", "x")), 404, "NOT_FOUND")
	WantTotal(t, c, "/v1/type-groups", 3)
}

func TestTypeGroupValidation(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	id := mkTypeGroup(t, c, "seo", "product")
	other := mkTypeGroup(t, c, "specs", "product")
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "no code", c.Post("/v1/type-groups", Body("entityType", "product")), 400, "VALIDATION_FAILED", "code")
	Problem(t, "long code", c.Post("/v1/type-groups", Body("code", strings.Repeat("é", 101), "entityType", "product")), 400, "VALIDATION_FAILED", "code")
	Want(t, c.Post("/v1/type-groups", Body("code", strings.Repeat("é", 100), "entityType", "product")), 201) // characters, not bytes
	Problem(t, "empty displayName", c.Post("/v1/type-groups", Body("code", "x", "displayName", "", "entityType", "product")), 400, "VALIDATION_FAILED", "displayName")
	Problem(t, "no entityType", c.Post("/v1/type-groups", Body("code", "x")), 400, "VALIDATION_FAILED", "entityType")
	Problem(t, "unknown entityType", c.Post("/v1/type-groups", Body("code", "x", "entityType", "widget")), 400, "MALFORMED_REQUEST", "entityType")
	Problem(t, "unknown field", c.Post("/v1/type-groups", Body("code", "x", "entityType", "product", "colour", 1)), 400, "MALFORMED_REQUEST", "colour")
	Problem(t, "malformed JSON", c.Post("/v1/type-groups", `{"code":`), 400, "MALFORMED_REQUEST")
	Problem(t, "duplicate code", c.Post("/v1/type-groups", Body("code", "seo", "entityType", "asset")), 409, "ALREADY_EXISTS", "code")
	Problem(t, "bad path uuid", c.Get("/v1/type-groups/nope"), 400, "VALIDATION_FAILED", "typeGroupUuid")
	Problem(t, "unknown uuid", c.Get("/v1/type-groups/"+UnknownUUID), 404, "NOT_FOUND")
	Problem(t, "update to a taken code", c.Patch("/v1/type-groups/"+other, Body("code", "seo")), 409, "ALREADY_EXISTS", "code")
	Problem(t, "update long displayName", c.Patch("/v1/type-groups/"+other, Body("displayName", strings.Repeat("x", 101))), 400, "VALIDATION_FAILED", "displayName")
	Problem(t, "update unknown entityType", c.Patch("/v1/type-groups/"+other, Body("entityType", "widget")), 400, "MALFORMED_REQUEST", "entityType")

	// Bulk: item-indexed errors, and nothing is written.
	Problem(t, "bulk duplicate in request", c.Post("/v1/type-groups/bulk", []any{Body("code", "n1", "entityType", "product"), Body("code", "n1", "entityType", "brand")}),
		409, "ALREADY_EXISTS", "[1].code")
	Problem(t, "bulk existing code", c.Post("/v1/type-groups/bulk", []any{Body("code", "n2", "entityType", "product"), Body("code", "specs", "entityType", "brand")}),
		409, "ALREADY_EXISTS", "[1].code")
	r := c.Post("/v1/type-groups/bulk", []any{Body("code", "n3", "entityType", "product"), Body("code", "n4"), Body("code", "")})
	Problem(t, "bulk invalid items", r, 400, "VALIDATION_FAILED", "[1].entityType")
	Problem(t, "bulk invalid items", r, 400, "VALIDATION_FAILED", "[2].code")
	Problem(t, "empty bulk", c.Post("/v1/type-groups/bulk", []any{}), 400, "VALIDATION_FAILED")
	many := make([]any, 101)
	for i := range many {
		many[i] = Body("code", "m"+strings.Repeat("x", i), "entityType", "product")
	}
	Problem(t, "bulk of 101", c.Post("/v1/type-groups/bulk", many), 400, "VALIDATION_FAILED")
	Problem(t, "bulk not an array", c.Post("/v1/type-groups/bulk", Body("code", "x")), 400, "MALFORMED_REQUEST")
	WantTotal(t, c, "/v1/type-groups", 3)

	Problem(t, "bulk update unknown uuid", c.Patch("/v1/type-groups/bulk", []any{Body("uuid", id, "displayName", "changed"), Body("uuid", UnknownUUID, "displayName", "x")}),
		404, "NOT_FOUND", "[1].uuid")
	Problem(t, "bulk update without uuid", c.Patch("/v1/type-groups/bulk", []any{Body("uuid", id, "displayName", "changed"), Body("displayName", "x")}),
		400, "VALIDATION_FAILED", "[1].uuid")
	Problem(t, "bulk update taken code", c.Patch("/v1/type-groups/bulk", []any{Body("uuid", id, "displayName", "changed"), Body("uuid", other, "code", "seo")}),
		409, "ALREADY_EXISTS", "[1].code")
	if g := Want(t, c.Get("/v1/type-groups/"+id), 200).Obj(); g["displayName"] != "seo" {
		t.Errorf("a refused bulk update changed item [0]: %v", g)
	}
	log.Expect(t, "refused writes emit nothing", Ev("type_group.created", "typeGroupUuid", Str(Want(t, c.Get("/v1/type-groups"+Q("codes[eq]", strings.Repeat("é", 100))), 200).Items()[0], "uuid")))
}

// A type group holding input types cannot be deleted nor change its entityType.
func TestTypeGroupInUse(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	free := mkTypeGroup(t, c, "free", "product")
	it := Str(mkInputType(t, c, g, "meta_title", "text"), "uuid")
	log := NewEventLog(pool, tenant).Skip(t)

	// Both refusals name what refers to the group: its input types.
	wantInputTypes := func(what string, r Resp) {
		t.Helper()
		if by, ok := Strings(Meta(r.Obj())["referencedBy"]); !ok || len(by) != 1 || by[0] != "input type" {
			t.Errorf("%s: meta.referencedBy %#v, want [input type]", what, Meta(r.Obj())["referencedBy"])
		}
	}
	r := c.Delete("/v1/type-groups/" + g)
	Problem(t, "delete a group with input types", r, 409, "IN_USE")
	wantInputTypes("delete", r)
	r = c.Patch("/v1/type-groups/"+g, Body("entityType", "brand"))
	Problem(t, "change entityType of a group with input types", r, 409, "IN_USE", "entityType")
	wantInputTypes("change entityType", r)
	Problem(t, "bulk: change entityType of a group with input types", c.Patch("/v1/type-groups/bulk", []any{
		Body("uuid", free, "entityType", "asset"), Body("uuid", g, "entityType", "asset"),
	}), 409, "IN_USE", "[1].entityType")
	if x := Want(t, c.Get("/v1/type-groups/"+free), 200).Obj(); x["entityType"] != "product" {
		t.Errorf("a refused bulk update changed item [0]: %v", x)
	}
	log.Expect(t, "refused")
	// The same entityType is no change: accepted.
	u := Want(t, c.Patch("/v1/type-groups/"+g, Body("entityType", "product", "displayName", "SEO")), 200).Obj()
	wantTypeGroup(t, "same entityType", u, "seo", "SEO", "product")
	log.Expect(t, "update", Ev("type_group.updated", "typeGroupUuid", g))

	// Once its input types are gone (moved away or deleted), the group changes and goes.
	Want(t, c.Patch("/v1/input-types/"+it, Body("typeGroupUuid", free)), 200)
	Want(t, c.Patch("/v1/type-groups/"+g, Body("entityType", "brand")), 200)
	Want(t, c.Delete("/v1/type-groups/"+g), 204)
	Problem(t, "delete free's group now holding the input type", c.Delete("/v1/type-groups/"+free), 409, "IN_USE")
	Want(t, c.Delete("/v1/input-types/"+it), 204)
	Want(t, c.Delete("/v1/type-groups/"+free), 204)
	if n := CountRows(t, pool, "type_groups", tenant); n != 0 {
		t.Errorf("%d type groups left", n)
	}
}

func TestTypeGroupList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	items := Want(t, c.Post("/v1/type-groups/bulk", []any{
		Body("code", "seo", "displayName", "Search 100%", "entityType", "product"),
		Body("code", "specs", "displayName", "Specifications", "entityType", "product"),
		Body("code", "brand_story", "displayName", "Story", "entityType", "brand"),
		Body("code", "cat_texts", "displayName", "Category_texts", "entityType", "category"),
	}), 201).Objs()
	seo, specs, story, cat := UUIDsOf(items)[0], UUIDsOf(items)[1], UUIDsOf(items)[2], UUIDsOf(items)[3]
	late := mkTypeGroup(t, c, "zz_assets", "asset")
	lateObj := Want(t, c.Get("/v1/type-groups/"+late), 200).Obj()
	Want(t, c.Patch("/v1/type-groups/"+specs, Body("displayName", "Specs")), 200)
	specsObj := Want(t, c.Get("/v1/type-groups/"+specs), 200).Obj()

	base := "/v1/type-groups"
	WantUUIDs(t, c, base, true, seo, specs, story, cat, late) // createdAt, then uuid (v7: request order)
	WantUUIDs(t, c, base+Q("uuids[eq]", seo, "uuids[eq]", cat), false, seo, cat)
	WantUUIDs(t, c, base+Q("codes[eq]", "seo", "codes[eq]", "brand_story", "codes[eq]", "nope"), false, seo, story)
	WantUUIDs(t, c, base+Q("code[contains]", "S"), false, seo, specs, story, late, cat)
	WantUUIDs(t, c, base+Q("code[contains]", "_"), false, story, cat, late) // _ is literal
	WantUUIDs(t, c, base+Q("code[starts]", "sp"), false, specs)
	WantUUIDs(t, c, base+Q("code[ends]", "TEXTS"), false, cat)
	WantUUIDs(t, c, base+Q("displayNames[eq]", "Story", "displayNames[eq]", "Specs"), false, story, specs)
	WantUUIDs(t, c, base+Q("displayName[contains]", "%"), false, seo) // % is literal
	WantUUIDs(t, c, base+Q("displayName[starts]", "s"), false, seo, specs, story)
	WantUUIDs(t, c, base+Q("displayName[ends]", "texts"), false, cat)
	WantUUIDs(t, c, base+Q("entityTypes[eq]", "product"), false, seo, specs)
	WantUUIDs(t, c, base+Q("entityTypes[eq]", "brand", "entityTypes[eq]", "asset"), false, story, late)
	WantUUIDs(t, c, base+Q("entityTypes[eq]", "collection"), false)
	WantUUIDs(t, c, base+Q("createdAt[min]", Str(lateObj, "createdAt")), false, late)
	WantUUIDs(t, c, base+Q("createdAt[eq]", Str(lateObj, "createdAt")), false, late)
	WantUUIDs(t, c, base+Q("createdAt[max]", Str(items[0], "createdAt")), false, seo, specs, story, cat)
	WantUUIDs(t, c, base+Q("updatedAt[min]", Str(specsObj, "updatedAt")), false, specs)
	WantUUIDs(t, c, base+Q("updatedAt[eq]", Str(specsObj, "updatedAt"), "entityTypes[eq]", "brand"), false)
	WantUUIDs(t, c, base+Q("updatedAt[max]", Str(lateObj, "updatedAt")), false, seo, story, cat, late)
	// Ordering.
	WantUUIDs(t, c, base+Q("code[order]", "desc"), true, late, specs, seo, cat, story)
	WantUUIDs(t, c, base+Q("displayName[order]", "asc"), true, cat, seo, specs, story, late)
	WantUUIDs(t, c, base+Q("entityType[order]", "asc", "code[order]", "desc"), true, late, story, cat, specs, seo)
	WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, late, cat, story, specs, seo)
	WantUUIDs(t, c, base+Q("updatedAt[order]", "desc", "code[order]", "asc"), true, specs, late, story, cat, seo)
	// Pages.
	r := Want(t, c.Get(base+Q("size", "2", "page", "3")), 200)
	if p := r.Obj()["pagination"].(map[string]any); p["page"] != 3.0 || p["size"] != 2.0 || p["totalItems"] != 5.0 || p["totalPages"] != 3.0 || len(r.Items()) != 1 || Str(r.Items()[0], "uuid") != late {
		t.Errorf("page 3 of size 2: %s", r.Raw)
	}
	r = Want(t, c.Get(base+Q("page", "9")), 200)
	if len(r.Items()) != 0 || r.Obj()["pagination"].(map[string]any)["totalItems"] != 5.0 {
		t.Errorf("page past the end: %s", r.Raw)
	}
	for _, it := range r.Items() {
		wantTypeGroup(t, "list item", it, Str(it, "code"), Str(it, "displayName"), Str(it, "entityType"))
	}
	for _, it := range Want(t, c.Get(base), 200).Items() {
		if it["code"] == "specs" && !reflect.DeepEqual(it, specsObj) {
			t.Errorf("list item %v != get %v", it, specsObj)
		}
	}
	// Bad parameters name themselves.
	Problem(t, "unknown entity type", c.Get(base+Q("entityTypes[eq]", "widget")), 400, "VALIDATION_FAILED", "entityTypes[eq]")
	Problem(t, "bad uuid", c.Get(base+Q("uuids[eq]", "x")), 400, "VALIDATION_FAILED", "uuids[eq]")
	Problem(t, "unknown parameter", c.Get(base+Q("entityType[eq]", "brand")), 400, "MALFORMED_REQUEST")
	Problem(t, "not orderable", c.Get(base+Q("uuid[order]", "asc")), 400, "MALFORMED_REQUEST")
	Problem(t, "size 101", c.Get(base+Q("size", "101")), 400, "VALIDATION_FAILED", "size")
}

func TestTypeGroupEvents(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant).Skip(t)
	tg := func(verb, id string) Event { return Ev("type_group."+verb, "typeGroupUuid", id) }

	a := mkTypeGroup(t, c, "a", "product")
	log.Expect(t, "create", tg("created", a))
	items := Want(t, c.Post("/v1/type-groups/bulk", []any{Body("code", "b", "entityType", "brand"), Body("code", "c", "entityType", "asset")}), 201).Objs()
	b, cc := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk create", tg("created", b), tg("created", cc))
	Want(t, c.Patch("/v1/type-groups/"+a, Body("entityType", "category")), 200)
	log.Expect(t, "update", tg("updated", a))
	Want(t, c.Patch("/v1/type-groups/bulk", []any{Body("uuid", b, "displayName", "B"), Body("uuid", cc, "code", "cc")}), 200)
	log.Expect(t, "bulk update", tg("updated", b), tg("updated", cc))
	Want(t, c.Delete("/v1/type-groups/"+cc), 204)
	log.Expect(t, "delete", tg("deleted", cc))
	c.Delete("/v1/type-groups/" + cc)
	c.Post("/v1/type-groups", Body("code", "a", "entityType", "product"))
	log.Expect(t, "refused writes")
}
