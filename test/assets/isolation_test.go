package assets

import (
	"strconv"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Another tenant sees none of the assets or their collection links, on every path, and the same
// code is free in another tenant.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	c2, tenant2 := env.TenantClient(t)
	a := mkAsset(t, c, "shared_code")
	id := Str(a, "uuid")
	col := mkCollection(t, c)
	ac := link(t, c, id, col)
	col2 := mkCollection(t, c2)
	own := Str(mkAsset(t, c2, "shared_code"), "uuid")
	log := NewEventLog(pool, tenant2).Skip(t)

	WantUUIDs(t, c2, "/v1/assets", false, own)
	WantUUIDs(t, c2, "/v1/assets"+Q("uuids[eq]", id), false)
	for i, r := range []Resp{
		c2.Get("/v1/assets/" + id), c2.Patch("/v1/assets/"+id, Body("code", "x")), c2.Delete("/v1/assets/" + id),
		c2.Get(acBase(id)), c2.Post(acBase(id), Body("collectionUuid", col2)), c2.Post(acBase(id)+"/bulk", []any{Body("collectionUuid", col2)}),
		c2.Get(acBase(id) + "/" + ac), c2.Delete(acBase(id) + "/" + ac),
		c2.Post(acBase(own), Body("collectionUuid", col)),
	} {
		Problem(t, "other tenant's request "+strconv.Itoa(i), r, 404, "NOT_FOUND")
	}
	Problem(t, "bulk update", c2.Patch("/v1/assets/bulk", []any{Body("uuid", id, "code", "x")}), 404, "NOT_FOUND", "[0].uuid")
	log.Expect(t, "nothing written")
	wantAsset(t, "still there", Want(t, c.Get("/v1/assets/"+id), 200).Obj(), "code", "shared_code", "displayName", "shared_code")
	wantAC(t, "still there", Want(t, c.Get(acBase(id)+"/"+ac), 200).Obj(), id, col)
}
