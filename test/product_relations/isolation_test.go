package product_relations

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Another tenant's relations, products and types are not found on any path, and nothing of them
// changes.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a, tenantA := env.TenantClient(t)
	b, tenantB := env.TenantClient(t)
	pa, qa, twoA := mkProduct(t, a), mkProduct(t, a), mkType(t, a, "two_way")
	ra := relate(t, a, pa, twoA, qa)
	id, inv := Str(ra, "uuid"), Str(ra, "inverseRelationUuid")
	pb, qb, twoB := mkProduct(t, b), mkProduct(t, b), mkType(t, b, "two_way")
	before := Want(t, a.Get(base(pa)), 200).Obj()
	logA, logB := NewEventLog(pool, tenantA).Skip(t), NewEventLog(pool, tenantB).Skip(t)

	for name, r := range map[string]Resp{
		"list":                           b.Get(base(pa)),
		"create":                         b.Post(base(pa), rel(twoB, qb)),
		"bulk create":                    b.Post(base(pa)+"/bulk", []any{rel(twoB, qb)}),
		"get":                            b.Get(base(pa) + "/" + id),
		"get the inverse":                b.Get(base(qa) + "/" + inv),
		"delete":                         b.Delete(base(pa) + "/" + id),
		"delete the inverse":             b.Delete(base(qa) + "/" + inv),
		"get via own product":            b.Get(base(pb) + "/" + id),
		"delete via own product":         b.Delete(base(pb) + "/" + id),
		"delete the other tenant's type": b.Delete("/v1/product-relation-types/" + twoA),
	} {
		Problem(t, name, r, 404, "NOT_FOUND")
	}
	Problem(t, "relate to the other tenant's product", b.Post(base(pb), rel(twoB, qa)), 404, "NOT_FOUND", "targetProductUuid")
	Problem(t, "relate by the other tenant's type", b.Post(base(pb), rel(twoA, qb)), 404, "NOT_FOUND", "productRelationTypeUuid")
	Problem(t, "bulk by the other tenant's type", b.Post(base(pb)+"/bulk", []any{rel(twoB, qb), rel(twoA, qb)}), 404, "NOT_FOUND", "[1].productRelationTypeUuid")
	WantUUIDs(t, b, base(pb)+Q("uuids[eq]", id), false)
	WantUUIDs(t, b, base(pb)+Q("targetProductUuids[eq]", qa), false)

	if got := Want(t, a.Get(base(pa)), 200).Obj(); !reflect.DeepEqual(got, before) {
		t.Errorf("relations changed by the other tenant: %v, want %v", got, before)
	}
	Want(t, a.Get(base(qa)+"/"+inv), 200)
	if n := relationRows(t, tenantB); n != 0 {
		t.Errorf("tenant B rows %d", n)
	}
	logA.Expect(t, "tenant A")
	logB.Expect(t, "tenant B")

	// Each tenant relates its own products independently, with the same shapes.
	rb := relate(t, b, pb, twoB, qb)
	logB.Expect(t, "tenant B relates", ev("linked", pb, Str(rb, "uuid")), ev("linked", qb, Str(rb, "inverseRelationUuid")))
	logA.Expect(t, "tenant A untouched")
}
