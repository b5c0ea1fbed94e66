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
	wantKeys(t, what, f, familyKeys...)
	wantCommon(t, what, f)
	wantFields(t, what, f, "code", code, "displayName", displayName)
}

func TestFamilyOperations(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	log := newLog(t, tenant)

	// Create: displayName defaults to code; Location names the new family.
	r := Want(t, c.Post("/v1/families", body("code", "shirts")), 201)
	f := r.Obj()
	wantFamily(t, "create", f, "shirts", "shirts")
	id := str(f, "uuid")
	if loc := r.Header.Get("Location"); loc != "/v1/families/"+id {
		t.Errorf("Location %q, want /v1/families/%s", loc, id)
	}
	if f["createdAt"] != f["updatedAt"] {
		t.Errorf("fresh family: createdAt %v != updatedAt %v", f["createdAt"], f["updatedAt"])
	}
	log.expect(t, "create", ev("family.created", "familyUuid", id))
	if got := Want(t, c.Get("/v1/families/"+id), 200).Obj(); !reflect.DeepEqual(got, f) {
		t.Errorf("get = %v, want %v", got, f)
	}
	f2 := Want(t, c.Post("/v1/families", body("code", "shoes", "displayName", "Shoes ✓")), 201).Obj()
	wantFamily(t, "create with displayName", f2, "shoes", "Shoes ✓")
	log.expect(t, "create 2", ev("family.created", "familyUuid", str(f2, "uuid")))

	// Update: only the fields given; null leaves a non-nullable field unchanged.
	u := Want(t, c.Patch("/v1/families/"+id, body("displayName", "Shirts")), 200).Obj()
	wantFamily(t, "update displayName", u, "shirts", "Shirts")
	if !ts(t, u["updatedAt"]).After(ts(t, f["updatedAt"])) || u["createdAt"] != f["createdAt"] {
		t.Errorf("update timestamps: before %v, after %v", f, u)
	}
	u = Want(t, c.Patch("/v1/families/"+id, body("code", "tshirts", "displayName", nil)), 200).Obj()
	wantFamily(t, "update code", u, "tshirts", "Shirts")
	u = Want(t, c.Patch("/v1/families/"+id, body()), 200).Obj()
	wantFamily(t, "empty update", u, "tshirts", "Shirts")
	log.expect(t, "updates", ev("family.updated", "familyUuid", id), ev("family.updated", "familyUuid", id), ev("family.updated", "familyUuid", id))
	if got := Want(t, c.Get("/v1/families/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
		t.Errorf("get after update = %v, want %v", got, u)
	}

	// Bulk create and bulk update answer in request order.
	items := Want(t, c.Post("/v1/families/bulk", []any{body("code", "pants"), body("code", "hats", "displayName", "Hats")}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create: %v", items)
	}
	wantFamily(t, "bulk [0]", items[0], "pants", "pants")
	wantFamily(t, "bulk [1]", items[1], "hats", "Hats")
	p, h := str(items[0], "uuid"), str(items[1], "uuid")
	log.expect(t, "bulk create", ev("family.created", "familyUuid", p), ev("family.created", "familyUuid", h))
	up := Want(t, c.Patch("/v1/families/bulk", []any{body("uuid", h, "code", "caps"), body("uuid", p, "displayName", "Pants")}), 200).Objs()
	if len(up) != 2 {
		t.Fatalf("bulk update: %v", up)
	}
	wantFamily(t, "bulk update [0]", up[0], "caps", "Hats")
	wantFamily(t, "bulk update [1]", up[1], "pants", "Pants")
	log.expect(t, "bulk update", ev("family.updated", "familyUuid", h), ev("family.updated", "familyUuid", p))

	// Delete: 204 without body, then gone.
	d := Want(t, c.Delete("/v1/families/"+p), 204)
	if len(d.Raw) != 0 {
		t.Errorf("delete body %q, want none", d.Raw)
	}
	log.expect(t, "delete", ev("family.deleted", "familyUuid", p))
	problem(t, "get deleted", c.Get("/v1/families/"+p), 404, "NOT_FOUND")
	problem(t, "delete again", c.Delete("/v1/families/"+p), 404, "NOT_FOUND")
	problem(t, "update deleted", c.Patch("/v1/families/"+p, body("code", "x")), 404, "NOT_FOUND")
	log.expect(t, "failed operations write no events")
}

func TestFamilyValidationAndConflicts(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	mkFamily(t, c, "shirts")
	other := mkFamily(t, c, "shoes")
	log := newLog(t, tenant)

	problem(t, "no code", c.Post("/v1/families", body("displayName", "x")), 400, "VALIDATION_FAILED", "code")
	problem(t, "long code", c.Post("/v1/families", body("code", strings.Repeat("é", 101))), 400, "VALIDATION_FAILED", "code")
	problem(t, "empty displayName", c.Post("/v1/families", body("code", "x", "displayName", "")), 400, "VALIDATION_FAILED", "displayName")
	problem(t, "unknown field", c.Post("/v1/families", body("code", "x", "colour", "red")), 400, "MALFORMED_REQUEST", "colour")
	// 100 characters (code points) is fine.
	Want(t, c.Post("/v1/families", body("code", strings.Repeat("é", 100))), 201)
	log.expect(t, "one created", ev("family.created", "familyUuid", str(Want(t, c.Get("/v1/families"+q("codes[eq]", strings.Repeat("é", 100))), 200).Items()[0], "uuid")))

	// Codes are unique per tenant: single, bulk against existing, and within one bulk.
	problem(t, "duplicate", c.Post("/v1/families", body("code", "shirts")), 409, "ALREADY_EXISTS", "code")
	problem(t, "bulk duplicate of existing", c.Post("/v1/families/bulk", []any{body("code", "new1"), body("code", "shirts")}), 409, "ALREADY_EXISTS", "[1].code")
	problem(t, "duplicate within bulk", c.Post("/v1/families/bulk", []any{body("code", "dup"), body("code", "dup")}), 409, "ALREADY_EXISTS", "[1].code")
	problem(t, "update to a taken code", c.Patch("/v1/families/"+other, body("code", "shirts")), 409, "ALREADY_EXISTS", "code")
	problem(t, "bulk update to a taken code", c.Patch("/v1/families/bulk", []any{body("uuid", other, "displayName", "S"), body("uuid", other, "code", "shirts")}), 409, "ALREADY_EXISTS", "[1].code")
	// Another tenant may use the same code.
	c2, _ := tenantClient(t)
	Want(t, c2.Post("/v1/families", body("code", "shirts")), 201)

	// Bulk checks: item-indexed errors, size limits, uuid required on bulk update items.
	problem(t, "bulk invalid item", c.Post("/v1/families/bulk", []any{body("code", "ok1"), body("code", "")}), 400, "VALIDATION_FAILED", "[1].code")
	problem(t, "empty bulk", c.Post("/v1/families/bulk", []any{}), 400, "VALIDATION_FAILED")
	many := make([]any, 101)
	for i := range many {
		many[i] = body("code", "m"+RandomHex(4))
	}
	problem(t, "101 items", c.Post("/v1/families/bulk", many), 400, "VALIDATION_FAILED")
	problem(t, "bulk update without uuid", c.Patch("/v1/families/bulk", []any{body("code", "zz")}), 400, "VALIDATION_FAILED", "[0].uuid")
	problem(t, "bulk update unknown uuid", c.Patch("/v1/families/bulk", []any{body("uuid", other, "code", "renamed"), body("uuid", unknownUUID, "code", "zz")}), 404, "NOT_FOUND", "[1].uuid")
	problem(t, "malformed path uuid", c.Get("/v1/families/not-a-uuid"), 400, "VALIDATION_FAILED", "familyUuid")
	problem(t, "unknown family", c.Get("/v1/families/"+unknownUUID), 404, "NOT_FOUND")

	// Nothing of the failed requests was written.
	log.expect(t, "failed requests write nothing")
	if got := Want(t, c.Get("/v1/families/"+other), 200).Obj(); got["code"] != "shoes" || got["displayName"] != "shoes" {
		t.Errorf("a failed bulk update changed the family: %v", got)
	}
	if n := countRows(t, "families", tenant); n != 3 {
		t.Errorf("%d families stored, want 3", n)
	}
}

func TestFamilyList(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	items := Want(t, c.Post("/v1/families/bulk", []any{
		body("code", "shirts", "displayName", "Shirts"),
		body("code", "shoes", "displayName", "Shoes 50%"),
		body("code", "hats", "displayName", "Caps_and_hats"),
	}), 201).Objs()
	shirts, shoes, hats := str(items[0], "uuid"), str(items[1], "uuid"), str(items[2], "uuid")
	Want(t, c.Patch("/v1/families/"+hats, body("displayName", "Hats")), 200)
	hatsNow := Want(t, c.Get("/v1/families/"+hats), 200).Obj()

	r := Want(t, c.Get("/v1/families"), 200)
	wantKeys(t, "page", r.Obj(), "items", "pagination")
	wantFields(t, "pagination", r.Obj()["pagination"].(map[string]any), "page", 1, "size", 20, "totalItems", 3, "totalPages", 1)
	for _, it := range r.Items() {
		wantKeys(t, "list item", it, familyKeys...)
	}
	wantList(t, c, "/v1/families", true, shirts, shoes, hats) // createdAt, then uuid (v7: request order)
	wantList(t, c, "/v1/families"+q("uuids[eq]", shoes, "uuids[eq]", hats), false, shoes, hats)
	wantList(t, c, "/v1/families"+q("codes[eq]", "shirts", "codes[eq]", "nope"), false, shirts)
	wantList(t, c, "/v1/families"+q("code[starts]", "SH"), false, shirts, shoes)
	wantList(t, c, "/v1/families"+q("code[ends]", "ts"), false, shirts, hats)
	wantList(t, c, "/v1/families"+q("code[contains]", "oe"), false, shoes)
	wantList(t, c, "/v1/families"+q("displayNames[eq]", "Hats"), false, hats)
	wantList(t, c, "/v1/families"+q("displayName[contains]", "50%"), false, shoes)
	wantList(t, c, "/v1/families"+q("displayName[contains]", "%"), false, shoes) // % is literal
	wantList(t, c, "/v1/families"+q("displayName[contains]", "_"), false)        // _ is literal; the old name had one
	wantList(t, c, "/v1/families"+q("displayName[starts]", "sh"), false, shirts, shoes)
	wantList(t, c, "/v1/families"+q("createdAt[eq]", str(items[0], "createdAt")), false, shirts, shoes, hats)
	wantList(t, c, "/v1/families"+q("updatedAt[min]", str(hatsNow, "updatedAt")), false, hats)
	wantList(t, c, "/v1/families"+q("updatedAt[max]", str(items[0], "updatedAt")), false, shirts, shoes)
	wantList(t, c, "/v1/families"+q("updatedAt[eq]", str(hatsNow, "updatedAt")), false, hats)
	wantList(t, c, "/v1/families"+q("createdAt[min]", str(items[0], "createdAt"), "createdAt[max]", str(items[0], "createdAt")), false, shirts, shoes, hats)
	wantList(t, c, "/v1/families"+q("code[order]", "asc"), true, hats, shirts, shoes)
	wantList(t, c, "/v1/families"+q("code[order]", "desc"), true, shoes, shirts, hats)
	wantList(t, c, "/v1/families"+q("displayName[order]", "desc"), true, shoes, shirts, hats)
	wantList(t, c, "/v1/families"+q("updatedAt[order]", "desc"), true, hats, shoes, shirts)
	wantList(t, c, "/v1/families"+q("createdAt[order]", "desc"), true, hats, shoes, shirts)

	// Pages.
	p := Want(t, c.Get("/v1/families"+q("size", "2", "page", "2")), 200)
	wantFields(t, "page 2", p.Obj()["pagination"].(map[string]any), "page", 2, "size", 2, "totalItems", 3, "totalPages", 2)
	if got := uuidsOf(p.Items()); !reflect.DeepEqual(got, []string{hats}) {
		t.Errorf("page 2 = %v", got)
	}
	if got := Want(t, c.Get("/v1/families"+q("page", "9")), 200).Items(); len(got) != 0 {
		t.Errorf("page past the end: %v", got)
	}

	// Malformed or unknown parameters are 400 naming them.
	problem(t, "unknown filter", c.Get("/v1/families"+q("statuses[eq]", "x")), 400, "MALFORMED_REQUEST", "statuses[eq]")
	problem(t, "bad uuid filter", c.Get("/v1/families"+q("uuids[eq]", "x")), 400, "VALIDATION_FAILED", "uuids[eq]")
	problem(t, "bad size", c.Get("/v1/families"+q("size", "101")), 400, "VALIDATION_FAILED", "size")
	problem(t, "bad order field", c.Get("/v1/families"+q("uuid[order]", "asc")), 400, "MALFORMED_REQUEST", "uuid[order]")
}
