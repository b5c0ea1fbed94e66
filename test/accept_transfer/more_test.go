package accept_transfer

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// apiExample is API.md's example lines with the definitions they refer to (those lines are
// API.md's own, verbatim, apart from the product line's order in the file).
var apiExample = []string{
	`{"type":"product","code":"BOOT-1-RED","kind":"variant","family":"footwear","parent":"BOOT-1","brand":"acme","status":"active","categories":["boots"],"tags":["sale"],"attributes":{"color":["red"]},"values":[{"inputType":"title","locale":"de-DE","value":"Stiefel rot"},{"inputType":"price","channel":"web","value":{"amount":"89.90","currency":"EUR"}}],"assets":[{"asset":"boot-1-front","assetType":"gallery","displayPriority":0}],"relations":[{"relationType":"cross_sell","target":"SOCK-1"}],"publications":[{"channel":"web","status":"published"}]}`,
	`{"type":"locale","code":"de-DE"}`,
	`{"type":"attribute","code":"color","displayName":"Color","status":"published","contents":{"de-DE":{"displayName":"Farbe"}},"terms":[{"code":"red","displayName":"Red","contents":{"de-DE":{"displayName":"Rot"}}}]}`,
	`{"type":"category","code":"boots","parent":"shoes","position":2,"status":"active"}`,
	`{"type":"category","code":"shoes"}`,
	`{"type":"family","code":"footwear","attributes":[{"attribute":"color","requirementLevel":"required","appliesTo":"variant","isVariantAxis":true}],"inputTypes":[{"inputType":"title","requirementLevel":"required","appliesTo":"both"}]}`,
	`{"type":"channel","code":"web","locales":["de-DE"],"inputTypes":[{"inputType":"title","requirementLevel":"required","scoping":"global"}]}`,
	`{"type":"typeGroup","code":"main","entityType":"product"}`,
	`{"type":"inputType","code":"title","typeGroup":"main","dataType":"text","isLocalizable":true}`,
	`{"type":"inputType","code":"price","typeGroup":"main","dataType":"money"}`,
	`{"type":"brand","code":"acme"}`,
	`{"type":"tag","code":"sale"}`,
	`{"type":"productAssetType","code":"gallery"}`,
	`{"type":"productRelationType","code":"cross_sell","direction":"one_way"}`,
	`{"type":"asset","code":"boot-1-front","category":"image"}`,
	`{"type":"product","code":"SOCK-1","kind":"simple"}`,
	`{"type":"product","code":"BOOT-1","kind":"variant_parent","family":"footwear"}`,
}

// TestAPIExampleLines: API.md's example lines import (children inside their parent, contents,
// terms, family and channel links, a published variant) and round-trip through an export.
func TestAPIExampleLines(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(apiExample...)
	counts(t, im, len(apiExample), 0, 0, 0)
	if num(im, "failedCount") != 0 {
		t.Fatalf("lines: %v", a.lines(str(im, "uuid"), ""))
	}
	color := a.mustCode("/v1/attributes", "color")
	if str(color, "status") != "published" || str(color, "displayName") != "Color" {
		t.Errorf("attribute color: %v", color)
	}
	cs := a.all("/v1/attributes/" + str(color, "uuid") + "/contents")
	if len(cs) != 1 || str(cs[0], "displayName") != "Farbe" {
		t.Errorf("attribute color contents %v, want one with displayName Farbe", cs)
	}
	terms := a.all("/v1/attributes/" + str(color, "uuid") + "/terms")
	if len(terms) != 1 || str(terms[0], "code") != "red" || str(terms[0], "displayName") != "Red" {
		t.Fatalf("terms %v", terms)
	}
	tc := a.all("/v1/attributes/" + str(color, "uuid") + "/terms/" + str(terms[0], "uuid") + "/contents")
	if len(tc) != 1 || str(tc[0], "displayName") != "Rot" {
		t.Errorf("term red contents %v", tc)
	}
	fam := a.mustCode("/v1/families", "footwear")
	if fa := a.all("/v1/families/" + str(fam, "uuid") + "/attributes"); len(fa) != 1 || fa[0]["isVariantAxis"] != true || str(fa[0], "appliesTo") != "variant" {
		t.Errorf("family attributes %v", fa)
	}
	if fi := a.all("/v1/families/" + str(fam, "uuid") + "/input-types"); len(fi) != 1 || str(fi[0], "requirementLevel") != "required" {
		t.Errorf("family input types %v", fi)
	}
	web := a.mustCode("/v1/channels", "web")
	if ci := a.all("/v1/channels/" + str(web, "uuid") + "/input-types"); len(ci) != 1 || str(ci[0], "scoping") != "global" {
		t.Errorf("channel input types %v", ci)
	}
	boot := a.product("BOOT-1-RED")
	if boot.status != "active" || len(boot.values) != 2 {
		t.Errorf("BOOT-1-RED status %q values %v", boot.status, boot.values)
	}
	pubs := a.all("/v1/products/" + boot.uuid + "/publications")
	if len(pubs) != 1 || str(pubs[0], "status") != "published" {
		t.Errorf("BOOT-1-RED publications %v", pubs)
	}
	if as := a.all("/v1/products/" + boot.uuid + "/assets"); len(as) != 1 {
		t.Errorf("BOOT-1-RED assets %v", as)
	}
	if rs := a.all("/v1/products/" + boot.uuid + "/relations"); len(rs) != 1 || str(rs[0], "targetProductUuid") != a.uuidOf("/v1/products", "SOCK-1") {
		t.Errorf("BOOT-1-RED relations %v", rs)
	}

	// A publication that is not ready fails its line with the readiness list, and only it.
	im = a.importNDJSON(
		`{"type":"product","code":"SOCK-2","kind":"simple","status":"active","publications":[{"channel":"web","status":"published"}]}`,
		`{"type":"tag","code":"after"}`)
	counts(t, im, 1, 0, 0, 1)
	if a.byCode("/v1/products", "SOCK-2") != nil {
		t.Errorf("the line whose publication is not ready created its product")
	}
	ls := a.lines(str(im, "uuid"), "")
	if len(ls) != 1 {
		t.Fatalf("lines %v", ls)
	}
	raw, _ := json.Marshal(ls[0]["errors"])
	if !strings.Contains(string(raw), "REQUIREMENTS_NOT_MET") || !strings.Contains(string(raw), "title") {
		t.Errorf("not-ready line errors %s, want REQUIREMENTS_NOT_MET with the readiness list (naming title)", raw)
	}

	// The round trip keeps contents, terms and links.
	_, file := a.export(map[string]any{"format": "ndjson"})
	checkReferencedBeforeUse(t, nonEmptyLines(file))
	b := newTenant(t)
	imB := b.importNDJSON(strings.TrimRight(string(file), "\n"))
	if num(imB, "failedCount") != 0 {
		t.Errorf("importing the export: %v", b.lines(str(imB, "uuid"), ""))
	}
	_, fileB := b.export(map[string]any{"format": "ndjson"})
	if string(fileB) != string(file) {
		t.Errorf("round trip differs:\nA: %s\nB: %s", file, fileB)
	}
}

// newEvents is the event types recorded after n earlier ones, without the jobs' own, sorted.
func newEvents(all []string, n int) []string {
	var out []string
	for _, e := range all[n:] {
		if !strings.HasPrefix(e, "import.") && !strings.HasPrefix(e, "export.") {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	return out
}

// TestImportEventsAreTheAPIs: a line emits the same events as the same change made through the API.
func TestImportEventsAreTheAPIs(t *testing.T) {
	x := newTenant(t)
	counts(t, x.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	n := len(x.eventTypes())
	im := x.importNDJSON(`{"type":"tag","code":"t9"}`,
		`{"type":"product","code":"P1","tags":["sale","t9"],"values":[{"inputType":"weight","value":9},{"inputType":"weight","channel":"web","value":null}]}`)
	counts(t, im, 1, 1, 0, 0)
	byImport := newEvents(x.eventTypes(), n)

	y := newTenant(t)
	counts(t, y.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	ids := y.fixtureIDs()
	n = len(y.eventTypes())
	p := y.product("P1")
	t9 := str(want(t, y.do("POST", "/v1/tags", map[string]any{"code": "t9"}), 201, "create tag").obj(), "uuid")
	for _, l := range y.all("/v1/products/" + p.uuid + "/tags") {
		if str(l, "tagUuid") == ids.neu {
			want(t, y.do("DELETE", "/v1/products/"+p.uuid+"/tags/"+str(l, "uuid"), nil), 204, "unlink tag")
		}
	}
	want(t, y.do("POST", "/v1/products/"+p.uuid+"/tags", map[string]any{"tagUuid": t9}), 201, "link tag")
	for _, iv := range y.all("/v1/products/" + p.uuid + "/input-values") {
		if str(iv, "inputTypeUuid") != ids.weight {
			continue
		}
		if str(iv, "channelUuid") == "" {
			want(t, y.do("PATCH", "/v1/products/"+p.uuid+"/input-values/"+str(iv, "uuid"), map[string]any{"value": 9}), 200, "update value")
		} else {
			want(t, y.do("DELETE", "/v1/products/"+p.uuid+"/input-values/"+str(iv, "uuid"), nil), 204, "delete value")
		}
	}
	byAPI := newEvents(y.eventTypes(), n)
	if !contains(byImport, "tag.created") || len(byImport) < 3 {
		t.Errorf("events of an import line creating a tag, relinking tags and changing values: %v", byImport)
	}
	t.Logf("events: %v", byImport)
	if strings.Join(byImport, ",") != strings.Join(byAPI, ",") {
		t.Errorf("events of an import line %v, of the same change through the API %v", byImport, byAPI)
	}
}

// TestImportEventPayloads: the job's events carry the thin payload naming the import.
func TestImportEventPayloads(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(fixture[:2]...)
	for _, typ := range []string{"import.created", "import.completed"} {
		r := want(t, a.get("/v1/events?types[eq]="+url.QueryEscape(typ)), 200, "events by type")
		its := r.items()
		if len(its) != 1 {
			t.Errorf("%s: %d events, want 1: %s", typ, len(its), r)
			continue
		}
		pl, _ := its[0]["payload"].(map[string]any)
		if str(pl, "importUuid") != str(im, "uuid") {
			t.Errorf("%s payload %v, want importUuid %s (thin payload keyed by path parameter)", typ, pl, str(im, "uuid"))
		}
	}
}
