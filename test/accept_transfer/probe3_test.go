package accept_transfer

import (
	"testing"
)

// TestNoOpAndNullLines: deleting a value that does not exist, an empty set that is already empty
// and fields equal to the stored ones change nothing; null clears a reference (PATCH semantics).
func TestNoOpAndNullLines(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	counts(t, a.importNDJSON(`{"type":"product","code":"P9","kind":"simple"}`), 1, 0, 0, 0)
	before := a.product("P9")
	ev := len(a.eventTypes())
	counts(t, a.importNDJSON(
		`{"type":"product","code":"P9","values":[{"inputType":"weight","value":null}]}`,
		`{"type":"product","code":"P9","tags":[],"categories":[]}`,
		`{"type":"product","code":"P9","kind":"simple"}`,
		`{"type":"category","code":"boots","parent":"shoes","position":2}`,
	), 0, 0, 4, 0)
	after := a.product("P9")
	if after.etag != before.etag || after.updatedAt != before.updatedAt {
		t.Errorf("no-op lines changed P9: %s → %s", before.etag, after.etag)
	}
	if got := newEvents(a.eventTypes(), ev); len(got) != 0 {
		t.Errorf("no-op lines emitted %v", got)
	}

	counts(t, a.importNDJSON(`{"type":"category","code":"boots","parent":null}`, `{"type":"product","code":"P1","brand":null}`), 0, 2, 0, 0)
	boots := a.mustCode("/v1/categories", "boots")
	if boots["parentUuid"] != nil || num(boots, "position") != 2 {
		t.Errorf("boots after parent null: parentUuid %v position %v, want a root keeping position 2", boots["parentUuid"], boots["position"])
	}
	if p := a.product("P1"); p.brandUUID != "" {
		t.Errorf("P1 after brand null: brandUuid %q", p.brandUUID)
	}
	// A line of another import's uuid is not found under this one.
	im1 := a.importNDJSON(`{"type":"product","code":"Z","kind":"simple","brand":"nope"}`)
	im2 := a.importNDJSON(`{"type":"tag","code":"zz"}`)
	ls := a.lines(str(im1, "uuid"), "")
	if len(ls) != 1 {
		t.Fatalf("lines %v", ls)
	}
	wantProblem(t, a.get("/v1/imports/"+str(im2, "uuid")+"/lines/"+str(ls[0], "uuid")), 404, "", "a line under another import")
}

// TestUploadedCSVDryRun: the upload path takes a CSV and dryRun in the create body.
func TestUploadedCSVDryRun(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(fixture...), len(fixture), 0, 0, 0)
	file := []byte("\ufeffcode,kind,brand,value:weight\nU1,simple,acme,12\nU2,simple,nope,\n")
	r := a.do("POST", "/v1/imports", map[string]any{"format": "csv", "dryRun": true, "fileName": "p.csv", "sizeBytes": len(file), "checksumSha256": sha(file)})
	want(t, r, 201, "create CSV dry-run import")
	im, _ := r.obj()["import"].(map[string]any)
	if im["dryRun"] != true || str(im, "format") != "csv" {
		t.Errorf("created import %v", im)
	}
	exp := r.obj()["expiresAt"]
	if created, err1 := parseTime(str(im, "createdAt")); err1 == nil {
		if e, err2 := parseTime(str(r.obj(), "expiresAt")); err2 != nil || !e.After(created) {
			t.Errorf("expiresAt %v not after createdAt %v", exp, im["createdAt"])
		}
	}
	putUpload(t, r.obj(), file)
	want(t, a.transition("/v1/imports/"+str(im, "uuid"), "start"), 200, "start")
	done := a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
	counts(t, done, 1, 0, 0, 1)
	if a.byCode("/v1/products", "U1") != nil {
		t.Errorf("a dry run wrote U1")
	}
	ls := a.lines(str(im, "uuid"), "")
	if len(ls) != 1 || num(ls[0], "line") != 3 {
		t.Errorf("dry run lines %v, want U2 at line 3", ls)
	}
}
