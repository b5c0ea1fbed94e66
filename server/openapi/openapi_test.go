package openapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/openapi"
)

type doc = map[string]any

func build(t *testing.T) doc {
	t.Helper()
	b, err := app.BuildOpenAPI(app.Services(app.Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func get(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func schema(d doc, name string) doc {
	s, _ := get(d, "components", "schemas", name).(map[string]any)
	return s
}

func TestDocumentBasics(t *testing.T) {
	d := build(t)
	if d["openapi"] != "3.1.0" {
		t.Errorf("openapi %v, want 3.1.0", d["openapi"])
	}
	if get(d, "info", "version") != "1.1.0" {
		t.Errorf("version %v, want the spec's 1.1.0", get(d, "info", "version"))
	}
	if s, _ := d["servers"].([]any); len(s) == 0 {
		t.Error("no servers entry")
	}
	sec := get(d, "components", "securitySchemes", "bearerAuth")
	if get(sec, "type") != "http" || get(sec, "scheme") != "bearer" || get(sec, "bearerFormat") != "JWT" {
		t.Errorf("security scheme %v, want HTTP bearer JWT", sec)
	}
}

// Every operation has a summary, a description, one declared tag, its scope, examples and problem
// responses; every path parameter is a uuid in lowerCamel.
func TestEveryOperationIsDescribed(t *testing.T) {
	d := build(t)
	tags := map[string]bool{}
	for _, tg := range d["tags"].([]any) {
		name := get(tg, "name").(string)
		if desc, _ := get(tg, "description").(string); desc == "" {
			t.Errorf("tag %s has no description", name)
		}
		tags[name] = true
	}
	n := 0
	paramRE := regexp.MustCompile(`\{([^}]+)\}`)
	for path, item := range d["paths"].(map[string]any) {
		for _, m := range paramRE.FindAllStringSubmatch(path, -1) {
			if strings.Contains(m[1], "_") {
				t.Errorf("%s: path parameter %s is not lowerCamel", path, m[1])
			}
		}
		for verb, o := range item.(map[string]any) {
			n++
			what := verb + " " + path
			op := o.(map[string]any)
			for _, k := range []string{"summary", "description", "operationId"} {
				if s, _ := op[k].(string); s == "" {
					t.Errorf("%s has no %s", what, k)
				}
			}
			ts, _ := op["tags"].([]any)
			if len(ts) != 1 || !tags[ts[0].(string)] {
				t.Errorf("%s: tags %v, want one declared tag", what, ts)
			}
			sec, _ := op["security"].([]any)
			if len(sec) != 1 || get(sec[0], "bearerAuth") == nil {
				t.Errorf("%s: security %v", what, sec)
			}
			if scope, _ := op["x-required-scope"].(string); scope == "" {
				t.Errorf("%s: no x-required-scope", what)
			}
			if rb := op["requestBody"]; rb != nil && get(rb, "content", "application/json", "example") == nil {
				t.Errorf("%s: request body without example", what)
			}
			responses := op["responses"].(map[string]any)
			for _, st := range []string{"401", "403", "429", "500", "503"} {
				if get(responses, st, "$ref") == nil {
					t.Errorf("%s: no %s problem response", what, st)
				}
			}
			// An operation with a body: too slow (408), too large (413), not JSON (415); without
			// one, none of them (its body is never read).
			for _, st := range []string{"408", "413", "415"} {
				if has := get(responses, st, "$ref") != nil; has != (op["requestBody"] != nil) {
					t.Errorf("%s: %s response %v, request body %v", what, st, has, op["requestBody"] != nil)
				}
			}
			// Every answer, success or problem, may carry the rate limit headers.
			for st, r := range responses {
				if ref, _ := get(r, "$ref").(string); ref != "" {
					r = get(d, "components", "responses", strings.TrimPrefix(ref, "#/components/responses/"))
				}
				for _, h := range []string{"X-Request-Id", "RateLimit-Policy", "RateLimit"} {
					if get(r, "headers", h) == nil {
						t.Errorf("%s: %s without %s", what, st, h)
					}
				}
			}
			if get(d, "components", "responses", "TooManyRequests", "headers", "Retry-After") == nil {
				t.Errorf("429 without Retry-After")
			}
			var success []string
			for st, r := range responses {
				if st[0] == '2' {
					success = append(success, st)
					if st != "204" && get(r, "content", "application/json", "example") == nil {
						t.Errorf("%s: %s without example", what, st)
					}
				}
			}
			want := "200"
			name := op["operationId"].(string)
			switch {
			case strings.HasPrefix(name, "create"), strings.HasPrefix(name, "bulkCreate"),
				strings.HasPrefix(name, "initiate"), strings.HasPrefix(name, "bulkInitiate"):
				want = "201"
			case strings.HasPrefix(name, "delete"):
				want = "204"
			}
			if !slices.Equal(success, []string{want}) {
				t.Errorf("%s: success statuses %v, want %s", what, success, want)
			}
			if (strings.HasPrefix(name, "create") || strings.HasPrefix(name, "initiate")) && get(responses, "201", "headers", "Location") == nil {
				t.Errorf("%s: 201 without Location", what)
			}
		}
	}
	if n < 250 {
		t.Errorf("only %d operations", n)
	}
}

// The shapes the codec writes: wrapper messages are plain arrays, nullable fields allow null,
// responses list every property as required, enums carry the short names.
func TestShapesFollowTheCodec(t *testing.T) {
	d := build(t)
	attr := schema(d, "AttributeHydratedResponse")
	for _, f := range []string{"contentUuids", "contents"} {
		typ := get(attr, "properties", f, "type")
		if ts, _ := typ.([]any); !slices.Equal(ts, []any{"array", "null"}) {
			t.Errorf("Attribute.%s type %v, want [array null]", f, typ)
		}
	}
	if ts, _ := get(attr, "properties", "removedAt", "type").([]any); !slices.Equal(ts, []any{"string", "null"}) {
		t.Errorf("Attribute.removedAt type %v, want [string null]", ts)
	}
	if get(attr, "properties", "createdAt", "type") != "string" || get(attr, "properties", "createdAt", "format") != "date-time" {
		t.Errorf("Attribute.createdAt %v", get(attr, "properties", "createdAt"))
	}
	if get(attr, "properties", "uuid", "format") != "uuid" {
		t.Errorf("Attribute.uuid has no format uuid")
	}
	if req, _ := attr["required"].([]any); len(req) != len(attr["properties"].(map[string]any)) {
		t.Errorf("Attribute: required %v, want every property (the codec writes them all)", req)
	}
	if attr["additionalProperties"] != false {
		t.Error("Attribute is not closed")
	}
	if e, _ := get(schema(d, "AttributeStatus"), "enum").([]any); !slices.Equal(e, []any{"draft", "published", "unpublished", "removed"}) {
		t.Errorf("AttributeStatus enum %v", e)
	}
	if strings.Contains(mustJSON(t, d), "ATTRIBUTE_STATUS_") || strings.Contains(mustJSON(t, d), "updateMask") {
		t.Error("the document names proto enum values or updateMask")
	}
	// Requests: required fields, null accepted on the others, item bounds on bulk bodies.
	create := schema(d, "AttributeCreate")
	if req, _ := create["required"].([]any); !slices.Equal(req, []any{"code"}) {
		t.Errorf("AttributeCreate required %v, want [code]", req)
	}
	upd := schema(d, "AttributeUpdate")
	if ts, _ := get(upd, "properties", "code", "type").([]any); !slices.Equal(ts, []any{"string", "null"}) {
		t.Errorf("AttributeUpdate.code type %v, want [string null] (PATCH takes null)", ts)
	}
	if req, _ := schema(d, "AttributeUpdateBulkItem")["required"].([]any); !slices.Equal(req, []any{"uuid"}) {
		t.Errorf("bulk update items require %v, want [uuid]", req)
	}
	// A list the rules require items of is required: absent is the empty list, which they refuse.
	move := get(d, "paths", "/v1/attributes/bulk/actions/lifecycle", "patch", "requestBody", "content", "application/json", "schema")
	if r, ok := get(move, "$ref").(string); ok {
		move = schema(d, r[strings.LastIndex(r, "/")+1:])
	}
	if req, _ := get(move, "required").([]any); !slices.Contains(req, any("uuids")) || !slices.Contains(req, any("transition")) {
		t.Errorf("bulk lifecycle body requires %v, want transition and uuids", req)
	}
	bulk := get(d, "paths", "/v1/attributes/bulk", "post", "requestBody", "content", "application/json", "schema")
	if get(bulk, "type") != "array" || get(bulk, "items", "$ref") != "#/components/schemas/AttributeCreate" {
		t.Errorf("bulk create body %v, want an array of AttributeCreate", bulk)
	}
	// Decimal constraint bounds accept a JSON number in requests and are strings in responses.
	// One type per alternative (generators refuse a list of types): string, number or null.
	if got := mustJSON(t, get(schema(d, "InputTypeConstraintsInput"), "properties", "min")); got != `{"oneOf":[{"pattern":"^[^\\x00]*$","type":"string"},{"type":"number"},{"type":"null"}]}` {
		t.Errorf("InputTypeConstraintsInput.min %s, want oneOf string, number, null", got)
	}
	if got := mustJSON(t, get(schema(d, "InputTypeConstraintsInput"), "properties", "allowedValues", "items")); got != `{"oneOf":[{"pattern":"^[^\\x00]*$","type":"string"},{"type":"number"}]}` {
		t.Errorf("InputTypeConstraintsInput.allowedValues items %s, want oneOf string, number", got)
	}
	if ts, _ := get(schema(d, "InputTypeConstraints"), "properties", "min", "type").([]any); !slices.Equal(ts, []any{"string", "null"}) {
		t.Errorf("InputTypeConstraints.min type %v, want [string null]", ts)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func params(d doc, path, verb string) map[string]doc {
	out := map[string]doc{}
	ps, _ := get(d, "paths", path, verb, "parameters").([]any)
	for _, p := range ps {
		if r, ok := get(p, "$ref").(string); ok { // a shared parameter (If-Match, Idempotency-Key, …)
			out[r[strings.LastIndex(r, "/")+1:]] = p.(map[string]any)
			continue
		}
		out[get(p, "name").(string)] = p.(map[string]any)
	}
	return out
}

// Query parameters in the spec's syntax with the value types of the list specs.
func TestListParameters(t *testing.T) {
	d := build(t)
	ps := params(d, "/v1/attributes", "get")
	for _, want := range []string{"uuids[eq]", "codes[eq]", "code[contains]", "code[starts]", "code[ends]", "code[order]",
		"displayNames[eq]", "displayName[order]", "statuses[eq]", "status[order]", "createdAt[eq]", "createdAt[min]",
		"createdAt[max]", "createdAt[order]", "updatedAt[order]", "isRemoved[eq]", "page", "size", "cursor", "include[contents]", "expand[contents]"} {
		if ps[want] == nil {
			t.Errorf("GET /v1/attributes lacks %s", want)
		}
	}
	if e, _ := get(ps["statuses[eq]"], "schema", "items", "enum").([]any); !slices.Equal(e, []any{"draft", "published", "unpublished", "removed"}) {
		t.Errorf("statuses[eq] enum %v", e)
	}
	if get(ps["uuids[eq]"], "schema", "items", "format") != "uuid" || get(ps["uuids[eq]"], "explode") != true {
		t.Errorf("uuids[eq] %v", ps["uuids[eq]"])
	}
	if get(ps["createdAt[min]"], "schema", "format") != "date-time" {
		t.Errorf("createdAt[min] %v", ps["createdAt[min]"])
	}
	if get(ps["size"], "schema", "maximum") != float64(100) || get(ps["size"], "schema", "minimum") != float64(1) || get(ps["page"], "schema", "minimum") != float64(1) {
		t.Errorf("page/size bounds: %v %v", ps["page"], ps["size"])
	}
	if e, _ := get(ps["code[order]"], "schema", "enum").([]any); !slices.Equal(e, []any{"asc", "desc"}) {
		t.Errorf("code[order] %v", ps["code[order]"])
	}
	// A singular filter takes one value.
	pub := params(d, "/v1/products/{productUuid}/publications", "get")
	if s := get(pub["status[eq]"], "schema"); get(s, "type") != "string" || get(s, "enum") == nil {
		t.Errorf("publications status[eq] %v, want one enum value", s)
	}
}

// Every list takes a cursor besides page and size, and every page object has a nextCursor that is
// null on the last page.
func TestEveryListTakesACursor(t *testing.T) {
	d := build(t)
	lists := 0
	for path := range get(d, "paths").(map[string]any) {
		ps := params(d, path, "get")
		if ps["page"] == nil {
			continue
		}
		lists++
		if ps["size"] == nil || ps["cursor"] == nil || get(ps["cursor"], "schema", "type") != "string" {
			t.Errorf("GET %s: page %v, size %v, cursor %v", path, ps["page"], ps["size"], ps["cursor"])
		}
		if desc, _ := get(ps["cursor"], "description").(string); !strings.Contains(desc, "nextCursor") {
			t.Errorf("GET %s: cursor description %q does not say where a cursor comes from", path, desc)
		}
	}
	if lists < 40 {
		t.Errorf("%d list operations", lists)
	}
	p := schema(d, "Pagination")
	if typ, _ := get(p, "properties", "nextCursor", "type").([]any); !slices.Equal(typ, []any{"string", "null"}) {
		t.Errorf("Pagination.nextCursor type %v, want a string or null", get(p, "properties", "nextCursor", "type"))
	}
	if req, _ := p["required"].([]any); !slices.Contains(req, any("nextCursor")) {
		t.Errorf("Pagination.nextCursor is not required (it is always present): %v", req)
	}
}

// Every component is used, and every $ref resolves.
func TestNoUnusedOrDanglingComponents(t *testing.T) {
	d := build(t)
	comps := d["components"].(map[string]any)
	text := mustJSON(t, map[string]any{"paths": d["paths"], "components": comps})
	refRE := regexp.MustCompile(`"\$ref":"#/components/([a-zA-Z]+)/([^"]+)"`)
	used := map[string]bool{}
	for _, m := range refRE.FindAllStringSubmatch(text, -1) {
		used[m[1]+"/"+m[2]] = true
		if get(comps, m[1], m[2]) == nil {
			t.Errorf("dangling $ref %s/%s", m[1], m[2])
		}
	}
	for kind, set := range comps {
		if kind == "securitySchemes" {
			continue
		}
		for name := range set.(map[string]any) {
			if !used[kind+"/"+name] {
				t.Errorf("component %s/%s is never used", kind, name)
			}
		}
	}
}

// The document as the Go and Python generators read it (oapi-codegen and ogen refuse `type: [string,
// number]`, openapi-python-client drops the operation): a list of types is only ever one type and
// null; a JSON value of any type is the empty schema.
func TestNoListOfTypes(t *testing.T) {
	d := build(t)
	n := 0
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if ts, ok := v["type"].([]any); ok {
				n++
				if len(ts) != 2 || !slices.Contains(ts, any("null")) || ts[0] == ts[1] {
					t.Errorf("%s: type %v: a list of types other than one type and null", path, ts)
				}
			}
			for k, x := range v {
				walk(path+"/"+k, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s/%d", path, i), x)
			}
		}
	}
	walk("#", d)
	if n == 0 {
		t.Error("no nullable type at all: the walk found nothing")
	}
	if got := mustJSON(t, get(schema(d, "ProductInputValueCreate"), "properties", "value")); !strings.HasPrefix(got, `{"description":`) || strings.Contains(got, `"type"`) {
		t.Errorf("ProductInputValueCreate.value %s, want the empty schema (any JSON value) with its description", got)
	}
}

// No component is named like a generator's wrapper of an operation's answer: oapi-codegen names the
// answer of listAttributes ListAttributesResponse, ogen ListAttributesRes.
func TestComponentNamesLeaveGeneratorsTheirs(t *testing.T) {
	d := build(t)
	schemas := get(d, "components", "schemas").(map[string]any)
	for _, item := range d["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			id, _ := get(op, "operationId").(string)
			for _, suffix := range []string{"Response", "Res"} {
				if name := strings.ToUpper(id[:1]) + id[1:] + suffix; schemas[name] != nil {
					t.Errorf("component %s is the name generators give %s's answer", name, id)
				}
			}
		}
	}
	for _, name := range []string{"AttributesPage", "ProductPublicationReadiness"} {
		if schemas[name] == nil {
			t.Errorf("no component %s", name)
		}
	}
	if get(d, "paths", "/v1/attributes", "get", "responses", "200", "content", "application/json", "schema", "$ref") != "#/components/schemas/AttributesPage" {
		t.Error("listAttributes does not answer an AttributesPage")
	}
}

// Rules the service applies are stated in the schemas, not only in prose (a generated client or a
// fuzzer reads the schema): no fixed Idempotency-Key, the If-Match syntax, no U+0000, BCP 47 codes,
// hex checksums, media types, int32 bounds, the asset of each bulk upload item.
func TestRulesAreInTheSchemas(t *testing.T) {
	d := build(t)
	// A fixed example key would make every example request after the first a 422.
	idem := get(d, "components", "parameters", "Idempotency-Key").(map[string]any)
	for _, k := range []string{"example", "examples"} {
		if _, ok := idem[k]; ok {
			t.Errorf("the Idempotency-Key parameter has an %s", k)
		}
		if _, ok := get(idem, "schema").(map[string]any)[k]; ok {
			t.Errorf("the Idempotency-Key schema has an %s", k)
		}
	}
	for _, h := range []string{"If-Match", "If-None-Match"} {
		if p := get(d, "components", "parameters", h, "schema", "pattern"); p != openapi.ConditionPattern {
			t.Errorf("%s pattern %v, want %s", h, p, openapi.ConditionPattern)
		}
	}
	for _, c := range []struct{ schema, prop, pattern string }{
		{"AttributeCreate", "displayName", fields.NoNULPattern},
		{"AttributeCreate", "code", fields.CodePattern},
		{"LocaleCreate", "code", fields.LocaleCodePattern},
		{"LocaleUpdate", "code", fields.LocaleCodePattern},
		{"AssetFileUploadInitiate", "checksumSha256", fields.SHA256HexPattern},
		{"ImportCreate", "checksumSha256", fields.SHA256HexPattern}, // issue 27, found by test/openapi_fuzz
		{"AssetFileUploadInitiate", "contentType", fields.MediaTypePattern},
		{"AssetFileUploadInitiateBulkItem", "contentType", fields.MediaTypePattern},
	} {
		if p := get(schema(d, c.schema), "properties", c.prop, "pattern"); p != c.pattern {
			t.Errorf("%s.%s pattern %v, want %s", c.schema, c.prop, p, c.pattern)
		}
	}
	// Every request string without a format refuses U+0000 in its pattern; int32 values carry their bounds.
	strs, ints := 0, 0
	var walk func(path string, v any, inRequest bool)
	walk = func(path string, v any, inRequest bool) {
		switch v := v.(type) {
		case map[string]any:
			typ := v["type"]
			if ts, ok := typ.([]any); ok {
				typ = ts[0]
			}
			if typ == "string" && inRequest && v["format"] == nil && v["enum"] == nil && v["contentEncoding"] == nil {
				strs++
				if p, _ := v["pattern"].(string); p == "" || regexp.MustCompile(p).MatchString("a\x00b") {
					t.Errorf("%s: a request string whose pattern (%q) does not refuse U+0000", path, p)
				}
			}
			if v["format"] == "int32" {
				ints++
				lo, _ := v["minimum"].(float64)
				hi, _ := v["maximum"].(float64)
				if _, ok := v["maximum"]; !ok || hi > math.MaxInt32 || lo < math.MinInt32 {
					t.Errorf("%s: int32 without its bounds: %v", path, v)
				}
			}
			for k, x := range v {
				walk(path+"/"+k, x, inRequest)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s/%d", path, i), x, inRequest)
			}
		}
	}
	for name, s := range get(d, "components", "schemas").(map[string]any) {
		// Request components: the body schemas (<Name>Input, Create, Update, Transition, bulk items, …)
		// are the ones not answered; find them by the operations that take them.
		walk("#/components/schemas/"+name, s, requestSchemas(d)[name])
	}
	t.Logf("%d request strings, %d int32 values", strs, ints)
	if strs < 50 || ints < 10 {
		t.Errorf("the walk found %d request strings and %d int32 values: too few", strs, ints)
	}
	// Each item of a bulk upload initiate names its asset (the single initiate takes it from the path).
	items := get(d, "paths", "/v1/assets/files/bulk/actions/initiate-upload", "post", "requestBody", "content", "application/json", "schema", "items", "$ref")
	if items != "#/components/schemas/AssetFileUploadInitiateBulkItem" {
		t.Fatalf("bulk initiate items %v", items)
	}
	if req, _ := schema(d, "AssetFileUploadInitiateBulkItem")["required"].([]any); !slices.Contains(req, any("assetUuid")) {
		t.Errorf("bulk upload items require %v, want assetUuid among them", req)
	}
	if req, _ := schema(d, "AssetFileUploadInitiate")["required"].([]any); slices.Contains(req, any("assetUuid")) {
		t.Errorf("the single initiate requires assetUuid in its body: %v (it is the path's)", req)
	}
}

// requestSchemas are the components reachable from a request body.
func requestSchemas(d doc) map[string]bool {
	out := map[string]bool{}
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				name := strings.TrimPrefix(r, "#/components/schemas/")
				if name != r && !out[name] {
					out[name] = true
					visit(schema(d, name))
				}
			}
			for _, x := range v {
				visit(x)
			}
		case []any:
			for _, x := range v {
				visit(x)
			}
		}
	}
	for _, item := range d["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			visit(get(op, "requestBody"))
		}
	}
	return out
}

// ConditionPattern accepts exactly what the service reads as an If-Match or If-None-Match value.
func TestConditionPatternIsTheParser(t *testing.T) {
	re := regexp.MustCompile(openapi.ConditionPattern)
	for _, v := range []string{`*`, `"a"`, `W/"a"`, `""`, `"a", "b"`, `"a",W/"b"`, `"a" ,  "b"`, `"ü"`,
		``, `a`, `"a`, `"a b"`, `"a",`, `,"a"`, `"a" "b"`, `**`, `W/a`, `w/"a"`, `"a"; "b"`, "\"a\x01\"", `"a"x`} {
		_, ok := etag.ParseList(v)
		if match := re.MatchString(v); ok != match {
			t.Errorf("%q: the service reads it: %v; the pattern matches it: %v", v, ok, match)
		}
	}
}

// The components the interface spec names carry its names: AttributeHydratedResponse (the attribute
// of lists and gets), AttributeContentResponse, ProductChannelPublicationStatus.
func TestSpecNames(t *testing.T) {
	d := build(t)
	for name, why := range map[string]string{
		"AttributeHydratedResponse":       "the attribute of lists and gets",
		"AttributeContentResponse":        "an attribute's content",
		"ProductChannelPublicationStatus": "a publication's status",
	} {
		if schema(d, name) == nil {
			t.Errorf("no component %s (%s)", name, why)
		}
	}
	for _, old := range []string{"Attribute", "AttributeContent", "ProductPublicationStatus"} {
		if schema(d, old) != nil {
			t.Errorf("component %s is still named by the proto, not by the spec", old)
		}
	}
	if get(d, "paths", "/v1/attributes", "get", "responses", "200", "content", "application/json", "schema", "$ref") != "#/components/schemas/AttributesPage" ||
		get(schema(d, "AttributesPage"), "properties", "items", "items", "$ref") != "#/components/schemas/AttributeHydratedResponse" {
		t.Error("the list of attributes is not a page of AttributeHydratedResponse")
	}
	if get(schema(d, "ProductPublication"), "properties", "status", "$ref") != "#/components/schemas/ProductChannelPublicationStatus" {
		t.Errorf("ProductPublication.status %v", get(schema(d, "ProductPublication"), "properties", "status"))
	}
}

// The events filter types[eq] names the event types in the schema (its enum is the catalog's), so a
// request the document accepts is not refused as "not an event type" (issue 27, found by
// test/openapi_fuzz).
func TestEventTypesFilterIsAnEnum(t *testing.T) {
	d := build(t)
	params, _ := get(d, "paths", "/v1/events", "get", "parameters").([]any)
	var enum []any
	for _, p := range params {
		if get(p, "name") == "types[eq]" {
			enum, _ = get(p, "schema", "items", "enum").([]any)
		}
	}
	if len(enum) != len(events.Names()) || len(enum) < 100 {
		t.Fatalf("types[eq] enum has %d values, want the catalog's %d", len(enum), len(events.Names()))
	}
	for i, name := range events.Names() {
		if enum[i] != name {
			t.Errorf("enum[%d] = %v, want %s", i, enum[i], name)
		}
	}
}

// The body of a single PATCH may carry the uuid its path names, and its description says that it
// is optional and must be the path's (the service refuses any other value, which a schema cannot
// state: issue 27, found by test/openapi_fuzz; and a client that sends it is not refused by the
// document, as a contract test checks); a bulk update's item has it, required.
func TestSingleUpdateBodyStatesThePathUUID(t *testing.T) {
	d := build(t)
	n := 0
	for path, item := range d["paths"].(map[string]any) {
		patch, _ := get(item, "patch").(map[string]any)
		if patch == nil || !strings.HasSuffix(path, "}") {
			continue
		}
		ref, _ := get(patch, "requestBody", "content", "application/json", "schema", "$ref").(string)
		if ref == "" {
			continue
		}
		s := schema(d, strings.TrimPrefix(ref, "#/components/schemas/"))
		u, has := get(s, "properties", "uuid").(map[string]any)
		if !has {
			continue
		}
		if desc, _ := u["description"].(string); !strings.Contains(desc, openapi.PathFieldRule) {
			t.Errorf("PATCH %s: %s.uuid's description %q does not state the path rule", path, ref, desc)
		}
		if req, _ := get(s, "required").([]any); slices.Contains(req, any("uuid")) {
			t.Errorf("PATCH %s: %s requires uuid", path, ref)
		}
		n++
	}
	if n < 20 {
		t.Errorf("only %d single PATCH bodies checked", n)
	}
	item := get(d, "paths", "/v1/attributes/bulk", "patch", "requestBody", "content", "application/json", "schema", "items", "$ref").(string)
	is := schema(d, strings.TrimPrefix(item, "#/components/schemas/"))
	if req, _ := get(is, "required").([]any); !slices.Contains(req, any("uuid")) {
		t.Errorf("the bulk update item %s does not require uuid: %v", item, req)
	}
	if desc, _ := get(is, "properties", "uuid", "description").(string); strings.Contains(desc, openapi.PathFieldRule) {
		t.Errorf("the bulk update item's uuid states the path rule: %q", desc)
	}
}

// An export's types are the line types, given as the enum of the items (issue 27, found by
// test/openapi_fuzz: any string was accepted by the document, refused by the service).
func TestExportTypesAreAnEnum(t *testing.T) {
	d := build(t)
	enum, _ := get(schema(d, "ExportCreate"), "properties", "types", "items", "enum").([]any)
	for _, want := range []string{"locale", "attribute", "product", "typeGroup"} {
		if !slices.Contains(enum, any(want)) {
			t.Errorf("ExportCreate.types items enum %v lacks %s", enum, want)
		}
	}
	if len(enum) < 10 {
		t.Errorf("ExportCreate.types items enum %v", enum)
	}
}

// An export's productFilter takes the values of GET /v1/products's enum filters, given as enums
// (issue 27, found by test/openapi_fuzz).
func TestExportProductFilterEnums(t *testing.T) {
	d := build(t)
	for prop, want := range map[string]string{"kinds": "variant_parent", "statuses": "draft"} {
		enum, _ := get(schema(d, "ProductFilterInput"), "properties", prop, "items", "enum").([]any)
		if !slices.Contains(enum, any(want)) {
			t.Errorf("ProductFilterInput.%s items enum %v lacks %s", prop, enum, want)
		}
	}
}

// An input type's minLength and maxLength constraints are non-negative in the schema, not only in
// prose (issue 27, found by test/openapi_fuzz: a negative maxLength passed the document).
func TestInputTypeLengthConstraintsAreNonNegative(t *testing.T) {
	d := build(t)
	for _, name := range []string{"InputTypeConstraintsInput", "InputTypeConstraintsPatch"} {
		for _, prop := range []string{"minLength", "maxLength"} {
			p := get(schema(d, name), "properties", prop)
			if m := get(p, "minimum"); m != float64(0) {
				// a nullable field's schema is a oneOf/anyOf; look into its branches
				found := false
				for _, key := range []string{"anyOf", "oneOf"} {
					bs, _ := get(p, key).([]any)
					for _, b := range bs {
						found = found || get(b, "minimum") == float64(0)
					}
				}
				if !found {
					t.Errorf("%s.%s has no minimum 0: %v", name, prop, p)
				}
			}
		}
	}
}
