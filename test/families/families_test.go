package families

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

var familyKeys = []string{"uuid", "createdAt", "updatedAt", "code", "displayName"}

func wantFamily(t *testing.T, what string, f map[string]any, code, displayName string) {
	t.Helper()
	WantKeys(t, what, f, familyKeys...)
	WantCommon(t, what, f)
	WantFields(t, what, f, "code", code, "displayName", displayName)
}

func TestFamilyOperations(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant).Skip(t)

	// Create: displayName defaults to code; Location names the new family.
	r := Want(t, c.Post("/v1/families", Body("code", "shirts")), 201)
	f := r.Obj()
	wantFamily(t, "create", f, "shirts", "shirts")
	id := Str(f, "uuid")
	if loc := r.Header.Get("Location"); loc != "/v1/families/"+id {
		t.Errorf("Location %q, want /v1/families/%s", loc, id)
	}
	if f["createdAt"] != f["updatedAt"] {
		t.Errorf("fresh family: createdAt %v != updatedAt %v", f["createdAt"], f["updatedAt"])
	}
	log.Expect(t, "create", Ev("family.created", "familyUuid", id))
	if got := Want(t, c.Get("/v1/families/"+id), 200).Obj(); !reflect.DeepEqual(got, f) {
		t.Errorf("get = %v, want %v", got, f)
	}
	f2 := Want(t, c.Post("/v1/families", Body("code", "shoes", "displayName", "Shoes ✓")), 201).Obj()
	wantFamily(t, "create with displayName", f2, "shoes", "Shoes ✓")
	log.Expect(t, "create 2", Ev("family.created", "familyUuid", Str(f2, "uuid")))

	// Update: only the fields given; null leaves a non-nullable field unchanged.
	u := Want(t, c.Patch("/v1/families/"+id, Body("displayName", "Shirts")), 200).Obj()
	wantFamily(t, "update displayName", u, "shirts", "Shirts")
	if !TS(t, u["updatedAt"]).After(TS(t, f["updatedAt"])) || u["createdAt"] != f["createdAt"] {
		t.Errorf("update timestamps: before %v, after %v", f, u)
	}
	u = Want(t, c.Patch("/v1/families/"+id, Body("code", "tshirts", "displayName", nil)), 200).Obj()
	wantFamily(t, "update code", u, "tshirts", "Shirts")
	prev := u
	u = Want(t, c.Patch("/v1/families/"+id, Body()), 200).Obj()
	wantFamily(t, "empty update", u, "tshirts", "Shirts")
	if u["updatedAt"] != prev["updatedAt"] {
		t.Errorf("empty update moved updatedAt: %v, before %v", u, prev)
	}
	// Neither an empty update nor one with the stored values writes: no event.
	Want(t, c.Patch("/v1/families/"+id, Body("code", "tshirts")), 200)
	log.Expect(t, "updates", Ev("family.updated", "familyUuid", id), Ev("family.updated", "familyUuid", id))
	if got := Want(t, c.Get("/v1/families/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
		t.Errorf("get after update = %v, want %v", got, u)
	}

	// Bulk create and bulk update answer in request order.
	items := Want(t, c.Post("/v1/families/bulk", []any{Body("code", "pants"), Body("code", "hats", "displayName", "Hats")}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create: %v", items)
	}
	wantFamily(t, "bulk [0]", items[0], "pants", "pants")
	wantFamily(t, "bulk [1]", items[1], "hats", "Hats")
	p, h := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk create", Ev("family.created", "familyUuid", p), Ev("family.created", "familyUuid", h))
	up := Want(t, c.Patch("/v1/families/bulk", []any{Body("uuid", h, "code", "caps"), Body("uuid", p, "displayName", "Pants")}), 200).Objs()
	if len(up) != 2 {
		t.Fatalf("bulk update: %v", up)
	}
	wantFamily(t, "bulk update [0]", up[0], "caps", "Hats")
	wantFamily(t, "bulk update [1]", up[1], "pants", "Pants")
	log.Expect(t, "bulk update", Ev("family.updated", "familyUuid", h), Ev("family.updated", "familyUuid", p))

	// Delete: 204 without body, then gone.
	d := Want(t, c.Delete("/v1/families/"+p), 204)
	if len(d.Raw) != 0 {
		t.Errorf("delete body %q, want none", d.Raw)
	}
	log.Expect(t, "delete", Ev("family.deleted", "familyUuid", p))
	Problem(t, "get deleted", c.Get("/v1/families/"+p), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete("/v1/families/"+p), 404, "NOT_FOUND")
	Problem(t, "update deleted", c.Patch("/v1/families/"+p, Body("code", "x")), 404, "NOT_FOUND")
	log.Expect(t, "failed operations write no events")
}

func TestFamilyValidationAndConflicts(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	mkFamily(t, c, "shirts")
	other := mkFamily(t, c, "shoes")
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "no code", c.Post("/v1/families", Body("displayName", "x")), 400, "VALIDATION_FAILED", "code")
	Problem(t, "long code", c.Post("/v1/families", Body("code", strings.Repeat("é", 101))), 400, "VALIDATION_FAILED", "code")
	Problem(t, "empty displayName", c.Post("/v1/families", Body("code", "x", "displayName", "")), 400, "VALIDATION_FAILED", "displayName")
	Problem(t, "unknown field", c.Post("/v1/families", Body("code", "x", "colour", "red")), 400, "MALFORMED_REQUEST", "colour")
	// 100 characters (code points) is fine.
	Want(t, c.Post("/v1/families", Body("code", strings.Repeat("é", 100))), 201)
	log.Expect(t, "one created", Ev("family.created", "familyUuid", Str(Want(t, c.Get("/v1/families"+Q("codes[eq]", strings.Repeat("é", 100))), 200).Items()[0], "uuid")))

	// Codes are unique per tenant: single, bulk against existing, and within one bulk.
	Problem(t, "duplicate", c.Post("/v1/families", Body("code", "shirts")), 409, "ALREADY_EXISTS", "code")
	Problem(t, "bulk duplicate of existing", c.Post("/v1/families/bulk", []any{Body("code", "new1"), Body("code", "shirts")}), 409, "ALREADY_EXISTS", "[1].code")
	Problem(t, "duplicate within bulk", c.Post("/v1/families/bulk", []any{Body("code", "dup"), Body("code", "dup")}), 409, "ALREADY_EXISTS", "[1].code")
	Problem(t, "update to a taken code", c.Patch("/v1/families/"+other, Body("code", "shirts")), 409, "ALREADY_EXISTS", "code")
	Problem(t, "bulk update to a taken code", c.Patch("/v1/families/bulk", []any{Body("uuid", other, "displayName", "S"), Body("uuid", other, "code", "shirts")}), 409, "ALREADY_EXISTS", "[1].code")
	// Another tenant may use the same code.
	c2, _ := env.TenantClient(t)
	Want(t, c2.Post("/v1/families", Body("code", "shirts")), 201)

	// Bulk checks: item-indexed errors, size limits, uuid required on bulk update items.
	Problem(t, "bulk invalid item", c.Post("/v1/families/bulk", []any{Body("code", "ok1"), Body("code", "")}), 400, "VALIDATION_FAILED", "[1].code")
	Problem(t, "empty bulk", c.Post("/v1/families/bulk", []any{}), 400, "VALIDATION_FAILED")
	many := make([]any, 101)
	for i := range many {
		many[i] = Body("code", "m"+RandomHex(4))
	}
	Problem(t, "101 items", c.Post("/v1/families/bulk", many), 400, "VALIDATION_FAILED")
	Problem(t, "bulk update without uuid", c.Patch("/v1/families/bulk", []any{Body("code", "zz")}), 400, "VALIDATION_FAILED", "[0].uuid")
	Problem(t, "bulk update unknown uuid", c.Patch("/v1/families/bulk", []any{Body("uuid", other, "code", "renamed"), Body("uuid", UnknownUUID, "code", "zz")}), 404, "NOT_FOUND", "[1].uuid")
	Problem(t, "malformed path uuid", c.Get("/v1/families/not-a-uuid"), 400, "VALIDATION_FAILED", "familyUuid")
	Problem(t, "unknown family", c.Get("/v1/families/"+UnknownUUID), 404, "NOT_FOUND")

	// Nothing of the failed requests was written.
	log.Expect(t, "failed requests write nothing")
	if got := Want(t, c.Get("/v1/families/"+other), 200).Obj(); got["code"] != "shoes" || got["displayName"] != "shoes" {
		t.Errorf("a failed bulk update changed the family: %v", got)
	}
	if n := CountRows(t, pool, "families", tenant); n != 3 {
		t.Errorf("%d families stored, want 3", n)
	}
}

func TestFamilyList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	items := Want(t, c.Post("/v1/families/bulk", []any{
		Body("code", "shirts", "displayName", "Shirts"),
		Body("code", "shoes", "displayName", "Shoes 50%"),
		Body("code", "hats", "displayName", "Caps_and_hats"),
	}), 201).Objs()
	shirts, shoes, hats := Str(items[0], "uuid"), Str(items[1], "uuid"), Str(items[2], "uuid")
	Want(t, c.Patch("/v1/families/"+hats, Body("displayName", "Hats")), 200)
	hatsNow := Want(t, c.Get("/v1/families/"+hats), 200).Obj()

	r := Want(t, c.Get("/v1/families"), 200)
	WantKeys(t, "page", r.Obj(), "items", "pagination")
	WantFields(t, "pagination", r.Obj()["pagination"].(map[string]any), "page", 1, "size", 20, "totalItems", 3, "totalPages", 1)
	for _, it := range r.Items() {
		WantKeys(t, "list item", it, familyKeys...)
	}
	WantUUIDs(t, c, "/v1/families", true, shirts, shoes, hats) // createdAt, then uuid (v7: request order)
	WantUUIDs(t, c, "/v1/families"+Q("uuids[eq]", shoes, "uuids[eq]", hats), false, shoes, hats)
	WantUUIDs(t, c, "/v1/families"+Q("codes[eq]", "shirts", "codes[eq]", "nope"), false, shirts)
	WantUUIDs(t, c, "/v1/families"+Q("code[starts]", "SH"), false, shirts, shoes)
	WantUUIDs(t, c, "/v1/families"+Q("code[ends]", "ts"), false, shirts, hats)
	WantUUIDs(t, c, "/v1/families"+Q("code[contains]", "oe"), false, shoes)
	WantUUIDs(t, c, "/v1/families"+Q("displayNames[eq]", "Hats"), false, hats)
	WantUUIDs(t, c, "/v1/families"+Q("displayName[contains]", "50%"), false, shoes)
	WantUUIDs(t, c, "/v1/families"+Q("displayName[contains]", "%"), false, shoes) // % is literal
	WantUUIDs(t, c, "/v1/families"+Q("displayName[contains]", "_"), false)        // _ is literal; the old name had one
	WantUUIDs(t, c, "/v1/families"+Q("displayName[starts]", "sh"), false, shirts, shoes)
	WantUUIDs(t, c, "/v1/families"+Q("createdAt[eq]", Str(items[0], "createdAt")), false, shirts, shoes, hats)
	WantUUIDs(t, c, "/v1/families"+Q("updatedAt[min]", Str(hatsNow, "updatedAt")), false, hats)
	WantUUIDs(t, c, "/v1/families"+Q("updatedAt[max]", Str(items[0], "updatedAt")), false, shirts, shoes)
	WantUUIDs(t, c, "/v1/families"+Q("updatedAt[eq]", Str(hatsNow, "updatedAt")), false, hats)
	WantUUIDs(t, c, "/v1/families"+Q("createdAt[min]", Str(items[0], "createdAt"), "createdAt[max]", Str(items[0], "createdAt")), false, shirts, shoes, hats)
	WantUUIDs(t, c, "/v1/families"+Q("code[order]", "asc"), true, hats, shirts, shoes)
	WantUUIDs(t, c, "/v1/families"+Q("code[order]", "desc"), true, shoes, shirts, hats)
	WantUUIDs(t, c, "/v1/families"+Q("displayName[order]", "desc"), true, shoes, shirts, hats)
	WantUUIDs(t, c, "/v1/families"+Q("updatedAt[order]", "desc"), true, hats, shoes, shirts)
	WantUUIDs(t, c, "/v1/families"+Q("createdAt[order]", "desc"), true, hats, shoes, shirts)

	// Pages.
	p := Want(t, c.Get("/v1/families"+Q("size", "2", "page", "2")), 200)
	WantFields(t, "page 2", p.Obj()["pagination"].(map[string]any), "page", 2, "size", 2, "totalItems", 3, "totalPages", 2)
	if got := UUIDsOf(p.Items()); !reflect.DeepEqual(got, []string{hats}) {
		t.Errorf("page 2 = %v", got)
	}
	if got := Want(t, c.Get("/v1/families"+Q("page", "9")), 200).Items(); len(got) != 0 {
		t.Errorf("page past the end: %v", got)
	}

	// Malformed or unknown parameters are 400 naming them.
	Problem(t, "unknown filter", c.Get("/v1/families"+Q("statuses[eq]", "x")), 400, "MALFORMED_REQUEST", "statuses[eq]")
	Problem(t, "bad uuid filter", c.Get("/v1/families"+Q("uuids[eq]", "x")), 400, "VALIDATION_FAILED", "uuids[eq]")
	Problem(t, "bad size", c.Get("/v1/families"+Q("size", "101")), 400, "VALIDATION_FAILED", "size")
	Problem(t, "bad order field", c.Get("/v1/families"+Q("uuid[order]", "asc")), 400, "MALFORMED_REQUEST", "uuid[order]")
}
