package product_values

import (
	"fmt"
	"slices"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestOperations(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	g := mkGroup(t, c)
	text := mkInputType(t, c, g, "text")
	num := mkInputType(t, c, g, "integer")
	ch := mkChannel(t, c)
	log := NewEventLog(pool, tenant).Skip(t)

	r := Want(t, c.Post(base(p), Body("inputTypeUuid", text, "value", "hello")), 201)
	v := r.Obj()
	id := Str(v, "uuid")
	wantValue(t, "create", v, "productUuid", p, "inputTypeUuid", text, "channelUuid", nil, "localeUuid", nil, "value", "hello", "inherited", false)
	if loc := r.Header.Get("Location"); loc != base(p)+"/"+id {
		t.Errorf("Location %q", loc)
	}
	log.Expect(t, "create", ev("created", p, id))

	got := Want(t, c.Get(base(p)+"/"+id), 200).Obj()
	wantValue(t, "get", got, "uuid", id, "value", "hello", "createdAt", v["createdAt"])

	bulk := Want(t, c.Post(base(p)+"/bulk", []any{
		Body("inputTypeUuid", num, "value", 42),
		Body("inputTypeUuid", text, "channelUuid", ch, "value", "for the channel"),
	}), 201).Objs()
	if len(bulk) != 2 {
		t.Fatalf("bulk: %v", bulk)
	}
	wantValue(t, "bulk 0", bulk[0], "inputTypeUuid", num, "value", float64(42), "channelUuid", nil)
	wantValue(t, "bulk 1", bulk[1], "inputTypeUuid", text, "value", "for the channel", "channelUuid", ch)
	n, cv := Str(bulk[0], "uuid"), Str(bulk[1], "uuid")
	log.Expect(t, "bulk create", ev("created", p, n), ev("created", p, cv))
	WantUUIDs(t, c, base(p), true, id, n, cv)

	up := Want(t, c.Patch(base(p)+"/"+id, Body("value", "changed")), 200).Obj()
	wantValue(t, "update", up, "uuid", id, "value", "changed", "createdAt", v["createdAt"], "inputTypeUuid", text)
	if !TS(t, up["updatedAt"]).After(TS(t, v["updatedAt"])) {
		t.Errorf("updatedAt not bumped: %v -> %v", v["updatedAt"], up["updatedAt"])
	}
	log.Expect(t, "update", ev("updated", p, id))
	// Only value can change: the other fields are unknown keys of the update body.
	WantProblem(t, c.Patch(base(p)+"/"+id, Body("inputTypeUuid", num)), 400, "MALFORMED_REQUEST", "inputTypeUuid")
	WantProblem(t, c.Patch(base(p)+"/"+id, Body("channelUuid", ch)), 400, "MALFORMED_REQUEST", "channelUuid")
	WantProblem(t, c.Patch(base(p)+"/"+id, Body("value", nil)), 400, "VALIDATION_FAILED", "value")
	wantConstraint(t, c.Patch(base(p)+"/"+id, Body("value", 7)), "value", "dataType")

	bu := Want(t, c.Patch(base(p)+"/bulk", []any{Body("uuid", n, "value", 43), Body("uuid", cv, "value", "x")}), 200).Objs()
	if len(bu) != 2 || bu[0]["value"] != float64(43) || bu[1]["value"] != "x" {
		t.Errorf("bulk update: %v", bu)
	}
	log.Expect(t, "bulk update", ev("updated", p, n), ev("updated", p, cv))
	// Bulk update is atomic: item 1's wrong type names [1].value and item 0 does not change.
	wantConstraint(t, c.Patch(base(p)+"/bulk", []any{Body("uuid", n, "value", 44), Body("uuid", cv, "value", 1)}), "[1].value", "dataType")
	WantProblem(t, c.Patch(base(p)+"/bulk", []any{Body("uuid", RandomUUID(), "value", 1)}), 404, "NOT_FOUND", "[0].uuid")
	if got := Want(t, c.Get(base(p)+"/"+n), 200).Obj(); got["value"] != float64(43) {
		t.Errorf("after failed bulk update: %v", got["value"])
	}
	log.Expect(t, "failed bulk update")

	Want(t, c.Delete(base(p)+"/"+id), 204)
	log.Expect(t, "delete", ev("deleted", p, id))
	WantProblem(t, c.Get(base(p)+"/"+id), 404, "NOT_FOUND")
	WantProblem(t, c.Delete(base(p)+"/"+id), 404, "NOT_FOUND")
	WantProblem(t, c.Patch(base(p)+"/"+id, Body("value", "x")), 404, "NOT_FOUND")
	WantProblem(t, c.Get(base(p)+"/not-a-uuid"), 400, "VALIDATION_FAILED", "inputValueUuid")
	WantProblem(t, c.Get(base(RandomUUID())), 404, "NOT_FOUND")
	WantProblem(t, c.Post(base(RandomUUID()), Body("inputTypeUuid", text, "value", "x")), 404, "NOT_FOUND")
	WantUUIDs(t, c, base(p), true, n, cv)
}

// TestDataTypes sets a valid and an invalid value of every data type through the API.
func TestDataTypes(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	g := mkGroup(t, c)
	for _, tc := range []struct {
		dataType    string
		good, bad   any
		goodOut     any
		constraints map[string]any
		violates    any
		constraint  string
	}{
		{"text", "hello", 5, "hello", map[string]any{"maxLength": 5}, "too long", "maxLength"},
		{"rich_text", "<p>x</p>", true, "<p>x</p>", map[string]any{"minLength": 3}, "ab", "minLength"},
		{"integer", 42, 1.5, float64(42), map[string]any{"min": "10"}, 5, "min"},
		{"decimal", "12.50", true, "12.50", map[string]any{"max": "100"}, "100.01", "max"},
		{"boolean", true, "true", true, nil, nil, ""},
		{"date", "2024-02-29", "2024-02-30", "2024-02-29", map[string]any{"min": "2024-01-01"}, "2023-12-31", "min"},
		{"date_time", "2024-01-02T03:04:05Z", "2024-01-02 03:04", "2024-01-02T03:04:05Z", nil, nil, ""},
		{"url", "https://shop.example.com/x", "not a url", "https://shop.example.com/x", map[string]any{"pattern": "^https://shop\\."}, "https://example.com", "pattern"},
		{"money", map[string]any{"amount": "9.99", "currency": "EUR"}, map[string]any{"amount": "9.99"},
			map[string]any{"amount": "9.99", "currency": "EUR"}, map[string]any{"min": "1"}, map[string]any{"amount": "0.50", "currency": "EUR"}, "min"},
		{"json", map[string]any{"a": []any{1, "b"}}, nil, map[string]any{"a": []any{float64(1), "b"}}, nil, nil, ""},
	} {
		t.Run(tc.dataType, func(t *testing.T) {
			extra := []any{}
			if tc.constraints != nil {
				extra = append(extra, "constraints", tc.constraints)
			}
			it := mkInputType(t, c, g, tc.dataType, extra...)
			wantConstraint(t, c.Post(base(p), Body("inputTypeUuid", it, "value", tc.bad)), "value", "dataType")
			if tc.constraint != "" {
				wantConstraint(t, c.Post(base(p), Body("inputTypeUuid", it, "value", tc.violates)), "value", tc.constraint)
			}
			v := set(t, c, p, "inputTypeUuid", it, "value", tc.good)
			wantValue(t, tc.dataType, v, "value", tc.goodOut)
			wantValue(t, tc.dataType+" get", Want(t, c.Get(base(p)+"/"+Str(v, "uuid")), 200).Obj(), "value", tc.goodOut)
			if tc.constraint != "" {
				wantConstraint(t, c.Patch(base(p)+"/"+Str(v, "uuid"), Body("value", tc.violates)), "value", tc.constraint)
			}
		})
	}
	// A bulk item's bad value names its index, and nothing of the bulk is written.
	it := mkInputType(t, c, g, "text", "constraints", map[string]any{"allowedValues": []string{"red", "blue"}})
	it2 := mkInputType(t, c, g, "integer")
	wantConstraint(t, c.Post(base(p)+"/bulk", []any{Body("inputTypeUuid", it2, "value", 1), Body("inputTypeUuid", it, "value", "green")}), "[1].value", "allowedValues")
	WantUUIDs(t, c, base(p)+Q("inputTypeUuids[eq]", it2), false)
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", it)), 400, "VALIDATION_FAILED", "value")
}

func TestLocalesChannelsAndUniqueness(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	g := mkGroup(t, c)
	loc := mkInputType(t, c, g, "text", "isLocalizable", true)
	plain := mkInputType(t, c, g, "text")
	en, fr := CreateLocale(t, c, "en"), CreateLocale(t, c, "fr")
	web, app := mkChannel(t, c), mkChannel(t, c)

	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", loc, "value", "x")), 400, "VALIDATION_FAILED", "localeUuid")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", plain, "localeUuid", en, "value", "x")), 400, "VALIDATION_FAILED", "localeUuid")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", loc, "localeUuid", RandomUUID(), "value", "x")), 404, "NOT_FOUND", "localeUuid")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", plain, "channelUuid", RandomUUID(), "value", "x")), 404, "NOT_FOUND", "channelUuid")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", RandomUUID(), "value", "x")), 404, "NOT_FOUND", "inputTypeUuid")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", "nope", "value", "x")), 400, "VALIDATION_FAILED", "inputTypeUuid")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", plain, "channelUuid", "nope", "value", "x")), 400, "VALIDATION_FAILED", "channelUuid")
	WantProblem(t, c.Post(base(p)+"/bulk", []any{Body("inputTypeUuid", plain, "value", "x"), Body("inputTypeUuid", loc, "localeUuid", en, "channelUuid", RandomUUID(), "value", "x")}),
		404, "NOT_FOUND", "[1].channelUuid")
	WantProblem(t, c.Post(base(p)+"/bulk", []any{Body("inputTypeUuid", plain, "value", "x"), Body("inputTypeUuid", loc, "value", "x")}),
		400, "VALIDATION_FAILED", "[1].localeUuid")
	if n := CountRows(t, pool, "product_input_values", tenant); n != 0 {
		t.Fatalf("%d rows after failed writes", n)
	}

	// One value per (input type, channel, locale), null channel and locale included.
	all := set(t, c, p, "inputTypeUuid", plain, "value", "all channels")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", plain, "value", "again")), 409, "ALREADY_EXISTS", "inputTypeUuid")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", plain, "channelUuid", nil, "value", "again")), 409, "ALREADY_EXISTS", "inputTypeUuid")
	onWeb := set(t, c, p, "inputTypeUuid", plain, "channelUuid", web, "value", "web")
	WantProblem(t, c.Post(base(p), Body("inputTypeUuid", plain, "channelUuid", web, "value", "web 2")), 409, "ALREADY_EXISTS", "inputTypeUuid")
	bulk := Want(t, c.Post(base(p)+"/bulk", []any{
		Body("inputTypeUuid", loc, "localeUuid", en, "value", "hello"),
		Body("inputTypeUuid", loc, "localeUuid", fr, "value", "bonjour"),
		Body("inputTypeUuid", loc, "localeUuid", en, "channelUuid", app, "value", "hi app"),
	}), 201).Objs()
	wantValue(t, "localized", bulk[2], "localeUuid", en, "channelUuid", app, "value", "hi app")
	WantProblem(t, c.Post(base(p)+"/bulk", []any{
		Body("inputTypeUuid", plain, "channelUuid", app, "value", "a"),
		Body("inputTypeUuid", plain, "channelUuid", app, "value", "b"),
	}), 409, "ALREADY_EXISTS", "[1].inputTypeUuid")
	WantProblem(t, c.Post(base(p)+"/bulk", []any{Body("inputTypeUuid", loc, "localeUuid", fr, "value", "x")}), 409, "ALREADY_EXISTS", "[0].inputTypeUuid")
	// The same keys on another product are fine.
	set(t, c, mkProduct(t, c, "simple"), "inputTypeUuid", plain, "value", "other product")

	ids := UUIDsOf(bulk)
	a, w := Str(all, "uuid"), Str(onWeb, "uuid")
	WantUUIDs(t, c, base(p), true, a, w, ids[0], ids[1], ids[2])
	WantUUIDs(t, c, base(p)+Q("inputTypeUuids[eq]", loc), true, ids...)
	WantUUIDs(t, c, base(p)+Q("channelUuids[eq]", web, "channelUuids[eq]", app), true, w, ids[2])
	WantUUIDs(t, c, base(p)+Q("localeUuids[eq]", fr), true, ids[1])
	WantUUIDs(t, c, base(p)+Q("uuids[eq]", a, "uuids[eq]", ids[1]), true, a, ids[1])
	WantUUIDs(t, c, base(p)+Q("createdAt[min]", Str(bulk[0], "createdAt")), true, ids...)
	WantUUIDs(t, c, base(p)+Q("updatedAt[max]", Str(onWeb, "updatedAt")), true, a, w)
	WantUUIDs(t, c, base(p)+Q("createdAt[order]", "desc"), true, ids[2], ids[1], ids[0], w, a)
	Want(t, c.Patch(base(p)+"/"+a, Body("value", "touched")), 200)
	WantUUIDs(t, c, base(p)+Q("updatedAt[order]", "desc"), true, a, ids[2], ids[1], ids[0], w)
	r := Want(t, c.Get(base(p)+Q("size", "2", "page", "2")), 200)
	WantPagination(t, "page 2", r, 2, 2, 5, 3)
	WantProblem(t, c.Get(base(p)+Q("code[eq]", "x")), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Get(base(p)+Q("channelUuids[eq]", "nope")), 400, "VALIDATION_FAILED")
}

func TestReferencesInUse(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	g := mkGroup(t, c)
	loc := mkInputType(t, c, g, "text", "isLocalizable", true)
	en := CreateLocale(t, c, "en")
	CreateLocale(t, c, "de") // en stays the default: only the use by a value blocks its deletion below
	Want(t, c.Patch("/v1/locales/"+en, Body("isDefault", false)), 400)
	ch := mkChannel(t, c)
	v := set(t, c, p, "inputTypeUuid", loc, "localeUuid", en, "channelUuid", ch, "value", "x")

	// meta.referencedBy names the kinds that still refer (a channel whose locale list has the locale too).
	wantReferencedBy := func(what string, p map[string]any, kinds ...string) {
		t.Helper()
		if by, ok := Strings(Meta(p)["referencedBy"]); !ok || !slices.Equal(by, kinds) {
			t.Errorf("%s: meta.referencedBy %#v, want %v", what, Meta(p)["referencedBy"], kinds)
		}
	}
	wantReferencedBy("input type", WantProblem(t, c.Delete("/v1/input-types/"+loc), 409, "IN_USE"), "product input value")
	wantReferencedBy("channel", WantProblem(t, c.Delete("/v1/channels/"+ch), 409, "IN_USE"), "product input value")
	de := CreateLocale(t, c, "it")
	Want(t, c.Patch("/v1/locales/"+de, Body("isDefault", true)), 200)
	wantReferencedBy("locale", WantProblem(t, c.Delete("/v1/locales/"+en), 409, "IN_USE"), "product input value")
	withLocale := Str(Want(t, c.Post("/v1/channels", Body("code", "ch_"+RandomHex(4), "localeUuids", []string{en})), 201).Obj(), "uuid")
	wantReferencedBy("locale of a channel", WantProblem(t, c.Delete("/v1/locales/"+en), 409, "IN_USE"), "channel", "product input value")
	Want(t, c.Delete("/v1/channels/"+withLocale), 204)

	// Deleting the value frees them; deleting the product deletes its values.
	Want(t, c.Delete(base(p)+"/"+Str(v, "uuid")), 204)
	Want(t, c.Delete("/v1/channels/"+ch), 204)
	Want(t, c.Delete("/v1/locales/"+en), 204)
	set(t, c, p, "inputTypeUuid", loc, "localeUuid", de, "value", "y")
	if n := CountRows(t, pool, "product_input_values", tenant); n != 1 {
		t.Fatalf("rows: %d", n)
	}
	Want(t, c.Delete("/v1/products/"+p), 204)
	if n := CountRows(t, pool, "product_input_values", tenant); n != 0 {
		t.Errorf("values left after deleting the product: %d", n)
	}
	Want(t, c.Delete("/v1/input-types/"+loc), 204)
}

func TestInheritance(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	fam := mkFamily(t, c)
	parent := mkProduct(t, c, "variant_parent", "familyUuid", fam)
	variant := mkProduct(t, c, "variant", "familyUuid", fam, "parentUuid", parent)
	g := mkGroup(t, c)
	color, size := mkInputType(t, c, g, "text"), mkInputType(t, c, g, "text")
	ch := mkChannel(t, c)

	pc := set(t, c, parent, "inputTypeUuid", color, "value", "red")
	ps := set(t, c, parent, "inputTypeUuid", size, "value", "M")
	pcw := set(t, c, parent, "inputTypeUuid", color, "channelUuid", ch, "value", "web red")
	vc := set(t, c, variant, "inputTypeUuid", color, "value", "blue")

	// Without the flag: own values only.
	WantUUIDs(t, c, base(variant), true, Str(vc, "uuid"))
	r := Want(t, c.Get(base(variant)+Q("include[inherited]", "true")), 200).Items()
	if len(r) != 3 {
		t.Fatalf("inherited list: %v", r)
	}
	by := map[string]map[string]any{}
	for _, it := range r {
		by[Str(it, "uuid")] = it
	}
	wantValue(t, "own", by[Str(vc, "uuid")], "productUuid", variant, "value", "blue", "inherited", false)
	wantValue(t, "inherited size", by[Str(ps, "uuid")], "productUuid", parent, "value", "M", "inherited", true)
	wantValue(t, "inherited channel color", by[Str(pcw, "uuid")], "productUuid", parent, "channelUuid", ch, "value", "web red", "inherited", true)
	if _, ok := by[Str(pc, "uuid")]; ok {
		t.Errorf("the parent's color is listed although the variant sets it")
	}
	WantUUIDs(t, c, base(variant)+Q("include[inherited]", "true", "inputTypeUuids[eq]", size), true, Str(ps, "uuid"))
	WantUUIDs(t, c, base(variant)+Q("include[inherited]", "true", "channelUuids[eq]", ch), true, Str(pcw, "uuid"))
	// The parent itself and a simple product list only their own values, flag or not.
	WantUUIDs(t, c, base(parent)+Q("include[inherited]", "true"), true, Str(pc, "uuid"), Str(ps, "uuid"), Str(pcw, "uuid"))
	if it := Want(t, c.Get(base(parent)+Q("include[inherited]", "true")), 200).Items()[0]; it["inherited"] != false {
		t.Errorf("own value of the parent: inherited %v", it["inherited"])
	}
	// Inherited values are read through the variant's list, not its item paths.
	WantProblem(t, c.Get(base(variant)+"/"+Str(ps, "uuid")), 404, "NOT_FOUND")
	// Once the variant sets size, its own value wins.
	vs := set(t, c, variant, "inputTypeUuid", size, "value", "L")
	WantUUIDs(t, c, base(variant)+Q("include[inherited]", "true"), false, Str(vc, "uuid"), Str(vs, "uuid"), Str(pcw, "uuid"))
	// Deleting the variant's value brings the parent's back.
	Want(t, c.Delete(base(variant)+"/"+Str(vc, "uuid")), 204)
	WantUUIDs(t, c, base(variant)+Q("include[inherited]", "true"), true, Str(pc, "uuid"), Str(pcw, "uuid"), Str(vs, "uuid"))
}

func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a, _ := env.TenantClient(t)
	b, tenantB := env.TenantClient(t)
	p := mkProduct(t, a, "simple")
	g := mkGroup(t, a)
	it := mkInputType(t, a, g, "text", "isLocalizable", true)
	en := CreateLocale(t, a, "en")
	ch := mkChannel(t, a)
	v := set(t, a, p, "inputTypeUuid", it, "localeUuid", en, "value", "x")
	id := Str(v, "uuid")
	logB := NewEventLog(pool, tenantB).Skip(t)

	// Tenant B sees none of A's product's values.
	WantProblem(t, b.Get(base(p)), 404, "NOT_FOUND")
	WantProblem(t, b.Get(base(p)+Q("include[inherited]", "true")), 404, "NOT_FOUND")
	WantProblem(t, b.Get(base(p)+"/"+id), 404, "NOT_FOUND")
	WantProblem(t, b.Post(base(p), Body("inputTypeUuid", it, "localeUuid", en, "value", "y")), 404, "NOT_FOUND")
	WantProblem(t, b.Post(base(p)+"/bulk", []any{Body("inputTypeUuid", it, "localeUuid", en, "value", "y")}), 404, "NOT_FOUND")
	WantProblem(t, b.Patch(base(p)+"/"+id, Body("value", "y")), 404, "NOT_FOUND")
	WantProblem(t, b.Patch(base(p)+"/bulk", []any{Body("uuid", id, "value", "y")}), 404, "NOT_FOUND")
	WantProblem(t, b.Delete(base(p)+"/"+id), 404, "NOT_FOUND")

	logB.Expect(t, "tenant B on A's paths")

	// B's own product cannot use A's input type, channel or locale, nor reach A's value by its uuid.
	pb := mkProduct(t, b, "simple")
	gb := mkGroup(t, b)
	itb := mkInputType(t, b, gb, "text", "isLocalizable", true)
	enb := CreateLocale(t, b, "en")
	logB.Skip(t)
	WantProblem(t, b.Post(base(pb), Body("inputTypeUuid", it, "localeUuid", enb, "value", "y")), 404, "NOT_FOUND", "inputTypeUuid")
	WantProblem(t, b.Post(base(pb), Body("inputTypeUuid", itb, "localeUuid", en, "value", "y")), 404, "NOT_FOUND", "localeUuid")
	WantProblem(t, b.Post(base(pb), Body("inputTypeUuid", itb, "localeUuid", enb, "channelUuid", ch, "value", "y")), 404, "NOT_FOUND", "channelUuid")
	WantProblem(t, b.Get(base(pb)+"/"+id), 404, "NOT_FOUND")
	WantProblem(t, b.Patch(base(pb)+"/bulk", []any{Body("uuid", id, "value", "y")}), 404, "NOT_FOUND", "[0].uuid")
	WantProblem(t, b.Delete(base(pb)+"/"+id), 404, "NOT_FOUND")
	WantUUIDs(t, b, base(pb)+Q("uuids[eq]", id), false)
	logB.Expect(t, "tenant B")

	// A's value is untouched.
	wantValue(t, "A's value", Want(t, a.Get(base(p)+"/"+id), 200).Obj(), "value", "x", "updatedAt", v["updatedAt"])
	// The same product uuid under another tenant's path is a different (missing) product.
	WantProblem(t, b.Get(fmt.Sprintf("/v1/products/%s/input-values/%s", p, id)), 404, "NOT_FOUND")
}

// GET /v1/products/{uuid} (and the list) hydrate inputValues and productAttributes on request: a
// variant sees its own values and those it inherits; neither field is there unless asked for.
func TestProductHydratesValuesAndAttributes(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	fam := mkFamily(t, c)
	parent := mkProduct(t, c, "variant_parent", "familyUuid", fam)
	variant := mkProduct(t, c, "variant", "familyUuid", fam, "parentUuid", parent)
	g := mkGroup(t, c)
	color, size := mkInputType(t, c, g, "text"), mkInputType(t, c, g, "text")
	ps := set(t, c, parent, "inputTypeUuid", size, "value", "M")
	vc := set(t, c, variant, "inputTypeUuid", color, "value", "blue")
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	pa := Want(t, c.Post("/v1/products/"+variant+"/attributes", Body("attributeUuid", attr, "isVariantAxis", true)), 201).Obj()

	plain := Want(t, c.Get("/v1/products/"+variant), 200).Obj()
	for _, k := range []string{"inputValueUuids", "inputValues", "productAttributeUuids", "productAttributes"} {
		if v, ok := plain[k]; !ok || v != nil {
			t.Errorf("%s = %v without include/expand, want null", k, v)
		}
	}
	q := Q("include[inputValues]", "true", "expand[inputValues]", "true", "include[productAttributes]", "true", "expand[productAttributes]", "true")
	for _, p := range []map[string]any{
		Want(t, c.Get("/v1/products/"+variant+q), 200).Obj(),
		Want(t, c.Get("/v1/products"+q+"&uuids[eq]="+variant), 200).Items()[0],
	} {
		ids, _ := p["inputValueUuids"].([]any)
		if len(ids) != 2 || !SameSet([]string{ids[0].(string), ids[1].(string)}, []string{Str(vc, "uuid"), Str(ps, "uuid")}) {
			t.Errorf("inputValueUuids %v, want the variant's own and the inherited value", p["inputValueUuids"])
		}
		vals, _ := p["inputValues"].([]any)
		inherited := map[string]any{}
		for _, v := range vals {
			inherited[Str(v.(map[string]any), "uuid")] = v.(map[string]any)["inherited"]
		}
		if len(vals) != 2 || inherited[Str(vc, "uuid")] != false || inherited[Str(ps, "uuid")] != true {
			t.Errorf("inputValues %v", p["inputValues"])
		}
		pas, _ := p["productAttributes"].([]any)
		if len(pas) != 1 || Str(pas[0].(map[string]any), "uuid") != Str(pa, "uuid") || pas[0].(map[string]any)["isVariantAxis"] != true {
			t.Errorf("productAttributes %v", p["productAttributes"])
		}
		if uu, _ := p["productAttributeUuids"].([]any); len(uu) != 1 || uu[0] != Str(pa, "uuid") {
			t.Errorf("productAttributeUuids %v", p["productAttributeUuids"])
		}
	}
	// Asked for and none: empty lists.
	simple := mkProduct(t, c, "simple")
	e := Want(t, c.Get("/v1/products/"+simple+q), 200).Obj()
	for _, k := range []string{"inputValueUuids", "inputValues", "productAttributeUuids", "productAttributes"} {
		if l, ok := e[k].([]any); !ok || len(l) != 0 {
			t.Errorf("%s = %v for a product without any, want []", k, e[k])
		}
	}
}
