package accept_transfer

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestNDJSONLinesIndependent: a broken line (not JSON, unknown type, bad status) fails alone; a
// set given in another order is unchanged; a code twice in one file is created then updated.
func TestNDJSONLinesIndependent(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	im := a.importNDJSON(
		`{"type":"tag","code":"a1"}`,                               // 1 created
		`{"type":"tag","code":`,                                    // 2 not JSON
		`{"type":"gizmo","code":"g1"}`,                             // 3 unknown type
		`{"type":"product","code":"P1","tags":["new","sale"]}`,     // 4 the same set in another order: unchanged
		`{"type":"product","code":"P1","status":"no-such-status"}`, // 5 bad status
		`{"type":"tag","code":"a2"}`,                               // 6 created
		`{"type":"tag","code":"a2","displayName":"A two"}`,         // 7 updated
	)
	counts(t, im, 2, 1, 1, 3)
	if a.byCode("/v1/tags", "a1") == nil || str(a.mustCode("/v1/tags", "a2"), "displayName") != "A two" {
		t.Errorf("good lines after broken ones not applied")
	}
	var got []float64
	for _, l := range a.lines(str(im, "uuid"), "") {
		got = append(got, num(l, "line"))
		if str(l, "status") != "failed" || len(l["errors"].([]any)) == 0 {
			t.Errorf("line %v", l)
		}
	}
	if len(got) != 3 || got[0]+got[1]+got[2] != 2+3+5 {
		t.Errorf("failed lines %v, want 2, 3, 5", got)
	}
	if p := a.product("P1"); p.status == "no-such-status" {
		t.Errorf("bad status applied")
	}
}

// TestCSVAnyOrderAndRowLines: a CSV row may refer to a product of a later row; a failing row that
// spans lines is reported at the line where it starts.
func TestCSVAnyOrderAndRowLines(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(csvBase...), len(csvBase), 0, 0, 0)
	csv := "code,kind,family,parent,brand,value:title@de-DE,attribute:color,publication:web\n" +
		"V2-R,variant,fw,V2,,,blue,\n" + // 2: its parent comes later
		"X1,simple,,,ghost,\"a\nb\nc\",,\n" + // 3-5: unknown brand
		"V2,variant_parent,fw,,,,,\n" + // 6
		"X2,simple,,,,,,maybe\n" // 7: not a publication status
	im := a.importCSV(csv)
	counts(t, im, 2, 0, 0, 2)
	if vr := a.byCode("/v1/products", "V2-R"); vr == nil || str(vr, "parentUuid") != a.uuidOf("/v1/products", "V2") {
		t.Errorf("V2-R with its parent in a later row: %v", vr)
	}
	ls := a.lines(str(im, "uuid"), "")
	lines := map[int]string{}
	for _, l := range ls {
		lines[int(num(l, "line"))] = str(l, "code")
	}
	if lines[3] != "X1" || lines[7] != "X2" || len(ls) != 2 {
		t.Errorf("failed CSV lines %v, want X1 at line 3 (where its row starts) and X2 at line 7", lines)
	}
	// dryRun works for CSV too.
	dry := a.postInline("text/csv", "code,kind\nNEW1,simple\n", true)
	done := a.waitJob("/v1/imports/"+str(dry, "uuid"), finalImport)
	counts(t, done, 1, 0, 0, 0)
	if a.byCode("/v1/products", "NEW1") != nil {
		t.Errorf("a CSV dry run wrote")
	}
}

// TestInlineImportRecord: an inline body is the file: its size and checksum are recorded; the import
// has an ETag; an Idempotency-Key replays the first answer without a second import.
func TestInlineImportRecord(t *testing.T) {
	a := newTenant(t)
	body := strings.Join(fixture[:3], "\n") + "\n"
	im := a.postInline("application/x-ndjson", body, false)
	if num(im, "sizeBytes") != float64(len(body)) || str(im, "checksumSha256") != sha([]byte(body)) || str(im, "format") != "ndjson" {
		t.Errorf("inline import sizeBytes %v checksum %v format %v, want %d %s ndjson", im["sizeBytes"], im["checksumSha256"], im["format"], len(body), sha([]byte(body)))
	}
	done := a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
	if num(done, "bytesRead") != float64(len(body)) {
		t.Errorf("bytesRead %v, want %d", done["bytesRead"], len(body))
	}
	if g := a.get("/v1/imports/" + str(im, "uuid")); g.header.Get("ETag") == "" {
		t.Errorf("GET import: no ETag")
	}
	csv := a.postInline("text/csv", "code,kind\nQ1,simple\n", false)
	if str(csv, "format") != "csv" {
		t.Errorf("text/csv body: format %q", str(csv, "format"))
	}
	a.waitJob("/v1/imports/"+str(csv, "uuid"), finalImport)

	send := func() resp {
		req, _ := http.NewRequest("POST", env.BaseURL+"/v1/imports", bytes.NewReader([]byte(`{"type":"tag","code":"idem"}`)))
		req.Header.Set("Authorization", "Bearer "+a.token)
		req.Header.Set("Content-Type", "application/x-ndjson")
		req.Header.Set("Idempotency-Key", "k-"+a.tenant)
		res, err := httpc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return resp{status: res.StatusCode, header: res.Header, raw: b}
	}
	r1, r2 := send(), send()
	if r1.status != 201 || r2.status != 201 || r2.header.Get("Idempotency-Replayed") != "true" || !bytes.Equal(r1.raw, r2.raw) {
		t.Errorf("idempotent inline import: %d then %d replayed %q", r1.status, r2.status, r2.header.Get("Idempotency-Replayed"))
	}
	if n := len(a.all("/v1/imports")); n != 3 {
		t.Errorf("%d imports, want 3 (the retry replayed)", n)
	}
}

// TestExportDownloadURLOnlyWhenCompleted: downloadUrl is given on get, when completed; a queued
// export has none; exports are listed.
func TestExportDownloadURLOnlyWhenCompleted(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	r := want(t, a.do("POST", "/v1/exports", map[string]any{"format": "ndjson"}), 201, "create export")
	ex := r.obj()
	if str(ex, "status") != "completed" && str(ex, "downloadUrl") != "" {
		t.Errorf("export in status %q has a downloadUrl", str(ex, "status"))
	}
	a.waitJob("/v1/exports/"+str(ex, "uuid"), finalExport)
	l := want(t, a.get("/v1/exports"), 200, "list exports")
	if _, ok := l.obj()["pagination"]; !ok || len(l.items()) != 1 {
		t.Errorf("list exports: %s", l)
	}
	wantProblem(t, a.do("POST", "/v1/exports", map[string]any{"format": "csv", "types": []string{"brand"}}), 400, "", "CSV export of brands (csv is for products only)")
	wantProblem(t, a.do("POST", "/v1/exports", map[string]any{"format": "xml"}), 400, "", "unknown export format")
	wantProblem(t, a.get("/v1/imports/"+RandomUUIDLike()), 404, "", "unknown import")
}

// RandomUUIDLike is a well-formed uuid no tenant has.
func RandomUUIDLike() string { return "0190a3b4-0000-7000-8000-000000000001" }
