package structure_basic

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Brand and tag contents follow the contents contract of DESIGN.md ("Contents"), like attribute
// contents: one suite checks both.

// contentsOf is the contents collection of a parent of f.
func (f family) contentsOf(parent string) string { return f.item(parent) + "/contents" }

// contentKeys are the keys of a content entry of f.
func (f family) contentKeys() []string {
	return []string{"uuid", "createdAt", "updatedAt", f.idKey, "localeUuid", "displayName", "description"}
}

// contentIDKey is the path parameter / payload key of a content entry ("brandContentUuid").
func (f family) contentIDKey() string { return f.event + "ContentUuid" }

func (f family) contentEv(verb, parent, id string) Event {
	return Ev(f.event+".content."+verb, f.idKey, parent, f.contentIDKey(), id)
}

// forEachContentFamily runs body as a parallel subtest per family with contents.
func forEachContentFamily(t *testing.T, body func(t *testing.T, f family)) {
	t.Parallel()
	for _, f := range families {
		if !f.contents {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			body(t, f)
		})
	}
}

func mkContent(t *testing.T, c *Client, base, locale, name string, kv ...any) map[string]any {
	t.Helper()
	body := map[string]any{"localeUuid": locale, "displayName": name}
	for i := 0; i+1 < len(kv); i += 2 {
		body[kv[i].(string)] = kv[i+1]
	}
	return Want(t, c.Post(base, body), 201).Obj()
}

func TestContentOperations(t *testing.T) {
	forEachContentFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		en, de, fr := CreateLocale(t, c, "en-US"), CreateLocale(t, c, "de-DE"), CreateLocale(t, c, "fr-FR")
		parent := Str(f.create(t, c, "acme"), "uuid")
		base := f.contentsOf(parent)

		// Create: 201, Location, exact keys, null description.
		r := Want(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "Acme", "description": "Makers of everything"}), 201)
		a := r.Obj()
		WantKeys(t, "create", a, f.contentKeys()...)
		WantCommon(t, "create", a)
		if a[f.idKey] != parent || a["localeUuid"] != en || a["displayName"] != "Acme" || a["description"] != "Makers of everything" {
			t.Errorf("created %v", a)
		}
		if loc := r.Header.Get("Location"); loc != base+"/"+Str(a, "uuid") {
			t.Errorf("Location %q, want %s/%s", loc, base, a["uuid"])
		}
		g := Want(t, c.Get(base+"/"+Str(a, "uuid")), 200)
		if !bytes.Equal(g.Raw, r.Raw) {
			t.Errorf("get %s differs from create %s", g.Raw, r.Raw)
		}
		r = Want(t, c.Post(base, map[string]any{"localeUuid": de, "displayName": "Acme DE"}), 201)
		if !bytes.Contains(r.Raw, []byte(`"description":null`)) {
			t.Errorf("description is not written as null: %s", r.Raw)
		}
		b := r.Obj()

		// Update: only the fields given; null clears description; updatedAt moves.
		time.Sleep(2 * time.Millisecond)
		u := Want(t, c.Patch(base+"/"+Str(a, "uuid"), map[string]any{"description": nil}), 200).Obj()
		if u["description"] != nil || u["displayName"] != "Acme" || u["localeUuid"] != en || u["createdAt"] != a["createdAt"] || u["updatedAt"] == a["updatedAt"] {
			t.Errorf("clear description: %v", u)
		}
		u = Want(t, c.Patch(base+"/"+Str(a, "uuid"), map[string]any{"displayName": nil, "description": "Again", "localeUuid": fr}), 200).Obj()
		if u["description"] != "Again" || u["displayName"] != "Acme" || u["localeUuid"] != fr {
			t.Errorf("update: %v", u)
		}
		WantProblem(t, c.Patch(base+"/"+Str(a, "uuid"), map[string]any{"localeUuid": de}), 409, "ALREADY_EXISTS", "localeUuid")
		WantProblem(t, c.Patch(base+"/"+Str(a, "uuid"), map[string]any{"displayName": ""}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Patch(base+"/"+Str(a, "uuid"), map[string]any{"description": strings.Repeat("x", 10001)}), 400, "VALIDATION_FAILED", "description")
		WantProblem(t, c.Patch(base+"/"+Str(a, "uuid"), map[string]any{"localeUuid": randomUUID()}), 404, "NOT_FOUND", "localeUuid")
		WantProblem(t, c.Patch(base+"/"+randomUUID(), map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
		if g := Want(t, c.Get(base+"/"+Str(a, "uuid")), 200).Obj(); !reflect.DeepEqual(g, u) {
			t.Errorf("refused updates changed %v into %v", u, g)
		}

		// Bulk create and update, in request order.
		it := CreateLocale(t, c, "it-IT")
		es := CreateLocale(t, c, "es-ES")
		res := Want(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": it, "displayName": "Acme IT"},
			map[string]any{"localeUuid": es, "displayName": "Acme ES", "description": strings.Repeat("d", 10000)},
		}), 201).Objs()
		if len(res) != 2 || res[0]["localeUuid"] != it || res[1]["localeUuid"] != es || res[0]["description"] != nil {
			t.Fatalf("bulk create: %v", res)
		}
		for _, x := range res {
			WantKeys(t, "bulk item", x, f.contentKeys()...)
			if x[f.idKey] != parent {
				t.Errorf("bulk item parent %v", x[f.idKey])
			}
		}
		up := Want(t, c.Patch(base+"/bulk", []any{
			map[string]any{"uuid": Str(res[1], "uuid"), "description": nil},
			map[string]any{"uuid": Str(b, "uuid"), "displayName": "Acme Deutschland"},
		}), 200).Objs()
		if len(up) != 2 || up[0]["uuid"] != res[1]["uuid"] || up[0]["description"] != nil || up[1]["displayName"] != "Acme Deutschland" {
			t.Errorf("bulk update: %v", up)
		}

		// Delete.
		Want(t, c.Delete(base+"/"+Str(res[0], "uuid")), 204)
		WantProblem(t, c.Get(base+"/"+Str(res[0], "uuid")), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(base+"/"+Str(res[0], "uuid")), 404, "NOT_FOUND")
		WantProblem(t, c.Delete(base+"/nope"), 400, "VALIDATION_FAILED", f.contentIDKey())
		r = Want(t, c.Get(base), 200)
		if got := UUIDsOf(r.Items()); !slices.Equal(got, []string{Str(a, "uuid"), Str(b, "uuid"), Str(res[1], "uuid")}) {
			t.Errorf("list after delete: %v", got)
		}
		WantPagination(t, "contents", r, 1, 20, 3, 1)
	})
}

func TestContentValidation(t *testing.T) {
	forEachContentFamily(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		en := CreateLocale(t, c, "en-US")
		de := CreateLocale(t, c, "de-DE")
		parent := Str(f.create(t, c, "acme"), "uuid")
		base := f.contentsOf(parent)
		foreign := CreateLocale(t, env.Client(t), "en-US")

		WantProblem(t, c.Post(base, map[string]any{"displayName": "x"}), 400, "VALIDATION_FAILED", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": "nope", "displayName": "x"}), 400, "VALIDATION_FAILED", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": randomUUID(), "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": foreign, "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": strings.Repeat("x", 101)}), 400, "VALIDATION_FAILED", "displayName")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "x", "description": strings.Repeat("é", 10001)}), 400, "VALIDATION_FAILED", "description")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "x", "code": "x"}), 400, "MALFORMED_REQUEST", "code")

		// One entry per parent and locale.
		mkContent(t, c, base, en, "Acme")
		WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "Again"}), 409, "ALREADY_EXISTS", "localeUuid")
		// ... but the same locale under another parent is fine.
		other := Str(f.create(t, c, "globex"), "uuid")
		mkContent(t, c, f.contentsOf(other), en, "Globex")

		// Bulk: atomic, naming items.
		WantProblem(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": de, "displayName": "Acme DE"},
			map[string]any{"localeUuid": en, "displayName": "dup"},
		}), 409, "ALREADY_EXISTS", "[1].localeUuid")
		WantProblem(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": de, "displayName": "Acme DE"},
			map[string]any{"localeUuid": foreign, "displayName": "x"},
		}), 404, "NOT_FOUND", "[1].localeUuid")
		WantProblem(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": de, "displayName": "Acme DE"},
			map[string]any{"localeUuid": de, "displayName": ""},
		}), 400, "VALIDATION_FAILED", "[1].displayName")
		WantProblem(t, c.Post(base+"/bulk", []any{}), 400, "VALIDATION_FAILED")
		WantProblem(t, c.Patch(base+"/bulk", []any{map[string]any{"displayName": "x"}}), 400, "VALIDATION_FAILED", "[0].uuid")
		WantProblem(t, c.Patch(base+"/bulk", []any{map[string]any{"uuid": randomUUID(), "displayName": "x"}}), 404, "NOT_FOUND", "[0].uuid")
		if n := CountRows(t, pool, "contents", tenant); n != 2 {
			t.Errorf("%d contents after refused writes, want 2", n)
		}
	})
}

func TestContentParentNotFound(t *testing.T) {
	forEachContentFamily(t, func(t *testing.T, f family) {
		alice := env.Client(t)
		bob, bobTenant := env.TenantClient(t)
		en := CreateLocale(t, alice, "en-US")
		bobEn := CreateLocale(t, bob, "en-US")
		parent := Str(f.create(t, alice, "acme"), "uuid")
		content := Str(mkContent(t, alice, f.contentsOf(parent), en, "Acme"), "uuid")
		bobParent := Str(f.create(t, bob, "acme"), "uuid")

		for _, p := range []string{parent, randomUUID()} {
			base := f.contentsOf(p)
			WantProblem(t, bob.Get(base), 404, "NOT_FOUND")
			WantProblem(t, bob.Get(base+"/"+content), 404, "NOT_FOUND")
			WantProblem(t, bob.Post(base, map[string]any{"localeUuid": bobEn, "displayName": "x"}), 404, "NOT_FOUND")
			WantProblem(t, bob.Post(base+"/bulk", []any{map[string]any{"localeUuid": bobEn, "displayName": "x"}}), 404, "NOT_FOUND")
			WantProblem(t, bob.Patch(base+"/"+content, map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
			WantProblem(t, bob.Patch(base+"/bulk", []any{map[string]any{"uuid": content, "displayName": "x"}}), 404, "NOT_FOUND")
			WantProblem(t, bob.Delete(base+"/"+content), 404, "NOT_FOUND")
		}
		WantProblem(t, bob.Get(f.contentsOf("nope")), 400, "VALIDATION_FAILED", f.idKey)
		WantProblem(t, bob.Post(f.contentsOf("nope"), map[string]any{"localeUuid": bobEn, "displayName": "x"}), 400, "VALIDATION_FAILED", f.idKey)

		// A content entry is found only under its own parent, even in the same tenant.
		sibling := Str(f.create(t, alice, "globex"), "uuid")
		WantProblem(t, alice.Get(f.contentsOf(sibling)+"/"+content), 404, "NOT_FOUND")
		WantProblem(t, alice.Patch(f.contentsOf(sibling)+"/"+content, map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
		WantProblem(t, alice.Delete(f.contentsOf(sibling)+"/"+content), 404, "NOT_FOUND")
		// Bob's own parent does not reach Alice's content.
		WantProblem(t, bob.Get(f.contentsOf(bobParent)+"/"+content), 404, "NOT_FOUND")
		if n := CountRows(t, pool, "contents", bobTenant); n != 0 {
			t.Errorf("bob has %d contents", n)
		}
		if g := Want(t, alice.Get(f.contentsOf(parent)+"/"+content), 200).Obj(); g["displayName"] != "Acme" {
			t.Errorf("alice's content changed: %v", g)
		}
	})
}

func TestContentListFilters(t *testing.T) {
	forEachContentFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		en, de, fr := CreateLocale(t, c, "en-US"), CreateLocale(t, c, "de-DE"), CreateLocale(t, c, "fr-FR")
		parent := Str(f.create(t, c, "acme"), "uuid")
		base := f.contentsOf(parent)
		res := Want(t, c.Post(base+"/bulk", []any{
			map[string]any{"localeUuid": en, "displayName": "Acme Shoes"},
			map[string]any{"localeUuid": de, "displayName": "Acme Schuhe"},
			map[string]any{"localeUuid": fr, "displayName": "Chaussures_Acme"},
		}), 201).Objs()
		ids := UUIDsOf(res)
		// Another parent's contents never show.
		mkContent(t, c, f.contentsOf(Str(f.create(t, c, "globex"), "uuid")), en, "Globex Shoes")

		list := func(query string) []string {
			t.Helper()
			return UUIDsOf(Want(t, c.Get(base+query), 200).Items())
		}
		want := func(what string, got []string, w ...string) {
			t.Helper()
			if !slices.Equal(got, w) && !(len(got) == 0 && len(w) == 0) {
				t.Errorf("%s: %v, want %v", what, got, w)
			}
		}
		want("all", list(""), ids...)
		want("uuids", list(Q("uuids[eq]", ids[2], "uuids[eq]", ids[0])), ids[0], ids[2])
		want("localeUuids", list(Q("localeUuids[eq]", de)), ids[1])
		want("displayNames", list(Q("displayNames[eq]", "Acme Shoes")), ids[0])
		want("displayName contains", list(Q("displayName[contains]", "SCHUH")), ids[1])
		want("displayName starts", list(Q("displayName[starts]", "acme")), ids[0], ids[1])
		want("displayName ends _ literal", list(Q("displayName[contains]", "_")), ids[2])
		want("createdAt eq", list(Q("createdAt[eq]", Str(res[0], "createdAt"))), ids...)
		want("updatedAt max", list(Q("updatedAt[max]", "2000-01-01T00:00:00Z")))
		want("displayName order", list(Q("displayName[order]", "asc")), ids[1], ids[0], ids[2])
		want("createdAt desc", list(Q("createdAt[order]", "desc")), ids[2], ids[1], ids[0])
		r := Want(t, c.Get(base+Q("size", "2", "page", "2")), 200)
		want("page 2", UUIDsOf(r.Items()), ids[2])
		WantPagination(t, "page 2", r, 2, 2, 3, 2)
		WantProblem(t, c.Get(base+Q("localeUuids[eq]", "nope")), 400, "VALIDATION_FAILED", "localeUuids[eq]")
		WantProblem(t, c.Get(base+Q("codes[eq]", "x")), 400, "MALFORMED_REQUEST", "codes[eq]")
		WantProblem(t, c.Get(base+Q("code[order]", "asc")), 400, "MALFORMED_REQUEST")
	})
}

func TestContentEvents(t *testing.T) {
	forEachContentFamily(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		en, de, fr := CreateLocale(t, c, "en-US"), CreateLocale(t, c, "de-DE"), CreateLocale(t, c, "fr-FR")
		parent := Str(f.create(t, c, "acme"), "uuid")
		base := f.contentsOf(parent)
		log := NewEventLog(pool, tenant)
		log.Skip(t)

		a := Str(mkContent(t, c, base, en, "Acme"), "uuid")
		log.Expect(t, "create", f.contentEv("created", parent, a))
		res := Want(t, c.Post(base+"/bulk", []any{map[string]any{"localeUuid": de, "displayName": "DE"}, map[string]any{"localeUuid": fr, "displayName": "FR"}}), 201).Objs()
		b, cc := Str(res[0], "uuid"), Str(res[1], "uuid")
		log.Expect(t, "bulk create", f.contentEv("created", parent, b), f.contentEv("created", parent, cc))
		Want(t, c.Patch(base+"/"+a, map[string]any{"description": "x"}), 200)
		log.Expect(t, "update", f.contentEv("updated", parent, a))
		Want(t, c.Patch(base+"/bulk", []any{map[string]any{"uuid": b, "displayName": "x"}, map[string]any{"uuid": cc, "displayName": "y"}}), 200)
		log.Expect(t, "bulk update", f.contentEv("updated", parent, b), f.contentEv("updated", parent, cc))
		Want(t, c.Delete(base+"/"+cc), 204)
		log.Expect(t, "delete", f.contentEv("deleted", parent, cc))

		c.Post(base, map[string]any{"localeUuid": en, "displayName": "dup"})
		c.Post(base+"/bulk", []any{map[string]any{"localeUuid": fr, "displayName": "ok"}, map[string]any{"localeUuid": de, "displayName": "dup"}})
		c.Patch(base+"/"+a, map[string]any{"localeUuid": de})
		c.Delete(base + "/" + cc)
		c.Post(f.contentsOf(randomUUID()), map[string]any{"localeUuid": fr, "displayName": "x"})
		log.Expect(t, "refused writes")

		// Deleting the parent deletes its contents with it: one event for the parent.
		Want(t, c.Delete(f.item(parent)), 204)
		log.Expect(t, "delete parent", f.ev("deleted", parent))
		if n := CountRows(t, pool, "contents", tenant); n != 0 {
			t.Errorf("%d contents left after deleting their parent", n)
		}
		WantProblem(t, c.Get(base), 404, "NOT_FOUND")
		// The locales are free again.
		Want(t, c.Delete("/v1/locales/"+de), 204)
	})
}

func TestLocaleUsedByContentIsInUse(t *testing.T) {
	forEachContentFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		CreateLocale(t, c, "en-US") // the default
		de := CreateLocale(t, c, "de-DE")
		parent := Str(f.create(t, c, "acme"), "uuid")
		content := Str(mkContent(t, c, f.contentsOf(parent), de, "Acme DE"), "uuid")
		WantProblem(t, c.Delete("/v1/locales/"+de), 409, "IN_USE")
		Want(t, c.Delete(f.contentsOf(parent)+"/"+content), 204)
		Want(t, c.Delete("/v1/locales/"+de), 204)
	})
}

func TestIncludeAndExpandContents(t *testing.T) {
	forEachContentFamily(t, func(t *testing.T, f family) {
		c := env.Client(t)
		en, de := CreateLocale(t, c, "en-US"), CreateLocale(t, c, "de-DE")
		a := Str(f.create(t, c, "acme"), "uuid")
		b := Str(f.create(t, c, "bare"), "uuid")
		ca := mkContent(t, c, f.contentsOf(a), en, "Acme", "description", "EN")
		cb := mkContent(t, c, f.contentsOf(a), de, "Acme DE")

		// Without the flags both are null; false is the same.
		for _, query := range []string{"", Q("include[contents]", "false", "expand[contents]", "false")} {
			r := Want(t, c.Get(f.item(a)+query), 200)
			if !bytes.Contains(r.Raw, []byte(`"contentUuids":null`)) || !bytes.Contains(r.Raw, []byte(`"contents":null`)) {
				t.Errorf("get %s: %s", query, r.Raw)
			}
		}
		// include: the uuids in creation order; expand: the entries as the content API gives them.
		g := Want(t, c.Get(f.item(a)+Q("include[contents]", "true")), 200).Obj()
		if !reflect.DeepEqual(g["contentUuids"], []any{ca["uuid"], cb["uuid"]}) || g["contents"] != nil {
			t.Errorf("include: %v", g)
		}
		g = Want(t, c.Get(f.item(a)+Q("expand[contents]", "true")), 200).Obj()
		if !reflect.DeepEqual(g["contents"], []any{ca, cb}) || g["contentUuids"] != nil {
			t.Errorf("expand: %v, want contents %v, %v", g, ca, cb)
		}
		g = Want(t, c.Get(f.item(b)+Q("include[contents]", "true", "expand[contents]", "true")), 200).Obj()
		if !reflect.DeepEqual(g["contentUuids"], []any{}) || !reflect.DeepEqual(g["contents"], []any{}) {
			t.Errorf("both flags on an item without contents: %v", g)
		}
		WantKeys(t, "get with flags", g, f.keys...)

		// Lists: per item, also with filters and paging.
		items := Want(t, c.Get(f.path+Q("include[contents]", "true", "expand[contents]", "true", "code[order]", "asc")), 200).Items()
		if len(items) != 2 || !reflect.DeepEqual(items[0]["contentUuids"], []any{ca["uuid"], cb["uuid"]}) ||
			!reflect.DeepEqual(items[0]["contents"], []any{ca, cb}) || !reflect.DeepEqual(items[1]["contents"], []any{}) {
			t.Errorf("list with include and expand: %v", items)
		}
		items = Want(t, c.Get(f.path+Q("include[contents]", "true", "codes[eq]", "bare")), 200).Items()
		if len(items) != 1 || !reflect.DeepEqual(items[0]["contentUuids"], []any{}) || items[0]["contents"] != nil {
			t.Errorf("filtered list with include: %v", items)
		}
		items = Want(t, c.Get(f.path), 200).Items()
		for _, it := range items {
			if it["contentUuids"] != nil || it["contents"] != nil {
				t.Errorf("list without flags: %v", it)
			}
		}
		WantProblem(t, c.Get(f.item(a)+Q("include[contents]", "yes")), 400, "MALFORMED_REQUEST", "include[contents]")
		WantProblem(t, c.Get(f.path+Q("expand[terms]", "true")), 400, "MALFORMED_REQUEST", "expand[terms]")

		// Create and update responses carry null there.
		u := Want(t, c.Patch(f.item(a), map[string]any{"displayName": "ACME"}), 200).Obj()
		if u["contentUuids"] != nil || u["contents"] != nil {
			t.Errorf("update response: %v", u)
		}
	})
}
