package accept_transfer

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fixture is a small catalog in NDJSON, in dependency order.
var fixture = []string{
	`{"type":"locale","code":"de-DE"}`,
	`{"type":"brand","code":"acme","displayName":"Acme"}`,
	`{"type":"tag","code":"sale"}`,
	`{"type":"tag","code":"new"}`,
	`{"type":"category","code":"shoes"}`,
	`{"type":"category","code":"boots","parent":"shoes","position":2}`,
	`{"type":"typeGroup","code":"main","entityType":"product"}`,
	`{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}`,
	`{"type":"inputType","code":"weight","typeGroup":"main","dataType":"integer"}`,
	`{"type":"channel","code":"web","locales":["de-DE"]}`,
	`{"type":"product","code":"P1","kind":"simple","brand":"acme","categories":["boots"],"tags":["sale","new"],"values":[{"inputType":"title","locale":"de-DE","value":"Stiefel"},{"inputType":"weight","value":3},{"inputType":"weight","channel":"web","value":5}]}`,
}

func reversed(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return out
}

// productLinks reads a product's category codes, tag codes and values by key.
type productView struct {
	uuid       string
	brandUUID  string
	status     string
	categories []string // uuids
	tags       []string // uuids
	values     map[string]any
	etag       string
	updatedAt  string
}

func (a *api) product(code string) productView {
	a.t.Helper()
	p := a.mustCode("/v1/products", code)
	u := str(p, "uuid")
	g := want(a.t, a.get("/v1/products/"+u), 200, "GET product")
	v := productView{uuid: u, brandUUID: str(g.obj(), "brandUuid"), status: str(g.obj(), "status"),
		etag: g.header.Get("ETag"), updatedAt: str(g.obj(), "updatedAt"), values: map[string]any{}}
	v.categories = fieldSet(a.all("/v1/products/"+u+"/categories"), "categoryUuid")
	v.tags = fieldSet(a.all("/v1/products/"+u+"/tags"), "tagUuid")
	for _, iv := range a.all("/v1/products/" + u + "/input-values") {
		v.values[str(iv, "inputTypeUuid")+"|"+str(iv, "channelUuid")+"|"+str(iv, "localeUuid")] = iv["value"]
	}
	return v
}

func sorted(xs ...string) []string {
	out := append([]string(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// ids of the fixture's resources in a tenant.
type ids struct{ de, acme, sale, neu, shoes, boots, title, weight, web string }

func (a *api) fixtureIDs() ids {
	a.t.Helper()
	return ids{
		de: a.uuidOf("/v1/locales", "de-DE"), acme: a.uuidOf("/v1/brands", "acme"),
		sale: a.uuidOf("/v1/tags", "sale"), neu: a.uuidOf("/v1/tags", "new"),
		shoes: a.uuidOf("/v1/categories", "shoes"), boots: a.uuidOf("/v1/categories", "boots"),
		title: a.uuidOf("/v1/input-types", "title"), weight: a.uuidOf("/v1/input-types", "weight"),
		web: a.uuidOf("/v1/channels", "web"),
	}
}

func numEq(v any, n float64) bool {
	switch x := v.(type) {
	case float64:
		return x == n
	case string:
		var f float64
		_, err := fmt.Sscan(x, &f)
		return err == nil && f == n
	}
	return false
}

// TestNDJSONUpsertByCodeInAnyOrder: lines create by code, refer by code, and may come in any order
// (every reference here is to a line further down).
func TestNDJSONUpsertByCodeInAnyOrder(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(reversed(fixture)...)
	counts(t, im, len(fixture), 0, 0, 0)
	if got := num(im, "linesRead"); got != float64(len(fixture)) {
		t.Errorf("linesRead %v, want %d", got, len(fixture))
	}
	x := a.fixtureIDs()
	boots := a.mustCode("/v1/categories", "boots")
	if str(boots, "parentUuid") != x.shoes || num(boots, "position") != 2 {
		t.Errorf("category boots: parentUuid %q position %v, want %q 2", str(boots, "parentUuid"), boots["position"], x.shoes)
	}
	if b := a.mustCode("/v1/brands", "acme"); str(b, "displayName") != "Acme" {
		t.Errorf("brand displayName %q, want Acme", str(b, "displayName"))
	}
	if it := a.mustCode("/v1/input-types", "title"); it["isLocalizable"] != true || str(it, "dataType") != "text" {
		t.Errorf("input type title: %v", it)
	}
	ch := a.mustCode("/v1/channels", "web")
	if !reflect.DeepEqual(ch["localeUuids"], []any{x.de}) {
		t.Errorf("channel web localeUuids %v, want [%s]", ch["localeUuids"], x.de)
	}
	p := a.product("P1")
	if p.brandUUID != x.acme {
		t.Errorf("P1 brandUuid %q, want acme %q", p.brandUUID, x.acme)
	}
	if !reflect.DeepEqual(p.categories, []string{x.boots}) {
		t.Errorf("P1 categories %v, want [boots]", p.categories)
	}
	if !reflect.DeepEqual(p.tags, sorted(x.sale, x.neu)) {
		t.Errorf("P1 tags %v, want sale,new", p.tags)
	}
	if len(p.values) != 3 || p.values[x.title+"||"+x.de] != "Stiefel" || !numEq(p.values[x.weight+"||"], 3) || !numEq(p.values[x.weight+"|"+x.web+"|"], 5) {
		t.Errorf("P1 values %v", p.values)
	}
}

// TestNDJSONPatchSetsValuesStatus: PATCH semantics, exact sets, merged values with null deleting
// one, and status through the lifecycle.
func TestNDJSONPatchSetsValuesStatus(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	x := a.fixtureIDs()

	// Absent fields are left alone; a given set becomes exactly that set.
	counts(t, a.importNDJSON(`{"type":"product","code":"P1","tags":["sale"]}`), 0, 1, 0, 0)
	p := a.product("P1")
	if !reflect.DeepEqual(p.tags, []string{x.sale}) {
		t.Errorf("tags after [sale]: %v, want exactly [sale]", p.tags)
	}
	if p.brandUUID != x.acme || !reflect.DeepEqual(p.categories, []string{x.boots}) || len(p.values) != 3 {
		t.Errorf("absent fields changed: brand %q categories %v values %v", p.brandUUID, p.categories, p.values)
	}
	counts(t, a.importNDJSON(`{"type":"product","code":"P1","categories":["shoes"],"tags":[]}`), 0, 1, 0, 0)
	p = a.product("P1")
	if !reflect.DeepEqual(p.categories, []string{x.shoes}) || len(p.tags) != 0 {
		t.Errorf("categories %v tags %v, want exactly [shoes] and none", p.categories, p.tags)
	}

	// Values merge by (inputType, channel, locale).
	counts(t, a.importNDJSON(`{"type":"product","code":"P1","values":[{"inputType":"weight","value":4}]}`), 0, 1, 0, 0)
	p = a.product("P1")
	if len(p.values) != 3 || !numEq(p.values[x.weight+"||"], 4) || !numEq(p.values[x.weight+"|"+x.web+"|"], 5) || p.values[x.title+"||"+x.de] != "Stiefel" {
		t.Errorf("values after merging weight=4: %v", p.values)
	}
	// "value": null deletes one.
	counts(t, a.importNDJSON(`{"type":"product","code":"P1","values":[{"inputType":"weight","channel":"web","value":null}]}`), 0, 1, 0, 0)
	p = a.product("P1")
	if _, ok := p.values[x.weight+"|"+x.web+"|"]; ok || len(p.values) != 2 {
		t.Errorf("values after deleting weight#web: %v, want the two others", p.values)
	}

	// status moves the product through its lifecycle; publications become exactly the given set.
	counts(t, a.importNDJSON(`{"type":"product","code":"P1","status":"active","publications":[{"channel":"web","status":"published"}]}`), 0, 1, 0, 0)
	p = a.product("P1")
	if p.status != "active" {
		t.Errorf("status %q, want active", p.status)
	}
	pubs := a.all("/v1/products/" + p.uuid + "/publications")
	if len(pubs) != 1 || str(pubs[0], "channelUuid") != x.web || str(pubs[0], "status") != "published" {
		t.Errorf("publications %v, want one published on web", pubs)
	}
	counts(t, a.importNDJSON(`{"type":"product","code":"P1","publications":[{"channel":"web","status":"unpublished"}]}`), 0, 1, 0, 0)
	pubs = a.all("/v1/products/" + p.uuid + "/publications")
	if len(pubs) != 1 || str(pubs[0], "status") != "unpublished" {
		t.Errorf("publications %v, want one unpublished on web", pubs)
	}
}

// TestNDJSONReimportIsFree: re-importing a file is a no-op: counted unchanged, no new updatedAt,
// no new ETag, no resource event.
func TestNDJSONReimportIsFree(t *testing.T) {
	a := newTenant(t)
	first := a.importNDJSON(fixture...)
	counts(t, first, len(fixture), 0, 0, 0)
	ev1 := a.eventTypes()
	for _, want := range []string{"import.created", "import.completed", "product.created", "brand.created", "category.created", "tag.created"} {
		if !contains(ev1, want) {
			t.Errorf("events after an import: no %s in %v", want, ev1)
		}
	}
	before := a.product("P1")
	cat := want(t, a.get("/v1/categories/"+a.uuidOf("/v1/categories", "boots")), 200, "GET category")

	second := a.importNDJSON(fixture...)
	counts(t, second, 0, 0, len(fixture), 0)
	after := a.product("P1")
	if after.etag == "" || after.etag != before.etag || after.updatedAt != before.updatedAt {
		t.Errorf("re-import changed P1: ETag %q→%q updatedAt %q→%q", before.etag, after.etag, before.updatedAt, after.updatedAt)
	}
	cat2 := want(t, a.get("/v1/categories/"+a.uuidOf("/v1/categories", "boots")), 200, "GET category")
	if cat.header.Get("ETag") != cat2.header.Get("ETag") || str(cat.obj(), "updatedAt") != str(cat2.obj(), "updatedAt") {
		t.Errorf("re-import changed category boots: %s → %s", cat.header.Get("ETag"), cat2.header.Get("ETag"))
	}
	ev2 := a.eventTypes()
	if len(ev2) < len(ev1) {
		t.Fatalf("events shrank: %d → %d", len(ev1), len(ev2))
	}
	for _, e := range ev2[len(ev1):] {
		if !strings.HasPrefix(e, "import.") {
			t.Errorf("re-import emitted %s (API.md: \"A line that changes nothing writes nothing: no event\")", e)
		}
	}
	if !contains(ev2[len(ev1):], "import.created") || !contains(ev2[len(ev1):], "import.completed") {
		t.Errorf("re-import job events %v, want import.created and import.completed", ev2[len(ev1):])
	}
}

// TestNDJSONFailedLines: a line is atomic and independent; an unknown reference fails its line with
// UNRESOLVED_REFERENCE naming the field and the code; failed lines are listed and filterable.
func TestNDJSONFailedLines(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	x := a.fixtureIDs()
	file := []string{
		`{"type":"tag","code":"t1"}`, // line 1 ok
		`{"type":"product","code":"P2","kind":"simple","brand":"nope","tags":["sale"]}`,                                  // 2 unresolved brand
		`{"type":"product","code":"P3","kind":"simple","tags":["sale"],"values":[{"inputType":"weight","value":"abc"}]}`, // 3 bad value: atomic, no P3
		`{"type":"product","code":"P1","tags":["t1"],"values":[{"inputType":"weight","value":"abc"}]}`,                   // 4 bad value on an existing product: tags stay
		`{"type":"brand","code":"b2"}`,                                          // 5 ok after failures
		`{"type":"product","code":"P4","kind":"simple","categories":["ghost"]}`, // 6 unresolved category
	}
	im := a.importNDJSON(file...)
	counts(t, im, 2, 0, 0, 4)
	if a.byCode("/v1/products", "P2") != nil || a.byCode("/v1/products", "P3") != nil || a.byCode("/v1/products", "P4") != nil {
		t.Errorf("a failed line created its product")
	}
	if p := a.product("P1"); !reflect.DeepEqual(p.tags, sorted(x.sale, x.neu)) {
		t.Errorf("a failed line changed P1's tags: %v", p.tags)
	}
	if a.byCode("/v1/brands", "b2") == nil || a.byCode("/v1/tags", "t1") == nil {
		t.Errorf("good lines around failed ones were not applied")
	}
	id := str(im, "uuid")
	ls := a.lines(id, "")
	byLine := map[int]map[string]any{}
	for _, l := range ls {
		byLine[int(num(l, "line"))] = l
	}
	if len(ls) != 4 {
		t.Errorf("lines: %d listed, want the 4 failed ones: %v", len(ls), ls)
	}
	check := func(n int, code, field, errCode, mention string) {
		t.Helper()
		l := byLine[n]
		if l == nil {
			t.Errorf("line %d not listed", n)
			return
		}
		if str(l, "type") != "product" || str(l, "code") != code || str(l, "status") != "failed" {
			t.Errorf("line %d: %v, want type product code %s status failed", n, l, code)
		}
		errs, _ := l["errors"].([]any)
		for _, e := range errs {
			m, _ := e.(map[string]any)
			if strings.HasPrefix(str(m, "field"), field) && str(m, "code") == errCode && str(m, "message") != "" &&
				(mention == "" || strings.Contains(str(m, "message"), mention) || strings.Contains(str(m, "field"), mention)) {
				return
			}
		}
		t.Errorf("line %d errors %v, want {field %q, code %q} naming %q", n, l["errors"], field, errCode, mention)
	}
	check(2, "P2", "brand", "UNRESOLVED_REFERENCE", "nope")
	check(6, "P4", "categories", "UNRESOLVED_REFERENCE", "ghost")
	for _, n := range []int{3, 4} {
		l := byLine[n]
		if l == nil || str(l, "status") != "failed" || len(l["errors"].([]any)) == 0 {
			t.Errorf("line %d: %v, want failed with errors", n, l)
		}
	}
	// Filters.
	if got := a.lines(id, "line[min]=3&line[max]=4"); len(got) != 2 {
		t.Errorf("line[min]=3&line[max]=4: %d lines, want 2", len(got))
	}
	if got := a.lines(id, "codes[eq]=P4"); len(got) != 1 || str(got[0], "code") != "P4" {
		t.Errorf("codes[eq]=P4: %v", got)
	}
	if got := a.lines(id, "types[eq]=product"); len(got) != 4 {
		t.Errorf("types[eq]=product: %d, want 4", len(got))
	}
	if got := a.lines(id, "types[eq]=brand"); len(got) != 0 {
		t.Errorf("types[eq]=brand: %d, want 0", len(got))
	}
	// Get one line (by its uuid, the common field of every resource).
	if l := byLine[2]; l != nil && str(l, "uuid") != "" {
		g := want(t, a.get("/v1/imports/"+id+"/lines/"+str(l, "uuid")), 200, "GET one import line")
		if num(g.obj(), "line") != 2 || str(g.obj(), "code") != "P2" {
			t.Errorf("GET line: %s", g)
		}
	} else {
		t.Errorf("listed line has no uuid: %v", l)
	}
}
