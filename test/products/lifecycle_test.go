package products

import (
	"reflect"
	"slices"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// allowedFrom is DESIGN.md's table for products: the transitions that change each state.
var allowedFrom = map[string][]string{
	"draft":    {"activate", "remove"},
	"active":   {"deactivate", "remove"},
	"inactive": {"activate", "remove"},
	"removed":  {"restore"},
}

var targetOf = map[string]string{"activate": "active", "deactivate": "inactive", "remove": "removed", "restore": "draft"}

var verbOf = map[string]string{"activate": "activated", "deactivate": "deactivated", "remove": "removed", "restore": "restored"}

// pathTo is the moves that bring a draft product to each state.
var pathTo = map[string][]string{"draft": nil, "active": {"activate"}, "inactive": {"activate", "deactivate"}, "removed": {"remove"}}

func TestLifecycleEveryTransitionFromEveryState(t *testing.T) {
	t.Parallel()
	for _, from := range []string{"draft", "active", "inactive", "removed"} {
		for _, tr := range []string{"activate", "deactivate", "remove", "restore"} {
			t.Run(from+"/"+tr, func(t *testing.T) {
				t.Parallel()
				c, tenant := env.TenantClient(t)
				id := mkProductID(t, c, "P", "simple")
				for _, m := range pathTo[from] {
					Want(t, transition(c, id, m), 200)
				}
				before := Want(t, c.Get("/v1/products/"+id), 200).Obj()
				log := NewEventLog(pool, tenant).Skip(t)
				r := transition(c, id, tr)
				to := targetOf[tr]
				switch {
				case to == from:
					if got := Want(t, r, 200).Obj(); !reflect.DeepEqual(got, before) {
						t.Errorf("no-op changed the product: %v, want %v", got, before)
					}
					log.Expect(t, "no-op")
				case slices.Contains(allowedFrom[from], tr):
					got := Want(t, r, 200).Obj()
					wantProduct(t, tr, got, "status", to, "uuid", id, "createdAt", before["createdAt"])
					if !TS(t, got["updatedAt"]).After(TS(t, before["updatedAt"])) {
						t.Errorf("updatedAt did not move: %v", got)
					}
					if to == "removed" && got["removedAt"] != got["updatedAt"] {
						t.Errorf("removedAt %v, want %v", got["removedAt"], got["updatedAt"])
					}
					if to != "removed" && got["removedAt"] != nil {
						t.Errorf("removedAt %v, want null", got["removedAt"])
					}
					if g := Want(t, c.Get("/v1/products/"+id), 200).Obj(); !reflect.DeepEqual(g, got) {
						t.Errorf("GET after %s = %v, want %v", tr, g, got)
					}
					log.Expect(t, tr, pev(verbOf[tr], id))
				default:
					p := WantProblem(t, r, 409, "INVALID_TRANSITION")
					WantTransitionMeta(t, tr+" from "+from, Meta(p), from, allowedFrom[from]...)
					if g := Want(t, c.Get("/v1/products/"+id), 200).Obj(); !reflect.DeepEqual(g, before) {
						t.Errorf("refused move changed the product: %v", g)
					}
					log.Expect(t, "refused")
				}
			})
		}
	}
}

func TestLifecycleBulkAndRequests(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, b, x := mkProductID(t, c, "A", "simple"), mkProductID(t, c, "B", "simple"), mkProductID(t, c, "X", "simple")
	Want(t, transition(c, b, "activate"), 200)
	log := NewEventLog(pool, tenant).Skip(t)

	// Bulk: in request order; the one already active is a no-op without event.
	items := Want(t, c.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "activate", "uuids", []string{b, a})), 200).Objs()
	if len(items) != 2 || items[0]["uuid"] != b || items[1]["uuid"] != a || items[0]["status"] != "active" || items[1]["status"] != "active" {
		t.Fatalf("bulk activate: %v", items)
	}
	log.Expect(t, "bulk activate", pev("activated", a))

	// Atomic: one disallowed or unknown item moves nothing.
	Problem(t, "bulk with a disallowed move", c.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "deactivate", "uuids", []string{a, x})), 409, "INVALID_TRANSITION", "uuids[1]")
	Problem(t, "bulk with an unknown product", c.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "deactivate", "uuids", []string{a, UnknownUUID})), 404, "NOT_FOUND", "uuids[1]")
	Problem(t, "bulk with a malformed uuid", c.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "remove", "uuids", []string{a, "x"})), 400, "VALIDATION_FAILED", "uuids[1]")
	Problem(t, "empty bulk", c.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "remove", "uuids", []string{})), 400, "VALIDATION_FAILED", "uuids")
	Problem(t, "no transition", c.Patch("/v1/products/"+a+"/actions/lifecycle", Body()), 400, "VALIDATION_FAILED", "transition")
	Problem(t, "empty transition", transition(c, a, ""), 400, "MALFORMED_REQUEST", "transition")
	Problem(t, "unknown transition", transition(c, a, "publish"), 400, "MALFORMED_REQUEST", "transition")
	Problem(t, "unknown product", transition(c, UnknownUUID, "remove"), 404, "NOT_FOUND")
	log.Expect(t, "refused moves write nothing")
	if g := Want(t, c.Get("/v1/products/"+a), 200).Obj(); g["status"] != "active" {
		t.Errorf("a moved: %v", g)
	}

	// Bulk remove and restore.
	Want(t, c.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "remove", "uuids", []string{a, x})), 200)
	log.Expect(t, "bulk remove", pev("removed", a), pev("removed", x))
	items = Want(t, c.Patch("/v1/products/bulk/actions/lifecycle", Body("transition", "restore", "uuids", []string{x})), 200).Objs()
	wantProduct(t, "restored", items[0], "status", "draft", "removedAt", nil)
	log.Expect(t, "restore", pev("restored", x))
}
