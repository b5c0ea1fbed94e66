package products

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// linkKind is one of the product links (categories, tags).
type linkKind struct {
	path    string // segment under /v1/products/{productUuid}/
	event   string // event name prefix
	idKey   string // item path parameter and event payload key
	target  string // target field
	targets string // the targets' collection
	mk      func(t *testing.T, c *Client) string
}

var linkKinds = []linkKind{
	{"categories", "product.category", "productCategoryUuid", "categoryUuid", "/v1/categories", mkCategory},
	{"tags", "product.tag", "productTagUuid", "tagUuid", "/v1/tags", mkTag},
}

func (k linkKind) base(product string) string { return "/v1/products/" + product + "/" + k.path }

func (k linkKind) want(t *testing.T, what string, l map[string]any, product, target string) {
	t.Helper()
	WantKeys(t, what, l, "uuid", "createdAt", "updatedAt", "productUuid", k.target)
	WantCommon(t, what, l)
	WantFields(t, what, l, "productUuid", product, k.target, target)
}

func (k linkKind) ev(verb, product, id string) Event {
	return Ev(k.event+"."+verb, "productUuid", product, k.idKey, id)
}

func (k linkKind) link(t *testing.T, c *Client, product, target string) map[string]any {
	t.Helper()
	return Want(t, c.Post(k.base(product), Body(k.target, target)), 201).Obj()
}

func TestLinkOperations(t *testing.T) {
	t.Parallel()
	for _, k := range linkKinds {
		t.Run(k.path, func(t *testing.T) {
			t.Parallel()
			c, tenant := env.TenantClient(t)
			p := mkProductID(t, c, "P", "simple")
			a, b, x := k.mk(t, c), k.mk(t, c), k.mk(t, c)
			log := NewEventLog(pool, tenant).Skip(t)
			base := k.base(p)

			r := Want(t, c.Post(base, Body(k.target, a)), 201)
			l := r.Obj()
			k.want(t, "link", l, p, a)
			id := Str(l, "uuid")
			if loc := r.Header.Get("Location"); loc != base+"/"+id {
				t.Errorf("Location %q, want %s", loc, base+"/"+id)
			}
			log.Expect(t, "link", k.ev("linked", p, id))
			if got := Want(t, c.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, l) {
				t.Errorf("get = %v, want %v", got, l)
			}

			items := Want(t, c.Post(base+"/bulk", []any{Body(k.target, x), Body(k.target, b)}), 201).Objs()
			if len(items) != 2 {
				t.Fatalf("bulk: %v", items)
			}
			k.want(t, "bulk [0]", items[0], p, x)
			k.want(t, "bulk [1]", items[1], p, b)
			ix, ib := Str(items[0], "uuid"), Str(items[1], "uuid")
			log.Expect(t, "bulk link", k.ev("linked", p, ix), k.ev("linked", p, ib))

			// List: default order createdAt (request order within a bulk); filters; order.
			WantUUIDs(t, c, base, true, id, ix, ib)
			WantUUIDs(t, c, base+Q(k.target+"s[eq]", b), false, ib)
			WantUUIDs(t, c, base+Q("uuids[eq]", id, "uuids[eq]", ib), false, id, ib)
			WantUUIDs(t, c, base+Q("createdAt[min]", Str(items[0], "createdAt")), false, ix, ib)
			WantUUIDs(t, c, base+Q("updatedAt[max]", Str(l, "updatedAt")), false, id)
			WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, ib, ix, id)
			for _, it := range Want(t, c.Get(base), 200).Items() {
				WantKeys(t, "list item", it, "uuid", "createdAt", "updatedAt", "productUuid", k.target)
			}
			// No update operation: a link has nothing to update.
			if r := c.Patch(base+"/"+id, Body(k.target, a)); r.Status != 404 && r.Status != 405 {
				t.Errorf("PATCH on a link: %d %s", r.Status, r.Raw)
			}

			// The target in use cannot be deleted.
			Problem(t, "delete a linked target", c.Delete(k.targets+"/"+a), 409, "IN_USE")

			// Unlink: 204; the target stays.
			d := Want(t, c.Delete(base+"/"+ix), 204)
			if len(d.Raw) != 0 {
				t.Errorf("unlink body %q", d.Raw)
			}
			log.Expect(t, "unlink", k.ev("unlinked", p, ix))
			Problem(t, "get unlinked", c.Get(base+"/"+ix), 404, "NOT_FOUND")
			Problem(t, "unlink again", c.Delete(base+"/"+ix), 404, "NOT_FOUND")
			Want(t, c.Get(k.targets+"/"+x), 200)
			again := k.link(t, c, p, x)
			log.Expect(t, "link again", k.ev("linked", p, Str(again, "uuid")))

			// Deleting the product deletes its links (no unlink events), and frees the targets.
			Want(t, c.Delete("/v1/products/"+p), 204)
			log.Expect(t, "delete product", pev("deleted", p))
			Want(t, c.Delete(k.targets+"/"+a), 204)
		})
	}
}

func TestLinkReferencesAndConflicts(t *testing.T) {
	t.Parallel()
	for _, k := range linkKinds {
		t.Run(k.path, func(t *testing.T) {
			t.Parallel()
			c, tenant := env.TenantClient(t)
			p, p2 := mkProductID(t, c, "P", "simple"), mkProductID(t, c, "P2", "simple")
			a, b := k.mk(t, c), k.mk(t, c)
			c2, _ := env.TenantClient(t)
			foreign := k.mk(t, c2)
			base := k.base(p)
			id := Str(k.link(t, c, p, a), "uuid")
			log := NewEventLog(pool, tenant).Skip(t)

			Problem(t, "second link", c.Post(base, Body(k.target, a)), 409, "ALREADY_EXISTS", k.target)
			Problem(t, "bulk with a linked target", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, a)}), 409, "ALREADY_EXISTS", "[1]."+k.target)
			Problem(t, "the same target twice in a bulk", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, b)}), 409, "ALREADY_EXISTS", "[1]."+k.target)
			Problem(t, "unknown target", c.Post(base, Body(k.target, UnknownUUID)), 404, "NOT_FOUND", k.target)
			Problem(t, "another tenant's target", c.Post(base, Body(k.target, foreign)), 404, "NOT_FOUND", k.target)
			Problem(t, "bulk with an unknown target", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, foreign)}), 404, "NOT_FOUND", "[1]."+k.target)
			Problem(t, "missing target", c.Post(base, Body()), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "no body", c.Post(base, nil), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "malformed target", c.Post(base, Body(k.target, "x")), 400, "VALIDATION_FAILED", k.target)
			Problem(t, "bulk with a malformed target", c.Post(base+"/bulk", []any{Body(k.target, b), Body(k.target, "x")}), 400, "VALIDATION_FAILED", "[1]."+k.target)
			Problem(t, "response-only field", c.Post(base, Body(k.target, b, "productUuid", p)), 400, "MALFORMED_REQUEST", "productUuid")
			Problem(t, "empty bulk", c.Post(base+"/bulk", []any{}), 400, "VALIDATION_FAILED")
			Problem(t, "unknown product", c.Post(k.base(UnknownUUID), Body(k.target, b)), 404, "NOT_FOUND")
			Problem(t, "malformed product", c.Get(k.base("nope")), 400, "VALIDATION_FAILED", "productUuid")
			Problem(t, "link of another product", c.Get(k.base(p2)+"/"+id), 404, "NOT_FOUND")
			Problem(t, "unlink via another product", c.Delete(k.base(p2)+"/"+id), 404, "NOT_FOUND")
			log.Expect(t, "failed requests write nothing")
			WantUUIDs(t, c, base, false, id)

			// The same target on another product is another link.
			other := k.link(t, c, p2, a)
			log.Expect(t, "other product", k.ev("linked", p2, Str(other, "uuid")))
		})
	}
}

func TestAutoPopulate(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam, empty := mkFamily(t, c), mkFamily(t, c)
	auto1, auto2, manual := mkCategory(t, c), mkCategory(t, c), mkCategory(t, c)
	Want(t, c.Post("/v1/families/"+fam+"/categories", Body("categoryUuid", auto1, "autoPopulate", true)), 201)
	Want(t, c.Post("/v1/families/"+fam+"/categories", Body("categoryUuid", manual)), 201)
	Want(t, c.Post("/v1/families/"+fam+"/categories", Body("categoryUuid", auto2, "autoPopulate", true)), 201)
	log := NewEventLog(pool, tenant).Skip(t)

	// One product: the autoPopulate categories are linked, in family link order, with events.
	p := mkProductID(t, c, "P", "variant_parent", "familyUuid", fam)
	links := Want(t, c.Get("/v1/products/"+p+"/categories"), 200).Items()
	if len(links) != 2 || links[0]["categoryUuid"] != auto1 || links[1]["categoryUuid"] != auto2 {
		t.Fatalf("auto-populated links: %v", links)
	}
	log.Expect(t, "create", pev("created", p),
		Ev("product.category.linked", "productUuid", p, "productCategoryUuid", Str(links[0], "uuid")),
		Ev("product.category.linked", "productUuid", p, "productCategoryUuid", Str(links[1], "uuid")))
	// The link is an ordinary one: a second is a conflict, it can be unlinked.
	Problem(t, "link an auto-populated category again", c.Post("/v1/products/"+p+"/categories", Body("categoryUuid", auto1)), 409, "ALREADY_EXISTS", "categoryUuid")
	log.Skip(t)

	// Bulk: each product of the family gets its links; others get none.
	items := Want(t, c.Post("/v1/products/bulk", []any{
		Body("code", "V", "kind", "variant", "familyUuid", fam, "parentUuid", p),
		Body("code", "S", "kind", "simple"),
		Body("code", "E", "kind", "simple", "familyUuid", empty),
	}), 201).Objs()
	v, s, e := Str(items[0], "uuid"), Str(items[1], "uuid"), Str(items[2], "uuid")
	vl := Want(t, c.Get("/v1/products/"+v+"/categories"), 200).Items()
	if len(vl) != 2 || vl[0]["categoryUuid"] != auto1 || vl[1]["categoryUuid"] != auto2 {
		t.Errorf("variant links: %v", vl)
	}
	WantUUIDs(t, c, "/v1/products/"+s+"/categories", false)
	WantUUIDs(t, c, "/v1/products/"+e+"/categories", false)
	log.Expect(t, "bulk", pev("created", v), pev("created", s), pev("created", e),
		Ev("product.category.linked", "productUuid", v, "productCategoryUuid", Str(vl[0], "uuid")),
		Ev("product.category.linked", "productUuid", v, "productCategoryUuid", Str(vl[1], "uuid")))

	// A failed creation links nothing.
	Problem(t, "failed bulk", c.Post("/v1/products/bulk", []any{Body("code", "W", "kind", "variant_parent", "familyUuid", fam), Body("code", "S", "kind", "simple")}), 409, "ALREADY_EXISTS", "[1].code")
	log.Expect(t, "failed bulk writes nothing")
	if n := CountRows(t, pool, "product_links", tenant); n != 4 {
		t.Errorf("product_links rows %d, want 4", n)
	}
	// Setting a family on update does not populate (only creation does).
	Want(t, c.Patch("/v1/products/"+s, Body("familyUuid", fam)), 200)
	WantUUIDs(t, c, "/v1/products/"+s+"/categories", false)
}

func TestIncludeExpand(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	p, q := mkProductID(t, c, "P", "simple"), mkProductID(t, c, "Q", "simple")
	c1, c2, t1 := mkCategory(t, c), mkCategory(t, c), mkTag(t, c)
	pc1 := linkKinds[0].link(t, c, p, c1)
	pc2 := linkKinds[0].link(t, c, p, c2)
	pt1 := linkKinds[1].link(t, c, p, t1)

	// Not asked: null.
	g := Want(t, c.Get("/v1/products/"+p), 200).Obj()
	wantProduct(t, "plain", g, "productCategoryUuids", nil, "productCategories", nil, "productTagUuids", nil, "productTags", nil)
	// include: uuid lists; expand: the links.
	g = Want(t, c.Get("/v1/products/"+p+Q("include[productCategories]", "true", "include[productTags]", "true")), 200).Obj()
	wantProduct(t, "include", g, "productCategoryUuids", []string{Str(pc1, "uuid"), Str(pc2, "uuid")}, "productTagUuids", []string{Str(pt1, "uuid")},
		"productCategories", nil, "productTags", nil)
	g = Want(t, c.Get("/v1/products/"+p+Q("expand[productCategories]", "true")), 200).Obj()
	wantProduct(t, "expand categories", g, "productCategories", []any{pc1, pc2}, "productCategoryUuids", nil, "productTags", nil, "productTagUuids", nil)
	g = Want(t, c.Get("/v1/products/"+p+Q("expand[productTags]", "true", "include[productCategories]", "true")), 200).Obj()
	wantProduct(t, "expand tags", g, "productTags", []any{pt1}, "productCategoryUuids", []string{Str(pc1, "uuid"), Str(pc2, "uuid")}, "productCategories", nil)
	// Asked and none: [].
	g = Want(t, c.Get("/v1/products/"+q+Q("include[productCategories]", "true", "expand[productTags]", "true", "include[productTags]", "true", "expand[productCategories]", "true")), 200).Obj()
	wantProduct(t, "none", g, "productCategoryUuids", []string{}, "productCategories", []any{}, "productTagUuids", []string{}, "productTags", []any{})
	// The list hydrates each item.
	items := Want(t, c.Get("/v1/products"+Q("include[productCategories]", "true", "expand[productTags]", "true")), 200).Items()
	if len(items) != 2 {
		t.Fatalf("list: %v", items)
	}
	wantProduct(t, "list p", items[0], "uuid", p, "productCategoryUuids", []string{Str(pc1, "uuid"), Str(pc2, "uuid")}, "productTags", []any{pt1}, "productCategories", nil, "productTagUuids", nil)
	wantProduct(t, "list q", items[1], "uuid", q, "productCategoryUuids", []string{}, "productTags", []any{})
	Problem(t, "unknown include", c.Get("/v1/products/"+p+Q("include[owners]", "true")), 400, "MALFORMED_REQUEST")
	Problem(t, "unknown expand", c.Get("/v1/products/"+p+Q("expand[owners]", "true")), 400, "MALFORMED_REQUEST")
}
