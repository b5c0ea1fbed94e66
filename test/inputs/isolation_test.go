package inputs

import (
	"bytes"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// TestTenantIsolation: another tenant's type groups, input types, channels and channel input types
// are not found on any path, not listed, not usable as references, and left unchanged.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	x, xTenant := tenantClient(t)
	y, yTenant := tenantClient(t)

	// Tenant X's world.
	xen := mkLocale(t, x, "en-US")
	xg := mkTypeGroup(t, x, "seo", "product")
	xit := str(mkInputType(t, x, xg, "title", "text"), "uuid")
	xch := str(mkChannel(t, x, "web", xen), "uuid")
	xl := str(mkLink(t, x, xch, xit, "required"), "uuid")

	// Tenant Y's own world, with the same codes.
	yen := mkLocale(t, y, "en-US")
	yg := mkTypeGroup(t, y, "seo", "product")
	yit := str(mkInputType(t, y, yg, "title", "text"), "uuid")
	ych := str(mkChannel(t, y, "web", yen), "uuid")
	yl := str(mkLink(t, y, ych, yit, "required"), "uuid")

	rename := body("displayName", "hijacked")
	items := []struct {
		path, collection, id string
		update               map[string]any
	}{
		{"/v1/type-groups/" + xg, "/v1/type-groups", xg, rename},
		{"/v1/input-types/" + xit, "/v1/input-types", xit, rename},
		{"/v1/channels/" + xch, "/v1/channels", xch, rename},
		{cits(xch) + "/" + xl, cits(ych), xl, body("scoping", "channel")},
	}
	snapshot := func() [][]byte {
		var out [][]byte
		for _, it := range items {
			out = append(out, Want(t, x.Get(it.path), 200).Raw)
		}
		return append(out, Want(t, x.Get(cits(xch)), 200).Raw)
	}
	before := snapshot()
	xLog, yLog := newLog(t, xTenant), newLog(t, yTenant)

	for _, it := range items {
		problem(t, "get "+it.path, y.Get(it.path), 404, "NOT_FOUND")
		problem(t, "update "+it.path, y.Patch(it.path, it.update), 404, "NOT_FOUND")
		problem(t, "delete "+it.path, y.Delete(it.path), 404, "NOT_FOUND")
		// X's uuid in Y's own collection.
		bulk := body("uuid", it.id)
		for k, v := range it.update {
			bulk[k] = v
		}
		problem(t, "bulk update "+it.collection, y.Patch(it.collection+"/bulk", []any{bulk}), 404, "NOT_FOUND", "[0].uuid")
		wantUUIDs(t, y, it.collection+q("uuids[eq]", it.id), false)
	}
	// X's channel as a parent.
	problem(t, "list X's links", y.Get(cits(xch)), 404, "NOT_FOUND")
	problem(t, "link on X's channel", y.Post(cits(xch), body("inputTypeUuid", yit, "requirementLevel", "required")), 404, "NOT_FOUND")
	problem(t, "bulk link on X's channel", y.Post(cits(xch)+"/bulk", []any{body("inputTypeUuid", yit, "requirementLevel", "required")}), 404, "NOT_FOUND")
	problem(t, "bulk update on X's channel", y.Patch(cits(xch)+"/bulk", []any{body("uuid", xl, "scoping", "channel")}), 404, "NOT_FOUND")
	problem(t, "X's link under Y's channel", y.Get(cits(ych)+"/"+xl), 404, "NOT_FOUND")
	// X's resources as references.
	problem(t, "X's type group", y.Post("/v1/input-types", body("typeGroupUuid", xg, "code", "x", "dataType", "text")), 404, "NOT_FOUND", "typeGroupUuid")
	problem(t, "move to X's type group", y.Patch("/v1/input-types/"+yit, body("typeGroupUuid", xg)), 404, "NOT_FOUND", "typeGroupUuid")
	problem(t, "X's locale", y.Post("/v1/channels", body("code", "x", "localeUuids", []string{xen})), 404, "NOT_FOUND", "localeUuids[0]")
	problem(t, "X's locale on update", y.Patch("/v1/channels/"+ych, body("localeUuids", []string{yen, xen})), 404, "NOT_FOUND", "localeUuids[1]")
	problem(t, "X's input type", y.Post(cits(ych), body("inputTypeUuid", xit, "requirementLevel", "required")), 404, "NOT_FOUND", "inputTypeUuid")
	problem(t, "relink onto X's input type", y.Patch(cits(ych)+"/"+yl, body("inputTypeUuid", xit)), 404, "NOT_FOUND", "inputTypeUuid")
	// Lists and filters see only Y's own.
	wantUUIDs(t, y, "/v1/type-groups", false, yg)
	wantUUIDs(t, y, "/v1/input-types", false, yit)
	wantUUIDs(t, y, "/v1/input-types"+q("typeGroupUuids[eq]", xg), false)
	wantUUIDs(t, y, "/v1/channels", false, ych)
	wantUUIDs(t, y, "/v1/channels"+q("localeUuids[eq]", xen), false)
	wantUUIDs(t, y, cits(ych), false, yl)
	wantUUIDs(t, y, cits(ych)+q("inputTypeUuids[eq]", xit), false)

	after := snapshot()
	for i := range before {
		if !bytes.Equal(before[i], after[i]) {
			t.Errorf("X's resource changed:\n  before %s\n  after  %s", before[i], after[i])
		}
	}
	xLog.expect(t, "X sees no events from Y's attempts")
	yLog.expect(t, "Y's refused attempts emit nothing")
	// Y may delete its own, with X's references unaffected.
	Want(t, y.Delete(cits(ych)+"/"+yl), 204)
	Want(t, y.Delete("/v1/input-types/"+yit), 204)
	Want(t, y.Delete("/v1/type-groups/"+yg), 204)
	Want(t, y.Delete("/v1/channels/"+ych), 204)
	if !bytes.Equal(before[3], Want(t, x.Get(cits(xch)+"/"+xl), 200).Raw) {
		t.Errorf("X's link changed")
	}
}

// Reads need catalog:read, writes catalog:write; no token is 401.
func TestScopes(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	w := env.ClientFor(t, tenant)
	r := env.ClientFor(t, tenant, "catalog:read")
	none := env.ClientFor(t, tenant, "webhooks:read")
	g := mkTypeGroup(t, w, "seo", "product")
	ch := str(mkChannel(t, w, "web"), "uuid")
	for _, p := range []string{"/v1/type-groups", "/v1/input-types", "/v1/channels", cits(ch), "/v1/type-groups/" + g, "/v1/channels/" + ch} {
		Want(t, r.Get(p), 200)
		problem(t, "no scope "+p, none.Get(p), 403, "FORBIDDEN")
	}
	problem(t, "read-only create", r.Post("/v1/type-groups", body("code", "x", "entityType", "product")), 403, "FORBIDDEN")
	problem(t, "read-only update", r.Patch("/v1/channels/"+ch, body("code", "x")), 403, "FORBIDDEN")
	problem(t, "read-only delete", r.Delete("/v1/type-groups/"+g), 403, "FORBIDDEN")
	problem(t, "read-only link", r.Post(cits(ch), body("inputTypeUuid", g, "requirementLevel", "required")), 403, "FORBIDDEN")
	anon := env.ClientFor(t, tenant)
	anon.Token = ""
	problem(t, "no token", anon.Get("/v1/input-types"), 401, "UNAUTHENTICATED")
}
