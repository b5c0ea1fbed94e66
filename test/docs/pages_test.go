package docs

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// pageBudget: the most bytes one page of the reference may have (the same budget as server/docs's
// PageBudget: 256 KiB uncompressed).
const pageBudget = 256 << 10

var (
	idRe   = regexp.MustCompile(`\sid="([^"]+)"`)
	hrefRe = regexp.MustCompile(`\shref="([^"]*)"`)
)

func get(t *testing.T, path string) (int, []byte) {
	t.Helper()
	res, err := http.Get(env.BaseURL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

// Crawling the served reference from /docs reaches a page per tag of /openapi.json, and the shared
// responses and schemas; every internal href of every page resolves (200, and the anchor is on the
// page it names); no page is over the budget.
func TestCrawlReference(t *testing.T) {
	t.Parallel()
	_, raw := get(t, "/openapi.json")
	var doc struct {
		Tags []struct {
			Name string `json:"name"`
		} `json:"tags"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	pages := map[string][]byte{}
	ids := map[string]map[string]bool{}
	queue := []string{"/docs"}
	type link struct{ from, href string }
	var links []link
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		status, body := get(t, path)
		if status != 200 {
			t.Errorf("GET %s: %d", path, status)
			continue
		}
		pages[path] = body
		ids[path] = map[string]bool{}
		for _, m := range idRe.FindAllStringSubmatch(string(body), -1) {
			ids[path][html.UnescapeString(m[1])] = true
		}
		for _, m := range hrefRe.FindAllStringSubmatch(string(body), -1) {
			href := html.UnescapeString(m[1])
			u, err := url.Parse(href)
			if err != nil || u.Scheme != "" || u.Host != "" {
				continue // data: and links to elsewhere
			}
			if u.Path == "" {
				u.Path = path
			}
			links = append(links, link{path, u.Path + "#" + u.Fragment})
			if _, seen := pages[u.Path]; !seen && strings.HasPrefix(u.Path, "/docs") && !contains(queue, u.Path) {
				queue = append(queue, u.Path)
			}
		}
	}
	for _, l := range links {
		p, frag, _ := strings.Cut(l.href, "#")
		if p == "/openapi.json" {
			if frag != "" {
				t.Errorf("%s links %s", l.from, l.href)
			}
			continue
		}
		if _, ok := pages[p]; !ok {
			t.Errorf("%s links %s: not a page of the reference", l.from, l.href)
		} else if frag != "" && !ids[p][frag] {
			t.Errorf("%s links %s: no anchor %q there", l.from, l.href, frag)
		}
	}
	for _, tag := range doc.Tags {
		path := "/docs/" + strings.ToLower(strings.ReplaceAll(tag.Name, " ", "-"))
		if _, ok := pages[path]; !ok {
			t.Errorf("no page %s for the tag %q reached from /docs", path, tag.Name)
		}
	}
	for _, p := range []string{"/docs/responses", "/docs/schemas"} {
		if _, ok := pages[p]; !ok {
			t.Errorf("%s is not reached from /docs", p)
		}
	}
	total, largest, largestPath := 0, 0, ""
	for p, b := range pages {
		total += len(b)
		if len(b) > largest {
			largest, largestPath = len(b), p
		}
		if len(b) > pageBudget {
			t.Errorf("%s is %d bytes, over the budget of %d", p, len(b), pageBudget)
		}
	}
	if len(pages) < len(doc.Tags)+3 || len(links) < 1000 {
		t.Errorf("crawled %d pages and %d links: too few", len(pages), len(links))
	}
	t.Logf("crawled %d pages (%d bytes in all, the largest %s %d bytes), %d links checked", len(pages), total, largestPath, largest, len(links))
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// A link to the former single page's anchor (/docs#createAttribute) still leads to the operation: a
// browser that opens it ends on /docs/attributes, at the operation.
func TestFormerAnchorsForward(t *testing.T) {
	t.Parallel()
	start := time.Now()
	page := apptest.LoadPage(t, env.BaseURL+"/docs#createAttribute")
	t.Logf("/docs#createAttribute: forwarded, loaded and rendered by headless Chromium in %v", time.Since(start).Round(time.Millisecond))
	doc, err := apptest.ParseHTML(page.DOM)
	if err != nil {
		t.Fatal(err)
	}
	titles := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "title" })
	if len(titles) != 1 || !strings.HasPrefix(titles[0].Text(), "Attributes · ") {
		t.Fatalf("the browser ended on a page titled %d× %.200q, want the Attributes page", len(titles), page.DOM)
	}
	if ops := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "section" && n.Attr["id"] == "createAttribute" }); len(ops) != 1 {
		t.Errorf("the page has %d sections #createAttribute", len(ops))
	}
	// Without scripts, the same anchor on the index is the link to it.
	_, index := get(t, "/docs")
	if !strings.Contains(string(index), `<a id="createAttribute" data-moved href="/docs/attributes#createAttribute">`) {
		t.Error("the index has no link #createAttribute to /docs/attributes#createAttribute")
	}
}

// The index renders in a browser with every family linked, and the load time is logged beside the
// single page's (4.1 s for 4.77 MB in issue 27).
func TestIndexInBrowser(t *testing.T) {
	t.Parallel()
	start := time.Now()
	page := apptest.LoadPage(t, env.BaseURL+"/docs")
	t.Logf("/docs: loaded and rendered by headless Chromium in %v (the browser's start included)", time.Since(start).Round(time.Millisecond))
	doc, err := apptest.ParseHTML(page.DOM)
	if err != nil {
		t.Fatal(err)
	}
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
