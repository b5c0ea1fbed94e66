// Package openapi builds the OpenAPI 3.1 document of the REST facade from the proto descriptors
// (services, HTTP rules, messages, options and comments) and the JSON codec's own rules, so that the
// document describes exactly what the service sends and accepts:
//
//   - responses carry every field (the codec writes unset nullable fields as null), so every
//     property of a response schema is required, and nullable where the codec can write null; the
//     answers AnswerOmits names (views.go) leave some out, and have a schema without them;
//   - requests accept null on every field but the required ones (null leaves a field unset);
//   - json_array messages are plain arrays, enums their short lower-case names, timestamps
//     date-times, int64 JSON numbers, FieldMask fields absent;
//   - request rules come from (catalog.v1.rules), the same annotations the server enforces;
//   - query parameters follow the strict parser (server/queryparam): `name[op]`, `<field>[order]`,
//     with the value types and enum values of each list's spec (server/list);
//   - status codes follow the gateway (server/app): 201 for creates, 204 for deletes, problem
//     documents for every error.
package openapi

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/list"
)

// Version is the interface's version label (the spec's "Versioning").
const Version = "1.1.0"

// Input is what the document is built from besides the descriptors.
type Input struct {
	// Services are the full names of the API's gRPC services, in registration order.
	Services []protoreflect.FullName
	// Lists pairs each list request message with its spec (filter types, enum values).
	Lists map[protoreflect.FullName]*list.Spec
	// MaxBodyBytes is the largest request body (413 above it).
	MaxBodyBytes int
	// StringEnums are the request string fields (by full name; a repeated field's items) whose
	// values are a fixed set the service checks but no proto enum names (the line types of an
	// export): the document gives them as the enum.
	StringEnums map[protoreflect.FullName][]string
}

type obj = map[string]any

// direction of a schema: what the service sends, or what it accepts.
type direction int

const (
	response direction = iota
	request
)

type generator struct {
	in       Input
	comments *comments
	schemas  obj
	// outputMsgs are the messages reachable from a response (request variants of these are named
	// <Name>Input).
	outputMsgs map[protoreflect.FullName]bool
	// pathFields are, by body message, its fields that a single operation taking it as its body
	// fills from its path (the asset of an upload's initiate): an item of a bulk body that has no
	// such path must give them.
	pathFields map[protoreflect.FullName]map[protoreflect.Name]bool
	tags       []obj
	tagSeen    map[string]bool
	opIDs      map[string]string
}

// Build returns the document as JSON.
func Build(in Input) ([]byte, error) {
	doc, err := Document(in)
	if err != nil {
		return nil, err
	}
	// Top-level keys in the order readers expect (openapi, info, … components); below that, Go's
	// sorted map keys.
	var b []byte
	b = append(b, '{')
	for i, k := range []string{"openapi", "jsonSchemaDialect", "info", "servers", "security", "tags", "paths", "components"} {
		v, err := json.Marshal(doc[k])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, k...)
		b = append(b, '"', ':')
		b = append(b, v...)
	}
	if len(doc) != 8 {
		return nil, fmt.Errorf("openapi: unexpected top-level keys")
	}
	return append(b, '}'), nil
}

// Document returns the document as a JSON-ready tree.
func Document(in Input) (obj, error) {
	cm, err := loadComments()
	if err != nil {
		return nil, err
	}
	g := &generator{in: in, comments: cm, schemas: obj{}, outputMsgs: map[protoreflect.FullName]bool{},
		pathFields: map[protoreflect.FullName]map[protoreflect.Name]bool{}, tagSeen: map[string]bool{}, opIDs: map[string]string{}}
	var methods []protoreflect.MethodDescriptor
	for _, name := range in.Services {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(name)
		if err != nil {
			return nil, fmt.Errorf("service %s: %w", name, err)
		}
		sd, ok := d.(protoreflect.ServiceDescriptor)
		if !ok {
			return nil, fmt.Errorf("%s is not a service", name)
		}
		for i := 0; i < sd.Methods().Len(); i++ {
			methods = append(methods, sd.Methods().Get(i))
		}
	}
	for _, md := range methods {
		g.markOutput(md.Output())
		g.markPathFields(md)
	}
	paths := obj{}
	for _, md := range methods {
		path, verb, op, err := g.operation(md)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", md.FullName(), err)
		}
		item, _ := paths[path].(obj)
		if item == nil {
			item = obj{}
			paths[path] = item
		}
		if _, dup := item[verb]; dup {
			return nil, fmt.Errorf("%s %s is mapped twice", verb, path)
		}
		item[verb] = op
	}
	// Catalog families first, in registration order, then the webhook ones.
	sort.SliceStable(g.tags, func(i, j int) bool {
		wi := strings.HasPrefix(g.tags[i]["name"].(string), "Webhook")
		wj := strings.HasPrefix(g.tags[j]["name"].(string), "Webhook")
		return !wi && wj
	})
	// Generators name the wrapper of an operation's answer <OperationId>Response (oapi-codegen) or
	// <OperationId>Res (ogen): no component may take those names.
	for id := range g.opIDs {
		for _, suffix := range []string{"Response", "Res"} {
			if _, taken := g.schemas[upperFirst(id)+suffix]; taken {
				return nil, fmt.Errorf("component %s%s collides with the name generators give operation %s's answer", upperFirst(id), suffix, id)
			}
		}
	}
	g.schemas["Problem"] = problemSchema()
	g.schemas["ProblemFieldViolation"] = obj{"type": "object", "additionalProperties": false,
		"description": "One invalid field: bulk items are named by index (`[2].code`), query parameters as written (`codes[eq]`).",
		"required":    []any{"field", "message"},
		"properties": obj{"field": obj{"type": "string", "examples": []any{"code"}},
			"message": obj{"type": "string", "examples": []any{"must be 1 to 100 characters"}}}}
	doc := obj{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": obj{
			"title":       "catalogd",
			"version":     Version,
			"summary":     "Product catalog service: the JSON REST facade of the catalog.v1 gRPC services.",
			"description": infoDescription,
		},
		"servers":  []any{obj{"url": "http://127.0.0.1:8080", "description": "A local catalogd (`make run`); every path starts with /v1."}},
		"security": []any{obj{bearerScheme: []any{}}},
		"tags":     anySlice(g.tags),
		"paths":    paths,
		"components": obj{
			"schemas": g.schemas,
			"securitySchemes": obj{bearerScheme: obj{"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
				"description": "`Authorization: Bearer <JWT>`. The token carries the tenant (`tenant_id` claim) and the scopes " +
					"(`scope` claim, space-separated): `catalog:read` for GETs of catalog resources, `catalog:write` for every other " +
					"catalog operation, `webhooks:read` and `webhooks:write` for webhook subscriptions; event types are readable " +
					"with any valid token. Each operation lists the scope it needs. Missing or invalid token: 401; valid token without " +
					"the scope: 403."}},
			"headers":    headers(),
			"parameters": obj{"Idempotency-Key": idempotencyKeyParameter(), "Catalog-Consistency": consistencyParameter()},
			"responses":  problemResponses(in.MaxBodyBytes),
		},
	}
	addETagComponents(doc["components"].(obj)) // etag.go
	return doc, nil
}

const bearerScheme = "bearerAuth"

func anySlice[T any](in []T) []any {
	out := make([]any, len(in))
	for i, v := range in {
		out[i] = v
	}
	return out
}

// markOutput records every message reachable from a response message.
func (g *generator) markOutput(md protoreflect.MessageDescriptor) {
	if g.outputMsgs[md.FullName()] || wkt(md) {
		return
	}
	g.outputMsgs[md.FullName()] = true
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if f.IsMap() {
			f = f.MapValue()
		}
		if f.Message() != nil {
			g.markOutput(f.Message())
		}
	}
}

// markPathFields records the fields of md's body message that md takes from its path.
func (g *generator) markPathFields(md protoreflect.MethodDescriptor) {
	rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
	body := md.Input().Fields().ByName(protoreflect.Name(rule.GetBody()))
	if body == nil || body.IsList() || body.Message() == nil {
		return
	}
	var tmpl string
	switch p := rule.Pattern.(type) {
	case *annotations.HttpRule_Post:
		tmpl = p.Post
	case *annotations.HttpRule_Patch:
		tmpl = p.Patch
	case *annotations.HttpRule_Put:
		tmpl = p.Put
	}
	_, pathFields, err := convertPath(tmpl, md.Input())
	if err != nil {
		return // reported by operation
	}
	mark := func(name protoreflect.Name) {
		m := g.pathFields[body.Message().FullName()]
		if m == nil {
			m = map[protoreflect.Name]bool{}
			g.pathFields[body.Message().FullName()] = m
		}
		m[name] = true
	}
	for _, pf := range pathFields {
		if body.Message().Fields().ByName(pf.Name()) != nil {
			mark(pf.Name())
		}
	}
	// The uuid of an update body is the item's, which a PATCH path names (server/crud: "must be
	// absent or the uuid of the path").
	if _, ok := rule.Pattern.(*annotations.HttpRule_Patch); ok && len(pathFields) > 0 {
		if u := body.Message().Fields().ByName("uuid"); u != nil && u.Kind() == protoreflect.StringKind && !u.IsList() {
			mark("uuid")
		}
	}
}

// PathFieldRule ends the description of a body field that the operation's path names.
const PathFieldRule = "Optional: the path gives it; when present it must be the path's value."

// ---- operations

var errStatus = map[string]string{
	"400": "BadRequest", "401": "Unauthorized", "403": "Forbidden", "404": "NotFound", "408": "RequestTimeout",
	"409": "Conflict", "413": "PayloadTooLarge", "415": "UnsupportedMediaType", "422": "UnprocessableContent", "429": "TooManyRequests",
	"500": "InternalError", "503": "Unavailable", "412": "PreconditionFailed",
}

func (g *generator) operation(md protoreflect.MethodDescriptor) (path, verb string, op obj, err error) {
	rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
	if rule == nil {
		return "", "", nil, fmt.Errorf("no google.api.http rule")
	}
	var tmpl string
	switch p := rule.Pattern.(type) {
	case *annotations.HttpRule_Get:
		verb, tmpl = "get", p.Get
	case *annotations.HttpRule_Post:
		verb, tmpl = "post", p.Post
	case *annotations.HttpRule_Patch:
		verb, tmpl = "patch", p.Patch
	case *annotations.HttpRule_Put:
		verb, tmpl = "put", p.Put
	case *annotations.HttpRule_Delete:
		verb, tmpl = "delete", p.Delete
	default:
		return "", "", nil, fmt.Errorf("unsupported HTTP pattern")
	}
	in := md.Input()
	name := string(md.Name())
	path, pathFields, err := convertPath(tmpl, in)
	if err != nil {
		return "", "", nil, err
	}
	id := lowerFirst(name)
	if prev, dup := g.opIDs[id]; dup {
		return "", "", nil, fmt.Errorf("operationId %s already used by %s", id, prev)
	}
	g.opIDs[id] = string(md.FullName())
	summary, description := g.describe(md)
	scope, _ := proto.GetExtension(md.Options(), pb.E_RequiredScope).(string)
	scopes := []any{}
	if scope != "" && scope != "authenticated" {
		scopes = append(scopes, scope)
	}
	if scope == "authenticated" {
		description += "\n\nReadable with any valid token."
	} else if scope != "" {
		description += "\n\nScope: `" + scope + "`."
	}
	op = obj{
		"operationId":      id,
		"summary":          summary,
		"description":      strings.TrimSpace(description),
		"tags":             []any{g.tag(md)},
		"security":         []any{obj{bearerScheme: scopes}},
		"x-required-scope": scope,
	}

	// Parameters: path fields, then (for the fields outside the body) query parameters.
	var params []any
	for _, f := range pathFields {
		params = append(params, obj{"name": f.JSONName(), "in": "path", "required": true,
			"description": g.fieldDescription(f, "The "+humanID(f)+"."),
			"schema":      obj{"type": "string", "format": "uuid"}})
	}
	body := rule.GetBody()
	isPath := map[protoreflect.Name]bool{}
	for _, f := range pathFields {
		isPath[f.Name()] = true
	}
	if body != "*" {
		qs, err := g.queryParams(in, isPath, protoreflect.Name(body))
		if err != nil {
			return "", "", nil, err
		}
		params = append(params, qs...)
	}
	idempotent := verb == "post" || verb == "patch"
	if idempotent { // the one Idempotency-Key rule (server/app/idempotency.go): every POST and PATCH
		params = append(params, ref("parameters", "Idempotency-Key"))
	}
	if verb == "get" { // a read may take a replica's state (server/app/grpc.go: route)
		params = append(params, ref("parameters", "Catalog-Consistency"))
	}
	params = append(params, etagParameters(md, verb)...) // etag.go
	if len(params) > 0 {
		op["parameters"] = params
	}
	if body != "" {
		schema, err := g.bodySchema(md, in, body, isPath)
		if err != nil {
			return "", "", nil, err
		}
		op["requestBody"] = obj{"required": true, "content": obj{"application/json": obj{
			"schema": schema, "example": g.example(schema, 0)}}}
	}

	// Responses.
	responses := obj{}
	status, location := SuccessStatus(name)
	success, successDesc := strconv.Itoa(status), "OK."
	switch {
	case status == 201 && strings.HasPrefix(name, "Bulk"):
		successDesc = "Created, in the order of the request."
	case status == 201:
		successDesc = "Created."
	case status == 204:
		successDesc = "Deleted; no content."
	}
	resp := obj{"description": successDesc, "headers": commonHeaders()}
	if location {
		resp["headers"].(obj)["Location"] = ref("headers", "Location")
	}
	if idempotent {
		resp["headers"].(obj)["Idempotency-Replayed"] = ref("headers", "Idempotency-Replayed")
	}
	if success != "204" {
		schema, err := g.responseSchema(md, rule.GetResponseBody())
		if err != nil {
			return "", "", nil, err
		}
		resp["content"] = obj{"application/json": obj{"schema": schema, "example": g.example(schema, 0)}}
	}
	responses[success] = resp
	etagResponses(md, verb, resp, responses) // etag.go
	for _, st := range errorStatuses(verb, len(pathFields) > 0, len(params) > 0, body != "") {
		responses[st] = ref("responses", errStatus[st])
	}
	op["responses"] = responses
	return path, verb, op, nil
}

// errorStatuses lists the error statuses an operation can answer with: every operation may be
// refused by the tenant's rate limit (429); one with a body may get 408 (the body came too slowly),
// 413 and 415 (a body that is not JSON); a POST or PATCH may reuse an Idempotency-Key (422).
func errorStatuses(verb string, hasPath, hasParams, hasBody bool) []string {
	out := []string{"401", "403", "429", "500", "503"}
	if hasParams || hasBody {
		out = append(out, "400")
	}
	if hasPath || verb != "get" {
		out = append(out, "404")
	}
	if verb != "get" {
		out = append(out, "409")
	}
	if hasBody {
		out = append(out, "408", "413", "415")
	}
	if verb == "post" || verb == "patch" { // IDEMPOTENCY_KEY_REUSED
		out = append(out, "422")
	}
	sort.Strings(out)
	return out
}

// convertPath turns `/v1/attributes/{attribute_uuid}` into `/v1/attributes/{attributeUuid}` and
// returns the path fields.
func convertPath(tmpl string, in protoreflect.MessageDescriptor) (string, []protoreflect.FieldDescriptor, error) {
	var b strings.Builder
	var fields []protoreflect.FieldDescriptor
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			break
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return "", nil, fmt.Errorf("bad path template %q", tmpl)
		}
		name := tmpl[i+1 : i+j]
		if strings.ContainsAny(name, "=.*") {
			return "", nil, fmt.Errorf("unsupported path variable %q", name)
		}
		f := in.Fields().ByName(protoreflect.Name(name))
		if f == nil {
			return "", nil, fmt.Errorf("path variable %q is not a field of %s", name, in.FullName())
		}
		fields = append(fields, f)
		b.WriteString(tmpl[:i] + "{" + f.JSONName() + "}")
		tmpl = tmpl[i+j+1:]
	}
	return b.String(), fields, nil
}

// bodySchema is the schema of a request body.
func (g *generator) bodySchema(md protoreflect.MethodDescriptor, in protoreflect.MessageDescriptor, body string, isPath map[protoreflect.Name]bool) (obj, error) {
	if body == "*" {
		return g.objectSchema(in, request, func(f protoreflect.FieldDescriptor) bool { return !isPath[f.Name()] }, false), nil
	}
	f := in.Fields().ByName(protoreflect.Name(body))
	if f == nil {
		return nil, fmt.Errorf("body field %q not in %s", body, in.FullName())
	}
	if f.IsList() {
		// As the request rules enforce it: an item of a bulk body that has a uuid (a bulk update
		// item) must give it.
		// So must an item that has a field the single operation takes from its path (the asset of
		// a bulk upload initiate), when the bulk path does not give it.
		var withUUID bool
		if im := f.Message(); im != nil {
			u := im.Fields().ByName("uuid")
			withUUID = u != nil && u.Kind() == protoreflect.StringKind && !u.IsList()
			for name := range g.pathFields[im.FullName()] {
				withUUID = withUUID || !isPath[name]
			}
		}
		items := g.singleValue(f, request, withUUID)
		s := obj{"type": "array", "items": items}
		addRules(s, f)
		return s, nil
	}
	if f.Message() == nil {
		return nil, fmt.Errorf("body field %q is not a message", body)
	}
	return g.ref(f.Message(), request, false), nil
}

// responseSchema is the schema of a response body.
func (g *generator) responseSchema(md protoreflect.MethodDescriptor, field string) (obj, error) {
	out := md.Output()
	if field == "" {
		return g.ref(out, response, false), nil
	}
	f := out.Fields().ByName(protoreflect.Name(field))
	if f == nil {
		return nil, fmt.Errorf("response body field %q not in %s", field, out.FullName())
	}
	if omit := AnswerOmits(md.FullName()); omit != nil { // views.go
		if f.Message() == nil {
			return nil, fmt.Errorf("%s leaves fields out of an answer that is not a message", md.FullName())
		}
		for name := range omit {
			if f.Message().Fields().ByName(name) == nil {
				return nil, fmt.Errorf("%s leaves out %s, which %s does not have", md.FullName(), name, f.Message().FullName())
			}
		}
		item := g.refWithout(f.Message(), omit)
		if f.IsList() {
			return obj{"type": "array", "items": item}, nil
		}
		return item, nil
	}
	if f.IsList() {
		return obj{"type": "array", "items": g.singleValue(f, response, false)}, nil
	}
	return g.ref(f.Message(), response, false), nil
}

// refWithout returns a $ref to the response schema of md without the fields in omit:
// <Name>Response (AttributeResponse), built on first use.
func (g *generator) refWithout(md protoreflect.MessageDescriptor, omit map[protoreflect.Name]bool) obj {
	name := string(md.Name()) + "Response"
	if _, ok := g.schemas[name]; !ok {
		s := g.objectSchema(md, response, func(f protoreflect.FieldDescriptor) bool { return !omit[f.Name()] }, false)
		var left []string
		for i := 0; i < md.Fields().Len(); i++ {
			if f := md.Fields().Get(i); omit[f.Name()] {
				left = append(left, "`"+f.JSONName()+"`")
			}
		}
		s["description"] = strings.TrimSpace(g.comments.of(md.FullName()) + " As create, bulk and lifecycle operations answer it: without " +
			strings.Join(left, " and ") + " (the keys are absent).")
		g.schemas[name] = s
	}
	return ref("schemas", name)
}

// ---- query parameters

var (
	stringsFilter = (&pb.StringsFilter{}).ProtoReflect().Descriptor().FullName()
	stringFilter  = (&pb.StringFilter{}).ProtoReflect().Descriptor().FullName()
	timeFilter    = (&pb.TimeFilter{}).ProtoReflect().Descriptor().FullName()
	boolFilter    = (&pb.BoolFilter{}).ProtoReflect().Descriptor().FullName()
	intFilter     = (&pb.IntFilter{}).ProtoReflect().Descriptor().FullName()
	orderByName   = (&pb.OrderBy{}).ProtoReflect().Descriptor().FullName()
)

var opDescriptions = map[string]string{
	"contains": "Contains this text (case-insensitive; `%`, `_` and `\\` are literal).",
	"starts":   "Starts with this text (case-insensitive).",
	"ends":     "Ends with this text (case-insensitive).",
	"min":      "At least this value (inclusive).",
	"max":      "At most this value (inclusive).",
}

func (g *generator) queryParams(in protoreflect.MessageDescriptor, isPath map[protoreflect.Name]bool, body protoreflect.Name) ([]any, error) {
	spec := g.in.Lists[in.FullName()]
	var out []any
	fs := in.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if isPath[f.Name()] || f.Name() == body || isFieldMask(f) || f.Name() == etag.FieldName { // etag: If-Match
			continue
		}
		name := f.JSONName()
		switch {
		case f.IsList() && f.Message() != nil && f.Message().FullName() == orderByName:
			lo, _ := proto.GetExtension(in.Options(), pb.E_List).(*pb.ListOptions)
			for _, of := range lo.GetOrderFields() {
				d := "Sort by " + of + ". Several `[order]` parameters apply in the order given; ties break on uuid. Default: createdAt ascending."
				if spec != nil && spec.Order[of] == list.Relevance {
					d = "Sort by relevance to q (ts_rank of the matched text). With q and no other `[order]`, the order is relevance descending; ties by uuid ascending (without q every item is as relevant: uuid ascending)."
				}
				out = append(out, obj{"name": of + "[order]", "in": "query", "description": d,
					"schema": obj{"type": "string", "enum": []any{"asc", "desc"}}})
			}
		case f.Message() != nil && !f.IsList():
			sub := f.Message()
			desc := g.fieldDescription(f, "")
			for j := 0; j < sub.Fields().Len(); j++ {
				sf := sub.Fields().Get(j)
				p := obj{"name": name + "[" + sf.JSONName() + "]", "in": "query"}
				schema, d := g.filterValue(spec, f, sf)
				if d == "" {
					d = desc
				}
				if d != "" {
					p["description"] = d
				}
				p["schema"] = schema
				if schema["type"] == "array" {
					p["style"], p["explode"] = "form", true
				}
				out = append(out, p)
			}
		case f.Message() == nil && f.IsList():
			// A list of scalars: `name[]`, repeated (facets[]).
			items := g.scalarSchema(f, request, false)
			stripNull(items)
			delete(items, "description")
			if spec != nil && name == "facets" && len(spec.Facets) > 0 {
				items["enum"] = anySlice(spec.FacetNames())
			}
			s := obj{"type": "array", "items": items}
			addRules(s, f)
			p := obj{"name": name + "[]", "in": "query", "schema": s, "style": "form", "explode": true}
			if d := g.fieldDescription(f, ""); d != "" {
				p["description"] = d
			}
			out = append(out, p)
		case f.Message() == nil && !f.IsList():
			p := obj{"name": name, "in": "query", "schema": g.scalarSchema(f, request, true)}
			if d := g.fieldDescription(f, ""); d != "" {
				p["description"] = d
			}
			s := p["schema"].(obj)
			delete(s, "description")
			stripNull(s)
			switch name {
			case "page":
				s["minimum"], s["default"] = 1, 1
			case "size":
				s["minimum"], s["maximum"], s["default"] = 1, list.MaxSize, list.DefaultSize
			case "facetSize":
				s["default"] = list.DefaultFacetSize
			}
			out = append(out, p)
		default:
			return nil, fmt.Errorf("query field %s has no query form", f.FullName())
		}
	}
	return out, nil
}

// filterValue is the schema of one `name[op]` parameter.
func (g *generator) filterValue(spec *list.Spec, f, sub protoreflect.FieldDescriptor) (obj, string) {
	var lf list.Field
	var known bool
	if spec != nil {
		lf, known = spec.Filters[f.JSONName()]
	}
	valueSchema := func() obj {
		s := obj{"type": "string"}
		switch {
		case known && (lf.Type == list.Enum || lf.Type == list.Text) && len(lf.Values) > 0:
			s["enum"] = anySlice(lf.Values)
		case known && lf.Type == list.UUID, !known && fields.IsUUIDName(f.JSONName()):
			s["format"] = "uuid"
		case known && lf.Type == list.Time:
			s["format"] = "date-time"
		case known && lf.Type == list.Int:
			s = obj{"type": "integer"}
		case known && lf.Type == list.Bool:
			s = obj{"type": "boolean"}
		}
		return s
	}
	op := sub.JSONName()
	switch f.Message().FullName() {
	case stringsFilter:
		if known && lf.Single {
			return valueSchema(), "Equal to this value."
		}
		return obj{"type": "array", "items": valueSchema()}, "Any of these values (repeat the parameter: `" + f.JSONName() + "[eq]=a&" + f.JSONName() + "[eq]=b`)."
	case stringFilter:
		return obj{"type": "string"}, opDescriptions[op]
	case timeFilter:
		d := opDescriptions[op]
		if op == "eq" {
			d = "Equal to this time."
		}
		return obj{"type": "string", "format": "date-time"}, d
	case boolFilter:
		if f.JSONName() == "isRemoved" {
			return obj{"type": "boolean"}, "true: only removed (soft-deleted) items, which lists leave out otherwise; false: only the others."
		}
		return obj{"type": "boolean"}, "Equal to this value."
	case intFilter:
		d := opDescriptions[op]
		if op == "eq" {
			d = "Equal to this value."
		}
		return obj{"type": "integer", "format": "int32"}, d
	}
	// include[x] / expand[x] and other flag messages.
	s := g.scalarSchema(sub, request, false)
	stripNull(s)
	delete(s, "description")
	d := g.fieldDescription(sub, "")
	switch f.JSONName() {
	case "include":
		d = strings.TrimSpace("Fill the uuid list of " + sub.JSONName() + ". " + d)
	case "expand":
		d = strings.TrimSpace("Fill " + sub.JSONName() + " with the objects. " + d)
	}
	return s, d
}

// ---- schemas

func ref(kind, name string) obj { return obj{"$ref": "#/components/" + kind + "/" + name} }

func wkt(md protoreflect.MessageDescriptor) bool {
	return strings.HasPrefix(string(md.FullName()), "google.protobuf.")
}

func isFieldMask(f protoreflect.FieldDescriptor) bool {
	return f.Message() != nil && f.Message().FullName() == "google.protobuf.FieldMask"
}

func jsonArrayField(md protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	v, _ := proto.GetExtension(md.Options(), pb.E_JsonArray).(bool)
	if v && md.Fields().Len() == 1 && md.Fields().Get(0).IsList() {
		return md.Fields().Get(0)
	}
	return nil
}

// specNames are the names the interface spec gives some components (its "type name"s), by the
// message or enum they describe: the spec's name wins over the proto's.
var specNames = map[protoreflect.FullName]string{
	"catalog.v1.Attribute":                "AttributeHydratedResponse",
	"catalog.v1.AttributeContent":         "AttributeContentResponse",
	"catalog.v1.ProductPublicationStatus": "ProductChannelPublicationStatus",
}

// schemaName names the component of a message in a direction.
func (g *generator) schemaName(md protoreflect.MessageDescriptor, dir direction, bulkUpdate bool) string {
	n := string(md.Name())
	if spec, ok := specNames[md.FullName()]; ok && dir == response {
		return spec
	}
	// No component is named like oapi-codegen's wrapper of an operation's answer (<OperationId>Response,
	// checked by Document): a list's page ListAttributesResponse is AttributesPage, the answer
	// GetProductPublicationReadinessResponse is ProductPublicationReadiness.
	if base, ok := strings.CutSuffix(n, "Response"); ok {
		if items, ok := strings.CutPrefix(base, "List"); ok {
			n = items + "Page"
		} else if what, ok := strings.CutPrefix(base, "Get"); ok {
			n = what
		}
	}
	if dir == request && g.outputMsgs[md.FullName()] {
		n += "Input"
	}
	if bulkUpdate {
		n += "BulkItem"
	}
	return n
}

// ref returns a $ref to the component of md (built on first use).
func (g *generator) ref(md protoreflect.MessageDescriptor, dir direction, bulkUpdate bool) obj {
	name := g.schemaName(md, dir, bulkUpdate)
	if _, ok := g.schemas[name]; !ok {
		g.schemas[name] = obj{} // placeholder against recursion
		g.schemas[name] = g.objectSchema(md, dir, nil, bulkUpdate)
	}
	return ref("schemas", name)
}

// objectSchema is the object schema of md's fields (those keep accepts, when given).
func (g *generator) objectSchema(md protoreflect.MessageDescriptor, dir direction, keep func(protoreflect.FieldDescriptor) bool, bulkUpdate bool) obj {
	props := obj{}
	var required []any
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if isFieldMask(f) || etag.IsTagField(f) || (keep != nil && !keep(f)) { // etag: the ETag header
			continue
		}
		// A single operation's body may repeat what its path names (the uuid of the item a PATCH
		// changes, an upload's assetUuid): the service takes it from the path and refuses another
		// value, which its description states (a schema cannot); a bulk item gives it, required
		// (bulkUpdate).
		inPath := dir == request && !bulkUpdate && g.pathFields[md.FullName()][f.Name()]
		// A list with min_items is required too: absent and empty are the same list, which the rule
		// refuses (the uuids of a bulk lifecycle move).
		rules := fields.RulesOf(f)
		req := dir == response || rules.GetRequired() || (f.IsList() && rules.GetMinItems() > 0) || (bulkUpdate && (f.Name() == "uuid" || g.pathFields[md.FullName()][f.Name()]))
		props[f.JSONName()] = g.fieldSchema(f, dir, req)
		if inPath {
			fs := props[f.JSONName()].(obj)
			d, _ := fs["description"].(string)
			fs["description"] = strings.TrimSpace(d + " " + PathFieldRule)
		}
		if req {
			required = append(required, f.JSONName())
		}
	}
	s := obj{"type": "object", "additionalProperties": false, "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	if d := g.comments.of(md.FullName()); d != "" {
		s["description"] = d
	}
	return s
}

// fieldSchema is the schema of a field as a property (with its nullability and description).
func (g *generator) fieldSchema(f protoreflect.FieldDescriptor, dir direction, required bool) obj {
	s := g.fieldValueSchema(f, dir, false)
	if f.IsList() || f.IsMap() {
		if dir == request && !required {
			s = nullable(s)
		}
	} else if g.nullableField(f, dir, required) {
		s = nullable(s)
	}
	if f.IsList() || f.IsMap() || (f.Message() != nil && jsonArrayField(f.Message()) != nil) {
		addRules(s, f)
	}
	if d := g.fieldDescription(f, ""); d != "" {
		if _, isRef := s["$ref"]; isRef {
			s = obj{"allOf": []any{s}}
		}
		s["description"] = d
	}
	return s
}

// nullValues are the JSON values (google.protobuf.Value) of responses that may be null: a history
// change's before and after (a field that was or became null, a create's before, a delete's
// after). Every other one holds a value (an input value's: null is refused).
var nullValues = map[protoreflect.FullName]bool{"catalog.v1.HistoryChange.before": true, "catalog.v1.HistoryChange.after": true}

// nullableField: may the JSON carry null for this (singular) field?
func (g *generator) nullableField(f protoreflect.FieldDescriptor, dir direction, required bool) bool {
	if dir == request {
		// null leaves a field unset: accepted wherever the field is not required, but for a JSON
		// value (google.protobuf.Value), where null is refused.
		return !required && (f.Message() == nil || f.Message().FullName() != "google.protobuf.Value")
	}
	if f.Message() != nil {
		switch f.Message().FullName() {
		case "google.protobuf.Value":
			return nullValues[f.FullName()]
		case "google.protobuf.Timestamp":
			return f.Name() != "created_at" && f.Name() != "updated_at"
		}
		if f.Name() == "pagination" {
			return false
		}
		return true
	}
	// Scalars and enums: null only when unset optional (an enum's zero is written as null too, but
	// the service always sets its non-optional enums).
	return f.HasPresence()
}

// fieldValueSchema is the schema of one value of the field (the element for a list).
func (g *generator) fieldValueSchema(f protoreflect.FieldDescriptor, dir direction, bulkUpdate bool) obj {
	if f.IsMap() {
		return obj{"type": "object", "additionalProperties": g.singleValue(f.MapValue(), dir, false)}
	}
	v := g.singleValue(f, dir, bulkUpdate)
	if f.IsList() {
		return obj{"type": "array", "items": v}
	}
	return v
}

func (g *generator) singleValue(f protoreflect.FieldDescriptor, dir direction, bulkUpdate bool) obj {
	if md := f.Message(); md != nil {
		switch md.FullName() {
		case "google.protobuf.Timestamp":
			return obj{"type": "string", "format": "date-time", "examples": []any{"2026-01-02T03:04:05.123456Z"}}
		case "google.protobuf.Duration":
			return obj{"type": "string"}
		case "google.protobuf.Struct":
			return obj{"type": "object", "additionalProperties": true}
		case "google.protobuf.ListValue":
			return obj{"type": "array"}
		case "google.protobuf.Value":
			// Any JSON value: the empty schema (a list of types, which 3.1 allows, is refused by
			// oapi-codegen and ogen, and dropped by openapi-python-client).
			return obj{}
		case "google.protobuf.StringValue":
			return obj{"type": "string"}
		case "google.protobuf.BoolValue":
			return obj{"type": "boolean"}
		case "google.protobuf.Int32Value", "google.protobuf.Int64Value", "google.protobuf.UInt32Value", "google.protobuf.UInt64Value":
			return obj{"type": "integer"}
		case "google.protobuf.DoubleValue", "google.protobuf.FloatValue":
			return obj{"type": "number"}
		}
		if inner := jsonArrayField(md); inner != nil {
			items := g.singleValue(inner, dir, false)
			if inner.Kind() == protoreflect.StringKind && fields.IsUUIDName(f.JSONName()) {
				items["format"] = "uuid"
			}
			return obj{"type": "array", "items": items}
		}
		return g.ref(md, dir, bulkUpdate)
	}
	return g.scalarSchema(f, dir, true)
}

// scalarSchema is the schema of a scalar or enum value, with the field's rules when withRules.
func (g *generator) scalarSchema(f protoreflect.FieldDescriptor, dir direction, withRules bool) obj {
	var s obj
	switch f.Kind() {
	case protoreflect.StringKind:
		s = obj{"type": "string"}
		if fields.IsUUIDName(f.JSONName()) {
			s["format"] = "uuid"
		}
		if vals := g.in.StringEnums[f.FullName()]; len(vals) > 0 && dir == request {
			s["enum"] = anySlice(vals)
		}
	case protoreflect.BoolKind:
		s = obj{"type": "boolean"}
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		// The bounds in the schema too: a validator need not read format int32 (past them the
		// codec refuses the body).
		s = obj{"type": "integer", "format": "int32", "minimum": math.MinInt32, "maximum": math.MaxInt32}
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		s = obj{"type": "integer", "minimum": 0, "maximum": uint32(math.MaxUint32)}
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		s = obj{"type": "integer", "format": "int64"}
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		s = obj{"type": "integer", "minimum": 0}
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		s = obj{"type": "number"}
	case protoreflect.BytesKind:
		s = obj{"type": "string", "contentEncoding": "base64"}
	case protoreflect.EnumKind:
		return g.enumRef(f.Enum())
	default:
		s = obj{}
	}
	if withRules {
		r := fields.RulesOf(f)
		jsonNumber := r.GetJsonNumber() && dir == request
		if r.GetMinLen() > 0 {
			s["minLength"] = r.GetMinLen()
		}
		if r.GetMaxLen() > 0 {
			s["maxLength"] = r.GetMaxLen()
		}
		if r.GetFormat() != "" {
			s["format"] = r.GetFormat()
		}
		if p := fields.PatternOf(f); p != "" && dir == request {
			s["pattern"] = p
		}
		if r != nil && r.Minimum != nil {
			s["minimum"] = r.GetMinimum()
		}
		if r != nil && r.Maximum != nil {
			s["maximum"] = r.GetMaximum()
		}
		if jsonNumber {
			// A decimal as a string or a JSON number: one type per alternative (see Value above).
			s = obj{"oneOf": []any{s, obj{"type": "number"}}}
		}
	}
	return s
}

// enumRef returns a $ref to the enum's component: its short lower-case values.
func (g *generator) enumRef(ed protoreflect.EnumDescriptor) obj {
	name := string(ed.Name())
	if spec, ok := specNames[ed.FullName()]; ok {
		name = spec
	}
	if _, ok := g.schemas[name]; !ok {
		vals := jsonpb.EnumValues(ed)
		s := obj{"type": "string", "enum": anySlice(vals)}
		desc := g.comments.of(ed.FullName())
		var lines []string
		for i := 0; i < ed.Values().Len(); i++ {
			v := ed.Values().Get(i)
			short, ok := jsonpb.EnumString(ed, v.Number())
			if !ok {
				continue
			}
			if c := g.comments.of(v.FullName()); c != "" {
				lines = append(lines, "- `"+short+"`: "+oneLine(c))
			}
		}
		if len(lines) > 0 {
			desc = strings.TrimSpace(desc + "\n\n" + strings.Join(lines, "\n"))
		}
		if desc != "" {
			s["description"] = desc
		}
		g.schemas[name] = s
	}
	return ref("schemas", name)
}

// addRules puts a repeated field's item bounds on its (array) schema.
func addRules(s obj, f protoreflect.FieldDescriptor) {
	r := fields.RulesOf(f)
	if r == nil {
		return
	}
	target := s
	if alts, ok := s["anyOf"].([]any); ok && len(alts) > 0 {
		target, _ = alts[0].(obj)
	}
	if r.GetMinItems() > 0 {
		target["minItems"] = r.GetMinItems()
	}
	if r.GetMaxItems() > 0 {
		target["maxItems"] = r.GetMaxItems()
	}
}

// nullable allows null besides s: one type and null (the only list of types in the document), a
// null alternative in a oneOf, else anyOf s or null (also for the empty schema, any JSON value,
// which validators reading the document as OpenAPI 3.0 take as not nullable).
func nullable(s obj) obj {
	if alts, ok := s["oneOf"].([]any); ok {
		if !slices.ContainsFunc(alts, func(a any) bool { m, _ := a.(obj); return m["type"] == "null" }) {
			s["oneOf"] = append(alts, obj{"type": "null"})
		}
		return s
	}
	if t, ok := s["type"]; ok {
		switch t := t.(type) {
		case string:
			s["type"] = []any{t, "null"}
			return s
		case []any:
			if !slices.Contains(t, any("null")) {
				s["type"] = append(t, "null")
			}
			return s
		}
	}
	return obj{"anyOf": []any{s, obj{"type": "null"}}}
}

// stripNull removes null from a schema's type.
func stripNull(s obj) {
	if t, ok := s["type"].([]any); ok {
		var out []any
		for _, x := range t {
			if x != "null" {
				out = append(out, x)
			}
		}
		if len(out) == 1 {
			s["type"] = out[0]
		} else {
			s["type"] = out
		}
	}
}

// ---- descriptions and tags

// describe returns the summary (first sentence of the RPC's comment) and the full comment.
func (g *generator) describe(md protoreflect.MethodDescriptor) (string, string) {
	c := g.comments.of(md.FullName())
	if c == "" {
		return splitWords(string(md.Name())), ""
	}
	first := c
	if i := strings.Index(c, ". "); i >= 0 {
		first = c[:i]
	} else if i := strings.IndexByte(c, '\n'); i >= 0 && strings.HasSuffix(strings.TrimSpace(c[:i]), ".") {
		first = c[:i]
	}
	first = strings.TrimSuffix(oneLine(first), ".")
	if i := strings.IndexAny(first, ",;:("); i > 0 {
		first = strings.TrimSpace(first[:i])
	}
	name := string(md.Name())
	noun := func(prefix string) string { return strings.ToLower(splitWords(strings.TrimPrefix(name, prefix))) }
	switch {
	case strings.HasPrefix(name, "BulkCreate"):
		first = "Bulk create " + noun("BulkCreate")
	case strings.HasPrefix(name, "BulkUpdate"):
		first = "Bulk update " + noun("BulkUpdate")
	case strings.HasPrefix(name, "BulkTransition"):
		first = "Bulk transition " + singular(noun("BulkTransition")) + " lifecycle"
	case strings.HasPrefix(name, "Transition"):
		first = "Transition " + noun("Transition") + " lifecycle"
	case strings.HasPrefix(name, "Delete"):
		first = strings.TrimSuffix(first, " permanently")
	}
	return articles(first), articles(oneLineParagraphs(c))
}

var articleRE = regexp.MustCompile(`\b([Aa]) ([aeiouAEIOU])`)

// articles fixes "a attribute" into "an attribute".
func articles(s string) string { return articleRE.ReplaceAllString(s, "${1}n $2") }

func singular(s string) string {
	switch {
	case strings.HasSuffix(s, "ies"):
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "ses"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "s"):
		return s[:len(s)-1]
	}
	return s
}

// tag returns (and declares on first use) the tag of an operation: its resource family.
func (g *generator) tag(md protoreflect.MethodDescriptor) string {
	sd := md.Parent().(protoreflect.ServiceDescriptor)
	svc := strings.TrimSuffix(string(sd.Name()), "Service")
	name, desc := tagNames[svc], ""
	method := string(md.Name())
	if svc == "WebhookSubscription" {
		for _, sub := range webhookTags {
			if strings.Contains(method, sub.marker) {
				name, desc = sub.name, sub.description
				break
			}
		}
	}
	if name == "" {
		name = pluralWords(svc)
	}
	if desc == "" {
		desc = g.comments.of(sd.FullName())
		desc = strings.TrimPrefix(desc, string(sd.Name())+" ")
		desc = upperFirst(oneLineParagraphs(desc))
	}
	if !g.tagSeen[name] {
		g.tagSeen[name] = true
		g.tags = append(g.tags, obj{"name": name, "description": desc})
	}
	return name
}

var tagNames = map[string]string{
	"ProductPublication":  "Product channel publications",
	"PublicationSchedule": "Product channel publication schedules",
	"WebhookSubscription": "Webhook subscriptions",
	"WebhookEventType":    "Webhook event types",
}

var webhookTags = []struct{ marker, name, description string }{
	{"DeliveryAttempt", "Webhook delivery attempts", "Read-only record of each HTTP request made to deliver an event to a subscription."},
	{"Deliver", "Webhook deliveries", "Read-only record of delivering one event to a subscription, with manual redelivery."},
	{"EventType", "Webhook subscription event types", "The event types a subscription receives: it receives only those it subscribed to."},
}

func (g *generator) fieldDescription(f protoreflect.FieldDescriptor, fallback string) string {
	if c := g.comments.of(f.FullName()); c != "" {
		return oneLineParagraphs(c)
	}
	return fallback
}

func humanID(f protoreflect.FieldDescriptor) string {
	n := f.JSONName()
	if base, ok := strings.CutSuffix(n, "Uuid"); ok && base != "" {
		return strings.ToLower(splitWords(upperFirst(base))) + "'s uuid"
	}
	return n
}

func splitWords(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func pluralWords(s string) string {
	w := splitWords(s)
	switch {
	case strings.HasSuffix(w, "y"):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s"):
		return w + "es"
	}
	return w + "s"
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// oneLineParagraphs joins the lines of each paragraph of a proto comment (keeps blank-line breaks).
func oneLineParagraphs(s string) string {
	paras := strings.Split(strings.TrimSpace(s), "\n\n")
	for i, p := range paras {
		paras[i] = oneLine(p)
	}
	return strings.Join(paras, "\n\n")
}

// SuccessStatus is the HTTP status of an RPC's success by the naming convention the gateway and
// this document share, and whether a Location header names the created resource: Create* and
// Initiate* (an upload's initiate creates its file) are 201 with Location, BulkCreate* and
// BulkInitiate* 201, Delete* 204, everything else 200.
func SuccessStatus(rpc string) (status int, location bool) {
	switch {
	case strings.HasPrefix(rpc, "Create"), strings.HasPrefix(rpc, "Initiate"):
		return 201, true
	case strings.HasPrefix(rpc, "BulkCreate"), strings.HasPrefix(rpc, "BulkInitiate"):
		return 201, false
	case strings.HasPrefix(rpc, "Delete"):
		return 204, false
	}
	return 200, false
}
