package localization

import (
	"bytes"
	"fmt"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// TestTenantIsolation: another tenant's locales, attribute contents, terms and term contents are
// not found on any path, not listed, and left unchanged.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	x, xTenant := env.TenantClient(t)
	y, yTenant := env.TenantClient(t)

	// Tenant X's world.
	xen := Str(mkLocale(t, x, "en-US"), "uuid")
	xde := Str(mkLocale(t, x, "de-DE"), "uuid")
	xa := mkAttr(t, x, "color")
	xc := Str(mkContent(t, x, attrContents(xa), xen, "Colour", "description", "d"), "uuid")
	xt := Str(mkTerm(t, x, xa, "red"), "uuid")
	xtc := Str(mkContent(t, x, termContents(xa, xt), xen, "Red", "description", "d"), "uuid")

	// Tenant Y's own world, with the same codes.
	yen := mkLocale(t, y, "en-US")
	if yen["isDefault"] != true {
		t.Errorf("tenant Y's first locale is not its default: %v", yen)
	}
	ya := mkAttr(t, y, "color")
	yt := Str(mkTerm(t, y, ya, "red"), "uuid")

	paths := []string{
		"/v1/locales/" + xen,
		attrContents(xa) + "/" + xc,
		terms(xa) + "/" + xt,
		termContents(xa, xt) + "/" + xtc,
	}
	snapshot := func() [][]byte {
		var out [][]byte
		for _, p := range append(paths, "/v1/locales/"+xde, "/v1/attributes/"+xa+"?include[contents]=true") {
			out = append(out, Want(t, x.Get(p), 200).Raw)
		}
		return out
	}
	before := snapshot()
	xLog := NewEventLog(pool, xTenant)
	xLog.Skip(t)
	yLog := NewEventLog(pool, yTenant)
	yLog.Skip(t)

	// Get, update, delete by uuid.
	for _, p := range paths {
		WantProblem(t, y.Get(p), 404, "NOT_FOUND")
		WantProblem(t, y.Patch(p, map[string]any{"displayName": "hijacked"}), 404, "NOT_FOUND")
		WantProblem(t, y.Delete(p), 404, "NOT_FOUND")
	}
	// Collections under X's parents.
	contentBody := map[string]any{"localeUuid": Str(yen, "uuid"), "displayName": "x"}
	for _, col := range []struct {
		base, id string
		body     map[string]any
	}{
		{attrContents(xa), xc, contentBody},
		{terms(xa), xt, map[string]any{"code": "x"}},
		{termContents(xa, xt), xtc, contentBody},
	} {
		WantProblem(t, y.Get(col.base), 404, "NOT_FOUND")
		WantProblem(t, y.Post(col.base, col.body), 404, "NOT_FOUND")
		WantProblem(t, y.Post(col.base+"/bulk", []any{col.body}), 404, "NOT_FOUND")
		WantProblem(t, y.Patch(col.base+"/bulk", []any{map[string]any{"uuid": col.id, "displayName": "x"}}), 404, "NOT_FOUND")
	}
	// X's term under Y's attribute, Y's term under X's attribute.
	WantProblem(t, y.Get(termContents(ya, xt)), 404, "NOT_FOUND")
	WantProblem(t, y.Get(terms(ya)+"/"+xt), 404, "NOT_FOUND")
	WantProblem(t, x.Get(termContents(xa, yt)), 404, "NOT_FOUND")
	// X's uuids in Y's own collections.
	WantProblem(t, y.Patch("/v1/locales/bulk", []any{map[string]any{"uuid": xen, "displayName": "hijacked"}}), 404, "NOT_FOUND", "[0].uuid")
	WantProblem(t, y.Patch(terms(ya)+"/bulk", []any{map[string]any{"uuid": xt, "code": "hijacked"}}), 404, "NOT_FOUND", "[0].uuid")
	WantProblem(t, y.Patch(attrContents(ya)+"/bulk", []any{map[string]any{"uuid": xc, "displayName": "hijacked"}}), 404, "NOT_FOUND", "[0].uuid")
	WantProblem(t, y.Get(attrContents(ya)+"/"+xc), 404, "NOT_FOUND")
	WantProblem(t, y.Get(termContents(ya, yt)+"/"+xtc), 404, "NOT_FOUND")
	// X's locale in Y's contents.
	WantProblem(t, y.Post(attrContents(ya), map[string]any{"localeUuid": xen, "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
	WantProblem(t, y.Post(termContents(ya, yt)+"/bulk", []any{map[string]any{"localeUuid": Str(yen, "uuid"), "displayName": "x"}, map[string]any{"localeUuid": xde, "displayName": "x"}}), 404, "NOT_FOUND", "[1].localeUuid")
	yc := Str(mkContent(t, y, attrContents(ya), Str(yen, "uuid"), "Colour"), "uuid")
	yLog.Skip(t)
	WantProblem(t, y.Patch(attrContents(ya)+"/"+yc, map[string]any{"localeUuid": xde}), 404, "NOT_FOUND", "localeUuid")
	// A locale filter naming X's locale finds nothing.
	WantTotal(t, y, attrContents(ya)+Q("localeUuids[eq]", xen), 0)

	// Lists hold only the tenant's own rows.
	WantUUIDs(t, y, "/v1/locales", false, Str(yen, "uuid"))
	WantUUIDs(t, y, "/v1/locales"+Q("uuids[eq]", xen, "uuids[eq]", xde), false)
	WantUUIDs(t, y, "/v1/locales"+Q("isDefault[eq]", "true"), false, Str(yen, "uuid"))
	WantUUIDs(t, x, "/v1/locales"+Q("isDefault[eq]", "true"), false, xen)
	WantUUIDs(t, y, terms(ya), false, yt)
	WantUUIDs(t, x, terms(xa), false, xt)
	WantUUIDs(t, y, "/v1/attributes", false, ya)
	for _, it := range Want(t, y.Get("/v1/attributes?expand[contents]=true&include[contents]=true"), 200).Items() {
		if fmt.Sprint(it["contentUuids"]) != fmt.Sprint([]any{yc}) {
			t.Errorf("tenant Y's attribute hydrates %v", it["contentUuids"])
		}
	}

	// Y making its own default does not touch X's default.
	yfr := Str(mkLocale(t, y, "fr-FR", "isDefault", true), "uuid")
	WantUUIDs(t, y, "/v1/locales"+Q("isDefault[eq]", "true"), false, yfr)
	WantUUIDs(t, x, "/v1/locales"+Q("isDefault[eq]", "true"), false, xen)

	// Nothing of X changed, and none of Y's refused attempts wrote an event for either tenant.
	after := snapshot()
	for i := range before {
		if !bytes.Equal(before[i], after[i]) {
			t.Errorf("tenant X's resource changed:\n before %s\n after  %s", before[i], after[i])
		}
	}
	xLog.Expect(t, "tenant X after tenant Y's attempts")
	yLog.Expect(t, "tenant Y's refused attempts", localeEv("created", yfr), localeEv("updated", Str(yen, "uuid")))
	if n := CountRows(t, pool, "contents", xTenant); n != 2 {
		t.Errorf("tenant X has %d contents, want 2", n)
	}
}
