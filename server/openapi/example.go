package openapi

import (
	"math"
	"strings"
)

// example makes a value that the schema accepts, with realistic strings for well-known field names,
// so that every operation of every family shows a request and a response example.
func (g *generator) example(s obj, depth int) any {
	return g.exampleNamed("", s, depth)
}

const exampleUUID = "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"

var nameExamples = map[string]any{
	"code":            "color",
	"displayName":     "Color",
	"description":     "The main colour of the product.",
	"targetUrl":       "https://hooks.example.com/catalog",
	"pattern":         "^[A-Z]{3}$",
	"min":             "0",
	"max":             "100",
	"secret":          "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
	"eventType":       "product.created",
	"name":            "product.created",
	"responseBody":    "ok",
	"error":           "timeout",
	"failureReason":   "requirements not met",
	"failureCode":     "REQUIREMENTS_NOT_MET",
	"detail":          "a value for the input type title is required",
	"storageLocation": "assets/" + exampleUUID + "/",
	"contentType":     "image/jpeg",
	"fileName":        "front.jpg",
	// The SHA-256 of no bytes: the example's sizeBytes is 0.
	"checksumSha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
}

var intExamples = map[string]any{"requestTimeoutMs": 15000, "page": 1, "size": 20, "totalItems": 1, "totalPages": 1,
	"attempts": 1, "lastStatusCode": 200, "statusCode": 200, "responseTimeMs": 42}

// notShown are optional request fields a request example leaves out, as an example the service
// accepts must: uuid (a single update takes it from the path: any other is refused) and parentUuid
// (only a variant has a parent; the example product is a simple one).
var notShown = map[string]bool{"uuid": true, "parentUuid": true}

// componentExamples override property examples of some components (by the component's name prefix):
// a locale's code is a BCP 47 tag, not an identifier like an attribute's.
var componentExamples = map[string]map[string]any{
	"Locale": {"code": "en-US", "displayName": "English (United States)"},
	// An import of one line given inline: {"type":"locale","code":"de-DE"} and a newline.
	"ImportCreate": {"fileName": "catalog.ndjson", "content": "eyJ0eXBlIjoibG9jYWxlIiwiY29kZSI6ImRlLURFIn0K", "sizeBytes": 33,
		"checksumSha256": "7c8ae4281d4ed86987f9f8d841c401d26d373b63b6b889d438233a681f5c0826"},
	"ExportCreate":  {"types": []any{"locale", "product"}},
	"ProductFilter": {"statuses": []any{"active"}, "kinds": []any{"simple"}, "codes": []any{"SKU-1"}},
}

func (g *generator) exampleNamed(name string, s obj, depth int) any {
	if r, ok := s["$ref"].(string); ok {
		if depth > 12 {
			return nil
		}
		comp := strings.TrimPrefix(r, "#/components/schemas/")
		target, _ := g.schemas[comp].(obj)
		if target == nil {
			return nil
		}
		v := g.exampleNamed(name, target, depth+1)
		for prefix, props := range componentExamples {
			if m, ok := v.(obj); ok && strings.HasPrefix(comp, prefix) {
				for k, pv := range props {
					if _, has := m[k]; has {
						m[k] = pv
					}
				}
			}
		}
		return v
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			if a, ok := alts[0].(obj); ok {
				return g.exampleNamed(name, a, depth)
			}
		}
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	typ := s["type"]
	if ts, ok := typ.([]any); ok {
		typ = nil
		for _, t := range ts {
			if t != "null" {
				typ = t
				break
			}
		}
		if typ == nil {
			return nil
		}
	}
	switch typ {
	case "object":
		props, _ := s["properties"].(obj)
		if props == nil {
			if _, isMap := s["additionalProperties"].(obj); isMap {
				return obj{"alt": "Red T-shirt, front"}
			}
			return obj{}
		}
		out := obj{}
		required := map[string]bool{}
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				required[r.(string)] = true
			}
		}
		for k, v := range props {
			ps, _ := v.(obj)
			if ps == nil {
				continue
			}
			switch {
			case required[k] && allowsNull(ps):
				// A response's nullable field: shown as the usual null (include/expand not asked for,
				// no removal time, …).
				out[k] = nil
			case required[k]:
				out[k] = g.exampleNamed(k, ps, depth+1)
			case depth <= 2 && isSimple(ps) && !notShown[k] && !pathGiven(ps):
				// A request's optional field: the simple ones are shown with a value (not one the
				// path gives: the example cannot know the path's value).
				out[k] = g.exampleNamed(k, ps, depth+1)
			}
		}
		return out
	case "array":
		items, _ := s["items"].(obj)
		if items == nil || depth > 12 {
			return []any{}
		}
		return []any{g.exampleNamed(strings.TrimSuffix(name, "s"), items, depth+1)}
	case "integer":
		if v, ok := intExamples[name]; ok {
			return v
		}
		// The lowest value a rule allows, but not int32's own bound (math.MinInt32: any).
		if m, ok := s["minimum"]; ok && m != any(math.MinInt32) {
			return m
		}
		return 0
	case "number":
		return 1.5
	case "boolean":
		return false
	case "string":
		switch s["format"] {
		case "uuid":
			return exampleUUID
		case "date-time":
			return "2026-01-02T03:04:05.123456Z"
		case "date":
			return "2026-01-02"
		case "uri":
			return "https://hooks.example.com/catalog"
		}
		if v, ok := nameExamples[name]; ok {
			return v
		}
		if strings.HasSuffix(name, "Uuid") {
			return exampleUUID
		}
		if ml, ok := s["minLength"].(uint32); ok && ml > 1 {
			return strings.Repeat("x", int(ml))
		}
		return "text"
	}
	return "red"
}

// allowsNull reports whether a schema accepts null.
func allowsNull(s obj) bool {
	if ts, ok := s["type"].([]any); ok {
		for _, t := range ts {
			if t == "null" {
				return true
			}
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k].([]any); ok {
			for _, a := range alts {
				if a, ok := a.(obj); ok && a["type"] == "null" {
					return true
				}
			}
		}
	}
	return false
}

// isSimple: a scalar (or a reference to an enum), not an object or array.
func isSimple(s obj) bool {
	if alts, ok := s["oneOf"].([]any); ok && len(alts) > 0 { // a decimal: string or number
		a, _ := alts[0].(obj)
		return isSimple(a)
	}
	t := s["type"]
	if ts, ok := t.([]any); ok && len(ts) > 0 {
		t = ts[0]
	}
	switch t {
	case "string", "integer", "number", "boolean":
		return true
	}
	return false
}

// pathGiven: the field is one the operation's path gives (its description ends with PathFieldRule).
func pathGiven(s obj) bool {
	d, _ := s["description"].(string)
	return strings.HasSuffix(d, PathFieldRule)
}
