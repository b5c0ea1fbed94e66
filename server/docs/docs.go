// Package docs serves a human-readable API reference rendered from the service's OpenAPI 3.1
// document. The pages are rendered once, server-side, with html/template: an index (introduction,
// servers, authentication, scopes, and every family, operation and schema linked to its page), one
// page per tag (a resource family: its operations with their scopes, parameters, request bodies,
// responses and examples, and the schemas only that family uses), and a page each for the shared
// responses and the schemas several families share. Their stylesheet and a few lines of script (a
// filter box, and the index's forwarding of the single page's old anchors; the pages work without
// it) are our own, embedded, and inlined, so a page loads nothing from anywhere: no CDN, no fonts,
// no telemetry, and a Content-Security-Policy that allows nothing but the page's own inline code.
package docs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

//go:embed assets/page.html.tmpl assets/style.css assets/script.js
var assets embed.FS

// Options adjust the page.
type Options struct {
	// SpecURL is where the OpenAPI document is served, linked from the page; empty: no link.
	SpecURL string
	// Base is the path the reference is served under: the index at Base, each other page at
	// Base/<slug>. Empty: /docs.
	Base string
}

// Handler reads the OpenAPI document and returns a handler that serves the reference's pages (GET and
// HEAD: the index at Options.Base, each other page at Base/<slug>, 404 for any other path) with an ETag, Cache-Control, gzip when the client accepts it, and a strict
// Content-Security-Policy. It fails when the document is not a JSON object. The page is rendered
// once, in the background from the moment Handler returns (a few hundred milliseconds for a large
// document, which start-up need not wait for); a request that comes earlier waits for it.
func Handler(openapiJSON []byte, opts Options) (http.Handler, error) {
	root, err := readDocument(openapiJSON)
	if err != nil {
		return nil, err
	}
	h := &handler{ready: make(chan struct{}), base: strings.TrimSuffix(opts.Base, "/")}
	if opts.Base == "" {
		h.base = "/docs"
	}
	go func() {
		defer close(h.ready)
		defer func() {
			if p := recover(); p != nil {
				h.err = fmt.Errorf("render the API reference: %v", p)
			}
		}()
		h.pages, h.err = newPages(root, opts)
	}()
	return h, nil
}

// Render returns the pages, by slug ("" is the index, served at Options.Base; every other page at
// Base/<slug>), and the Content-Security-Policy they need.
func Render(openapiJSON []byte, opts Options) (pages map[string][]byte, csp string, err error) {
	root, err := readDocument(openapiJSON)
	if err != nil {
		return nil, "", err
	}
	return render(root, opts)
}

func readDocument(b []byte) (*object, error) {
	v, err := parseJSON(b)
	if err != nil {
		return nil, fmt.Errorf("read the OpenAPI document: %w", err)
	}
	root, ok := v.(*object)
	if !ok {
		return nil, errors.New("read the OpenAPI document: it is not a JSON object")
	}
	return root, nil
}

// view is one page of the reference: the index (Kind "index", Slug ""), a group's page ("group"),
// the shared responses or the shared schemas.
type view struct {
	*page
	Kind, Slug string
	Group      *group
}

// render renders every page: by slug ("" is the index), with the Content-Security-Policy they share.
func render(root *object, opts Options) (pages map[string][]byte, csp string, err error) {
	base := strings.TrimSuffix(opts.Base, "/")
	if opts.Base == "" {
		base = "/docs"
	}
	p := build(root, opts.SpecURL, base)
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		return nil, "", err
	}
	js, err := assets.ReadFile("assets/script.js")
	if err != nil {
		return nil, "", err
	}
	p.CSS, p.JS = template.CSS(css), template.JS(js)
	views := []view{{page: p, Kind: "index"}}
	for _, g := range p.Groups {
		views = append(views, view{page: p, Kind: "group", Slug: g.Slug, Group: g})
	}
	if len(p.SharedResponses) > 0 {
		views = append(views, view{page: p, Kind: "responses", Slug: responsesPage})
	}
	if len(p.SharedModels) > 0 {
		views = append(views, view{page: p, Kind: "schemas", Slug: schemasPage})
	}
	pages = map[string][]byte{}
	for _, v := range views {
		var out bytes.Buffer
		if err := pageTemplate.Execute(&out, v); err != nil {
			return nil, "", err
		}
		pages[v.Slug] = out.Bytes()
	}
	csp = "default-src 'none'; style-src " + hashSource(css) + "; script-src " + hashSource(js) +
		"; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	return pages, csp, nil
}

// renderedPage is the page in both encodings, with their ETags.
type renderedPage struct {
	body, gz     []byte
	etag, gzETag string
	csp          string
}

func newPages(root *object, opts Options) (map[string]*renderedPage, error) {
	pages, csp, err := render(root, opts)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*renderedPage, len(pages))
	for slug, body := range pages {
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
		_, _ = zw.Write(body)
		if err := zw.Close(); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		tag := hex.EncodeToString(sum[:12])
		out[slug] = &renderedPage{body: body, gz: gz.Bytes(), etag: `"` + tag + `"`, gzETag: `"` + tag + `-gz"`, csp: csp}
	}
	return out, nil
}

func hashSource(b []byte) string {
	sum := sha256.Sum256(b)
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var pageTemplate = template.Must(template.New("page.html.tmpl").Funcs(template.FuncMap{
	"lower": strings.ToLower,
}).ParseFS(assets, "assets/page.html.tmpl"))

type handler struct {
	base  string
	ready chan struct{} // closed when pages or err is set
	pages map[string]*renderedPage
	err   error
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	select {
	case <-h.ready:
	case <-r.Context().Done():
		return
	}
	if h.err != nil {
		http.Error(w, "the API reference could not be rendered", http.StatusInternalServerError)
		return
	}
	slug, ok := strings.CutPrefix(r.URL.Path, h.base)
	if ok && slug != "" {
		slug, ok = strings.CutPrefix(slug, "/")
	}
	p := h.pages[slug]
	if !ok || p == nil || (slug == "" && r.URL.Path != h.base) {
		http.Error(w, "no such page of the API reference", http.StatusNotFound)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Cache-Control", "public, max-age=300")
	hd.Set("Content-Security-Policy", p.csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Add("Vary", "Accept-Encoding")
	body, etag := p.body, p.etag
	if acceptsGzip(r.Header.Values("Accept-Encoding")) {
		body, etag = p.gz, p.gzETag
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("ETag", etag)
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		hd.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// acceptsGzip: Accept-Encoding names gzip (or *) with a non-zero quality.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			fields := strings.Split(part, ";")
			coding := strings.ToLower(strings.TrimSpace(fields[0]))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			q := 1.0
			for _, p := range fields[1:] {
				p = strings.TrimSpace(p)
				if strings.HasPrefix(strings.ToLower(p), "q=") {
					if f, err := strconv.ParseFloat(p[2:], 64); err == nil {
						q = f
					}
				}
			}
			if q > 0 {
				return true
			}
		}
	}
	return false
}

// etagMatches is If-None-Match's weak comparison against etag.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
