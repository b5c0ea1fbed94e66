package docs_test

import (
	"encoding/json"
	"html"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/docs"
)

// PageBudget is the most bytes (uncompressed HTML) one page of the served reference may have: 256 KiB,
// about 20 KB gzipped. The single page it replaced was 4.99 MB; the largest page (Products) is
// 230 KB (docs/design.md, "The API reference page (/docs)").
const PageBudget = 256 << 10

// movedRe: the index's links that stand for an anchor of the former single page.
var movedRe = regexp.MustCompile(`<a id="([^"]+)" data-moved href="([^"]+)"`)

// servedReference renders the service's own document the way the server does.
func servedReference(t *testing.T) (doc []byte, pages map[string][]byte) {
	t.Helper()
	doc, err := app.BuildOpenAPI(app.Services(app.Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	pages, _, err = docs.Render(doc, docs.Options{SpecURL: "/openapi.json"})
	if err != nil {
		t.Fatal(err)
	}
	return doc, pages
}

// The served reference is one page per tag plus an index, the shared responses and the shared
// schemas: every page is reached from the index, every internal link resolves (page and anchor),
// every page is under PageBudget, and every anchor of the former single page (each operationId,
// tag-<name>, schema-<name>, response-<name>) is on the index as a link to where it is now (the
// same anchor on its page; a tag's, to its page).
func TestServedReferenceIsSplit(t *testing.T) {
	doc, pages := servedReference(t)
	var d struct {
		Tags []struct {
			Name string `json:"name"`
		} `json:"tags"`
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas   map[string]json.RawMessage `json:"schemas"`
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	// A page per tag, at its lower-case, hyphenated name, titled with the tag.
	for _, tag := range d.Tags {
		slug := strings.ToLower(strings.ReplaceAll(tag.Name, " ", "-"))
		body, ok := pages[slug]
		if !ok {
			t.Errorf("no page %q for the tag %q", slug, tag.Name)
			continue
		}
		if !strings.Contains(string(body), "<title>"+html.EscapeString(tag.Name)+" · ") {
			t.Errorf("page %q is not titled %q", slug, tag.Name)
		}
	}
	for _, shared := range []string{"", "responses", "schemas"} {
		if _, ok := pages[shared]; !ok {
			t.Errorf("no page %q", shared)
		}
	}
	if want := len(d.Tags) + 3; len(pages) != want {
		t.Errorf("%d pages, want %d (the tags, the index, the shared responses and schemas)", len(pages), want)
	}

	reached, links := apptest.CheckDocsLinks(t, "/docs", pages, "/openapi.json")
	var slugs []string
	total, largest, largestSlug := 0, 0, ""
	for slug, body := range pages {
		slugs = append(slugs, slug)
		if !reached[slug] {
			t.Errorf("page %q is not reached from the index", slug)
		}
		total += len(body)
		if len(body) > largest {
			largest, largestSlug = len(body), slug
		}
		if len(body) > PageBudget {
			t.Errorf("page %q is %d bytes, over the budget of %d", slug, len(body), PageBudget)
		}
	}
	sort.Strings(slugs)
	t.Logf("%d pages, %d bytes in all, the index %d bytes, the largest %q %d bytes; %d links checked", len(pages), total, len(pages[""]), largestSlug, largest, links)

	// The former single page's anchors, on the index, each a link to the same anchor on its page.
	moved := map[string]string{}
	for _, m := range movedRe.FindAllStringSubmatch(string(pages[""]), -1) {
		moved[m[1]] = html.UnescapeString(m[2])
	}
	var want []string
	for _, item := range d.Paths {
		for method, raw := range item {
			var op struct {
				OperationID string `json:"operationId"`
			}
			if json.Unmarshal(raw, &op) == nil && op.OperationID != "" {
				want = append(want, op.OperationID)
			} else if method != "parameters" && method != "summary" && method != "description" {
				t.Errorf("an operation without operationId: %s", method)
			}
		}
	}
	for _, tag := range d.Tags {
		want = append(want, "tag-"+strings.ReplaceAll(tag.Name, " ", "-"))
	}
	for name := range d.Components.Schemas {
		want = append(want, "schema-"+name)
	}
	for name := range d.Components.Responses {
		want = append(want, "response-"+name)
	}
	for _, id := range want {
		href, ok := moved[id]
		if !ok {
			t.Errorf("the index lacks the former anchor #%s", id)
			continue
		}
		if tag, ok := strings.CutPrefix(id, "tag-"); ok {
			if want := "/docs/" + strings.ToLower(tag); href != want {
				t.Errorf("#%s leads to %q, want %q", id, href, want)
			}
		} else if !strings.HasPrefix(href, "/docs/") || !strings.HasSuffix(href, "#"+id) {
			t.Errorf("#%s leads to %q, want the same anchor on its page", id, href)
		}
	}
	if len(want) < 400 {
		t.Errorf("only %d anchors to check: the document is not the service's?", len(want))
	}
}
