package attributes

import (
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	alice := env.Client(t)
	bob := env.Client(t)
	a := create(t, alice, "color", "Alice colour")
	id := Str(a, "uuid")
	removed := create(t, alice, "gone")
	removed = moveTo(t, alice, Str(removed, "uuid"), "removed")
	rid := Str(removed, "uuid")

	// Bob sees nothing of Alice's.
	WantProblem(t, bob.Get("/v1/attributes/"+id), 404, "NOT_FOUND")
	WantProblem(t, bob.Get("/v1/attributes/"+rid), 404, "NOT_FOUND")
	WantProblem(t, bob.Get("/v1/attributes/"+id+Q("include[contents]", "true", "expand[contents]", "true")), 404, "NOT_FOUND")
	WantProblem(t, bob.Patch("/v1/attributes/"+id, map[string]any{"displayName": "Bob's"}), 404, "NOT_FOUND")
	WantProblem(t, bob.Patch("/v1/attributes/"+id, map[string]any{"code": "bob"}), 404, "NOT_FOUND")
	WantProblem(t, bob.Delete("/v1/attributes/"+id), 404, "NOT_FOUND")
	for _, tr := range []string{"publish", "remove"} {
		WantProblem(t, transition(bob, id, tr), 404, "NOT_FOUND")
	}
	WantProblem(t, transition(bob, rid, "restore"), 404, "NOT_FOUND")
	WantProblem(t, bob.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": id, "displayName": "Bob's"}}), 404, "NOT_FOUND", "[0].uuid")
	WantProblem(t, bulkTransition(bob, "publish", id), 404, "NOT_FOUND", "uuids[0]")
	WantProblem(t, bulkTransition(bob, "restore", rid), 404, "NOT_FOUND", "uuids[0]")

	for _, query := range []string{
		"",
		Q("uuids[eq]", id),
		Q("uuids[eq]", rid, "isRemoved[eq]", "true"),
		Q("codes[eq]", "color"),
		Q("code[contains]", "o"),
		Q("displayNames[eq]", "Alice colour"),
		Q("isRemoved[eq]", "true"),
		Q("statuses[eq]", "draft", "statuses[eq]", "removed"),
	} {
		r := list(t, bob, query)
		if len(r.Items()) != 0 {
			t.Errorf("bob lists %s: %v", query, codesOf(r.Items()))
		}
		wantPagination(t, "bob "+query, r, 1, 20, 0, 0)
	}

	// Alice's data is untouched.
	if g := get(t, alice, id); !reflect.DeepEqual(g, a) {
		t.Errorf("after bob's attempts alice's attribute is %v, want %v", g, a)
	}
	if g := get(t, alice, rid); !reflect.DeepEqual(g, removed) {
		t.Errorf("after bob's attempts alice's removed attribute is %v, want %v", g, removed)
	}
	wantCodes(t, "alice's list", listCodes(t, alice, ""), "color")

	// The same code can exist in both tenants; each sees only its own.
	b := create(t, bob, "color", "Bob colour")
	if b["uuid"] == id {
		t.Fatalf("bob's attribute reuses alice's uuid")
	}
	Want(t, bob.Post("/v1/attributes/bulk", []map[string]any{{"code": "gone"}}), 201)
	Want(t, transition(bob, Str(b, "uuid"), "publish"), 200)
	if g := get(t, alice, id); !reflect.DeepEqual(g, a) {
		t.Errorf("bob's writes changed alice's attribute: %v", g)
	}
	wantCodes(t, "alice's list after bob's create", listCodes(t, alice, Q("codes[eq]", "color")), "color")
	items := list(t, alice, Q("codes[eq]", "color")).Items()
	if items[0]["uuid"] != id || items[0]["displayName"] != "Alice colour" {
		t.Errorf("alice sees %v", items[0])
	}
	items = list(t, bob, Q("codes[eq]", "color")).Items()
	if len(items) != 1 || items[0]["uuid"] != b["uuid"] || items[0]["status"] != "published" {
		t.Errorf("bob sees %v", items)
	}
	// Alice's uuid still cannot be reached through bob's uuid filter; bob's not through alice's.
	wantCodes(t, "alice filters bob's uuid", listCodes(t, alice, Q("uuids[eq]", Str(b, "uuid"))))
	WantProblem(t, alice.Get("/v1/attributes/"+Str(b, "uuid")), 404, "NOT_FOUND")

	// A bulk mixing one's own and another tenant's uuid fails as a whole.
	WantProblem(t, bulkTransition(bob, "remove", Str(b, "uuid"), id), 404, "NOT_FOUND", "uuids[1]")
	if g := get(t, bob, Str(b, "uuid")); g["status"] != "published" {
		t.Errorf("bob's attribute changed by a failed mixed bulk: %v", g["status"])
	}
	// Delete in one tenant does not touch the other's same-code attribute.
	Want(t, bob.Delete("/v1/attributes/"+Str(b, "uuid")), 204)
	if g := get(t, alice, id); !reflect.DeepEqual(g, a) {
		t.Errorf("bob's delete changed alice's attribute: %v", g)
	}
}
