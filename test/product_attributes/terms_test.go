package product_attributes

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestProductTermOperations(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	a := mkAttr(t, c)
	t1, t2, t3 := mkTerm(t, c, a), mkTerm(t, c, a), mkTerm(t, c, a)
	pa := link(t, c, p, a, false)
	log := NewEventLog(pool, tenant).Skip(t)
	base := ptBase(p, pa)

	r := Want(t, c.Post(base, Body("termUuid", t1)), 201)
	pt := r.Obj()
	wantPT(t, "create", pt, p, pa, t1)
	id := Str(pt, "uuid")
	if loc := r.Header.Get("Location"); loc != base+"/"+id {
		t.Errorf("Location %q", loc)
	}
	log.Expect(t, "create", ptEv("linked", p, pa, id))
	if got := Want(t, c.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, pt) {
		t.Errorf("get = %v, want %v", got, pt)
	}

	items := Want(t, c.Post(base+"/bulk", []any{Body("termUuid", t3), Body("termUuid", t2)}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk: %v", items)
	}
	wantPT(t, "bulk [0]", items[0], p, pa, t3)
	wantPT(t, "bulk [1]", items[1], p, pa, t2)
	i3, i2 := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk", ptEv("linked", p, pa, i3), ptEv("linked", p, pa, i2))

	WantUUIDs(t, c, base, true, id, i3, i2)
	// The product attribute's terms through include (uuids) and expand (objects), on get and list.
	paGet := Want(t, c.Get(paBase(p)+"/"+pa), 200).Obj()
	WantFields(t, "plain get", paGet, "productTermUuids", nil, "productTerms", nil)
	paGet = Want(t, c.Get(paBase(p)+"/"+pa+Q("include[productTerms]", "true")), 200).Obj()
	WantFields(t, "include", paGet, "productTermUuids", []string{id, i3, i2}, "productTerms", nil)
	paGet = Want(t, c.Get(paBase(p)+"/"+pa+Q("expand[productTerms]", "true")), 200).Obj()
	WantFields(t, "expand", paGet, "productTermUuids", nil, "productTerms", []any{pt, items[0], items[1]})
	other := link(t, c, p, mkAttr(t, c), false)
	listed := Want(t, c.Get(paBase(p)+Q("include[productTerms]", "true", "expand[productTerms]", "true")), 200).Items()
	if len(listed) != 2 {
		t.Fatalf("list: %v", listed)
	}
	WantFields(t, "list [0]", listed[0], "uuid", pa, "productTermUuids", []string{id, i3, i2}, "productTerms", []any{pt, items[0], items[1]})
	WantFields(t, "list [1]", listed[1], "uuid", other, "productTermUuids", []string{}, "productTerms", []any{})
	Problem(t, "unknown include", c.Get(paBase(p)+"/"+pa+Q("include[terms]", "true")), 400, "MALFORMED_REQUEST")
	log.Skip(t)
	WantUUIDs(t, c, base+Q("uuids[eq]", id, "uuids[eq]", i2), false, id, i2)
	WantUUIDs(t, c, base+Q("termUuids[eq]", t3), false, i3)
	WantUUIDs(t, c, base+Q("createdAt[min]", Str(items[0], "createdAt")), false, i3, i2)
	WantUUIDs(t, c, base+Q("updatedAt[max]", Str(pt, "updatedAt")), false, id)
	WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, i2, i3, id)
	WantUUIDs(t, c, base+Q("updatedAt[order]", "desc"), true, i2, i3, id)

	// No update operation: a product term has nothing to change.
	if r := c.Patch(base+"/"+id, Body("termUuid", t1)); r.Status != 404 && r.Status != 405 {
		t.Errorf("PATCH on a product term: %d %s", r.Status, r.Raw)
	}

	// A linked term cannot be deleted; unlinking frees it.
	Problem(t, "delete a linked term", c.Delete("/v1/attributes/"+a+"/terms/"+t1), 409, "IN_USE")
	Want(t, c.Delete(base+"/"+id), 204)
	log.Expect(t, "delete", ptEv("unlinked", p, pa, id))
	Problem(t, "get deleted", c.Get(base+"/"+id), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete(base+"/"+id), 404, "NOT_FOUND")
	Want(t, c.Delete("/v1/attributes/"+a+"/terms/"+t1), 204)
	log.Skip(t)

	// Unlinking the product attribute deletes its terms (CASCADE).
	Want(t, c.Delete(paBase(p)+"/"+pa), 204)
	log.Expect(t, "unlink attribute", paEv("unlinked", p, pa))
	if n := CountRows(t, pool, "product_terms", tenant); n != 0 {
		t.Errorf("product_terms rows %d", n)
	}
}

func TestProductTermRules(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	a, other := mkAttr(t, c), mkAttr(t, c)
	t1, t2 := mkTerm(t, c, a), mkTerm(t, c, a)
	otherTerm := mkTerm(t, c, other)
	c2, _ := env.TenantClient(t)
	fa := mkAttr(t, c2)
	foreign := mkTerm(t, c2, fa)
	pa, pb := link(t, c, p, a, false), link(t, c, p, other, false)
	base := ptBase(p, pa)
	id := linkTerm(t, c, p, pa, t1)
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "second link", c.Post(base, Body("termUuid", t1)), 409, "ALREADY_EXISTS", "termUuid")
	Problem(t, "bulk with a linked term", c.Post(base+"/bulk", []any{Body("termUuid", t2), Body("termUuid", t1)}), 409, "ALREADY_EXISTS", "[1].termUuid")
	Problem(t, "same term twice in a bulk", c.Post(base+"/bulk", []any{Body("termUuid", t2), Body("termUuid", t2)}), 409, "ALREADY_EXISTS", "[1].termUuid")
	Problem(t, "term of another attribute", c.Post(base, Body("termUuid", otherTerm)), 404, "NOT_FOUND", "termUuid")
	Problem(t, "unknown term", c.Post(base, Body("termUuid", UnknownUUID)), 404, "NOT_FOUND", "termUuid")
	Problem(t, "another tenant's term", c.Post(base, Body("termUuid", foreign)), 404, "NOT_FOUND", "termUuid")
	Problem(t, "bulk with a term of another attribute", c.Post(base+"/bulk", []any{Body("termUuid", t2), Body("termUuid", otherTerm)}), 404, "NOT_FOUND", "[1].termUuid")
	Problem(t, "missing term", c.Post(base, Body()), 400, "VALIDATION_FAILED", "termUuid")
	Problem(t, "malformed term", c.Post(base, Body("termUuid", "x")), 400, "VALIDATION_FAILED", "termUuid")
	Problem(t, "empty bulk", c.Post(base+"/bulk", []any{}), 400, "VALIDATION_FAILED")
	Problem(t, "unknown product attribute", c.Get(ptBase(p, UnknownUUID)), 404, "NOT_FOUND")
	Problem(t, "malformed product attribute", c.Get(ptBase(p, "nope")), 400, "VALIDATION_FAILED", "productAttributeUuid")
	Problem(t, "unknown product", c.Get(ptBase(UnknownUUID, pa)), 404, "NOT_FOUND")
	Problem(t, "via another product attribute", c.Get(ptBase(p, pb)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "delete via another product attribute", c.Delete(ptBase(p, pb)+"/"+id), 404, "NOT_FOUND")
	p2 := mkProduct(t, c, "simple")
	log.Skip(t)
	Problem(t, "product attribute via another product", c.Get(ptBase(p2, pa)), 404, "NOT_FOUND")
	log.Expect(t, "failed requests write nothing")
	WantUUIDs(t, c, base, false, id)
	// The same term on another product attribute (of the same attribute) is another link.
	pa2 := link(t, c, p2, a, false)
	linkTerm(t, c, p2, pa2, t1)
}
