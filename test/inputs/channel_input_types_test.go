package inputs

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func wantLink(t *testing.T, what string, l map[string]any, channel, inputType, level, scoping string) {
	t.Helper()
	wantKeys(t, what, l, "uuid", "createdAt", "updatedAt", "channelUuid", "inputTypeUuid", "requirementLevel", "scoping")
	wantCommon(t, what, l)
	wantFields(t, what, l, "channelUuid", channel, "inputTypeUuid", inputType, "requirementLevel", level, "scoping", scoping)
}

// inputTypes makes n text input types in a fresh group and returns their uuids.
func inputTypes(t *testing.T, c *Client, codes ...string) []string {
	t.Helper()
	g := mkTypeGroup(t, c, "g_"+RandomHex(3), "product")
	out := make([]string, len(codes))
	for i, code := range codes {
		out[i] = str(mkInputType(t, c, g, code, "text"), "uuid")
	}
	return out
}

func TestChannelInputTypeOperations(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	its := inputTypes(t, c, "title", "description", "price", "ean")
	title, desc, price, ean := its[0], its[1], its[2], its[3]
	ch := str(mkChannel(t, c, "web"), "uuid")
	other := str(mkChannel(t, c, "app"), "uuid")
	base := cits(ch)

	// Link: scoping defaults to global.
	r := Want(t, c.Post(base, body("inputTypeUuid", title, "requirementLevel", "required")), 201)
	l := r.Obj()
	wantLink(t, "create", l, ch, title, "required", "global")
	id := str(l, "uuid")
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
	u := Want(t, c.Patch(base+"/"+id, body("requirementLevel", "optional", "scoping", nil)), 200).Obj()
	wantLink(t, "update level", u, ch, title, "optional", "global")
	u = Want(t, c.Patch(base+"/"+id, body("scoping", "channel")), 200).Obj()
	wantLink(t, "update scoping", u, ch, title, "optional", "channel")
	u = Want(t, c.Patch(base+"/"+id, body("inputTypeUuid", price)), 200).Obj()
	wantLink(t, "update input type", u, ch, price, "optional", "channel")
	if !ts(t, u["updatedAt"]).After(ts(t, l["updatedAt"])) || u["createdAt"] != l["createdAt"] {
		t.Errorf("update timestamps %v / %v", u, l)
	}
	if got := Want(t, c.Get(base+"/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
		t.Errorf("get after update = %v, want %v", got, u)
	}

	// Bulk link and bulk update, in request order.
	items := Want(t, c.Post(base+"/bulk", []any{
		body("inputTypeUuid", ean, "requirementLevel", "required", "scoping", "channel"),
		body("inputTypeUuid", title, "requirementLevel", "recommended"),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create %v", items)
	}
	wantLink(t, "bulk [0]", items[0], ch, ean, "required", "channel")
	wantLink(t, "bulk [1]", items[1], ch, title, "recommended", "global")
	up := Want(t, c.Patch(base+"/bulk", []any{
		body("uuid", str(items[1], "uuid"), "requirementLevel", "required"),
		body("uuid", str(items[0], "uuid"), "scoping", "global"),
	}), 200).Objs()
	wantLink(t, "bulk update [0]", up[0], ch, title, "required", "global")
	wantLink(t, "bulk update [1]", up[1], ch, ean, "required", "global")
	wantTotal(t, c, base, 4)
	wantTotal(t, c, cits(other), 1)

	// Unlink.
	Want(t, c.Delete(base+"/"+id), 204)
	problem(t, "get unlinked", c.Get(base+"/"+id), 404, "NOT_FOUND")
	problem(t, "unlink twice", c.Delete(base+"/"+id), 404, "NOT_FOUND")
	wantTotal(t, c, base, 3)
	// Unlinked, the input type can be linked again.
	wantLink(t, "relink", mkLink(t, c, ch, price, "required"), ch, price, "required", "global")
}

func TestChannelInputTypeValidation(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	its := inputTypes(t, c, "title", "description", "price")
	title, desc, price := its[0], its[1], its[2]
	oc, _ := tenantClient(t)
	foreign := inputTypes(t, oc, "title")[0]
	ch := str(mkChannel(t, c, "web"), "uuid")
	other := str(mkChannel(t, c, "app"), "uuid")
	base := cits(ch)
	a := str(mkLink(t, c, ch, title, "required"), "uuid")
	b := str(mkLink(t, c, ch, desc, "optional"), "uuid")
	otherLink := str(mkLink(t, c, other, price, "optional"), "uuid")
	log := newLog(t, tenant)

	problem(t, "no inputTypeUuid", c.Post(base, body("requirementLevel", "required")), 400, "VALIDATION_FAILED", "inputTypeUuid")
	problem(t, "bad inputTypeUuid", c.Post(base, body("inputTypeUuid", "x", "requirementLevel", "required")), 400, "VALIDATION_FAILED", "inputTypeUuid")
	problem(t, "unknown inputTypeUuid", c.Post(base, body("inputTypeUuid", unknownUUID, "requirementLevel", "required")), 404, "NOT_FOUND", "inputTypeUuid")
	problem(t, "another tenant's input type", c.Post(base, body("inputTypeUuid", foreign, "requirementLevel", "required")), 404, "NOT_FOUND", "inputTypeUuid")
	problem(t, "no requirementLevel", c.Post(base, body("inputTypeUuid", price)), 400, "VALIDATION_FAILED", "requirementLevel")
	problem(t, "unknown requirementLevel", c.Post(base, body("inputTypeUuid", price, "requirementLevel", "mandatory")), 400, "MALFORMED_REQUEST", "requirementLevel")
	problem(t, "unknown scoping", c.Post(base, body("inputTypeUuid", price, "requirementLevel", "required", "scoping", "local")), 400, "MALFORMED_REQUEST", "scoping")
	problem(t, "unknown field", c.Post(base, body("inputTypeUuid", price, "requirementLevel", "required", "channelUuid", ch)), 400, "MALFORMED_REQUEST", "channelUuid")
	problem(t, "second link", c.Post(base, body("inputTypeUuid", title, "requirementLevel", "optional")), 409, "ALREADY_EXISTS", "inputTypeUuid")
	problem(t, "bulk: same input type twice", c.Post(base+"/bulk", []any{
		body("inputTypeUuid", price, "requirementLevel", "required"), body("inputTypeUuid", price, "requirementLevel", "optional"),
	}), 409, "ALREADY_EXISTS", "[1].inputTypeUuid")
	problem(t, "bulk: unknown input type", c.Post(base+"/bulk", []any{
		body("inputTypeUuid", price, "requirementLevel", "required"), body("inputTypeUuid", foreign, "requirementLevel", "optional"),
	}), 404, "NOT_FOUND", "[1].inputTypeUuid")
	problem(t, "bulk: invalid", c.Post(base+"/bulk", []any{
		body("inputTypeUuid", price, "requirementLevel", "required"), body("inputTypeUuid", price),
	}), 400, "VALIDATION_FAILED", "[1].requirementLevel")
	wantTotal(t, c, base, 2)

	// Updates.
	problem(t, "update onto a linked input type", c.Patch(base+"/"+b, body("inputTypeUuid", title)), 409, "ALREADY_EXISTS", "inputTypeUuid")
	problem(t, "update onto an unknown input type", c.Patch(base+"/"+b, body("inputTypeUuid", unknownUUID)), 404, "NOT_FOUND", "inputTypeUuid")
	problem(t, "update onto another tenant's input type", c.Patch(base+"/"+b, body("inputTypeUuid", foreign)), 404, "NOT_FOUND", "inputTypeUuid")
	problem(t, "update bad requirementLevel", c.Patch(base+"/"+b, body("requirementLevel", "")), 400, "MALFORMED_REQUEST", "requirementLevel")
	problem(t, "bulk update onto a linked input type", c.Patch(base+"/bulk", []any{
		body("uuid", a, "scoping", "channel"), body("uuid", b, "inputTypeUuid", title),
	}), 409, "ALREADY_EXISTS", "[1].inputTypeUuid")
	problem(t, "bulk update onto an unknown input type", c.Patch(base+"/bulk", []any{
		body("uuid", a, "scoping", "channel"), body("uuid", b, "inputTypeUuid", foreign),
	}), 404, "NOT_FOUND", "[1].inputTypeUuid")
	problem(t, "bulk update of another channel's link", c.Patch(base+"/bulk", []any{
		body("uuid", a, "scoping", "channel"), body("uuid", otherLink, "scoping", "channel"),
	}), 404, "NOT_FOUND", "[1].uuid")
	wantLink(t, "unchanged", Want(t, c.Get(base+"/"+a), 200).Obj(), ch, title, "required", "global")

	// The channel path.
	for _, p := range []string{cits(unknownUUID), cits(unknownUUID) + "/" + a} {
		problem(t, "unknown channel "+p, c.Get(p), 404, "NOT_FOUND")
	}
	problem(t, "bad channel uuid", c.Get(cits("x")), 400, "VALIDATION_FAILED", "channelUuid")
	problem(t, "bad link uuid", c.Get(base+"/x"), 400, "VALIDATION_FAILED", "channelInputTypeUuid")
	problem(t, "link on unknown channel", c.Post(cits(unknownUUID), body("inputTypeUuid", price, "requirementLevel", "required")), 404, "NOT_FOUND")
	problem(t, "another channel's link: get", c.Get(base+"/"+otherLink), 404, "NOT_FOUND")
	problem(t, "another channel's link: update", c.Patch(base+"/"+otherLink, body("scoping", "channel")), 404, "NOT_FOUND")
	problem(t, "another channel's link: delete", c.Delete(base+"/"+otherLink), 404, "NOT_FOUND")
	Want(t, c.Get(cits(other)+"/"+otherLink), 200)
	log.expect(t, "refused writes emit nothing")
}

func TestChannelInputTypeList(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	its := inputTypes(t, c, "a", "b", "c", "d", "e")
	ch := str(mkChannel(t, c, "web"), "uuid")
	other := str(mkChannel(t, c, "app"), "uuid")
	mkLink(t, c, other, its[0], "required")
	items := Want(t, c.Post(cits(ch)+"/bulk", []any{
		body("inputTypeUuid", its[0], "requirementLevel", "required"),
		body("inputTypeUuid", its[1], "requirementLevel", "recommended", "scoping", "channel"),
		body("inputTypeUuid", its[2], "requirementLevel", "optional"),
		body("inputTypeUuid", its[3], "requirementLevel", "required", "scoping", "channel"),
	}), 201).Objs()
	ids := uuidsOf(items)
	a, b, cc, d := ids[0], ids[1], ids[2], ids[3]
	late := mkLink(t, c, ch, its[4], "recommended")
	e := str(late, "uuid")
	Want(t, c.Patch(cits(ch)+"/"+cc, body("requirementLevel", "required")), 200)
	ccObj := Want(t, c.Get(cits(ch)+"/"+cc), 200).Obj()

	base := cits(ch)
	wantUUIDs(t, c, base, true, a, b, cc, d, e)
	wantUUIDs(t, c, base+q("uuids[eq]", a, "uuids[eq]", e), false, a, e)
	wantUUIDs(t, c, base+q("inputTypeUuids[eq]", its[1], "inputTypeUuids[eq]", its[4]), false, b, e)
	wantUUIDs(t, c, base+q("requirementLevels[eq]", "required"), false, a, cc, d)
	wantUUIDs(t, c, base+q("requirementLevels[eq]", "optional"), false)
	wantUUIDs(t, c, base+q("requirementLevels[eq]", "recommended", "requirementLevels[eq]", "optional"), false, b, e)
	wantUUIDs(t, c, base+q("scopings[eq]", "channel"), false, b, d)
	wantUUIDs(t, c, base+q("scopings[eq]", "global", "requirementLevels[eq]", "required"), false, a, cc)
	wantUUIDs(t, c, base+q("createdAt[min]", str(late, "createdAt")), false, e)
	wantUUIDs(t, c, base+q("createdAt[max]", str(items[0], "createdAt")), false, a, b, cc, d)
	wantUUIDs(t, c, base+q("createdAt[eq]", str(late, "createdAt")), false, e)
	wantUUIDs(t, c, base+q("updatedAt[min]", str(ccObj, "updatedAt")), false, cc)
	wantUUIDs(t, c, base+q("updatedAt[eq]", str(ccObj, "updatedAt")), false, cc)
	wantUUIDs(t, c, base+q("updatedAt[max]", str(late, "updatedAt")), false, a, b, d, e)
	wantUUIDs(t, c, base+q("requirementLevel[order]", "desc"), true, d, cc, a, e, b)
	wantUUIDs(t, c, base+q("scoping[order]", "asc", "createdAt[order]", "desc"), true, d, b, e, cc, a)
	wantUUIDs(t, c, base+q("createdAt[order]", "desc"), true, e, d, cc, b, a)
	wantUUIDs(t, c, base+q("updatedAt[order]", "desc"), true, cc, e, d, b, a)
	r := Want(t, c.Get(base+q("size", "4", "page", "2")), 200)
	if p := r.Obj()["pagination"].(map[string]any); p["totalItems"] != 5.0 || p["totalPages"] != 2.0 || len(r.Items()) != 1 || str(r.Items()[0], "uuid") != e {
		t.Errorf("page 2: %s", r.Raw)
	}
	for _, x := range Want(t, c.Get(base), 200).Items() {
		if x["uuid"] == cc && !reflect.DeepEqual(x, ccObj) {
			t.Errorf("list item %v != get %v", x, ccObj)
		}
	}
	wantTotal(t, c, cits(other), 1)
	problem(t, "unknown level", c.Get(base+q("requirementLevels[eq]", "mandatory")), 400, "VALIDATION_FAILED", "requirementLevels[eq]")
	problem(t, "unknown scoping", c.Get(base+q("scopings[eq]", "local")), 400, "VALIDATION_FAILED", "scopings[eq]")
	problem(t, "bad input type uuid", c.Get(base+q("inputTypeUuids[eq]", "x")), 400, "VALIDATION_FAILED", "inputTypeUuids[eq]")
	problem(t, "not orderable", c.Get(base+q("inputTypeUuid[order]", "asc")), 400, "MALFORMED_REQUEST")
}

func TestChannelInputTypeEvents(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	its := inputTypes(t, c, "a", "b", "c", "d")
	ch := str(mkChannel(t, c, "web"), "uuid")
	log := newLog(t, tenant)
	lev := func(verb, id string) event {
		return ev("channel.input_type."+verb, "channelUuid", ch, "channelInputTypeUuid", id)
	}

	a := str(mkLink(t, c, ch, its[0], "required"), "uuid")
	log.expect(t, "link", lev("linked", a))
	items := Want(t, c.Post(cits(ch)+"/bulk", []any{
		body("inputTypeUuid", its[1], "requirementLevel", "optional"), body("inputTypeUuid", its[2], "requirementLevel", "optional"),
	}), 201).Objs()
	b, cc := str(items[0], "uuid"), str(items[1], "uuid")
	log.expect(t, "bulk link", lev("linked", b), lev("linked", cc))
	Want(t, c.Patch(cits(ch)+"/"+a, body("scoping", "channel")), 200)
	log.expect(t, "update", lev("updated", a))
	Want(t, c.Patch(cits(ch)+"/bulk", []any{body("uuid", b, "inputTypeUuid", its[3]), body("uuid", cc, "requirementLevel", "required")}), 200)
	log.expect(t, "bulk update", lev("updated", b), lev("updated", cc))
	Want(t, c.Delete(cits(ch)+"/"+cc), 204)
	log.expect(t, "unlink", lev("unlinked", cc))
	c.Post(cits(ch), body("inputTypeUuid", its[0], "requirementLevel", "required"))
	c.Patch(cits(ch)+"/"+b, body("inputTypeUuid", its[0]))
	c.Delete(cits(ch) + "/" + cc)
	c.Delete("/v1/input-types/" + its[0])
	log.expect(t, "refused writes")
}
