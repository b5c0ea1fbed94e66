package families

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Another tenant's families and links are not found on any path, and nothing of them changes.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a, tenantA := tenantClient(t)
	b, tenantB := tenantClient(t)
	fam := mkFamily(t, a, "shirts")
	famB := mkFamily(t, b, "shirts") // the same code in another tenant
	before := Want(t, a.Get("/v1/families/"+fam), 200).Obj()
	links := map[string]map[string]any{}
	targetsB := map[string]string{}
	for _, k := range linkKinds {
		links[k.path] = k.link(t, a, fam, k.mk(t, a))
		targetsB[k.path] = k.mk(t, b)
	}
	logA, logB := newLog(t, tenantA), newLog(t, tenantB)

	// Families.
	wantList(t, b, "/v1/families", false, famB)
	wantList(t, b, "/v1/families"+q("uuids[eq]", fam), false)
	problem(t, "get", b.Get("/v1/families/"+fam), 404, "NOT_FOUND")
	problem(t, "update", b.Patch("/v1/families/"+fam, body("code", "x")), 404, "NOT_FOUND")
	problem(t, "bulk update", b.Patch("/v1/families/bulk", []any{body("uuid", fam, "code", "x")}), 404, "NOT_FOUND", "[0].uuid")
	problem(t, "delete", b.Delete("/v1/families/"+fam), 404, "NOT_FOUND")

	for _, k := range linkKinds {
		base := k.base(fam)
		id := str(links[k.path], "uuid")
		target := str(links[k.path], k.target)
		// Every path under the other tenant's family.
		for name, r := range map[string]Resp{
			"list":        b.Get(base),
			"create":      b.Post(base, body(k.target, targetsB[k.path])),
			"bulk create": b.Post(base+"/bulk", []any{body(k.target, targetsB[k.path])}),
			"get":         b.Get(base + "/" + id),
			"update":      b.Patch(base+"/"+id, body()),
			"bulk update": b.Patch(base+"/bulk", []any{body("uuid", id)}),
			"delete":      b.Delete(base + "/" + id),
		} {
			problem(t, k.path+" "+name, r, 404, "NOT_FOUND")
		}
		// The other tenant's link under one's own family, and its target in one's own link.
		problem(t, k.path+" get via own family", b.Get(k.base(famB)+"/"+id), 404, "NOT_FOUND")
		problem(t, k.path+" link the other tenant's target", b.Post(k.base(famB), body(k.target, target)), 404, "NOT_FOUND", k.target)
		problem(t, k.path+" delete the other tenant's target", b.Delete(k.targets+"/"+target), 404, "NOT_FOUND")
		wantList(t, b, k.base(famB)+q("uuids[eq]", id), false)
		if got := Want(t, a.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, links[k.path]) {
			t.Errorf("%s: link changed by the other tenant: %v, want %v", k.path, got, links[k.path])
		}
	}
	if got := Want(t, a.Get("/v1/families/"+fam), 200).Obj(); !reflect.DeepEqual(got, before) {
		t.Errorf("family changed by the other tenant: %v, want %v", got, before)
	}
	logA.expect(t, "tenant A")
	logB.expect(t, "tenant B")
}

func TestAuth(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	fam := mkFamily(t, c, "shirts")
	attr := mkAttribute(t, c)
	base := linkKinds[0].base(fam)
	read := env.ClientFor(t, tenant, "catalog:read")
	Want(t, read.Get("/v1/families/"+fam), 200)
	Want(t, read.Get(base), 200)
	problem(t, "create family with a read token", read.Post("/v1/families", body("code", "x")), 403, "FORBIDDEN")
	problem(t, "link with a read token", read.Post(base, body("attributeUuid", attr)), 403, "FORBIDDEN")
	anon := env.ClientFor(t, tenant)
	anon.Token = ""
	problem(t, "no token", anon.Get(base), 401, "UNAUTHENTICATED")
	write := env.ClientFor(t, tenant, "catalog:write")
	problem(t, "list with a write-only token", write.Get("/v1/families"), 403, "FORBIDDEN")
	Want(t, write.Post(base, body("attributeUuid", attr)), 201)
}
