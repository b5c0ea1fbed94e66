package localization

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

var termKeys = []string{"uuid", "createdAt", "updatedAt", "attributeUuid", "code", "displayName", "position"}

// wantTermShape checks a term: the fixed keys, and contentUuids/contents (if present) null unless asked for.
func wantTermShape(t *testing.T, what string, obj map[string]any, attr string) {
	t.Helper()
	WantCommon(t, what, obj)
	rest := map[string]any{}
	for k, v := range obj {
		if !slices.Contains(termKeys, k) {
			rest[k] = v
		}
	}
	for _, k := range termKeys {
		if _, ok := obj[k]; !ok {
			t.Errorf("%s: no %s in %v", what, k, obj)
		}
	}
	for k, v := range rest {
		if (k != "contentUuids" && k != "contents") || v != nil {
			t.Errorf("%s: unexpected %s=%v", what, k, v)
		}
	}
	if obj["attributeUuid"] != attr {
		t.Errorf("%s: attributeUuid %v, want %s", what, obj["attributeUuid"], attr)
	}
}

func TestTermShapeAndDefaults(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := mkAttr(t, c, "color")
	r := Want(t, c.Post(terms(a), map[string]any{"code": "red"}), 201)
	red := r.Obj()
	wantTermShape(t, "create", red, a)
	if red["code"] != "red" || red["displayName"] != "red" || red["position"] != float64(0) || red["createdAt"] != red["updatedAt"] {
		t.Errorf("created %v; want displayName = code and position 0", red)
	}
	if loc := r.Header.Get("Location"); loc != terms(a)+"/"+Str(red, "uuid") {
		t.Errorf("Location %q", loc)
	}
	g := Want(t, c.Get(terms(a)+"/"+Str(red, "uuid")), 200)
	wantTermShape(t, "get", g.Obj(), a)
	for _, k := range termKeys {
		if fmt.Sprint(g.Obj()[k]) != fmt.Sprint(red[k]) {
			t.Errorf("get %s=%v, create answered %v", k, g.Obj()[k], red[k])
		}
	}

	blue := mkTerm(t, c, a, "blue", "displayName", "Blue", "position", 7)
	if blue["displayName"] != "Blue" || blue["position"] != float64(7) {
		t.Errorf("created %v", blue)
	}
	neg := mkTerm(t, c, a, "neg", "position", -3)
	if neg["position"] != float64(-3) {
		t.Errorf("negative position: %v", neg)
	}

	res := Want(t, c.Post(terms(a)+"/bulk", []any{
		map[string]any{"code": "s", "position": 2},
		map[string]any{"code": "m", "displayName": "Medium"},
	}), 201).Objs()
	if len(res) != 2 || res[0]["code"] != "s" || res[0]["displayName"] != "s" || res[0]["position"] != float64(2) ||
		res[1]["code"] != "m" || res[1]["displayName"] != "Medium" || res[1]["position"] != float64(0) {
		t.Errorf("bulk create answered %v", res)
	}
	for _, x := range res {
		wantTermShape(t, "bulk item", x, a)
	}
	for _, x := range listAll(t, c, terms(a)) {
		wantTermShape(t, "list item", x, a)
	}
	WantTotal(t, c, terms(a), 5)

	// Validation.
	WantProblem(t, c.Post(terms(a), map[string]any{"displayName": "x"}), 400, "VALIDATION_FAILED", "code")
	WantProblem(t, c.Post(terms(a), map[string]any{"code": ""}), 400, "VALIDATION_FAILED", "code")
	WantProblem(t, c.Post(terms(a), map[string]any{"code": strings.Repeat("c", 101)}), 400, "VALIDATION_FAILED", "code")
	WantProblem(t, c.Post(terms(a), map[string]any{"code": "x", "displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Post(terms(a), map[string]any{"code": "x", "displayName": strings.Repeat("d", 101)}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Post(terms(a), map[string]any{"code": "x", "position": "first"}), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Post(terms(a), map[string]any{"code": "x", "position": 1.5}), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Post(terms(a), map[string]any{"code": "x", "colour": 1}), 400, "MALFORMED_REQUEST")
	WantTotal(t, c, terms(a), 5)
	long := mkTerm(t, c, a, strings.Repeat("ß", 100))
	if long["displayName"] != strings.Repeat("ß", 100) {
		t.Errorf("100-character code: %v", long)
	}

	// Unknown attribute.
	missing := "0190aaaa-0000-7000-8000-000000000000"
	WantProblem(t, c.Get(terms(missing)), 404, "NOT_FOUND")
	WantProblem(t, c.Post(terms(missing), map[string]any{"code": "x"}), 404, "NOT_FOUND")
	WantProblem(t, c.Post(terms(missing)+"/bulk", []any{map[string]any{"code": "x"}}), 404, "NOT_FOUND")
	WantProblem(t, c.Get(terms(missing)+"/"+Str(red, "uuid")), 404, "NOT_FOUND")
	WantProblem(t, c.Patch(terms(missing)+"/"+Str(red, "uuid"), map[string]any{"code": "x"}), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(terms(missing)+"/"+Str(red, "uuid")), 404, "NOT_FOUND")
	WantProblem(t, c.Get(terms(a)+"/"+missing), 404, "NOT_FOUND")
	SoftProblem(t, c.Patch(terms(missing)+"/bulk", []any{map[string]any{"uuid": Str(red, "uuid"), "code": "x"}}), 404, "NOT_FOUND")
}

func TestTermCodeUniqueWithinAttribute(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a, b := mkAttr(t, c, "color"), mkAttr(t, c, "finish")
	red := mkTerm(t, c, a, "red")
	blue := mkTerm(t, c, a, "blue")

	WantProblem(t, c.Post(terms(a), map[string]any{"code": "red"}), 409, "ALREADY_EXISTS", "code")
	WantProblem(t, c.Post(terms(a)+"/bulk", []any{map[string]any{"code": "green"}, map[string]any{"code": "red"}}), 409, "ALREADY_EXISTS", "[1].code")
	WantProblem(t, c.Post(terms(a)+"/bulk", []any{map[string]any{"code": "green"}, map[string]any{"code": "white"}, map[string]any{"code": "green"}}), 409, "ALREADY_EXISTS", "[2].code")
	WantTotal(t, c, terms(a), 2)
	WantProblem(t, c.Patch(terms(a)+"/"+Str(blue, "uuid"), map[string]any{"code": "red"}), 409, "ALREADY_EXISTS", "code")
	if g := Want(t, c.Get(terms(a)+"/"+Str(blue, "uuid")), 200).Obj(); g["code"] != "blue" {
		t.Errorf("refused update changed the term: %v", g)
	}

	// The same code in another attribute is fine.
	red2 := mkTerm(t, c, b, "red")
	if red2["attributeUuid"] != b || red2["uuid"] == red["uuid"] {
		t.Errorf("term of the second attribute: %v", red2)
	}
	Want(t, c.Post(terms(b)+"/bulk", []any{map[string]any{"code": "blue"}}), 201)
	WantTotal(t, c, terms(b), 2)
	WantTotal(t, c, terms(a), 2)
	// ... and so is renaming onto a code only the other attribute uses.
	Want(t, c.Patch(terms(a)+"/"+Str(blue, "uuid"), map[string]any{"code": "matte"}), 200)
	Want(t, c.Patch(terms(b)+"/"+Str(red2, "uuid"), map[string]any{"code": "matte"}), 200)
}

func TestTermUpdate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := mkAttr(t, c, "size")
	tm := mkTerm(t, c, a, "xl", "displayName", "Extra large", "position", 4)
	p := terms(a) + "/" + Str(tm, "uuid")
	time.Sleep(2 * time.Millisecond)

	u := Want(t, c.Patch(p, map[string]any{"position": 9}), 200).Obj()
	wantTermShape(t, "update", u, a)
	if u["position"] != float64(9) || u["code"] != "xl" || u["displayName"] != "Extra large" || u["createdAt"] != tm["createdAt"] || !(Str(u, "updatedAt") > Str(tm, "updatedAt")) {
		t.Errorf("position update: %v", u)
	}
	u = Want(t, c.Patch(p, map[string]any{"code": "XL", "displayName": nil, "position": nil}), 200).Obj()
	if u["code"] != "XL" || u["displayName"] != "Extra large" || u["position"] != float64(9) {
		t.Errorf("code update with nulls: %v", u)
	}
	u = Want(t, c.Patch(p, map[string]any{"displayName": "XL", "position": 0}), 200).Obj()
	if u["displayName"] != "XL" || u["position"] != float64(0) {
		t.Errorf("displayName and position 0: %v", u)
	}
	u = Want(t, c.Patch(p, map[string]any{}), 200).Obj()
	if u["code"] != "XL" || u["displayName"] != "XL" || u["position"] != float64(0) {
		t.Errorf("empty update: %v", u)
	}
	WantProblem(t, c.Patch(p, map[string]any{"code": ""}), 400, "VALIDATION_FAILED", "code")
	WantProblem(t, c.Patch(p, map[string]any{"displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Patch(p, map[string]any{"attributeUuid": a}), 400, "MALFORMED_REQUEST")
	g := Want(t, c.Get(p), 200).Obj()
	if g["code"] != "XL" || g["displayName"] != "XL" || g["position"] != float64(0) {
		t.Errorf("after refused updates: %v", g)
	}

	// Delete: 204, gone, its contents gone with it.
	en := Str(mkLocale(t, c, "en-US"), "uuid")
	tc := mkContent(t, c, termContents(a, Str(tm, "uuid")), en, "Extra large")
	r := Want(t, c.Delete(p), 204)
	if len(r.Raw) != 0 {
		t.Errorf("delete answered a body: %q", r.Raw)
	}
	WantProblem(t, c.Get(p), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(p), 404, "NOT_FOUND")
	WantProblem(t, c.Patch(p, map[string]any{"position": 1}), 404, "NOT_FOUND")
	WantProblem(t, c.Get(termContents(a, Str(tm, "uuid"))+"/"+Str(tc, "uuid")), 404, "NOT_FOUND")
	WantTotal(t, c, terms(a), 0)
	// The locale is no longer used.
	mkLocale(t, c, "de-DE", "isDefault", true)
	Want(t, c.Delete("/v1/locales/"+en), 204)
}

// TestTermBulkUpdate: PATCH /v1/attributes/{attributeUuid}/terms/bulk.
func TestTermBulkUpdate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := mkAttr(t, c, "size")
	s := mkTerm(t, c, a, "s", "position", 1)
	m := mkTerm(t, c, a, "m", "position", 2)
	res := Want(t, c.Patch(terms(a)+"/bulk", []any{
		map[string]any{"uuid": Str(m, "uuid"), "position": 0, "displayName": "Medium"},
		map[string]any{"uuid": Str(s, "uuid"), "code": "small", "displayName": nil},
	}), 200).Objs()
	if len(res) != 2 || res[0]["uuid"] != m["uuid"] || res[0]["position"] != float64(0) || res[0]["displayName"] != "Medium" ||
		res[1]["uuid"] != s["uuid"] || res[1]["code"] != "small" || res[1]["displayName"] != "s" || res[1]["position"] != float64(1) {
		t.Errorf("bulk update answered %v", res)
	}
	WantProblem(t, c.Patch(terms(a)+"/bulk", []any{map[string]any{"uuid": Str(m, "uuid"), "position": 5}, map[string]any{"uuid": Str(s, "uuid"), "code": "m"}}), 409, "ALREADY_EXISTS", "[1].code")
	WantProblem(t, c.Patch(terms(a)+"/bulk", []any{map[string]any{"uuid": Str(m, "uuid"), "position": 5}, map[string]any{"uuid": Str(s, "uuid"), "code": ""}}), 400, "VALIDATION_FAILED", "[1].code")
	WantProblem(t, c.Patch(terms(a)+"/bulk", []any{map[string]any{"uuid": Str(m, "uuid"), "position": 5}, map[string]any{"uuid": "0190aaaa-0000-7000-8000-000000000000"}}), 404, "NOT_FOUND", "[1].uuid")
	if g := Want(t, c.Get(terms(a)+"/"+Str(m, "uuid")), 200).Obj(); g["position"] != float64(0) {
		t.Errorf("refused bulk updates changed item [0]: %v", g)
	}
}

func TestTermListFilters(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := mkAttr(t, c, "size")
	other := mkAttr(t, c, "other")
	mkTerm(t, c, other, "xs", "position", 2) // never listed under a
	xs := mkTerm(t, c, a, "xs", "displayName", "Extra small", "position", 3)
	time.Sleep(2 * time.Millisecond)
	bulk := Want(t, c.Post(terms(a)+"/bulk", []any{
		map[string]any{"code": "s", "displayName": "Small", "position": 1},
		map[string]any{"code": "m", "displayName": "Medium"},
	}), 201).Objs()
	s, m := bulk[0], bulk[1]
	time.Sleep(2 * time.Millisecond)
	l := mkTerm(t, c, a, "l_1", "displayName", "Large 100%", "position", 2)
	time.Sleep(2 * time.Millisecond)
	xl := mkTerm(t, c, a, "xl", "displayName", "Extra large", "position", 10)
	id := func(m map[string]any) string { return Str(m, "uuid") }
	T := terms(a)

	pair := []string{id(s), id(m)}
	slices.Sort(pair)
	WantUUIDs(t, c, T, true, id(xs), pair[0], pair[1], id(l), id(xl))
	WantUUIDs(t, c, T+Q("uuids[eq]", id(s), "uuids[eq]", id(xl)), false, id(s), id(xl))
	WantUUIDs(t, c, T+Q("codes[eq]", "xs", "codes[eq]", "m"), false, id(xs), id(m))
	WantUUIDs(t, c, T+Q("code[contains]", "X"), false, id(xs), id(xl))
	WantUUIDs(t, c, T+Q("code[starts]", "x"), false, id(xs), id(xl))
	WantUUIDs(t, c, T+Q("code[ends]", "_1"), false, id(l))
	WantUUIDs(t, c, T+Q("code[contains]", "_"), false, id(l))
	WantUUIDs(t, c, T+Q("displayNames[eq]", "Small", "displayNames[eq]", "Medium"), false, id(s), id(m))
	WantUUIDs(t, c, T+Q("displayName[contains]", "extra"), false, id(xs), id(xl))
	WantUUIDs(t, c, T+Q("displayName[starts]", "l"), false, id(l))
	WantUUIDs(t, c, T+Q("displayName[ends]", "ALL"), false, id(xs), id(s))
	WantUUIDs(t, c, T+Q("displayName[contains]", "0%"), false, id(l))
	WantUUIDs(t, c, T+Q("position[eq]", "2"), false, id(l))
	WantUUIDs(t, c, T+Q("position[eq]", "0"), false, id(m))
	WantUUIDs(t, c, T+Q("position[min]", "2"), false, id(xs), id(l), id(xl))
	WantUUIDs(t, c, T+Q("position[max]", "2"), false, id(s), id(m), id(l))
	WantUUIDs(t, c, T+Q("position[min]", "1", "position[max]", "3"), false, id(s), id(l), id(xs))
	WantUUIDs(t, c, T+Q("position[min]", "11"), false)
	ca := Str(s, "createdAt")
	WantUUIDs(t, c, T+Q("createdAt[eq]", ca), false, id(s), id(m))
	WantUUIDs(t, c, T+Q("createdAt[min]", ca, "createdAt[max]", Str(l, "createdAt")), false, id(s), id(m), id(l))
	WantUUIDs(t, c, T+Q("createdAt[max]", Str(xs, "createdAt")), false, id(xs))
	time.Sleep(2 * time.Millisecond)
	u := Want(t, c.Patch(T+"/"+id(m), map[string]any{"position": 5}), 200).Obj()
	WantUUIDs(t, c, T+Q("updatedAt[eq]", Str(u, "updatedAt")), false, id(m))
	WantUUIDs(t, c, T+Q("updatedAt[min]", Str(u, "updatedAt")), false, id(m))
	WantUUIDs(t, c, T+Q("updatedAt[max]", Str(l, "updatedAt")), false, id(xs), id(s), id(l))

	// Order (m is now at position 5).
	WantUUIDs(t, c, T+Q("position[order]", "asc"), true, id(s), id(l), id(xs), id(m), id(xl))
	WantUUIDs(t, c, T+Q("position[order]", "desc"), true, id(xl), id(m), id(xs), id(l), id(s))
	WantUUIDs(t, c, T+Q("code[order]", "asc"), true, id(l), id(m), id(s), id(xl), id(xs))
	WantUUIDs(t, c, T+Q("displayName[order]", "desc"), true, id(s), id(m), id(l), id(xs), id(xl))
	WantUUIDs(t, c, T+Q("createdAt[order]", "desc", "code[order]", "desc"), true, id(xl), id(l), id(s), id(m), id(xs))
	WantUUIDs(t, c, T+Q("updatedAt[order]", "desc"), true, id(m), id(xl), id(l), id(s), id(xs))
	Want(t, c.Patch(T+"/"+id(xl), map[string]any{"position": 5}), 200)
	WantUUIDs(t, c, T+Q("position[order]", "desc", "code[order]", "asc"), true, id(m), id(xl), id(xs), id(l), id(s))

	p := Want(t, c.Get(T+Q("size", "2", "page", "2", "position[order]", "asc")), 200)
	wantPage(t, p, 2, 2, 5, 3)
	if got := UUIDsOf(p.Items()); len(got) != 2 || got[0] != id(xs) {
		t.Errorf("page 2: %v", got)
	}
	for _, bad := range []struct{ query, field string }{
		{Q("position[eq]", "two"), "position[eq]"},
		{Q("position[min]", "1.5"), "position[min]"},
		{Q("position[contains]", "1"), "position[contains]"},
		{Q("isDefault[eq]", "true"), "isDefault[eq]"},
		{Q("include[colour]", "true"), "include[colour]"},
	} {
		r := c.Get(T + bad.query)
		if r.Status != 400 {
			t.Errorf("GET %s: %d, want 400: %s", bad.query, r.Status, r.Raw)
			continue
		}
		WantProblem(t, r, 400, Str(r.Obj(), "code"), bad.field)
	}
}

func TestTermIncludeExpandContents(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	en := Str(mkLocale(t, c, "en-US"), "uuid")
	de := Str(mkLocale(t, c, "de-DE"), "uuid")
	a := mkAttr(t, c, "color")
	red := Str(mkTerm(t, c, a, "red", "position", 1), "uuid")
	blue := Str(mkTerm(t, c, a, "blue", "position", 2), "uuid")
	cEn := mkContent(t, c, termContents(a, red), en, "Red", "description", "like fire")
	cDe := mkContent(t, c, termContents(a, red), de, "Rot")
	ids := []string{Str(cEn, "uuid"), Str(cDe, "uuid")}

	checkTerm := func(what string, term map[string]any, wantIDs []string, include, expand bool) {
		t.Helper()
		cu, hasCU := term["contentUuids"]
		cs, hasCS := term["contents"]
		if include {
			arr, ok := cu.([]any)
			if !ok {
				t.Errorf("%s: contentUuids %v, want an array", what, cu)
			} else {
				var got []string
				for _, x := range arr {
					got = append(got, fmt.Sprint(x))
				}
				if !SameSet(got, wantIDs) {
					t.Errorf("%s: contentUuids %v, want %v", what, got, wantIDs)
				}
			}
		} else if hasCU && cu != nil {
			t.Errorf("%s: contentUuids %v without include", what, cu)
		}
		if expand {
			arr, ok := cs.([]any)
			if !ok {
				t.Errorf("%s: contents %v, want an array", what, cs)
				return
			}
			var got []string
			for _, x := range arr {
				obj := x.(map[string]any)
				got = append(got, Str(obj, "uuid"))
				WantKeys(t, what+" content", obj, "uuid", "createdAt", "updatedAt", "attributeUuid", "termUuid", "localeUuid", "displayName", "description")
				full := Want(t, c.Get(termContents(a, Str(term, "uuid"))+"/"+Str(obj, "uuid")), 200).Obj()
				if fmt.Sprint(full) != fmt.Sprint(obj) {
					t.Errorf("%s: expanded content %v differs from its GET %v", what, obj, full)
				}
			}
			if !SameSet(got, wantIDs) {
				t.Errorf("%s: contents %v, want %v", what, got, wantIDs)
			}
		} else if hasCS && cs != nil {
			t.Errorf("%s: contents %v without expand", what, cs)
		}
	}
	for _, mode := range []struct {
		query           string
		include, expand bool
	}{
		{"", false, false},
		{Q("include[contents]", "true"), true, false},
		{Q("expand[contents]", "true"), false, true},
		{Q("include[contents]", "true", "expand[contents]", "true"), true, true},
		{Q("include[contents]", "false", "expand[contents]", "false"), false, false},
	} {
		g := Want(t, c.Get(terms(a)+"/"+red+mode.query), 200).Obj()
		checkTerm("get red "+mode.query, g, ids, mode.include, mode.expand)
		g = Want(t, c.Get(terms(a)+"/"+blue+mode.query), 200).Obj()
		checkTerm("get blue "+mode.query, g, nil, mode.include, mode.expand)

		sep := "?"
		if mode.query != "" {
			sep = "&"
		}
		items := Want(t, c.Get(terms(a)+mode.query+sep+"position[order]=asc"), 200).Items()
		if len(items) != 2 {
			t.Fatalf("list: %v", items)
		}
		checkTerm("list red "+mode.query, items[0], ids, mode.include, mode.expand)
		checkTerm("list blue "+mode.query, items[1], nil, mode.include, mode.expand)
	}
	if r := c.Get(terms(a) + "/" + red + Q("include[contents]", "yes")); r.Status != 400 {
		t.Errorf("include[contents]=yes: %d", r.Status)
	}
}

func TestAttributeIncludeExpandContents(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	en := Str(mkLocale(t, c, "en-US"), "uuid")
	de := Str(mkLocale(t, c, "de-DE"), "uuid")
	a, b := mkAttr(t, c, "color"), mkAttr(t, c, "size")
	cEn := mkContent(t, c, attrContents(a), en, "Colour", "description", "d")
	cDe := mkContent(t, c, attrContents(a), de, "Farbe")
	cB := mkContent(t, c, attrContents(b), de, "Größe")
	want := map[string][]map[string]any{a: {cEn, cDe}, b: {cB}}

	check := func(what string, attr map[string]any, include, expand bool) {
		t.Helper()
		id := Str(attr, "uuid")
		var wantIDs []string
		for _, x := range want[id] {
			wantIDs = append(wantIDs, Str(x, "uuid"))
		}
		cu, cs := attr["contentUuids"], attr["contents"]
		if include {
			arr, ok := cu.([]any)
			var got []string
			for _, x := range arr {
				got = append(got, fmt.Sprint(x))
			}
			if !ok || !SameSet(got, wantIDs) {
				t.Errorf("%s: contentUuids %v, want %v", what, cu, wantIDs)
			}
		} else if cu != nil {
			t.Errorf("%s: contentUuids %v without include", what, cu)
		}
		if expand {
			arr, ok := cs.([]any)
			if !ok || len(arr) != len(wantIDs) {
				t.Errorf("%s: contents %v, want %d objects", what, cs, len(wantIDs))
				return
			}
			for _, x := range arr {
				obj := x.(map[string]any)
				var match map[string]any
				for _, w := range want[id] {
					if w["uuid"] == obj["uuid"] {
						match = w
					}
				}
				if fmt.Sprint(match) != fmt.Sprint(obj) {
					t.Errorf("%s: expanded content %v, want %v", what, obj, match)
				}
			}
		} else if cs != nil {
			t.Errorf("%s: contents %v without expand", what, cs)
		}
	}
	for _, mode := range []struct {
		query           string
		include, expand bool
	}{
		{"", false, false},
		{Q("include[contents]", "true"), true, false},
		{Q("expand[contents]", "true"), false, true},
		{Q("include[contents]", "true", "expand[contents]", "true"), true, true},
	} {
		for _, id := range []string{a, b} {
			check("get "+mode.query, Want(t, c.Get("/v1/attributes/"+id+mode.query), 200).Obj(), mode.include, mode.expand)
		}
		items := Want(t, c.Get("/v1/attributes"+mode.query), 200).Items()
		if len(items) != 2 {
			t.Fatalf("list: %v", items)
		}
		for _, it := range items {
			check("list "+mode.query, it, mode.include, mode.expand)
		}
	}

	// An attribute without contents has an empty list, not null, when asked for.
	empty := mkAttr(t, c, "material")
	g := Want(t, c.Get("/v1/attributes/"+empty+Q("include[contents]", "true", "expand[contents]", "true")), 200)
	if !bytes.Contains(g.Raw, []byte(`"contentUuids":[]`)) || !bytes.Contains(g.Raw, []byte(`"contents":[]`)) {
		t.Errorf("attribute without contents: %s", g.Raw)
	}
	// Deleting a content removes it from the hydrated attribute.
	Want(t, c.Delete(attrContents(a)+"/"+Str(cDe, "uuid")), 204)
	want[a] = []map[string]any{cEn}
	check("after delete", Want(t, c.Get("/v1/attributes/"+a+Q("include[contents]", "true", "expand[contents]", "true")), 200).Obj(), true, true)
}

// TestAttributeDeleteCascades: deleting an attribute deletes its contents, terms and term contents.
func TestAttributeDeleteCascades(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	mkLocale(t, c, "en-US")
	de := Str(mkLocale(t, c, "de-DE"), "uuid")
	a, keep := mkAttr(t, c, "color"), mkAttr(t, c, "size")
	ca := mkContent(t, c, attrContents(a), de, "Farbe")
	tm := Str(mkTerm(t, c, a, "red"), "uuid")
	tc := mkContent(t, c, termContents(a, tm), de, "Rot")
	kc := mkContent(t, c, attrContents(keep), de, "Größe")
	kt := Str(mkTerm(t, c, keep, "xl"), "uuid")

	Want(t, c.Delete("/v1/attributes/"+a), 204)
	WantProblem(t, c.Get("/v1/attributes/"+a), 404, "NOT_FOUND")
	WantProblem(t, c.Get(attrContents(a)+"/"+Str(ca, "uuid")), 404, "NOT_FOUND")
	WantProblem(t, c.Get(attrContents(a)), 404, "NOT_FOUND")
	WantProblem(t, c.Get(terms(a)+"/"+tm), 404, "NOT_FOUND")
	WantProblem(t, c.Get(terms(a)), 404, "NOT_FOUND")
	WantProblem(t, c.Get(termContents(a, tm)+"/"+Str(tc, "uuid")), 404, "NOT_FOUND")

	// The rows are gone, not merely unreachable: only the other attribute's remain.
	if n := CountRows(t, pool, "contents", tenant); n != 1 {
		t.Errorf("%d content rows left, want 1 (the other attribute's)", n)
	}
	if n := CountRows(t, pool, "attribute_terms", tenant); n != 1 {
		t.Errorf("%d term rows left, want 1", n)
	}
	Want(t, c.Get(attrContents(keep)+"/"+Str(kc, "uuid")), 200)
	Want(t, c.Get(terms(keep)+"/"+kt), 200)

	// A new attribute reusing the code starts empty.
	a2 := mkAttr(t, c, "color")
	WantTotal(t, c, attrContents(a2), 0)
	WantTotal(t, c, terms(a2), 0)

	// The locale is used only by the other attribute now; once that goes too, it can be deleted.
	WantProblem(t, c.Delete("/v1/locales/"+de), 409, "IN_USE")
	Want(t, c.Delete("/v1/attributes/"+keep), 204)
	Want(t, c.Delete("/v1/locales/"+de), 204)
}
