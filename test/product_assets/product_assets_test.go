package product_assets

import (
	"reflect"
	"strconv"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestProductAssetOperations(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	a1, a2, a3 := mkAsset(t, c), mkAsset(t, c), mkAsset(t, c)
	gallery, hero := mkType(t, c, false), mkType(t, c, true)
	log := NewEventLog(pool, tenant).Skip(t)
	b := base(p)

	// Create: displayPriority defaults to 0; no featured-source type, so not featured.
	r := Want(t, c.Post(b, Body("assetUuid", a1, "productAssetTypeUuid", gallery)), 201)
	pa := r.Obj()
	wantPA(t, "create", pa, p, a1, gallery, 0, false)
	id := Str(pa, "uuid")
	if loc := r.Header.Get("Location"); loc != b+"/"+id {
		t.Errorf("Location %q", loc)
	}
	log.Expect(t, "create", paEv("linked", p, id))
	if got := Want(t, c.Get(b+"/"+id), 200).Obj(); !reflect.DeepEqual(got, pa) {
		t.Errorf("get = %v, want %v", got, pa)
	}

	// Bulk create: the response's isFeatured is the one after the whole bulk.
	items := Want(t, c.Post(b+"/bulk", []any{
		Body("assetUuid", a2, "productAssetTypeUuid", hero, "displayPriority", 5),
		Body("assetUuid", a3, "productAssetTypeUuid", hero, "displayPriority", -2),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk: %v", items)
	}
	wantPA(t, "bulk [0]", items[0], p, a2, hero, 5, false)
	wantPA(t, "bulk [1]", items[1], p, a3, hero, -2, true)
	i2, i3 := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk", paEv("linked", p, i2), paEv("linked", p, i3))

	// Update: type and priority; the asset may be repeated, not changed.
	up := Want(t, c.Patch(b+"/"+id, Body("assetUuid", a1, "productAssetTypeUuid", hero, "displayPriority", -5)), 200).Obj()
	wantPA(t, "update", up, p, a1, hero, -5, true)
	if TS(t, up["updatedAt"]).Before(TS(t, pa["updatedAt"])) || up["createdAt"] != pa["createdAt"] {
		t.Errorf("timestamps after update: %v", up)
	}
	log.Expect(t, "update", paEv("updated", p, id))
	up = Want(t, c.Patch(b+"/"+id, Body("productAssetTypeUuid", nil, "displayPriority", nil)), 200).Obj()
	wantPA(t, "nulls leave the fields", up, p, a1, hero, -5, true)
	log.Expect(t, "update with nulls") // nulls on fields that cannot be null change nothing: no event

	// Bulk update.
	bu := Want(t, c.Patch(b+"/bulk", []any{Body("uuid", id, "productAssetTypeUuid", gallery, "displayPriority", 1), Body("uuid", i2, "displayPriority", 2)}), 200).Objs()
	if len(bu) != 2 {
		t.Fatalf("bulk update: %v", bu)
	}
	wantPA(t, "bulk update [0]", bu[0], p, a1, gallery, 1, false)
	wantPA(t, "bulk update [1]", bu[1], p, a2, hero, 2, false)
	log.Expect(t, "bulk update", paEv("updated", p, id), paEv("updated", p, i2))
	if f := featured(t, c, p); f != i3 {
		t.Errorf("featured %s, want %s", f, i3)
	}

	// List, filters, order. Priorities now: id 1, i2 2, i3 -2. Without an order: display order.
	WantUUIDs(t, c, b, true, i3, id, i2)
	WantUUIDs(t, c, b+Q("uuids[eq]", id, "uuids[eq]", i3), false, id, i3)
	WantUUIDs(t, c, b+Q("assetUuids[eq]", a2), false, i2)
	WantUUIDs(t, c, b+Q("productAssetTypeUuids[eq]", hero), false, i2, i3)
	WantUUIDs(t, c, b+Q("productAssetTypeUuids[eq]", hero, "productAssetTypeUuids[eq]", gallery), false, id, i2, i3)
	WantUUIDs(t, c, b+Q("displayPriority[eq]", "2"), false, i2)
	WantUUIDs(t, c, b+Q("displayPriority[min]", "1"), false, id, i2)
	WantUUIDs(t, c, b+Q("displayPriority[max]", "1"), false, id, i3)
	WantUUIDs(t, c, b+Q("displayPriority[min]", "-2", "displayPriority[max]", "-2"), false, i3)
	WantUUIDs(t, c, b+Q("isFeatured[eq]", "true"), false, i3)
	WantUUIDs(t, c, b+Q("isFeatured[eq]", "false"), false, id, i2)
	WantUUIDs(t, c, b+Q("createdAt[min]", Str(items[0], "createdAt")), false, i2, i3)
	WantUUIDs(t, c, b+Q("createdAt[max]", Str(pa, "createdAt")), false, id)
	WantUUIDs(t, c, b+Q("updatedAt[min]", Str(bu[0], "updatedAt")), false, id, i2)
	WantUUIDs(t, c, b+Q("displayPriority[order]", "asc"), true, i3, id, i2)
	WantUUIDs(t, c, b+Q("displayPriority[order]", "desc"), true, i2, id, i3)
	WantUUIDs(t, c, b+Q("createdAt[order]", "desc"), true, i3, i2, id)
	WantUUIDs(t, c, b+Q("updatedAt[order]", "asc"), true, i3, id, i2)
	WantPagination(t, "page 2", Want(t, c.Get(b+Q("size", "2", "page", "2")), 200), 2, 2, 3, 2)
	Problem(t, "bad int filter", c.Get(b+Q("displayPriority[eq]", "x")), 400, "MALFORMED_REQUEST", "displayPriority[eq]")
	Problem(t, "bad uuid filter", c.Get(b+Q("assetUuids[eq]", "x")), 400, "VALIDATION_FAILED", "assetUuids[eq]")

	// Delete.
	d := Want(t, c.Delete(b+"/"+id), 204)
	if len(d.Raw) != 0 {
		t.Errorf("delete body %q", d.Raw)
	}
	log.Expect(t, "delete", paEv("unlinked", p, id))
	Problem(t, "get deleted", c.Get(b+"/"+id), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete(b+"/"+id), 404, "NOT_FOUND")
	Want(t, c.Delete("/v1/assets/"+a1), 204)

	// Deleting the product deletes its product assets (CASCADE) and frees the assets and types.
	log.Skip(t)
	Want(t, c.Delete("/v1/products/"+p), 204)
	log.Expect(t, "product delete", Ev("product.deleted", "productUuid", p))
	if n := CountRows(t, pool, "product_assets", tenant); n != 0 {
		t.Errorf("product_assets rows %d after product delete", n)
	}
	Want(t, c.Delete("/v1/assets/"+a2), 204)
	Want(t, c.Delete("/v1/product-asset-types/"+hero), 204)
}

func TestProductAssetRules(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p, other := mkProduct(t, c), mkProduct(t, c)
	a, x := mkAsset(t, c), mkAsset(t, c)
	typ := mkType(t, c, true)
	c2, _ := env.TenantClient(t)
	foreignAsset, foreignType := mkAsset(t, c2), mkType(t, c2, true)
	b := base(p)
	id := link(t, c, p, a, typ, 0)
	log := NewEventLog(pool, tenant).Skip(t)

	for _, tc := range []struct {
		name        string
		resp        Resp
		status      int
		code, field string
	}{
		{"second link", c.Post(b, Body("assetUuid", a, "productAssetTypeUuid", typ)), 409, "ALREADY_EXISTS", "assetUuid"},
		{"bulk with a linked asset", c.Post(b+"/bulk", []any{Body("assetUuid", x, "productAssetTypeUuid", typ), Body("assetUuid", a, "productAssetTypeUuid", typ)}), 409, "ALREADY_EXISTS", "[1].assetUuid"},
		{"same asset twice in a bulk", c.Post(b+"/bulk", []any{Body("assetUuid", x, "productAssetTypeUuid", typ), Body("assetUuid", x, "productAssetTypeUuid", typ)}), 409, "ALREADY_EXISTS", "[1].assetUuid"},
		{"unknown asset", c.Post(b, Body("assetUuid", UnknownUUID, "productAssetTypeUuid", typ)), 404, "NOT_FOUND", "assetUuid"},
		{"another tenant's asset", c.Post(b, Body("assetUuid", foreignAsset, "productAssetTypeUuid", typ)), 404, "NOT_FOUND", "assetUuid"},
		{"bulk with a foreign asset", c.Post(b+"/bulk", []any{Body("assetUuid", x, "productAssetTypeUuid", typ), Body("assetUuid", foreignAsset, "productAssetTypeUuid", typ)}), 404, "NOT_FOUND", "[1].assetUuid"},
		{"unknown type", c.Post(b, Body("assetUuid", x, "productAssetTypeUuid", UnknownUUID)), 404, "NOT_FOUND", "productAssetTypeUuid"},
		{"another tenant's type", c.Post(b, Body("assetUuid", x, "productAssetTypeUuid", foreignType)), 404, "NOT_FOUND", "productAssetTypeUuid"},
		{"bulk with a foreign type", c.Post(b+"/bulk", []any{Body("assetUuid", x, "productAssetTypeUuid", typ), Body("assetUuid", a, "productAssetTypeUuid", foreignType)}), 404, "NOT_FOUND", "[1].productAssetTypeUuid"},
		{"missing asset", c.Post(b, Body("productAssetTypeUuid", typ)), 400, "VALIDATION_FAILED", "assetUuid"},
		{"missing type", c.Post(b, Body("assetUuid", x)), 400, "VALIDATION_FAILED", "productAssetTypeUuid"},
		{"malformed asset", c.Post(b, Body("assetUuid", "x", "productAssetTypeUuid", typ)), 400, "VALIDATION_FAILED", "assetUuid"},
		{"bulk with a missing type", c.Post(b+"/bulk", []any{Body("assetUuid", x, "productAssetTypeUuid", typ), Body("assetUuid", a)}), 400, "VALIDATION_FAILED", "[1].productAssetTypeUuid"},
		{"fractional priority", c.Post(b, Body("assetUuid", x, "productAssetTypeUuid", typ, "displayPriority", 1.5)), 400, "MALFORMED_REQUEST", "displayPriority"},
		{"read-only isFeatured", c.Post(b, Body("assetUuid", x, "productAssetTypeUuid", typ, "isFeatured", true)), 400, "MALFORMED_REQUEST", "isFeatured"},
		{"empty bulk", c.Post(b+"/bulk", []any{}), 400, "VALIDATION_FAILED", ""},
		{"change the asset", c.Patch(b+"/"+id, Body("assetUuid", x)), 400, "VALIDATION_FAILED", "assetUuid"},
		{"update to an unknown type", c.Patch(b+"/"+id, Body("productAssetTypeUuid", UnknownUUID)), 404, "NOT_FOUND", "productAssetTypeUuid"},
		{"update to a foreign type", c.Patch(b+"/"+id, Body("productAssetTypeUuid", foreignType)), 404, "NOT_FOUND", "productAssetTypeUuid"},
		{"update with a malformed type", c.Patch(b+"/"+id, Body("productAssetTypeUuid", "x")), 400, "VALIDATION_FAILED", "productAssetTypeUuid"},
		{"update isFeatured", c.Patch(b+"/"+id, Body("isFeatured", false)), 400, "MALFORMED_REQUEST", "isFeatured"},
		{"update unknown", c.Patch(b+"/"+UnknownUUID, Body("displayPriority", 1)), 404, "NOT_FOUND", ""},
		{"bulk update to a foreign type", c.Patch(b+"/bulk", []any{Body("uuid", id, "displayPriority", 3), Body("uuid", id, "productAssetTypeUuid", foreignType)}), 404, "NOT_FOUND", "[1].productAssetTypeUuid"},
		{"bulk update with an unknown uuid", c.Patch(b+"/bulk", []any{Body("uuid", id, "displayPriority", 3), Body("uuid", UnknownUUID, "displayPriority", 3)}), 404, "NOT_FOUND", "[1].uuid"},
		{"bulk update changing the asset", c.Patch(b+"/bulk", []any{Body("uuid", id, "displayPriority", 3), Body("uuid", id, "assetUuid", x)}), 400, "VALIDATION_FAILED", "[1].assetUuid"},
		{"unknown product", c.Post(base(UnknownUUID), Body("assetUuid", x, "productAssetTypeUuid", typ)), 404, "NOT_FOUND", ""},
		{"malformed product", c.Get(base("nope")), 400, "VALIDATION_FAILED", "productUuid"},
		{"malformed product asset", c.Get(b + "/nope"), 400, "VALIDATION_FAILED", "productAssetUuid"},
		{"via another product", c.Get(base(other) + "/" + id), 404, "NOT_FOUND", ""},
		{"update via another product", c.Patch(base(other)+"/"+id, Body("displayPriority", 3)), 404, "NOT_FOUND", ""},
		{"delete via another product", c.Delete(base(other) + "/" + id), 404, "NOT_FOUND", ""},
		{"delete a linked asset", c.Delete("/v1/assets/" + a), 409, "IN_USE", ""},
		{"delete a linked type", c.Delete("/v1/product-asset-types/" + typ), 409, "IN_USE", ""},
	} {
		if tc.field == "" {
			Problem(t, tc.name, tc.resp, tc.status, tc.code)
		} else {
			Problem(t, tc.name, tc.resp, tc.status, tc.code, tc.field)
		}
	}
	log.Expect(t, "failed requests write nothing")
	WantUUIDs(t, c, b, false, id)
	wantPA(t, "unchanged", Want(t, c.Get(b+"/"+id), 200).Obj(), p, a, typ, 0, true)

	// The same asset may be linked to another product.
	Want(t, c.Post(base(other), Body("assetUuid", a, "productAssetTypeUuid", typ)), 201)
}

// Another tenant sees none of the product's assets, on every path.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	c2, tenant2 := env.TenantClient(t)
	p, a, typ := mkProduct(t, c), mkAsset(t, c), mkType(t, c, true)
	pa := link(t, c, p, a, typ, 0)
	p2, a2, typ2 := mkProduct(t, c2), mkAsset(t, c2), mkType(t, c2, true)
	log := NewEventLog(pool, tenant2).Skip(t)

	for i, r := range []Resp{
		c2.Get(base(p)), c2.Post(base(p), Body("assetUuid", a2, "productAssetTypeUuid", typ2)),
		c2.Post(base(p)+"/bulk", []any{Body("assetUuid", a2, "productAssetTypeUuid", typ2)}),
		c2.Get(base(p) + "/" + pa), c2.Patch(base(p)+"/"+pa, Body("displayPriority", 1)),
		c2.Patch(base(p)+"/bulk", []any{Body("uuid", pa, "displayPriority", 1)}), c2.Delete(base(p) + "/" + pa),
		c2.Post(base(p2), Body("assetUuid", a, "productAssetTypeUuid", typ2)),
		c2.Post(base(p2), Body("assetUuid", a2, "productAssetTypeUuid", typ)),
	} {
		Problem(t, "other tenant's request "+strconv.Itoa(i), r, 404, "NOT_FOUND")
	}
	log.Expect(t, "nothing written")
	WantUUIDs(t, c2, base(p2), false)
	wantPA(t, "still there", Want(t, c.Get(base(p)+"/"+pa), 200).Obj(), p, a, typ, 0, true)
}
