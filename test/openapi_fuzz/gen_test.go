package openapifuzz

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// gen makes JSON values from the document's schemas: valid ones (every keyword the schema states
// is met) and, by mutation, invalid ones. It is driven by one seeded source, so a run is repeatable.
type gen struct {
	rnd *rand.Rand
}

const maxDepth = 8

func typeOf(s *openapi3.Schema) []string {
	if s.Type == nil {
		return nil
	}
	return s.Type.Slice()
}

func (g *gen) chance(p float64) bool { return g.rnd.Float64() < p }

func (g *gen) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(g.rnd.UintN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// value is a valid instance of s; ok is false when the generator cannot make one (a pattern none of
// its candidates matches, an unsatisfiable schema).
func (g *gen) value(ref *openapi3.SchemaRef, depth int) (any, bool) {
	if ref == nil || ref.Value == nil {
		return map[string]any{}, true
	}
	s := ref.Value
	if s.Const != nil {
		return s.Const, true
	}
	if len(s.Enum) > 0 {
		return s.Enum[g.rnd.IntN(len(s.Enum))], true
	}
	if len(s.OneOf) > 0 {
		// A oneOf's branches are told apart by type in this document: any branch will do, but
		// the null branch only sometimes (or when deep).
		branches := s.OneOf
		var nonNull openapi3.SchemaRefs
		for _, b := range branches {
			if b.Value != nil && !(b.Value.Type != nil && b.Value.Type.Is("null")) {
				nonNull = append(nonNull, b)
			}
		}
		if len(nonNull) > 0 && (depth >= maxDepth-2 || g.chance(0.2)) && len(nonNull) < len(branches) {
			return nil, true
		}
		if len(nonNull) == 0 {
			return nil, true
		}
		return g.value(nonNull[g.rnd.IntN(len(nonNull))], depth+1)
	}
	if len(s.AnyOf) > 0 {
		return g.value(s.AnyOf[g.rnd.IntN(len(s.AnyOf))], depth+1)
	}
	if len(s.AllOf) > 0 {
		merged := map[string]any{}
		for _, part := range s.AllOf {
			v, ok := g.value(part, depth+1)
			if !ok {
				return nil, false
			}
			m, isMap := v.(map[string]any)
			if !isMap {
				return v, true
			}
			for k, x := range m {
				merged[k] = x
			}
		}
		if len(s.Properties) > 0 {
			v, ok := g.object(s, depth)
			if !ok {
				return nil, false
			}
			for k, x := range v {
				merged[k] = x
			}
		}
		return merged, true
	}
	types := typeOf(s)
	nullable := false
	var concrete []string
	for _, t := range types {
		if t == "null" {
			nullable = true
		} else {
			concrete = append(concrete, t)
		}
	}
	if nullable && (len(concrete) == 0 || g.chance(0.2)) {
		return nil, true
	}
	t := ""
	if len(concrete) > 0 {
		t = concrete[g.rnd.IntN(len(concrete))]
	} else if len(s.Properties) > 0 {
		t = "object"
	}
	switch t {
	case "string":
		return g.str(s)
	case "integer":
		return g.number(s, true), true
	case "number":
		return g.number(s, false), true
	case "boolean":
		return g.chance(0.5), true
	case "array":
		return g.array(s, depth)
	case "object":
		return g.object(s, depth)
	}
	// {}: any JSON value.
	return "any", true
}

func (g *gen) object(s *openapi3.Schema, depth int) (map[string]any, bool) {
	out := map[string]any{}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s.Properties[n]
		if p.Value != nil && p.Value.ReadOnly {
			continue
		}
		if !required[n] && (depth >= maxDepth || !g.chance(0.6)) {
			continue
		}
		v, ok := g.value(p, depth+1)
		if !ok {
			if required[n] {
				return nil, false
			}
			continue
		}
		out[n] = v
	}
	return out, true
}

func (g *gen) array(s *openapi3.Schema, depth int) (any, bool) {
	n := int(s.MinItems)
	if depth < maxDepth {
		n += g.rnd.IntN(3)
	}
	if s.MaxItems != nil && uint64(n) > *s.MaxItems {
		n = int(*s.MaxItems)
	}
	out := []any{}
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		v, ok := g.value(s.Items, depth+1)
		if !ok {
			return nil, false
		}
		if s.UniqueItems {
			key := fmt.Sprint(v)
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, v)
	}
	if uint64(len(out)) < s.MinItems {
		return nil, false
	}
	return out, true
}

func (g *gen) number(s *openapi3.Schema, integer bool) any {
	lo, hi := -1000.0, 1000.0
	if s.Min != nil {
		lo = *s.Min
		if hi < lo {
			hi = lo + 1000
		}
	}
	if s.Max != nil {
		hi = *s.Max
		if lo > hi {
			lo = hi - 1000
		}
	}
	if s.ExclusiveMin.Value != nil {
		lo = *s.ExclusiveMin.Value + 1
	}
	if s.ExclusiveMax.Value != nil {
		hi = *s.ExclusiveMax.Value - 1
	}
	// Mostly small values, sometimes the bounds themselves.
	var v float64
	switch g.rnd.IntN(4) {
	case 0:
		v = lo
	case 1:
		v = hi
	default:
		span := math.Min(hi-lo, 100)
		v = lo + g.rnd.Float64()*span
	}
	if integer {
		v = math.Ceil(v)
		if v > hi {
			v = math.Floor(hi)
		}
		return int64(v)
	}
	return v
}

// Candidates for a string with a pattern, tried in order after the schema's own examples.
var patternCandidates = []string{"en", "en-US", "de-CH", "abc", "a", "A1", "color", "size_1", "x-1",
	"image/png", "application/json", "0123456789abcdef0123456789abcdef", "d41d8cd98f00b204e9800998ecf8427e",
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "#ff0000", "1", "2026-01-02",
	"https://example.com/x", "ABC", "a.b", "a/b"}

func (g *gen) str(s *openapi3.Schema) (any, bool) {
	fits := func(v string) bool {
		n := uint64(len([]rune(v)))
		if n < s.MinLength || (s.MaxLength != nil && n > *s.MaxLength) {
			return false
		}
		if s.Pattern != "" {
			re, err := regexp.Compile(s.Pattern)
			if err != nil || !re.MatchString(v) {
				return false
			}
		}
		return true
	}
	var v string
	switch s.Format {
	case "uuid":
		return g.uuid(), true
	case "date-time":
		return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(g.rnd.IntN(1e6)) * time.Second).Format(time.RFC3339), true
	case "date":
		return "2026-01-02", true
	case "uri", "uri-reference", "url":
		v = "https://example.com/" + g.word(6)
	case "email":
		v = g.word(6) + "@example.com"
	case "byte":
		v = "aGVsbG8="
	default:
		v = g.word(8)
	}
	if !fits(v) {
		for _, c := range append(append([]any{s.Example}, s.Examples...), anySlice(patternCandidates)...) {
			if c, ok := c.(string); ok && fits(c) {
				return c, true
			}
		}
		if s.Pattern == "" {
			// Length alone: a word of the right length.
			n := s.MinLength
			if n == 0 {
				n = 1
			}
			w := strings.Repeat("a", int(n))
			if fits(w) {
				return w, true
			}
		}
		return nil, false
	}
	return v, true
}

func anySlice(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func (g *gen) word(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[g.rnd.IntN(len(letters))]
	}
	return "fz" + string(b)
}

// wrongType is a value of another JSON type than any s allows.
func wrongType(s *openapi3.Schema) (any, bool) {
	types := typeOf(s)
	if len(types) == 0 || len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
		return nil, false
	}
	allowed := map[string]bool{}
	for _, t := range types {
		allowed[t] = true
	}
	if allowed["number"] {
		allowed["integer"] = true
	}
	for _, c := range []struct {
		t string
		v any
	}{{"object", map[string]any{"x": 1}}, {"string", "fz-wrong"}, {"boolean", true}, {"array", []any{"x"}}, {"integer", 7}} {
		if !allowed[c.t] && !(c.t == "integer" && allowed["number"]) {
			return c.v, true
		}
	}
	return nil, false
}
