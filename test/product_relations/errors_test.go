package product_relations

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Bad input, unknown references and conflicts are refused with the item named, and a failing
// request (single or bulk) writes no row, no inverse and no event.
func TestErrors(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b, cc := mkProduct(t, c), mkProduct(t, c), mkProduct(t, c)
	one, two := mkType(t, c, "one_way"), mkType(t, c, "two_way")
	c2, _ := env.TenantClient(t)
	foreignProduct, foreignType := mkProduct(t, c2), mkType(t, c2, "two_way")
	ab := relate(t, c, a, two, b)
	ac := relate(t, c, a, one, cc)
	rows := relationRows(t, tenant)
	log := NewEventLog(pool, tenant).Skip(t)

	// Validation.
	Problem(t, "self", c.Post(base(a), rel(two, a)), 400, "VALIDATION_FAILED", "targetProductUuid")
	Problem(t, "self, one-way", c.Post(base(a), rel(one, a)), 400, "VALIDATION_FAILED", "targetProductUuid")
	Problem(t, "self in a bulk", c.Post(base(a)+"/bulk", []any{rel(two, cc), rel(one, a)}), 400, "VALIDATION_FAILED", "[1].targetProductUuid")
	Problem(t, "missing type", c.Post(base(a), Body("targetProductUuid", cc)), 400, "VALIDATION_FAILED", "productRelationTypeUuid")
	Problem(t, "missing target", c.Post(base(a), Body("productRelationTypeUuid", two)), 400, "VALIDATION_FAILED", "targetProductUuid")
	Problem(t, "no body", c.Post(base(a), nil), 400, "VALIDATION_FAILED", "targetProductUuid")
	Problem(t, "malformed type", c.Post(base(a), rel("x", cc)), 400, "VALIDATION_FAILED", "productRelationTypeUuid")
	Problem(t, "malformed target", c.Post(base(a), rel(two, "x")), 400, "VALIDATION_FAILED", "targetProductUuid")
	Problem(t, "bulk with a malformed target", c.Post(base(a)+"/bulk", []any{rel(two, cc), rel(two, "x")}), 400, "VALIDATION_FAILED", "[1].targetProductUuid")
	Problem(t, "read-only inverseRelationUuid", c.Post(base(a), Body("productRelationTypeUuid", two, "targetProductUuid", cc, "inverseRelationUuid", Str(ab, "uuid"))), 400, "MALFORMED_REQUEST", "inverseRelationUuid")
	Problem(t, "response-only productUuid", c.Post(base(a), Body("productRelationTypeUuid", two, "targetProductUuid", cc, "productUuid", a)), 400, "MALFORMED_REQUEST", "productUuid")
	Problem(t, "empty bulk", c.Post(base(a)+"/bulk", []any{}), 400, "VALIDATION_FAILED")
	big := make([]any, 101)
	for i := range big {
		big[i] = rel(one, cc)
	}
	Problem(t, "bulk of 101", c.Post(base(a)+"/bulk", big), 400, "VALIDATION_FAILED")
	Problem(t, "malformed product", c.Get(base("nope")), 400, "VALIDATION_FAILED", "productUuid")
	Problem(t, "malformed relation uuid", c.Get(base(a)+"/nope"), 400, "VALIDATION_FAILED", "productRelationUuid")
	Problem(t, "delete a malformed relation uuid", c.Delete(base(a)+"/nope"), 400, "VALIDATION_FAILED", "productRelationUuid")

	// Unknown references: 404 naming the field.
	Problem(t, "unknown type", c.Post(base(a), rel(UnknownUUID, cc)), 404, "NOT_FOUND", "productRelationTypeUuid")
	Problem(t, "another tenant's type", c.Post(base(a), rel(foreignType, cc)), 404, "NOT_FOUND", "productRelationTypeUuid")
	Problem(t, "unknown target", c.Post(base(a), rel(two, UnknownUUID)), 404, "NOT_FOUND", "targetProductUuid")
	Problem(t, "another tenant's target", c.Post(base(a), rel(two, foreignProduct)), 404, "NOT_FOUND", "targetProductUuid")
	Problem(t, "bulk with an unknown type", c.Post(base(a)+"/bulk", []any{rel(two, cc), rel(RandomUUID(), b)}), 404, "NOT_FOUND", "[1].productRelationTypeUuid")
	Problem(t, "bulk with an unknown target", c.Post(base(a)+"/bulk", []any{rel(two, cc), rel(one, foreignProduct)}), 404, "NOT_FOUND", "[1].targetProductUuid")
	Problem(t, "unknown product", c.Post(base(UnknownUUID), rel(two, cc)), 404, "NOT_FOUND")
	Problem(t, "list of an unknown product", c.Get(base(UnknownUUID)), 404, "NOT_FOUND")
	Problem(t, "unknown relation", c.Get(base(a)+"/"+UnknownUUID), 404, "NOT_FOUND")
	Problem(t, "delete an unknown relation", c.Delete(base(a)+"/"+UnknownUUID), 404, "NOT_FOUND")

	// Conflicts: 409 ALREADY_EXISTS naming targetProductUuid.
	Problem(t, "second two-way relation", c.Post(base(a), rel(two, b)), 409, "ALREADY_EXISTS", "targetProductUuid")
	Problem(t, "the reversed two-way relation (it is the inverse)", c.Post(base(b), rel(two, a)), 409, "ALREADY_EXISTS", "targetProductUuid")
	Problem(t, "second one-way relation", c.Post(base(a), rel(one, cc)), 409, "ALREADY_EXISTS", "targetProductUuid")
	Problem(t, "bulk with an existing relation", c.Post(base(a)+"/bulk", []any{rel(two, cc), rel(two, b)}), 409, "ALREADY_EXISTS", "[1].targetProductUuid")
	Problem(t, "bulk with the reversed pair", c.Post(base(b)+"/bulk", []any{rel(one, cc), rel(two, a)}), 409, "ALREADY_EXISTS", "[1].targetProductUuid")
	Problem(t, "the same two-way relation twice in a bulk", c.Post(base(a)+"/bulk", []any{rel(two, cc), rel(one, b), rel(two, cc)}), 409, "ALREADY_EXISTS", "[2].targetProductUuid")
	Problem(t, "the same one-way relation twice in a bulk", c.Post(base(b)+"/bulk", []any{rel(one, a), rel(one, a)}), 409, "ALREADY_EXISTS", "[1].targetProductUuid")

	// None of that wrote anything.
	log.Expect(t, "failed requests write nothing")
	if n := relationRows(t, tenant); n != rows {
		t.Errorf("rows %d, want %d", n, rows)
	}
	WantUUIDs(t, c, base(a), true, Str(ab, "uuid"), Str(ac, "uuid"))
	WantUUIDs(t, c, base(b), true, Str(ab, "inverseRelationUuid"))
	WantUUIDs(t, c, base(cc), false)

	// What differs is no conflict: the reversed one-way relation, another type, another target.
	ca := relate(t, c, cc, one, a)
	wantRel(t, "reversed one-way", ca, cc, one, a, nil)
	ab1 := relate(t, c, a, one, b)
	wantRel(t, "another type, same target", ab1, a, one, b, nil)
	ac2 := relate(t, c, a, two, cc)
	wantRel(t, "another type, same target, two-way", ac2, a, two, cc, Str(ac2, "inverseRelationUuid"))
	log.Expect(t, "what differs", ev("linked", cc, Str(ca, "uuid")), ev("linked", a, Str(ab1, "uuid")),
		ev("linked", a, Str(ac2, "uuid")), ev("linked", cc, Str(ac2, "inverseRelationUuid")))
}
