package product_relations

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	p, q1, q2, q3 := mkProduct(t, c), mkProduct(t, c), mkProduct(t, c), mkProduct(t, c)
	one, two := mkType(t, c, "one_way"), mkType(t, c, "two_way")
	r1 := relate(t, c, p, one, q1)
	r2 := relate(t, c, p, two, q2)
	bulk := Want(t, c.Post(base(p)+"/bulk", []any{rel(one, q3), rel(two, q1)}), 201).Objs()
	r3, r4 := bulk[0], bulk[1]
	// Relations targeting p (a one-way one and the inverses) are not p's.
	relate(t, c, q3, one, p)
	id := func(r map[string]any) string { return Str(r, "uuid") }
	l := func(kv ...string) string { return base(p) + Q(kv...) }

	WantUUIDs(t, c, l(), true, id(r1), id(r2), id(r3), id(r4))
	WantUUIDs(t, c, l("uuids[eq]", id(r2), "uuids[eq]", id(r4), "uuids[eq]", Str(r2, "inverseRelationUuid")), true, id(r2), id(r4))
	WantUUIDs(t, c, l("productRelationTypeUuids[eq]", two), true, id(r2), id(r4))
	WantUUIDs(t, c, l("productRelationTypeUuids[eq]", one, "productRelationTypeUuids[eq]", two), true, id(r1), id(r2), id(r3), id(r4))
	WantUUIDs(t, c, l("targetProductUuids[eq]", q1), true, id(r1), id(r4))
	WantUUIDs(t, c, l("targetProductUuids[eq]", q2, "targetProductUuids[eq]", q3), true, id(r2), id(r3))
	WantUUIDs(t, c, l("targetProductUuids[eq]", q1, "productRelationTypeUuids[eq]", one), true, id(r1))
	WantUUIDs(t, c, l("targetProductUuids[eq]", p), false)
	WantUUIDs(t, c, l("createdAt[min]", Str(r2, "createdAt")), true, id(r2), id(r3), id(r4))
	WantUUIDs(t, c, l("createdAt[max]", Str(r2, "createdAt")), true, id(r1), id(r2))
	WantUUIDs(t, c, l("createdAt[min]", Str(r2, "createdAt"), "createdAt[max]", Str(r2, "createdAt")), true, id(r2))
	WantUUIDs(t, c, l("updatedAt[min]", Str(r3, "updatedAt")), true, id(r3), id(r4))
	WantUUIDs(t, c, l("updatedAt[max]", Str(r1, "updatedAt")), true, id(r1))
	// Orders (ties within a bulk break on uuid, in the last key's direction).
	WantUUIDs(t, c, l("createdAt[order]", "desc"), true, id(r4), id(r3), id(r2), id(r1))
	WantUUIDs(t, c, l("createdAt[order]", "asc"), true, id(r1), id(r2), id(r3), id(r4))
	WantUUIDs(t, c, l("updatedAt[order]", "desc"), true, id(r4), id(r3), id(r2), id(r1))
	WantUUIDs(t, c, l("updatedAt[order]", "asc", "createdAt[order]", "desc"), true, id(r1), id(r2), id(r4), id(r3))
	// The inverses are listed on their own products.
	WantUUIDs(t, c, base(q1), true, Str(r4, "inverseRelationUuid"))
	WantUUIDs(t, c, base(q2)+Q("productRelationTypeUuids[eq]", two), true, Str(r2, "inverseRelationUuid"))
	// Pagination.
	pg := Want(t, c.Get(l("size", "3", "page", "2")), 200)
	WantPagination(t, "page 2", pg, 2, 3, 4, 2)
	if got := UUIDsOf(pg.Items()); len(got) != 1 || got[0] != id(r4) {
		t.Errorf("page 2: %v", got)
	}
	WantPagination(t, "past the end", Want(t, c.Get(l("size", "3", "page", "5")), 200), 5, 3, 4, 2)
	// Bad parameters.
	for _, kv := range [][]string{{"uuids[eq]", "x"}, {"productRelationTypeUuids[eq]", "x"}, {"targetProductUuids[eq]", "x"}, {"size", "101"}, {"page", "0"}} {
		Problem(t, kv[0]+"="+kv[1], c.Get(l(kv...)), 400, "VALIDATION_FAILED", kv[0])
	}
	for _, kv := range [][]string{{"createdAt[min]", "yesterday"}, {"inverseRelationUuids[eq]", id(r2)}, {"code[order]", "asc"}, {"createdAt[order]", "up"}} {
		if r := c.Get(l(kv...)); r.Status != 400 {
			t.Errorf("%s=%s: status %d %s", kv[0], kv[1], r.Status, r.Raw)
		}
	}
}
