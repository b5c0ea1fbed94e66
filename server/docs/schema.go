package docs

import (
	"html/template"
	"net/url"
	"strings"
)

// Schemas are shown in two forms: a one-line type (`string <uuid> | null`, `array of Attribute`, with
// named schemas linked to their entry in the Schemas section) and a block (the type line, the
// description, and a table of the properties, nested inline objects indented under their parent).
// Named schemas met inside a table are linked rather than expanded again, so a recursive schema
// renders in bounded space; allOf chains are merged with a guard against cycles.

const (
	maxTypeDepth = 6
	maxRowDepth  = 6
	maxRefHops   = 32
)

// resolve follows a local JSON pointer ("#/components/schemas/Attribute"); ok is false for
// anything else (external documents, missing targets).
func (r *renderer) resolve(ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	frag := ref[1:]
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	if frag == "" {
		return r.root, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false
	}
	var cur any = r.root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *object:
			if !c.has(tok) {
				return nil, false
			}
			cur = c.get(tok)
		case []any:
			i := 0
			for _, ch := range tok {
				if ch < '0' || ch > '9' {
					return nil, false
				}
				i = i*10 + int(ch-'0')
				if i > len(c) {
					return nil, false
				}
			}
			if tok == "" || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// deref follows $ref chains (a reference object or a schema that is only a $ref); it stops at an
// unresolvable reference or a cycle and then returns the last object reached.
func (r *renderer) deref(v any) any {
	for i := 0; i < maxRefHops; i++ {
		o, ok := v.(*object)
		if !ok {
			return v
		}
		ref := o.str("$ref")
		if ref == "" {
			return v
		}
		t, ok := r.resolve(ref)
		if !ok {
			return v
		}
		v = t
	}
	return v
}

// refName is the last segment of a reference: "#/components/schemas/Attribute" → "Attribute".
func refName(ref string) string {
	s := ref
	if i := strings.LastIndex(s, "/"); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	if s == "" {
		return ref
	}
	return s
}

func esc(s string) string { return template.HTMLEscapeString(s) }

// refHTML names a referenced schema, linked when the Schemas section shows it.
func (r *renderer) refHTML(ref string) string {
	name := refName(ref)
	if id, ok := r.modelIDs[ref]; ok {
		return `<a class="ref" href="` + esc(r.href(id)) + `">` + esc(name) + `</a>`
	}
	return `<span class="ref">` + esc(name) + `</span>`
}

// typeHTML is the one-line type of a schema.
func (r *renderer) typeHTML(v any) template.HTML { return template.HTML(r.typeStr(v, 0)) }

func (r *renderer) typeStr(v any, depth int) string {
	if depth > maxTypeDepth {
		return "…"
	}
	s, ok := v.(*object)
	if !ok {
		if b, isBool := v.(bool); isBool && !b {
			return "never"
		}
		return "any"
	}
	if ref := s.str("$ref"); ref != "" {
		return r.refHTML(ref)
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts := s.arr(k); len(alts) > 0 {
			return r.altStr(alts, depth)
		}
	}
	if all := s.arr("allOf"); len(all) > 0 && !s.has("properties") {
		if len(all) == 1 {
			return r.typeStr(all[0], depth+1)
		}
		parts := make([]string, 0, len(all))
		for _, a := range all {
			parts = append(parts, r.typeStr(a, depth+1))
		}
		return strings.Join(parts, " &amp; ")
	}
	types := s.strs("type")
	if len(types) == 0 {
		switch {
		case s.has("properties") || s.has("additionalProperties") || s.has("allOf"):
			types = []string{"object"}
		case s.has("items") || s.has("prefixItems"):
			types = []string{"array"}
		case s.has("const"):
			types = []string{jsonType(s.get("const"))}
		case len(s.arr("enum")) > 0:
			seen := map[string]bool{}
			for _, e := range s.arr("enum") {
				if t := jsonType(e); !seen[t] {
					seen[t] = true
					types = append(types, t)
				}
			}
		default:
			return "any"
		}
	}
	if s.flag("nullable") && !contains(types, "null") {
		types = append(types, "null")
	}
	format := s.str("format")
	parts := make([]string, 0, len(types))
	for _, t := range types {
		var p string
		switch t {
		case "array":
			p = "array"
			if it := s.get("items"); it != nil {
				if b, isBool := it.(bool); !isBool || b {
					inner := r.typeStr(it, depth+1)
					if strings.Contains(inner, " | ") || strings.Contains(inner, " &amp; ") {
						inner = "(" + inner + ")"
					}
					p = "array of " + inner
				}
			}
		case "object":
			p = "object"
			if title := s.str("title"); title != "" {
				p = esc(title)
			}
			if !s.has("properties") {
				if ap, isObj := s.get("additionalProperties").(*object); isObj {
					p = "map of " + r.typeStr(ap, depth+1)
				}
			}
		default:
			p = esc(t)
		}
		if format != "" && t != "null" && t != "array" && t != "object" {
			p += ` <span class="fmt">&lt;` + esc(format) + `&gt;</span>`
			format = ""
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " | ")
}

func (r *renderer) altStr(alts []any, depth int) string {
	var parts []string
	seen := map[string]bool{}
	for _, a := range alts {
		p := r.typeStr(a, depth+1)
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " | ")
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	case *object:
		return "object"
	}
	return "number"
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// constraint is one facet of a schema: a label, and a value shown as code when there is one.
type constraint struct {
	Label string
	Code  string
}

// enumValues are the allowed values of a schema, of its array items, or of the non-null member of a
// nullable union; const counts as a one-value enum.
func (r *renderer) enumValues(v any) []string {
	s, _ := r.deref(v).(*object)
	if s == nil {
		return nil
	}
	if s.has("const") {
		return []string{jsonText(s.get("const"))}
	}
	if vals := s.arr("enum"); len(vals) > 0 {
		out := make([]string, 0, len(vals))
		for _, e := range vals {
			out = append(out, enumText(e))
		}
		return out
	}
	if contains(s.strs("type"), "array") || (!s.has("type") && s.has("items")) {
		if it, ok := r.deref(s.get("items")).(*object); ok && it != s {
			return r.enumValues(it)
		}
	}
	if m := r.nullableMember(s); m != nil {
		return r.enumValues(m)
	}
	return nil
}

func enumText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return jsonText(v)
}

// nullableMember is X of anyOf/oneOf [X, {type: null}] (the 3.1 spelling of a nullable reference).
func (r *renderer) nullableMember(s *object) any {
	for _, k := range []string{"anyOf", "oneOf"} {
		alts := s.arr(k)
		if len(alts) == 0 {
			continue
		}
		var other []any
		for _, a := range alts {
			if ao, ok := a.(*object); ok && len(ao.strs("type")) == 1 && ao.str("type") == "null" && len(ao.keys) <= 2 {
				continue
			}
			other = append(other, a)
		}
		if len(other) == 1 && len(other) < len(alts) {
			return other[0]
		}
	}
	return nil
}

// constraints are the validation facets of a schema (lengths, bounds, counts, pattern, default,
// example) in a readable form; the facets of array items are included, marked as such.
func (r *renderer) constraints(v any) []constraint {
	s, _ := r.deref(v).(*object)
	if s == nil {
		return nil
	}
	out := facets(s, "")
	if m := r.nullableMember(s); m != nil {
		if mo, ok := r.deref(m).(*object); ok && mo != s {
			out = append(out, facets(mo, "")...)
		}
	}
	if it, ok := r.deref(s.get("items")).(*object); ok && it != s {
		out = append(out, facets(it, "each ")...)
	}
	return out
}

func facets(s *object, prefix string) []constraint {
	var out []constraint
	add := func(label, code string) { out = append(out, constraint{Label: prefix + label, Code: code}) }
	rng := func(minKey, maxKey, unit, units string) {
		lo, hasLo := s.num(minKey)
		hi, hasHi := s.num(maxKey)
		switch {
		case hasLo && hasHi && lo == hi:
			add(lo+" "+plural(lo, unit, units), "")
		case hasLo && hasHi:
			add(lo+" to "+hi+" "+units, "")
		case hasLo:
			add("at least "+lo+" "+plural(lo, unit, units), "")
		case hasHi:
			add("at most "+hi+" "+plural(hi, unit, units), "")
		}
	}
	rng("minLength", "maxLength", "character", "characters")
	rng("minItems", "maxItems", "item", "items")
	rng("minProperties", "maxProperties", "property", "properties")
	if s.flag("uniqueItems") {
		add("unique items", "")
	}
	lo, hasLo := s.num("minimum")
	hi, hasHi := s.num("maximum")
	exLo, hasExLo := s.num("exclusiveMinimum")
	exHi, hasExHi := s.num("exclusiveMaximum")
	if s.flag("exclusiveMinimum") && hasLo { // OpenAPI 3.0 spelling
		exLo, hasExLo, hasLo = lo, true, false
	}
	if s.flag("exclusiveMaximum") && hasHi {
		exHi, hasExHi, hasHi = hi, true, false
	}
	switch {
	case hasLo && hasHi:
		add(lo+" to "+hi, "")
	case hasLo:
		add("≥ "+lo, "")
	case hasHi:
		add("≤ "+hi, "")
	}
	if hasExLo {
		add("> "+exLo, "")
	}
	if hasExHi {
		add("< "+exHi, "")
	}
	if m, ok := s.num("multipleOf"); ok {
		add("multiple of "+m, "")
	}
	if p := s.str("pattern"); p != "" {
		add("pattern", p)
	}
	if ct := s.str("contentMediaType"); ct != "" {
		add("content", ct)
	}
	if ce := s.str("contentEncoding"); ce != "" {
		add("encoding", ce)
	}
	if s.has("default") {
		add("default", jsonText(s.get("default")))
	}
	if s.has("example") {
		add("example", jsonText(s.get("example")))
	} else if ex := s.arr("examples"); len(ex) > 0 {
		add("example", jsonText(ex[0]))
	}
	return out
}

func plural(n, one, many string) string {
	if n == "1" {
		return one
	}
	return many
}

// row is one property in a properties table.
type row struct {
	Prefix, Name string
	Depth        int
	Required     bool
	ReadOnly     bool
	WriteOnly    bool
	Deprecated   bool
	Type         template.HTML
	Description  template.HTML
	Enum         []string
	Constraints  []constraint
}

// variant is one alternative of a oneOf/anyOf.
type variant struct {
	Type template.HTML
	Rows []row
}

// block is a schema shown in full.
type block struct {
	Type        template.HTML
	Description template.HTML
	Enum        []string
	Constraints []constraint
	ItemsNote   template.HTML
	Rows        []row
	Variants    []variant
}

// description of a schema as used in place: the sibling description next to a $ref wins over the
// referenced schema's own (OpenAPI 3.1 allows both), then the title.
func (r *renderer) description(v any) string {
	if o, ok := v.(*object); ok {
		if d := o.str("description"); d != "" {
			return d
		}
	}
	if o, ok := r.deref(v).(*object); ok {
		if d := o.str("description"); d != "" {
			return d
		}
		return o.str("title")
	}
	return ""
}

// schemaBlock renders a schema in full: its properties, or those of its array items, or its
// variants.
func (r *renderer) schemaBlock(v any) *block {
	if v == nil {
		return nil
	}
	b := &block{Type: r.typeHTML(v), Description: markdown(r.description(v)), Enum: r.enumValues(v),
		Constraints: r.constraints(v)}
	s, _ := r.deref(v).(*object)
	if s == nil {
		return b
	}
	if m := r.nullableMember(s); m != nil {
		if mo, ok := r.deref(m).(*object); ok {
			s = mo
		}
	}
	switch {
	case r.objectLike(s, 0, map[*object]bool{}):
		b.Rows = r.rows(s, "", 0, map[*object]bool{})
	case contains(s.strs("type"), "array") || s.has("items"):
		if it, ok := r.deref(s.get("items")).(*object); ok && r.objectLike(it, 0, map[*object]bool{}) {
			b.ItemsNote = template.HTML("Each item is " + r.typeStr(s.get("items"), 0) + ":")
			b.Rows = r.rows(it, "", 0, map[*object]bool{})
		}
	}
	if len(b.Rows) == 0 {
		for _, k := range []string{"oneOf", "anyOf"} {
			for _, a := range s.arr(k) {
				vs := variant{Type: r.typeHTML(a)}
				if ao, ok := r.deref(a).(*object); ok && r.objectLike(ao, 0, map[*object]bool{}) {
					vs.Rows = r.rows(ao, "", 0, map[*object]bool{})
				}
				b.Variants = append(b.Variants, vs)
			}
		}
	}
	return b
}

// objectLike: the schema has properties of its own or through allOf.
func (r *renderer) objectLike(s *object, depth int, seen map[*object]bool) bool {
	if s == nil || seen[s] || depth > maxRefHops {
		return false
	}
	if ps := s.obj("properties"); ps != nil && len(ps.keys) > 0 {
		return true
	}
	seen[s] = true
	defer delete(seen, s)
	for _, a := range s.arr("allOf") {
		if ao, ok := r.deref(a).(*object); ok && r.objectLike(ao, depth+1, seen) {
			return true
		}
	}
	return false
}

type prop struct {
	name     string
	schema   any
	required bool
}

// props are the properties of s and of its allOf members (in order), with their required marks.
func (r *renderer) props(s *object, seen map[*object]bool) (out []prop, additional any) {
	if s == nil || seen[s] {
		return nil, nil
	}
	seen[s] = true
	defer delete(seen, s)
	index := map[string]int{}
	merge := func(ps []prop) {
		for _, p := range ps {
			if i, ok := index[p.name]; ok {
				out[i].required = out[i].required || p.required
				continue
			}
			index[p.name] = len(out)
			out = append(out, p)
		}
	}
	for _, a := range s.arr("allOf") {
		if ao, ok := r.deref(a).(*object); ok {
			ps, ad := r.props(ao, seen)
			merge(ps)
			if additional == nil {
				additional = ad
			}
		}
	}
	req := map[string]bool{}
	for _, n := range s.strs("required") {
		req[n] = true
	}
	var own []prop
	if ps := s.obj("properties"); ps != nil {
		for _, k := range ps.keys {
			own = append(own, prop{name: k, schema: ps.get(k), required: req[k]})
		}
	}
	merge(own)
	for i := range out {
		if req[out[i].name] {
			out[i].required = true
		}
	}
	if ap, ok := s.get("additionalProperties").(*object); ok {
		additional = ap
	}
	return out, additional
}

// rows flattens the properties of s into table rows; inline object properties (and arrays of inline
// objects) continue underneath, indented, named by their path.
func (r *renderer) rows(s *object, prefix string, depth int, seen map[*object]bool) []row {
	if depth > maxRowDepth || seen[s] {
		return nil
	}
	seen[s] = true
	defer delete(seen, s)
	ps, additional := r.props(s, map[*object]bool{})
	var out []row
	for _, p := range ps {
		out = append(out, r.row(prefix, p.name, p.schema, p.required, depth))
		if child, suffix := r.inlineChild(p.schema); child != nil {
			out = append(out, r.rows(child, prefix+p.name+suffix+".", depth+1, seen)...)
		}
	}
	if additional != nil {
		rw := r.row(prefix, "*", additional, false, depth)
		rw.Description = template.HTML("<p>Any other key.</p>") + rw.Description
		out = append(out, rw)
	}
	return out
}

func (r *renderer) row(prefix, name string, schema any, required bool, depth int) row {
	rw := row{Prefix: prefix, Name: name, Depth: depth, Required: required, Type: r.typeHTML(schema),
		Description: markdown(r.description(schema)), Enum: r.enumValues(schema), Constraints: r.constraints(schema)}
	for _, o := range []*object{asObject(schema), asObject(r.deref(schema))} {
		if o != nil {
			rw.ReadOnly = rw.ReadOnly || o.flag("readOnly")
			rw.WriteOnly = rw.WriteOnly || o.flag("writeOnly")
			rw.Deprecated = rw.Deprecated || o.flag("deprecated")
		}
	}
	return rw
}

func asObject(v any) *object { o, _ := v.(*object); return o }

// inlineChild is the inline object a property continues into: itself, its array items, or the
// non-null member of a nullable union; never a named ($ref) schema, which has its own entry.
func (r *renderer) inlineChild(v any) (*object, string) {
	s, ok := v.(*object)
	if !ok || s.has("$ref") {
		return nil, ""
	}
	if m := r.nullableMember(s); m != nil {
		return r.inlineChild(m)
	}
	if r.objectLike(s, 0, map[*object]bool{}) {
		return s, ""
	}
	if it, ok := s.get("items").(*object); ok && !it.has("$ref") && r.objectLike(it, 0, map[*object]bool{}) {
		return it, "[]"
	}
	return nil, ""
}
