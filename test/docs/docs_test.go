package docs

import (
	"bytes"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// The page is served with its caching and security headers, and /docs/ leads to it.
func TestServed(t *testing.T) {
	t.Parallel()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(env.BaseURL + "/docs")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /docs: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.HasPrefix(csp, "default-src 'none'; style-src 'sha256-") || !strings.Contains(csp, "script-src 'sha256-") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	if res.Header.Get("Cache-Control") == "" || res.Header.Get("X-Request-Id") == "" {
		t.Errorf("headers: %v", res.Header)
	}
	if !bytes.Contains(body, []byte(`href="/openapi.json"`)) {
		t.Error("the page does not link the OpenAPI document")
	}
	etag := res.Header.Get("ETag")
	req, _ := http.NewRequest("GET", env.BaseURL+"/docs", nil)
	req.Header.Set("If-None-Match", etag)
	if r, err := client.Do(req); err != nil || r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: %v %v", etag, r.StatusCode, err)
	} else {
		r.Body.Close()
	}
	r, err := client.Get(env.BaseURL + "/docs/")
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusMovedPermanently || r.Header.Get("Location") != "/docs" {
		t.Errorf("GET /docs/: %d Location %q", r.StatusCode, r.Header.Get("Location"))
	}
	if r, err := client.Get(env.BaseURL + "/docs/else"); err != nil || r.StatusCode != http.StatusNotFound {
		t.Errorf("GET /docs/else: %v %v", r.StatusCode, err)
	}
}

// A browser renders the attribute family's page (/docs/attributes): "Create an attribute" with its
// method, path, scope and body fields, visible, with the page's own script and style allowed by its
// Content-Security-Policy and nothing fetched from elsewhere.
func TestRenderedInBrowser(t *testing.T) {
	t.Parallel()
	start := time.Now()
	page := apptest.LoadPage(t, env.BaseURL+"/docs/attributes")
	t.Logf("/docs/attributes: loaded and rendered by headless Chromium in %v (the browser's start included)", time.Since(start).Round(time.Millisecond))
	for _, msg := range page.Console {
		if strings.Contains(msg, "Content Security Policy") || strings.Contains(msg, "Refused") ||
			strings.Contains(msg, "Failed to load") || strings.Contains(msg, "Uncaught") {
			t.Errorf("console: %s", msg)
		}
	}
	doc, err := apptest.ParseHTML(page.DOM)
	if err != nil {
		t.Fatalf("parse the DOM: %v\n%.2000s", err, page.DOM)
	}
	visible := func(what string, n *apptest.Node) {
		t.Helper()
		if by := n.HiddenBy(); by != "" {
			t.Errorf("%s is hidden by %s", what, by)
		}
	}

	// The operation: its heading, inside an operation section, inside the Attributes tag section.
	headings := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "h3" && n.Text() == "Create an attribute" })
	if len(headings) != 1 {
		t.Fatalf("want one heading \"Create an attribute\", found %d", len(headings))
	}
	h := headings[0]
	visible("the heading", h)
	op := h.Closest(func(n *apptest.Node) bool { return n.Tag == "section" && n.HasClass("op") })
	if op == nil || op.Attr["id"] == "" {
		t.Fatal("the heading is not in an operation section with an anchor")
	}
	tag := op.Parent.Closest(func(n *apptest.Node) bool { return n.Tag == "section" && n.HasClass("tag") })
	if tag == nil {
		t.Fatal("the operation is not in a tag section")
	}
	tagHeads := tag.FindAll(func(n *apptest.Node) bool { return n.Tag == "h2" })
	if len(tagHeads) == 0 || tagHeads[0].Text() != "Attributes" {
		t.Fatalf("the operation is under the tag section %q, want Attributes", tagHeads[0].Text())
	}
	visible("the Attributes tag heading", tagHeads[0])
	text := op.Text()
	for _, want := range []string{"POST /v1/attributes", "Required scope catalog:write", "Request body required application/json",
		"201", "Location", "X-Request-Id", "Problem"} {
		if !strings.Contains(text, want) {
			t.Errorf("the operation lacks %q: %.1500s", want, text)
		}
	}

	// The request body's fields, in the body table (before the Responses heading), visible.
	fields := map[string]*apptest.Node{}
	for _, td := range op.FindAll(func(n *apptest.Node) bool { return n.Tag == "td" && n.HasClass("name") }) {
		if table := td.Closest(func(n *apptest.Node) bool { return n.Tag == "table" }); table != nil && table.HasClass("props") {
			for _, c := range td.FindAll(func(n *apptest.Node) bool { return n.Tag == "code" }) {
				fields[c.Text()] = td
			}
		}
	}
	for _, name := range []string{"code", "displayName"} {
		td, ok := fields[name]
		if !ok {
			t.Errorf("the request body table lacks %s (has %v)", name, keys(fields))
			continue
		}
		visible("body field "+name, td)
	}
	if td := fields["code"]; td != nil && !strings.Contains(td.Text(), "required") {
		t.Errorf("code is not marked required: %q", td.Text())
	}

	// The page leads back to the index.
	if back := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "a" && n.Attr["href"] == "/docs" }); len(back) == 0 {
		t.Error("the family page has no link back to /docs")
	}

	// The sidebar links to the operation's anchor, under the Attributes group.
	links := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "a" && n.Attr["href"] == "#"+op.Attr["id"] })
	var navLink *apptest.Node
	for _, a := range links {
		if a.Closest(func(n *apptest.Node) bool { return n.Tag == "nav" }) != nil {
			navLink = a
		}
	}
	if navLink == nil || !strings.Contains(navLink.Text(), "Create an attribute") {
		t.Fatalf("no sidebar link to #%s", op.Attr["id"])
	}
	visible("the sidebar link", navLink)
	group := navLink.Closest(func(n *apptest.Node) bool { return n.HasClass("nav-group") })
	if group == nil || !strings.HasPrefix(group.Text(), "Attributes ") {
		t.Errorf("the sidebar link is not in the Attributes group")
	}

	// The page's script ran (so the policy allowed it): it shows the filter box it hides without script.
	filters := doc.FindAll(func(n *apptest.Node) bool { return n.Tag == "input" && n.Attr["id"] == "filter" })
	if len(filters) != 1 {
		t.Fatal("no filter box")
	}
	visible("the filter box (shown by the page's script)", filters[0])
}

// A screenshot of the page as a browser paints it, kept in the test's artifact directory (run with
// -artifacts to keep it, e.g. go test -artifacts -outputdir /tmp/out ./test/docs). Its colours show
// that the stylesheet applied: the sidebar's grey and the white content area.
func TestScreenshot(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.ArtifactDir(), "docs.png")
	apptest.Screenshot(t, env.BaseURL+"/docs", file, 1280, 2000)
	t.Logf("screenshot: %s", file)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2000 {
		t.Fatalf("screenshot is %v, want 1280×2000", b)
	}
	rgb := func(x, y int) [3]uint32 {
		r, g, b, _ := img.At(x, y).RGBA()
		return [3]uint32{r >> 8, g >> 8, b >> 8}
	}
	if got, want := rgb(4, 1990), [3]uint32{0xf6, 0xf7, 0xf9}; got != want {
		t.Errorf("sidebar pixel %v, want %v (the stylesheet did not apply?)", got, want)
	}
	if got, want := rgb(1275, 1990), [3]uint32{0xff, 0xff, 0xff}; got != want {
		t.Errorf("content pixel %v, want %v", got, want)
	}
	// Something is drawn: the sidebar's text makes its column far from uniform.
	distinct := map[[3]uint32]bool{}
	for y := 0; y < 2000; y += 2 {
		for x := 0; x < 290; x += 2 {
			distinct[rgb(x, y)] = true
		}
	}
	if len(distinct) < 20 {
		t.Errorf("the sidebar has %d colours: nothing drawn?", len(distinct))
	}
}

func keys(m map[string]*apptest.Node) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
