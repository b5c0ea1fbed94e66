package product_relations

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// A one-way relation is one row; a two-way relation is a pair whose rows name each other, created
// and deleted together from either side, with an event for every row.
func TestOperations(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b, cc, d := mkProduct(t, c), mkProduct(t, c), mkProduct(t, c), mkProduct(t, c)
	one, two := mkType(t, c, "one_way"), mkType(t, c, "two_way")
	log := NewEventLog(pool, tenant).Skip(t)

	// Two-way create: 201 with Location; the inverse exists on the target and points back.
	r := Want(t, c.Post(base(a), rel(two, b)), 201)
	ab := r.Obj()
	id := Str(ab, "uuid")
	if loc := r.Header.Get("Location"); loc != base(a)+"/"+id {
		t.Errorf("Location %q, want %s", loc, base(a)+"/"+id)
	}
	inv := Str(ab, "inverseRelationUuid")
	if !UUIDRe.MatchString(inv) || inv == id {
		t.Fatalf("inverseRelationUuid %q", inv)
	}
	wantRel(t, "two-way create", ab, a, two, b, inv)
	ba := Want(t, c.Get(base(b)+"/"+inv), 200).Obj()
	wantRel(t, "inverse", ba, b, two, a, id)
	if ba["createdAt"] != ab["createdAt"] {
		t.Errorf("inverse createdAt %v, want %v", ba["createdAt"], ab["createdAt"])
	}
	log.Expect(t, "two-way create", ev("linked", a, id), ev("linked", b, inv))
	if got := Want(t, c.Get(base(a)+"/"+id), 200).Obj(); !reflect.DeepEqual(got, ab) {
		t.Errorf("get = %v, want %v", got, ab)
	}
	WantUUIDs(t, c, base(b), true, inv)
	if n := relationRows(t, tenant); n != 2 {
		t.Errorf("rows %d, want 2", n)
	}
	Problem(t, "the inverse is not the holder's", c.Get(base(a)+"/"+inv), 404, "NOT_FOUND")
	Problem(t, "the relation is not the target's", c.Get(base(b)+"/"+id), 404, "NOT_FOUND")

	// One-way create: one row, inverseRelationUuid null, nothing on the target.
	ad := relate(t, c, a, one, d)
	wantRel(t, "one-way create", ad, a, one, d, nil)
	log.Expect(t, "one-way create", ev("linked", a, Str(ad, "uuid")))
	WantUUIDs(t, c, base(d), false)

	// Bulk: in request order; the two-way items get their inverses (and events), the one-way ones not.
	items := Want(t, c.Post(base(a)+"/bulk", []any{rel(two, cc), rel(one, b), rel(two, d)}), 201).Objs()
	if len(items) != 3 {
		t.Fatalf("bulk: %v", items)
	}
	ac, ab1, ad2 := items[0], items[1], items[2]
	wantRel(t, "bulk [0]", ac, a, two, cc, Str(ac, "inverseRelationUuid"))
	wantRel(t, "bulk [1]", ab1, a, one, b, nil)
	wantRel(t, "bulk [2]", ad2, a, two, d, Str(ad2, "inverseRelationUuid"))
	ca, da := Want(t, c.Get(base(cc)+"/"+Str(ac, "inverseRelationUuid")), 200).Obj(), Want(t, c.Get(base(d)+"/"+Str(ad2, "inverseRelationUuid")), 200).Obj()
	wantRel(t, "bulk inverse of [0]", ca, cc, two, a, Str(ac, "uuid"))
	wantRel(t, "bulk inverse of [2]", da, d, two, a, Str(ad2, "uuid"))
	log.Expect(t, "bulk", ev("linked", a, Str(ac, "uuid")), ev("linked", a, Str(ab1, "uuid")), ev("linked", a, Str(ad2, "uuid")),
		ev("linked", cc, Str(ca, "uuid")), ev("linked", d, Str(da, "uuid")))
	WantUUIDs(t, c, base(a), true, id, Str(ad, "uuid"), Str(ac, "uuid"), Str(ab1, "uuid"), Str(ad2, "uuid"))
	WantUUIDs(t, c, base(d), true, Str(da, "uuid"))
	for _, it := range Want(t, c.Get(base(a)), 200).Items() {
		WantKeys(t, "list item", it, relKeys...)
	}

	// No update operation: a relation has nothing to update.
	if r := c.Patch(base(a)+"/"+id, rel(two, b)); r.Status != 404 && r.Status != 405 {
		t.Errorf("PATCH on a relation: %d %s", r.Status, r.Raw)
	}
	if r := c.Patch(base(a)+"/bulk", []any{rel(two, b)}); r.Status != 404 && r.Status != 405 {
		t.Errorf("bulk PATCH on relations: %d %s", r.Status, r.Raw)
	}
	log.Expect(t, "no update")

	// Deleting from the inverse side deletes both rows, one event each.
	del := Want(t, c.Delete(base(b)+"/"+inv), 204)
	if len(del.Raw) != 0 {
		t.Errorf("delete body %q", del.Raw)
	}
	log.Expect(t, "delete the inverse", ev("unlinked", b, inv), ev("unlinked", a, id))
	Problem(t, "get the deleted relation", c.Get(base(a)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "get the deleted inverse", c.Get(base(b)+"/"+inv), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete(base(b)+"/"+inv), 404, "NOT_FOUND")
	Problem(t, "delete the other half", c.Delete(base(a)+"/"+id), 404, "NOT_FOUND")
	WantUUIDs(t, c, base(b), false)

	// Deleting from the holder's side deletes both rows too.
	Want(t, c.Delete(base(a)+"/"+Str(ac, "uuid")), 204)
	log.Expect(t, "delete the relation", ev("unlinked", a, Str(ac, "uuid")), ev("unlinked", cc, Str(ca, "uuid")))
	WantUUIDs(t, c, base(cc), false)

	// Deleting a one-way relation deletes that row only.
	Want(t, c.Delete(base(a)+"/"+Str(ad, "uuid")), 204)
	log.Expect(t, "delete one-way", ev("unlinked", a, Str(ad, "uuid")))
	WantUUIDs(t, c, base(a), true, Str(ab1, "uuid"), Str(ad2, "uuid"))
	WantUUIDs(t, c, base(d), false, Str(da, "uuid"))
	if n := relationRows(t, tenant); n != 3 {
		t.Errorf("rows %d, want 3", n)
	}

	// The pair can be made again, from the other side this time: a new pair.
	again := relate(t, c, b, two, a)
	wantRel(t, "again", again, b, two, a, Str(again, "inverseRelationUuid"))
	log.Expect(t, "again", ev("linked", b, Str(again, "uuid")), ev("linked", a, Str(again, "inverseRelationUuid")))
	back := Want(t, c.Get(base(a)+"/"+Str(again, "inverseRelationUuid")), 200).Obj()
	wantRel(t, "again inverse", back, a, two, b, Str(again, "uuid"))
	var pointers int
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM product_relations x JOIN product_relations y
		ON y.tenant_id = x.tenant_id AND y.uuid = x.inverse_relation_uuid AND y.inverse_relation_uuid = x.uuid
		AND y.product_uuid = x.target_product_uuid AND y.target_product_uuid = x.product_uuid
		AND y.product_relation_type_uuid = x.product_relation_type_uuid WHERE x.tenant_id = $1`, tenant).Scan(&pointers); err != nil {
		t.Fatal(err)
	}
	if n := relationRows(t, tenant, "inverse_relation_uuid IS NOT NULL"); pointers != n || n != 4 {
		t.Errorf("%d rows point at a matching inverse, of %d two-way rows (want 4)", pointers, n)
	}
}

// Deleting a product deletes the relations it holds and those targeting it, both halves of its
// two-way pairs included; a removed product may be related and may hold relations.
func TestProductDeletion(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b, cc, d := mkProduct(t, c), mkProduct(t, c), mkProduct(t, c), mkProduct(t, c)
	one, two := mkType(t, c, "one_way"), mkType(t, c, "two_way")
	ab := relate(t, c, a, two, b)
	ca := relate(t, c, cc, one, a)
	ad := relate(t, c, a, one, d)
	da := relate(t, c, d, two, a)
	bc := relate(t, c, b, two, cc)
	bd := relate(t, c, b, one, d)
	if n := relationRows(t, tenant); n != 9 {
		t.Fatalf("rows %d, want 9", n)
	}
	log := NewEventLog(pool, tenant).Skip(t)

	Want(t, c.Delete("/v1/products/"+a), 204)
	// The relations other products held towards a are unlinked on their holders, oldest first.
	log.Expect(t, "delete product",
		Ev("product.relation.unlinked", "productUuid", b, "productRelationUuid", Str(ab, "inverseRelationUuid")),
		Ev("product.relation.unlinked", "productUuid", cc, "productRelationUuid", Str(ca, "uuid")),
		Ev("product.relation.unlinked", "productUuid", d, "productRelationUuid", Str(da, "uuid")),
		Ev("product.deleted", "productUuid", a))
	if n := relationRows(t, tenant, "'"+a+"' IN (product_uuid, target_product_uuid)"); n != 0 {
		t.Errorf("%d relations of the deleted product remain", n)
	}
	WantUUIDs(t, c, base(b), true, Str(bc, "uuid"), Str(bd, "uuid"))
	WantUUIDs(t, c, base(cc), true, Str(bc, "inverseRelationUuid"))
	WantUUIDs(t, c, base(d), false)
	for _, r := range []map[string]any{ab, ca, ad, da} {
		Problem(t, "relation of the deleted product", c.Get(base(Str(r, "productUuid"))+"/"+Str(r, "uuid")), 404, "NOT_FOUND")
	}
	if n := relationRows(t, tenant); n != 3 {
		t.Errorf("rows %d, want 3", n)
	}

	// Removed products: still products (status is lifecycle, not existence).
	Want(t, c.Patch("/v1/products/"+d+"/actions/lifecycle", Body("transition", "remove")), 200)
	toRemoved := relate(t, c, cc, two, d)
	wantRel(t, "relate to a removed product", toRemoved, cc, two, d, Str(toRemoved, "inverseRelationUuid"))
	fromRemoved := relate(t, c, d, one, b)
	wantRel(t, "a removed product relates", fromRemoved, d, one, b, nil)
	log.Expect(t, "removed products", Ev("product.removed", "productUuid", d),
		ev("linked", cc, Str(toRemoved, "uuid")), ev("linked", d, Str(toRemoved, "inverseRelationUuid")), ev("linked", d, Str(fromRemoved, "uuid")))
}

// A relation type used by a relation cannot be deleted (409 IN_USE), nor one a family requires;
// once unused it can.
func TestRelationTypeInUse(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	a, b := mkProduct(t, c), mkProduct(t, c)
	one, two, fam := mkType(t, c, "one_way"), mkType(t, c, "two_way"), mkType(t, c, "two_way")
	r1 := relate(t, c, a, one, b)
	r2 := relate(t, c, b, two, a)
	family := Str(Want(t, c.Post("/v1/families", Body("code", "f_"+RandomHex(4))), 201).Obj(), "uuid")
	fl := Want(t, c.Post("/v1/families/"+family+"/relation-types", Body("productRelationTypeUuid", fam, "requirementLevel", "required")), 201).Obj()
	relate(t, c, a, fam, b)

	Problem(t, "one-way type in use", c.Delete("/v1/product-relation-types/"+one), 409, "IN_USE")
	Problem(t, "two-way type in use", c.Delete("/v1/product-relation-types/"+two), 409, "IN_USE")
	Problem(t, "type used by a family and relations", c.Delete("/v1/product-relation-types/"+fam), 409, "IN_USE")
	WantTotal(t, c, base(a), 3)

	Want(t, c.Delete(base(a)+"/"+Str(r1, "uuid")), 204)
	Want(t, c.Delete("/v1/product-relation-types/"+one), 204)
	// Deleting the inverse deletes the pair; then the type is free.
	Want(t, c.Delete(base(a)+"/"+Str(r2, "inverseRelationUuid")), 204)
	Want(t, c.Delete("/v1/product-relation-types/"+two), 204)
	// The family's requirement still holds its type once the relations are gone.
	for _, it := range Want(t, c.Get(base(a)), 200).Items() {
		Want(t, c.Delete(base(a)+"/"+Str(it, "uuid")), 204)
	}
	WantUUIDs(t, c, base(b), false)
	Problem(t, "type required by a family", c.Delete("/v1/product-relation-types/"+fam), 409, "IN_USE")
	Want(t, c.Delete("/v1/families/"+family+"/relation-types/"+Str(fl, "uuid")), 204)
	Want(t, c.Delete("/v1/product-relation-types/"+fam), 204)
	Problem(t, "relate by a deleted type", c.Post(base(a), rel(fam, b)), 404, "NOT_FOUND", "productRelationTypeUuid")
}

func TestAuth(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b, two := mkProduct(t, c), mkProduct(t, c), mkType(t, c, "two_way")
	id := Str(relate(t, c, a, two, b), "uuid")
	read := env.ClientFor(t, tenant, "catalog:read")
	Want(t, read.Get(base(a)), 200)
	Want(t, read.Get(base(a)+"/"+id), 200)
	Problem(t, "create with a read token", read.Post(base(b), rel(two, mkProduct(t, c))), 403, "FORBIDDEN")
	Problem(t, "bulk with a read token", read.Post(base(b)+"/bulk", []any{rel(two, mkProduct(t, c))}), 403, "FORBIDDEN")
	Problem(t, "delete with a read token", read.Delete(base(a)+"/"+id), 403, "FORBIDDEN")
	write := env.ClientFor(t, tenant, "catalog:write")
	Problem(t, "list with a write-only token", write.Get(base(a)), 403, "FORBIDDEN")
	Problem(t, "get with a write-only token", write.Get(base(a)+"/"+id), 403, "FORBIDDEN")
	if n := relationRows(t, tenant); n != 2 {
		t.Errorf("rows %d, want 2", n)
	}
}
