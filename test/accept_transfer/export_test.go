package accept_transfer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
)

// catalog is csvBase with every other family and products using them.
var catalog = append(append([]string{}, csvBase...),
	`{"type":"collection","code":"summer"}`,
	`{"type":"productAssetType","code":"gallery"}`,
	`{"type":"productRelationType","code":"cross_sell","direction":"one_way"}`,
	`{"type":"asset","code":"img1","category":"image"}`,
	`{"type":"product","code":"V1","kind":"variant_parent","family":"fw","status":"active"}`,
	`{"type":"product","code":"V1-R","kind":"variant","family":"fw","parent":"V1","attributes":{"color":["red"]},"values":[{"inputType":"weight","value":2}],"relations":[{"relationType":"cross_sell","target":"P1"}],"assets":[{"asset":"img1","assetType":"gallery","displayPriority":0}]}`,
	`{"type":"product","code":"P1","status":"active","publications":[{"channel":"web","status":"published"}]}`,
	`{"type":"product","code":"P2","kind":"simple","brand":"acme"}`,
)

// export runs an export to its end and downloads it, checking the API.md fields against the bytes.
func (a *api) export(body map[string]any) (ex map[string]any, file []byte) {
	a.t.Helper()
	r := want(a.t, a.do("POST", "/v1/exports", body), 201, "POST /v1/exports")
	created := r.obj()
	if ex, ok := created["export"].(map[string]any); ok { // tolerate an envelope
		created = ex
	}
	if st := str(created, "status"); st != "queued" && st != "running" && st != "completed" {
		a.t.Errorf("created export status %q, want queued (or later)", st)
	}
	id := str(created, "uuid")
	ex = a.waitJob("/v1/exports/"+id, finalExport)
	if str(ex, "status") != "completed" {
		a.t.Fatalf("export %v: status %q failureReason %v", body, str(ex, "status"), ex["failureReason"])
	}
	for _, k := range []string{"uuid", "createdAt", "updatedAt", "status", "itemCount", "sizeBytes", "checksumSha256", "downloadUrl", "startedAt", "finishedAt", "failureReason"} {
		if _, ok := ex[k]; !ok {
			a.t.Errorf("export has no field %q: %v", k, ex)
		}
	}
	u := str(ex, "downloadUrl")
	if !strings.HasPrefix(u, "http") {
		u = env.BaseURL + u
	}
	res, err := httpc.Get(u) // signed: no Authorization header
	if err != nil {
		a.t.Fatal(err)
	}
	file, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		a.t.Fatalf("download %s: %d %s", u, res.StatusCode, file)
	}
	if num(ex, "sizeBytes") != float64(len(file)) {
		a.t.Errorf("export sizeBytes %v, downloaded %d bytes", ex["sizeBytes"], len(file))
	}
	if str(ex, "checksumSha256") != sha(file) {
		a.t.Errorf("export checksumSha256 %q, sha256 of the downloaded bytes %q", str(ex, "checksumSha256"), sha(file))
	}
	// The signature matters: a tampered URL is refused.
	if bad, err := httpc.Get(u + "x"); err == nil {
		bad.Body.Close()
		if bad.StatusCode == http.StatusOK {
			a.t.Errorf("a tampered download URL was served")
		}
	}
	return ex, file
}

func nonEmptyLines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// refKinds maps a reference field to the family it names ("" : the line's own family).
var refKinds = map[string]string{
	"parent": "", "family": "family", "brand": "brand", "typeGroup": "typeGroup", "inputType": "inputType",
	"locale": "locale", "locales": "locale", "channel": "channel", "categories": "category", "tags": "tag",
	"attribute": "attribute", "assetType": "productAssetType", "relationType": "productRelationType",
	"target": "product", "asset": "asset", "collections": "collection",
}

// checkReferencedBeforeUse checks that every code an NDJSON export refers to was listed before.
func checkReferencedBeforeUse(t *testing.T, lines []string) {
	t.Helper()
	seen := map[string]bool{}
	var walk func(typ, key string, v any, lineNo int)
	ref := func(typ, kind, code string, lineNo int) {
		if kind == "" {
			kind = typ
		}
		if !seen[kind+":"+code] {
			t.Errorf("export line %d refers to %s %q before listing it", lineNo, kind, code)
		}
	}
	walk = func(typ, key string, v any, lineNo int) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "contents" {
					if m, ok := e.(map[string]any); ok {
						for loc, c := range m {
							ref(typ, "locale", loc, lineNo)
							walk(typ, k, c, lineNo)
						}
					}
					continue
				}
				if k == "attributes" && typ == "product" {
					if m, ok := e.(map[string]any); ok {
						for attr := range m {
							ref(typ, "attribute", attr, lineNo)
						}
						continue
					}
				}
				walk(typ, k, e, lineNo)
			}
		case []any:
			for _, e := range x {
				walk(typ, key, e, lineNo)
			}
		case string:
			if kind, ok := refKinds[key]; ok {
				ref(typ, kind, x, lineNo)
			}
		}
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Errorf("export line %d is not JSON: %v", i+1, err)
			continue
		}
		typ := str(m, "type")
		if typ == "" || str(m, "code") == "" {
			t.Errorf("export line %d has no type or code: %s", i+1, l)
		}
		body := map[string]any{}
		for k, v := range m {
			if k != "type" && k != "code" {
				body[k] = v
			}
		}
		seen[typ+":"+str(m, "code")] = true // a line may refer to itself (none does here)
		walk(typ, "", body, i+1)
	}
}

// distinct is the number of resources (type and code) of NDJSON lines.
func distinct(lines []string) int {
	seen := map[string]bool{}
	for _, l := range lines {
		var m map[string]any
		_ = json.Unmarshal([]byte(l), &m)
		seen[str(m, "type")+":"+str(m, "code")] = true
	}
	return len(seen)
}

func sortedCopy(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// TestExportNDJSONRoundTrip: an NDJSON export (fields, signed download, checksum, references before
// use, gzip) imported into an empty tenant rebuilds the catalog: its export equals the first.
func TestExportNDJSONRoundTrip(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(catalog...)
	if str(im, "status") != "completed" || num(im, "failedCount") != 0 {
		t.Fatalf("catalog import: %v; lines %v", im, a.lines(str(im, "uuid"), ""))
	}
	ex, file := a.export(map[string]any{"format": "ndjson"})
	lines := nonEmptyLines(file)
	// API.md does not say whether itemCount counts lines or resources (a resource may take two
	// lines, e.g. relations listed after their targets): either is accepted.
	resources := distinct(lines)
	if n := num(ex, "itemCount"); n != float64(len(lines)) && n != float64(resources) {
		t.Errorf("itemCount %v, file has %d lines of %d resources", ex["itemCount"], len(lines), resources)
	}
	checkReferencedBeforeUse(t, lines)
	for _, want := range []string{"locale:de-DE", "brand:acme", "category:boots", "attribute:color", "family:fw", "channel:web",
		"inputType:title", "typeGroup:main", "collection:summer", "asset:img1", "product:P1", "product:V1-R", "productAssetType:gallery", "productRelationType:cross_sell"} {
		found := false
		for _, l := range lines {
			var m map[string]any
			_ = json.Unmarshal([]byte(l), &m)
			if str(m, "type")+":"+str(m, "code") == want {
				found = true
			}
		}
		if !found {
			t.Errorf("export has no %s line", want)
		}
	}
	if ev := a.eventTypes(); !contains(ev, "export.completed") {
		t.Errorf("events %v, want export.completed", ev)
	}

	// gzip really is gzip of the same content; checksum and size are of the downloaded bytes.
	_, gz := a.export(map[string]any{"format": "ndjson", "gzip": true})
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatalf("gzip export is not gzip: %v", err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	if !bytes.Equal(plain, file) {
		t.Errorf("gunzipped export differs from the plain export:\n%s\n--\n%s", truncate(string(plain), 400), truncate(string(file), 400))
	}

	// Round trip into an empty tenant.
	b := newTenant(t)
	imB := b.importNDJSON(strings.TrimRight(string(file), "\n"))
	if str(imB, "status") != "completed" || num(imB, "failedCount") != 0 || num(imB, "createdCount") != float64(resources) ||
		num(imB, "createdCount")+num(imB, "updatedCount")+num(imB, "unchangedCount") != float64(len(lines)) {
		t.Errorf("importing A's export into B: %v; lines %v", imB, b.lines(str(imB, "uuid"), ""))
	}
	_, fileB := b.export(map[string]any{"format": "ndjson"})
	if !bytes.Equal(fileB, file) {
		la, lb := lines, nonEmptyLines(fileB)
		if strings.Join(sortedCopy(la), "\n") == strings.Join(sortedCopy(lb), "\n") {
			t.Errorf("export of B has A's lines in another order")
		} else {
			t.Errorf("export of B differs from export of A:\nA: %s\nB: %s", truncate(string(file), 3000), truncate(string(fileB), 3000))
		}
	}
	// And importing it again into B changes nothing.
	again := b.importNDJSON(strings.TrimRight(string(file), "\n"))
	counts(t, again, 0, 0, len(lines), 0)
}

// TestExportFilters: types and productFilter choose what is exported.
func TestExportFilters(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(catalog...)
	if num(im, "failedCount") != 0 {
		t.Fatalf("catalog import: %v", im)
	}
	ex, file := a.export(map[string]any{"format": "ndjson", "types": []string{"brand", "tag"}})
	lines := nonEmptyLines(file)
	got := map[string]bool{}
	for _, l := range lines {
		var m map[string]any
		_ = json.Unmarshal([]byte(l), &m)
		got[str(m, "type")+":"+str(m, "code")] = true
	}
	if len(lines) != 3 || !got["brand:acme"] || !got["tag:sale"] || !got["tag:new"] || num(ex, "itemCount") != 3 ||
		num(ex, "sizeBytes") != float64(len(file)) {
		t.Errorf("types [brand tag]: %d lines %v itemCount %v", len(lines), got, ex["itemCount"])
	}
	_, file = a.export(map[string]any{"format": "ndjson", "types": []string{"product"}, "productFilter": map[string]any{"statuses": []string{"active"}}})
	var codes []string
	for _, l := range nonEmptyLines(file) {
		var m map[string]any
		_ = json.Unmarshal([]byte(l), &m)
		if str(m, "type") == "product" {
			codes = append(codes, str(m, "code"))
		}
	}
	sort.Strings(codes)
	if strings.Join(codes, ",") != "P1,V1" {
		t.Errorf("productFilter statuses [active]: products %v, want P1,V1", codes)
	}
}

// TestExportCSV: a CSV export of products uses the import's columns, and imports back unchanged.
func TestExportCSV(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(catalog...)
	if num(im, "failedCount") != 0 {
		t.Fatalf("catalog import: %v", im)
	}
	ex, file := a.export(map[string]any{"format": "csv", "types": []string{"product"}})
	text := strings.TrimPrefix(string(file), "\ufeff")
	header := strings.TrimRight(strings.SplitN(text, "\n", 2)[0], "\r")
	cols := map[string]bool{}
	for _, c := range strings.Split(header, ",") {
		cols[strings.Trim(c, `"`)] = true
	}
	for _, c := range []string{"code", "kind", "family", "parent", "brand", "status", "categories", "tags", "attribute:color",
		"value:weight", "value:title@de-DE", "value:weight#web", "publication:web"} {
		if !cols[c] {
			t.Errorf("CSV export header %q has no column %q", header, c)
		}
	}
	if num(ex, "itemCount") != 4 {
		t.Errorf("CSV export itemCount %v, want 4 products", ex["itemCount"])
	}
	if !strings.Contains(text, "sale|new") && !strings.Contains(text, "new|sale") {
		t.Errorf("CSV export does not join P1's tags with |:\n%s", text)
	}
	// Importing the export back changes nothing.
	again := a.importCSV(string(file))
	counts(t, again, 0, 0, 4, 0)
}
