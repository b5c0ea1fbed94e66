// Package docs serves a human-readable API reference rendered from the service's OpenAPI 3.1
// document. The page is rendered once, server-side, with html/template: operations grouped by tag
// with their scopes, parameters, request bodies, responses and examples, and the document's
// schemas. Its stylesheet and a few lines of script (a filter box; the page works without it) are
// our own, embedded, and inlined, so the page loads nothing from anywhere: no CDN, no fonts, no
// telemetry, and a Content-Security-Policy that allows nothing but the page's own inline code.
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
}

// Handler reads the OpenAPI document and returns a handler that serves the reference page (GET and
// HEAD) with an ETag, Cache-Control, gzip when the client accepts it, and a strict
// Content-Security-Policy. It fails when the document is not a JSON object. The page is rendered
// once, in the background from the moment Handler returns (a few hundred milliseconds for a large
// document, which start-up need not wait for); a request that comes earlier waits for it.
func Handler(openapiJSON []byte, opts Options) (http.Handler, error) {
	root, err := readDocument(openapiJSON)
	if err != nil {
		return nil, err
	}
	h := &handler{ready: make(chan struct{})}
	go func() {
		defer close(h.ready)
		defer func() {
			if p := recover(); p != nil {
				h.err = fmt.Errorf("render the API reference: %v", p)
			}
		}()
		h.page, h.err = newPage(root, opts)
	}()
	return h, nil
}

// Render returns the page and the Content-Security-Policy it needs.
func Render(openapiJSON []byte, opts Options) (page []byte, csp string, err error) {
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

func render(root *object, opts Options) (page []byte, csp string, err error) {
	p := build(root, opts.SpecURL)
	css, err := assets.ReadFile("assets/style.css")
	if err != nil {
		return nil, "", err
	}
	js, err := assets.ReadFile("assets/script.js")
	if err != nil {
		return nil, "", err
	}
	p.CSS, p.JS = template.CSS(css), template.JS(js)
	var out bytes.Buffer
	if err := pageTemplate.Execute(&out, p); err != nil {
		return nil, "", err
	}
	csp = "default-src 'none'; style-src " + hashSource(css) + "; script-src " + hashSource(js) +
		"; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	return out.Bytes(), csp, nil
}

// renderedPage is the page in both encodings, with their ETags.
type renderedPage struct {
	body, gz     []byte
	etag, gzETag string
	csp          string
}

func newPage(root *object, opts Options) (*renderedPage, error) {
	body, csp, err := render(root, opts)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	_, _ = zw.Write(body)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	return &renderedPage{body: body, gz: gz.Bytes(), etag: `"` + tag + `"`, gzETag: `"` + tag + `-gz"`, csp: csp}, nil
}

func hashSource(b []byte) string {
	sum := sha256.Sum256(b)
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var pageTemplate = template.Must(template.New("page.html.tmpl").Funcs(template.FuncMap{
	"lower": strings.ToLower,
}).ParseFS(assets, "assets/page.html.tmpl"))

type handler struct {
	ready chan struct{} // closed when page or err is set
	page  *renderedPage
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
	p := h.page
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
