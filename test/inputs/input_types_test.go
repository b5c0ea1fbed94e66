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
	wantKeys(t, what, it, "uuid", "createdAt", "updatedAt", "typeGroupUuid", "code", "displayName", "dataType", "isLocalizable", "constraints")
	wantCommon(t, what, it)
	wantFields(t, what, it, "typeGroupUuid", group, "code", code, "displayName", name, "dataType", dataType, "isLocalizable", localizable, "constraints", cons)
}

func TestInputTypeOperations(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	g2 := mkTypeGroup(t, c, "pricing", "product")

	// Create: defaults, every constraint key present as null, Location.
	r := Want(t, c.Post("/v1/input-types", body("typeGroupUuid", g, "code", "meta_title", "dataType", "text")), 201)
	it := r.Obj()
	wantInputType(t, "create", it, g, "meta_title", "meta_title", "text", false, noConstraints)
	if !strings.Contains(string(r.Raw), `"constraints":{"minLength":null,"maxLength":null,"min":null,"max":null,"pattern":null,"allowedValues":null}`) {
		t.Errorf("constraints not written with nulls: %s", r.Raw)
	}
	id := str(it, "uuid")
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
		{"color", "text", body("minLength", 1, "maxLength", 20, "pattern", "^[a-z]+$", "allowedValues", []string{"red", "blue"})},
		{"body", "rich_text", body("maxLength", 10000)},
		{"stock", "integer", body("min", "0", "max", "100000", "allowedValues", []string{"0", "10", "100"})},
		{"weight", "decimal", body("min", "0.001", "max", "999.999")},
		{"discontinued", "boolean", body()},
		{"release", "date", body("min", "2000-01-01", "max", "2099-12-31")},
		{"launch", "date_time", body("min", "2024-01-01T00:00:00Z")},
		{"manual", "url", body("maxLength", 2048, "pattern", "^https://")},
		{"price", "money", body("min", "0", "max", "99999.99")},
		{"extra", "json", nil},
	} {
		b := body("typeGroupUuid", g2, "code", x.code, "dataType", x.dataType, "isLocalizable", true, "displayName", strings.ToUpper(x.code))
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
	u := Want(t, c.Patch("/v1/input-types/"+id, body("displayName", "Meta title", "isLocalizable", true, "typeGroupUuid", g2, "dataType", "text", "code", nil)), 200).Obj()
	wantInputType(t, "update", u, g2, "meta_title", "Meta title", "text", true, noConstraints)
	if !ts(t, u["updatedAt"]).After(ts(t, it["updatedAt"])) || u["createdAt"] != it["createdAt"] {
		t.Errorf("update timestamps %v / %v", u, it)
	}
	problem(t, "another dataType", c.Patch("/v1/input-types/"+id, body("dataType", "rich_text")), 400, "VALIDATION_FAILED", "dataType")

	// Constraints are a merge patch.
	u = Want(t, c.Patch("/v1/input-types/"+id, body("constraints", body("maxLength", 60, "pattern", "\\S"))), 200).Obj()
	wantFields(t, "set constraints", u, "constraints", constraints("maxLength", 60, "pattern", "\\S"))
	u = Want(t, c.Patch("/v1/input-types/"+id, body("constraints", body("minLength", 5, "allowedValues", []string{"hello world"}))), 200).Obj()
	wantFields(t, "add constraints", u, "constraints", constraints("minLength", 5, "maxLength", 60, "pattern", "\\S", "allowedValues", []any{"hello world"}))
	u = Want(t, c.Patch("/v1/input-types/"+id, body("constraints", body("pattern", nil, "allowedValues", nil, "maxLength", 70))), 200).Obj()
	wantFields(t, "remove and change constraints", u, "constraints", constraints("minLength", 5, "maxLength", 70))
	u = Want(t, c.Patch("/v1/input-types/"+id, body("constraints", body())), 200).Obj()
	wantFields(t, "empty constraints patch", u, "constraints", constraints("minLength", 5, "maxLength", 70))
	u = Want(t, c.Patch("/v1/input-types/"+id, body("displayName", "Title")), 200).Obj()
	wantFields(t, "constraints kept", u, "constraints", constraints("minLength", 5, "maxLength", 70))
	problem(t, "merged constraints judged together", c.Patch("/v1/input-types/"+id, body("constraints", body("maxLength", 4))), 400, "VALIDATION_FAILED", "constraints.minLength")
	problem(t, "constraint of another data type", c.Patch("/v1/input-types/"+id, body("constraints", body("min", "1"))), 400, "VALIDATION_FAILED", "constraints.min")
	u = Want(t, c.Patch("/v1/input-types/"+id, body("constraints", nil)), 200).Obj()
	wantInputType(t, "null constraints", u, g2, "meta_title", "Title", "text", true, noConstraints)
	if got := Want(t, c.Get("/v1/input-types/"+id), 200).Obj(); !reflect.DeepEqual(got, u) {
		t.Errorf("get after update = %v, want %v", got, u)
	}

	// Bulk create and update, in request order.
	items := Want(t, c.Post("/v1/input-types/bulk", []any{
		body("typeGroupUuid", g, "code", "z_keywords", "dataType", "text", "constraints", body("maxLength", 255)),
		body("typeGroupUuid", g2, "code", "a_msrp", "dataType", "money"),
	}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk create: %v", items)
	}
	wantInputType(t, "bulk [0]", items[0], g, "z_keywords", "z_keywords", "text", false, constraints("maxLength", 255))
	wantInputType(t, "bulk [1]", items[1], g2, "a_msrp", "a_msrp", "money", false, noConstraints)
	up := Want(t, c.Patch("/v1/input-types/bulk", []any{
		body("uuid", str(items[1], "uuid"), "constraints", body("min", "0.01")),
		body("uuid", str(items[0], "uuid"), "typeGroupUuid", g2, "constraints", body("maxLength", nil, "minLength", 1)),
	}), 200).Objs()
	if len(up) != 2 {
		t.Fatalf("bulk update: %v", up)
	}
	wantInputType(t, "bulk update [0]", up[0], g2, "a_msrp", "a_msrp", "money", false, constraints("min", "0.01"))
	wantInputType(t, "bulk update [1]", up[1], g2, "z_keywords", "z_keywords", "text", false, constraints("minLength", 1))

	// Delete.
	Want(t, c.Delete("/v1/input-types/"+id), 204)
	problem(t, "get deleted", c.Get("/v1/input-types/"+id), 404, "NOT_FOUND")
	problem(t, "delete deleted", c.Delete("/v1/input-types/"+id), 404, "NOT_FOUND")
	wantTotal(t, c, "/v1/input-types", 12)
}

func TestInputTypeValidation(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	it := str(mkInputType(t, c, g, "title", "text", "constraints", body("maxLength", 10)), "uuid")
	other := str(mkInputType(t, c, g, "count", "integer"), "uuid")
	oc, _ := tenantClient(t)
	foreignGroup := mkTypeGroup(t, oc, "seo", "product")
	log := newLog(t, tenant)

	post := func(extra ...any) Resp {
		b := body("typeGroupUuid", g, "code", "x", "dataType", "text")
		for i := 0; i+1 < len(extra); i += 2 {
			if extra[i+1] == "-" {
				delete(b, extra[i].(string))
			} else {
				b[extra[i].(string)] = extra[i+1]
			}
		}
		return c.Post("/v1/input-types", b)
	}
	problem(t, "no typeGroupUuid", post("typeGroupUuid", "-"), 400, "VALIDATION_FAILED", "typeGroupUuid")
	problem(t, "bad typeGroupUuid", post("typeGroupUuid", "nope"), 400, "VALIDATION_FAILED", "typeGroupUuid")
	problem(t, "unknown typeGroupUuid", post("typeGroupUuid", unknownUUID), 404, "NOT_FOUND", "typeGroupUuid")
	problem(t, "another tenant's typeGroupUuid", post("typeGroupUuid", foreignGroup), 404, "NOT_FOUND", "typeGroupUuid")
	problem(t, "no code", post("code", "-"), 400, "VALIDATION_FAILED", "code")
	problem(t, "long displayName", post("displayName", strings.Repeat("x", 101)), 400, "VALIDATION_FAILED", "displayName")
	problem(t, "no dataType", post("dataType", "-"), 400, "VALIDATION_FAILED", "dataType")
	problem(t, "unknown dataType", post("dataType", "colour"), 400, "MALFORMED_REQUEST", "dataType")
	problem(t, "isLocalizable not a boolean", post("isLocalizable", "yes"), 400, "MALFORMED_REQUEST", "isLocalizable")
	problem(t, "duplicate code", post("code", "title"), 409, "ALREADY_EXISTS", "code")
	g2 := mkTypeGroup(t, c, "other", "brand")
	log.expect(t, "a second group", ev("type_group.created", "typeGroupUuid", g2))
	problem(t, "code unique in the tenant, across groups", post("code", "title", "typeGroupUuid", g2), 409, "ALREADY_EXISTS", "code")

	// Constraints: the ones that do not apply to the data type, and bad values.
	for _, x := range []struct {
		what, dataType string
		cons           map[string]any
		field          string
	}{
		{"pattern on boolean", "boolean", body("pattern", "x"), "constraints.pattern"},
		{"min on text", "text", body("min", "1"), "constraints.min"},
		{"maxLength on integer", "integer", body("maxLength", 3), "constraints.maxLength"},
		{"allowedValues on date", "date", body("allowedValues", []string{"2024-01-01"}), "constraints.allowedValues"},
		{"pattern on rich_text", "rich_text", body("pattern", "x"), "constraints.pattern"},
		{"minLength on json", "json", body("minLength", 1), "constraints.minLength"},
		{"max on url", "url", body("max", "9"), "constraints.max"},
		{"negative minLength", "text", body("minLength", -1), "constraints.minLength"},
		{"minLength over maxLength", "text", body("minLength", 3, "maxLength", 2), "constraints.minLength"},
		{"bad pattern", "text", body("pattern", "a(b"), "constraints.pattern"},
		{"integer min not an integer", "integer", body("min", "1.5"), "constraints.min"},
		{"decimal max not a decimal", "decimal", body("max", "ten"), "constraints.max"},
		{"date min not a date", "date", body("min", "2024-02-30"), "constraints.min"},
		{"date_time max without offset", "date_time", body("max", "2024-02-01T00:00:00"), "constraints.max"},
		{"min over max", "money", body("min", "10", "max", "9.99"), "constraints.min"},
		{"empty allowedValues", "text", body("allowedValues", []string{}), "constraints.allowedValues"},
		{"repeated allowed value", "integer", body("allowedValues", []string{"1", "2", "1"}), "constraints.allowedValues[2]"},
		{"allowed value out of bounds", "integer", body("min", "0", "allowedValues", []string{"-1"}), "constraints.allowedValues[0]"},
		{"allowed value too long", "text", body("maxLength", 3, "allowedValues", []string{"abcd"}), "constraints.allowedValues[0]"},
	} {
		problem(t, x.what, post("dataType", x.dataType, "constraints", x.cons), 400, "VALIDATION_FAILED", x.field)
	}
	problem(t, "min as a number", post("dataType", "integer", "constraints", body("min", 1)), 400, "MALFORMED_REQUEST", "constraints.min")
	problem(t, "unknown constraint", post("constraints", body("minimum", 1)), 400, "MALFORMED_REQUEST", "constraints.minimum")
	problem(t, "constraints not an object", post("constraints", []string{"x"}), 400, "MALFORMED_REQUEST", "constraints")

	// Bulk: item-indexed errors and nothing written.
	r := c.Post("/v1/input-types/bulk", []any{
		body("typeGroupUuid", g, "code", "n1", "dataType", "text"),
		body("typeGroupUuid", g, "code", "n2", "dataType", "boolean", "constraints", body("pattern", "x")),
		body("typeGroupUuid", g, "code", "n3"),
	})
	problem(t, "bulk invalid", r, 400, "VALIDATION_FAILED", "[1].constraints.pattern")
	problem(t, "bulk invalid", r, 400, "VALIDATION_FAILED", "[2].dataType")
	problem(t, "bulk unknown group", c.Post("/v1/input-types/bulk", []any{
		body("typeGroupUuid", g, "code", "n1", "dataType", "text"),
		body("typeGroupUuid", foreignGroup, "code", "n2", "dataType", "text"),
	}), 404, "NOT_FOUND", "[1].typeGroupUuid")
	problem(t, "bulk duplicate code", c.Post("/v1/input-types/bulk", []any{
		body("typeGroupUuid", g, "code", "n1", "dataType", "text"),
		body("typeGroupUuid", g, "code", "count", "dataType", "text"),
	}), 409, "ALREADY_EXISTS", "[1].code")
	wantTotal(t, c, "/v1/input-types", 2)

	// Updates.
	problem(t, "update unknown group", c.Patch("/v1/input-types/"+it, body("typeGroupUuid", unknownUUID)), 404, "NOT_FOUND", "typeGroupUuid")
	problem(t, "update another tenant's group", c.Patch("/v1/input-types/"+it, body("typeGroupUuid", foreignGroup)), 404, "NOT_FOUND", "typeGroupUuid")
	problem(t, "update bad group", c.Patch("/v1/input-types/"+it, body("typeGroupUuid", "x")), 400, "VALIDATION_FAILED", "typeGroupUuid")
	problem(t, "update taken code", c.Patch("/v1/input-types/"+it, body("code", "count")), 409, "ALREADY_EXISTS", "code")
	problem(t, "update unknown dataType", c.Patch("/v1/input-types/"+it, body("dataType", "colour")), 400, "MALFORMED_REQUEST", "dataType")
	problem(t, "bulk update: dataType fixed", c.Patch("/v1/input-types/bulk", []any{
		body("uuid", it, "displayName", "changed"), body("uuid", other, "dataType", "decimal"),
	}), 400, "VALIDATION_FAILED", "[1].dataType")
	problem(t, "bulk update: constraint of another type", c.Patch("/v1/input-types/bulk", []any{
		body("uuid", it, "displayName", "changed"), body("uuid", other, "constraints", body("maxLength", 3)),
	}), 400, "VALIDATION_FAILED", "[1].constraints.maxLength")
	problem(t, "bulk update: unknown group", c.Patch("/v1/input-types/bulk", []any{
		body("uuid", it, "displayName", "changed"), body("uuid", other, "typeGroupUuid", foreignGroup),
	}), 404, "NOT_FOUND", "[1].typeGroupUuid")
	problem(t, "bulk update: unknown uuid", c.Patch("/v1/input-types/bulk", []any{
		body("uuid", it, "displayName", "changed"), body("uuid", foreignGroup, "displayName", "x"),
	}), 404, "NOT_FOUND", "[1].uuid")
	got := Want(t, c.Get("/v1/input-types/"+it), 200).Obj()
	wantInputType(t, "unchanged by refused updates", got, g, "title", "title", "text", false, constraints("maxLength", 10))
	log.expect(t, "refused writes emit nothing")
}

// An input type a channel asks for cannot be deleted.
func TestInputTypeInUse(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	it := str(mkInputType(t, c, g, "title", "text"), "uuid")
	ch := str(mkChannel(t, c, "web"), "uuid")
	link := str(mkLink(t, c, ch, it, "required"), "uuid")
	problem(t, "delete a linked input type", c.Delete("/v1/input-types/"+it), 409, "IN_USE")
	Want(t, c.Get("/v1/input-types/"+it), 200)
	Want(t, c.Delete(cits(ch)+"/"+link), 204)
	Want(t, c.Delete("/v1/input-types/"+it), 204)
}

func TestInputTypeList(t *testing.T) {
	t.Parallel()
	c, _ := tenantClient(t)
	seo := mkTypeGroup(t, c, "seo", "product")
	specs := mkTypeGroup(t, c, "specs", "product")
	items := Want(t, c.Post("/v1/input-types/bulk", []any{
		body("typeGroupUuid", seo, "code", "meta_title", "displayName", "Meta title", "dataType", "text", "isLocalizable", true),
		body("typeGroupUuid", seo, "code", "meta_description", "displayName", "Meta description", "dataType", "rich_text", "isLocalizable", true),
		body("typeGroupUuid", specs, "code", "weight_kg", "displayName", "Weight (kg)", "dataType", "decimal"),
		body("typeGroupUuid", specs, "code", "battery_100%", "displayName", "Battery", "dataType", "integer"),
	}), 201).Objs()
	ids := uuidsOf(items)
	title, desc, weight, battery := ids[0], ids[1], ids[2], ids[3]
	late := str(mkInputType(t, c, specs, "release", "date", "displayName", "Release date"), "uuid")
	lateObj := Want(t, c.Get("/v1/input-types/"+late), 200).Obj()
	Want(t, c.Patch("/v1/input-types/"+weight, body("displayName", "Weight")), 200)
	weightObj := Want(t, c.Get("/v1/input-types/"+weight), 200).Obj()

	base := "/v1/input-types"
	wantUUIDs(t, c, base, true, title, desc, weight, battery, late)
	wantUUIDs(t, c, base+q("uuids[eq]", title, "uuids[eq]", late), false, title, late)
	wantUUIDs(t, c, base+q("typeGroupUuids[eq]", seo), false, title, desc)
	wantUUIDs(t, c, base+q("typeGroupUuids[eq]", seo, "typeGroupUuids[eq]", specs, "dataTypes[eq]", "text"), false, title)
	wantUUIDs(t, c, base+q("typeGroupUuids[eq]", unknownUUID), false)
	wantUUIDs(t, c, base+q("codes[eq]", "weight_kg", "codes[eq]", "release"), false, weight, late)
	wantUUIDs(t, c, base+q("code[contains]", "_"), false, title, desc, weight, battery)
	wantUUIDs(t, c, base+q("code[contains]", "%"), false, battery)
	wantUUIDs(t, c, base+q("code[starts]", "META"), false, title, desc)
	wantUUIDs(t, c, base+q("code[ends]", "_kg"), false, weight)
	wantUUIDs(t, c, base+q("displayNames[eq]", "Weight", "displayNames[eq]", "Battery"), false, weight, battery)
	wantUUIDs(t, c, base+q("displayName[contains]", "TITLE"), false, title)
	wantUUIDs(t, c, base+q("displayName[starts]", "meta"), false, title, desc)
	wantUUIDs(t, c, base+q("displayName[ends]", "date"), false, late)
	wantUUIDs(t, c, base+q("dataTypes[eq]", "integer", "dataTypes[eq]", "decimal"), false, weight, battery)
	wantUUIDs(t, c, base+q("dataTypes[eq]", "date_time"), false)
	wantUUIDs(t, c, base+q("isLocalizable[eq]", "true"), false, title, desc)
	wantUUIDs(t, c, base+q("isLocalizable[eq]", "false"), false, weight, battery, late)
	wantUUIDs(t, c, base+q("createdAt[min]", str(lateObj, "createdAt")), false, late)
	wantUUIDs(t, c, base+q("createdAt[max]", str(items[0], "createdAt")), false, title, desc, weight, battery)
	wantUUIDs(t, c, base+q("createdAt[eq]", str(items[0], "createdAt")), false, title, desc, weight, battery)
	wantUUIDs(t, c, base+q("updatedAt[min]", str(weightObj, "updatedAt")), false, weight)
	wantUUIDs(t, c, base+q("updatedAt[eq]", str(weightObj, "updatedAt")), false, weight)
	wantUUIDs(t, c, base+q("updatedAt[max]", str(lateObj, "updatedAt")), false, title, desc, battery, late)
	wantUUIDs(t, c, base+q("code[order]", "asc"), true, battery, desc, title, late, weight)
	wantUUIDs(t, c, base+q("displayName[order]", "desc"), true, weight, late, title, desc, battery)
	wantUUIDs(t, c, base+q("dataType[order]", "asc"), true, late, weight, battery, desc, title)
	wantUUIDs(t, c, base+q("isLocalizable[order]", "desc", "code[order]", "desc"), true, title, desc, weight, late, battery)
	wantUUIDs(t, c, base+q("createdAt[order]", "desc"), true, late, battery, weight, desc, title)
	wantUUIDs(t, c, base+q("updatedAt[order]", "desc"), true, weight, late, battery, desc, title)
	r := Want(t, c.Get(base+q("size", "2", "page", "2")), 200)
	if p := r.Obj()["pagination"].(map[string]any); p["totalItems"] != 5.0 || p["totalPages"] != 3.0 || !reflect.DeepEqual(uuidsOf(r.Items()), []string{weight, battery}) {
		t.Errorf("page 2 of size 2: %s", r.Raw)
	}
	for _, it := range Want(t, c.Get(base), 200).Items() {
		if it["uuid"] == weight && !reflect.DeepEqual(it, weightObj) {
			t.Errorf("list item %v != get %v", it, weightObj)
		}
	}
	problem(t, "unknown data type", c.Get(base+q("dataTypes[eq]", "colour")), 400, "VALIDATION_FAILED", "dataTypes[eq]")
	problem(t, "bad group uuid", c.Get(base+q("typeGroupUuids[eq]", "x")), 400, "VALIDATION_FAILED", "typeGroupUuids[eq]")
	problem(t, "bad boolean", c.Get(base+q("isLocalizable[eq]", "maybe")), 400, "MALFORMED_REQUEST")
}

func TestInputTypeEvents(t *testing.T) {
	t.Parallel()
	c, tenant := tenantClient(t)
	g := mkTypeGroup(t, c, "seo", "product")
	log := newLog(t, tenant)
	iev := func(verb, id string) event { return ev("input_type."+verb, "inputTypeUuid", id) }

	a := str(mkInputType(t, c, g, "a", "text"), "uuid")
	log.expect(t, "create", iev("created", a))
	items := Want(t, c.Post("/v1/input-types/bulk", []any{
		body("typeGroupUuid", g, "code", "b", "dataType", "integer"), body("typeGroupUuid", g, "code", "c", "dataType", "json"),
	}), 201).Objs()
	b, cc := str(items[0], "uuid"), str(items[1], "uuid")
	log.expect(t, "bulk create", iev("created", b), iev("created", cc))
	Want(t, c.Patch("/v1/input-types/"+a, body("constraints", body("maxLength", 5))), 200)
	log.expect(t, "update", iev("updated", a))
	Want(t, c.Patch("/v1/input-types/bulk", []any{body("uuid", b, "isLocalizable", true), body("uuid", cc, "code", "cc")}), 200)
	log.expect(t, "bulk update", iev("updated", b), iev("updated", cc))
	Want(t, c.Delete("/v1/input-types/"+cc), 204)
	log.expect(t, "delete", iev("deleted", cc))
	c.Patch("/v1/input-types/"+a, body("constraints", body("min", "1")))
	c.Patch("/v1/input-types/"+b, body("dataType", "text"))
	c.Post("/v1/input-types", body("typeGroupUuid", g, "code", "a", "dataType", "text"))
	c.Delete("/v1/input-types/" + cc)
	log.expect(t, "refused writes")
}
