package app

import (
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/jsonpb"
)

// OpenAPI rewrites the generated document into the API as served: query parameters in the spec's
// `field[op]` syntax with the `<field>[order]` parameters of each list, 201/204 success codes, the
// problem error response and the bearer security scheme.
func OpenAPI(raw []byte) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	doc["info"] = map[string]any{"title": "catalogd", "version": "1.1.0",
		"description": "Product catalog service. Every operation requires a bearer JWT; errors are RFC 9457 problem documents."}
	doc["securityDefinitions"] = map[string]any{"Bearer": map[string]any{"type": "apiKey", "name": "Authorization", "in": "header",
		"description": "Bearer <JWT>"}}
	doc["security"] = []any{map[string]any{"Bearer": []any{}}}
	defs, _ := doc["definitions"].(map[string]any)
	if defs == nil {
		defs = map[string]any{}
		doc["definitions"] = defs
	}
	defs["Problem"] = map[string]any{"type": "object", "properties": map[string]any{
		"type": str(), "title": str(), "status": map[string]any{"type": "integer"}, "detail": str(), "code": str(),
		"errors": map[string]any{"type": "array", "items": map[string]any{"type": "object",
			"properties": map[string]any{"field": str(), "message": str()}}},
		"instance": str(), "requestId": str()}}
	for _, d := range defs {
		if m, ok := d.(map[string]any); ok {
			if props, ok := m["properties"].(map[string]any); ok {
				delete(props, "updateMask") // request-only over gRPC; the REST body never carries it
			}
		}
	}
	shortEnums(doc, enumShortNames())
	paths, _ := doc["paths"].(map[string]any)
	for _, p := range paths {
		ops, _ := p.(map[string]any)
		for _, o := range ops {
			op, ok := o.(map[string]any)
			if !ok {
				continue
			}
			if err := rewriteOperation(op); err != nil {
				return nil, err
			}
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}

func str() map[string]any { return map[string]any{"type": "string"} }

func rewriteOperation(op map[string]any) error {
	id, _ := op["operationId"].(string)
	svc, method, ok := strings.Cut(id, "_")
	if !ok {
		return fmt.Errorf("operation %q: unexpected operationId", id)
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName("catalog.v1." + svc))
	if err != nil {
		return err
	}
	md := d.(protoreflect.ServiceDescriptor).Methods().ByName(protoreflect.Name(method))
	if md == nil {
		return fmt.Errorf("operation %q: no method", id)
	}
	params, _ := op["parameters"].([]any)
	out := make([]any, 0, len(params))
	for _, x := range params {
		p := x.(map[string]any)
		name, _ := p["name"].(string)
		if p["in"] == "query" {
			if strings.HasPrefix(name, "orderBy") {
				continue
			}
			if a, b, ok := strings.Cut(name, "."); ok {
				p["name"] = a + "[" + b + "]"
			}
		}
		out = append(out, p)
	}
	if lo, ok := proto.GetExtension(md.Input().Options(), pb.E_List).(*pb.ListOptions); ok && lo != nil {
		for _, f := range lo.OrderFields {
			out = append(out, map[string]any{"name": f + "[order]", "in": "query", "required": false, "type": "string",
				"enum": []any{"asc", "desc"}, "description": "Sort by " + f + "; several order parameters apply in the order given, ties break on uuid."})
		}
	}
	op["parameters"] = out
	resp, _ := op["responses"].(map[string]any)
	if ok200, has := resp["200"]; has {
		switch {
		case strings.HasPrefix(method, "Create") || strings.HasPrefix(method, "BulkCreate"):
			delete(resp, "200")
			resp["201"] = ok200
		case strings.HasPrefix(method, "Delete"):
			delete(resp, "200")
			resp["204"] = map[string]any{"description": "Deleted; no content."}
		}
	}
	resp["default"] = map[string]any{"description": "An RFC 9457 problem document (application/problem+json).",
		"schema": map[string]any{"$ref": "#/definitions/Problem"}}
	if scope, _ := proto.GetExtension(md.Options(), pb.E_RequiredScope).(string); scope != "" {
		op["x-required-scope"] = scope
	}
	return nil
}

// enumShortNames maps every enum value name of the API (ATTRIBUTE_STATUS_DRAFT) onto the short
// lower-case name the JSON codec reads and writes (draft).
func enumShortNames() map[string]string {
	out := map[string]string{}
	protoregistry.GlobalFiles.RangeFilesByPackage("catalog.v1", func(fd protoreflect.FileDescriptor) bool {
		var walk func(es protoreflect.EnumDescriptors, ms protoreflect.MessageDescriptors)
		walk = func(es protoreflect.EnumDescriptors, ms protoreflect.MessageDescriptors) {
			for i := 0; i < es.Len(); i++ {
				e := es.Get(i)
				for j := 0; j < e.Values().Len(); j++ {
					v := e.Values().Get(j)
					if short, ok := jsonpb.EnumString(e, v.Number()); ok {
						out[string(v.Name())] = short
					}
				}
			}
			for i := 0; i < ms.Len(); i++ {
				walk(ms.Get(i).Enums(), ms.Get(i).Messages())
			}
		}
		walk(fd.Enums(), fd.Messages())
		return true
	})
	return out
}

// shortEnums rewrites enum values (in "enum" lists, "default" values and descriptions) to their
// short names throughout the document.
func shortEnums(v any, names map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			switch k {
			case "enum":
				if list, ok := val.([]any); ok {
					for i, e := range list {
						if s, ok := e.(string); ok && names[s] != "" {
							list[i] = names[s]
						}
					}
				}
			case "default":
				if s, ok := val.(string); ok && names[s] != "" {
					x[k] = names[s]
				}
			case "description", "title":
				if s, ok := val.(string); ok && strings.Contains(s, "_") {
					x[k] = replaceEnumNames(s, names)
				}
			default:
				shortEnums(val, names)
			}
		}
	case []any:
		for _, e := range x {
			shortEnums(e, names)
		}
	}
}

// replaceEnumNames replaces whole-word enum value names in a text.
func replaceEnumNames(s string, names map[string]string) string {
	var b strings.Builder
	word := func(r byte) bool { return r == '_' || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') }
	for i := 0; i < len(s); {
		if !word(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && word(s[j]) {
			j++
		}
		if short, ok := names[s[i:j]]; ok && (i == 0 || !isLetter(s[i-1])) {
			b.WriteString(short)
		} else {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
