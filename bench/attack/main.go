// Command attack replays the hostile input of the hardening issue against a running catalogd and
// counts the answers by status class: every operation of the served /openapi.json, with U+0000,
// invalid UTF-8 and other bad values in each path parameter, each query parameter (key and value) and
// each string of the operation's example body (plus bidi characters, over-long strings, deep nesting
// and broken JSON), and the header tricks (two Authorization headers, a method override, a non-JSON
// Content-Type, an anonymous 1 MiB body). A 5xx is a defect: each is listed and the exit status is 1.
//
//	go run ./bench/attack -base http://127.0.0.1:8080 -secret "$CATALOG_JWT_HS256_SECRET"
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/bench/measure"
)

var (
	base    = flag.String("base", "http://127.0.0.1:8080", "REST base URL of catalogd")
	tokens  = measure.TokenFlags("catalogd-dev")
	tenant  = flag.String("tenant", "attack", "tenant of the token")
	workers = flag.Int("workers", 8, "concurrent requests")
	verbose = flag.Bool("v", false, "list every 5xx with its body (else the first 40)")
)

// probe is one hostile request.
type probe struct {
	kind   string // what is hostile in it
	method string
	path   string // already escaped
	header http.Header
	body   []byte
}

type result struct {
	probe
	status int
	body   string
	err    error
}

func main() {
	flag.Parse()
	if err := tokens.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "attack:", err)
		os.Exit(2)
	}
	token, err := tokens.Mint(*tenant, "attack",
		[]string{"catalog:read", "catalog:write", "webhooks:read", "webhooks:write"}, time.Hour)
	if err != nil {
		fmt.Fprintln(os.Stderr, "attack:", err)
		os.Exit(2)
	}
	doc, err := fetchDoc()
	if err != nil {
		fmt.Fprintln(os.Stderr, "attack: /openapi.json:", err)
		os.Exit(2)
	}
	probes := build(doc)
	start := time.Now()
	results := run(probes, token)
	os.Exit(report(results, time.Since(start)))
}

func fetchDoc() (map[string]any, error) {
	resp, err := http.Get(*base + "/openapi.json")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var doc map[string]any
	return doc, json.NewDecoder(resp.Body).Decode(&doc)
}

// Hostile path and query values, already percent-encoded.
var badValues = map[string]string{
	"nul":          "a%00b",
	"invalid-utf8": "a%FFb",
	"overlong":     "%C0%AF",
	"surrogate":    "%ED%A0%80",
	"ctl":          "a%01%7Fb",
	"long":         strings.Repeat("x", 8000),
}

// Hostile replacements of a string in a JSON body: JSON text (quotes included) or raw bytes.
var badStrings = map[string][]byte{
	"nul":          []byte(`"a\u0000b"`),
	"invalid-utf8": []byte("\"a\xff\xfeb\""),
	"bidi":         []byte(`"\u202eevil\u202c"`),
	"ctl":          []byte(`"a\u0001\u001fb"`),
	"lone-surr":    []byte(`"\ud800"`),
	"long":         []byte(`"` + strings.Repeat("é", 70000) + `"`),
	"number":       []byte(`1e999999`),
	"deep":         []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)),
	"object":       []byte(`{"a":{"b":{"c":null}}}`),
}

var paramRe = regexp.MustCompile(`\{([^}]+)\}`)

func build(doc map[string]any) []probe {
	paths, _ := doc["paths"].(map[string]any)
	var out []probe
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, tpl := range keys {
		ops, _ := paths[tpl].(map[string]any)
		for _, method := range []string{"get", "post", "patch", "put", "delete"} {
			op, ok := ops[method].(map[string]any)
			if !ok {
				continue
			}
			m := strings.ToUpper(method)
			names := paramRe.FindAllStringSubmatch(tpl, -1)
			fill := func(bad, value string) string {
				return paramRe.ReplaceAllStringFunc(tpl, func(s string) string {
					if s == "{"+bad+"}" {
						return value
					}
					return uuid.NewString()
				})
			}
			ok200 := fill("", "")
			example := exampleBody(op)
			for _, n := range names {
				for kind, v := range badValues {
					out = append(out, probe{kind: "path " + n[1] + " " + kind, method: m, path: fill(n[1], v), body: example})
				}
			}
			for _, q := range queryParams(op) {
				for kind, v := range badValues {
					out = append(out, probe{kind: "query " + q + " " + kind, method: m, path: ok200 + "?" + url.QueryEscape(q) + "=" + v})
				}
				out = append(out, probe{kind: "query key " + q + " invalid-utf8", method: m, path: ok200 + "?" + url.QueryEscape(q) + "%FF=x"})
			}
			if example != nil {
				for _, v := range bodyVariants(example) {
					out = append(out, probe{kind: "body " + v.kind, method: m, path: ok200, body: v.body})
				}
				for kind, b := range map[string][]byte{"truncated": example[:len(example)/2], "empty": nil, "null": []byte("null"),
					"wrong-type": []byte(`"x"`), "huge-array": hugeArray()} {
					out = append(out, probe{kind: "body " + kind, method: m, path: ok200, body: b})
				}
				h := http.Header{"Content-Type": {"text/plain"}}
				out = append(out, probe{kind: "content-type text/plain", method: m, path: ok200, body: example, header: h})
				h = http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "X-Http-Method-Override": {"DELETE"}}
				out = append(out, probe{kind: "form + method override", method: m, path: ok200, body: []byte("a=b"), header: h})
			}
			out = append(out, probe{kind: "two authorization headers", method: m, path: ok200, body: example,
				header: http.Header{"Authorization": {"Bearer x", "Bearer y"}}})
			out = append(out, probe{kind: "anonymous 1 MiB", method: m, path: ok200, body: bytes.Repeat([]byte(" "), 1<<20),
				header: http.Header{"Authorization": nil}})
		}
	}
	return out
}

func queryParams(op map[string]any) []string {
	var out []string
	ps, _ := op["parameters"].([]any)
	for _, p := range ps {
		pm, _ := p.(map[string]any)
		if pm["in"] == "query" {
			out = append(out, pm["name"].(string))
		}
	}
	return out
}

func exampleBody(op map[string]any) []byte {
	rb, _ := op["requestBody"].(map[string]any)
	c, _ := rb["content"].(map[string]any)
	j, _ := c["application/json"].(map[string]any)
	ex, ok := j["example"]
	if !ok {
		return nil
	}
	b, _ := json.Marshal(ex)
	return b
}

type variant struct {
	kind string
	body []byte
}

// bodyVariants replaces each string value of the example, one at a time, with each bad string.
func bodyVariants(example []byte) []variant {
	var v any
	if json.Unmarshal(example, &v) != nil {
		return nil
	}
	var out []variant
	var leaves [][]any // paths to string leaves
	var walk func(x any, p []any)
	walk = func(x any, p []any) {
		switch t := x.(type) {
		case map[string]any:
			for k, c := range t {
				walk(c, append(slices.Clip(p), k))
			}
		case []any:
			for i, c := range t {
				walk(c, append(slices.Clip(p), i))
			}
		default:
			leaves = append(leaves, p)
		}
	}
	walk(v, nil)
	const mark = "\x1bMARK\x1b"
	for _, leaf := range leaves {
		marked := set(deepCopy(v), leaf, mark)
		b, _ := json.Marshal(marked)
		quoted, _ := json.Marshal(mark)
		for kind, bad := range badStrings {
			out = append(out, variant{kind: fmt.Sprint(leaf) + " " + kind, body: bytes.Replace(b, quoted, bad, 1)})
		}
	}
	return out
}

func deepCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func set(v any, p []any, val any) any {
	if len(p) == 0 {
		return val
	}
	switch k := p[0].(type) {
	case string:
		m := v.(map[string]any)
		m[k] = set(m[k], p[1:], val)
	case int:
		s := v.([]any)
		s[k] = set(s[k], p[1:], val)
	}
	return v
}

func hugeArray() []byte {
	var b bytes.Buffer
	b.WriteString(`{"value":[`)
	for b.Len() < 1<<20-64 {
		b.WriteString("0,")
	}
	b.WriteString("0]}")
	return b.Bytes()
}

func run(probes []probe, token string) []result {
	client := &http.Client{Timeout: 60 * time.Second}
	jobs := make(chan probe)
	res := make(chan result)
	var wg sync.WaitGroup
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				res <- send(client, p, token)
			}
		}()
	}
	go func() {
		for _, p := range probes {
			jobs <- p
		}
		close(jobs)
		wg.Wait()
		close(res)
	}()
	var out []result
	for r := range res {
		out = append(out, r)
	}
	return out
}

func send(client *http.Client, p probe, token string) result {
	var body io.Reader
	if p.body != nil {
		body = bytes.NewReader(p.body)
	}
	req, err := http.NewRequest(p.method, *base+p.path, body)
	if err != nil {
		// The URL itself is refused by net/http (e.g. a control character): send it raw.
		req, err = http.NewRequest(p.method, *base+"/", body)
		if err != nil {
			return result{probe: p, err: err}
		}
		req.URL.Opaque = p.path
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if p.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range p.header {
		if v == nil {
			req.Header.Del(k)
			continue
		}
		req.Header[k] = v
	}
	resp, err := client.Do(req)
	if err != nil {
		return result{probe: p, err: err}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
	return result{probe: p, status: resp.StatusCode, body: string(b)}
}

func report(results []result, took time.Duration) int {
	classes := map[string]int{}
	statuses := map[int]int{}
	var bad []result
	for _, r := range results {
		switch {
		case r.err != nil:
			classes["error"]++
		case r.status >= 500:
			classes["5xx"]++
			bad = append(bad, r)
		default:
			classes[fmt.Sprintf("%dxx", r.status/100)]++
		}
		statuses[r.status]++
	}
	fmt.Printf("attack: %d requests in %s\n", len(results), took.Round(time.Millisecond))
	fmt.Printf("attack: by class: 2xx %d, 3xx %d, 4xx %d, 5xx %d, transport errors %d\n",
		classes["2xx"], classes["3xx"], classes["4xx"], classes["5xx"], classes["error"])
	codes := make([]int, 0, len(statuses))
	for c := range statuses {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d×%d", c, statuses[c]))
	}
	fmt.Printf("attack: by status: %s\n", strings.Join(parts, " "))
	// 5xx by what was hostile (the last word of the probe's kind: nul, invalid-utf8, …).
	byKind := map[string]int{}
	for _, r := range bad {
		byKind[r.kind[strings.LastIndex(r.kind, " ")+1:]]++
	}
	if len(byKind) > 0 {
		kinds := make([]string, 0, len(byKind))
		for k := range byKind {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		parts = parts[:0]
		for _, k := range kinds {
			parts = append(parts, fmt.Sprintf("%s×%d", k, byKind[k]))
		}
		fmt.Printf("attack: 5xx by probe: %s\n", strings.Join(parts, " "))
	}
	sort.Slice(bad, func(i, j int) bool { return bad[i].path < bad[j].path })
	for i, r := range bad {
		if i == 40 && !*verbose {
			fmt.Printf("… and %d more (-v lists all)\n", len(bad)-40)
			break
		}
		fmt.Printf("5xx: %d %s %s [%s] %s\n", r.status, r.method, trim(r.path), r.kind, trim(r.body))
	}
	for _, r := range results {
		if r.err != nil && *verbose {
			fmt.Printf("error: %s %s [%s] %v\n", r.method, trim(r.path), r.kind, r.err)
		}
	}
	if len(bad) > 0 {
		return 1
	}
	return 0
}

func trim(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}
