package attributes

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestCreateResponseShape(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	r := Want(t, c.Post("/v1/attributes", map[string]any{"code": "color"}), 201)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("content-type %q, want application/json", ct)
	}
	a := r.Obj()
	wantAttribute(t, "create", a, "draft", "color", "color") // displayName defaults to code
	if v, ok := a["removedAt"]; !ok || v != nil {
		t.Errorf("removedAt = %v (present %v), want null", v, ok)
	}
	if !strings.Contains(string(r.Raw), `"removedAt":null`) {
		t.Errorf("nullable key not written as null: %s", r.Raw)
	}
	// The spec: create returns the attribute without contentUuids and contents: no key, not null.
	if strings.Contains(string(r.Raw), `"contentUuids"`) || strings.Contains(string(r.Raw), `"contents"`) {
		t.Errorf("create answered the views contentUuids/contents: %s", r.Raw)
	}
	if TS(t, a["updatedAt"]).Before(TS(t, a["createdAt"])) {
		t.Errorf("updatedAt %v before createdAt %v", a["updatedAt"], a["createdAt"])
	}
	if loc := r.Header.Get("Location"); loc != "/v1/attributes/"+Str(a, "uuid") {
		t.Errorf("Location %q, want /v1/attributes/%s", loc, a["uuid"])
	}
	// The Location names the created resource, and it reads back identically (with its views, null).
	g := Want(t, c.Get(r.Header.Get("Location")), 200).Obj()
	WantKeys(t, "GET Location", g, attributeKeys...)
	for _, k := range viewKeys {
		if g[k] != nil {
			t.Errorf("GET Location: %s = %v, want null", k, g[k])
		}
		delete(g, k)
	}
	if !reflect.DeepEqual(g, a) {
		t.Errorf("GET Location = %v, want the created %v", g, a)
	}

	// With a displayName.
	b := Want(t, c.Post("/v1/attributes", map[string]any{"code": "size", "displayName": "Size (EU)"}), 201).Obj()
	wantAttribute(t, "create with displayName", b, "draft", "size", "Size (EU)")
	if b["uuid"] == a["uuid"] {
		t.Errorf("two creates share uuid %v", a["uuid"])
	}
}

func TestBulkCreate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	body := []map[string]any{{"code": "zeta"}, {"code": "alpha", "displayName": "Alpha"}, {"code": "mid"}}
	r := Want(t, c.Post("/v1/attributes/bulk", body), 201)
	items := r.Objs()
	if len(items) != 3 {
		t.Fatalf("bulk create returned %d items: %s", len(items), r.Raw)
	}
	wantCodes(t, "bulk create response order", codesOf(items), "zeta", "alpha", "mid")
	wantAttribute(t, "item 0", items[0], "draft", "zeta", "zeta")
	wantAttribute(t, "item 1", items[1], "draft", "alpha", "Alpha")
	wantAttribute(t, "item 2", items[2], "draft", "mid", "mid")
	seen := map[string]bool{}
	for _, it := range items {
		if seen[Str(it, "uuid")] {
			t.Errorf("duplicate uuid %v", it["uuid"])
		}
		seen[Str(it, "uuid")] = true
		// Every item was really created.
		g := get(t, c, Str(it, "uuid"))
		if g["code"] != it["code"] || g["status"] != "draft" {
			t.Errorf("GET %v = %v", it["uuid"], g)
		}
	}
	p := list(t, c, "").Obj()["pagination"].(map[string]any)
	if p["totalItems"] != float64(3) {
		t.Errorf("totalItems %v after bulk create of 3", p["totalItems"])
	}
}

func TestBulkUpdate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "a", "A")
	b := create(t, c, "b", "B")
	d := create(t, c, "d", "D")
	body := []map[string]any{
		{"uuid": d["uuid"], "code": "d2"},                          // displayName absent: unchanged
		{"uuid": a["uuid"], "code": "a2", "displayName": nil},      // displayName null: unchanged
		{"uuid": b["uuid"], "code": nil, "displayName": "B (new)"}, // code null: unchanged
	}
	items := Want(t, c.Patch("/v1/attributes/bulk", body), 200).Objs()
	if len(items) != 3 {
		t.Fatalf("bulk update returned %d items", len(items))
	}
	if !slices.Equal(UUIDsOf(items), []string{Str(d, "uuid"), Str(a, "uuid"), Str(b, "uuid")}) {
		t.Errorf("response order %v, want the request's order d, a, b", UUIDsOf(items))
	}
	wantAttribute(t, "d", items[0], "draft", "d2", "D")
	wantAttribute(t, "a", items[1], "draft", "a2", "A")
	wantAttribute(t, "b", items[2], "draft", "b", "B (new)")
	for i, orig := range []map[string]any{d, a, b} {
		if items[i]["createdAt"] != orig["createdAt"] {
			t.Errorf("createdAt changed: %v -> %v", orig["createdAt"], items[i]["createdAt"])
		}
		if TS(t, items[i]["updatedAt"]).Before(TS(t, orig["updatedAt"])) {
			t.Errorf("updatedAt went back: %v -> %v", orig["updatedAt"], items[i]["updatedAt"])
		}
		// Persisted.
		g := get(t, c, Str(orig, "uuid"))
		if g["code"] != items[i]["code"] || g["displayName"] != items[i]["displayName"] {
			t.Errorf("GET %v = %v, want as the response %v", orig["uuid"], g, items[i])
		}
	}
}

func TestBulkUpdateIsAtomic(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "a")
	b := create(t, c, "b")

	// An unknown uuid in item 1: 404 naming it, and item 0 not changed.
	r := c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": a["uuid"], "code": "a-new"}, {"uuid": RandomUUID(), "code": "x"}})
	WantProblem(t, r, 404, "NOT_FOUND", "[1].uuid")
	if g := get(t, c, Str(a, "uuid")); !reflect.DeepEqual(g, a) {
		t.Errorf("after a failed bulk update, a = %v, want unchanged %v", g, a)
	}

	// A code taken by another attribute in item 1: 409 naming [1].code, and item 0 not changed.
	r = c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": a["uuid"], "displayName": "changed"}, {"uuid": b["uuid"], "code": "a"}})
	WantProblem(t, r, 409, "ALREADY_EXISTS", "[1].code")
	if g := get(t, c, Str(a, "uuid")); !reflect.DeepEqual(g, a) {
		t.Errorf("after a failed bulk update, a = %v, want unchanged %v", g, a)
	}
	if g := get(t, c, Str(b, "uuid")); !reflect.DeepEqual(g, b) {
		t.Errorf("after a failed bulk update, b = %v, want unchanged %v", g, b)
	}
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "color", "Color")
	id := Str(a, "uuid")

	// Only displayName given: code unchanged.
	u := Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"displayName": "Colour"}), 200).Obj()
	wantHydrated(t, "update displayName", u, "draft", "color", "Colour")
	if u["uuid"] != id || u["createdAt"] != a["createdAt"] {
		t.Errorf("uuid/createdAt changed: %v", u)
	}
	if !TS(t, u["updatedAt"]).After(TS(t, a["updatedAt"])) {
		t.Errorf("updatedAt %v not after %v", u["updatedAt"], a["updatedAt"])
	}

	// code given, displayName null: displayName unchanged.
	u = Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"code": "colour", "displayName": nil}), 200).Obj()
	wantHydrated(t, "update code, null displayName", u, "draft", "colour", "Colour")

	// code null: unchanged.
	u = Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"code": nil}), 200).Obj()
	wantHydrated(t, "update null code", u, "draft", "colour", "Colour")

	// Both at once.
	u = Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"code": "hue", "displayName": "Hue"}), 200).Obj()
	wantHydrated(t, "update both", u, "draft", "hue", "Hue")

	// Setting its own code again is not a conflict.
	Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"code": "hue"}), 200)

	g := get(t, c, id)
	wantAttribute(t, "get after updates", g, "draft", "hue", "Hue")

	// An update keeps the status.
	moveTo(t, c, id, "published")
	u = Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"displayName": "Hue 2"}), 200).Obj()
	wantHydrated(t, "update of published", u, "published", "hue", "Hue 2")
}

func TestDelete(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "material")
	keep := create(t, c, "keep")
	id := Str(a, "uuid")

	r := Want(t, c.Delete("/v1/attributes/"+id), 204)
	if len(r.Raw) != 0 {
		t.Errorf("204 with a body: %q", r.Raw)
	}
	WantProblem(t, c.Get("/v1/attributes/"+id), 404, "NOT_FOUND")
	WantProblem(t, c.Delete("/v1/attributes/"+id), 404, "NOT_FOUND")
	WantProblem(t, c.Patch("/v1/attributes/"+id, map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
	WantProblem(t, transition(c, id, "publish"), 404, "NOT_FOUND")
	// Permanent: not even among removed items.
	wantCodes(t, "list isRemoved=true after delete", listCodes(t, c, Q("isRemoved[eq]", "true")))
	wantCodes(t, "list after delete", listCodes(t, c, ""), "keep")
	get(t, c, Str(keep, "uuid"))

	// The code is free again.
	b := create(t, c, "material")
	if b["uuid"] == id {
		t.Errorf("re-created attribute reuses the deleted uuid %s", id)
	}
	wantAttribute(t, "re-created", b, "draft", "material", "material")

	// A removed (soft-deleted) attribute can be deleted permanently.
	moveTo(t, c, Str(b, "uuid"), "removed")
	Want(t, c.Delete("/v1/attributes/"+Str(b, "uuid")), 204)
	WantProblem(t, c.Get("/v1/attributes/"+Str(b, "uuid")), 404, "NOT_FOUND")
}

// contentsFixture makes a tenant with two locales, attribute "with" holding two contents and
// attribute "without" holding none.
func contentsFixture(t *testing.T) (c *Client, with, without map[string]any, contentIDs []string) {
	t.Helper()
	c = env.Client(t)
	en := Want(t, c.Post("/v1/locales", map[string]any{"code": "en-US"}), 201).Obj()
	de := Want(t, c.Post("/v1/locales", map[string]any{"code": "de-DE"}), 201).Obj()
	with = create(t, c, "with")
	without = create(t, c, "without")
	for i, l := range []map[string]any{en, de} {
		ct := Want(t, c.Post("/v1/attributes/"+Str(with, "uuid")+"/contents",
			map[string]any{"localeUuid": l["uuid"], "displayName": fmt.Sprintf("label %d", i)}), 201).Obj()
		contentIDs = append(contentIDs, Str(ct, "uuid"))
	}
	return c, with, without, contentIDs
}

func sortedStrings(v any) []string {
	arr, _ := v.([]any)
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		out = append(out, fmt.Sprint(x))
	}
	slices.Sort(out)
	return out
}

func TestGetIncludeExpandContents(t *testing.T) {
	t.Parallel()
	c, with, without, contentIDs := contentsFixture(t)
	slices.Sort(contentIDs)
	path := "/v1/attributes/" + Str(with, "uuid")

	// Neither: both null.
	g := Want(t, c.Get(path), 200).Obj()
	WantKeys(t, "get", g, attributeKeys...)
	if g["contentUuids"] != nil || g["contents"] != nil {
		t.Errorf("without include/expand: contentUuids %v contents %v, want null", g["contentUuids"], g["contents"])
	}
	// Explicit false: null too.
	g = Want(t, c.Get(path+Q("include[contents]", "false", "expand[contents]", "false")), 200).Obj()
	if g["contentUuids"] != nil || g["contents"] != nil {
		t.Errorf("with =false: contentUuids %v contents %v, want null", g["contentUuids"], g["contents"])
	}

	// include: the uuids, contents stays null.
	g = Want(t, c.Get(path+Q("include[contents]", "true")), 200).Obj()
	if got := sortedStrings(g["contentUuids"]); !slices.Equal(got, contentIDs) {
		t.Errorf("include: contentUuids %v, want %v", g["contentUuids"], contentIDs)
	}
	if g["contents"] != nil {
		t.Errorf("include only: contents %v, want null", g["contents"])
	}

	// expand: the objects, contentUuids stays null.
	g = Want(t, c.Get(path+Q("expand[contents]", "true")), 200).Obj()
	if g["contentUuids"] != nil {
		t.Errorf("expand only: contentUuids %v, want null", g["contentUuids"])
	}
	cs, _ := g["contents"].([]any)
	if len(cs) != 2 {
		t.Fatalf("expand: contents %v, want 2 objects", g["contents"])
	}
	var got []string
	for _, x := range cs {
		m := x.(map[string]any)
		got = append(got, Str(m, "uuid"))
		if m["attributeUuid"] != with["uuid"] || !strings.HasPrefix(Str(m, "displayName"), "label ") || !UUIDRe.MatchString(Str(m, "localeUuid")) {
			t.Errorf("expanded content %v", m)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, contentIDs) {
		t.Errorf("expand: content uuids %v, want %v", got, contentIDs)
	}

	// Both.
	g = Want(t, c.Get(path+Q("include[contents]", "true", "expand[contents]", "true")), 200).Obj()
	if got := sortedStrings(g["contentUuids"]); !slices.Equal(got, contentIDs) {
		t.Errorf("both: contentUuids %v", g["contentUuids"])
	}
	if cs, _ := g["contents"].([]any); len(cs) != 2 {
		t.Errorf("both: contents %v", g["contents"])
	}

	// An attribute without contents: empty arrays, not null.
	r := Want(t, c.Get("/v1/attributes/"+Str(without, "uuid")+Q("include[contents]", "true", "expand[contents]", "true")), 200)
	if !strings.Contains(string(r.Raw), `"contentUuids":[]`) || !strings.Contains(string(r.Raw), `"contents":[]`) {
		t.Errorf("no contents with include+expand: want [] for both, got %s", r.Raw)
	}
	r = Want(t, c.Get("/v1/attributes/"+Str(without, "uuid")+Q("include[contents]", "true")), 200)
	if !strings.Contains(string(r.Raw), `"contentUuids":[]`) || !strings.Contains(string(r.Raw), `"contents":null`) {
		t.Errorf("no contents with include: want contentUuids [] and contents null, got %s", r.Raw)
	}
}

func TestListIncludeExpandContents(t *testing.T) {
	t.Parallel()
	c, with, without, contentIDs := contentsFixture(t)
	slices.Sort(contentIDs)

	items := list(t, c, "").Items()
	for _, it := range items {
		WantKeys(t, "list item", it, attributeKeys...)
		if it["contentUuids"] != nil || it["contents"] != nil {
			t.Errorf("list without include/expand: %v", it)
		}
	}
	items = list(t, c, Q("include[contents]", "true", "expand[contents]", "true")).Items()
	if len(items) != 2 {
		t.Fatalf("list: %d items", len(items))
	}
	for _, it := range items {
		switch it["uuid"] {
		case with["uuid"]:
			if got := sortedStrings(it["contentUuids"]); !slices.Equal(got, contentIDs) {
				t.Errorf("list include: contentUuids %v, want %v", it["contentUuids"], contentIDs)
			}
			if cs, _ := it["contents"].([]any); len(cs) != 2 {
				t.Errorf("list expand: contents %v", it["contents"])
			}
		case without["uuid"]:
			if cu, ok := it["contentUuids"].([]any); !ok || len(cu) != 0 {
				t.Errorf("list include, no contents: contentUuids %v, want []", it["contentUuids"])
			}
			if cs, ok := it["contents"].([]any); !ok || len(cs) != 0 {
				t.Errorf("list expand, no contents: contents %v, want []", it["contents"])
			}
		default:
			t.Errorf("unexpected item %v", it)
		}
	}
}

func TestCreateDefaultsAndKeepsText(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	// Multi-byte text round-trips unchanged.
	a := create(t, c, "größe-😀", "Größe 😀 «EU»")
	wantAttribute(t, "unicode", a, "draft", "größe-😀", "Größe 😀 «EU»")
	g := get(t, c, Str(a, "uuid"))
	wantAttribute(t, "unicode get", g, "draft", "größe-😀", "Größe 😀 «EU»")
	wantCodes(t, "codes[eq] with unicode", listCodes(t, c, Q("codes[eq]", "größe-😀")), "größe-😀")
}

// A single update's body may repeat the path's uuid but never name another item.
func TestUpdateBodyUUIDMustMatchThePath(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := Want(t, c.Post("/v1/attributes", map[string]any{"code": "color"}), 201).Obj()
	b := Want(t, c.Post("/v1/attributes", map[string]any{"code": "size"}), 201).Obj()
	WantProblem(t, c.Patch("/v1/attributes/"+Str(a, "uuid"), map[string]any{"uuid": Str(b, "uuid"), "displayName": "X"}), 400, "VALIDATION_FAILED", "uuid")
	for _, x := range []map[string]any{a, b} {
		if got := Str(Want(t, c.Get("/v1/attributes/"+Str(x, "uuid")), 200).Obj(), "displayName"); got == "X" {
			t.Errorf("attribute %s changed by a refused update", Str(x, "code"))
		}
	}
	r := Want(t, c.Patch("/v1/attributes/"+Str(a, "uuid"), map[string]any{"uuid": strings.ToUpper(Str(a, "uuid")), "displayName": "Colour"}), 200)
	if got := Str(r.Obj(), "displayName"); got != "Colour" {
		t.Errorf("displayName %q after an update naming the path's uuid, want Colour", got)
	}
}
