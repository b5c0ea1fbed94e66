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
	x, xTenant := env.TenantClient(t)
	y, yTenant := env.TenantClient(t)

	// Tenant X's world.
	xen := CreateLocale(t, x, "en-US")
	xg := mkTypeGroup(t, x, "seo", "product")
	xit := Str(mkInputType(t, x, xg, "title", "text"), "uuid")
	xch := Str(mkChannel(t, x, "web", xen), "uuid")
	xl := Str(mkLink(t, x, xch, xit, "required"), "uuid")

	// Tenant Y's own world, with the same codes.
	yen := CreateLocale(t, y, "en-US")
	yg := mkTypeGroup(t, y, "seo", "product")
	yit := Str(mkInputType(t, y, yg, "title", "text"), "uuid")
	ych := Str(mkChannel(t, y, "web", yen), "uuid")
	yl := Str(mkLink(t, y, ych, yit, "required"), "uuid")

	rename := Body("displayName", "hijacked")
	items := []struct {
		path, collection, id string
		update               map[string]any
	}{
		{"/v1/type-groups/" + xg, "/v1/type-groups", xg, rename},
		{"/v1/input-types/" + xit, "/v1/input-types", xit, rename},
		{"/v1/channels/" + xch, "/v1/channels", xch, rename},
		{cits(xch) + "/" + xl, cits(ych), xl, Body("scoping", "channel")},
	}
	snapshot := func() [][]byte {
		var out [][]byte
		for _, it := range items {
			out = append(out, Want(t, x.Get(it.path), 200).Raw)
		}
		return append(out, Want(t, x.Get(cits(xch)), 200).Raw)
	}
	before := snapshot()
	xLog, yLog := NewEventLog(pool, xTenant).Skip(t), NewEventLog(pool, yTenant).Skip(t)

	for _, it := range items {
		Problem(t, "get "+it.path, y.Get(it.path), 404, "NOT_FOUND")
		Problem(t, "update "+it.path, y.Patch(it.path, it.update), 404, "NOT_FOUND")
		Problem(t, "delete "+it.path, y.Delete(it.path), 404, "NOT_FOUND")
		// X's uuid in Y's own collection.
		bulk := Body("uuid", it.id)
		for k, v := range it.update {
			bulk[k] = v
		}
		Problem(t, "bulk update "+it.collection, y.Patch(it.collection+"/bulk", []any{bulk}), 404, "NOT_FOUND", "[0].uuid")
		WantUUIDs(t, y, it.collection+Q("uuids[eq]", it.id), false)
	}
	// X's channel as a parent.
	Problem(t, "list X's links", y.Get(cits(xch)), 404, "NOT_FOUND")
	Problem(t, "link on X's channel", y.Post(cits(xch), Body("inputTypeUuid", yit, "requirementLevel", "required")), 404, "NOT_FOUND")
	Problem(t, "bulk link on X's channel", y.Post(cits(xch)+"/bulk", []any{Body("inputTypeUuid", yit, "requirementLevel", "required")}), 404, "NOT_FOUND")
	Problem(t, "bulk update on X's channel", y.Patch(cits(xch)+"/bulk", []any{Body("uuid", xl, "scoping", "channel")}), 404, "NOT_FOUND")
	Problem(t, "X's link under Y's channel", y.Get(cits(ych)+"/"+xl), 404, "NOT_FOUND")
	// X's resources as references.
	Problem(t, "X's type group", y.Post("/v1/input-types", Body("typeGroupUuid", xg, "code", "x", "dataType", "text")), 404, "NOT_FOUND", "typeGroupUuid")
	Problem(t, "move to X's type group", y.Patch("/v1/input-types/"+yit, Body("typeGroupUuid", xg)), 404, "NOT_FOUND", "typeGroupUuid")
	Problem(t, "X's locale", y.Post("/v1/channels", Body("code", "x", "localeUuids", []string{xen})), 404, "NOT_FOUND", "localeUuids[0]")
	Problem(t, "X's locale on update", y.Patch("/v1/channels/"+ych, Body("localeUuids", []string{yen, xen})), 404, "NOT_FOUND", "localeUuids[1]")
	Problem(t, "X's input type", y.Post(cits(ych), Body("inputTypeUuid", xit, "requirementLevel", "required")), 404, "NOT_FOUND", "inputTypeUuid")
	Problem(t, "relink onto X's input type", y.Patch(cits(ych)+"/"+yl, Body("inputTypeUuid", xit)), 404, "NOT_FOUND", "inputTypeUuid")
	// Lists and filters see only Y's own.
	WantUUIDs(t, y, "/v1/type-groups", false, yg)
	WantUUIDs(t, y, "/v1/input-types", false, yit)
	WantUUIDs(t, y, "/v1/input-types"+Q("typeGroupUuids[eq]", xg), false)
	WantUUIDs(t, y, "/v1/channels", false, ych)
	WantUUIDs(t, y, "/v1/channels"+Q("localeUuids[eq]", xen), false)
	WantUUIDs(t, y, cits(ych), false, yl)
	WantUUIDs(t, y, cits(ych)+Q("inputTypeUuids[eq]", xit), false)

	after := snapshot()
	for i := range before {
		if !bytes.Equal(before[i], after[i]) {
			t.Errorf("X's resource changed:\n  before %s\n  after  %s", before[i], after[i])
		}
	}
	xLog.Expect(t, "X sees no events from Y's attempts")
	yLog.Expect(t, "Y's refused attempts emit nothing")
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
	ch := Str(mkChannel(t, w, "web"), "uuid")
	for _, p := range []string{"/v1/type-groups", "/v1/input-types", "/v1/channels", cits(ch), "/v1/type-groups/" + g, "/v1/channels/" + ch} {
		Want(t, r.Get(p), 200)
		Problem(t, "no scope "+p, none.Get(p), 403, "FORBIDDEN")
	}
	Problem(t, "read-only create", r.Post("/v1/type-groups", Body("code", "x", "entityType", "product")), 403, "FORBIDDEN")
	Problem(t, "read-only update", r.Patch("/v1/channels/"+ch, Body("code", "x")), 403, "FORBIDDEN")
	Problem(t, "read-only delete", r.Delete("/v1/type-groups/"+g), 403, "FORBIDDEN")
	Problem(t, "read-only link", r.Post(cits(ch), Body("inputTypeUuid", g, "requirementLevel", "required")), 403, "FORBIDDEN")
	anon := env.ClientFor(t, tenant)
	anon.Token = ""
	Problem(t, "no token", anon.Get("/v1/input-types"), 401, "UNAUTHENTICATED")
}
