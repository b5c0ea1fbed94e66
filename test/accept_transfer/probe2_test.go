package accept_transfer

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestExportMore: cancel of an export, the categoryTreeUuids product filter, statuses in the
// round trip, and a CSV round trip into a tenant with the same structure.
func TestExportMore(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(catalog...)
	if num(im, "failedCount") != 0 {
		t.Fatalf("catalog: %v", a.lines(str(im, "uuid"), ""))
	}
	// A product moved on through its lifecycle after publishing.
	counts(t, a.importNDJSON(`{"type":"product","code":"P2","status":"active"}`, `{"type":"product","code":"P2","status":"inactive"}`,
		`{"type":"category","code":"shoes","status":"active"}`), 0, 3, 0, 0)
	if st := str(a.mustCode("/v1/products", "P2"), "status"); st != "inactive" {
		t.Errorf("P2 status %q, want inactive", st)
	}
	if st := str(a.mustCode("/v1/categories", "shoes"), "status"); st != "active" {
		t.Errorf("category shoes status %q, want active", st)
	}

	// categoryTreeUuids: a product in boots is in the tree of shoes.
	shoes := a.uuidOf("/v1/categories", "shoes")
	_, file := a.export(map[string]any{"format": "ndjson", "types": []string{"product"}, "productFilter": map[string]any{"categoryTreeUuids": []string{shoes}}})
	var codes []string
	for _, l := range nonEmptyLines(file) {
		var m map[string]any
		_ = json.Unmarshal([]byte(l), &m)
		if str(m, "type") == "product" {
			codes = append(codes, str(m, "code"))
		}
	}
	if strings.Join(codes, ",") != "P1" {
		t.Errorf("categoryTreeUuids [shoes]: %v, want P1 (in boots, a child of shoes)", codes)
	}

	// NDJSON round trip with statuses.
	_, full := a.export(map[string]any{"format": "ndjson"})
	b := newTenant(t)
	imB := b.importNDJSON(strings.TrimRight(string(full), "\n"))
	if num(imB, "failedCount") != 0 {
		t.Errorf("round trip import: %v", b.lines(str(imB, "uuid"), ""))
	}
	if st := str(b.mustCode("/v1/products", "P2"), "status"); st != "inactive" {
		t.Errorf("round trip: P2 status %q, want inactive", st)
	}
	_, fullB := b.export(map[string]any{"format": "ndjson"})
	if string(fullB) != string(full) {
		t.Errorf("round trip differs:\nA: %s\nB: %s", full, fullB)
	}

	// CSV round trip: structure by NDJSON, products by CSV.
	var structure []string
	for _, l := range nonEmptyLines(full) {
		if !strings.Contains(l, `"type":"product"`) {
			structure = append(structure, l)
		}
	}
	_, csvA := a.export(map[string]any{"format": "csv", "types": []string{"product"}})
	c := newTenant(t)
	if im := c.importNDJSON(structure...); num(im, "failedCount") != 0 {
		t.Fatalf("structure: %v", c.lines(str(im, "uuid"), ""))
	}
	imC := c.importCSV(string(csvA))
	if num(imC, "failedCount") != 0 {
		t.Errorf("CSV round trip import: %v", c.lines(str(imC, "uuid"), ""))
	}
	_, csvC := c.export(map[string]any{"format": "csv", "types": []string{"product"}})
	if string(csvC) != string(csvA) {
		t.Errorf("CSV round trip differs:\nA: %s\nC: %s", csvA, csvC)
	}

	// Cancel: a queued or running export can be cancelled; a finished one cannot change.
	r := want(t, a.do("POST", "/v1/exports", map[string]any{"format": "ndjson"}), 201, "create export")
	id := str(r.obj(), "uuid")
	cr := a.transition("/v1/exports/"+id, "cancel")
	switch cr.status {
	case 200:
		if st := str(cr.obj(), "status"); st != "cancelled" {
			t.Errorf("cancelled export status %q", st)
		}
		done := a.waitJob("/v1/exports/"+id, finalExport)
		if str(done, "status") != "cancelled" || str(done, "downloadUrl") != "" {
			t.Errorf("cancelled export later: %v", done)
		}
	case 409: // it had already finished
		if st := str(a.get("/v1/exports/"+id).obj(), "status"); !finalExport[st] {
			t.Errorf("cancel refused with 409 while the export is %q", st)
		}
	default:
		t.Errorf("cancel export: %s", cr)
	}
}

// TestInlineBodyOfExactly1MiB: "at most 1 MiB" takes a body of exactly 1 MiB.
func TestInlineBodyOfExactly1MiB(t *testing.T) {
	a := newTenant(t)
	var b strings.Builder
	n := 0
	long := strings.Repeat("d", 9000)
	for b.Len() < 1<<20-10000 {
		fmt.Fprintf(&b, "{\"type\":\"asset\",\"category\":\"other\",\"code\":\"t%05d\",\"description\":\"%s\"}\n", n, long)
		n++
	}
	pad := 1<<20 - b.Len() - len(`{"type":"asset","category":"other","code":"last","description":""}`+"\n")
	fmt.Fprintf(&b, "{\"type\":\"asset\",\"category\":\"other\",\"code\":\"last\",\"description\":\"%s\"}\n", strings.Repeat("x", pad))
	if b.Len() != 1<<20 || pad > 10000 {
		t.Fatalf("built %d bytes, pad %d", b.Len(), pad)
	}
	im := a.postInline("application/x-ndjson", b.String(), true)
	done := a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
	counts(t, done, n+1, 0, 0, 0)
	if ls := a.lines(str(im, "uuid"), ""); len(ls) > 0 {
		t.Logf("first failed line: %v", ls[0]["errors"])
	}
}
