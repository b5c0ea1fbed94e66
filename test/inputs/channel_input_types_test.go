package inputs

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func wantLink(t *testing.T, what string, l map[string]any, channel, inputType, level, scoping string) {
	t.Helper()
	WantKeys(t, what, l, "uuid", "createdAt", "updatedAt", "channelUuid", "inputTypeUuid", "requirementLevel", "scoping")
	WantCommon(t, what, l)
	WantFields(t, what, l, "channelUuid", channel, "inputTypeUuid", inputType, "requirementLevel", level, "scoping", scoping)
}

// inputTypes makes n text input types in a fresh group and returns their uuids.
func inputTypes(t *testing.T, c *Client, codes ...string) []string {
	t.Helper()
	g := mkTypeGroup(t, c, "g_"+RandomHex(3), "product")
	out := make([]string, len(codes))
	for i, code := range codes {
		out[i] = Str(mkInputType(t, c, g, code, "text"), "uuid")
	}
	return out
}

func TestChannelInputTypeOperations(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	its := inputTypes(t, c, "title", "description", "price", "ean")
	title, desc, price, ean := its[0], its[1], its[2], its[3]
	ch := Str(mkChannel(t, c, "web"), "uuid")
	other := Str(mkChannel(t, c, "app"), "uuid")
	base := cits(ch)

	// Link: scoping defaults to global.
	r := Want(t, c.Post(base, Body("inputTypeUuid", title, "requirementLevel", "required")), 201)
	l := r.Obj()
	wantLink(t, "create", l, ch, title, "required", "global")
	id := Str(l, "uuid")
	if loc := r.Header.Get("Location"); loc != base+"/"+id {
		t.Errorf("Location %q, want %s", loc, base+"/"+id)
	}
	if got := Want(t, c.Get(r.Header.Get("Location")), 200).Obj(); !reflect.DeepEqual(got, l) {
		t.Errorf("get = %v, want %v", got, l)
	}
	l2 := mkLink(t, c, ch, desc, "recommended", "scoping", "channel")
	wantLink(t, "create with scoping", l2, ch, desc, "recommended", "channel")
	// The same input type on another channel is another link.
	wantLink(t, "other channel", mkLink(t, c, other, title, "optional"), other, title, "optional", "global")

	// Update.
	u := Want(t, c.Patch(base+"/"+id, Body("requirementLevel", "optional", "scoping", nil)), 200).Obj()
	wantLink(t, "update level", u, ch, title, "optional", "global")
	u = Want(t, c.Patch(base+"/"+id, Body("scoping", "channel")), 200).Obj()
	wantLink(t, "update scoping", u, ch, title, "optional", "channel")
	u = Want(t, c.Patch(base+"/"+id, Body("inputTypeUuid", price)), 200).Obj()
	wantLink(t, "update input type", u, ch, price, "optional", "channel")
	if !TS(t, u["updatedAt"]).After(TS(t, l["updatedAt"])) || u["createdAt"] != l["createdAt"] {
		t.Errorf("update timestamps %v / %v", u, l)
	}
	if got := Want(t, c.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
		t.Errorf("get after update = %v, want %v", got, u)
	}

	// Bulk link and bulk update, in request order.
	items := Want(t, c.Post(base+"/bulk", []any{
		Body("inputTypeUuid", ean, "requirementLevel", "required", "scoping", "channel"),
		Body("inputTypeUuid", title, "requirementLevel", "recommended"),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create %v", items)
	}
	wantLink(t, "bulk [0]", items[0], ch, ean, "required", "channel")
	wantLink(t, "bulk [1]", items[1], ch, title, "recommended", "global")
	up := Want(t, c.Patch(base+"/bulk", []any{
		Body("uuid", Str(items[1], "uuid"), "requirementLevel", "required"),
		Body("uuid", Str(items[0], "uuid"), "scoping", "global"),
	}), 200).Objs()
	wantLink(t, "bulk update [0]", up[0], ch, title, "required", "global")
	wantLink(t, "bulk update [1]", up[1], ch, ean, "required", "global")
	WantTotal(t, c, base, 4)
	WantTotal(t, c, cits(other), 1)

	// Unlink.
	Want(t, c.Delete(base+"/"+id), 204)
	Problem(t, "get unlinked", c.Get(base+"/"+id), 404, "NOT_FOUND")
	Problem(t, "unlink twice", c.Delete(base+"/"+id), 404, "NOT_FOUND")
	WantTotal(t, c, base, 3)
	// Unlinked, the input type can be linked again.
	wantLink(t, "relink", mkLink(t, c, ch, price, "required"), ch, price, "required", "global")
}

func TestChannelInputTypeValidation(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	its := inputTypes(t, c, "title", "description", "price")
	title, desc, price := its[0], its[1], its[2]
	oc, _ := env.TenantClient(t)
	foreign := inputTypes(t, oc, "title")[0]
	ch := Str(mkChannel(t, c, "web"), "uuid")
	other := Str(mkChannel(t, c, "app"), "uuid")
	base := cits(ch)
	a := Str(mkLink(t, c, ch, title, "required"), "uuid")
	b := Str(mkLink(t, c, ch, desc, "optional"), "uuid")
	otherLink := Str(mkLink(t, c, other, price, "optional"), "uuid")
	log := NewEventLog(pool, tenant).Skip(t)

	Problem(t, "no inputTypeUuid", c.Post(base, Body("requirementLevel", "required")), 400, "VALIDATION_FAILED", "inputTypeUuid")
	Problem(t, "bad inputTypeUuid", c.Post(base, Body("inputTypeUuid", "x", "requirementLevel", "required")), 400, "VALIDATION_FAILED", "inputTypeUuid")
	Problem(t, "unknown inputTypeUuid", c.Post(base, Body("inputTypeUuid", UnknownUUID, "requirementLevel", "required")), 404, "NOT_FOUND", "inputTypeUuid")
	Problem(t, "another tenant's input type", c.Post(base, Body("inputTypeUuid", foreign, "requirementLevel", "required")), 404, "NOT_FOUND", "inputTypeUuid")
	Problem(t, "no requirementLevel", c.Post(base, Body("inputTypeUuid", price)), 400, "VALIDATION_FAILED", "requirementLevel")
	Problem(t, "unknown requirementLevel", c.Post(base, Body("inputTypeUuid", price, "requirementLevel", "mandatory")), 400, "MALFORMED_REQUEST", "requirementLevel")
	Problem(t, "unknown scoping", c.Post(base, Body("inputTypeUuid", price, "requirementLevel", "required", "scoping", "local")), 400, "MALFORMED_REQUEST", "scoping")
	Problem(t, "unknown field", c.Post(base, Body("inputTypeUuid", price, "requirementLevel", "required", "channelUuid", ch)), 400, "MALFORMED_REQUEST", "channelUuid")
	Problem(t, "second link", c.Post(base, Body("inputTypeUuid", title, "requirementLevel", "optional")), 409, "ALREADY_EXISTS", "inputTypeUuid")
	Problem(t, "bulk: same input type twice", c.Post(base+"/bulk", []any{
		Body("inputTypeUuid", price, "requirementLevel", "required"), Body("inputTypeUuid", price, "requirementLevel", "optional"),
	}), 409, "ALREADY_EXISTS", "[1].inputTypeUuid")
	Problem(t, "bulk: unknown input type", c.Post(base+"/bulk", []any{
		Body("inputTypeUuid", price, "requirementLevel", "required"), Body("inputTypeUuid", foreign, "requirementLevel", "optional"),
	}), 404, "NOT_FOUND", "[1].inputTypeUuid")
	Problem(t, "bulk: invalid", c.Post(base+"/bulk", []any{
		Body("inputTypeUuid", price, "requirementLevel", "required"), Body("inputTypeUuid", price),
	}), 400, "VALIDATION_FAILED", "[1].requirementLevel")
	WantTotal(t, c, base, 2)

	// Updates.
	Problem(t, "update onto a linked input type", c.Patch(base+"/"+b, Body("inputTypeUuid", title)), 409, "ALREADY_EXISTS", "inputTypeUuid")
	Problem(t, "update onto an unknown input type", c.Patch(base+"/"+b, Body("inputTypeUuid", UnknownUUID)), 404, "NOT_FOUND", "inputTypeUuid")
	Problem(t, "update onto another tenant's input type", c.Patch(base+"/"+b, Body("inputTypeUuid", foreign)), 404, "NOT_FOUND", "inputTypeUuid")
	Problem(t, "update bad requirementLevel", c.Patch(base+"/"+b, Body("requirementLevel", "")), 400, "MALFORMED_REQUEST", "requirementLevel")
	Problem(t, "bulk update onto a linked input type", c.Patch(base+"/bulk", []any{
		Body("uuid", a, "scoping", "channel"), Body("uuid", b, "inputTypeUuid", title),
	}), 409, "ALREADY_EXISTS", "[1].inputTypeUuid")
	Problem(t, "bulk update onto an unknown input type", c.Patch(base+"/bulk", []any{
		Body("uuid", a, "scoping", "channel"), Body("uuid", b, "inputTypeUuid", foreign),
	}), 404, "NOT_FOUND", "[1].inputTypeUuid")
	Problem(t, "bulk update of another channel's link", c.Patch(base+"/bulk", []any{
		Body("uuid", a, "scoping", "channel"), Body("uuid", otherLink, "scoping", "channel"),
	}), 404, "NOT_FOUND", "[1].uuid")
	wantLink(t, "unchanged", Want(t, c.Get(base+"/"+a), 200).Obj(), ch, title, "required", "global")

	// The channel path.
	for _, p := range []string{cits(UnknownUUID), cits(UnknownUUID) + "/" + a} {
		Problem(t, "unknown channel "+p, c.Get(p), 404, "NOT_FOUND")
	}
	Problem(t, "bad channel uuid", c.Get(cits("x")), 400, "VALIDATION_FAILED", "channelUuid")
	Problem(t, "bad link uuid", c.Get(base+"/x"), 400, "VALIDATION_FAILED", "channelInputTypeUuid")
	Problem(t, "link on unknown channel", c.Post(cits(UnknownUUID), Body("inputTypeUuid", price, "requirementLevel", "required")), 404, "NOT_FOUND")
	Problem(t, "another channel's link: get", c.Get(base+"/"+otherLink), 404, "NOT_FOUND")
	Problem(t, "another channel's link: update", c.Patch(base+"/"+otherLink, Body("scoping", "channel")), 404, "NOT_FOUND")
	Problem(t, "another channel's link: delete", c.Delete(base+"/"+otherLink), 404, "NOT_FOUND")
	Want(t, c.Get(cits(other)+"/"+otherLink), 200)
	log.Expect(t, "refused writes emit nothing")
}

func TestChannelInputTypeList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	its := inputTypes(t, c, "a", "b", "c", "d", "e")
	ch := Str(mkChannel(t, c, "web"), "uuid")
	other := Str(mkChannel(t, c, "app"), "uuid")
	mkLink(t, c, other, its[0], "required")
	items := Want(t, c.Post(cits(ch)+"/bulk", []any{
		Body("inputTypeUuid", its[0], "requirementLevel", "required"),
		Body("inputTypeUuid", its[1], "requirementLevel", "recommended", "scoping", "channel"),
		Body("inputTypeUuid", its[2], "requirementLevel", "optional"),
		Body("inputTypeUuid", its[3], "requirementLevel", "required", "scoping", "channel"),
	}), 201).Objs()
	ids := UUIDsOf(items)
	a, b, cc, d := ids[0], ids[1], ids[2], ids[3]
	late := mkLink(t, c, ch, its[4], "recommended")
	e := Str(late, "uuid")
	Want(t, c.Patch(cits(ch)+"/"+cc, Body("requirementLevel", "required")), 200)
	ccObj := Want(t, c.Get(cits(ch)+"/"+cc), 200).Obj()

	base := cits(ch)
	WantUUIDs(t, c, base, true, a, b, cc, d, e)
	WantUUIDs(t, c, base+Q("uuids[eq]", a, "uuids[eq]", e), false, a, e)
	WantUUIDs(t, c, base+Q("inputTypeUuids[eq]", its[1], "inputTypeUuids[eq]", its[4]), false, b, e)
	WantUUIDs(t, c, base+Q("requirementLevels[eq]", "required"), false, a, cc, d)
	WantUUIDs(t, c, base+Q("requirementLevels[eq]", "optional"), false)
	WantUUIDs(t, c, base+Q("requirementLevels[eq]", "recommended", "requirementLevels[eq]", "optional"), false, b, e)
	WantUUIDs(t, c, base+Q("scopings[eq]", "channel"), false, b, d)
	WantUUIDs(t, c, base+Q("scopings[eq]", "global", "requirementLevels[eq]", "required"), false, a, cc)
	WantUUIDs(t, c, base+Q("createdAt[min]", Str(late, "createdAt")), false, e)
	WantUUIDs(t, c, base+Q("createdAt[max]", Str(items[0], "createdAt")), false, a, b, cc, d)
	WantUUIDs(t, c, base+Q("createdAt[eq]", Str(late, "createdAt")), false, e)
	WantUUIDs(t, c, base+Q("updatedAt[min]", Str(ccObj, "updatedAt")), false, cc)
	WantUUIDs(t, c, base+Q("updatedAt[eq]", Str(ccObj, "updatedAt")), false, cc)
	WantUUIDs(t, c, base+Q("updatedAt[max]", Str(late, "updatedAt")), false, a, b, d, e)
	WantUUIDs(t, c, base+Q("requirementLevel[order]", "desc"), true, d, cc, a, e, b)
	WantUUIDs(t, c, base+Q("scoping[order]", "asc", "createdAt[order]", "desc"), true, d, b, e, cc, a)
	WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, e, d, cc, b, a)
	WantUUIDs(t, c, base+Q("updatedAt[order]", "desc"), true, cc, e, d, b, a)
	r := Want(t, c.Get(base+Q("size", "4", "page", "2")), 200)
	if p := r.Obj()["pagination"].(map[string]any); p["totalItems"] != 5.0 || p["totalPages"] != 2.0 || len(r.Items()) != 1 || Str(r.Items()[0], "uuid") != e {
		t.Errorf("page 2: %s", r.Raw)
	}
	for _, x := range Want(t, c.Get(base), 200).Items() {
		if x["uuid"] == cc && !reflect.DeepEqual(x, ccObj) {
			t.Errorf("list item %v != get %v", x, ccObj)
		}
	}
	WantTotal(t, c, cits(other), 1)
	Problem(t, "unknown level", c.Get(base+Q("requirementLevels[eq]", "mandatory")), 400, "VALIDATION_FAILED", "requirementLevels[eq]")
	Problem(t, "unknown scoping", c.Get(base+Q("scopings[eq]", "local")), 400, "VALIDATION_FAILED", "scopings[eq]")
	Problem(t, "bad input type uuid", c.Get(base+Q("inputTypeUuids[eq]", "x")), 400, "VALIDATION_FAILED", "inputTypeUuids[eq]")
	Problem(t, "not orderable", c.Get(base+Q("inputTypeUuid[order]", "asc")), 400, "MALFORMED_REQUEST")
}

func TestChannelInputTypeEvents(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	its := inputTypes(t, c, "a", "b", "c", "d")
	ch := Str(mkChannel(t, c, "web"), "uuid")
	log := NewEventLog(pool, tenant).Skip(t)
	lev := func(verb, id string) Event {
		return Ev("channel.input_type."+verb, "channelUuid", ch, "channelInputTypeUuid", id)
	}

	a := Str(mkLink(t, c, ch, its[0], "required"), "uuid")
	log.Expect(t, "link", lev("linked", a))
	items := Want(t, c.Post(cits(ch)+"/bulk", []any{
		Body("inputTypeUuid", its[1], "requirementLevel", "optional"), Body("inputTypeUuid", its[2], "requirementLevel", "optional"),
	}), 201).Objs()
	b, cc := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk link", lev("linked", b), lev("linked", cc))
	Want(t, c.Patch(cits(ch)+"/"+a, Body("scoping", "channel")), 200)
	log.Expect(t, "update", lev("updated", a))
	Want(t, c.Patch(cits(ch)+"/bulk", []any{Body("uuid", b, "inputTypeUuid", its[3]), Body("uuid", cc, "requirementLevel", "required")}), 200)
	log.Expect(t, "bulk update", lev("updated", b), lev("updated", cc))
	Want(t, c.Delete(cits(ch)+"/"+cc), 204)
	log.Expect(t, "unlink", lev("unlinked", cc))
	c.Post(cits(ch), Body("inputTypeUuid", its[0], "requirementLevel", "required"))
	c.Patch(cits(ch)+"/"+b, Body("inputTypeUuid", its[0]))
	c.Delete(cits(ch) + "/" + cc)
	c.Delete("/v1/input-types/" + its[0])
	log.Expect(t, "refused writes")
}
