package inputs

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func wantChannel(t *testing.T, what string, ch map[string]any, code, name string, locales ...string) {
	t.Helper()
	wantKeys(t, what, ch, "uuid", "createdAt", "updatedAt", "code", "displayName", "localeUuids")
	wantCommon(t, what, ch)
	if locales == nil {
		locales = []string{}
	}
	wantFields(t, what, ch, "code", code, "displayName", name, "localeUuids", locales)
}

func TestChannelOperations(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	en, de, fr := mkLocale(t, c, "en-US"), mkLocale(t, c, "de-DE"), mkLocale(t, c, "fr-FR")

	// Create without locales: an empty array.
	r := Want(t, c.Post("/v1/channels", body("code", "web")), 201)
	web := r.Obj()
	wantChannel(t, "create", web, "web", "web")
	if !strings.Contains(string(r.Raw), `"localeUuids":[]`) {
		t.Errorf("localeUuids not an empty array: %s", r.Raw)
	}
	if loc := r.Header.Get("Location"); loc != "/v1/channels/"+str(web, "uuid") {
		t.Errorf("Location %q", loc)
	}
	// Locales keep the order given.
	shop := Want(t, c.Post("/v1/channels", body("code", "shop_de", "displayName", "Shop DE", "localeUuids", []string{de, en})), 201).Obj()
	wantChannel(t, "create with locales", shop, "shop_de", "Shop DE", de, en)
	id := str(shop, "uuid")
	if got := Want(t, c.Get("/v1/channels/"+id), 200).Obj(); !reflect.DeepEqual(got, shop) {
		t.Errorf("get = %v, want %v", got, shop)
	}

	// Update: localeUuids replaces the list; null or absent leaves it.
	u := Want(t, c.Patch("/v1/channels/"+id, body("localeUuids", []string{fr, de, en})), 200).Obj()
	wantChannel(t, "replace locales", u, "shop_de", "Shop DE", fr, de, en)
	u = Want(t, c.Patch("/v1/channels/"+id, body("displayName", "Shop", "localeUuids", nil)), 200).Obj()
	wantChannel(t, "null locales", u, "shop_de", "Shop", fr, de, en)
	u = Want(t, c.Patch("/v1/channels/"+id, body("code", "shop")), 200).Obj()
	wantChannel(t, "absent locales", u, "shop", "Shop", fr, de, en)
	if !ts(t, u["updatedAt"]).After(ts(t, shop["updatedAt"])) || u["createdAt"] != shop["createdAt"] {
		t.Errorf("update timestamps %v / %v", u, shop)
	}
	u = Want(t, c.Patch("/v1/channels/"+id, body("localeUuids", []string{})), 200).Obj()
	wantChannel(t, "no locales", u, "shop", "Shop")
	u = Want(t, c.Patch("/v1/channels/"+id, body("localeUuids", []string{en})), 200).Obj()
	wantChannel(t, "one locale", u, "shop", "Shop", en)
	if got := Want(t, c.Get("/v1/channels/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
		t.Errorf("get after update = %v, want %v", got, u)
	}

	// Bulk create and bulk update, in request order.
	items := Want(t, c.Post("/v1/channels/bulk", []any{
		body("code", "pos", "localeUuids", []string{fr}),
		body("code", "app", "displayName", "App", "localeUuids", []string{en, fr}),
		body("code", "print"),
	}), 201).Objs()
	if len(items) != 3 {
		t.Fatalf("bulk create %v", items)
	}
	wantChannel(t, "bulk [0]", items[0], "pos", "pos", fr)
	wantChannel(t, "bulk [1]", items[1], "app", "App", en, fr)
	wantChannel(t, "bulk [2]", items[2], "print", "print")
	up := Want(t, c.Patch("/v1/channels/bulk", []any{
		body("uuid", str(items[2], "uuid"), "localeUuids", []string{de}),
		body("uuid", str(items[1], "uuid"), "localeUuids", []string{fr, en}, "code", "mobile"),
		body("uuid", str(items[0], "uuid"), "displayName", "Point of sale"),
	}), 200).Objs()
	if len(up) != 3 {
		t.Fatalf("bulk update %v", up)
	}
	wantChannel(t, "bulk update [0]", up[0], "print", "print", de)
	wantChannel(t, "bulk update [1]", up[1], "mobile", "App", fr, en)
	wantChannel(t, "bulk update [2]", up[2], "pos", "Point of sale", fr)

	// Delete takes the channel's locale list and input type links with it.
	g := mkTypeGroup(t, c, "g", "product")
	it := str(mkInputType(t, c, g, "title", "text"), "uuid")
	mkLink(t, c, id, it, "required")
	Want(t, c.Delete("/v1/channels/"+id), 204)
	problem(t, "get deleted", c.Get("/v1/channels/"+id), 404, "NOT_FOUND")
	problem(t, "delete deleted", c.Delete("/v1/channels/"+id), 404, "NOT_FOUND")
	problem(t, "links of a deleted channel", c.Get(cits(id)), 404, "NOT_FOUND")
	if n := countRows(t, "channel_input_types", tenant); n != 0 {
		t.Errorf("%d channel input types left", n)
	}
	if n := countRows(t, "channel_locales", tenant); n != 4 { // pos 1, mobile 2, print 1, web 0; none of the deleted one
		t.Errorf("%d channel locale rows, want 4", n)
	}
	Want(t, c.Delete("/v1/input-types/"+it), 204) // no longer linked
	wantTotal(t, c, "/v1/channels", 4)
}

func TestChannelValidation(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	en, de := mkLocale(t, c, "en-US"), mkLocale(t, c, "de-DE")
	oc, _ := tenantClient(t)
	foreign := mkLocale(t, oc, "en-US")
	web := str(mkChannel(t, c, "web", en), "uuid")
	app := str(mkChannel(t, c, "app"), "uuid")
	log := newLog(t, tenant)

	problem(t, "no code", c.Post("/v1/channels", body("localeUuids", []string{en})), 400, "VALIDATION_FAILED", "code")
	problem(t, "empty displayName", c.Post("/v1/channels", body("code", "x", "displayName", "")), 400, "VALIDATION_FAILED", "displayName")
	problem(t, "duplicate code", c.Post("/v1/channels", body("code", "web")), 409, "ALREADY_EXISTS", "code")
	problem(t, "bad locale uuid", c.Post("/v1/channels", body("code", "x", "localeUuids", []string{en, "nope"})), 400, "VALIDATION_FAILED", "localeUuids[1]")
	problem(t, "repeated locale", c.Post("/v1/channels", body("code", "x", "localeUuids", []string{en, de, en})), 400, "VALIDATION_FAILED", "localeUuids[2]")
	problem(t, "unknown locale", c.Post("/v1/channels", body("code", "x", "localeUuids", []string{en, unknownUUID})), 404, "NOT_FOUND", "localeUuids[1]")
	problem(t, "another tenant's locale", c.Post("/v1/channels", body("code", "x", "localeUuids", []string{foreign})), 404, "NOT_FOUND", "localeUuids[0]")
	problem(t, "localeUuids not an array", c.Post("/v1/channels", body("code", "x", "localeUuids", en)), 400, "MALFORMED_REQUEST", "localeUuids")
	problem(t, "localeUuids of numbers", c.Post("/v1/channels", body("code", "x", "localeUuids", []int{1})), 400, "MALFORMED_REQUEST")
	many := make([]string, 101)
	for i := range many {
		many[i] = en
	}
	problem(t, "101 locales", c.Post("/v1/channels", body("code", "x", "localeUuids", many)), 400, "VALIDATION_FAILED", "localeUuids")
	problem(t, "bad path uuid", c.Get("/v1/channels/x"), 400, "VALIDATION_FAILED", "channelUuid")

	// Bulk.
	problem(t, "bulk unknown locale", c.Post("/v1/channels/bulk", []any{
		body("code", "a1", "localeUuids", []string{en}), body("code", "a2", "localeUuids", []string{de, foreign}),
	}), 404, "NOT_FOUND", "[1].localeUuids[1]")
	problem(t, "bulk repeated locale", c.Post("/v1/channels/bulk", []any{
		body("code", "a1"), body("code", "a2", "localeUuids", []string{de, de}),
	}), 400, "VALIDATION_FAILED", "[1].localeUuids[1]")
	problem(t, "bulk duplicate code", c.Post("/v1/channels/bulk", []any{
		body("code", "a1", "localeUuids", []string{en}), body("code", "a1"),
	}), 409, "ALREADY_EXISTS", "[1].code")
	wantTotal(t, c, "/v1/channels", 2)

	// Updates.
	problem(t, "update unknown locale", c.Patch("/v1/channels/"+web, body("localeUuids", []string{de, unknownUUID})), 404, "NOT_FOUND", "localeUuids[1]")
	problem(t, "update repeated locale", c.Patch("/v1/channels/"+web, body("localeUuids", []string{de, de})), 400, "VALIDATION_FAILED", "localeUuids[1]")
	problem(t, "update taken code", c.Patch("/v1/channels/"+app, body("code", "web")), 409, "ALREADY_EXISTS", "code")
	problem(t, "bulk update unknown locale", c.Patch("/v1/channels/bulk", []any{
		body("uuid", web, "localeUuids", []string{de}), body("uuid", app, "localeUuids", []string{foreign}),
	}), 404, "NOT_FOUND", "[1].localeUuids[0]")
	problem(t, "bulk update bad locale", c.Patch("/v1/channels/bulk", []any{
		body("uuid", web, "localeUuids", []string{de}), body("uuid", app, "localeUuids", []string{"x"}),
	}), 400, "VALIDATION_FAILED", "[1].localeUuids[0]")
	wantChannel(t, "unchanged by refused updates", Want(t, c.Get("/v1/channels/"+web), 200).Obj(), "web", "web", en)
	log.expect(t, "refused writes emit nothing")
}

// A locale a channel needs cannot be deleted.
func TestLocaleNeededByChannel(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	en, de := mkLocale(t, c, "en-US"), mkLocale(t, c, "de-DE")
	ch := str(mkChannel(t, c, "shop", en, de), "uuid")
	log := newLog(t, tenant)
	problem(t, "delete a needed locale", c.Delete("/v1/locales/"+de), 409, "IN_USE")
	log.expect(t, "refused")
	Want(t, c.Get("/v1/locales/"+de), 200)
	Want(t, c.Patch("/v1/channels/"+ch, body("localeUuids", []string{en})), 200)
	Want(t, c.Delete("/v1/locales/"+de), 204)
	log.expect(t, "after the channel let it go", ev("channel.updated", "channelUuid", ch), ev("locale.deleted", "localeUuid", de))
	// A deleted channel needs nothing.
	fr := mkLocale(t, c, "fr-FR")
	ch2 := str(mkChannel(t, c, "shop_fr", fr), "uuid")
	problem(t, "delete a needed locale", c.Delete("/v1/locales/"+fr), 409, "IN_USE")
	Want(t, c.Delete("/v1/channels/"+ch2), 204)
	Want(t, c.Delete("/v1/locales/"+fr), 204)
}

func TestChannelList(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	en, de, fr, it := mkLocale(t, c, "en-US"), mkLocale(t, c, "de-DE"), mkLocale(t, c, "fr-FR"), mkLocale(t, c, "it-IT")
	items := Want(t, c.Post("/v1/channels/bulk", []any{
		body("code", "web_de", "displayName", "Web Germany", "localeUuids", []string{de, en}),
		body("code", "web_fr", "displayName", "Web France", "localeUuids", []string{fr}),
		body("code", "app", "displayName", "App 100%", "localeUuids", []string{en, fr}),
		body("code", "print", "displayName", "Print"),
	}), 201).Objs()
	ids := uuidsOf(items)
	wde, wfr, app, print := ids[0], ids[1], ids[2], ids[3]
	late := str(mkChannel(t, c, "zz_pos", en), "uuid")
	lateObj := Want(t, c.Get("/v1/channels/"+late), 200).Obj()
	Want(t, c.Patch("/v1/channels/"+wfr, body("localeUuids", []string{fr, de})), 200)
	wfrObj := Want(t, c.Get("/v1/channels/"+wfr), 200).Obj()

	base := "/v1/channels"
	wantUUIDs(t, c, base, true, wde, wfr, app, print, late)
	wantUUIDs(t, c, base+q("uuids[eq]", wde, "uuids[eq]", print), false, wde, print)
	wantUUIDs(t, c, base+q("codes[eq]", "app", "codes[eq]", "print"), false, app, print)
	wantUUIDs(t, c, base+q("code[contains]", "_"), false, wde, wfr, late)
	wantUUIDs(t, c, base+q("code[starts]", "WEB"), false, wde, wfr)
	wantUUIDs(t, c, base+q("code[ends]", "fr"), false, wfr)
	wantUUIDs(t, c, base+q("displayNames[eq]", "Print", "displayNames[eq]", "Web France"), false, print, wfr)
	wantUUIDs(t, c, base+q("displayName[contains]", "%"), false, app)
	wantUUIDs(t, c, base+q("displayName[starts]", "web"), false, wde, wfr)
	wantUUIDs(t, c, base+q("displayName[ends]", "ANY"), false, wde)
	// localeUuids[eq]: channels needing any of the locales.
	wantUUIDs(t, c, base+q("localeUuids[eq]", en), false, wde, app, late)
	wantUUIDs(t, c, base+q("localeUuids[eq]", de), false, wde, wfr)
	wantUUIDs(t, c, base+q("localeUuids[eq]", fr, "localeUuids[eq]", de), false, wde, wfr, app)
	wantUUIDs(t, c, base+q("localeUuids[eq]", it), false)
	wantUUIDs(t, c, base+q("localeUuids[eq]", unknownUUID), false)
	wantUUIDs(t, c, base+q("localeUuids[eq]", en, "code[starts]", "web"), false, wde)
	wantUUIDs(t, c, base+q("localeUuids[eq]", en, "uuids[eq]", app, "uuids[eq]", wfr), false, app)
	wantUUIDs(t, c, base+q("localeUuids[eq]", en, "code[order]", "desc"), true, late, wde, app)
	r := Want(t, c.Get(base+q("localeUuids[eq]", en, "size", "2")), 200)
	if p := r.Obj()["pagination"].(map[string]any); p["totalItems"] != 3.0 || p["totalPages"] != 2.0 || len(r.Items()) != 2 {
		t.Errorf("localeUuids page: %s", r.Raw)
	}
	wantUUIDs(t, c, base+q("createdAt[min]", str(lateObj, "createdAt")), false, late)
	wantUUIDs(t, c, base+q("createdAt[max]", str(items[0], "createdAt")), false, wde, wfr, app, print)
	wantUUIDs(t, c, base+q("createdAt[eq]", str(lateObj, "createdAt")), false, late)
	wantUUIDs(t, c, base+q("updatedAt[min]", str(wfrObj, "updatedAt")), false, wfr)
	wantUUIDs(t, c, base+q("updatedAt[eq]", str(wfrObj, "updatedAt")), false, wfr)
	wantUUIDs(t, c, base+q("updatedAt[max]", str(lateObj, "updatedAt")), false, wde, app, print, late)
	wantUUIDs(t, c, base+q("code[order]", "asc"), true, app, print, wde, wfr, late)
	wantUUIDs(t, c, base+q("displayName[order]", "desc"), true, late, wde, wfr, print, app)
	wantUUIDs(t, c, base+q("createdAt[order]", "desc"), true, late, print, app, wfr, wde)
	wantUUIDs(t, c, base+q("updatedAt[order]", "desc"), true, wfr, late, print, app, wde)
	// Items carry their locales, in order.
	for _, x := range Want(t, c.Get(base), 200).Items() {
		if x["uuid"] == wfr && !reflect.DeepEqual(x, wfrObj) {
			t.Errorf("list item %v != get %v", x, wfrObj)
		}
		if x["uuid"] == wde {
			wantChannel(t, "list item", x, "web_de", "Web Germany", de, en)
		}
		if x["uuid"] == print {
			wantChannel(t, "list item", x, "print", "Print")
		}
	}
	problem(t, "bad locale uuid", c.Get(base+q("localeUuids[eq]", "x")), 400, "VALIDATION_FAILED", "localeUuids[eq]")
	problem(t, "unknown parameter", c.Get(base+q("localeUuid[eq]", en)), 400, "MALFORMED_REQUEST")
}

func TestChannelEvents(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	en := mkLocale(t, c, "en-US")
	log := newLog(t, tenant)
	cev := func(verb, id string) event { return ev("channel."+verb, "channelUuid", id) }

	a := str(mkChannel(t, c, "a", en), "uuid")
	log.expect(t, "create", cev("created", a))
	items := Want(t, c.Post("/v1/channels/bulk", []any{body("code", "b"), body("code", "c", "localeUuids", []string{en})}), 201).Objs()
	b, cc := str(items[0], "uuid"), str(items[1], "uuid")
	log.expect(t, "bulk create", cev("created", b), cev("created", cc))
	Want(t, c.Patch("/v1/channels/"+a, body("localeUuids", []string{})), 200)
	log.expect(t, "update", cev("updated", a))
	Want(t, c.Patch("/v1/channels/bulk", []any{body("uuid", b, "localeUuids", []string{en}), body("uuid", cc, "code", "cc")}), 200)
	log.expect(t, "bulk update", cev("updated", b), cev("updated", cc))
	// Deleting a channel with links emits only channel.deleted.
	g := mkTypeGroup(t, c, "g", "product")
	it := str(mkInputType(t, c, g, "t", "text"), "uuid")
	mkLink(t, c, cc, it, "optional")
	log.seen = len(log.all(t))
	Want(t, c.Delete("/v1/channels/"+cc), 204)
	log.expect(t, "delete", cev("deleted", cc))
	c.Delete("/v1/channels/" + cc)
	c.Post("/v1/channels", body("code", "a"))
	c.Post("/v1/channels", body("code", "z", "localeUuids", []string{unknownUUID}))
	c.Patch("/v1/channels/"+a, body("localeUuids", []string{unknownUUID}))
	log.expect(t, "refused writes")
}
