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

// contentFamily is one "X content" collection: attribute contents and attribute term contents
// follow the same contract (DESIGN.md "Contents"), so one suite checks both.
type contentFamily struct {
	name string
	// parent creates a fresh parent in c's tenant and returns the contents collection path and the
	// payload keys of its events / the parent fields every content entry carries.
	parent func(t *testing.T, c *Client) (base string, parentKeys []string)
	// keys of a content entry.
	keys []string
	// event type prefix and the payload key of the content uuid.
	event, idKey string
}

var contentFamilies = []contentFamily{
	{
		name: "attribute",
		parent: func(t *testing.T, c *Client) (string, []string) {
			a := mkAttr(t, c, "attr-"+RandomHex(3))
			return attrContents(a), []string{"attributeUuid", a}
		},
		keys:  []string{"uuid", "createdAt", "updatedAt", "attributeUuid", "localeUuid", "displayName", "description"},
		event: "attribute.content", idKey: "attributeContentUuid",
	},
	{
		name: "term",
		parent: func(t *testing.T, c *Client) (string, []string) {
			a := mkAttr(t, c, "attr-"+RandomHex(3))
			tm := Str(mkTerm(t, c, a, "term-"+RandomHex(3)), "uuid")
			return termContents(a, tm), []string{"attributeUuid", a, "termUuid", tm}
		},
		keys:  []string{"uuid", "createdAt", "updatedAt", "attributeUuid", "termUuid", "localeUuid", "displayName", "description"},
		event: "attribute.term.content", idKey: "termContentUuid",
	},
}

// forEachFamily runs body as a parallel subtest per content family.
func forEachFamily(t *testing.T, body func(t *testing.T, f contentFamily)) {
	t.Parallel()
	for _, f := range contentFamilies {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			body(t, f)
		})
	}
}

// wantParent checks the parent fields of a content entry.
func wantParent(t *testing.T, what string, obj map[string]any, parentKeys []string) {
	t.Helper()
	for i := 0; i+1 < len(parentKeys); i += 2 {
		if obj[parentKeys[i]] != parentKeys[i+1] {
			t.Errorf("%s: %s %v, want %s", what, parentKeys[i], obj[parentKeys[i]], parentKeys[i+1])
		}
	}
}

func (f contentFamily) ev(verb string, parentKeys []string, id string) Event {
	return Ev(f.event+"."+verb, append(slices.Clone(parentKeys), f.idKey, id)...)
}

func TestContentResponseShape(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c := env.Client(t)
		en := Str(mkLocale(t, c, "en-US"), "uuid")
		de := Str(mkLocale(t, c, "de-DE"), "uuid")
		base, pk := f.parent(t, c)

		r := Want(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "Colour", "description": "The colour of the item"}), 201)
		a := r.Obj()
		WantKeys(t, "create", a, f.keys...)
		WantCommon(t, "create", a)
		wantParent(t, "create", a, pk)
		if a["localeUuid"] != en || a["displayName"] != "Colour" || a["description"] != "The colour of the item" || a["createdAt"] != a["updatedAt"] {
			t.Errorf("created %v", a)
		}
		if loc := r.Header.Get("Location"); loc != base+"/"+Str(a, "uuid") {
			t.Errorf("Location %q, want %s/%s", loc, base, a["uuid"])
		}
		g := Want(t, c.Get(base+"/"+Str(a, "uuid")), 200)
		if !bytes.Equal(g.Raw, r.Raw) {
			t.Errorf("get %s differs from create %s", g.Raw, r.Raw)
		}

		// description absent → present as null.
		r = Want(t, c.Post(base, map[string]any{"localeUuid": de, "displayName": "Farbe"}), 201)
		b := r.Obj()
		WantKeys(t, "create without description", b, f.keys...)
		if v, ok := b["description"]; !ok || v != nil {
			t.Errorf("description without a value: %s", r.Raw)
		}
		if !bytes.Contains(r.Raw, []byte(`"description":null`)) {
			t.Errorf("description is not written as null: %s", r.Raw)
		}

		items := listAll(t, c, base)
		if len(items) != 2 {
			t.Fatalf("list: %v", items)
		}
		for _, it := range items {
			WantKeys(t, "list item", it, f.keys...)
			WantCommon(t, "list item", it)
			wantParent(t, "list item", it, pk)
		}

		// Bulk create answers the items in request order.
		fr := Str(mkLocale(t, c, "fr-FR"), "uuid")
		it := Str(mkLocale(t, c, "it-IT"), "uuid")
		res := Want(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": it, "displayName": "Colore"},
			map[string]any{"localeUuid": fr, "displayName": "Couleur", "description": "La couleur"},
		}), 201).Objs()
		if len(res) != 2 || res[0]["localeUuid"] != it || res[0]["description"] != nil || res[1]["localeUuid"] != fr || res[1]["description"] != "La couleur" {
			t.Errorf("bulk create answered %v", res)
		}
		for _, x := range res {
			WantKeys(t, "bulk item", x, f.keys...)
			WantCommon(t, "bulk item", x)
			wantParent(t, "bulk item", x, pk)
		}
		WantTotal(t, c, base, 4)
	})
}

func TestContentCreateValidation(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c := env.Client(t)
		en := Str(mkLocale(t, c, "en-US"), "uuid")
		base, _ := f.parent(t, c)
		other := env.Client(t)
		foreign := Str(mkLocale(t, other, "en-US"), "uuid")

		WantProblem(t, c.Post(base, map[string]any{"displayName": "x"}), 400, "VALIDATION_FAILED", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": "nope", "displayName": "x"}), 400, "VALIDATION_FAILED", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": "0190aaaa-0000-7000-8000-000000000000", "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": foreign, "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": nil}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": nil, "displayName": "x"}), 400, "VALIDATION_FAILED", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": strings.Repeat("x", 101)}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "x", "description": strings.Repeat("d", 10001)}), 400, "VALIDATION_FAILED", "description")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "x", "colour": "red"}), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Post(base, `{"localeUuid": `), 400, "MALFORMED_REQUEST")
		WantTotal(t, c, base, 0)

		// The limits count characters: 100 and 10000 multi-byte characters are fine.
		name, desc := strings.Repeat("ü", 100), strings.Repeat("€", 10000)
		x := Want(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": name, "description": desc}), 201).Obj()
		if x["displayName"] != name || x["description"] != desc {
			t.Errorf("limits not stored intact")
		}
		// An explicit null description is null.
		de := Str(mkLocale(t, c, "de-DE"), "uuid")
		y := Want(t, c.Post(base, map[string]any{"localeUuid": de, "displayName": "y", "description": nil}), 201).Obj()
		if v, ok := y["description"]; !ok || v != nil {
			t.Errorf("description null on create: %v", y)
		}
		WantTotal(t, c, base, 2)
	})
}

func TestContentOnePerLocale(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c := env.Client(t)
		en := Str(mkLocale(t, c, "en-US"), "uuid")
		de := Str(mkLocale(t, c, "de-DE"), "uuid")
		fr := Str(mkLocale(t, c, "fr-FR"), "uuid")
		base, _ := f.parent(t, c)
		first := mkContent(t, c, base, en, "Colour")

		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "Color"}), 409, "ALREADY_EXISTS", "localeUuid")
		WantProblem(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": de, "displayName": "Farbe"},
			map[string]any{"localeUuid": en, "displayName": "Color"},
		}), 409, "ALREADY_EXISTS", "[1].localeUuid")
		WantProblem(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": de, "displayName": "Farbe"},
			map[string]any{"localeUuid": fr, "displayName": "Couleur"},
			map[string]any{"localeUuid": de, "displayName": "Farbe 2"},
		}), 409, "ALREADY_EXISTS", "[2].localeUuid")
		WantUUIDs(t, c, base, false, Str(first, "uuid"))
		if g := Want(t, c.Get(base+"/"+Str(first, "uuid")), 200).Obj(); g["displayName"] != "Colour" {
			t.Errorf("refused create changed the existing entry: %v", g)
		}

		// Another parent may have content in the same locale.
		base2, _ := f.parent(t, c)
		mkContent(t, c, base2, en, "Size")
		WantTotal(t, c, base2, 1)
		WantTotal(t, c, base, 1)
	})
}

func TestContentUpdate(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c := env.Client(t)
		en := Str(mkLocale(t, c, "en-US"), "uuid")
		de := Str(mkLocale(t, c, "de-DE"), "uuid")
		fr := Str(mkLocale(t, c, "fr-FR"), "uuid")
		base, pk := f.parent(t, c)
		orig := mkContent(t, c, base, en, "Colour", "description", "D")
		other := mkContent(t, c, base, fr, "Couleur")
		p := base + "/" + Str(orig, "uuid")
		get := func() map[string]any { return Want(t, c.Get(p), 200).Obj() }
		patch := func(body any) map[string]any {
			t.Helper()
			u := Want(t, c.Patch(p, body), 200).Obj()
			WantKeys(t, "update", u, f.keys...)
			WantCommon(t, "update", u)
			wantParent(t, "update", u, pk)
			if u["createdAt"] != orig["createdAt"] || u["uuid"] != orig["uuid"] {
				t.Errorf("update changed identity: %v", u)
			}
			if g := get(); fmt.Sprint(g) != fmt.Sprint(u) {
				t.Errorf("update answered %v but get answers %v", u, g)
			}
			return u
		}
		time.Sleep(2 * time.Millisecond)

		u := patch(map[string]any{"displayName": "Color"})
		if u["displayName"] != "Color" || u["description"] != "D" || u["localeUuid"] != en {
			t.Errorf("displayName only: %v", u)
		}
		if !(Str(u, "updatedAt") > Str(orig, "updatedAt")) {
			t.Errorf("updatedAt %v did not move past %v", u["updatedAt"], orig["updatedAt"])
		}
		u = patch(map[string]any{"displayName": nil})
		if u["displayName"] != "Color" || u["description"] != "D" {
			t.Errorf("displayName null must leave it unchanged: %v", u)
		}
		u = patch(map[string]any{"description": "D2"})
		if u["displayName"] != "Color" || u["description"] != "D2" {
			t.Errorf("description only: %v", u)
		}
		u = patch(map[string]any{})
		if u["displayName"] != "Color" || u["description"] != "D2" {
			t.Errorf("empty patch: %v", u)
		}
		u = patch(map[string]any{"description": nil})
		if v, ok := u["description"]; !ok || v != nil || u["displayName"] != "Color" {
			t.Errorf("description null must clear it and nothing else: %v", u)
		}
		u = patch(map[string]any{"displayName": "Colour"})
		if u["description"] != nil {
			t.Errorf("an absent description must stay null: %v", u)
		}
		u = patch(map[string]any{"localeUuid": nil})
		if u["localeUuid"] != en || u["displayName"] != "Colour" || u["description"] != nil {
			t.Errorf("localeUuid null must leave it unchanged: %v", u)
		}
		u = patch(map[string]any{"description": "back", "displayName": nil})
		if u["description"] != "back" || u["displayName"] != "Colour" {
			t.Errorf("description with displayName null: %v", u)
		}

		// Moving the entry to another locale.
		u = patch(map[string]any{"localeUuid": de})
		if u["localeUuid"] != de || u["displayName"] != "Colour" || u["description"] != "back" {
			t.Errorf("localeUuid change: %v", u)
		}
		WantProblem(t, c.Patch(p, map[string]any{"localeUuid": fr}), 409, "ALREADY_EXISTS", "localeUuid")
		WantProblem(t, c.Patch(p, map[string]any{"localeUuid": "0190aaaa-0000-7000-8000-000000000000"}), 404, "NOT_FOUND", "localeUuid")
		foreign := Str(mkLocale(t, env.Client(t), "en-US"), "uuid")
		WantProblem(t, c.Patch(p, map[string]any{"localeUuid": foreign}), 404, "NOT_FOUND", "localeUuid")
		WantProblem(t, c.Patch(p, map[string]any{"localeUuid": "nope"}), 400, "VALIDATION_FAILED", "localeUuid")
		WantProblem(t, c.Patch(p, map[string]any{"displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Patch(p, map[string]any{"displayName": strings.Repeat("n", 101)}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Patch(p, map[string]any{"description": strings.Repeat("d", 10001)}), 400, "VALIDATION_FAILED", "description")
		WantProblem(t, c.Patch(p, map[string]any{"colour": "x"}), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Patch(p, map[string]any{"displayName": 5}), 400, "MALFORMED_REQUEST")
		if g := get(); g["localeUuid"] != de || g["displayName"] != "Colour" || g["description"] != "back" {
			t.Errorf("refused updates changed the entry: %v", g)
		}
		if g := Want(t, c.Get(base+"/"+Str(other, "uuid")), 200).Obj(); fmt.Sprint(g) != fmt.Sprint(other) {
			t.Errorf("updates touched another entry: %v", g)
		}

		// Unknown entries.
		WantProblem(t, c.Patch(base+"/0190aaaa-0000-7000-8000-000000000000", map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
		WantProblem(t, c.Get(base+"/0190aaaa-0000-7000-8000-000000000000"), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(base+"/0190aaaa-0000-7000-8000-000000000000"), 404, "NOT_FOUND")
		if r := c.Get(base + "/not-a-uuid"); r.Status != 400 {
			t.Errorf("GET bad uuid: %d %s", r.Status, r.Raw)
		}

		// Delete.
		r := Want(t, c.Delete(p), 204)
		if len(r.Raw) != 0 {
			t.Errorf("delete answered a body: %q", r.Raw)
		}
		WantProblem(t, c.Get(p), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(p), 404, "NOT_FOUND")
		WantProblem(t, c.Patch(p, map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
		WantUUIDs(t, c, base, false, Str(other, "uuid"))
		// The locale is free again.
		mkContent(t, c, base, de, "Farbe")
	})
}

// TestContentBulkUpdate: PATCH .../contents/bulk, with and without description:null.
func TestContentBulkUpdate(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c, tenant := env.TenantClient(t)
		en := Str(mkLocale(t, c, "en-US"), "uuid")
		de := Str(mkLocale(t, c, "de-DE"), "uuid")
		fr := Str(mkLocale(t, c, "fr-FR"), "uuid")
		base, pk := f.parent(t, c)
		a := mkContent(t, c, base, en, "A", "description", "a")
		b := mkContent(t, c, base, de, "B", "description", "b")
		log := NewEventLog(pool, tenant)
		log.Skip(t)
		get := func(x map[string]any) map[string]any { return Want(t, c.Get(base+"/"+Str(x, "uuid")), 200).Obj() }

		r := Want(t, c.Patch(base+"/bulk", []any{
			map[string]any{"uuid": Str(a, "uuid"), "description": nil},
			map[string]any{"uuid": Str(b, "uuid"), "displayName": "B2"},
		}), 200)
		res := r.Objs()
		if len(res) != 2 {
			t.Fatalf("bulk update answered %s", r.Raw)
		}
		for _, x := range res {
			WantKeys(t, "bulk update item", x, f.keys...)
			wantParent(t, "bulk update item", x, pk)
		}
		if res[0]["uuid"] != a["uuid"] || res[0]["description"] != nil || res[0]["displayName"] != "A" {
			t.Errorf("item [0] (description null) answered %v", res[0])
		}
		if res[1]["uuid"] != b["uuid"] || res[1]["description"] != "b" || res[1]["displayName"] != "B2" {
			t.Errorf("item [1] (no description) answered %v", res[1])
		}
		if g := get(a); g["description"] != nil || g["displayName"] != "A" {
			t.Errorf("after bulk update [0]: %v", g)
		}
		if g := get(b); g["description"] != "b" || g["displayName"] != "B2" {
			t.Errorf("after bulk update [1]: %v", g)
		}
		log.Expect(t, "bulk update", f.ev("updated", pk, Str(a, "uuid")), f.ev("updated", pk, Str(b, "uuid")))

		// displayName null leaves it, a new description sets it, localeUuid moves.
		res = Want(t, c.Patch(base+"/bulk", []any{
			map[string]any{"uuid": Str(a, "uuid"), "displayName": nil, "description": "a2"},
			map[string]any{"uuid": Str(b, "uuid"), "localeUuid": fr},
		}), 200).Objs()
		if res[0]["displayName"] != "A" || res[0]["description"] != "a2" || res[1]["localeUuid"] != fr || res[1]["description"] != "b" {
			t.Errorf("second bulk update answered %v", res)
		}
		log.Expect(t, "second bulk update", f.ev("updated", pk, Str(a, "uuid")), f.ev("updated", pk, Str(b, "uuid")))

		// Failures name the item and change nothing, and emit nothing.
		first := map[string]any{"uuid": Str(a, "uuid"), "description": nil, "displayName": "CHANGED"}
		for _, bad := range []struct {
			item        map[string]any
			status      int
			code, field string
		}{
			{map[string]any{"uuid": Str(b, "uuid"), "displayName": ""}, 400, "VALIDATION_FAILED", "[1].displayName"},
			{map[string]any{"uuid": Str(b, "uuid"), "description": strings.Repeat("d", 10001)}, 400, "VALIDATION_FAILED", "[1].description"},
			{map[string]any{"displayName": "no uuid"}, 400, "VALIDATION_FAILED", "[1].uuid"},
			{map[string]any{"uuid": "0190aaaa-0000-7000-8000-000000000000", "displayName": "x"}, 404, "NOT_FOUND", "[1].uuid"},
			{map[string]any{"uuid": Str(b, "uuid"), "localeUuid": en}, 409, "ALREADY_EXISTS", "[1].localeUuid"},
			{map[string]any{"uuid": Str(b, "uuid"), "localeUuid": "0190aaaa-0000-7000-8000-000000000000"}, 404, "NOT_FOUND", "[1].localeUuid"},
		} {
			WantProblem(t, c.Patch(base+"/bulk", []any{first, bad.item}), bad.status, bad.code, bad.field)
		}
		if g := get(a); g["displayName"] != "A" || g["description"] != "a2" {
			t.Errorf("refused bulk updates changed item [0]: %v", g)
		}
		if g := get(b); g["displayName"] != "B2" || g["localeUuid"] != fr {
			t.Errorf("refused bulk updates changed item [1]: %v", g)
		}
		log.Expect(t, "refused bulk updates")
	})
}

func TestContentListFilters(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c := env.Client(t)
		var loc []string
		for _, code := range []string{"en-US", "de-DE", "fr-FR", "it-IT", "es-ES"} {
			loc = append(loc, Str(mkLocale(t, c, code), "uuid"))
		}
		base, _ := f.parent(t, c)
		en := mkContent(t, c, base, loc[0], "Colour", "description", "x")
		time.Sleep(2 * time.Millisecond)
		bulk := Want(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": loc[1], "displayName": "Farbe"},
			map[string]any{"localeUuid": loc[2], "displayName": "Couleur"},
		}), 201).Objs()
		de, fr := bulk[0], bulk[1]
		time.Sleep(2 * time.Millisecond)
		it := mkContent(t, c, base, loc[3], "Colore 100%_")
		// Contents of another parent never show up.
		other, _ := f.parent(t, c)
		mkContent(t, c, other, loc[0], "Colour")
		id := func(m map[string]any) string { return Str(m, "uuid") }

		pair := []string{id(de), id(fr)}
		slices.Sort(pair)
		WantUUIDs(t, c, base, true, id(en), pair[0], pair[1], id(it))
		WantUUIDs(t, c, base+Q("uuids[eq]", id(de), "uuids[eq]", id(it)), false, id(de), id(it))
		WantUUIDs(t, c, base+Q("localeUuids[eq]", loc[0], "localeUuids[eq]", loc[2], "localeUuids[eq]", loc[4]), false, id(en), id(fr))
		WantUUIDs(t, c, base+Q("displayNames[eq]", "Farbe", "displayNames[eq]", "Colour"), false, id(de), id(en))
		WantUUIDs(t, c, base+Q("displayName[contains]", "OLO"), false, id(en), id(it))
		WantUUIDs(t, c, base+Q("displayName[starts]", "co"), false, id(en), id(fr), id(it))
		WantUUIDs(t, c, base+Q("displayName[ends]", "BE"), false, id(de))
		WantUUIDs(t, c, base+Q("displayName[contains]", "%_"), false, id(it))
		WantUUIDs(t, c, base+Q("displayName[starts]", "co", "displayName[ends]", "our"), false, id(en))
		ca := Str(de, "createdAt")
		WantUUIDs(t, c, base+Q("createdAt[eq]", ca), false, id(de), id(fr))
		WantUUIDs(t, c, base+Q("createdAt[min]", ca), false, id(de), id(fr), id(it))
		WantUUIDs(t, c, base+Q("createdAt[max]", ca), false, id(en), id(de), id(fr))
		WantUUIDs(t, c, base+Q("createdAt[min]", Str(it, "createdAt"), "createdAt[max]", Str(it, "createdAt")), false, id(it))

		time.Sleep(2 * time.Millisecond)
		u := Want(t, c.Patch(base+"/"+id(en), map[string]any{"description": "y"}), 200).Obj()
		WantUUIDs(t, c, base+Q("updatedAt[eq]", Str(u, "updatedAt")), false, id(en))
		WantUUIDs(t, c, base+Q("updatedAt[min]", Str(u, "updatedAt")), false, id(en))
		WantUUIDs(t, c, base+Q("updatedAt[max]", Str(it, "updatedAt")), false, id(de), id(fr), id(it))

		WantUUIDs(t, c, base+Q("displayName[order]", "asc"), true, id(it), id(en), id(fr), id(de))
		WantUUIDs(t, c, base+Q("displayName[order]", "desc"), true, id(de), id(fr), id(en), id(it))
		WantUUIDs(t, c, base+Q("createdAt[order]", "desc", "displayName[order]", "asc"), true, id(it), id(fr), id(de), id(en))
		WantUUIDs(t, c, base+Q("updatedAt[order]", "desc", "displayName[order]", "desc"), true, id(en), id(it), id(de), id(fr))

		p := Want(t, c.Get(base+Q("size", "3", "page", "2", "displayName[order]", "asc")), 200)
		wantPage(t, p, 2, 3, 4, 2)
		if got := UUIDsOf(p.Items()); len(got) != 1 || got[0] != id(de) {
			t.Errorf("page 2 of 3: %v", got)
		}

		for _, bad := range []struct{ query, field string }{
			{Q("code[eq]", "x"), "code[eq]"},
			{Q("localeUuids[eq]", "nope"), "localeUuids[eq]"},
			{Q("updatedAt[max]", "2026-13-01T00:00:00Z"), "updatedAt[max]"},
			{Q("localeUuid[order]", "asc"), "localeUuid[order]"},
			{Q("size", "101"), "size"},
		} {
			r := c.Get(base + bad.query)
			if r.Status != 400 {
				t.Errorf("GET %s: %d, want 400: %s", bad.query, r.Status, r.Raw)
				continue
			}
			WantProblem(t, r, 400, Str(r.Obj(), "code"), bad.field)
		}
	})
}

// TestContentUnknownParent: a missing or foreign parent is 404 on every path.
func TestContentUnknownParent(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	en := Str(mkLocale(t, c, "en-US"), "uuid")
	a := mkAttr(t, c, "color")
	tm := Str(mkTerm(t, c, a, "red"), "uuid")
	missing := "0190aaaa-0000-7000-8000-000000000000"
	body := map[string]any{"localeUuid": en, "displayName": "x"}
	for _, base := range []string{attrContents(missing), termContents(missing, tm), termContents(a, missing)} {
		WantProblem(t, c.Get(base), 404, "NOT_FOUND")
		WantProblem(t, c.Post(base, body), 404, "NOT_FOUND")
		WantProblem(t, c.Post(base+"/bulk", []any{body}), 404, "NOT_FOUND")
		SoftProblem(t, c.Patch(base+"/bulk", []any{map[string]any{"uuid": missing, "displayName": "x"}}), 404, "NOT_FOUND")
		WantProblem(t, c.Get(base+"/"+missing), 404, "NOT_FOUND")
		WantProblem(t, c.Patch(base+"/"+missing, map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(base+"/"+missing), 404, "NOT_FOUND")
	}
	for _, base := range []string{attrContents("nope"), termContents(a, "nope")} {
		if r := c.Get(base); r.Status != 400 {
			t.Errorf("GET %s: %d, want 400", base, r.Status)
		}
	}
}

// TestContentWrongParent: a content entry is reachable only under its own parent.
func TestContentWrongParent(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	en := Str(mkLocale(t, c, "en-US"), "uuid")
	de := Str(mkLocale(t, c, "de-DE"), "uuid")
	a, b := mkAttr(t, c, "color"), mkAttr(t, c, "size")
	ca := mkContent(t, c, attrContents(a), en, "Colour", "description", "d")
	ta := Str(mkTerm(t, c, a, "red"), "uuid")
	ta2 := Str(mkTerm(t, c, a, "blue"), "uuid")
	tb := Str(mkTerm(t, c, b, "xl"), "uuid")
	tca := mkContent(t, c, termContents(a, ta), en, "Red", "description", "d")

	type wrong struct{ base, id string }
	for _, w := range []wrong{
		{attrContents(b), Str(ca, "uuid")},       // attribute A's content under attribute B
		{termContents(a, ta2), Str(tca, "uuid")}, // term content under a sibling term
		{termContents(b, tb), Str(tca, "uuid")},  // term content under another attribute's term
		{termContents(b, ta), Str(tca, "uuid")},  // term of A addressed under attribute B
		{attrContents(a), Str(tca, "uuid")},      // term content under the attribute's contents
		{termContents(a, ta), Str(ca, "uuid")},   // attribute content under a term
	} {
		p := w.base + "/" + w.id
		WantProblem(t, c.Get(p), 404, "NOT_FOUND")
		WantProblem(t, c.Patch(p, map[string]any{"displayName": "hijacked", "description": nil}), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(p), 404, "NOT_FOUND")
		SoftProblem(t, c.Patch(w.base+"/bulk", []any{map[string]any{"uuid": w.id, "displayName": "hijacked"}}), 404, "NOT_FOUND")
		if r := c.Get(w.base + Q("uuids[eq]", w.id)); r.Status == 200 && len(r.Items()) != 0 {
			t.Errorf("GET %s lists the other parent's entry: %s", w.base, r.Raw)
		}
	}
	// A term of attribute A addressed under attribute B is not found on every path.
	tbase := termContents(b, ta)
	WantProblem(t, c.Get(tbase), 404, "NOT_FOUND")
	WantProblem(t, c.Post(tbase, map[string]any{"localeUuid": de, "displayName": "x"}), 404, "NOT_FOUND")
	WantProblem(t, c.Post(tbase+"/bulk", []any{map[string]any{"localeUuid": de, "displayName": "x"}}), 404, "NOT_FOUND")

	if g := Want(t, c.Get(attrContents(a)+"/"+Str(ca, "uuid")), 200).Obj(); fmt.Sprint(g) != fmt.Sprint(ca) {
		t.Errorf("attribute content changed: %v", g)
	}
	if g := Want(t, c.Get(termContents(a, ta)+"/"+Str(tca, "uuid")), 200).Obj(); fmt.Sprint(g) != fmt.Sprint(tca) {
		t.Errorf("term content changed: %v", g)
	}
	WantTotal(t, c, termContents(a, ta), 1)
	WantTotal(t, c, termContents(a, ta2), 0)
	WantTotal(t, c, attrContents(b), 0)
}

// TestContentBulkAtomic: one bad item creates nothing; error fields name the item.
func TestContentBulkAtomic(t *testing.T) {
	forEachFamily(t, func(t *testing.T, f contentFamily) {
		c, tenant := env.TenantClient(t)
		var loc []string
		for _, code := range []string{"en-US", "de-DE", "fr-FR"} {
			loc = append(loc, Str(mkLocale(t, c, code), "uuid"))
		}
		base, _ := f.parent(t, c)
		log := NewEventLog(pool, tenant)
		log.Skip(t)
		good := func(i int) map[string]any {
			return map[string]any{"localeUuid": loc[i], "displayName": fmt.Sprint("n", i)}
		}
		for _, bad := range []struct {
			item        map[string]any
			status      int
			code, field string
		}{
			{map[string]any{"localeUuid": loc[2], "displayName": ""}, 400, "VALIDATION_FAILED", "[2].displayName"},
			{map[string]any{"localeUuid": loc[2], "displayName": strings.Repeat("n", 101)}, 400, "VALIDATION_FAILED", "[2].displayName"},
			{map[string]any{"localeUuid": loc[2], "displayName": "x", "description": strings.Repeat("d", 10001)}, 400, "VALIDATION_FAILED", "[2].description"},
			{map[string]any{"displayName": "x"}, 400, "VALIDATION_FAILED", "[2].localeUuid"},
			{map[string]any{"localeUuid": "0190aaaa-0000-7000-8000-000000000000", "displayName": "x"}, 404, "NOT_FOUND", "[2].localeUuid"},
			{map[string]any{"localeUuid": loc[0], "displayName": "x"}, 409, "ALREADY_EXISTS", "[2].localeUuid"},
		} {
			WantProblem(t, c.Post(base+"/bulk", []any{good(0), good(1), bad.item}), bad.status, bad.code, bad.field)
			WantTotal(t, c, base, 0)
		}
		WantProblem(t, c.Post(base+"/bulk", []any{good(0), "x"}), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Post(base+"/bulk", map[string]any{"localeUuid": loc[0], "displayName": "x"}), 400, "MALFORMED_REQUEST")
		WantTotal(t, c, base, 0)
		log.Expect(t, "refused bulk creates")
	})
}
