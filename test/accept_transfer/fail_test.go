package accept_transfer

import (
	"testing"
)

// TestUnreadableFile: a file that cannot be read (a CSV without its required code column, a
// body that is not UTF-8) either fails the job with a failureReason and import.failed, or fails
// every row; it never writes.
func TestUnreadableFile(t *testing.T) {
	for name, body := range map[string]string{
		"no code column": "kind,brand\nsimple,acme\n",
		"not UTF-8":      "code,kind\n\xff\xfe\xfd,simple\n",
	} {
		t.Run(name, func(t *testing.T) {
			a := newTenant(t)
			im := a.postInline("text/csv", body, false)
			done := a.waitJob("/v1/imports/"+str(im, "uuid"), finalImport)
			t.Logf("%s: status %s failureReason %v failed %v", name, str(done, "status"), done["failureReason"], done["failedCount"])
			switch str(done, "status") {
			case "failed":
				if str(done, "failureReason") == "" {
					t.Errorf("failed import without failureReason: %v", done)
				}
				if !contains(a.eventTypes(), "import.failed") {
					t.Errorf("failed import: no import.failed event in %v", a.eventTypes())
				}
			case "completed":
				if num(done, "failedCount") < 1 || num(done, "createdCount") != 0 {
					t.Errorf("completed import of an unreadable file: %v", done)
				}
			default:
				t.Errorf("status %q", str(done, "status"))
			}
			if n := len(a.all("/v1/products")); n != 0 {
				t.Errorf("an unreadable file wrote %d products", n)
			}
		})
	}
}

// TestCancelFinishedJobs: a finished import cannot be cancelled into another state.
func TestCancelFinishedJobs(t *testing.T) {
	a := newTenant(t)
	im := a.importNDJSON(fixture[:2]...)
	r := a.transition("/v1/imports/"+str(im, "uuid"), "cancel")
	t.Logf("cancel a completed import: %s", r)
	if r.status == 200 && str(r.obj(), "status") != "completed" {
		t.Errorf("cancelling a completed import changed its status: %s", r)
	}
	if r.status != 200 && r.status != 409 {
		t.Errorf("cancel a completed import: %s, want 409 (or a no-op 200)", r)
	}
	g := a.get("/v1/imports/" + str(im, "uuid"))
	if str(g.obj(), "status") != "completed" {
		t.Errorf("after cancel: %s", g)
	}
	// Start of an inline (queued) import is refused: only an upload awaits start.
	r = a.transition("/v1/imports/"+str(im, "uuid"), "start")
	if r.status/100 != 4 {
		t.Errorf("start a completed import: %s, want a 4xx", r)
	}
}

// TestForwardReferencesAndCascades: a relation to a product further down resolves; a line waiting on a code
// whose own line failed fails with UNRESOLVED_REFERENCE naming it; re-importing API.md's example
// (money values, contents, terms, links, publications) is all unchanged.
func TestForwardReferencesAndCascades(t *testing.T) {
	a := newTenant(t)
	counts(t, a.importNDJSON(apiExample...), len(apiExample), 0, 0, 0)
	ev := len(a.eventTypes())
	counts(t, a.importNDJSON(apiExample...), 0, 0, len(apiExample), 0)
	if got := newEvents(a.eventTypes(), ev); len(got) != 0 {
		t.Errorf("re-importing API.md's example emitted %v", got)
	}

	im := a.importNDJSON(
		`{"type":"product","code":"MA","kind":"simple","relations":[{"relationType":"cross_sell","target":"MB"}]}`,
		`{"type":"product","code":"MB","kind":"simple"}`,
		`{"type":"product","code":"KID","kind":"variant","family":"footwear","parent":"DAD","attributes":{"color":["red"]}}`,
		`{"type":"product","code":"DAD","kind":"variant_parent","family":"footwear","brand":"ghost"}`,
	)
	counts(t, im, 2, 0, 0, 2)
	// (Two lines referring to each other are not asserted: API.md's atomic lines and "any order"
	// do not say whether such a cycle resolves; the service applies such products together, see
	// test/transfer TestImportRelatedNewProducts.)
	ma, mb := a.uuidOf("/v1/products", "MA"), a.uuidOf("/v1/products", "MB")
	if rs := a.all("/v1/products/" + ma + "/relations"); len(rs) != 1 || str(rs[0], "targetProductUuid") != mb {
		t.Errorf("MA relations %v", rs)
	}
	for _, l := range a.lines(str(im, "uuid"), "") {
		if str(l, "code") == "KID" {
			found := false
			for _, e := range l["errors"].([]any) {
				m := e.(map[string]any)
				if str(m, "field") == "parent" && str(m, "code") == "UNRESOLVED_REFERENCE" {
					found = true
				}
			}
			if !found || num(l, "line") != 3 {
				t.Errorf("KID (its parent's line failed): %v, want line 3 UNRESOLVED_REFERENCE on parent", l)
			}
		}
	}
}
