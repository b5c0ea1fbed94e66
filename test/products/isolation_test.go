package products

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Another tenant's products and links are not found on any path, and nothing of them changes.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a, tenantA := env.TenantClient(t)
	b, tenantB := env.TenantClient(t)
	famA := mkFamily(t, a)
	vp := mkProductID(t, a, "SKU", "variant_parent", "familyUuid", famA)
	pB := mkProductID(t, b, "SKU", "simple") // the same code in another tenant
	links := map[string]map[string]any{}
	targetsB := map[string]string{}
	for _, k := range linkKinds {
		links[k.path] = k.link(t, a, vp, k.mk(t, a))
		targetsB[k.path] = k.mk(t, b)
	}
	before := Want(t, a.Get("/v1/products/"+vp+Q("include[productCategories]", "true", "include[productTags]", "true")), 200).Obj()
	logA, logB := NewEventLog(pool, tenantA).Skip(t), NewEventLog(pool, tenantB).Skip(t)

	WantUUIDs(t, b, "/v1/products", false, pB)
	WantUUIDs(t, b, "/v1/products"+Q("uuids[eq]", vp), false)
	WantUUIDs(t, b, "/v1/products"+Q("familyUuids[eq]", famA), false)
	for name, r := range map[string]Resp{
		"get":             b.Get("/v1/products/" + vp),
		"update":          b.Patch("/v1/products/"+vp, Body("code", "x")),
		"delete":          b.Delete("/v1/products/" + vp),
		"transition":      transition(b, vp, "activate"),
		"bulk transition": b.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "activate", "uuids", []string{vp})),
	} {
		Problem(t, name, r, 404, "NOT_FOUND")
	}
	Problem(t, "bulk update", b.Patch("/v1/products/bulk", []any{Body("uuid", vp, "code", "x")}), 404, "NOT_FOUND", "[0].uuid")
	Problem(t, "variant of the other tenant's parent", b.Post("/v1/products", Body("code", "V", "kind", "variant", "familyUuid", famA, "parentUuid", vp)), 404, "NOT_FOUND", "familyUuid")
	Problem(t, "the other tenant's family", b.Patch("/v1/products/"+pB, Body("familyUuid", famA)), 404, "NOT_FOUND", "familyUuid")

	for _, k := range linkKinds {
		base := k.base(vp)
		id := Str(links[k.path], "uuid")
		target := Str(links[k.path], k.target)
		for name, r := range map[string]Resp{
			"list":        b.Get(base),
			"create":      b.Post(base, Body(k.target, targetsB[k.path])),
			"bulk create": b.Post(base+"/bulk", []any{Body(k.target, targetsB[k.path])}),
			"get":         b.Get(base + "/" + id),
			"delete":      b.Delete(base + "/" + id),
		} {
			Problem(t, k.path+" "+name, r, 404, "NOT_FOUND")
		}
		Problem(t, k.path+" get via own product", b.Get(k.base(pB)+"/"+id), 404, "NOT_FOUND")
		Problem(t, k.path+" link the other tenant's target", b.Post(k.base(pB), Body(k.target, target)), 404, "NOT_FOUND", k.target)
		WantUUIDs(t, b, k.base(pB)+Q("uuids[eq]", id), false)
	}
	if got := Want(t, a.Get("/v1/products/"+vp+Q("include[productCategories]", "true", "include[productTags]", "true")), 200).Obj(); !reflect.DeepEqual(got, before) {
		t.Errorf("product changed by the other tenant: %v, want %v", got, before)
	}
	logA.Expect(t, "tenant A")
	logB.Expect(t, "tenant B")
}

func TestAuth(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProductID(t, c, "P", "simple")
	read := env.ClientFor(t, tenant, "catalog:read")
	Want(t, read.Get("/v1/products/"+p), 200)
	Want(t, read.Get("/v1/products/"+p+"/tags"), 200)
	Problem(t, "create with a read token", read.Post("/v1/products", Body("code", "x", "kind", "simple")), 403, "FORBIDDEN")
	Problem(t, "transition with a read token", transition(read, p, "activate"), 403, "FORBIDDEN")
	Problem(t, "link with a read token", read.Post("/v1/products/"+p+"/tags", Body("tagUuid", mkTag(t, c))), 403, "FORBIDDEN")
	write := env.ClientFor(t, tenant, "catalog:write")
	Problem(t, "list with a write-only token", write.Get("/v1/products"), 403, "FORBIDDEN")
}
