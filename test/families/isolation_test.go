package families

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Another tenant's families and links are not found on any path, and nothing of them changes.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a, tenantA := env.TenantClient(t)
	b, tenantB := env.TenantClient(t)
	fam := mkFamily(t, a, "shirts")
	famB := mkFamily(t, b, "shirts") // the same code in another tenant
	before := Want(t, a.Get("/v1/families/"+fam), 200).Obj()
	links := map[string]map[string]any{}
	targetsB := map[string]string{}
	for _, k := range linkKinds {
		links[k.path] = k.link(t, a, fam, k.mk(t, a))
		targetsB[k.path] = k.mk(t, b)
	}
	logA, logB := NewEventLog(pool, tenantA).Skip(t), NewEventLog(pool, tenantB).Skip(t)

	// Families.
	WantUUIDs(t, b, "/v1/families", false, famB)
	WantUUIDs(t, b, "/v1/families"+Q("uuids[eq]", fam), false)
	Problem(t, "get", b.Get("/v1/families/"+fam), 404, "NOT_FOUND")
	Problem(t, "update", b.Patch("/v1/families/"+fam, Body("code", "x")), 404, "NOT_FOUND")
	Problem(t, "bulk update", b.Patch("/v1/families/bulk", []any{Body("uuid", fam, "code", "x")}), 404, "NOT_FOUND", "[0].uuid")
	Problem(t, "delete", b.Delete("/v1/families/"+fam), 404, "NOT_FOUND")

	for _, k := range linkKinds {
		base := k.base(fam)
		id := Str(links[k.path], "uuid")
		target := Str(links[k.path], k.target)
		// Every path under the other tenant's family.
		for name, r := range map[string]Resp{
			"list":        b.Get(base),
			"create":      b.Post(base, Body(k.target, targetsB[k.path])),
			"bulk create": b.Post(base+"/bulk", []any{Body(k.target, targetsB[k.path])}),
			"get":         b.Get(base + "/" + id),
			"update":      b.Patch(base+"/"+id, Body()),
			"bulk update": b.Patch(base+"/bulk", []any{Body("uuid", id)}),
			"delete":      b.Delete(base + "/" + id),
		} {
			Problem(t, k.path+" "+name, r, 404, "NOT_FOUND")
		}
		// The other tenant's link under one's own family, and its target in one's own link.
		Problem(t, k.path+" get via own family", b.Get(k.base(famB)+"/"+id), 404, "NOT_FOUND")
		Problem(t, k.path+" link the other tenant's target", b.Post(k.base(famB), Body(k.target, target)), 404, "NOT_FOUND", k.target)
		Problem(t, k.path+" delete the other tenant's target", b.Delete(k.targets+"/"+target), 404, "NOT_FOUND")
		WantUUIDs(t, b, k.base(famB)+Q("uuids[eq]", id), false)
		if got := Want(t, a.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, links[k.path]) {
			t.Errorf("%s: link changed by the other tenant: %v, want %v", k.path, got, links[k.path])
		}
	}
	if got := Want(t, a.Get("/v1/families/"+fam), 200).Obj(); !reflect.DeepEqual(got, before) {
		t.Errorf("family changed by the other tenant: %v, want %v", got, before)
	}
	logA.Expect(t, "tenant A")
	logB.Expect(t, "tenant B")
}

func TestAuth(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam := mkFamily(t, c, "shirts")
	attr := mkAttribute(t, c)
	base := linkKinds[0].base(fam)
	read := env.ClientFor(t, tenant, "catalog:read")
	Want(t, read.Get("/v1/families/"+fam), 200)
	Want(t, read.Get(base), 200)
	Problem(t, "create family with a read token", read.Post("/v1/families", Body("code", "x")), 403, "FORBIDDEN")
	Problem(t, "link with a read token", read.Post(base, Body("attributeUuid", attr)), 403, "FORBIDDEN")
	anon := env.ClientFor(t, tenant)
	anon.Token = ""
	Problem(t, "no token", anon.Get(base), 401, "UNAUTHENTICATED")
	write := env.ClientFor(t, tenant, "catalog:write")
	Problem(t, "list with a write-only token", write.Get("/v1/families"), 403, "FORBIDDEN")
	Want(t, write.Post(base, Body("attributeUuid", attr)), 201)
}
