package docs

import (
	"html/template"
	"sort"
	"strconv"
	"strings"
)

// The view model: what the template shows, computed once from the document.

type page struct {
	Title, Version, OpenAPI string
	Summary                 string
	Description             template.HTML
	Terms, Contact, License *link
	ExternalDocs            *link
	SpecURL                 string
	Servers                 []server
	Schemes                 []scheme
	Scopes                  []scopeUse
	ScopeDescriptions       bool
	Groups                  []*group
	Models                  []model  // every schema, in the document's order
	SharedModels            []*model // the schemas more than one group uses (or none), on the Schemas page
	Base                    string
	SharedResponses         []sharedResponse
	OpCount                 int
	CSS                     template.CSS
	JS                      template.JS
}

type link struct{ Text, URL string }

type server struct {
	URL         string
	Description template.HTML
	Variables   []serverVar
}

type serverVar struct {
	Name, Default string
	Enum          []string
	Description   template.HTML
}

type scheme struct {
	Name, Kind  string
	Description template.HTML
	Details     []constraint
	Scopes      []scopeUse
}

type scopeUse struct {
	Name        string
	Description template.HTML
	Ops         int
}

type group struct {
	ID, Name     string
	Slug, Href   string   // its page: base/Slug
	Models       []*model // the schemas only this group's operations use, shown on its page
	Description  template.HTML
	ExternalDocs *link
	Ops          []*operation
}

type operation struct {
	ID, Method, Path, Title string
	Href                    string // its anchor on its group's page
	OperationID             string
	Webhook, Deprecated     bool
	PathHTML                template.HTML
	Description             template.HTML
	Auth                    []authOption
	NoAuth                  bool
	Scopes                  []string
	ParamGroups             []paramGroup
	Body                    *requestBody
	Responses               []response
	Samples                 []sample
	Servers                 []server
	Filter                  string
	ExternalDocs            *link
}

type authOption struct {
	Label string
	Empty bool // {} in a security requirement: the call may also be anonymous
}

type paramGroup struct {
	Title  string
	Params []param
}

type param struct {
	Name, In             string
	Required, Deprecated bool
	Type                 template.HTML
	Description          template.HTML
	Enum                 []string
	Constraints          []constraint
	Style                string
}

type requestBody struct {
	Required    bool
	Description template.HTML
	Media       []media
}

type media struct {
	Type     string
	Schema   template.HTML
	Block    *block
	Examples []sample
}

type response struct {
	Status, Class  string
	Description    template.HTML
	Media          []media
	Headers        []header
	Link, LinkName string // the Shared responses entry this response refers to
}

type sharedResponse struct {
	ID, Name, Href string
	Response       response
	Samples        []sample
}

type header struct {
	Name        string
	Required    bool
	Type        template.HTML
	Description template.HTML
}

type sample struct {
	Label, Lang string
	Code        template.HTML // escaped for <pre>
	Note        template.HTML
	raw         string // the JSON of an example, for the curl line
}

type model struct {
	ID, Name string
	Page     string // the slug of the page the schema is shown on
	Href     string
	Block    *block
	ref      string
}

type renderer struct {
	root *object
	base string // the path the pages are served under: base (the index) and base/<slug>
	// pageOf: the page (slug; "" for the index) each anchor is on
	pageOf   map[string]string
	modelIDs map[string]string
	// responseIDs: anchors of the entries of #/components/responses
	responseIDs map[string]string
	ids         map[string]bool
	scopes      map[string]*scopeUse
	order       []string
}

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// methodOrder is the order operations on one path are shown in: reads, then writes, then the rest.
var methodOrder = map[string]int{"get": 0, "post": 1, "put": 2, "patch": 3, "delete": 4, "head": 5, "options": 6, "trace": 7}

func build(root *object, specURL, base string) *page {
	r := &renderer{root: root, base: base, modelIDs: map[string]string{}, responseIDs: map[string]string{},
		ids: map[string]bool{}, pageOf: map[string]string{}, scopes: map[string]*scopeUse{}}
	info := root.obj("info")
	p := &page{Title: info.str("title"), Version: info.str("version"), OpenAPI: root.str("openapi"),
		Summary: info.str("summary"), Description: markdown(info.str("description")), SpecURL: specURL, Base: base}
	if p.Title == "" {
		p.Title = "API"
	}
	if t := info.str("termsOfService"); t != "" && safeURL(t) {
		p.Terms = &link{Text: "Terms of service", URL: t}
	}
	if c := info.obj("contact"); c != nil {
		text := c.str("name")
		u := c.str("url")
		if e := c.str("email"); e != "" && u == "" {
			u = "mailto:" + e
			if text == "" {
				text = e
			}
		}
		if text == "" {
			text = u
		}
		if text != "" {
			p.Contact = &link{Text: text, URL: urlIfSafe(u)}
		}
	}
	if l := info.obj("license"); l != nil && l.str("name") != "" {
		u := l.str("url")
		if u == "" && l.str("identifier") != "" {
			u = "https://spdx.org/licenses/" + l.str("identifier") + ".html"
		}
		p.License = &link{Text: l.str("name"), URL: urlIfSafe(u)}
	}
	p.ExternalDocs = externalDocs(root.obj("externalDocs"))

	// Anchors: operations first (their operationId is the anchor), then tags and schemas.
	type found struct {
		op      *object
		item    *object
		method  string
		path    string
		webhook bool
		pathIdx int
	}
	var ops []found
	collect := func(container *object, webhook bool) {
		if container == nil {
			return
		}
		for i, path := range container.keys {
			item, _ := r.deref(container.get(path)).(*object)
			if item == nil {
				continue
			}
			for _, m := range methods {
				if op := item.obj(m); op != nil {
					ops = append(ops, found{op: op, item: item, method: m, path: path, webhook: webhook, pathIdx: i})
				}
			}
		}
	}
	collect(root.obj("paths"), false)
	collect(root.obj("webhooks"), true)
	sort.SliceStable(ops, func(i, j int) bool {
		if ops[i].webhook != ops[j].webhook {
			return !ops[i].webhook
		}
		if ops[i].pathIdx != ops[j].pathIdx {
			return ops[i].pathIdx < ops[j].pathIdx
		}
		return methodOrder[ops[i].method] < methodOrder[ops[j].method]
	})
	opIDs := make([]string, len(ops))
	for i, f := range ops {
		id := f.op.str("operationId")
		if id == "" {
			id = f.method + "-" + f.path
			if f.webhook {
				id = "webhook-" + id
			}
		}
		opIDs[i] = r.anchor(id)
	}
	if schemas := root.obj("components").obj("schemas"); schemas != nil {
		for _, name := range schemas.keys {
			ref := "#/components/schemas/" + escapePointer(name)
			id := r.anchor("schema-" + name)
			r.modelIDs[ref] = id
			p.Models = append(p.Models, model{ID: id, Name: name, ref: ref})
		}
	}

	if rs := root.obj("components").obj("responses"); rs != nil {
		for _, name := range rs.keys {
			id := r.anchor("response-" + name)
			r.responseIDs["#/components/responses/"+escapePointer(name)] = id
			r.pageOf[id] = responsesPage
		}
	}

	// Groups: the declared tags in their order, then tags only operations name, then the untagged.
	// Each group is a page of its own (its slug), so every anchor is placed on its page before any
	// operation or schema is rendered: links are written with the page they point into.
	groups := map[string]*group{}
	var order []string
	slugs := map[string]bool{responsesPage: true, schemasPage: true}
	addGroup := func(key, id, display string, t *object) *group {
		if g, ok := groups[key]; ok {
			return g
		}
		if t != nil && t.str("x-displayName") != "" {
			display = t.str("x-displayName")
		}
		g := &group{Name: display, ID: r.anchor(id), Description: markdown(t.str("description")),
			ExternalDocs: externalDocs(t.obj("externalDocs")), Slug: pageSlug(display, slugs)}
		g.Href = r.base + "/" + g.Slug
		r.pageOf[g.ID] = g.Slug
		groups[key] = g
		order = append(order, key)
		return g
	}
	for _, t := range root.arr("tags") {
		if to, ok := t.(*object); ok && to.str("name") != "" {
			addGroup(to.str("name"), "tag-"+to.str("name"), to.str("name"), to)
		}
	}
	opGroup := make([]*group, len(ops))
	for i, f := range ops {
		tags := f.op.strs("tags")
		name := ""
		if len(tags) > 0 {
			name = tags[0]
		}
		switch {
		case name != "":
			opGroup[i] = addGroup(name, "tag-"+name, name, nil)
		case f.webhook: // keys no tag can have
			opGroup[i] = addGroup("\x00webhooks", "webhooks", "Webhooks", nil)
		default:
			opGroup[i] = addGroup("\x00other", "other-operations", "Other operations", nil)
		}
		r.pageOf[opIDs[i]] = opGroup[i].Slug
	}
	// A schema is shown on the page of the one group whose operations use it (directly or through
	// other schemas, parameters, bodies and responses), else on the shared Schemas page.
	users := map[string]map[*group]bool{}
	for i, f := range ops {
		seen := map[string]bool{}
		r.refsIn(f.op, seen)
		r.refsIn(f.item.get("parameters"), seen)
		for ref := range seen {
			if users[ref] == nil {
				users[ref] = map[*group]bool{}
			}
			users[ref][opGroup[i]] = true
		}
	}
	for i := range p.Models {
		m := &p.Models[i]
		m.Page = schemasPage
		if len(users[m.ref]) == 1 {
			for g := range users[m.ref] {
				m.Page = g.Slug
				g.Models = append(g.Models, m)
			}
		} else {
			p.SharedModels = append(p.SharedModels, m)
		}
		r.pageOf[m.ID] = m.Page
		m.Href = r.href(m.ID)
	}

	for i, f := range ops {
		op := r.operation(f.op, f.item, f.method, f.path, f.webhook, opIDs[i])
		op.Href = r.href(op.ID)
		opGroup[i].Ops = append(opGroup[i].Ops, op)
		p.OpCount++
	}
	for _, name := range order {
		if g := groups[name]; len(g.Ops) > 0 {
			for _, op := range g.Ops {
				op.Filter = strings.ToLower(strings.Join([]string{g.Name, op.Title, op.Method, op.Path, op.OperationID}, " "))
			}
			p.Groups = append(p.Groups, g)
		}
	}

	for i := range p.Models {
		s := root.obj("components").obj("schemas").get(p.Models[i].Name)
		p.Models[i].Block = r.schemaBlock(s)
	}
	p.SharedResponses = r.sharedResponses()
	for i := range p.SharedResponses {
		p.SharedResponses[i].Href = r.href(p.SharedResponses[i].ID)
	}
	p.Servers = r.servers(root.arr("servers"))
	p.Schemes = r.schemes()
	for _, name := range r.order {
		p.Scopes = append(p.Scopes, *r.scopes[name])
		p.ScopeDescriptions = p.ScopeDescriptions || r.scopes[name].Description != ""
	}
	return p
}

func urlIfSafe(u string) string {
	if safeURL(u) {
		return u
	}
	return ""
}

func externalDocs(o *object) *link {
	if o == nil || !safeURL(o.str("url")) {
		return nil
	}
	text := o.str("description")
	if text == "" {
		text = "External documentation"
	}
	return &link{Text: text, URL: o.str("url")}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// anchor makes id unique on the page (and free of spaces, which fragments cannot carry).
// The pages besides the index and the groups' pages.
const (
	responsesPage = "responses"
	schemasPage   = "schemas"
)

// pageSlug is a group's page name: its name in lower case, words joined by "-", only letters, digits
// and "-" kept; unique among taken (a second "Tags" is "tags-2").
func pageSlug(name string, taken map[string]bool) string {
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(name)) {
		var part strings.Builder
		for _, c := range w {
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' {
				part.WriteRune(c)
			}
		}
		if part.Len() > 0 {
			if b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteString(part.String())
		}
	}
	slug := b.String()
	if slug == "" {
		slug = "group"
	}
	base, n := slug, 1
	for taken[slug] {
		n++
		slug = base + "-" + strconv.Itoa(n)
	}
	taken[slug] = true
	return slug
}

// href is the link to anchor id on the page it is on.
func (r *renderer) href(id string) string {
	if page := r.pageOf[id]; page != "" {
		return r.base + "/" + page + "#" + id
	}
	return r.base + "#" + id
}

// refsIn adds to seen the local references of v and, transitively, of what they refer to.
func (r *renderer) refsIn(v any, seen map[string]bool) {
	switch x := v.(type) {
	case *object:
		for _, k := range x.keys {
			if ref, ok := x.get(k).(string); ok && k == "$ref" {
				if !seen[ref] {
					seen[ref] = true
					if target, ok := r.resolve(ref); ok {
						r.refsIn(target, seen)
					}
				}
				continue
			}
			r.refsIn(x.get(k), seen)
		}
	case []any:
		for _, e := range x {
			r.refsIn(e, seen)
		}
	}
}

func (r *renderer) anchor(id string) string {
	id = strings.Join(strings.Fields(id), "-")
	if id == "" {
		id = "section"
	}
	base, n := id, 1
	for r.ids[id] {
		n++
		id = base + "-" + strconv.Itoa(n)
	}
	r.ids[id] = true
	return id
}

func (r *renderer) operation(op, item *object, method, path string, webhook bool, id string) *operation {
	o := &operation{ID: id, Method: strings.ToUpper(method), Path: path, OperationID: op.str("operationId"),
		Webhook: webhook, Deprecated: op.flag("deprecated")}
	o.Title = firstNonEmpty(op.str("summary"), op.str("operationId"), o.Method+" "+path)
	o.PathHTML = pathHTML(path, webhook)
	desc := op.str("description")
	if desc == "" && op.str("summary") == "" {
		desc = item.str("description")
	}
	o.Description = markdown(desc)
	o.ExternalDocs = externalDocs(op.obj("externalDocs"))
	r.security(o, op)
	if ss := op.arr("servers"); len(ss) > 0 {
		o.Servers = r.servers(ss)
	} else if ss := item.arr("servers"); len(ss) > 0 {
		o.Servers = r.servers(ss)
	}
	o.ParamGroups = r.params(item.arr("parameters"), op.arr("parameters"))
	if rb, ok := r.deref(op.get("requestBody")).(*object); ok {
		o.Body = &requestBody{Required: rb.flag("required"), Description: markdown(rb.str("description"))}
		o.Body.Media = r.mediaBody(rb.obj("content"))
		for _, m := range o.Body.Media {
			for _, ex := range m.Examples {
				ex.Label = "Request" + suffix(ex.Label)
				o.Samples = append(o.Samples, ex)
			}
		}
	}
	if !webhook {
		o.Samples = append([]sample{r.curl(o, op)}, o.Samples...)
	}
	o.Responses = r.responses(op.obj("responses"))
	for _, resp := range o.Responses {
		if resp.Link != "" {
			continue // its examples are in the Shared responses section
		}
		for _, m := range resp.Media {
			for _, ex := range m.Examples {
				ex.Label = "Response " + resp.Status + suffix(ex.Label)
				o.Samples = append(o.Samples, ex)
			}
		}
	}
	return o
}

func suffix(label string) string {
	if label == "" {
		return ""
	}
	return " · " + label
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// codeHTML escapes text for a <pre> element: only &, < and > need it there (quotes, frequent in
// JSON, are left as they are, which keeps the page smaller).
func codeHTML(s string) template.HTML {
	return template.HTML(strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s))
}

// pathHTML marks the {parameters} of a path template.
func pathHTML(path string, webhook bool) template.HTML {
	if webhook {
		return template.HTML(esc(path))
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(path, '{')
		j := strings.IndexByte(path[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(esc(path))
			break
		}
		j += i
		b.WriteString(esc(path[:i]) + `<span class="pp">` + esc(path[i:j+1]) + `</span>`)
		path = path[j+1:]
	}
	return template.HTML(b.String())
}

// security reads the operation's requirement (or the document's), and x-required-scope.
func (r *renderer) security(o *operation, op *object) {
	var reqs []any
	declared := false
	if op.has("security") {
		reqs, declared = op.arr("security"), true
	} else if r.root.has("security") {
		reqs, declared = r.root.arr("security"), true
	}
	var scopes []string
	addScope := func(s string) {
		if s != "" && !contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	for _, req := range reqs {
		ro, ok := req.(*object)
		if !ok {
			continue
		}
		if len(ro.keys) == 0 {
			o.Auth = append(o.Auth, authOption{Label: "none", Empty: true})
			continue
		}
		var labels []string
		for _, name := range ro.keys {
			labels = append(labels, r.schemeLabel(name))
			for _, s := range ro.strs(name) {
				addScope(s)
			}
		}
		o.Auth = append(o.Auth, authOption{Label: strings.Join(labels, " + ")})
	}
	for _, s := range op.strs("x-required-scope") {
		addScope(s)
	}
	for _, s := range op.strs("x-required-scopes") {
		addScope(s)
	}
	o.NoAuth = declared && len(reqs) == 0
	o.Scopes = scopes
	for _, s := range scopes {
		u, ok := r.scopes[s]
		if !ok {
			u = &scopeUse{Name: s}
			r.scopes[s] = u
			r.order = append(r.order, s)
		}
		u.Ops++
	}
}

func (r *renderer) schemeLabel(name string) string {
	s, _ := r.deref(r.root.obj("components").obj("securitySchemes").get(name)).(*object)
	if s == nil {
		return name
	}
	return schemeKind(s)
}

func schemeKind(s *object) string {
	switch strings.ToLower(s.str("type")) {
	case "http":
		k := "HTTP " + s.str("scheme")
		if strings.EqualFold(s.str("scheme"), "bearer") {
			k = "Bearer token"
			if f := s.str("bearerFormat"); f != "" {
				k = "Bearer " + f
			}
		} else if strings.EqualFold(s.str("scheme"), "basic") {
			k = "HTTP Basic"
		}
		return k
	case "apikey":
		return "API key in " + s.str("in") + " " + s.str("name")
	case "oauth2":
		return "OAuth 2.0"
	case "openidconnect":
		return "OpenID Connect"
	case "mutualtls":
		return "Mutual TLS"
	}
	return firstNonEmpty(s.str("type"), "unknown")
}

func (r *renderer) schemes() []scheme {
	ss := r.root.obj("components").obj("securitySchemes")
	if ss == nil {
		return nil
	}
	var out []scheme
	for _, name := range ss.keys {
		s, _ := r.deref(ss.get(name)).(*object)
		if s == nil {
			continue
		}
		sc := scheme{Name: name, Kind: schemeKind(s), Description: markdown(s.str("description"))}
		switch strings.ToLower(s.str("type")) {
		case "http":
			sc.Details = append(sc.Details, constraint{Label: "Header", Code: "Authorization: " + headerScheme(s.str("scheme")) + " …"})
			if f := s.str("bearerFormat"); f != "" {
				sc.Details = append(sc.Details, constraint{Label: "Format", Code: f})
			}
		case "apikey":
			sc.Details = append(sc.Details, constraint{Label: "In " + s.str("in"), Code: s.str("name")})
		case "openidconnect":
			sc.Details = append(sc.Details, constraint{Label: "Discovery", Code: s.str("openIdConnectUrl")})
		case "oauth2":
			flows := s.obj("flows")
			if flows == nil {
				break
			}
			for _, fname := range flows.keys {
				f := flows.obj(fname)
				for _, k := range []string{"authorizationUrl", "tokenUrl", "refreshUrl"} {
					if u := f.str(k); u != "" {
						sc.Details = append(sc.Details, constraint{Label: fname + " " + k, Code: u})
					}
				}
				if scopes := f.obj("scopes"); scopes != nil {
					for _, k := range scopes.keys {
						sc.Scopes = append(sc.Scopes, scopeUse{Name: k, Description: markdown(scopes.str(k))})
						if u, ok := r.scopes[k]; ok && u.Description == "" {
							u.Description = markdown(scopes.str(k))
						}
					}
				}
			}
		}
		out = append(out, sc)
	}
	return out
}

func headerScheme(s string) string {
	if s == "" {
		return "Bearer"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (r *renderer) servers(list []any) []server {
	var out []server
	for _, s := range list {
		so, _ := s.(*object)
		if so == nil {
			continue
		}
		sv := server{URL: so.str("url"), Description: markdown(so.str("description"))}
		if vars := so.obj("variables"); vars != nil {
			for _, name := range vars.keys {
				v := vars.obj(name)
				sv.Variables = append(sv.Variables, serverVar{Name: name, Default: v.str("default"), Enum: v.strs("enum"),
					Description: markdown(v.str("description"))})
			}
		}
		out = append(out, sv)
	}
	return out
}

var inOrder = map[string]int{"path": 0, "query": 1, "header": 2, "cookie": 3}
var inTitle = map[string]string{"path": "Path parameters", "query": "Query parameters", "header": "Header parameters",
	"cookie": "Cookie parameters"}

// params merges the path item's parameters with the operation's (the operation's win on the same
// name and location) and groups them by location.
func (r *renderer) params(itemParams, opParams []any) []paramGroup {
	type key struct{ name, in string }
	var list []*object
	index := map[key]int{}
	for _, src := range [][]any{itemParams, opParams} {
		for _, raw := range src {
			po, _ := r.deref(raw).(*object)
			if po == nil {
				continue
			}
			if ref := po.str("$ref"); ref != "" { // defined where this page cannot look
				po = &object{keys: []string{"name", "description"}, vals: map[string]any{"name": refName(ref),
					"description": "Defined by `" + ref + "`, which this document does not contain."}}
			}
			k := key{po.str("name"), po.str("in")}
			if i, ok := index[k]; ok {
				list[i] = po
				continue
			}
			index[k] = len(list)
			list = append(list, po)
		}
	}
	groups := map[string]*paramGroup{}
	var order []string
	for _, po := range list {
		in := po.str("in")
		g, ok := groups[in]
		if !ok {
			title := inTitle[in]
			if title == "" {
				title = "Parameters (" + firstNonEmpty(in, "unknown location") + ")"
			}
			g = &paramGroup{Title: title}
			groups[in] = g
			order = append(order, in)
		}
		schema := po.get("schema")
		if schema == nil {
			if c := po.obj("content"); c != nil && len(c.keys) > 0 {
				schema = c.obj(c.keys[0]).get("schema")
			}
		}
		desc := r.description(paramDesc(po, schema))
		pr := param{Name: po.str("name"), In: in, Required: po.flag("required") || in == "path",
			Deprecated: po.flag("deprecated"), Type: r.typeHTML(schema), Description: markdown(desc),
			Enum: r.enumValues(schema), Constraints: r.constraints(schema)}
		if po.has("example") {
			pr.Constraints = append(pr.Constraints, constraint{Label: "example", Code: jsonText(po.get("example"))})
		} else if exs := po.obj("examples"); exs != nil && len(exs.keys) > 0 {
			if ex, ok := r.deref(exs.get(exs.keys[0])).(*object); ok && ex.has("value") {
				pr.Constraints = append(pr.Constraints, constraint{Label: "example", Code: jsonText(ex.get("value"))})
			}
		}
		if po.has("schema") { // a parameter given by content has no style
			pr.Style = paramStyle(po, r.deref(schema))
		}
		if schema == nil && !po.has("content") && po.str("in") == "" {
			pr.Type = ""
		}
		g.Params = append(g.Params, pr)
	}
	sort.SliceStable(order, func(i, j int) bool { return inRank(order[i]) < inRank(order[j]) })
	out := make([]paramGroup, 0, len(order))
	for _, in := range order {
		out = append(out, *groups[in])
	}
	return out
}

// paramStyle says how an array or object parameter is written in the URL, in words.
func paramStyle(po *object, schema any) string {
	so, _ := schema.(*object)
	types := so.strs("type")
	isArray := contains(types, "array") || (len(types) == 0 && so.has("items"))
	isObject := contains(types, "object")
	style := po.str("style")
	if style == "" {
		switch po.str("in") {
		case "query", "cookie":
			style = "form"
		default:
			style = "simple"
		}
	}
	explode := style == "form"
	if po.has("explode") {
		explode = po.flag("explode")
	}
	switch {
	case !isArray && !isObject:
		return ""
	case style == "form" && explode && isArray: // the default: the parameter repeated per value
		return ""
	case style == "form" && explode:
		return "each key as a parameter of its own"
	case style == "form" || style == "simple":
		return "comma-separated values"
	case style == "spaceDelimited":
		return "space-separated values"
	case style == "pipeDelimited":
		return "pipe-separated values"
	case style == "deepObject":
		return "keys as name[key]=value"
	}
	return "style " + style
}

func inRank(in string) int {
	if r, ok := inOrder[in]; ok {
		return r
	}
	return len(inOrder)
}

// paramDesc: the parameter's own description, else its schema's.
func paramDesc(po *object, schema any) any {
	if po.str("description") != "" {
		return po
	}
	return schema
}

// media lists the media types of a body. A schema table is rendered when full is set, or for the
// request (always): a response body that is just a named schema links to its entry instead.
func (r *renderer) media(content *object, full, examples bool) []media {
	if content == nil {
		return nil
	}
	var out []media
	for _, ct := range content.keys {
		mo, _ := content.get(ct).(*object)
		m := media{Type: ct}
		if mo != nil && mo.has("schema") {
			schema := mo.get("schema")
			m.Schema = r.typeHTML(schema)
			if so, _ := schema.(*object); full && (so == nil || !so.has("$ref")) {
				m.Block = r.schemaBlock(schema)
			}
		}
		if examples {
			m.Examples = r.examples(mo, ct)
		}
		out = append(out, m)
	}
	return out
}

// mediaBody lists a request body's media types, each with its schema in full and its examples.
func (r *renderer) mediaBody(content *object) []media {
	out := r.media(content, true, true)
	for i, m := range out {
		if m.Block == nil && m.Schema != "" {
			mo, _ := content.get(m.Type).(*object)
			out[i].Block = r.schemaBlock(mo.get("schema"))
		}
	}
	return out
}

func (r *renderer) examples(mo *object, ct string) []sample {
	if mo == nil {
		return nil
	}
	var out []sample
	if mo.has("example") {
		out = append(out, r.sample("", "", mo.get("example"), ct))
	}
	if exs := mo.obj("examples"); exs != nil {
		for _, name := range exs.keys {
			ex, _ := r.deref(exs.get(name)).(*object)
			if ex == nil {
				continue
			}
			label := firstNonEmpty(ex.str("summary"), name)
			if ex.has("value") {
				s := r.sample(label, ex.str("description"), ex.get("value"), ct)
				out = append(out, s)
			} else if u := ex.str("externalValue"); u != "" {
				out = append(out, sample{Label: label, Lang: "text", Code: codeHTML(u), Note: markdown(ex.str("description"))})
			}
		}
	}
	return out
}

func (r *renderer) sample(label, desc string, v any, ct string) sample {
	s := sample{Label: label, Note: markdown(desc), Lang: "json"}
	if str, ok := v.(string); ok && !strings.Contains(ct, "json") {
		s.Code, s.Lang = codeHTML(str), "text"
		return s
	}
	s.raw = prettyJSON(v)
	s.Code = codeHTML(s.raw)
	return s
}

// responses in status order (1XX … 5XX, default last). A response that refers to
// #/components/responses/X is shown briefly and links to X's entry in the Shared responses section,
// where its headers, body and examples are shown once for every operation that gives it.
func (r *renderer) responses(rs *object) []response {
	if rs == nil {
		return nil
	}
	codes := append([]string(nil), rs.keys...)
	sort.SliceStable(codes, func(i, j int) bool { return statusRank(codes[i]) < statusRank(codes[j]) })
	var out []response
	for _, code := range codes {
		raw, _ := rs.get(code).(*object)
		ro, _ := r.deref(raw).(*object)
		if ro == nil {
			continue
		}
		id, shared := r.responseIDs[raw.str("$ref")]
		resp := r.response(code, ro, !shared)
		if shared {
			resp.Link, resp.LinkName = r.href(id), refName(raw.str("$ref"))
		}
		out = append(out, resp)
	}
	return out
}

// response renders one response; examples and inline body tables only when full.
func (r *renderer) response(code string, ro *object, full bool) response {
	desc := ro.str("description")
	if ref := ro.str("$ref"); ref != "" {
		desc = "Defined by `" + ref + "`, which this document does not contain."
	}
	resp := response{Status: code, Class: statusClass(code), Description: markdown(desc)}
	resp.Media = r.media(ro.obj("content"), full, full)
	if hs := ro.obj("headers"); hs != nil {
		for _, name := range hs.keys {
			h, _ := r.deref(hs.get(name)).(*object)
			if h == nil {
				continue
			}
			schema := h.get("schema")
			if schema == nil {
				if c := h.obj("content"); c != nil && len(c.keys) > 0 {
					schema = c.obj(c.keys[0]).get("schema")
				}
			}
			resp.Headers = append(resp.Headers, header{Name: name, Required: h.flag("required"),
				Type: r.typeHTML(schema), Description: markdown(r.description(paramDesc(h, schema)))})
		}
	}
	return resp
}

// sharedResponses are the entries of #/components/responses.
func (r *renderer) sharedResponses() []sharedResponse {
	rs := r.root.obj("components").obj("responses")
	if rs == nil {
		return nil
	}
	var out []sharedResponse
	for _, name := range rs.keys {
		ro, _ := r.deref(rs.get(name)).(*object)
		if ro == nil {
			continue
		}
		sr := sharedResponse{ID: r.responseIDs["#/components/responses/"+escapePointer(name)], Name: name,
			Response: r.response("", ro, true)}
		for _, m := range sr.Response.Media {
			sr.Samples = append(sr.Samples, m.Examples...)
		}
		out = append(out, sr)
	}
	return out
}

func statusRank(code string) int {
	if strings.EqualFold(code, "default") {
		return 10000
	}
	n := 0
	for i, c := range code {
		if i >= 3 {
			break
		}
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
		default: // 4XX sorts after every 4xx code
			n = n*10 + 9
		}
	}
	return n
}

func statusClass(code string) string {
	if code == "" {
		return "sd"
	}
	switch code[0] {
	case '1', '2', '3', '4', '5':
		return "s" + code[:1]
	}
	return "sd"
}

// curl is a ready-to-edit command line for the operation, with the first request example as body.
func (r *renderer) curl(o *operation, op *object) sample {
	base := "$BASE_URL"
	servers := o.Servers
	if len(servers) == 0 {
		servers = r.servers(r.root.arr("servers"))
	}
	if len(servers) > 0 && servers[0].URL != "" {
		base = strings.TrimRight(servers[0].URL, "/")
		for _, v := range servers[0].Variables {
			base = strings.ReplaceAll(base, "{"+v.Name+"}", v.Default)
		}
	}
	lines := []string{"curl -X " + o.Method + ` "` + base + o.Path + `"`}
	if len(o.Auth) > 0 && !o.Auth[0].Empty {
		lines = append(lines, `  -H "Authorization: Bearer $TOKEN"`)
	}
	for _, s := range o.Samples {
		if strings.HasPrefix(s.Label, "Request") && s.Lang == "json" {
			lines = append(lines, `  -H "Content-Type: application/json"`,
				"  -d '"+strings.ReplaceAll(strings.ReplaceAll(s.raw, "'", `'\''`), "\n", "\n  ")+"'")
			break
		}
	}
	if o.Body != nil && len(o.Body.Media) > 0 && !strings.Contains(strings.Join(lines, ""), "Content-Type") {
		lines = append(lines, `  -H "Content-Type: `+o.Body.Media[0].Type+`"`)
	}
	return sample{Label: "Request · curl", Lang: "shell", Code: codeHTML(strings.Join(lines, " \\\n"))}
}
