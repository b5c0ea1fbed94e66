package docs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// --- helpers reading the rendered page ---

func renderFile(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return renderString(t, string(src))
}

// renderString renders doc's pages and returns them one after the other (by slug, the index last:
// an element found by its id is the one on its own page, not the index's link to it), for the
// tests that look for what the reference shows wherever it is.
func renderString(t *testing.T, doc string) string {
	t.Helper()
	pages, _, err := Render([]byte(doc), Options{SpecURL: "/openapi.json"})
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	slugs := make([]string, 0, len(pages))
	for slug := range pages {
		slugs = append(slugs, slug)
	}
	sort.Slice(slugs, func(i, j int) bool { return slugs[i] != "" && (slugs[j] == "" || slugs[i] < slugs[j]) })
	var b strings.Builder
	for _, slug := range slugs {
		b.Write(pages[slug])
	}
	return b.String()
}

// element is the HTML of the element whose id is id, from its start tag to its matching end tag.
func element(t *testing.T, page, id string) string {
	t.Helper()
	re := regexp.MustCompile(`<(\w+)[^>]*\sid="` + regexp.QuoteMeta(id) + `"[^>]*>`)
	loc := re.FindStringSubmatchIndex(page)
	if loc == nil {
		t.Fatalf("no element with id %q", id)
	}
	tag := page[loc[2]:loc[3]]
	open, closing := regexp.MustCompile(`<`+tag+`[\s>]`), "</"+tag+">"
	depth, i := 1, loc[1]
	for depth > 0 {
		c := strings.Index(page[i:], closing)
		if c < 0 {
			t.Fatalf("element %q is not closed", id)
		}
		if o := open.FindStringIndex(page[i:]); o != nil && o[0] < c {
			depth++
			i += o[1]
			continue
		}
		depth--
		i += c + len(closing)
	}
	return page[loc[0]:i]
}

var (
	inlineTagRe = regexp.MustCompile(`</?(code|span|a|strong|em)\b[^>]*>`)
	tagRe       = regexp.MustCompile(`<[^>]*>`)
)

// text is what a reader sees of an HTML fragment: inline tags dropped, other tags as spaces,
// entities decoded, spaces collapsed.
func text(fragment string) string {
	s := tagRe.ReplaceAllString(inlineTagRe.ReplaceAllString(fragment, ""), " ")
	return strings.Join(strings.Fields(html.UnescapeString(s)), " ")
}

// rows are the texts of the table rows of a fragment.
func rows(fragment string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?s)<tr[ >].*?</tr>`).FindAllString(fragment, -1) {
		out = append(out, text(m))
	}
	return out
}

// rowText is the one row whose first cell is name (the row text starts with name and a space).
func rowText(t *testing.T, fragment, name string) string {
	t.Helper()
	var found []string
	for _, r := range rows(fragment) {
		if r == name || strings.HasPrefix(r, name+" ") {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one row for %q, found %d: %q", name, len(found), found)
	}
	return found[0]
}

func wantContains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

func wantNotContains(t *testing.T, what, got string, nots ...string) {
	t.Helper()
	for _, n := range nots {
		if strings.Contains(got, n) {
			t.Errorf("%s contains %q:\n%s", what, n, got)
		}
	}
}

// split cuts an operation at its Responses heading: what it accepts, and what it answers.
func split(t *testing.T, op string) (request, responses string) {
	t.Helper()
	i := strings.Index(op, "<h4>Responses</h4>")
	if i < 0 {
		t.Fatalf("operation has no Responses heading")
	}
	return op[:i], op[i:]
}

const fixture = "testdata/attributes.openapi.json"

// --- the page rendered from the attribute fixture ---

func TestCreateOperation(t *testing.T) {
	page := renderFile(t, fixture)
	tag := element(t, page, "tag-Attributes")
	op := element(t, page, "AttributeService_CreateAttribute")
	if !strings.Contains(tag, op) {
		t.Fatal("Create an attribute is not inside the Attributes tag section")
	}
	wantContains(t, "tag section", text(tag[:strings.Index(tag, `<section class="op"`)]),
		"Attributes", "Attributes drive filtering and variants of products")
	wantContains(t, "operation", op, `<h3><a class="anchor" href="#AttributeService_CreateAttribute">Create an attribute</a></h3>`,
		`<span class="m m-post">POST</span>`)
	req, resp := split(t, op)
	wantContains(t, "operation", text(req), "POST /v1/attributes", "Bearer JWT · Required scope catalog:write",
		"Creates an attribute in status draft.", "Request body required application/json", "AttributeCreate",
		"The body that creates an attribute.")
	// The scope is in both the security requirement and x-required-scope: shown once.
	wantNotContains(t, "operation", text(req), "catalog:write catalog:write")
	if got, want := rowText(t, req, "code"), `code required string Unique in the tenant. 1 to 100 characters pattern ^[a-z0-9_]+$ example "color"`; got != want {
		t.Errorf("code row:\n got %q\nwant %q", got, want)
	}
	if got, want := rowText(t, req, "displayName"), "displayName string | null Defaults to code. 1 to 100 characters"; got != want {
		t.Errorf("displayName row:\n got %q\nwant %q", got, want)
	}
	wantContains(t, "responses", text(resp), "201 The attribute, created. Attribute application/json",
		"400 The body is not valid. Problem application/problem+json", "401 The token is missing or invalid.",
		"409 An attribute with this code exists.", "413 The body exceeds 1 MiB.")
	if got, want := rowText(t, resp, "Location"), "Location required string <uri-reference> Path of the new attribute."; got != want {
		t.Errorf("Location row: got %q, want %q", got, want)
	}
	// Schemas link to the page that shows them: here the one family's page (only Attributes uses them).
	wantContains(t, "responses", resp, `<a class="ref" href="/docs/attributes#schema-Problem">Problem</a>`, `<a class="ref" href="/docs/attributes#schema-Attribute">Attribute</a>`)
	if got := len(regexp.MustCompile(`X-Request-Id`).FindAllString(resp, -1)); got != 1 {
		t.Errorf("X-Request-Id shown %d times in the responses, want once (on 201)", got)
	}
	// Statuses in order, and the success body expandable.
	if a, b := strings.Index(resp, ">201<"), strings.Index(resp, ">413<"); a < 0 || b < a {
		t.Errorf("responses out of order")
	}
	// A response that is a named schema links to it rather than repeating its table.
	wantNotContains(t, "responses", resp, `<details class="resp-schema">`)
	// Shared responses link to their entry, which shows them once.
	wantContains(t, "responses", text(resp), "401 The token is missing or invalid. Problem application/problem+json details in Unauthorized")
	wantContains(t, "responses", resp, `<a href="/docs/responses#response-Unauthorized">Unauthorized</a>`)
	shared := element(t, page, "response-Unauthorized")
	wantContains(t, "shared response", text(shared), "Unauthorized The token is missing or invalid. Problem application/problem+json")

	// Examples, pretty-printed, in document order after the curl line.
	plain := html.UnescapeString(op)
	wantContains(t, "examples", plain, "Request · A color attribute", "Request · Code only", "Response 201", "Response 400",
		"{\n  \"code\": \"color\",\n  \"displayName\": \"Color\"\n}",
		"  \"errors\": [\n    {\n      \"field\": \"code\",\n      \"message\": \"must be 1 to 100 characters\"\n    }\n  ]",
		"curl -X POST \"http://127.0.0.1:8080/v1/attributes\" \\\n  -H \"Authorization: Bearer $TOKEN\" \\\n  -H \"Content-Type: application/json\" \\\n  -d '{\n    \"code\": \"color\",\n    \"displayName\": \"Color\"\n  }'")
	if a, b := strings.Index(plain, "Request · A color attribute"), strings.Index(plain, "Response 201"); b < a {
		t.Error("the response example comes before the request example")
	}

	// The sidebar links to it under the tag.
	nav := page[strings.Index(page, `<nav class="nav">`):strings.Index(page, "</nav>")]
	wantContains(t, "sidebar", nav, `<a href="#AttributeService_CreateAttribute"><span class="m m-post">POST</span><span class="nav-op">Create an attribute</span></a>`,
		`data-filter="attributes create an attribute post /v1/attributes attributeservice_createattribute"`)
}

func TestListOperation(t *testing.T) {
	page := renderFile(t, fixture)
	op := element(t, page, "AttributeService_ListAttributes")
	req, resp := split(t, op)
	// The scope comes from x-required-scope alone here (the security requirement has no scopes).
	wantContains(t, "list", text(req), "GET /v1/attributes", "Bearer JWT · Required scope catalog:read", "Query parameters")
	for name, want := range map[string]string{
		"code[contains]": "code[contains] in query string Case-insensitive substring of the code. at most 100 characters",
		"statuses[eq]":   "statuses[eq] in query array of string Any of these statuses. Allowed: draft published unpublished removed",
		"code[order]":    "code[order] in query string Allowed: asc desc",
		"page":           "page in query integer <int32> 1-based page. ≥ 1 default 1",
		"size":           "size in query integer <int32> Page size. 1 to 100 default 20",
	} {
		if got := rowText(t, req, name); got != want {
			t.Errorf("%s row:\n got %q\nwant %q", name, got, want)
		}
	}
	wantContains(t, "list responses", text(resp), "200 A page of attributes. object application/json",
		"400 A parameter is malformed or unknown.", "403 The token lacks the scope.")
	// The success body: items as a link to Attribute, pagination as a link to Pagination.
	body := element(t, "<x id=\"r\">"+resp[strings.Index(resp, `<details class="resp-schema">`):]+"</x>", "r")
	if got := rowText(t, body, "items"); got != "items required array of Attribute" {
		t.Errorf("items row: %q", got)
	}
	wantContains(t, "list", html.UnescapeString(op), "\"nextCursor\": null")
}

func TestPathItemParametersAndOrder(t *testing.T) {
	page := renderFile(t, fixture)
	get := element(t, page, "AttributeService_GetAttribute")
	req, _ := split(t, get)
	if got, want := rowText(t, req, "attributeUuid"), "attributeUuid required in path string <uuid> The attribute's uuid."; got != want {
		t.Errorf("path parameter row: got %q want %q", got, want)
	}
	if strings.Index(req, "Path parameters") > strings.Index(req, "Query parameters") {
		t.Error("path parameters should come before query parameters")
	}
	wantContains(t, "get", text(req), "Required scope catalog:read", "GET /v1/attributes/{attributeUuid}")
	wantContains(t, "get", req, `<span class="pp">{attributeUuid}</span>`)
	del := element(t, page, "AttributeService_DeleteAttribute")
	wantContains(t, "delete", del, `<span class="badge warn">deprecated</span>`)
	wantContains(t, "delete", text(del), "204 Deleted.")
	// Operations: paths in document order, methods get, post, …, patch, delete within a path.
	var last int
	for _, id := range []string{"AttributeService_ListAttributes", "AttributeService_CreateAttribute",
		"AttributeService_GetAttribute", "AttributeService_UpdateAttribute", "AttributeService_DeleteAttribute"} {
		i := strings.Index(page, `id="`+id+`"`)
		if i < last {
			t.Errorf("%s is out of order", id)
		}
		last = i
	}
	// A declared tag without operations gets no section.
	if strings.Contains(page, `id="tag-Families"`) {
		t.Error("the Families tag has no operations and should not be shown")
	}
}

func TestSchemas(t *testing.T) {
	page := renderFile(t, fixture)
	attr := element(t, page, "schema-Attribute")
	for name, want := range map[string]string{
		"uuid":         "uuid required read-only string <uuid>",
		"removedAt":    "removedAt required string <date-time> | null Time of removal; null when not removed.",
		"status":       "status required AttributeStatus Lifecycle state. Allowed: draft published unpublished removed",
		"contentUuids": "contentUuids required array of string <uuid> | null Filled only with include[contents]=true.",
		"contents":     "contents required array of AttributeContent | null Filled only with expand[contents]=true.",
	} {
		if got := rowText(t, attr, name); got != want {
			t.Errorf("Attribute.%s:\n got %q\nwant %q", name, got, want)
		}
	}
	problem := element(t, page, "schema-Problem")
	for name, want := range map[string]string{
		"errors":         "errors array of object",
		"errors[].field": "errors[].field required string Path of the field, e.g. [2].code.",
		"meta":           "meta object | null",
		"code":           "code required string Allowed: VALIDATION_FAILED",
	} {
		if got := rowText(t, problem, name); !strings.HasPrefix(got, want) {
			t.Errorf("Problem.%s:\n got %q\nwant %q…", name, got, want)
		}
	}
	wantContains(t, "nested row", problem, `<tr class="d1">`)
	// allOf is merged into the properties of the referencing schema.
	upd := element(t, page, "schema-AttributeUpdate")
	rowText(t, upd, "code")
	rowText(t, upd, "displayName")
	// A recursive schema links to itself (on the shared Schemas page: no operation uses it); an
	// unknown reference is a name without a link.
	node := element(t, page, "schema-Node")
	wantContains(t, "Node", node, `array of <a class="ref" href="/docs/schemas#schema-Node">Node</a>`, `<span class="ref">Missing</span>`)
	wantNotContains(t, "Node", node, `href="#schema-Missing"`)
}

func TestIntroduction(t *testing.T) {
	page := renderFile(t, fixture)
	intro := element(t, page, "intro")
	wantContains(t, "intro", text(intro), "catalogd v1.2.0", "Product catalog service",
		"Every request carries a bearer token (Authorization: Bearer <jwt>)", "http://127.0.0.1:8080 Local development",
		"Bearer JWT (bearerAuth)", "Authorization: Bearer …", "Format: JWT", "OpenAPI 3.1.0", "5 operations",
		"License: Apache 2.0", "catalog:read 2", "catalog:write 3")
	wantContains(t, "intro", intro, `<li>Lists are paged with <code>page</code> and <code>size</code>.</li>`,
		`<a href="https://www.rfc-editor.org/rfc/rfc9457" rel="noopener noreferrer">RFC 9457</a>`,
		`<a href="/openapi.json">Download the OpenAPI document</a>`, `&lt;script&gt;alert(2)&lt;/script&gt;`)
	wantNotContains(t, "page", page, `href="javascript:`, "<script>alert")
}

// --- serving ---

func TestHandler(t *testing.T) {
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	do := func(method string, header ...string) *http.Response {
		req := httptest.NewRequest(method, "/docs", nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Result()
	}
	res := do("GET")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if !bytes.Contains(body, []byte("Create an attribute")) {
		t.Fatal("the page lacks the operation")
	}
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=300" {
		t.Errorf("Cache-Control %q", cc)
	}
	if res.Header.Get("Content-Length") != fmt.Sprint(len(body)) {
		t.Errorf("Content-Length %q for %d bytes", res.Header.Get("Content-Length"), len(body))
	}
	// The policy allows nothing external: only the page's own inline style and script, by hash.
	csp := res.Header.Get("Content-Security-Policy")
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindSubmatch(body)
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindSubmatch(body)
	if style == nil || script == nil {
		t.Fatal("no inline style or script")
	}
	hash := func(b []byte) string {
		s := sha256.Sum256(b)
		return "'sha256-" + base64.StdEncoding.EncodeToString(s[:]) + "'"
	}
	if want := "default-src 'none'; style-src " + hash(style[1]) + "; script-src " + hash(script[1]) +
		"; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"; csp != want {
		t.Errorf("CSP\n got %s\nwant %s", csp, want)
	}
	// Nothing to fetch: no src attributes, no stylesheet links, no imports or url() in the style,
	// no addresses in the style or the script.
	wantNotContains(t, "page", string(body), " src=", `rel="stylesheet"`, "@import", "url(", "<iframe", "<object")
	wantNotContains(t, "inline style and script", string(style[1])+string(script[1]), "http:", "https:", "://", "fetch(", "XMLHttpRequest")
	if res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no nosniff")
	}

	etag := res.Header.Get("ETag")
	if !regexp.MustCompile(`^"[0-9a-f]{24}"$`).MatchString(etag) {
		t.Fatalf("ETag %q", etag)
	}
	if r := do("GET", "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with the ETag: %d, want 304", r.StatusCode)
	} else if b, _ := io.ReadAll(r.Body); len(b) != 0 {
		t.Error("304 with a body")
	}
	if r := do("GET", "If-None-Match", `W/"other", `+"W/"+etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("weak If-None-Match list with the ETag: %d, want 304", r.StatusCode)
	}
	if r := do("GET", "If-None-Match", `"other"`); r.StatusCode != 200 {
		t.Errorf("If-None-Match with another tag: %d, want 200", r.StatusCode)
	}

	// gzip when accepted: the same page, its own ETag.
	gz := do("GET", "Accept-Encoding", "br, gzip;q=0.8")
	if gz.Header.Get("Content-Encoding") != "gzip" || gz.Header.Get("ETag") == etag || gz.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("gzip: encoding %q etag %q vary %q", gz.Header.Get("Content-Encoding"), gz.Header.Get("ETag"), gz.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(gz.Body)
	if err != nil {
		t.Fatal(err)
	}
	unz, _ := io.ReadAll(zr)
	if !bytes.Equal(unz, body) {
		t.Error("the gzip body differs from the page")
	}
	if r := do("GET", "Accept-Encoding", "gzip;q=0"); r.Header.Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}

	head := do("HEAD")
	if b, _ := io.ReadAll(head.Body); head.StatusCode != 200 || len(b) != 0 || head.Header.Get("ETag") != etag {
		t.Errorf("HEAD: %d, %d bytes, etag %q", head.StatusCode, len(b), head.Header.Get("ETag"))
	}
	if r := do("POST"); r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d allow %q", r.StatusCode, r.Header.Get("Allow"))
	}
}

// Requests that arrive while the page is still being rendered wait for it, and all get the same page.
func TestHandlerFirstRequestsWait(t *testing.T) {
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pages, _, _ := Render(src, Options{})
	want := pages[""]
	errs := make(chan error, 20)
	for range 20 {
		go func() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", "/docs", nil))
			if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want) {
				errs <- fmt.Errorf("status %d, %d bytes (want %d)", w.Code, w.Body.Len(), len(want))
				return
			}
			errs <- nil
		}()
	}
	for range 20 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestHandlerRefusesNonJSON(t *testing.T) {
	for _, doc := range []string{``, `not json`, `[]`, `"x"`, `{"a":1} {"b":2}`, `{"a":`, strings.Repeat("[", 5000) + strings.Repeat("]", 5000)} {
		if _, err := Handler([]byte(doc), Options{}); err == nil {
			t.Errorf("%.40q: no error", doc)
		}
	}
}

// --- anything valid in OpenAPI 3.1 renders ---

func TestMinimalDocuments(t *testing.T) {
	for _, doc := range []string{`{}`, `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{}}`,
		`{"openapi":"3.1.0","info":{"title":"T","version":"1"},"components":{"schemas":{}}}`,
		`{"openapi":"3.1.0","paths":null,"tags":null,"components":[],"servers":"x","security":{}}`} {
		page := renderString(t, doc)
		wantContains(t, doc, text(element(t, page, "intro")), "0 operations")
	}
}

func TestOperationsWithoutNames(t *testing.T) {
	page := renderString(t, `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{
		"/a b/{x}": {"get": {}, "post": {"operationId": "dup", "security": []}},
		"/b": {"get": {"operationId": "dup", "security": [{}, {"key": []}]}, "summary": "ignored"},
		"/c": {"$ref": "#/components/pathItems/C"},
		"/d": {"$ref": "#/components/pathItems/Missing"}},
		"components": {"pathItems": {"C": {"put": {"summary": "Put C", "tags": ["Extra"]}}},
		  "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}}}`)
	other := element(t, page, "other-operations")
	first := element(t, page, "get-/a-b/{x}")
	wantContains(t, "unnamed", text(first), "GET /a b/{x}")
	if !strings.Contains(other, first) {
		t.Error("an untagged operation is not under Other operations")
	}
	wantContains(t, "duplicate ids", page, `id="dup"`, `id="dup-2"`)
	wantContains(t, "no auth", text(element(t, page, "dup")), "No authentication.")
	wantContains(t, "optional auth", text(element(t, page, "dup-2")), "anonymous or API key in header X-Key")
	wantContains(t, "path item ref", text(element(t, page, "tag-Extra")), "Extra", "Put C", "PUT /c")
}

func TestWebhooks(t *testing.T) {
	page := renderString(t, `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"webhooks":{
		"attribute.created": {"post": {"summary": "Attribute created", "requestBody": {"content": {"application/json":
		  {"schema": {"type": "object", "properties": {"attributeUuid": {"type": "string", "format": "uuid"}}}}}},
		  "responses": {"2XX": {"description": "Accepted."}, "default": {"description": "Retried."}}}}}}`)
	wh := element(t, page, "webhooks")
	wantContains(t, "webhooks", text(wh), "Webhooks", "Attribute created", "POST webhook attribute.created",
		"attributeUuid string <uuid>", "2XX Accepted. default Retried.")
	wantNotContains(t, "webhooks", wh, "curl")
}

func TestAwkwardSchemas(t *testing.T) {
	page := renderString(t, `{"openapi":"3.1.0","info":{"title":"T","version":"1"},
	  "paths": {"/x": {"post": {"operationId": "x",
	    "parameters": [{"$ref": "#/components/parameters/Gone"}, {"name": "f", "in": "query", "content": {"application/json": {"schema": {"type": "object"}}}},
	      {"name": "ids", "in": "query", "explode": false, "schema": {"type": "array", "items": {"type": "string"}}},
	      {"name": "q", "in": "query", "style": "deepObject", "schema": {"type": "object"}}],
	    "requestBody": {"$ref": "#/components/requestBodies/Body"},
	    "responses": {"200": {"$ref": "#/components/responses/Gone"}, "201": {"description": "ok",
	      "content": {"application/json": {"schema": {"oneOf": [{"$ref": "#/components/schemas/C"}, {"type": "object", "title": "Inline", "properties": {"y": {"type": "integer"}}}]},
	        "examples": {"ext": {"summary": "External", "externalValue": "https://example.com/x.json"}, "ref": {"$ref": "#/components/examples/E"}}}}}}}}},
	  "components": {
	    "requestBodies": {"Body": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}, "text/plain": {"schema": true, "example": "hello <b>"}}}},
	    "examples": {"E": {"summary": "From components", "value": {"z": [1, 2]}}},
	    "schemas": {
	      "A": {"$ref": "#/components/schemas/B"},
	      "B": {"$ref": "#/components/schemas/A"},
	      "C": {"allOf": [{"$ref": "#/components/schemas/C"}, {"properties": {"x": {"type": "string"}}}]},
	      "D": {"properties": {"self": {"properties": {"inner": {"$ref": "#/components/schemas/D"}, "deep": {"type": "array", "items": {"properties": {"leaf": {"type": "boolean"}}}}}}}},
	      "E": {"type": "array", "items": false, "prefixItems": [{"type": "string"}]},
	      "F": true,
	      "G": false,
	      "H": {"$ref": "other.yaml#/components/schemas/Remote"},
	      "I": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/C"}},
	      "J": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}, "additionalProperties": {"type": "string"}},
	      "K": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "multipleOf": 0.5},
	      "L": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
	      "M": {"anyOf": [{"type": "string"}, {"type": "null"}], "enum": ["a", null]}}}}`)
	op := element(t, page, "x")
	wantContains(t, "op", text(op), "Gone Defined by #/components/parameters/Gone, which this document does not contain.", "f in query object", "ids in query array of string comma-separated values", "q in query object keys as name[key]=value", "200 Defined by #/components/responses/Gone", "200", "201 ok",
		"One of C", "or Inline", "y integer", "x string", "External", "https://example.com/x.json",
		"From components", "text/plain", "hello <b>")
	wantContains(t, "op", html.UnescapeString(op), "\"z\": [\n    1,\n    2\n  ]")
	wantContains(t, "D", text(element(t, page, "schema-D")), "self object", "self.inner D", "self.deep array of object", "self.deep[].leaf boolean")
	wantContains(t, "E", text(element(t, page, "schema-E")), "array")
	wantContains(t, "F", text(element(t, page, "schema-F")), "any")
	wantContains(t, "G", text(element(t, page, "schema-G")), "never")
	wantContains(t, "H", text(element(t, page, "schema-H")), "Remote")
	wantContains(t, "I", text(element(t, page, "schema-I")), "map of C")
	wantContains(t, "J", text(element(t, page, "schema-J")), "m map of integer", "* string Any other key.")
	wantContains(t, "K", text(element(t, page, "schema-K")), "> 0", "< 1", "multiple of 0.5")
	wantContains(t, "L", text(element(t, page, "schema-L")), "> 0")
	wantNotContains(t, "L", text(element(t, page, "schema-L")), "≥ 0")
	wantContains(t, "M", text(element(t, page, "schema-M")), "string | null", "Allowed: a null")
}

func TestDeepDocument(t *testing.T) {
	// 400 nested inline objects: the table stops at its depth limit instead of growing without end.
	var b strings.Builder
	b.WriteString(`{"components":{"schemas":{"Deep":`)
	for i := 0; i < 400; i++ {
		b.WriteString(`{"properties":{"p":`)
	}
	b.WriteString(`{"type":"string"}`)
	b.WriteString(strings.Repeat("}}", 400))
	b.WriteString(`}}}`)
	page := renderString(t, b.String())
	if n := len(rows(element(t, page, "schema-Deep"))); n < 3 || n > maxRowDepth+3 {
		t.Errorf("%d rows for a 400-deep schema", n)
	}
}

// --- the pieces ---

func TestTypeText(t *testing.T) {
	r := &renderer{root: &object{vals: map[string]any{}}, modelIDs: map[string]string{"#/components/schemas/X": "schema-X"}}
	for src, want := range map[string]string{
		`{"type":["string","null"],"format":"date-time"}`:                                 "string <date-time> | null",
		`{"type":"array","items":{"type":"string","format":"uuid"}}`:                      "array of string <uuid>",
		`{"anyOf":[{"$ref":"#/components/schemas/X"},{"type":"null"}]}`:                   "X | null",
		`{"type":"object","additionalProperties":{"type":"integer"}}`:                     "map of integer",
		`{"allOf":[{"$ref":"#/components/schemas/X"}]}`:                                   "X",
		`{"allOf":[{"$ref":"#/components/schemas/X"},{"$ref":"#/components/schemas/Y"}]}`: "X & Y",
		`{"oneOf":[{"type":"string"},{"type":"integer"}]}`:                                "string | integer",
		`{"type":"string","nullable":true}`:                                               "string | null",
		`true`:                                                                            "any",
		`false`:                                                                           "never",
		`{}`:                                                                              "any",
		`{"enum":["a",1,"b"]}`:                                                            "string | number",
		`{"type":"array","items":{"type":["string","null"]}}`:                             "array of (string | null)",
		`{"const":"x"}`:                                                                   "string",
		`{"type":"array"}`:                                                                "array",
		`{"$ref":"#/components/schemas/a~1b"}`:                                            "a/b",
		`{"$ref":"#/components/schemas/X"}`:                                               "X",
	} {
		v, err := parseJSON([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := text(string(r.typeHTML(v))); got != want {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for src, want := range map[string]string{
		"one\ntwo\n\nthree":                 "<p>one two</p><p>three</p>",
		"use `a<b>` here":                   "<p>use <code>a&lt;b&gt;</code> here</p>",
		"- a\n- b `c`\n\n1. x\n2. y":        "<ul><li>a</li><li>b <code>c</code></li></ul><ol><li>x</li><li>y</li></ol>",
		"**bold** and *em*":                 "<p><strong>bold</strong> and <em>em</em></p>",
		"[ok](https://a.example/x?y=1&z=2)": `<p><a href="https://a.example/x?y=1&amp;z=2" rel="noopener noreferrer">ok</a></p>`,
		"[anchor](#tag-X)":                  `<p><a href="#tag-X">anchor</a></p>`,
		"[bad](javascript:alert(1))":        "<p>[bad](javascript:alert(1))</p>",
		"[bad](data:text/html,x)":           "<p>[bad](data:text/html,x)</p>",
		"see https://a.example/p.":          `<p>see <a href="https://a.example/p" rel="noopener noreferrer">https://a.example/p</a>.</p>`,
		"<img src=x onerror=alert(1)>":      "<p>&lt;img src=x onerror=alert(1)&gt;</p>",
		"```\n<b>\n  x\n```":                "<pre class=\"code\"><code>&lt;b&gt;\n  x</code></pre>",
		"# Title\ntext":                     `<p class="md-h">Title</p><p>text</p>`,
		"snake_case_name and 2 * 3 * 4":     "<p>snake_case_name and 2 * 3 * 4</p>",
		`\*not em\*`:                        "<p>*not em*</p>",
		"a \"quote\" & 'apos'":              "<p>a &#34;quote&#34; &amp; &#39;apos&#39;</p>",
		"":                                  "",
	} {
		if got := string(markdown(src)); got != want {
			t.Errorf("%q:\n got %s\nwant %s", src, got, want)
		}
	}
}

func TestPrettyJSONKeepsOrder(t *testing.T) {
	v, err := parseJSON([]byte(`{"z":1,"a":{"y":[true,null,"<&>"],"b":{}},"m":[],"n":1.50}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"z\": 1,\n  \"a\": {\n    \"y\": [\n      true,\n      null,\n      \"<&>\"\n    ],\n    \"b\": {}\n  },\n  \"m\": [],\n  \"n\": 1.50\n}"
	if got := prettyJSON(v); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := jsonText(v); got != `{"z": 1, "a": {"y": [true, null, "<&>"], "b": {}}, "m": [], "n": 1.50}` {
		t.Errorf("compact: %s", got)
	}
}

// TestNamesStayOnOneLine: field and parameter names are never broken mid-word (issue 27: names
// wrapped inside `categoryTreeUuids[eq]`): their code is white-space: nowrap, and no rule lets
// their cell break words.
func TestNamesStayOnOneLine(t *testing.T) {
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]string{}
	for _, r := range strings.Split(string(css), "}") {
		sel, body, ok := strings.Cut(r, "{")
		if !ok {
			continue
		}
		if i := strings.LastIndex(sel, "*/"); i >= 0 {
			sel = sel[i+2:]
		}
		rules[strings.TrimSpace(sel)] += body
	}
	if !strings.Contains(rules[".fields td.name code"], "white-space: nowrap") {
		t.Errorf(".fields td.name code is %q, want white-space: nowrap", rules[".fields td.name code"])
	}
	for sel, body := range rules {
		if strings.Contains(sel, "td.name") && (strings.Contains(body, "word-break") || strings.Contains(body, "overflow-wrap")) {
			t.Errorf("%s lets names break: %q", sel, body)
		}
	}
	page := renderString(t, `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{"/v1/x":{"get":{"parameters":[{"name":"categoryTreeUuids[eq]","in":"query","schema":{"type":"string"}}],"responses":{"200":{"description":"ok"}}}}}}`)
	if !strings.Contains(string(page), `<td class="name"><code>categoryTreeUuids[eq]</code>`) {
		t.Errorf("the parameter's name is not in a name cell's code")
	}
}

// The handler serves each page at its path under Options.Base and nothing else: a family's page, the
// shared pages, 404 for an unknown page or a path beside the base.
func TestHandlerServesEveryPage(t *testing.T) {
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	h, err := Handler(src, Options{Base: "/ref/"})
	if err != nil {
		t.Fatal(err)
	}
	pages, _, err := Render(src, Options{Base: "/ref"})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{"/ref": 200, "/ref/attributes": 200, "/ref/responses": 200, "/ref/schemas": 200,
		"/ref/families": 404, "/ref/nope": 404, "/ref/attributes/x": 404, "/refx": 404, "/ref/": 404, "/docs": 404} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != want {
			t.Errorf("GET %s: %d, want %d", path, w.Code, want)
			continue
		}
		if want == 200 {
			slug := strings.TrimPrefix(strings.TrimPrefix(path, "/ref"), "/")
			if !bytes.Equal(w.Body.Bytes(), pages[slug]) {
				t.Errorf("GET %s: not the page %q", path, slug)
			}
		}
	}
	wantContains(t, "the attributes page", string(pages["attributes"]), `<a href="/ref">`, `href="/ref/responses"`, `<a class="nav-tag" href="#tag-Attributes">`)
}
