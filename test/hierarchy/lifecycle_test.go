package hierarchy

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// allowedFrom is DESIGN.md's table for categories and collections: the transitions that change each state.
var allowedFrom = map[string][]string{
	"draft":    {"activate", "remove"},
	"active":   {"deactivate", "remove"},
	"inactive": {"activate", "remove"},
	"removed":  {"restore"},
}

var targetOf = map[string]string{"activate": "active", "deactivate": "inactive", "remove": "removed", "restore": "draft"}

var verbOf = map[string]string{"activate": "activated", "deactivate": "deactivated", "remove": "removed", "restore": "restored"}

func TestLifecycleEveryTransitionFromEveryState(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		for _, from := range []string{"draft", "active", "inactive", "removed"} {
			for _, tr := range []string{"activate", "deactivate", "remove", "restore"} {
				t.Run(from+"/"+tr, func(t *testing.T) {
					t.Parallel()
					c, tenant := env.TenantClient(t)
					log := NewEventLog(pool, tenant)
					parent := f.createID(t, c, "parent")
					id := f.createID(t, c, "node", "parentUuid", parent, "position", 4)
					f.moveTo(t, c, id, from)
					before := f.get(t, c, id)
					log.Skip(t)
					r := f.transition(c, id, tr)
					to := targetOf[tr]
					switch {
					case to == from:
						// Same-state move: a 200 no-op, no event, updatedAt unchanged.
						if got := Want(t, r, 200).Obj(); !reflect.DeepEqual(got, before) {
							t.Errorf("no-op %s from %s changed the node:\n got %v\nwant %v", tr, from, got, before)
						}
						log.Expect(t, "no-op")
					case slices.Contains(allowedFrom[from], tr):
						got := Want(t, r, 200).Obj()
						f.wantNode(t, tr+" from "+from, got, to, "node", "node", parent, 4)
						if got["uuid"] != id || got["createdAt"] != before["createdAt"] || !TS(t, got["updatedAt"]).After(TS(t, before["updatedAt"])) {
							t.Errorf("uuid/createdAt/updatedAt after the move: %v (before %v)", got, before)
						}
						if to == "removed" && got["removedAt"] != got["updatedAt"] {
							t.Errorf("remove: removedAt %v, want the transition time %v", got["removedAt"], got["updatedAt"])
						}
						if g := f.get(t, c, id); !reflect.DeepEqual(g, got) {
							t.Errorf("GET after %s = %v, want the response %v", tr, g, got)
						}
						log.Expect(t, tr, f.ev(verbOf[tr], id))
					default:
						p := WantProblem(t, r, 409, "INVALID_TRANSITION")
						WantTransitionMeta(t, tr+" from "+from, Meta(p), from, allowedFrom[from]...)
						if g := f.get(t, c, id); !reflect.DeepEqual(g, before) {
							t.Errorf("refused move changed the node: %v", g)
						}
						log.Expect(t, "refused")
					}
				})
			}
		}
	})
}

func TestLifecycleRequests(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c := env.Client(t)
		id := f.createID(t, c, "n")
		WantProblem(t, c.Patch(f.path(id)+"/actions/lifecycle", map[string]any{}), 400, "VALIDATION_FAILED", "transition")
		WantProblem(t, c.Patch(f.path(id)+"/actions/lifecycle", map[string]any{"transition": "publish"}), 400, "MALFORMED_REQUEST")
		WantProblem(t, c.Patch(f.path(id)+"/actions/lifecycle", map[string]any{"transition": "activate", "extra": 1}), 400, "MALFORMED_REQUEST")
		WantProblem(t, f.transition(c, UnknownUUID, "activate"), 404, "NOT_FOUND")
		WantProblem(t, f.transition(c, "nope", "activate"), 400, "VALIDATION_FAILED", f.idKey)
		// The parent's state does not constrain the child's, and removing a parent leaves its children.
		child := f.createID(t, c, "child", "parentUuid", id)
		Want(t, f.transition(c, id, "remove"), 200)
		f.wantNode(t, "child of a removed node", Want(t, f.transition(c, child, "activate"), 200).Obj(), "active", "child", "child", id, 0)
		// A removed node is still a node: it can be a parent, updated and read.
		f.wantNode(t, "under a removed parent", f.create(t, c, "late", "parentUuid", id), "draft", "late", "late", id, 0)
		f.wantNode(t, "update a removed node", f.patch(t, c, id, "displayName", "N"), "removed", "n", "N", "", 0)
		// Restore goes back to draft and clears removedAt.
		f.wantNode(t, "restore", Want(t, f.transition(c, id, "restore"), 200).Obj(), "draft", "n", "N", "", 0)
	})
}

func TestBulkLifecycle(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c, tenant := env.TenantClient(t)
		log := NewEventLog(pool, tenant)
		a := f.createID(t, c, "a")
		b := f.createID(t, c, "b")
		d := f.createID(t, c, "d")
		f.moveTo(t, c, d, "active")
		log.Skip(t)
		bulk := func(tr string, ids ...string) Resp {
			return c.Patch(f.base+"/bulk/actions/lifecycle", map[string]any{"transition": tr, "uuids": ids})
		}
		// Answers follow the request order; an item already there is a no-op without event.
		res := Want(t, bulk("activate", b, d, a), 200).Objs()
		if len(res) != 3 || res[0]["uuid"] != b || res[1]["uuid"] != d || res[2]["uuid"] != a {
			t.Fatalf("bulk activate answered %v", res)
		}
		for i, r := range res {
			f.wantNode(t, fmt.Sprint("bulk activate ", i), r, "active", Str(r, "code"), Str(r, "code"), "", 0)
		}
		log.Expect(t, "bulk activate", f.ev("activated", b), f.ev("activated", a))

		// Any disallowed move or unknown uuid refuses the whole request.
		Want(t, f.transition(c, a, "deactivate"), 200)
		e := f.createID(t, c, "e")
		log.Skip(t)
		p := WantProblem(t, bulk("deactivate", b, e), 409, "INVALID_TRANSITION", "uuids[1]")
		WantTransitionMeta(t, "bulk deactivate", Meta(p), "draft", "activate", "remove")
		WantProblem(t, bulk("remove", b, UnknownUUID), 404, "NOT_FOUND", "uuids[1]")
		WantProblem(t, bulk("remove", b, "nope"), 400, "VALIDATION_FAILED", "uuids[1]")
		WantProblem(t, bulk("remove"), 400, "VALIDATION_FAILED", "uuids")
		WantProblem(t, c.Patch(f.base+"/bulk/actions/lifecycle", map[string]any{"uuids": []string{a}}), 400, "VALIDATION_FAILED", "transition")
		if g := f.get(t, c, b); g["status"] != "active" {
			t.Errorf("refused bulk changed b: %v", g)
		}
		log.Expect(t, "refused bulk moves")

		// remove sets removedAt on each; a repeated uuid moves once.
		res = Want(t, bulk("remove", a, b, a), 200).Objs()
		if len(res) != 3 || res[0]["status"] != "removed" || res[2]["uuid"] != a || res[1]["removedAt"] == nil {
			t.Errorf("bulk remove answered %v", res)
		}
		log.Expect(t, "bulk remove", f.ev("removed", a), f.ev("removed", b))
		res = Want(t, bulk("restore", a, b), 200).Objs()
		for _, r := range res {
			f.wantNode(t, "restored", r, "draft", Str(r, "code"), Str(r, "code"), "", 0)
		}
		log.Expect(t, "bulk restore", f.ev("restored", a), f.ev("restored", b))
	})
}
