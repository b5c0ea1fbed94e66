package hierarchy

import (
	"bytes"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Another tenant's categories, category contents and collections are not found on any path, not
// listed, not usable as parents, and left unchanged.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	x, xTenant := env.TenantClient(t)
	y, yTenant := env.TenantClient(t)

	xen := CreateLocale(t, x, "en-US")
	xcat := categoriesF.createID(t, x, "shoes")
	xchild := categoriesF.createID(t, x, "boots", "parentUuid", xcat)
	xcc := Str(mkContent(t, x, xcat, xen, "Shoes"), "uuid")
	xcol := collectionsF.createID(t, x, "summer")
	xcolChild := collectionsF.createID(t, x, "beach", "parentUuid", xcol)

	yen := CreateLocale(t, y, "en-US")
	ycat := categoriesF.createID(t, y, "shoes") // the same codes in Y
	ycol := collectionsF.createID(t, y, "summer")

	snapshot := func() [][]byte {
		var out [][]byte
		for _, p := range []string{categoriesF.path(xcat) + "?include[contents]=true", categoriesF.path(xchild), contentsOf(xcat) + "/" + xcc,
			collectionsF.path(xcol), collectionsF.path(xcolChild)} {
			out = append(out, Want(t, x.Get(p), 200).Raw)
		}
		return out
	}
	before := snapshot()
	xLog := NewEventLog(pool, xTenant)
	xLog.Skip(t)
	yLog := NewEventLog(pool, yTenant)
	yLog.Skip(t)

	for _, tc := range []struct {
		f      family
		id, yi string
	}{{categoriesF, xcat, ycat}, {collectionsF, xcol, ycol}} {
		f := tc.f
		WantProblem(t, y.Get(f.path(tc.id)), 404, "NOT_FOUND")
		WantProblem(t, y.Patch(f.path(tc.id), map[string]any{"displayName": "hijacked"}), 404, "NOT_FOUND")
		WantProblem(t, y.Delete(f.path(tc.id)), 404, "NOT_FOUND")
		WantProblem(t, f.transition(y, tc.id, "activate"), 404, "NOT_FOUND")
		WantProblem(t, y.Patch(f.base+"/bulk/actions/lifecycle", map[string]any{"transition": "remove", "uuids": []string{tc.yi, tc.id}}), 404, "NOT_FOUND", "uuids[1]")
		WantProblem(t, y.Patch(f.base+"/bulk", []any{map[string]any{"uuid": tc.yi, "displayName": "ok"}, map[string]any{"uuid": tc.id, "displayName": "hijacked"}}), 404, "NOT_FOUND", "[1].uuid")
		// X's node as a parent in Y, on create, bulk create, update and bulk update.
		WantProblem(t, y.Post(f.base, map[string]any{"code": "x", "parentUuid": tc.id}), 404, "NOT_FOUND", "parentUuid")
		WantProblem(t, y.Post(f.base+"/bulk", []any{map[string]any{"code": "x1"}, map[string]any{"code": "x2", "parentUuid": tc.id}}), 404, "NOT_FOUND", "[1].parentUuid")
		WantProblem(t, y.Patch(f.path(tc.yi), map[string]any{"parentUuid": tc.id}), 404, "NOT_FOUND", "parentUuid")
		WantProblem(t, y.Patch(f.base+"/bulk", []any{map[string]any{"uuid": tc.yi, "parentUuid": tc.id}}), 404, "NOT_FOUND", "[0].parentUuid")
		// Lists and filters naming X's ids.
		WantUUIDs(t, y, f.base, false, tc.yi)
		WantUUIDs(t, y, f.base+Q("uuids[eq]", tc.id), false)
		WantUUIDs(t, y, f.base+Q("parentUuids[eq]", tc.id), false)
		// X's node in Y's own delete and get of Y's node (Y's tree is its own).
		WantProblem(t, x.Delete(f.path(tc.yi)), 404, "NOT_FOUND")
	}
	// Category contents under X's category.
	cbody := map[string]any{"localeUuid": yen, "displayName": "x"}
	WantProblem(t, y.Get(contentsOf(xcat)), 404, "NOT_FOUND")
	WantProblem(t, y.Post(contentsOf(xcat), cbody), 404, "NOT_FOUND")
	WantProblem(t, y.Post(contentsOf(xcat)+"/bulk", []any{cbody}), 404, "NOT_FOUND")
	WantProblem(t, y.Patch(contentsOf(xcat)+"/bulk", []any{map[string]any{"uuid": xcc, "displayName": "x"}}), 404, "NOT_FOUND")
	WantProblem(t, y.Get(contentsOf(xcat)+"/"+xcc), 404, "NOT_FOUND")
	WantProblem(t, y.Patch(contentsOf(xcat)+"/"+xcc, map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
	WantProblem(t, y.Delete(contentsOf(xcat)+"/"+xcc), 404, "NOT_FOUND")
	// X's content through Y's category, and X's locale for Y's category.
	WantProblem(t, y.Get(contentsOf(ycat)+"/"+xcc), 404, "NOT_FOUND")
	WantProblem(t, y.Patch(contentsOf(ycat)+"/bulk", []any{map[string]any{"uuid": xcc, "displayName": "x"}}), 404, "NOT_FOUND", "[0].uuid")
	WantProblem(t, y.Post(contentsOf(ycat), map[string]any{"localeUuid": xen, "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
	if g := Want(t, y.Get(categoriesF.path(ycat)+Q("include[contents]", "true")), 200).Obj(); len(g["contentUuids"].([]any)) != 0 {
		t.Errorf("Y's category shows contents: %v", g)
	}

	after := snapshot()
	for i := range before {
		if !bytes.Equal(before[i], after[i]) {
			t.Errorf("X's resource changed:\n before %s\n after  %s", before[i], after[i])
		}
	}
	xLog.Expect(t, "tenant X after Y's attempts")
	yLog.Expect(t, "tenant Y's refused writes")
}
