package assets

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func wantAC(t *testing.T, what string, m map[string]any, asset, col string) {
	t.Helper()
	WantKeys(t, what, m, "uuid", "createdAt", "updatedAt", "assetUuid", "collectionUuid")
	WantCommon(t, what, m)
	WantFields(t, what, m, "assetUuid", asset, "collectionUuid", col)
}

func TestAssetCollectionOperations(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := Str(mkAsset(t, c, "a"), "uuid")
	x, y, z := mkCollection(t, c), mkCollection(t, c), mkCollection(t, c)
	log := NewEventLog(pool, tenant).Skip(t)
	base := acBase(a)

	r := Want(t, c.Post(base, Body("collectionUuid", x)), 201)
	ac := r.Obj()
	wantAC(t, "create", ac, a, x)
	id := Str(ac, "uuid")
	if loc := r.Header.Get("Location"); loc != base+"/"+id {
		t.Errorf("Location %q", loc)
	}
	log.Expect(t, "create", acEv("linked", a, id))
	if got := Want(t, c.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, ac) {
		t.Errorf("get = %v, want %v", got, ac)
	}

	items := Want(t, c.Post(base+"/bulk", []any{Body("collectionUuid", y), Body("collectionUuid", z)}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk: %v", items)
	}
	wantAC(t, "bulk [0]", items[0], a, y)
	wantAC(t, "bulk [1]", items[1], a, z)
	iy, iz := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk", acEv("linked", a, iy), acEv("linked", a, iz))

	// No update: nothing to change; Allow lists what the path does support.
	if r := c.Patch(base+"/"+id, Body("collectionUuid", y)); Problem(t, "no update", r, 405, "METHOD_NOT_ALLOWED") &&
		r.Header.Get("Allow") != "GET, HEAD, DELETE" {
		t.Errorf("405 Allow %q, want \"GET, HEAD, DELETE\"", r.Header.Get("Allow"))
	}

	WantUUIDs(t, c, base, true, id, iy, iz)
	WantUUIDs(t, c, base+Q("uuids[eq]", id, "uuids[eq]", iz), false, id, iz)
	WantUUIDs(t, c, base+Q("collectionUuids[eq]", y), false, iy)
	WantUUIDs(t, c, base+Q("createdAt[min]", Str(items[0], "createdAt")), false, iy, iz)
	WantUUIDs(t, c, base+Q("createdAt[max]", Str(ac, "createdAt")), false, id)
	WantUUIDs(t, c, base+Q("updatedAt[eq]", Str(ac, "updatedAt")), false, id)
	WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, iz, iy, id)
	WantUUIDs(t, c, base+Q("updatedAt[order]", "asc"), true, id, iy, iz)
	WantPagination(t, "page", Want(t, c.Get(base+Q("size", "2")), 200), 1, 2, 3, 2)

	// A linked collection cannot be deleted; unlinking frees it.
	Problem(t, "delete a linked collection", c.Delete("/v1/collections/"+x), 409, "IN_USE")
	log.Expect(t, "refused delete writes nothing")
	d := Want(t, c.Delete(base+"/"+id), 204)
	if len(d.Raw) != 0 {
		t.Errorf("delete body %q", d.Raw)
	}
	log.Expect(t, "unlink", acEv("unlinked", a, id))
	Problem(t, "get unlinked", c.Get(base+"/"+id), 404, "NOT_FOUND")
	Problem(t, "unlink again", c.Delete(base+"/"+id), 404, "NOT_FOUND")
	Want(t, c.Delete("/v1/collections/"+x), 204)
	log.Expect(t, "collection delete", Ev("collection.deleted", "collectionUuid", x))

	// Deleting the asset deletes its links (one asset.deleted event).
	Want(t, c.Delete("/v1/assets/"+a), 204)
	log.Expect(t, "asset delete", assetEv("deleted", a))
	if n := CountRows(t, pool, "asset_collections", tenant); n != 0 {
		t.Errorf("asset_collections rows %d after the asset's delete", n)
	}
	Problem(t, "list of a deleted asset", c.Get(base), 404, "NOT_FOUND")
	Want(t, c.Delete("/v1/collections/"+y), 204)
}

func TestAssetCollectionRules(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a := Str(mkAsset(t, c, "a"), "uuid")
	other := Str(mkAsset(t, c, "b"), "uuid")
	x, y := mkCollection(t, c), mkCollection(t, c)
	c2, _ := env.TenantClient(t)
	foreign := mkCollection(t, c2)
	base := acBase(a)
	id := link(t, c, a, x)
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "second link", c.Post(base, Body("collectionUuid", x)), 409, "ALREADY_EXISTS", "collectionUuid")
	Problem(t, "bulk with a linked collection", c.Post(base+"/bulk", []any{Body("collectionUuid", y), Body("collectionUuid", x)}), 409, "ALREADY_EXISTS", "[1].collectionUuid")
	Problem(t, "same collection twice in a bulk", c.Post(base+"/bulk", []any{Body("collectionUuid", y), Body("collectionUuid", y)}), 409, "ALREADY_EXISTS", "[1].collectionUuid")
	Problem(t, "unknown collection", c.Post(base, Body("collectionUuid", UnknownUUID)), 404, "NOT_FOUND", "collectionUuid")
	Problem(t, "another tenant's collection", c.Post(base, Body("collectionUuid", foreign)), 404, "NOT_FOUND", "collectionUuid")
	Problem(t, "bulk with a foreign collection", c.Post(base+"/bulk", []any{Body("collectionUuid", y), Body("collectionUuid", foreign)}), 404, "NOT_FOUND", "[1].collectionUuid")
	Problem(t, "missing collection", c.Post(base, Body()), 400, "VALIDATION_FAILED", "collectionUuid")
	Problem(t, "malformed collection", c.Post(base, Body("collectionUuid", "x")), 400, "VALIDATION_FAILED", "collectionUuid")
	Problem(t, "bulk with a malformed collection", c.Post(base+"/bulk", []any{Body("collectionUuid", y), Body("collectionUuid", "x")}), 400, "VALIDATION_FAILED", "[1].collectionUuid")
	Problem(t, "empty bulk", c.Post(base+"/bulk", []any{}), 400, "VALIDATION_FAILED")
	Problem(t, "unknown field", c.Post(base, Body("collectionUuid", y, "position", 1)), 400, "MALFORMED_REQUEST", "position")
	Problem(t, "unknown asset", c.Post(acBase(UnknownUUID), Body("collectionUuid", y)), 404, "NOT_FOUND")
	Problem(t, "malformed asset", c.Get(acBase("nope")), 400, "VALIDATION_FAILED", "assetUuid")
	Problem(t, "malformed link uuid", c.Get(base+"/nope"), 400, "VALIDATION_FAILED", "assetCollectionUuid")
	Problem(t, "via another asset", c.Get(acBase(other)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "delete via another asset", c.Delete(acBase(other)+"/"+id), 404, "NOT_FOUND")
	log.Expect(t, "failed requests write nothing")
	WantUUIDs(t, c, base, false, id)
	WantUUIDs(t, c, acBase(other), false)

	// The same collection may be linked to another asset; a removed collection can be linked.
	Want(t, c.Post(acBase(other), Body("collectionUuid", x)), 201)
	Want(t, c.Patch("/v1/collections/"+y+"/actions/lifecycle", Body("transition", "remove")), 200)
	wantAC(t, "removed collection", Want(t, c.Post(base, Body("collectionUuid", y)), 201).Obj(), a, y)
}
