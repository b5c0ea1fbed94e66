package inputs

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// noConstraints is the constraints object of an input type without any.
var noConstraints = map[string]any{"minLength": nil, "maxLength": nil, "min": nil, "max": nil, "pattern": nil, "allowedValues": nil}

// constraints is noConstraints with the given ones set.
func constraints(kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range noConstraints {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func wantInputType(t *testing.T, what string, it map[string]any, group, code, name, dataType string, localizable bool, cons map[string]any) {
	t.Helper()
	WantKeys(t, what, it, "uuid", "createdAt", "updatedAt", "typeGroupUuid", "code", "displayName", "dataType", "isLocalizable", "constraints")
	WantCommon(t, what, it)
	WantFields(t, what, it, "typeGroupUuid", group, "code", code, "displayName", name, "dataType", dataType, "isLocalizable", localizable, "constraints", cons)
}

func TestInputTypeOperations(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	g2 := mkTypeGroup(t, c, "pricing", "product")

	// Create: defaults, every constraint key present as null, Location.
	r := Want(t, c.Post("/v1/input-types", Body("typeGroupUuid", g, "code", "meta_title", "dataType", "text")), 201)
	it := r.Obj()
	wantInputType(t, "create", it, g, "meta_title", "meta_title", "text", false, noConstraints)
	if !strings.Contains(string(r.Raw), `"constraints":{"minLength":null,"maxLength":null,"min":null,"max":null,"pattern":null,"allowedValues":null}`) {
		t.Errorf("constraints not written with nulls: %s", r.Raw)
	}
	id := Str(it, "uuid")
	if loc := r.Header.Get("Location"); loc != "/v1/input-types/"+id {
		t.Errorf("Location %q", loc)
	}
	if got := Want(t, c.Get("/v1/input-types/"+id), 200).Obj(); !reflect.DeepEqual(got, it) {
		t.Errorf("get = %v, want %v", got, it)
	}

	// Every data type, with the constraints that fit it.
	for _, x := range []struct {
		code, dataType string
		cons           map[string]any
	}{
		{"color", "text", Body("minLength", 1, "maxLength", 20, "pattern", "^[a-z]+$", "allowedValues", []string{"red", "blue"})},
		{"body", "rich_text", Body("maxLength", 10000)},
		{"stock", "integer", Body("min", "0", "max", "100000", "allowedValues", []string{"0", "10", "100"})},
		{"weight", "decimal", Body("min", "0.001", "max", "999.999")},
		{"discontinued", "boolean", Body()},
		{"release", "date", Body("min", "2000-01-01", "max", "2099-12-31")},
		{"launch", "date_time", Body("min", "2024-01-01T00:00:00Z")},
		{"manual", "url", Body("maxLength", 2048, "pattern", "^https://")},
		{"price", "money", Body("min", "0", "max", "99999.99")},
		{"extra", "json", nil},
	} {
		b := Body("typeGroupUuid", g2, "code", x.code, "dataType", x.dataType, "isLocalizable", true, "displayName", strings.ToUpper(x.code))
		if x.cons != nil {
			b["constraints"] = x.cons
		}
		got := Want(t, c.Post("/v1/input-types", b), 201).Obj()
		var kv []any
		for k, v := range x.cons {
			kv = append(kv, k, v)
		}
		wantInputType(t, "create "+x.dataType, got, g2, x.code, strings.ToUpper(x.code), x.dataType, true, constraints(kv...))
	}

	// Update: fields given change; the same dataType is accepted.
	u := Want(t, c.Patch("/v1/input-types/"+id, Body("displayName", "Meta title", "isLocalizable", true, "typeGroupUuid", g2, "dataType", "text", "code", nil)), 200).Obj()
	wantInputType(t, "update", u, g2, "meta_title", "Meta title", "text", true, noConstraints)
	if !TS(t, u["updatedAt"]).After(TS(t, it["updatedAt"])) || u["createdAt"] != it["createdAt"] {
		t.Errorf("update timestamps %v / %v", u, it)
	}
	Problem(t, "another dataType", c.Patch("/v1/input-types/"+id, Body("dataType", "rich_text")), 400, "VALIDATION_FAILED", "dataType")

	// Constraints are a merge patch.
	u = Want(t, c.Patch("/v1/input-types/"+id, Body("constraints", Body("maxLength", 60, "pattern", "\\S"))), 200).Obj()
	WantFields(t, "set constraints", u, "constraints", constraints("maxLength", 60, "pattern", "\\S"))
	u = Want(t, c.Patch("/v1/input-types/"+id, Body("constraints", Body("minLength", 5, "allowedValues", []string{"hello world"}))), 200).Obj()
	WantFields(t, "add constraints", u, "constraints", constraints("minLength", 5, "maxLength", 60, "pattern", "\\S", "allowedValues", []any{"hello world"}))
	u = Want(t, c.Patch("/v1/input-types/"+id, Body("constraints", Body("pattern", nil, "allowedValues", nil, "maxLength", 70))), 200).Obj()
	WantFields(t, "remove and change constraints", u, "constraints", constraints("minLength", 5, "maxLength", 70))
	u = Want(t, c.Patch("/v1/input-types/"+id, Body("constraints", Body())), 200).Obj()
	WantFields(t, "empty constraints patch", u, "constraints", constraints("minLength", 5, "maxLength", 70))
	u = Want(t, c.Patch("/v1/input-types/"+id, Body("displayName", "Title")), 200).Obj()
	WantFields(t, "constraints kept", u, "constraints", constraints("minLength", 5, "maxLength", 70))
	Problem(t, "merged constraints judged together", c.Patch("/v1/input-types/"+id, Body("constraints", Body("maxLength", 4))), 400, "VALIDATION_FAILED", "constraints.minLength")
	Problem(t, "constraint of another data type", c.Patch("/v1/input-types/"+id, Body("constraints", Body("min", "1"))), 400, "VALIDATION_FAILED", "constraints.min")
	u = Want(t, c.Patch("/v1/input-types/"+id, Body("constraints", nil)), 200).Obj()
	wantInputType(t, "null constraints", u, g2, "meta_title", "Title", "text", true, noConstraints)
	if got := Want(t, c.Get("/v1/input-types/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
		t.Errorf("get after update = %v, want %v", got, u)
	}

	// Bulk create and update, in request order.
	items := Want(t, c.Post("/v1/input-types/bulk", []any{
		Body("typeGroupUuid", g, "code", "z_keywords", "dataType", "text", "constraints", Body("maxLength", 255)),
		Body("typeGroupUuid", g2, "code", "a_msrp", "dataType", "money"),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create: %v", items)
	}
	wantInputType(t, "bulk [0]", items[0], g, "z_keywords", "z_keywords", "text", false, constraints("maxLength", 255))
	wantInputType(t, "bulk [1]", items[1], g2, "a_msrp", "a_msrp", "money", false, noConstraints)
	up := Want(t, c.Patch("/v1/input-types/bulk", []any{
		Body("uuid", Str(items[1], "uuid"), "constraints", Body("min", "0.01")),
		Body("uuid", Str(items[0], "uuid"), "typeGroupUuid", g2, "constraints", Body("maxLength", nil, "minLength", 1)),
	}), 200).Objs()
	if len(up) != 2 {
		t.Fatalf("bulk update: %v", up)
	}
	wantInputType(t, "bulk update [0]", up[0], g2, "a_msrp", "a_msrp", "money", false, constraints("min", "0.01"))
	wantInputType(t, "bulk update [1]", up[1], g2, "z_keywords", "z_keywords", "text", false, constraints("minLength", 1))

	// Delete.
	Want(t, c.Delete("/v1/input-types/"+id), 204)
	Problem(t, "get deleted", c.Get("/v1/input-types/"+id), 404, "NOT_FOUND")
	Problem(t, "delete deleted", c.Delete("/v1/input-types/"+id), 404, "NOT_FOUND")
	WantTotal(t, c, "/v1/input-types", 12)
}

func TestInputTypeValidation(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	it := Str(mkInputType(t, c, g, "title", "text", "constraints", Body("maxLength", 10)), "uuid")
	other := Str(mkInputType(t, c, g, "count", "integer"), "uuid")
	oc, _ := env.TenantClient(t)
	foreignGroup := mkTypeGroup(t, oc, "seo", "product")
	log := NewEventLog(pool, tenant).Skip(t)

	post := func(extra ...any) Resp {
		b := Body("typeGroupUuid", g, "code", "x", "dataType", "text")
		for i := 0; i+1 < len(extra); i += 2 {
			if extra[i+1] == "-" {
				delete(b, extra[i].(string))
			} else {
				b[extra[i].(string)] = extra[i+1]
			}
		}
		return c.Post("/v1/input-types", b)
	}
	Problem(t, "no typeGroupUuid", post("typeGroupUuid", "-"), 400, "VALIDATION_FAILED", "typeGroupUuid")
	Problem(t, "bad typeGroupUuid", post("typeGroupUuid", "nope"), 400, "VALIDATION_FAILED", "typeGroupUuid")
	Problem(t, "unknown typeGroupUuid", post("typeGroupUuid", UnknownUUID), 404, "NOT_FOUND", "typeGroupUuid")
	Problem(t, "another tenant's typeGroupUuid", post("typeGroupUuid", foreignGroup), 404, "NOT_FOUND", "typeGroupUuid")
	Problem(t, "no code", post("code", "-"), 400, "VALIDATION_FAILED", "code")
	Problem(t, "long displayName", post("displayName", strings.Repeat("x", 101)), 400, "VALIDATION_FAILED", "displayName")
	Problem(t, "no dataType", post("dataType", "-"), 400, "VALIDATION_FAILED", "dataType")
	Problem(t, "unknown dataType", post("dataType", "colour"), 400, "MALFORMED_REQUEST", "dataType")
	Problem(t, "isLocalizable not a boolean", post("isLocalizable", "yes"), 400, "MALFORMED_REQUEST", "isLocalizable")
	Problem(t, "duplicate code", post("code", "title"), 409, "ALREADY_EXISTS", "code")
	g2 := mkTypeGroup(t, c, "other", "brand")
	log.Expect(t, "a second group", Ev("type_group.created", "typeGroupUuid", g2))
	Problem(t, "code unique in the tenant, across groups", post("code", "title", "typeGroupUuid", g2), 409, "ALREADY_EXISTS", "code")

	// Constraints: the ones that do not apply to the data type, and bad values.
	for _, x := range []struct {
		what, dataType string
		cons           map[string]any
		field          string
	}{
		{"pattern on boolean", "boolean", Body("pattern", "x"), "constraints.pattern"},
		{"min on text", "text", Body("min", "1"), "constraints.min"},
		{"maxLength on integer", "integer", Body("maxLength", 3), "constraints.maxLength"},
		{"allowedValues on date", "date", Body("allowedValues", []string{"2024-01-01"}), "constraints.allowedValues"},
		{"pattern on rich_text", "rich_text", Body("pattern", "x"), "constraints.pattern"},
		{"minLength on json", "json", Body("minLength", 1), "constraints.minLength"},
		{"max on url", "url", Body("max", "9"), "constraints.max"},
		{"negative minLength", "text", Body("minLength", -1), "constraints.minLength"},
		{"minLength over maxLength", "text", Body("minLength", 3, "maxLength", 2), "constraints.minLength"},
		{"bad pattern", "text", Body("pattern", "a(b"), "constraints.pattern"},
		{"integer min not an integer", "integer", Body("min", "1.5"), "constraints.min"},
		{"decimal max not a decimal", "decimal", Body("max", "ten"), "constraints.max"},
		{"date min not a date", "date", Body("min", "2024-02-30"), "constraints.min"},
		{"date_time max without offset", "date_time", Body("max", "2024-02-01T00:00:00"), "constraints.max"},
		{"min over max", "money", Body("min", "10", "max", "9.99"), "constraints.min"},
		{"empty allowedValues", "text", Body("allowedValues", []string{}), "constraints.allowedValues"},
		{"repeated allowed value", "integer", Body("allowedValues", []string{"1", "2", "1"}), "constraints.allowedValues[2]"},
		{"allowed value out of bounds", "integer", Body("min", "0", "allowedValues", []string{"-1"}), "constraints.allowedValues[0]"},
		{"allowed value too long", "text", Body("maxLength", 3, "allowedValues", []string{"abcd"}), "constraints.allowedValues[0]"},
	} {
		Problem(t, x.what, post("dataType", x.dataType, "constraints", x.cons), 400, "VALIDATION_FAILED", x.field)
	}
	Problem(t, "min as a boolean", post("dataType", "integer", "constraints", Body("min", true)), 400, "MALFORMED_REQUEST", "constraints.min")
	Problem(t, "unknown constraint", post("constraints", Body("minimum", 1)), 400, "MALFORMED_REQUEST", "constraints.minimum")
	Problem(t, "constraints not an object", post("constraints", []string{"x"}), 400, "MALFORMED_REQUEST", "constraints")

	// Bulk: item-indexed errors and nothing written.
	r := c.Post("/v1/input-types/bulk", []any{
		Body("typeGroupUuid", g, "code", "n1", "dataType", "text"),
		Body("typeGroupUuid", g, "code", "n2", "dataType", "boolean", "constraints", Body("pattern", "x")),
		Body("typeGroupUuid", g, "code", "n3"),
	})
	Problem(t, "bulk invalid", r, 400, "VALIDATION_FAILED", "[1].constraints.pattern")
	Problem(t, "bulk invalid", r, 400, "VALIDATION_FAILED", "[2].dataType")
	Problem(t, "bulk unknown group", c.Post("/v1/input-types/bulk", []any{
		Body("typeGroupUuid", g, "code", "n1", "dataType", "text"),
		Body("typeGroupUuid", foreignGroup, "code", "n2", "dataType", "text"),
	}), 404, "NOT_FOUND", "[1].typeGroupUuid")
	Problem(t, "bulk duplicate code", c.Post("/v1/input-types/bulk", []any{
		Body("typeGroupUuid", g, "code", "n1", "dataType", "text"),
		Body("typeGroupUuid", g, "code", "count", "dataType", "text"),
	}), 409, "ALREADY_EXISTS", "[1].code")
	WantTotal(t, c, "/v1/input-types", 2)

	// Updates.
	Problem(t, "update unknown group", c.Patch("/v1/input-types/"+it, Body("typeGroupUuid", UnknownUUID)), 404, "NOT_FOUND", "typeGroupUuid")
	Problem(t, "update another tenant's group", c.Patch("/v1/input-types/"+it, Body("typeGroupUuid", foreignGroup)), 404, "NOT_FOUND", "typeGroupUuid")
	Problem(t, "update bad group", c.Patch("/v1/input-types/"+it, Body("typeGroupUuid", "x")), 400, "VALIDATION_FAILED", "typeGroupUuid")
	Problem(t, "update taken code", c.Patch("/v1/input-types/"+it, Body("code", "count")), 409, "ALREADY_EXISTS", "code")
	Problem(t, "update unknown dataType", c.Patch("/v1/input-types/"+it, Body("dataType", "colour")), 400, "MALFORMED_REQUEST", "dataType")
	Problem(t, "bulk update: dataType fixed", c.Patch("/v1/input-types/bulk", []any{
		Body("uuid", it, "displayName", "changed"), Body("uuid", other, "dataType", "decimal"),
	}), 400, "VALIDATION_FAILED", "[1].dataType")
	Problem(t, "bulk update: constraint of another type", c.Patch("/v1/input-types/bulk", []any{
		Body("uuid", it, "displayName", "changed"), Body("uuid", other, "constraints", Body("maxLength", 3)),
	}), 400, "VALIDATION_FAILED", "[1].constraints.maxLength")
	Problem(t, "bulk update: unknown group", c.Patch("/v1/input-types/bulk", []any{
		Body("uuid", it, "displayName", "changed"), Body("uuid", other, "typeGroupUuid", foreignGroup),
	}), 404, "NOT_FOUND", "[1].typeGroupUuid")
	Problem(t, "bulk update: unknown uuid", c.Patch("/v1/input-types/bulk", []any{
		Body("uuid", it, "displayName", "changed"), Body("uuid", foreignGroup, "displayName", "x"),
	}), 404, "NOT_FOUND", "[1].uuid")
	got := Want(t, c.Get("/v1/input-types/"+it), 200).Obj()
	wantInputType(t, "unchanged by refused updates", got, g, "title", "title", "text", false, constraints("maxLength", 10))
	log.Expect(t, "refused writes emit nothing")
}

// An input type a channel asks for cannot be deleted.
func TestInputTypeInUse(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	it := Str(mkInputType(t, c, g, "title", "text"), "uuid")
	ch := Str(mkChannel(t, c, "web"), "uuid")
	link := Str(mkLink(t, c, ch, it, "required"), "uuid")
	Problem(t, "delete a linked input type", c.Delete("/v1/input-types/"+it), 409, "IN_USE")
	Want(t, c.Get("/v1/input-types/"+it), 200)
	Want(t, c.Delete(cits(ch)+"/"+link), 204)
	Want(t, c.Delete("/v1/input-types/"+it), 204)
}

func TestInputTypeList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	seo := mkTypeGroup(t, c, "seo", "product")
	specs := mkTypeGroup(t, c, "specs", "product")
	items := Want(t, c.Post("/v1/input-types/bulk", []any{
		Body("typeGroupUuid", seo, "code", "meta_title", "displayName", "Meta title", "dataType", "text", "isLocalizable", true),
		Body("typeGroupUuid", seo, "code", "meta_description", "displayName", "Meta description", "dataType", "rich_text", "isLocalizable", true),
		Body("typeGroupUuid", specs, "code", "weight_kg", "displayName", "Weight (kg)", "dataType", "decimal"),
		Body("typeGroupUuid", specs, "code", "battery_100%", "displayName", "Battery", "dataType", "integer"),
	}), 201).Objs()
	ids := UUIDsOf(items)
	title, desc, weight, battery := ids[0], ids[1], ids[2], ids[3]
	late := Str(mkInputType(t, c, specs, "release", "date", "displayName", "Release date"), "uuid")
	lateObj := Want(t, c.Get("/v1/input-types/"+late), 200).Obj()
	Want(t, c.Patch("/v1/input-types/"+weight, Body("displayName", "Weight")), 200)
	weightObj := Want(t, c.Get("/v1/input-types/"+weight), 200).Obj()

	base := "/v1/input-types"
	WantUUIDs(t, c, base, true, title, desc, weight, battery, late)
	WantUUIDs(t, c, base+Q("uuids[eq]", title, "uuids[eq]", late), false, title, late)
	WantUUIDs(t, c, base+Q("typeGroupUuids[eq]", seo), false, title, desc)
	WantUUIDs(t, c, base+Q("typeGroupUuids[eq]", seo, "typeGroupUuids[eq]", specs, "dataTypes[eq]", "text"), false, title)
	WantUUIDs(t, c, base+Q("typeGroupUuids[eq]", UnknownUUID), false)
	WantUUIDs(t, c, base+Q("codes[eq]", "weight_kg", "codes[eq]", "release"), false, weight, late)
	WantUUIDs(t, c, base+Q("code[contains]", "_"), false, title, desc, weight, battery)
	WantUUIDs(t, c, base+Q("code[contains]", "%"), false, battery)
	WantUUIDs(t, c, base+Q("code[starts]", "META"), false, title, desc)
	WantUUIDs(t, c, base+Q("code[ends]", "_kg"), false, weight)
	WantUUIDs(t, c, base+Q("displayNames[eq]", "Weight", "displayNames[eq]", "Battery"), false, weight, battery)
	WantUUIDs(t, c, base+Q("displayName[contains]", "TITLE"), false, title)
	WantUUIDs(t, c, base+Q("displayName[starts]", "meta"), false, title, desc)
	WantUUIDs(t, c, base+Q("displayName[ends]", "date"), false, late)
	WantUUIDs(t, c, base+Q("dataTypes[eq]", "integer", "dataTypes[eq]", "decimal"), false, weight, battery)
	WantUUIDs(t, c, base+Q("dataTypes[eq]", "date_time"), false)
	WantUUIDs(t, c, base+Q("isLocalizable[eq]", "true"), false, title, desc)
	WantUUIDs(t, c, base+Q("isLocalizable[eq]", "false"), false, weight, battery, late)
	WantUUIDs(t, c, base+Q("createdAt[min]", Str(lateObj, "createdAt")), false, late)
	WantUUIDs(t, c, base+Q("createdAt[max]", Str(items[0], "createdAt")), false, title, desc, weight, battery)
	WantUUIDs(t, c, base+Q("createdAt[eq]", Str(items[0], "createdAt")), false, title, desc, weight, battery)
	WantUUIDs(t, c, base+Q("updatedAt[min]", Str(weightObj, "updatedAt")), false, weight)
	WantUUIDs(t, c, base+Q("updatedAt[eq]", Str(weightObj, "updatedAt")), false, weight)
	WantUUIDs(t, c, base+Q("updatedAt[max]", Str(lateObj, "updatedAt")), false, title, desc, battery, late)
	WantUUIDs(t, c, base+Q("code[order]", "asc"), true, battery, desc, title, late, weight)
	WantUUIDs(t, c, base+Q("displayName[order]", "desc"), true, weight, late, title, desc, battery)
	WantUUIDs(t, c, base+Q("dataType[order]", "asc"), true, late, weight, battery, desc, title)
	WantUUIDs(t, c, base+Q("isLocalizable[order]", "desc", "code[order]", "desc"), true, title, desc, weight, late, battery)
	WantUUIDs(t, c, base+Q("createdAt[order]", "desc"), true, late, battery, weight, desc, title)
	WantUUIDs(t, c, base+Q("updatedAt[order]", "desc"), true, weight, late, battery, desc, title)
	r := Want(t, c.Get(base+Q("size", "2", "page", "2")), 200)
	if p := r.Obj()["pagination"].(map[string]any); p["totalItems"] != 5.0 || p["totalPages"] != 3.0 || !reflect.DeepEqual(UUIDsOf(r.Items()), []string{weight, battery}) {
		t.Errorf("page 2 of size 2: %s", r.Raw)
	}
	for _, it := range Want(t, c.Get(base), 200).Items() {
		if it["uuid"] == weight && !reflect.DeepEqual(it, weightObj) {
			t.Errorf("list item %v != get %v", it, weightObj)
		}
	}
	Problem(t, "unknown data type", c.Get(base+Q("dataTypes[eq]", "colour")), 400, "VALIDATION_FAILED", "dataTypes[eq]")
	Problem(t, "bad group uuid", c.Get(base+Q("typeGroupUuids[eq]", "x")), 400, "VALIDATION_FAILED", "typeGroupUuids[eq]")
	Problem(t, "bad boolean", c.Get(base+Q("isLocalizable[eq]", "maybe")), 400, "MALFORMED_REQUEST")
}

func TestInputTypeEvents(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	log := NewEventLog(pool, tenant).Skip(t)
	iev := func(verb, id string) Event { return Ev("input_type."+verb, "inputTypeUuid", id) }

	a := Str(mkInputType(t, c, g, "a", "text"), "uuid")
	log.Expect(t, "create", iev("created", a))
	items := Want(t, c.Post("/v1/input-types/bulk", []any{
		Body("typeGroupUuid", g, "code", "b", "dataType", "integer"), Body("typeGroupUuid", g, "code", "c", "dataType", "json"),
	}), 201).Objs()
	b, cc := Str(items[0], "uuid"), Str(items[1], "uuid")
	log.Expect(t, "bulk create", iev("created", b), iev("created", cc))
	Want(t, c.Patch("/v1/input-types/"+a, Body("constraints", Body("maxLength", 5))), 200)
	log.Expect(t, "update", iev("updated", a))
	Want(t, c.Patch("/v1/input-types/bulk", []any{Body("uuid", b, "isLocalizable", true), Body("uuid", cc, "code", "cc")}), 200)
	log.Expect(t, "bulk update", iev("updated", b), iev("updated", cc))
	Want(t, c.Delete("/v1/input-types/"+cc), 204)
	log.Expect(t, "delete", iev("deleted", cc))
	c.Patch("/v1/input-types/"+a, Body("constraints", Body("min", "1")))
	c.Patch("/v1/input-types/"+b, Body("dataType", "text"))
	c.Post("/v1/input-types", Body("typeGroupUuid", g, "code", "a", "dataType", "text"))
	c.Delete("/v1/input-types/" + cc)
	log.Expect(t, "refused writes")
}
