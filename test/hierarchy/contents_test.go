package hierarchy

import (
	"bytes"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

var contentKeys = []string{"uuid", "createdAt", "updatedAt", "categoryUuid", "localeUuid", "displayName", "description"}

func contentEv(verb, cat, id string) Event {
	return Ev("category.content."+verb, "categoryUuid", cat, "categoryContentUuid", id)
}

// The seven category content operations, their shapes and events.
func TestCategoryContents(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant)
	en := CreateLocale(t, c, "en-US")
	de := CreateLocale(t, c, "de-DE")
	fr := CreateLocale(t, c, "fr-FR")
	it := CreateLocale(t, c, "it-IT")
	cat := categoriesF.createID(t, c, "shoes")
	base := contentsOf(cat)
	log.Skip(t)

	// Create: 201, Location, every key, description null when absent.
	r := Want(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "Shoes", "description": "Things for feet"}), 201)
	a := r.Obj()
	WantKeys(t, "create", a, contentKeys...)
	WantCommon(t, "create", a)
	if a["categoryUuid"] != cat || a["localeUuid"] != en || a["displayName"] != "Shoes" || a["description"] != "Things for feet" {
		t.Errorf("created %v", a)
	}
	if loc := r.Header.Get("Location"); loc != base+"/"+Str(a, "uuid") {
		t.Errorf("Location %q", loc)
	}
	log.Expect(t, "create", contentEv("created", cat, Str(a, "uuid")))
	// Get answers the same.
	if g := Want(t, c.Get(base+"/"+Str(a, "uuid")), 200); !bytes.Equal(g.Raw, r.Raw) {
		t.Errorf("get %s differs from create %s", g.Raw, r.Raw)
	}

	// Bulk create in request order.
	res := Want(t, c.Post(base+"/bulk", []any{
		map[string]any{"localeUuid": fr, "displayName": "Chaussures"},
		map[string]any{"localeUuid": de, "displayName": "Schuhe", "description": "Für Füße"},
	}), 201).Objs()
	if len(res) != 2 || res[0]["localeUuid"] != fr || res[0]["description"] != nil || res[1]["localeUuid"] != de {
		t.Fatalf("bulk create: %v", res)
	}
	for _, x := range res {
		WantKeys(t, "bulk item", x, contentKeys...)
		if x["categoryUuid"] != cat {
			t.Errorf("bulk item parent %v", x["categoryUuid"])
		}
	}
	frID, deID := Str(res[0], "uuid"), Str(res[1], "uuid")
	log.Expect(t, "bulk create", contentEv("created", cat, frID), contentEv("created", cat, deID))

	// List with filters and order.
	WantUUIDs(t, c, base, true, Str(a, "uuid"), frID, deID)
	WantUUIDs(t, c, base+Q("localeUuids[eq]", de), false, deID)
	WantUUIDs(t, c, base+Q("displayName[starts]", "sch"), false, deID)
	WantUUIDs(t, c, base+Q("displayName[order]", "asc"), true, frID, deID, Str(a, "uuid"))

	// Update: only the fields given; null clears description.
	u := Want(t, c.Patch(base+"/"+Str(a, "uuid"), map[string]any{"description": nil, "displayName": "Footwear"}), 200).Obj()
	if u["description"] != nil || u["displayName"] != "Footwear" || u["localeUuid"] != en || u["createdAt"] != a["createdAt"] {
		t.Errorf("update: %v", u)
	}
	log.Expect(t, "update", contentEv("updated", cat, Str(a, "uuid")))
	// Bulk update.
	res = Want(t, c.Patch(base+"/bulk", []any{
		map[string]any{"uuid": deID, "displayName": "Schuhwerk"},
		map[string]any{"uuid": frID, "localeUuid": it, "description": "Scarpe"},
	}), 200).Objs()
	if len(res) != 2 || res[0]["displayName"] != "Schuhwerk" || res[1]["localeUuid"] != it || res[1]["description"] != "Scarpe" {
		t.Errorf("bulk update: %v", res)
	}
	log.Expect(t, "bulk update", contentEv("updated", cat, deID), contentEv("updated", cat, frID))

	// One entry per locale, locales of the tenant only.
	WantProblem(t, c.Post(base, map[string]any{"localeUuid": en, "displayName": "x"}), 409, "ALREADY_EXISTS", "localeUuid")
	WantProblem(t, c.Post(base+"/bulk", []any{map[string]any{"localeUuid": fr, "displayName": "x"}, map[string]any{"localeUuid": de, "displayName": "y"}}), 409, "ALREADY_EXISTS", "[1].localeUuid")
	WantProblem(t, c.Patch(base+"/"+deID, map[string]any{"localeUuid": en}), 409, "ALREADY_EXISTS", "localeUuid")
	WantProblem(t, c.Post(base, map[string]any{"localeUuid": UnknownUUID, "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
	WantProblem(t, c.Post(base, map[string]any{"localeUuid": CreateLocale(t, env.Client(t), "en-US"), "displayName": "x"}), 404, "NOT_FOUND", "localeUuid")
	WantProblem(t, c.Post(base, map[string]any{"localeUuid": fr}), 400, "VALIDATION_FAILED", "displayName")
	WantProblem(t, c.Post(base, map[string]any{"localeUuid": fr, "displayName": "x", "description": strings.Repeat("d", 10001)}), 400, "VALIDATION_FAILED", "description")
	WantProblem(t, c.Patch(base+"/bulk", []any{map[string]any{"uuid": deID, "displayName": "ok"}, map[string]any{"uuid": UnknownUUID, "displayName": "x"}}), 404, "NOT_FOUND", "[1].uuid")
	log.Expect(t, "refused writes")

	// Unknown category, unknown content, a content of another category.
	WantProblem(t, c.Get(contentsOf(UnknownUUID)), 404, "NOT_FOUND")
	WantProblem(t, c.Post(contentsOf(UnknownUUID), map[string]any{"localeUuid": fr, "displayName": "x"}), 404, "NOT_FOUND")
	WantProblem(t, c.Get(contentsOf("nope")), 400, "VALIDATION_FAILED", "categoryUuid")
	WantProblem(t, c.Get(base+"/"+UnknownUUID), 404, "NOT_FOUND")
	WantProblem(t, c.Get(base+"/nope"), 400, "VALIDATION_FAILED", "categoryContentUuid")
	cat2 := categoriesF.createID(t, c, "hats")
	WantProblem(t, c.Get(contentsOf(cat2)+"/"+deID), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(contentsOf(cat2)+"/"+deID), 404, "NOT_FOUND")
	log.Skip(t)

	// Delete: 204, then gone.
	Want(t, c.Delete(base+"/"+deID), 204)
	WantProblem(t, c.Get(base+"/"+deID), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(base+"/"+deID), 404, "NOT_FOUND")
	log.Expect(t, "delete", contentEv("deleted", cat, deID))
	WantUUIDs(t, c, base, false, Str(a, "uuid"), frID)

	// A collection has no contents.
	Want(t, c.Get("/v1/collections/"+collectionsF.createID(t, c, "c")+"/contents"), 404)
}

func TestCategoryIncludeExpand(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	en := CreateLocale(t, c, "en-US")
	de := CreateLocale(t, c, "de-DE")
	a := categoriesF.createID(t, c, "a")
	b := categoriesF.createID(t, c, "b", "parentUuid", a)
	ca := mkContent(t, c, a, en, "A", "description", "about a")
	cb := mkContent(t, c, a, de, "A de")

	// Get: null without the flags, the uuids with include, the objects with expand.
	g := categoriesF.get(t, c, a)
	if v, ok := g["contentUuids"]; !ok || v != nil {
		t.Errorf("contentUuids without include: %v", g)
	}
	g = Want(t, c.Get(categoriesF.path(a)+Q("include[contents]", "true")), 200).Obj()
	if ids, _ := g["contentUuids"].([]any); len(ids) != 2 || ids[0] != ca["uuid"] || ids[1] != cb["uuid"] || g["contents"] != nil {
		t.Errorf("include[contents]: %v", g)
	}
	g = Want(t, c.Get(categoriesF.path(a)+Q("expand[contents]", "true")), 200).Obj()
	objs, _ := g["contents"].([]any)
	if len(objs) != 2 || g["contentUuids"] != nil {
		t.Fatalf("expand[contents]: %v", g)
	}
	WantKeys(t, "expanded content", objs[0].(map[string]any), contentKeys...)
	if first := objs[0].(map[string]any); first["uuid"] != ca["uuid"] || first["description"] != "about a" || first["categoryUuid"] != a {
		t.Errorf("expanded content %v, want %v", first, ca)
	}
	// A category without contents: [] when asked.
	r := Want(t, c.Get(categoriesF.path(b)+Q("include[contents]", "true", "expand[contents]", "true")), 200)
	if !bytes.Contains(r.Raw, []byte(`"contentUuids":[]`)) || !bytes.Contains(r.Raw, []byte(`"contents":[]`)) {
		t.Errorf("no contents: %s", r.Raw)
	}
	// include=false is the same as absent.
	if g := Want(t, c.Get(categoriesF.path(a)+Q("include[contents]", "false")), 200).Obj(); g["contentUuids"] != nil {
		t.Errorf("include[contents]=false: %v", g)
	}
	WantProblem(t, c.Get(categoriesF.path(a)+Q("include[contents]", "yes")), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Get(categoriesF.path(a)+Q("include[parent]", "true")), 400, "MALFORMED_REQUEST")

	// Lists too, per item.
	l := Want(t, c.Get("/v1/categories"+Q("include[contents]", "true", "expand[contents]", "true")), 200).Items()
	if len(l) != 2 || len(l[0]["contentUuids"].([]any)) != 2 || len(l[0]["contents"].([]any)) != 2 || len(l[1]["contentUuids"].([]any)) != 0 {
		t.Errorf("list with include/expand: %v", l)
	}
	l = Want(t, c.Get("/v1/categories"), 200).Items()
	for _, it := range l {
		if it["contentUuids"] != nil || it["contents"] != nil {
			t.Errorf("list without flags: %v", it)
		}
	}
	// Collections take no include/expand.
	Want(t, c.Get("/v1/collections"+Q("include[contents]", "true")), 400)

	// Deleting a category deletes its contents, with one category.deleted event.
	Want(t, c.Delete(categoriesF.path(b)), 204)
	log := NewEventLog(pool, tenant)
	log.Skip(t)
	if n := CountRows(t, pool, "contents", tenant); n != 2 {
		t.Fatalf("%d contents before the delete", n)
	}
	Want(t, c.Delete(categoriesF.path(a)), 204)
	WantProblem(t, c.Get(contentsOf(a)), 404, "NOT_FOUND")
	if n := CountRows(t, pool, "contents", tenant); n != 0 {
		t.Errorf("%d contents left after deleting their category", n)
	}
	log.Expect(t, "delete with contents", categoriesF.ev("deleted", a))
	// The locales they used can go now.
	Want(t, c.Delete("/v1/locales/"+de), 204)
}
