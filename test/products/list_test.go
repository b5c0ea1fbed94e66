package products

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	fam, fam2, brand := mkFamily(t, c), mkFamily(t, c), mkBrand(t, c)
	vp := mkProductID(t, c, "tee", "variant_parent", "displayName", "Tee shirt", "familyUuid", fam, "brandUuid", brand)
	v1 := mkProductID(t, c, "tee-s", "variant", "displayName", "Tee S", "familyUuid", fam, "parentUuid", vp)
	v2 := mkProductID(t, c, "tee-m", "variant", "displayName", "Tee M", "familyUuid", fam, "parentUuid", vp, "brandUuid", brand)
	mug := mkProductID(t, c, "mug", "simple", "displayName", "Mug", "familyUuid", fam2)
	gone := mkProductID(t, c, "gone", "simple", "displayName", "Gone")
	Want(t, transition(c, gone, "remove"), 200)
	Want(t, transition(c, mug, "activate"), 200)
	Want(t, transition(c, v2, "activate"), 200)
	Want(t, transition(c, v2, "deactivate"), 200)
	live := []string{vp, v1, v2, mug}

	l := func(kv ...string) string { return "/v1/products" + Q(kv...) }
	// Removed ones are left out unless asked for; default order createdAt.
	WantUUIDs(t, c, l(), true, live...)
	WantUUIDs(t, c, l("isRemoved[eq]", "true"), false, gone)
	WantUUIDs(t, c, l("isRemoved[eq]", "false"), false, live...)
	WantUUIDs(t, c, l("statuses[eq]", "removed"), false, gone)
	WantUUIDs(t, c, l("statuses[eq]", "removed", "statuses[eq]", "active"), false, gone, mug)
	WantUUIDs(t, c, l("statuses[eq]", "draft"), false, vp, v1)
	WantUUIDs(t, c, l("statuses[eq]", "inactive"), false, v2)
	// Each filter.
	WantUUIDs(t, c, l("uuids[eq]", vp, "uuids[eq]", gone), false, vp)
	WantUUIDs(t, c, l("codes[eq]", "mug", "codes[eq]", "tee-s"), false, mug, v1)
	WantUUIDs(t, c, l("code[contains]", "tee-"), false, v1, v2)
	WantUUIDs(t, c, l("code[starts]", "tee"), false, vp, v1, v2)
	WantUUIDs(t, c, l("displayNames[eq]", "Mug"), false, mug)
	WantUUIDs(t, c, l("displayName[contains]", "Tee"), false, vp, v1, v2)
	WantUUIDs(t, c, l("kinds[eq]", "variant"), false, v1, v2)
	WantUUIDs(t, c, l("kinds[eq]", "simple", "kinds[eq]", "variant_parent"), false, vp, mug)
	WantUUIDs(t, c, l("kinds[eq]", "simple", "isRemoved[eq]", "true"), false, gone)
	WantUUIDs(t, c, l("familyUuids[eq]", fam), false, vp, v1, v2)
	WantUUIDs(t, c, l("familyUuids[eq]", fam2), false, mug)
	WantUUIDs(t, c, l("parentUuids[eq]", vp), false, v1, v2)
	WantUUIDs(t, c, l("brandUuids[eq]", brand), false, vp, v2)
	WantUUIDs(t, c, l("kinds[eq]", "variant", "brandUuids[eq]", brand), false, v2)
	created := Want(t, c.Get("/v1/products/"+v2), 200).Obj()["createdAt"].(string)
	WantUUIDs(t, c, l("createdAt[min]", created), false, v2, mug)
	WantUUIDs(t, c, l("createdAt[max]", created), false, vp, v1, v2)
	updated := Want(t, c.Get("/v1/products/"+v2), 200).Obj()["updatedAt"].(string)
	WantUUIDs(t, c, l("updatedAt[min]", updated), false, v2)
	WantUUIDs(t, c, l("updatedAt[max]", updated), false, live...)
	// Orders.
	WantUUIDs(t, c, l("code[order]", "asc"), true, mug, vp, v2, v1)
	WantUUIDs(t, c, l("displayName[order]", "desc"), true, vp, v1, v2, mug)
	WantUUIDs(t, c, l("kind[order]", "asc", "code[order]", "asc"), true, mug, v2, v1, vp)
	WantUUIDs(t, c, l("status[order]", "asc", "code[order]", "asc"), true, mug, vp, v1, v2)
	WantUUIDs(t, c, l("createdAt[order]", "desc"), true, mug, v2, v1, vp)
	WantUUIDs(t, c, l("updatedAt[order]", "desc"), true, v2, mug, v1, vp)
	// Pagination.
	WantPagination(t, "page 2", Want(t, c.Get(l("size", "3", "page", "2")), 200), 2, 3, 4, 2)
	// Bad filters.
	for _, kv := range [][]string{{"kinds[eq]", "bundle"}, {"statuses[eq]", "published"}, {"familyUuids[eq]", "x"}, {"parentUuids[eq]", "x"}, {"brandUuids[eq]", "x"}} {
		Problem(t, kv[0]+"="+kv[1], c.Get(l(kv...)), 400, "VALIDATION_FAILED", kv[0])
	}
	Problem(t, "isRemoved[eq]=maybe", c.Get(l("isRemoved[eq]", "maybe")), 400, "MALFORMED_REQUEST", "isRemoved[eq]")
}
