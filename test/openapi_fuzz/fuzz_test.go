package openapifuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/catalogd/catalogd/server/apptest"
)

// The pass's size: per operation, its request example, validCases requests generated from the
// schemas and up to invalidCases mutations of them (one defect each). 287 operations make about
// 2 300 requests; the seed makes every run send the same ones.
const (
	validCases   = 6
	invalidCases = 6
	seed1, seed2 = 27, 2026
)

type operation struct {
	method, path string
	op           *openapi3.Operation
	params       []*openapi3.Parameter
}

type fuzzer struct {
	t      *testing.T
	doc    *openapi3.T
	g      *gen
	token  string
	http   *http.Client
	lists  map[string][]map[string]any // resolved collection path → its items
	counts map[string]int
	// defects: a request the document accepts, refused 400 by the service (key: operation and
	// reason) — the document does not state a rule the service applies.
	defects map[string]string
	misses  []string
}

// A property-based pass over the whole served document (what schemathesis does, ours): for EVERY
// operation, requests generated from its schemas (path, query incl. the field[operator] filters,
// headers, bodies, and its request example) and invalid ones (a wrong type, a missing required
// field, a value out of range, an unknown enum value, an unknown property, a malformed path
// parameter), sent to a live catalogd with a valid token. Every exchange must hold:
//   - no 5xx;
//   - the status is one the document declares for the operation, and the body validates against
//     the schema declared for that status (apptest.Contract, kin-openapi's openapi3filter);
//   - a request the document refuses is not accepted (2xx/3xx) by the service;
//   - a request the document accepts is not refused with 400 for a reason the schema does not
//     state: each such refusal is a document defect, reported once per operation and reason.
func TestPropertyBasedPass(t *testing.T) {
	start := time.Now()
	_, raw := env.GetRaw(t, "/openapi.json")
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := env.TenantClient(t)
	f := &fuzzer{t: t, doc: doc, g: &gen{rnd: rand.New(rand.NewPCG(seed1, seed2))}, token: c.Token,
		http: &http.Client{Timeout: 30 * time.Second}, lists: map[string][]map[string]any{},
		counts: map[string]int{}, defects: map[string]string{}}
	contract := env.Contract(t)

	var ops []operation
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			var params []*openapi3.Parameter
			seen := map[string]bool{}
			for _, p := range append(append(openapi3.Parameters{}, op.Parameters...), item.Parameters...) {
				if p.Value != nil && !seen[p.Value.In+" "+p.Value.Name] {
					seen[p.Value.In+" "+p.Value.Name] = true
					params = append(params, p.Value)
				}
			}
			ops = append(ops, operation{method: method, path: path, op: op, params: params})
		}
	}
	// Creates of top-level resources first (the tenant starts empty: they make the resources the
	// other operations' paths then name), then reads, then the other writes, deletes last.
	rank := func(o operation) int {
		switch {
		case o.method == "POST" && !strings.Contains(o.path, "{"):
			return 0
		case o.method == "GET":
			return 1
		case o.method == "DELETE":
			return 3
		}
		return 2
	}
	sort.SliceStable(ops, func(i, j int) bool {
		if rank(ops[i]) != rank(ops[j]) {
			return rank(ops[i]) < rank(ops[j])
		}
		if ops[i].path != ops[j].path {
			return ops[i].path < ops[j].path
		}
		return ops[i].method < ops[j].method
	})
	if len(ops) < 250 {
		t.Fatalf("%d operations in the document", len(ops))
	}

	for _, o := range ops {
		var cases []request
		if ex := exampleBody(o.op); ex != nil {
			if r, ok := f.request(o, true); ok {
				r.body, r.kind = ex, "example"
				cases = append(cases, r)
			}
		}
		var valid []request
		for i := 0; i < validCases; i++ {
			r, ok := f.request(o, i < validCases-1)
			if !ok {
				f.misses = append(f.misses, o.method+" "+o.path+": no valid request generated")
				continue
			}
			valid = append(valid, r)
			cases = append(cases, r)
		}
		for i := 0; i < invalidCases && len(valid) > 0; i++ {
			if r, ok := f.mutate(o, valid[i%len(valid)]); ok {
				cases = append(cases, r)
			}
		}
		for _, r := range cases {
			f.send(contract, o, r)
		}
	}

	keys := make([]string, 0, len(f.counts))
	for k := range f.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var summary []string
	for _, k := range keys {
		summary = append(summary, fmt.Sprintf("%s %d", k, f.counts[k]))
	}
	t.Logf("%d operations, %d requests in %v: %s", len(ops), f.counts["sent"], time.Since(start).Round(time.Second), strings.Join(summary, ", "))
	for _, m := range f.misses {
		t.Logf("generator: %s", m)
	}
	defects := make([]string, 0, len(f.defects))
	for k := range f.defects {
		defects = append(defects, k)
	}
	sort.Strings(defects)
	for _, k := range defects {
		t.Errorf("document defect: the document accepts the request but the service refuses it with 400: %s\n%s", k, f.defects[k])
	}
	// The pass reached every operation, and most of them with valid requests.
	if f.counts["sent"] < 4*len(ops) || f.counts["valid"] < 2*len(ops) {
		t.Errorf("too few requests: %v", f.counts)
	}
}

type request struct {
	kind   string // "example", "valid", or the mutation
	path   string // resolved, with the query
	header http.Header
	body   any // nil: no body
	hasURL bool
	query  url.Values
}

func exampleBody(op *openapi3.Operation) any {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	mt := op.RequestBody.Value.Content.Get("application/json")
	if mt == nil {
		return nil
	}
	if mt.Example != nil {
		return mt.Example
	}
	for _, ex := range mt.Examples {
		if ex.Value != nil && ex.Value.Value != nil {
			return ex.Value.Value
		}
	}
	return nil
}

// request is a valid request for o: path parameters of resources that exist when real (looked up
// through the collection the path continues), generated otherwise.
func (f *fuzzer) request(o operation, real bool) (request, bool) {
	r := request{kind: "valid", header: http.Header{}, query: url.Values{}}
	tmpl := strings.Split(o.path, "/")
	segs := strings.Split(o.path, "/")
	inPath := map[string]string{} // the path parameters' values, by name
	lastParam := ""
	for i, seg := range tmpl {
		if !strings.HasPrefix(seg, "{") {
			continue
		}
		name := strings.Trim(seg, "{}")
		var p *openapi3.Parameter
		for _, x := range o.params {
			if x.In == "path" && x.Name == name {
				p = x
			}
		}
		if p == nil {
			return r, false
		}
		v := ""
		if real {
			v = f.existing(strings.Join(tmpl[:i], "/"), strings.Join(segs[:i], "/"), name)
		}
		if v == "" {
			x, ok := f.g.value(p.Schema, 0)
			if !ok {
				return r, false
			}
			v = fmt.Sprint(x)
		}
		segs[i] = url.PathEscape(v)
		inPath[name] = v
		lastParam = name
	}
	r.path = strings.Join(segs, "/")
	for _, p := range o.params {
		switch p.In {
		case "query":
			// cursor is opaque (pagination.nextCursor of a previous page, unchanged): nothing
			// can be generated for it.
			if p.Name == "cursor" || (!p.Required && !f.g.chance(0.25)) {
				continue
			}
			v, ok := f.g.value(p.Schema, 0)
			if !ok {
				if p.Required {
					return r, false
				}
				continue
			}
			addQuery(r.query, p.Name, v)
		case "header":
			if !p.Required && !f.g.chance(0.15) {
				continue
			}
			v, ok := f.g.value(p.Schema, 0)
			if !ok || v == nil {
				continue
			}
			r.header.Set(p.Name, fmt.Sprint(v))
		}
	}
	if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
		if mt := rb.Value.Content.Get("application/json"); mt != nil {
			v, ok := f.g.value(mt.Schema, 0)
			if !ok {
				return r, false
			}
			// A body field the path names (a PATCH body's uuid, an upload's assetUuid) is
			// optional and, when given, the path's value (stated in its description).
			if m, isObject := v.(map[string]any); isObject {
				for name, pv := range inPath {
					if _, given := m[name]; given {
						m[name] = pv
					}
				}
				// A PATCH body's uuid is the item's: the path's last parameter, whatever its name.
				if _, given := m["uuid"]; given && o.method == "PATCH" && lastParam != "" {
					m["uuid"] = inPath[lastParam]
				}
			}
			r.body = v
		}
	}
	return r, true
}

func addQuery(q url.Values, name string, v any) {
	switch x := v.(type) {
	case nil:
	case []any:
		for _, e := range x {
			q.Add(name, fmt.Sprint(e))
		}
	case map[string]any:
		b, _ := json.Marshal(x)
		q.Set(name, string(b))
	case float64:
		q.Set(name, fmt.Sprint(x))
	default:
		q.Set(name, fmt.Sprint(x))
	}
}

// existing is the key (param, else "uuid") of one item of the collection at path (resolved), when
// the document lists it (template has a GET), else "".
func (f *fuzzer) existing(template, path, param string) string {
	item := f.doc.Paths.Value(template)
	if item == nil || item.Get == nil {
		return ""
	}
	items, ok := f.lists[path]
	if !ok {
		req, _ := http.NewRequest("GET", env.BaseURL+path+"?size=20", nil)
		req.Header.Set("Authorization", "Bearer "+f.token)
		if res, err := f.http.Do(req); err == nil {
			var page struct {
				Items []map[string]any `json:"items"`
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			_ = json.Unmarshal(b, &page)
			items = page.Items
		}
		f.lists[path] = items
	}
	if len(items) == 0 {
		return ""
	}
	it := items[f.g.rnd.IntN(len(items))]
	for _, k := range []string{param, "uuid", "code", "name"} {
		if s, ok := it[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// mutate makes one defect in a copy of a valid request; ok is false when none applies.
func (f *fuzzer) mutate(o operation, base request) (request, bool) {
	r := base
	r.header = base.header.Clone()
	r.query = url.Values{}
	for k, v := range base.query {
		r.query[k] = append([]string(nil), v...)
	}
	r.body = deepCopy(base.body)
	var options []func() bool
	// A body property: missing when required, of a wrong type, an unknown enum value, out of range,
	// or an unknown property.
	if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
		if mt := rb.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			s := mt.Schema.Value
			body, isObj := r.body.(map[string]any)
			if isObj {
				for _, req := range s.Required {
					options = append(options, func() bool { delete(body, req); r.kind = "missing required " + req; return true })
				}
				names := make([]string, 0, len(s.Properties))
				for n := range s.Properties {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					p := s.Properties[n].Value
					if p == nil || p.ReadOnly {
						continue
					}
					if w, ok := wrongType(p); ok {
						options = append(options, func() bool { body[n] = w; r.kind = "wrong type " + n; return true })
					}
					if len(p.Enum) > 0 {
						if _, isStr := p.Enum[0].(string); isStr {
							options = append(options, func() bool { body[n] = "fz-not-a-value"; r.kind = "unknown enum " + n; return true })
						}
					}
					if p.MaxLength != nil && *p.MaxLength < 5000 && p.Type != nil && p.Type.Is("string") {
						options = append(options, func() bool {
							body[n] = strings.Repeat("a", int(*p.MaxLength)+1)
							r.kind = "too long " + n
							return true
						})
					}
					if p.Max != nil && p.Type != nil && (p.Type.Is("integer") || p.Type.Is("number")) {
						options = append(options, func() bool { body[n] = int64(*p.Max) + 1; r.kind = "over maximum " + n; return true })
					}
					if p.Min != nil && p.Type != nil && (p.Type.Is("integer") || p.Type.Is("number")) {
						options = append(options, func() bool { body[n] = int64(*p.Min) - 1; r.kind = "under minimum " + n; return true })
					}
				}
				if s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has {
					options = append(options, func() bool { body["fzUnknown"] = 1; r.kind = "unknown property"; return true })
				}
			} else if w, ok := wrongType(s); ok {
				options = append(options, func() bool { r.body = w; r.kind = "wrong body type"; return true })
			}
		}
	}
	// A query parameter of a typed schema given text it does not allow.
	for _, p := range o.params {
		if p.In != "query" || p.Schema == nil || p.Schema.Value == nil {
			continue
		}
		s := p.Schema.Value
		if s.Type != nil && s.Type.Is("array") && s.Items != nil && s.Items.Value != nil {
			s = s.Items.Value
		}
		typed := len(s.Enum) > 0 || s.Format == "uuid" || s.Format == "date-time" ||
			(s.Type != nil && (s.Type.Is("integer") || s.Type.Is("boolean") || s.Type.Is("number")))
		if typed {
			options = append(options, func() bool { r.query.Set(p.Name, "fz-bad"); r.kind = "bad query " + p.Name; return true })
		}
	}
	// A path parameter that is not a uuid.
	for _, p := range o.params {
		if p.In == "path" && p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Format == "uuid" {
			options = append(options, func() bool {
				segs := strings.Split(o.path, "/")
				real := strings.Split(base.path, "/")
				for i, s := range segs {
					if s == "{"+p.Name+"}" && i < len(real) {
						real[i] = "not-a-uuid"
					}
				}
				r.path = strings.Join(real, "/")
				r.kind = "bad path " + p.Name
				return true
			})
		}
	}
	if len(options) == 0 {
		return r, false
	}
	return r, options[f.g.rnd.IntN(len(options))]()
}

func deepCopy(v any) any {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func (f *fuzzer) send(contract *apptest.Contract, o operation, r request) {
	t := f.t
	t.Helper()
	var payload []byte
	var rdr io.Reader
	if r.body != nil || (o.op.RequestBody != nil && r.kind != "example") {
		payload, _ = json.Marshal(r.body)
		rdr = bytes.NewReader(payload)
	}
	target := env.BaseURL + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	req, err := http.NewRequestWithContext(context.Background(), o.method, target, rdr)
	if err != nil {
		t.Errorf("%s %s: %v", o.method, target, err)
		return
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+f.token)
	if rdr != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := f.http.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", o.method, target, err)
		return
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	f.counts["sent"]++
	resp := apptest.Resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &resp.Body); err != nil {
			t.Errorf("%s %s → %d: the body is not JSON: %.300s", o.method, target, res.StatusCode, raw)
			return
		}
	}
	what := fmt.Sprintf("%s %s (%s)", o.method, req.URL.RequestURI(), r.kind)
	if res.StatusCode >= 500 {
		t.Errorf("%s → %d: %.600s", what, res.StatusCode, raw)
	}
	req.Body = io.NopCloser(bytes.NewReader(payload))
	reqErr := contract.Check(t, req, payload, resp)
	intended := r.kind == "valid" || r.kind == "example"
	switch {
	case intended && reqErr != nil:
		f.counts["generator-invalid"]++
		if len(f.misses) < 20 {
			f.misses = append(f.misses, fmt.Sprintf("%s: the document refuses the generated request: %.300s", what, reqErr))
		}
	case intended:
		f.counts["valid"]++
		if res.StatusCode == http.StatusBadRequest {
			if f.statedInProse(o, resp) {
				f.counts["refused-by-prose-rule"]++
				break
			}
			key := o.method + " " + o.path + " → " + apptest.ProblemSummary(resp)
			if _, dup := f.defects[key]; !dup {
				f.defects[key] = fmt.Sprintf("%s body %.400s → %.400s", what, payload, raw)
			}
		}
	case reqErr != nil:
		f.counts["invalid"]++
	default:
		f.counts["mutation-still-valid"]++
	}
	f.counts[fmt.Sprintf("%dxx", res.StatusCode/100)]++
}

// proseRule is a rule of the service that JSON Schema cannot state without conditionals over other
// fields (if/then, which the Go generators the document must also serve do not read): the document
// states it in the description of the schema or property it names, and a refusal for it is not a
// document defect. Each is checked to be stated (the phrase is in that description).
type proseRule struct {
	op, field *regexp.Regexp // the operation ("POST /v1/products") and the refused field
	message   string         // in the refusal's message
	schema    string         // the component whose description (or property's) states it
	property  string         // "" for the schema's own description
	phrase    string
}

var proseRules = []proseRule{
	{regexp.MustCompile(`^POST /v1/products(/bulk)?$`), regexp.MustCompile(`^(\[\d+\]\.)?familyUuid$`), "is required for a variant",
		"ProductCreate", "familyUuid", "Required for variant_parent and variant"},
	{regexp.MustCompile(`^POST /v1/products(/bulk)?$`), regexp.MustCompile(`^(\[\d+\]\.)?parentUuid$`), "is required for a variant",
		"ProductCreate", "parentUuid", "Required for variant"},
	{regexp.MustCompile(`^POST /v1/products(/bulk)?$`), regexp.MustCompile(`^(\[\d+\]\.)?parentUuid$`), "must be null for a",
		"ProductCreate", "parentUuid", "must be absent for the others"},
	{regexp.MustCompile(`^PATCH /v1/products/`), regexp.MustCompile(`^(\[\d+\]\.)?parentUuid$`), "must be null for a",
		"ProductUpdate", "parentUuid", "must stay null for the others"},
	{regexp.MustCompile(`^PATCH /v1/products/`), regexp.MustCompile(`^(\[\d+\]\.)?familyUuid$`), "",
		"ProductUpdate", "familyUuid", "fixed for the other kinds"},
	{regexp.MustCompile(`^PATCH /v1/products/`), regexp.MustCompile(`^(\[\d+\]\.)?kind$`), "",
		"ProductUpdate", "kind", "Fixed after creation"},
	{regexp.MustCompile(`^(POST|PATCH) /v1/input-types`), regexp.MustCompile(`^(\[\d+\]\.)?constraints\.\w+$`), "does not apply to data type",
		"InputTypeConstraints", "", "Each applies to some data types only"},
	{regexp.MustCompile(`^(POST|PATCH) /v1/input-types`), regexp.MustCompile(`^(\[\d+\]\.)?constraints\.(min|max|allowedValues(\[\d+\])?)$`), "must be",
		"InputTypeConstraints", "", "the data type's form"},
	{regexp.MustCompile(`^(POST|PATCH) /v1/input-types`), regexp.MustCompile(`^(\[\d+\]\.)?constraints\.allowedValues$`), "must hold 1 to 1000 values",
		"InputTypeConstraints", "", "allowedValues (1 to 1000 distinct strings"},
	{regexp.MustCompile(`^PATCH /v1/product-relation-types/`), regexp.MustCompile(`^(\[\d+\]\.)?direction$`), "is fixed after creation",
		"ProductRelationTypeUpdate", "direction", "Fixed after creation"},
	{regexp.MustCompile(`^POST /v1/families/\{familyUuid\}/attributes`), regexp.MustCompile(`^(\[\d+\]\.)?isVariantAxis$`), "appliesTo must be variant or both",
		"FamilyAttributeCreate", "isVariantAxis", "true needs appliesTo variant or both"},
	{regexp.MustCompile(`^POST /v1/locales/bulk$`), regexp.MustCompile(`^\[\d+\]\.isDefault$`), "only one item may set isDefault",
		"LocaleCreate", "isDefault", "In a bulk create, only one item may set it"},
	{regexp.MustCompile(`^PATCH /v1/locales/bulk$`), regexp.MustCompile(`^\[\d+\]\.isDefault$`), "only one item may set isDefault",
		"LocaleUpdate", "isDefault", "In a bulk update, only one item may set it"},
	{regexp.MustCompile(`^POST /v1/exports$`), regexp.MustCompile(`^types$`), "a CSV export has products only",
		"ExportCreate", "types", "CSV: products only"},
	{regexp.MustCompile(`^POST /v1/imports$`), regexp.MustCompile(`^sizeBytes$`), "but the content has",
		"ImportCreate", "sizeBytes", "the size of content"},
	{regexp.MustCompile(`^POST /v1/imports$`), regexp.MustCompile(`^sizeBytes$`), "is required to upload a file",
		"ImportCreate", "sizeBytes", "required without content"},
	{regexp.MustCompile(`^POST /v1/imports$`), regexp.MustCompile(`^checksumSha256$`), "does not match the content's SHA-256",
		"ImportCreate", "checksumSha256", "it must be the SHA-256 of content"},
	{regexp.MustCompile(`^POST /v1/families/\{familyUuid\}/asset-types`), regexp.MustCompile(`^(\[\d+\]\.)?maxCount$`), "must be at least minCount",
		"FamilyAssetTypeCreate", "maxCount", "otherwise at least minCount"},
	{regexp.MustCompile(`^POST /v1/families/\{familyUuid\}/relation-types`), regexp.MustCompile(`^(\[\d+\]\.)?maxCount$`), "must be at least minCount",
		"FamilyRelationTypeCreate", "maxCount", "otherwise at least minCount"},
	{regexp.MustCompile(`^PATCH /v1/families/\{familyUuid\}/asset-types`), regexp.MustCompile(`^(\[\d+\]\.)?(max|min)Count$`), "Count",
		"FamilyAssetTypeUpdate", "maxCount", "otherwise at least minCount"},
	{regexp.MustCompile(`^PATCH /v1/families/\{familyUuid\}/relation-types`), regexp.MustCompile(`^(\[\d+\]\.)?(max|min)Count$`), "Count",
		"FamilyRelationTypeUpdate", "maxCount", "otherwise at least minCount"},
}

// statedInProse: every error of the refusal is one of proseRules (and the document states it).
func (f *fuzzer) statedInProse(o operation, r apptest.Resp) bool {
	errs, _ := r.Obj()["errors"].([]any)
	if len(errs) == 0 {
		return false
	}
	for _, e := range errs {
		m, _ := e.(map[string]any)
		field, _ := m["field"].(string)
		msg, _ := m["message"].(string)
		var rule *proseRule
		for i := range proseRules {
			p := &proseRules[i]
			if p.op.MatchString(o.method+" "+o.path) && p.field.MatchString(field) && strings.Contains(msg, p.message) {
				rule = p
			}
		}
		if rule == nil {
			return false
		}
		s := f.doc.Components.Schemas[rule.schema]
		desc := ""
		if s != nil && s.Value != nil {
			desc = s.Value.Description
			if rule.property != "" {
				desc = ""
				if p := s.Value.Properties[rule.property]; p != nil && p.Value != nil {
					desc = p.Value.Description
				}
			}
		}
		if !strings.Contains(strings.Join(strings.Fields(desc), " "), rule.phrase) { // line breaks as spaces
			f.t.Errorf("the service refuses %s (%s: %s), a rule the document must state: %s.%s's description lacks %q: %q",
				o.method+" "+o.path, field, msg, rule.schema, rule.property, rule.phrase, desc)
		}
	}
	return true
}
