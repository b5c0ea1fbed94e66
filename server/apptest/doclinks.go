package apptest

import (
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	idAttrRe   = regexp.MustCompile(`\sid="([^"]+)"`)
	hrefAttrRe = regexp.MustCompile(`\shref="([^"]*)"`)
)

// PageHrefs are the href attributes of an HTML page, unescaped, in order.
func PageHrefs(page []byte) []string {
	var out []string
	for _, m := range hrefAttrRe.FindAllStringSubmatch(string(page), -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// DocsPage is the page of the API reference an href leads to: its slug ("" for the index, served
// at base; base/<slug> for the others) and fragment; ok is false for a link outside the reference
// (another path, another site, data:).
func DocsPage(base, from, href string) (slug, fragment string, ok bool) {
	u, err := url.Parse(href)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return "", "", false
	}
	if u.Path == "" {
		return from, u.Fragment, true
	}
	rest, inside := strings.CutPrefix(u.Path, base)
	if !inside || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return "", "", false
	}
	return strings.TrimPrefix(rest, "/"), u.Fragment, true
}

// CheckDocsLinks checks the API reference's pages (by slug, "" the index, served under base):
// within a page no id repeats, every link into the reference leads to a page of pages and, with a
// fragment, to an id of that page, and a link to another path of the site is one of outside (e.g.
// /openapi.json). It returns the pages reached from the index by following links, and the number
// of links checked.
func CheckDocsLinks(t testing.TB, base string, pages map[string][]byte, outside ...string) (reached map[string]bool, links int) {
	t.Helper()
	ids := map[string]map[string]bool{}
	for slug, body := range pages {
		ids[slug] = map[string]bool{}
		for _, m := range idAttrRe.FindAllStringSubmatch(string(body), -1) {
			id := html.UnescapeString(m[1])
			if ids[slug][id] {
				t.Errorf("page %q: id %q twice", slug, id)
			}
			ids[slug][id] = true
		}
	}
	reached = map[string]bool{"": true}
	queue := []string{""}
	for len(queue) > 0 {
		from := queue[0]
		queue = queue[1:]
		for _, href := range PageHrefs(pages[from]) {
			slug, frag, ok := DocsPage(base, from, href)
			if !ok {
				if u, err := url.Parse(href); err == nil && u.Scheme == "" && u.Host == "" && !slices.Contains(outside, u.Path) {
					t.Errorf("page %q: href %q leads outside the reference", from, href)
				}
				continue
			}
			links++
			if _, exists := pages[slug]; !exists {
				t.Errorf("page %q: href %q: no page %q", from, href, slug)
				continue
			}
			if frag != "" && !ids[slug][frag] {
				t.Errorf("page %q: href %q: page %q has no anchor %q", from, href, slug, frag)
			}
			if !reached[slug] {
				reached[slug] = true
				queue = append(queue, slug)
			}
		}
	}
	return reached, links
}
