package attributes

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

func pagination(t *testing.T, r Resp) map[string]any {
	t.Helper()
	p, ok := r.Obj()["pagination"].(map[string]any)
	if !ok {
		t.Fatalf("no pagination object: %s", r.Raw)
	}
	return p
}

func wantPagination(t *testing.T, what string, r Resp, page, size, total, pages int) {
	t.Helper()
	p := pagination(t, r)
	WantKeys(t, what+": pagination", p, PaginationKeys...)
	got := []any{p["page"], p["size"], p["totalItems"], p["totalPages"]}
	want := []any{float64(page), float64(size), float64(total), float64(pages)}
	if !slices.Equal(got, want) {
		t.Errorf("%s: pagination page/size/totalItems/totalPages %v, want %v", what, got, want)
	}
	WantNextCursor(t, what, p, page*size < total)
}

func TestListEmptyTenant(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	r := list(t, c, "")
	WantKeys(t, "page", r.Obj(), "items", "pagination")
	if !strings.Contains(string(r.Raw), `"items":[]`) {
		t.Errorf("empty list: items must be [], got %s", r.Raw)
	}
	wantPagination(t, "empty", r, 1, 20, 0, 0)
}

func TestListItemsShape(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "color", "Color")
	r := list(t, c, "")
	items := r.Items()
	if len(items) != 1 {
		t.Fatalf("list: %s", r.Raw)
	}
	wantHydrated(t, "list item", items[0], "draft", "color", "Color")
	if items[0]["uuid"] != a["uuid"] || items[0]["createdAt"] != a["createdAt"] || items[0]["updatedAt"] != a["updatedAt"] {
		t.Errorf("list item %v differs from the created %v", items[0], a)
	}
	if items[0]["contentUuids"] != nil || items[0]["contents"] != nil {
		t.Errorf("list item without include/expand: %v", items[0])
	}
	wantPagination(t, "one item", r, 1, 20, 1, 1)
}

func TestFilterUUIDs(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	as := bulkCreate(t, c, "a", "b", "c", "d")
	wantCodeSet(t, "one uuid", listCodes(t, c, Q("uuids[eq]", Str(as[1], "uuid"))), "b")
	wantCodeSet(t, "repeated uuids", listCodes(t, c, Q("uuids[eq]", Str(as[0], "uuid"), "uuids[eq]", Str(as[2], "uuid"))), "a", "c")
	wantCodeSet(t, "unknown uuid", listCodes(t, c, Q("uuids[eq]", RandomUUID())))
	wantCodeSet(t, "known and unknown", listCodes(t, c, Q("uuids[eq]", RandomUUID(), "uuids[eq]", Str(as[3], "uuid"))), "d")
	r := list(t, c, Q("uuids[eq]", Str(as[0], "uuid"), "uuids[eq]", Str(as[2], "uuid")))
	wantPagination(t, "uuids filter", r, 1, 20, 2, 1)
	WantProblem(t, c.Get("/v1/attributes"+Q("uuids[eq]", "not-a-uuid")), 400, "VALIDATION_FAILED", "uuids[eq]")
}

func TestFilterCodes(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	bulkCreate(t, c, "RedColor", "blue-color", "GREENISH", "colorful", "size")
	wantCodeSet(t, "codes[eq] one", listCodes(t, c, Q("codes[eq]", "size")), "size")
	wantCodeSet(t, "codes[eq] repeated", listCodes(t, c, Q("codes[eq]", "size", "codes[eq]", "colorful", "codes[eq]", "nope")), "size", "colorful")
	wantCodeSet(t, "codes[eq] is exact, not a substring", listCodes(t, c, Q("codes[eq]", "color")))

	wantCodeSet(t, "code[contains] case-insensitive", listCodes(t, c, Q("code[contains]", "COLOR")), "RedColor", "blue-color", "colorful")
	wantCodeSet(t, "code[contains] lower finds upper", listCodes(t, c, Q("code[contains]", "een")), "GREENISH")
	wantCodeSet(t, "code[starts]", listCodes(t, c, Q("code[starts]", "Col")), "colorful")
	wantCodeSet(t, "code[starts] case-insensitive", listCodes(t, c, Q("code[starts]", "red")), "RedColor")
	wantCodeSet(t, "code[starts] is not contains", listCodes(t, c, Q("code[starts]", "olor")))
	wantCodeSet(t, "code[ends]", listCodes(t, c, Q("code[ends]", "COLOR")), "RedColor", "blue-color")
	wantCodeSet(t, "code[ends] is not contains", listCodes(t, c, Q("code[ends]", "colo")))
	wantCodeSet(t, "code[starts]+code[ends]", listCodes(t, c, Q("code[starts]", "b", "code[ends]", "r")), "blue-color")
	wantCodeSet(t, "code[contains]+codes[eq]", listCodes(t, c, Q("code[contains]", "color", "codes[eq]", "colorful", "codes[eq]", "size")), "colorful")
}

func TestFilterLikeWildcardsAreLiteral(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	codes := []string{"a%b", "a_b", "axb", `a\b`, "ab", "A%B-upper"}
	body := make([]map[string]any, len(codes))
	for i, code := range codes {
		// The displayName mirrors the code, to check the displayName filters the same way.
		body[i] = map[string]any{"code": code, "displayName": "n " + code}
	}
	Want(t, c.Post("/v1/attributes/bulk", body), 201)
	for _, tc := range []struct {
		filter, value string
		want          []string
	}{
		{"contains", "%", []string{"a%b", "A%B-upper"}},
		{"contains", "_", []string{"a_b"}},
		{"contains", `\`, []string{`a\b`}},
		{"contains", "a%b", []string{"a%b", "A%B-upper"}},
		{"contains", "a_b", []string{"a_b"}},
		{"contains", `a\b`, []string{`a\b`}},
		{"contains", "%%", nil},
		{"starts", "a_", []string{"a_b"}},
		{"starts", "a%", []string{"a%b", "A%B-upper"}},
		{"starts", `a\`, []string{`a\b`}},
		{"starts", "_", nil},
		{"starts", "%", nil},
		{"ends", "%b", []string{"a%b"}},
		{"ends", "_b", []string{"a_b"}},
		{"ends", `\b`, []string{`a\b`}},
		{"ends", "%", nil},
	} {
		wantCodeSet(t, fmt.Sprintf("code[%s]=%s", tc.filter, tc.value),
			listCodes(t, c, Q("code["+tc.filter+"]", tc.value)), tc.want...)
		dn := tc.value
		if tc.filter == "starts" {
			dn = "n " + tc.value
		}
		wantCodeSet(t, fmt.Sprintf("displayName[%s]=%s", tc.filter, dn),
			listCodes(t, c, Q("displayName["+tc.filter+"]", dn)), tc.want...)
	}
}

func TestFilterDisplayNames(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	Want(t, c.Post("/v1/attributes/bulk", []map[string]any{
		{"code": "c1", "displayName": "Main Colour"},
		{"code": "c2", "displayName": "Size EU"},
		{"code": "c3", "displayName": "size US"},
		{"code": "c4"}, // displayName defaults to the code
	}), 201)
	wantCodeSet(t, "displayNames[eq]", listCodes(t, c, Q("displayNames[eq]", "Size EU")), "c2")
	wantCodeSet(t, "displayNames[eq] repeated", listCodes(t, c, Q("displayNames[eq]", "Size EU", "displayNames[eq]", "Main Colour")), "c1", "c2")
	wantCodeSet(t, "displayNames[eq] default = code", listCodes(t, c, Q("displayNames[eq]", "c4")), "c4")
	wantCodeSet(t, "displayNames[eq] exact", listCodes(t, c, Q("displayNames[eq]", "Size")))
	wantCodeSet(t, "displayName[contains]", listCodes(t, c, Q("displayName[contains]", "SIZE")), "c2", "c3")
	wantCodeSet(t, "displayName[contains] inner", listCodes(t, c, Q("displayName[contains]", "colo")), "c1")
	wantCodeSet(t, "displayName[starts]", listCodes(t, c, Q("displayName[starts]", "main")), "c1")
	wantCodeSet(t, "displayName[starts] not inner", listCodes(t, c, Q("displayName[starts]", "Colour")))
	wantCodeSet(t, "displayName[ends]", listCodes(t, c, Q("displayName[ends]", "eu")), "c2")
	wantCodeSet(t, "displayName[ends] not inner", listCodes(t, c, Q("displayName[ends]", "size")))
	wantCodeSet(t, "displayName + code filters", listCodes(t, c, Q("displayName[starts]", "size", "code[ends]", "3")), "c3")
}

// statusFixture makes one attribute in each status (codes = status names) and returns them by status.
func statusFixture(t *testing.T, c *Client) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, st := range []string{"draft", "published", "unpublished", "removed"} {
		a := create(t, c, st)
		out[st] = moveTo(t, c, Str(a, "uuid"), st)
	}
	return out
}

func TestFilterStatusesAndRemoved(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	statusFixture(t, c)

	r := list(t, c, "")
	wantCodes(t, "default excludes removed", codesOf(r.Items()), "draft", "published", "unpublished")
	wantPagination(t, "default excludes removed", r, 1, 20, 3, 1)

	wantCodeSet(t, "statuses[eq]=draft", listCodes(t, c, Q("statuses[eq]", "draft")), "draft")
	wantCodeSet(t, "statuses[eq]=unpublished", listCodes(t, c, Q("statuses[eq]", "unpublished")), "unpublished")
	wantCodeSet(t, "statuses[eq] repeated", listCodes(t, c, Q("statuses[eq]", "draft", "statuses[eq]", "published")), "draft", "published")
	wantCodeSet(t, "statuses[eq]=removed", listCodes(t, c, Q("statuses[eq]", "removed")), "removed")
	wantCodeSet(t, "statuses[eq]=published,removed", listCodes(t, c, Q("statuses[eq]", "published", "statuses[eq]", "removed")), "published", "removed")
	wantCodeSet(t, "all statuses", listCodes(t, c, Q("statuses[eq]", "draft", "statuses[eq]", "published", "statuses[eq]", "unpublished", "statuses[eq]", "removed")),
		"draft", "published", "unpublished", "removed")

	wantCodeSet(t, "isRemoved[eq]=true", listCodes(t, c, Q("isRemoved[eq]", "true")), "removed")
	wantCodeSet(t, "isRemoved[eq]=false", listCodes(t, c, Q("isRemoved[eq]", "false")), "draft", "published", "unpublished")
	wantCodeSet(t, "isRemoved=true + statuses=draft", listCodes(t, c, Q("isRemoved[eq]", "true", "statuses[eq]", "draft")))
	wantCodeSet(t, "isRemoved=false + statuses=removed", listCodes(t, c, Q("isRemoved[eq]", "false", "statuses[eq]", "removed")))
	wantCodeSet(t, "isRemoved=true + statuses=removed,draft", listCodes(t, c, Q("isRemoved[eq]", "true", "statuses[eq]", "removed", "statuses[eq]", "draft")), "removed")
	wantCodeSet(t, "isRemoved=true + code filter", listCodes(t, c, Q("isRemoved[eq]", "true", "code[starts]", "rem")), "removed")
	wantCodeSet(t, "removed item not found by code without isRemoved", listCodes(t, c, Q("codes[eq]", "removed")))
	wantCodeSet(t, "removed item not found by code[contains] without isRemoved", listCodes(t, c, Q("code[contains]", "move")))

	// The removed item is still readable directly.
	removed := list(t, c, Q("isRemoved[eq]", "true")).Items()[0]
	wantHydrated(t, "removed in list", removed, "removed", "removed", "removed")

	WantProblem(t, c.Get("/v1/attributes"+Q("statuses[eq]", "archived")), 400, "VALIDATION_FAILED", "statuses[eq]")
}

// createSpaced creates attributes one by one so that each has its own createdAt.
func createSpaced(t *testing.T, c *Client, codes ...string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, code := range codes {
		a := create(t, c, code)
		if n := len(out); n > 0 && a["createdAt"] == out[n-1]["createdAt"] {
			t.Fatalf("two sequential creates share createdAt %v", a["createdAt"])
		}
		out = append(out, a)
		time.Sleep(2 * time.Millisecond)
	}
	return out
}

func TestFilterCreatedAt(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	as := createSpaced(t, c, "one", "two", "three")
	t1, t2, t3 := Str(as[0], "createdAt"), Str(as[1], "createdAt"), Str(as[2], "createdAt")

	wantCodeSet(t, "createdAt[eq]", listCodes(t, c, Q("createdAt[eq]", t2)), "two")
	wantCodeSet(t, "createdAt[min] inclusive", listCodes(t, c, Q("createdAt[min]", t2)), "two", "three")
	wantCodeSet(t, "createdAt[max] inclusive", listCodes(t, c, Q("createdAt[max]", t2)), "one", "two")
	wantCodeSet(t, "createdAt[min]+[max]", listCodes(t, c, Q("createdAt[min]", t1, "createdAt[max]", t2)), "one", "two")
	wantCodeSet(t, "createdAt[min]=[max]", listCodes(t, c, Q("createdAt[min]", t3, "createdAt[max]", t3)), "three")
	wantCodeSet(t, "createdAt[min] after all", listCodes(t, c, Q("createdAt[min]", TS(t, t3).Add(time.Microsecond).Format(time.RFC3339Nano))))
	wantCodeSet(t, "createdAt[max] before all", listCodes(t, c, Q("createdAt[max]", TS(t, t1).Add(-time.Microsecond).Format(time.RFC3339Nano))))
	// One microsecond either side of t2 excludes it.
	wantCodeSet(t, "createdAt[min] just after t2", listCodes(t, c, Q("createdAt[min]", TS(t, t2).Add(time.Microsecond).Format(time.RFC3339Nano))), "three")
	wantCodeSet(t, "createdAt[eq] other offset", listCodes(t, c, Q("createdAt[eq]", TS(t, t2).In(time.FixedZone("x", 2*3600)).Format(time.RFC3339Nano))), "two")
	// Combined with another filter.
	wantCodeSet(t, "createdAt[min] + code", listCodes(t, c, Q("createdAt[min]", t1, "code[starts]", "t")), "two", "three")
}

func TestFilterUpdatedAt(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	as := createSpaced(t, c, "one", "two", "three")
	time.Sleep(2 * time.Millisecond)
	u := Want(t, c.Patch("/v1/attributes/"+Str(as[0], "uuid"), map[string]any{"displayName": "One"}), 200).Obj()
	up := Str(u, "updatedAt")
	if !TS(t, up).After(TS(t, as[2]["updatedAt"])) {
		t.Fatalf("update's updatedAt %s not after the last create %v", up, as[2]["updatedAt"])
	}
	wantCodeSet(t, "updatedAt[eq] new", listCodes(t, c, Q("updatedAt[eq]", up)), "one")
	wantCodeSet(t, "updatedAt[eq] old", listCodes(t, c, Q("updatedAt[eq]", Str(as[0], "updatedAt"))))
	wantCodeSet(t, "updatedAt[eq] untouched", listCodes(t, c, Q("updatedAt[eq]", Str(as[1], "updatedAt"))), "two")
	wantCodeSet(t, "updatedAt[min]", listCodes(t, c, Q("updatedAt[min]", up)), "one")
	wantCodeSet(t, "updatedAt[max] inclusive", listCodes(t, c, Q("updatedAt[max]", Str(as[2], "updatedAt"))), "two", "three")
	wantCodeSet(t, "updatedAt[min]+[max]", listCodes(t, c, Q("updatedAt[min]", Str(as[1], "updatedAt"), "updatedAt[max]", Str(as[2], "updatedAt"))), "two", "three")
	// createdAt of "one" is still the oldest.
	wantCodeSet(t, "createdAt unchanged by update", listCodes(t, c, Q("createdAt[max]", Str(as[0], "createdAt"))), "one")
}

func TestFilterCombinations(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	Want(t, c.Post("/v1/attributes/bulk", []map[string]any{
		{"code": "shirt-size", "displayName": "Cotton size"},
		{"code": "shirt-color", "displayName": "Cotton color"},
		{"code": "shirt-fit", "displayName": "Fit"},
		{"code": "shoe-size", "displayName": "Cotton shoe"},
	}), 201)
	all := list(t, c, "").Items()
	byCode := map[string]map[string]any{}
	for _, a := range all {
		byCode[Str(a, "code")] = a
	}
	for _, code := range []string{"shirt-size", "shirt-fit", "shoe-size"} {
		moveTo(t, c, Str(byCode[code], "uuid"), "published")
	}
	wantCodeSet(t, "starts + status + displayName", listCodes(t, c,
		Q("code[starts]", "shirt-", "statuses[eq]", "published", "displayName[contains]", "cotton")), "shirt-size")
	wantCodeSet(t, "uuids + status", listCodes(t, c,
		Q("uuids[eq]", Str(byCode["shirt-color"], "uuid"), "uuids[eq]", Str(byCode["shirt-fit"], "uuid"), "statuses[eq]", "published")), "shirt-fit")
	wantCodeSet(t, "codes + displayNames (AND)", listCodes(t, c,
		Q("codes[eq]", "shirt-size", "codes[eq]", "shoe-size", "displayNames[eq]", "Cotton shoe")), "shoe-size")
	wantCodeSet(t, "ends + isRemoved=false", listCodes(t, c, Q("code[ends]", "size", "isRemoved[eq]", "false")), "shirt-size", "shoe-size")
	r := list(t, c, Q("code[starts]", "sh", "statuses[eq]", "published", "size", "2", "code[order]", "asc"))
	wantCodes(t, "filters + order + size", codesOf(r.Items()), "shirt-fit", "shirt-size")
	wantPagination(t, "filters + order + size", r, 1, 2, 3, 2)
}

func TestOrderBySingleField(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	// Created in this order (createdAt ascending): b, d, a, c. displayNames order differently from codes.
	seed := []struct{ code, dn, status string }{
		{"b", "Zulu", "published"},
		{"d", "alpha", "draft"},
		{"a", "Mike", "unpublished"},
		{"c", "bravo", "published"},
	}
	for _, s := range seed {
		a := create(t, c, s.code, s.dn)
		moveTo(t, c, Str(a, "uuid"), s.status)
		time.Sleep(2 * time.Millisecond)
	}
	// Touch "d" last so updatedAt order differs from createdAt order.
	time.Sleep(2 * time.Millisecond)
	d := list(t, c, Q("codes[eq]", "d")).Items()[0]
	Want(t, c.Patch("/v1/attributes/"+Str(d, "uuid"), map[string]any{"displayName": "alpha2"}), 200) // a change: a same-value PATCH writes nothing

	wantCodes(t, "default (createdAt asc)", listCodes(t, c, ""), "b", "d", "a", "c")
	wantCodes(t, "code asc", listCodes(t, c, Q("code[order]", "asc")), "a", "b", "c", "d")
	wantCodes(t, "code desc", listCodes(t, c, Q("code[order]", "desc")), "d", "c", "b", "a")
	// displayName: whatever the collation, "alpha" < "bravo" and "Mike" < "Zulu"; check the
	// relative order of pairs that agree under both byte and case-insensitive orderings.
	dnAsc := listCodes(t, c, Q("displayName[order]", "asc"))
	dnDesc := listCodes(t, c, Q("displayName[order]", "desc"))
	before := func(xs []string, a, b string) bool { return slices.Index(xs, a) < slices.Index(xs, b) }
	if len(dnAsc) != 4 || !before(dnAsc, "d", "c") || !before(dnAsc, "a", "b") {
		t.Errorf("displayName asc: %v", dnAsc)
	}
	if !slices.Equal(dnDesc, reversed(dnAsc)) {
		t.Errorf("displayName desc %v is not the reverse of asc %v", dnDesc, dnAsc)
	}
	// status: draft < published < unpublished (alphabetical and lifecycle order agree here);
	// ties (b and c, both published) break on uuid, i.e. creation order for uuid v7.
	st := listCodes(t, c, Q("status[order]", "asc"))
	if len(st) != 4 || st[0] != "d" || st[3] != "a" {
		t.Errorf("status asc: %v, want d first, a last", st)
	}
	st = listCodes(t, c, Q("status[order]", "desc"))
	if len(st) != 4 || st[0] != "a" || st[3] != "d" {
		t.Errorf("status desc: %v, want a first, d last", st)
	}
	wantCodes(t, "createdAt asc", listCodes(t, c, Q("createdAt[order]", "asc")), "b", "d", "a", "c")
	wantCodes(t, "createdAt desc", listCodes(t, c, Q("createdAt[order]", "desc")), "c", "a", "d", "b")
	// updatedAt: each moveTo/patch bumps it; d was touched last.
	wantCodes(t, "updatedAt asc", listCodes(t, c, Q("updatedAt[order]", "asc")), "b", "a", "c", "d")
	wantCodes(t, "updatedAt desc", listCodes(t, c, Q("updatedAt[order]", "desc")), "d", "c", "a", "b")
	// Raw (unescaped) brackets work too.
	wantCodes(t, "raw brackets", codesOf(list(t, c, "?code[order]=desc").Items()), "d", "c", "b", "a")
	// Direction is case-insensitive? Not specified; only asc/desc are used. Unknown values are 400.
	WantProblem(t, c.Get("/v1/attributes"+Q("code[order]", "up")), 400, "MALFORMED_REQUEST", "code[order]")
	WantProblem(t, c.Get("/v1/attributes"+Q("uuid[order]", "asc")), 400, "MALFORMED_REQUEST", "uuid[order]")
	WantProblem(t, c.Get("/v1/attributes"+Q("removedAt[order]", "asc")), 400, "MALFORMED_REQUEST", "removedAt[order]")
}

func reversed(xs []string) []string {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

func TestOrderByTwoFieldsAppliesInOrderGiven(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	// a, c draft; b, d published.
	as := bulkCreate(t, c, "a", "b", "c", "d")
	moveTo(t, c, Str(as[1], "uuid"), "published")
	moveTo(t, c, Str(as[3], "uuid"), "published")

	wantCodes(t, "status asc, code desc", listCodes(t, c, Q("status[order]", "asc", "code[order]", "desc")), "c", "a", "d", "b")
	wantCodes(t, "code desc, status asc", listCodes(t, c, Q("code[order]", "desc", "status[order]", "asc")), "d", "c", "b", "a")
	wantCodes(t, "status desc, code asc", listCodes(t, c, Q("status[order]", "desc", "code[order]", "asc")), "b", "d", "a", "c")
	wantCodes(t, "raw brackets: status asc, code desc", codesOf(list(t, c, "?status[order]=asc&code[order]=desc").Items()), "c", "a", "d", "b")
	wantCodes(t, "with filters in between", listCodes(t, c, Q("status[order]", "desc", "size", "10", "code[order]", "desc")), "d", "b", "c", "a")
	// The same order field twice is refused.
	r := c.Get("/v1/attributes?code[order]=asc&code[order]=desc")
	WantProblem(t, r, 400, "MALFORMED_REQUEST", "code[order]")
}

func TestDefaultOrderCreatedAtThenUUID(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	// Sequential creates: createdAt order, not code order.
	createSpaced(t, c, "m", "z")
	// One bulk: every item shares createdAt; they come back by uuid.
	items := bulkCreate(t, c, "k", "b", "x", "a", "q")
	for _, it := range items[1:] {
		if it["createdAt"] != items[0]["createdAt"] {
			t.Fatalf("items of one bulk have different createdAt: %v vs %v", it["createdAt"], items[0]["createdAt"])
		}
	}
	createSpaced(t, c, "c")
	bulk := slices.Clone(items)
	slices.SortFunc(bulk, func(x, y map[string]any) int { return strings.Compare(Str(x, "uuid"), Str(y, "uuid")) })
	want := append(append([]string{"m", "z"}, codesOf(bulk)...), "c")
	wantCodes(t, "default order", listCodes(t, c, ""), want...)
	wantCodes(t, "explicit createdAt asc", listCodes(t, c, Q("createdAt[order]", "asc")), want...)
	// The same order holds across pages.
	var paged []string
	for p := 1; p <= 3; p++ {
		paged = append(paged, listCodes(t, c, Q("size", "3", "page", fmt.Sprint(p)))...)
	}
	wantCodes(t, "default order across pages", paged, want...)
}

// TestDefaultOrderTiesBreakOnUUID seeds rows with one createdAt and uuids inserted in descending
// order (so neither insertion order nor creation order is uuid order) and expects uuid order.
func TestDefaultOrderTiesBreakOnUUID(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	ids := []string{
		"f0000000-0000-4000-8000-000000000000",
		"80000000-0000-4000-8000-000000000000",
		"c0000000-0000-4000-8000-000000000000",
		"10000000-0000-4000-8000-000000000000",
		"40000000-0000-4000-8000-000000000000",
	}
	for i, id := range ids {
		_, err := db(t).Exec(context.Background(),
			`INSERT INTO attributes (tenant_id, uuid, code, display_name, status, created_at, updated_at)
			 VALUES ($1, $2, $3, $3, 'draft', $4, $4)`, tenant, id, fmt.Sprintf("code-%d", i), now)
		if err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
	got := UUIDsOf(list(t, c, "").Items())
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("default order with equal createdAt: %v, want uuid order %v", got, want)
	}
	// And as a tie-break after an explicit order key with equal values.
	got = UUIDsOf(list(t, c, Q("status[order]", "asc")).Items())
	if !slices.Equal(got, want) {
		t.Errorf("status asc with equal statuses: %v, want uuid order %v", got, want)
	}
}

func TestPagination(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	codes := make([]string, 7)
	for i := range codes {
		codes[i] = fmt.Sprintf("p%02d", i)
	}
	bulkCreate(t, c, codes...)
	ordered := listCodes(t, c, Q("code[order]", "asc"))
	wantCodes(t, "all", ordered, codes...)

	r := list(t, c, Q("code[order]", "asc", "size", "3"))
	wantCodes(t, "page 1 (default)", codesOf(r.Items()), "p00", "p01", "p02")
	wantPagination(t, "page 1", r, 1, 3, 7, 3)
	r = list(t, c, Q("code[order]", "asc", "size", "3", "page", "2"))
	wantCodes(t, "page 2", codesOf(r.Items()), "p03", "p04", "p05")
	wantPagination(t, "page 2", r, 2, 3, 7, 3)
	r = list(t, c, Q("code[order]", "asc", "size", "3", "page", "3"))
	wantCodes(t, "page 3 (partial)", codesOf(r.Items()), "p06")
	wantPagination(t, "page 3", r, 3, 3, 7, 3)
	r = list(t, c, Q("code[order]", "asc", "size", "3", "page", "4"))
	if !strings.Contains(string(r.Raw), `"items":[]`) {
		t.Errorf("page past the end: items must be [], got %s", r.Raw)
	}
	wantPagination(t, "page past the end", r, 4, 3, 7, 3)
	r = list(t, c, Q("page", "1000"))
	wantPagination(t, "far past the end", r, 1000, 20, 7, 1)

	// totalPages is ceil(totalItems/size).
	for size := 1; size <= 8; size++ {
		r := list(t, c, Q("size", fmt.Sprint(size)))
		pages := int(math.Ceil(7 / float64(size)))
		wantPagination(t, fmt.Sprintf("size %d", size), r, 1, size, 7, pages)
		if n := len(r.Items()); n != min(size, 7) {
			t.Errorf("size %d: %d items", size, n)
		}
	}
	wantPagination(t, "size=100", list(t, c, Q("size", "100")), 1, 100, 7, 1)
	wantPagination(t, "default size", list(t, c, ""), 1, 20, 7, 1)
	// Filters count in totalItems.
	wantPagination(t, "filtered", list(t, c, Q("code[ends]", "1", "size", "1")), 1, 1, 1, 1)
}

func TestPaginationOver100(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	var first, second []map[string]any
	for i := 0; i < 100; i++ {
		first = append(first, map[string]any{"code": fmt.Sprintf("a%03d", i)})
	}
	for i := 100; i < 105; i++ {
		second = append(second, map[string]any{"code": fmt.Sprintf("a%03d", i)})
	}
	Want(t, c.Post("/v1/attributes/bulk", first), 201)
	Want(t, c.Post("/v1/attributes/bulk", second), 201)
	r := list(t, c, Q("size", "100", "code[order]", "asc"))
	if n := len(r.Items()); n != 100 {
		t.Errorf("size=100: %d items", n)
	}
	wantPagination(t, "size=100 of 105", r, 1, 100, 105, 2)
	r = list(t, c, Q("size", "100", "page", "2", "code[order]", "asc"))
	wantCodes(t, "page 2 of 105", codesOf(r.Items()), "a100", "a101", "a102", "a103", "a104")
	wantPagination(t, "default size of 105", list(t, c, ""), 1, 20, 105, 6)
}

func TestListParameterErrors(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	create(t, c, "x")
	for _, tc := range []struct {
		query, code, field string
	}{
		{Q("size", "101"), "VALIDATION_FAILED", "size"},
		{Q("size", "0"), "VALIDATION_FAILED", "size"},
		{Q("size", "-1"), "VALIDATION_FAILED", "size"},
		{Q("page", "0"), "VALIDATION_FAILED", "page"},
		{Q("page", "-3"), "VALIDATION_FAILED", "page"},
		{Q("page", "abc"), "MALFORMED_REQUEST", "page"},
		{Q("size", "ten"), "MALFORMED_REQUEST", "size"},
		{Q("size", "1.5"), "MALFORMED_REQUEST", "size"},
		{Q("page", "99999999999"), "MALFORMED_REQUEST", "page"},
		{Q("foo", "1"), "MALFORMED_REQUEST", "foo"},
		{Q("code", "x"), "MALFORMED_REQUEST", "code"},
		{Q("code[like]", "x"), "MALFORMED_REQUEST", "code[like]"},
		{Q("codes[contains]", "x"), "MALFORMED_REQUEST", "codes[contains]"},
		{Q("status[eq]", "draft"), "MALFORMED_REQUEST", "status[eq]"},
		{Q("createdAt[min]", "yesterday"), "MALFORMED_REQUEST", "createdAt[min]"},
		{Q("createdAt[eq]", "2026-01-02"), "MALFORMED_REQUEST", "createdAt[eq]"},
		{Q("updatedAt[max]", "not-a-time"), "MALFORMED_REQUEST", "updatedAt[max]"},
		{Q("isRemoved[eq]", "maybe"), "MALFORMED_REQUEST", "isRemoved[eq]"},
		{Q("include[contents]", "yes"), "MALFORMED_REQUEST", "include[contents]"},
		{Q("expand[contents]", "2"), "MALFORMED_REQUEST", "expand[contents]"},
		{Q("include[terms]", "true"), "MALFORMED_REQUEST", "include[terms]"},
		{Q("page", "1", "page", "2"), "MALFORMED_REQUEST", "page"},
	} {
		r := c.Get("/v1/attributes" + tc.query)
		if r.Status != 400 {
			t.Errorf("GET %s: status %d, want 400; %s", tc.query, r.Status, r.Raw)
			continue
		}
		p := WantProblem(t, r, 400, tc.code)
		if !slices.Contains(ProblemFields(p), tc.field) {
			t.Errorf("GET %s: errors %v do not name %q", tc.query, p["errors"], tc.field)
		}
	}
}
