package accept_transfer

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// createUpload creates an import awaiting its upload (API.md: 201 with {import, uploadUrl,
// uploadMethod, uploadHeaders, expiresAt}).
func (a *api) createUpload(format string, file []byte) (im map[string]any, upload func(body []byte)) {
	a.t.Helper()
	im, up := a.createUploadTry(format, file)
	return im, func(b []byte) {
		a.t.Helper()
		if st, msg := up(b); st/100 != 2 {
			a.t.Fatalf("upload: %d %s", st, msg)
		}
	}
}

// createUploadTry is createUpload whose upload answers its status instead of failing.
func (a *api) createUploadTry(format string, file []byte) (im map[string]any, upload func(body []byte) (int, string)) {
	a.t.Helper()
	r := a.do("POST", "/v1/imports", map[string]any{
		"format": format, "fileName": "catalog." + format, "sizeBytes": len(file), "checksumSha256": sha(file),
	})
	want(a.t, r, 201, "POST /v1/imports (upload)")
	body := r.obj()
	for _, k := range []string{"import", "uploadUrl", "uploadMethod", "uploadHeaders", "expiresAt"} {
		if _, ok := body[k]; !ok {
			a.t.Errorf("create import: no %q in %s", k, r)
		}
	}
	im, _ = body["import"].(map[string]any)
	if str(im, "status") != "awaiting_upload" {
		a.t.Errorf("created import status %q, want awaiting_upload", str(im, "status"))
	}
	if str(im, "format") != format || num(im, "sizeBytes") != float64(len(file)) || str(im, "checksumSha256") != sha(file) {
		a.t.Errorf("created import %v, want format %s sizeBytes %d checksum %s", im, format, len(file), sha(file))
	}
	if _, err := time.Parse(time.RFC3339, str(body, "expiresAt")); err != nil {
		a.t.Errorf("expiresAt %v: %v", body["expiresAt"], err)
	}
	upURL, method := str(body, "uploadUrl"), str(body, "uploadMethod")
	headers, _ := body["uploadHeaders"].(map[string]any)
	return im, func(b []byte) (int, string) {
		a.t.Helper()
		if !strings.HasPrefix(upURL, "http") {
			upURL = env.BaseURL + upURL
		}
		req, err := http.NewRequest(method, upURL, bytes.NewReader(b))
		if err != nil {
			a.t.Fatal(err)
		}
		for k, v := range headers {
			if s, ok := v.(string); ok {
				req.Header.Set(k, s)
			}
		}
		res, err := httpc.Do(req)
		if err != nil {
			a.t.Fatal(err)
		}
		msg, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, string(msg)
	}
}

func (a *api) transition(path, tr string) resp {
	a.t.Helper()
	return a.do("PATCH", path+"/actions/lifecycle", map[string]any{"transition": tr})
}

// TestImportResourceAndUpload: the Import's fields, the upload then start path, the job events, the
// list.
func TestImportResourceAndUpload(t *testing.T) {
	a := newTenant(t)
	file := []byte(strings.Join(fixture, "\n") + "\n")
	im, upload := a.createUpload("ndjson", file)
	id := str(im, "uuid")
	upload(file)
	r := a.transition("/v1/imports/"+id, "start")
	want(t, r, 200, "start")
	if st := str(r.obj(), "status"); st != "queued" && st != "running" && st != "completed" {
		t.Errorf("after start: status %q, want queued (or later)", st)
	}
	done := a.waitJob("/v1/imports/"+id, finalImport)
	counts(t, done, len(fixture), 0, 0, 0)
	for _, k := range []string{"uuid", "createdAt", "updatedAt", "format", "dryRun", "fileName", "sizeBytes", "checksumSha256", "status",
		"bytesRead", "linesRead", "createdCount", "updatedCount", "unchangedCount", "failedCount", "startedAt", "finishedAt", "failureReason"} {
		if _, ok := done[k]; !ok {
			t.Errorf("import has no field %q: %v", k, done)
		}
	}
	if done["dryRun"] != false || str(done, "fileName") != "catalog.ndjson" || num(done, "bytesRead") != float64(len(file)) ||
		num(done, "linesRead") != float64(len(fixture)) || done["failureReason"] != nil {
		t.Errorf("completed import: %v", done)
	}
	s, e1 := time.Parse(time.RFC3339, str(done, "startedAt"))
	f, e2 := time.Parse(time.RFC3339, str(done, "finishedAt"))
	if e1 != nil || e2 != nil || f.Before(s) {
		t.Errorf("startedAt %v finishedAt %v", done["startedAt"], done["finishedAt"])
	}
	if a.byCode("/v1/products", "P1") == nil {
		t.Errorf("uploaded import did not create P1")
	}
	l := want(t, a.get("/v1/imports"), 200, "list imports")
	if _, ok := l.obj()["pagination"]; !ok || len(l.items()) != 1 || str(l.items()[0], "uuid") != id {
		t.Errorf("list imports: %s", l)
	}
	ev := a.eventTypes()
	if !contains(ev, "import.created") || !contains(ev, "import.completed") {
		t.Errorf("events %v, want import.created and import.completed", ev)
	}
}

// TestImportStartVerifiesUpload: start checks the uploaded file's size and checksum.
func TestImportStartVerifiesUpload(t *testing.T) {
	a := newTenant(t)
	file := []byte(strings.Join(fixture, "\n") + "\n")
	// Same size, other bytes: the checksum does not match.
	// The upload itself may refuse it (the signed URL carries the checksum); if it takes it, start
	// must refuse (409, as the asset-file checks).
	im, upload := a.createUploadTry("ndjson", file)
	other := bytes.Replace(file, []byte("acme"), []byte("acmf"), 1)
	if st, _ := upload(other); st/100 == 2 {
		wantProblem(t, a.transition("/v1/imports/"+str(im, "uuid"), "start"), 409, "", "start after an upload with another checksum")
	} else if st/100 != 4 {
		t.Errorf("upload with another checksum: %d, want 2xx or 4xx", st)
	}
	// Another size.
	im2, upload2 := a.createUploadTry("ndjson", file)
	if st, _ := upload2(file[:len(file)-10]); st/100 == 2 {
		wantProblem(t, a.transition("/v1/imports/"+str(im2, "uuid"), "start"), 409, "", "start after an upload of another size")
	} else if st/100 != 4 {
		t.Errorf("upload of another size: %d, want 2xx or 4xx", st)
	}
	// Nothing uploaded.
	im3, _ := a.createUpload("ndjson", file)
	wantProblem(t, a.transition("/v1/imports/"+str(im3, "uuid"), "start"), 409, "", "start with nothing uploaded")
	if a.byCode("/v1/brands", "acme") != nil || a.byCode("/v1/brands", "acmf") != nil {
		t.Errorf("a refused import wrote")
	}
}

// TestImportCancel: cancel moves an import to cancelled and emits import.cancelled.
func TestImportCancel(t *testing.T) {
	a := newTenant(t)
	file := []byte(strings.Join(fixture, "\n") + "\n")
	im, _ := a.createUpload("ndjson", file)
	r := want(t, a.transition("/v1/imports/"+str(im, "uuid"), "cancel"), 200, "cancel")
	if str(r.obj(), "status") != "cancelled" {
		t.Errorf("after cancel: %s", r)
	}
	g := want(t, a.get("/v1/imports/"+str(im, "uuid")), 200, "get")
	if str(g.obj(), "status") != "cancelled" {
		t.Errorf("get after cancel: %s", g)
	}
	if ev := a.eventTypes(); !contains(ev, "import.cancelled") {
		t.Errorf("events %v, want import.cancelled", ev)
	}
}

// TestImportDryRun: everything is checked and counted, nothing is written, no event.
func TestImportDryRun(t *testing.T) {
	a := newTenant(t)
	lines := append(append([]string{}, fixture...), `{"type":"product","code":"BAD","kind":"simple","brand":"nope"}`)
	im := a.postInline("application/x-ndjson", strings.Join(lines, "\n"), true)
	if im["dryRun"] != true {
		t.Errorf("dryRun=true import: dryRun %v", im["dryRun"])
	}
	done := a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
	counts(t, done, len(fixture), 0, 0, 1)
	for _, c := range []string{"/v1/products", "/v1/brands", "/v1/locales", "/v1/categories", "/v1/channels", "/v1/tags"} {
		if n := len(a.all(c)); n != 0 {
			t.Errorf("dry run wrote %d in %s", n, c)
		}
	}
	evs := a.eventTypes()
	for _, e := range evs {
		if !strings.HasPrefix(e, "import.") {
			t.Errorf("dry run emitted %s", e)
		}
	}
	// API.md's "no event" for a dry run is read as no event of the catalog's resources: whether
	// the job's own import.* events are recorded is not asserted.
	t.Logf("dry run events: %v", evs)
	ls := a.lines(str(im, "uuid"), "")
	if len(ls) != 1 || str(ls[0], "code") != "BAD" {
		t.Errorf("dry run lines: %v, want BAD listed", ls)
	}
}

// TestImportBodyLimits: an inline body is at most 1 MiB; in a file, a line over 1 MiB fails alone.
func TestImportBodyLimits(t *testing.T) {
	a := newTenant(t)
	big := strings.Repeat("x", 1<<20+100)
	r := a.raw("POST", "/v1/imports", "application/x-ndjson", []byte(`{"type":"brand","code":"b","displayName":"`+big+`"}`))
	if r.status/100 != 4 {
		t.Errorf("inline body over 1 MiB: %s, want a 4xx refusal", r)
	}
	file := []byte(strings.Join([]string{
		`{"type":"brand","code":"b1"}`,
		`{"type":"brand","code":"b2","description":"` + big + `"}`,
		`{"type":"brand","code":"b3"}`,
	}, "\n") + "\n")
	im, upload := a.createUpload("ndjson", file)
	upload(file)
	want(t, a.transition("/v1/imports/"+str(im, "uuid"), "start"), 200, "start")
	done := a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
	counts(t, done, 2, 0, 0, 1)
	if a.byCode("/v1/brands", "b1") == nil || a.byCode("/v1/brands", "b3") == nil || a.byCode("/v1/brands", "b2") != nil {
		t.Errorf("brands after a file with one line over 1 MiB: want b1 and b3 only")
	}
	ls := a.lines(str(im, "uuid"), "")
	if len(ls) != 1 || num(ls[0], "line") != 2 || str(ls[0], "status") != "failed" {
		t.Errorf("lines %v, want line 2 failed", ls)
	}
}

// TestJobScopesAndTenants: catalog:read reads but cannot create, start or cancel; catalog:write
// can; another tenant sees nothing (404).
func TestJobScopesAndTenants(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(fixture[:3]...)
	id := str(im, "uuid")
	ro := a.as("catalog:read")
	wantProblem(t, ro.raw("POST", "/v1/imports", "application/x-ndjson", []byte(fixture[0])), 403, "", "read-only inline import")
	wantProblem(t, ro.do("POST", "/v1/imports", map[string]any{"format": "ndjson", "fileName": "f", "sizeBytes": 10}), 403, "", "read-only create import")
	wantProblem(t, ro.do("POST", "/v1/exports", map[string]any{"format": "ndjson"}), 403, "", "read-only create export")
	file := []byte(fixture[0] + "\n")
	pending, _ := a.createUpload("ndjson", file)
	wantProblem(t, ro.transition("/v1/imports/"+str(pending, "uuid"), "start"), 403, "", "read-only start")
	wantProblem(t, ro.transition("/v1/imports/"+str(pending, "uuid"), "cancel"), 403, "", "read-only cancel")
	ex := want(t, a.do("POST", "/v1/exports", map[string]any{"format": "ndjson"}), 201, "create export").obj()
	exID := str(ex, "uuid")
	wantProblem(t, ro.transition("/v1/exports/"+exID, "cancel"), 403, "", "read-only export cancel")
	want(t, ro.get("/v1/imports/"+id), 200, "read-only get import")
	want(t, ro.get("/v1/imports"), 200, "read-only list imports")
	want(t, ro.get("/v1/imports/"+id+"/lines"), 200, "read-only lines")
	want(t, ro.get("/v1/exports/"+exID), 200, "read-only get export")
	want(t, ro.get("/v1/exports"), 200, "read-only list exports")

	wo := a.as("catalog:write")
	want(t, wo.raw("POST", "/v1/imports", "application/x-ndjson", []byte(fixture[1])), 201, "catalog:write inline import")
	want(t, wo.transition("/v1/imports/"+str(pending, "uuid"), "cancel"), 200, "catalog:write cancel")
	a.waitJob("/v1/exports/"+exID, finalExport)

	b := newTenant(t)
	for _, p := range []string{"/v1/imports/" + id, "/v1/imports/" + id + "/lines", "/v1/exports/" + exID} {
		wantProblem(t, b.get(p), 404, "", "other tenant GET "+p)
	}
	wantProblem(t, b.transition("/v1/imports/"+id, "cancel"), 404, "", "other tenant cancel import")
	wantProblem(t, b.transition("/v1/exports/"+exID, "cancel"), 404, "", "other tenant cancel export")
	if n := len(want(t, b.get("/v1/imports"), 200, "other tenant list").items()); n != 0 {
		t.Errorf("other tenant lists %d imports", n)
	}
}

func parseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339, s) }

// putUpload sends file to a create answer's uploadUrl with its method and headers.
func putUpload(t *testing.T, created map[string]any, file []byte) {
	t.Helper()
	u := str(created, "uploadUrl")
	if !strings.HasPrefix(u, "http") {
		u = env.BaseURL + u
	}
	req, err := http.NewRequest(str(created, "uploadMethod"), u, bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := created["uploadHeaders"].(map[string]any); ok {
		for k, v := range h {
			if s, ok := v.(string); ok {
				req.Header.Set(k, s)
			}
		}
	}
	res, err := httpc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("upload: %d %s", res.StatusCode, b)
	}
}
