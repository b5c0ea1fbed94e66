package docs

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// pageBudget: the most bytes one page of the reference may have (the same budget as server/docs's
// PageBudget: 256 KiB uncompressed).
const pageBudget = 256 << 10

// Crawling the served reference from /docs reaches a page per tag of /openapi.json, and the shared
// responses and schemas; every internal href of every page resolves (200, and the anchor is on the
// page it names); no page is over the budget.
func TestCrawlReference(t *testing.T) {
	t.Parallel()
	_, raw := env.GetRaw(t, "/openapi.json")
	var doc struct {
		Tags []struct {
			Name string `json:"name"`
		} `json:"tags"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// Fetch every page a link of a fetched page leads to, from the index.
	pages := map[string][]byte{}
	queue := []string{""}
	for len(queue) > 0 {
		slug := queue[0]
		queue = queue[1:]
		path := strings.TrimSuffix("/docs/"+slug, "/")
		status, body := env.GetRaw(t, path)
		if status != 200 {
			t.Errorf("GET %s: %d", path, status)
			continue
		}
		pages[slug] = body
		for _, href := range apptest.PageHrefs(body) {
			if next, _, ok := apptest.DocsPage("/docs", slug, href); ok {
				if _, seen := pages[next]; !seen && !slices.Contains(queue, next) {
					queue = append(queue, next)
				}
			}
		}
	}
	_, links := apptest.CheckDocsLinks(t, "/docs", pages, "/openapi.json")
	for _, tag := range doc.Tags {
		slug := strings.ToLower(strings.ReplaceAll(tag.Name, " ", "-"))
		if _, ok := pages[slug]; !ok {
			t.Errorf("no page /docs/%s for the tag %q reached from /docs", slug, tag.Name)
		}
	}
	for _, p := range []string{"responses", "schemas"} {
		if _, ok := pages[p]; !ok {
			t.Errorf("/docs/%s is not reached from /docs", p)
		}
	}
	total, largest, largestPath := 0, 0, ""
	for p, b := range pages {
		total += len(b)
		if len(b) > largest {
			largest, largestPath = len(b), p
		}
		if len(b) > pageBudget {
			t.Errorf("/docs/%s is %d bytes, over the budget of %d", p, len(b), pageBudget)
		}
	}
	if len(pages) < len(doc.Tags)+3 || links < 1000 {
		t.Errorf("crawled %d pages and %d links: too few", len(pages), links)
	}
	t.Logf("crawled %d pages (%d bytes in all, the largest /docs/%s %d bytes), %d links checked", len(pages), total, largestPath, largest, links)
}

// A link to the former single page's anchor (/docs#createAttribute) still leads to the operation: a
// browser that opens it ends on /docs/attributes, at the operation.
func TestFormerAnchorsForward(t *testing.T) {
	t.Parallel()
	page, doc := loadTimed(t, "/docs#createAttribute")
	titles := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "title" })
	if len(titles) != 1 || !strings.HasPrefix(titles[0].Text(), "Attributes · ") {
		t.Fatalf("the browser ended on a page titled %d× %.200q, want the Attributes page", len(titles), page.DOM)
	}
	if ops := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "section" && n.Attr["id"] == "createAttribute" }); len(ops) != 1 {
		t.Errorf("the page has %d sections #createAttribute", len(ops))
	}
	// Without scripts, the same anchor on the index is the link to it.
	_, index := env.GetRaw(t, "/docs")
	if !strings.Contains(string(index), `<a id="createAttribute" data-moved href="/docs/attributes#createAttribute">`) {
		t.Error("the index has no link #createAttribute to /docs/attributes#createAttribute")
	}
}

// The index renders in a browser with every family linked, and the load time is logged beside the
// single page's (4.1 s for 4.77 MB in issue 27).
func TestIndexInBrowser(t *testing.T) {
	t.Parallel()
	page, doc := loadTimed(t, "/docs")
	for _, msg := range page.Console {
		if strings.Contains(msg, "Content Security Policy") || strings.Contains(msg, "Refused") || strings.Contains(msg, "Uncaught") {
			t.Errorf("console: %s", msg)
		}
	}
	families := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "section" && n.HasClass("family") })
	if len(families) < 40 {
		t.Errorf("the index shows %d families", len(families))
	}
	for _, want := range []string{"authentication", "families", "responses", "all-schemas"} {
		if len(doc.FindAll(func(n *apptest.Node) bool { return n.Attr["id"] == want })) == 0 {
			t.Errorf("the index has no #%s", want)
		}
	}
}

// loadTimed loads path in headless Chromium, logs how long that took (the browser's start
// included; logged, never asserted), and parses the DOM.
func loadTimed(t *testing.T, path string) (apptest.Page, *apptest.Node) {
	t.Helper()
	start := time.Now()
	page := apptest.LoadPage(t, env.BaseURL+path)
	t.Logf("%s: loaded and rendered by headless Chromium in %v", path, time.Since(start).Round(time.Millisecond))
	doc, err := apptest.ParseHTML(page.DOM)
	if err != nil {
		t.Fatalf("parse the DOM of %s: %v", path, err)
	}
	return page, doc
}
