package attributes

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// allowedFrom is DESIGN.md's attribute table: the transitions that change each state.
var allowedFrom = map[string][]string{
	"draft":       {"publish", "remove"},
	"published":   {"remove", "unpublish"},
	"unpublished": {"publish", "remove"},
	"removed":     {"restore"},
}

// targetOf is where each transition leads.
var targetOf = map[string]string{"publish": "published", "unpublish": "unpublished", "remove": "removed", "restore": "draft"}

var eventOf = map[string]string{"publish": "attribute.published", "unpublish": "attribute.unpublished",
	"remove": "attribute.removed", "restore": "attribute.restored"}

func TestLifecycleEveryTransitionFromEveryState(t *testing.T) {
	t.Parallel()
	for _, from := range []string{"draft", "published", "unpublished", "removed"} {
		for _, tr := range []string{"publish", "unpublish", "remove", "restore"} {
			t.Run(from+"/"+tr, func(t *testing.T) {
				t.Parallel()
				c, tenant := env.TenantClient(t)
				a := create(t, c, "attr")
				id := Str(a, "uuid")
				moveTo(t, c, id, from)
				before := get(t, c, id)
				nEvents := len(events(t, tenant))
				r := transition(c, id, tr)
				to := targetOf[tr]
				switch {
				case to == from:
					// Same-state move: a 200 no-op, no event, updatedAt unchanged.
					got := Want(t, r, 200).Obj()
					if !reflect.DeepEqual(got, before) {
						t.Errorf("no-op %s from %s changed the attribute:\n got %v\nwant %v", tr, from, got, before)
					}
					if n := len(events(t, tenant)); n != nEvents {
						t.Errorf("no-op %s from %s recorded %d event(s)", tr, from, n-nEvents)
					}
				case slices.Contains(allowedFrom[from], tr):
					got := Want(t, r, 200).Obj()
					wantAttribute(t, tr+" from "+from, got, to, "attr", "attr")
					if got["uuid"] != id || got["createdAt"] != before["createdAt"] {
						t.Errorf("uuid/createdAt changed: %v", got)
					}
					if !TS(t, got["updatedAt"]).After(TS(t, before["updatedAt"])) {
						t.Errorf("updatedAt %v not after %v", got["updatedAt"], before["updatedAt"])
					}
					if to == "removed" && got["removedAt"] != got["updatedAt"] {
						t.Errorf("remove: removedAt %v, want the transition time %v", got["removedAt"], got["updatedAt"])
					}
					if g := get(t, c, id); !reflect.DeepEqual(g, got) {
						t.Errorf("GET after %s = %v, want the response %v", tr, g, got)
					}
					evs := events(t, tenant)[nEvents:]
					if len(evs) != 1 || evs[0].Type != eventOf[tr] || evs[0].Payload["attributeUuid"] != id {
						t.Errorf("%s from %s: events %+v, want one %s", tr, from, evs, eventOf[tr])
					}
				default:
					p := WantProblem(t, r, 409, "INVALID_TRANSITION")
					WantTransitionMeta(t, tr+" from "+from, Meta(p), from, allowedFrom[from]...)
					if !strings.Contains(Str(p, "detail"), from) {
						t.Errorf("detail %q does not name the current status %s", p["detail"], from)
					}
					if g := get(t, c, id); !reflect.DeepEqual(g, before) {
						t.Errorf("refused %s from %s changed the attribute: %v", tr, from, g)
					}
					if n := len(events(t, tenant)); n != nEvents {
						t.Errorf("refused %s recorded %d event(s)", tr, n-nEvents)
					}
				}
			})
		}
	}
}

func TestLifecycleRemoveAndRestore(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "fabric", "Fabric")
	id := Str(a, "uuid")
	moveTo(t, c, id, "published")
	Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"displayName": "Fabric 2"}), 200)

	rm := Want(t, transition(c, id, "remove"), 200).Obj()
	wantAttribute(t, "removed", rm, "removed", "fabric", "Fabric 2")
	if !TimestampRe.MatchString(Str(rm, "removedAt")) {
		t.Fatalf("removedAt %v", rm["removedAt"])
	}
	// The removed attribute is still readable and keeps removedAt.
	g := get(t, c, id)
	if g["removedAt"] != rm["removedAt"] || g["status"] != "removed" {
		t.Errorf("GET removed: %v", g)
	}
	// Updating a removed attribute keeps it removed with its removedAt.
	u := Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"displayName": "Fabric 3"}), 200).Obj()
	if u["status"] != "removed" || u["removedAt"] != rm["removedAt"] {
		t.Errorf("update of removed attribute: %v", u)
	}

	rs := Want(t, transition(c, id, "restore"), 200).Obj()
	wantAttribute(t, "restored", rs, "draft", "fabric", "Fabric 3") // back to draft, not published
	if v, ok := rs["removedAt"]; !ok || v != nil {
		t.Errorf("restore: removedAt %v (present %v), want null", v, ok)
	}
	wantAttribute(t, "GET restored", get(t, c, id), "draft", "fabric", "Fabric 3")
	wantCodes(t, "restored is listed again", listCodes(t, c, ""), "fabric")

	// Remove again: a new removedAt.
	rm2 := Want(t, transition(c, id, "remove"), 200).Obj()
	if !TS(t, rm2["removedAt"]).After(TS(t, rm["removedAt"])) {
		t.Errorf("second remove: removedAt %v not after the first %v", rm2["removedAt"], rm["removedAt"])
	}
}

func TestLifecycleFullCycle(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	id := Str(create(t, c, "cycle"), "uuid")
	for _, step := range []struct{ tr, want string }{
		{"publish", "published"}, {"unpublish", "unpublished"}, {"publish", "published"},
		{"unpublish", "unpublished"}, {"remove", "removed"}, {"restore", "draft"}, {"publish", "published"},
	} {
		got := Want(t, transition(c, id, step.tr), 200).Obj()
		if got["status"] != step.want {
			t.Fatalf("%s: status %v, want %s", step.tr, got["status"], step.want)
		}
	}
}

func TestLifecycleRequestErrors(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "x")
	id := Str(a, "uuid")
	path := "/v1/attributes/" + id + "/actions/lifecycle"

	WantProblem(t, c.Patch(path, map[string]any{}), 400, "VALIDATION_FAILED", "transition")
	for _, body := range []any{
		map[string]any{"transition": "fly"},
		map[string]any{"transition": "archive"},
		map[string]any{"transition": 5},
		map[string]any{"transition": []string{"publish"}},
	} {
		r := c.Patch(path, body)
		if r.Status != 400 {
			t.Errorf("PATCH %v: status %d, want 400: %s", body, r.Status, r.Raw)
			continue
		}
		if p := r.Obj(); !slices.Contains(ProblemFields(p), "transition") {
			t.Errorf("PATCH %v: errors %v do not name transition", body, p["errors"])
		}
	}
	r := c.Patch(path, map[string]any{"transition": ""})
	if r.Status != 400 {
		t.Errorf("empty transition: status %d, want 400: %s", r.Status, r.Raw)
	}
	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish", "force": true}), 400, "MALFORMED_REQUEST", "force")
	WantProblem(t, c.Patch(path, `{"transition":`), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Patch("/v1/attributes/"+RandomUUID()+"/actions/lifecycle", map[string]any{"transition": "publish"}), 404, "NOT_FOUND")
	WantProblem(t, c.Patch("/v1/attributes/not-a-uuid/actions/lifecycle", map[string]any{"transition": "publish"}), 400, "VALIDATION_FAILED", "attributeUuid")
	// Nothing changed.
	if g := get(t, c, id); !reflect.DeepEqual(g, a) {
		t.Errorf("failed requests changed the attribute: %v", g)
	}
}

func bulkTransition(c *Client, tr string, ids ...string) Resp {
	return c.Patch("/v1/attributes/bulk/actions/lifecycle", map[string]any{"transition": tr, "uuids": ids})
}

func TestBulkLifecycle(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	as := bulkCreate(t, c, "a", "b", "c")
	ids := UUIDsOf(as)
	n0 := len(events(t, tenant))

	// Response order follows the request (here: reversed).
	req := []string{ids[2], ids[0], ids[1]}
	items := Want(t, bulkTransition(c, "publish", req...), 200).Objs()
	if !slices.Equal(UUIDsOf(items), req) {
		t.Errorf("response order %v, want %v", UUIDsOf(items), req)
	}
	for _, it := range items {
		WantKeys(t, "bulk lifecycle item", it, answerKeys...)
		if it["status"] != "published" {
			t.Errorf("item %v", it)
		}
	}
	for _, id := range ids {
		if g := get(t, c, id); g["status"] != "published" {
			t.Errorf("GET %s after bulk publish: %v", id, g["status"])
		}
	}
	if evs := events(t, tenant)[n0:]; len(evs) != 3 {
		t.Errorf("bulk publish of 3: %d events, want 3", len(evs))
	}

	// A mix of a state-changing move and a same-state no-op: both succeed; only one changes.
	Want(t, transition(c, ids[0], "unpublish"), 200)
	before := get(t, c, ids[1])
	n1 := len(events(t, tenant))
	items = Want(t, bulkTransition(c, "publish", ids[0], ids[1]), 200).Objs()
	if len(items) != 2 || items[0]["status"] != "published" || items[1]["status"] != "published" {
		t.Fatalf("mixed bulk publish: %v", items)
	}
	if items[1]["updatedAt"] != before["updatedAt"] {
		t.Errorf("no-op item's updatedAt changed: %v -> %v", before["updatedAt"], items[1]["updatedAt"])
	}
	if evs := events(t, tenant)[n1:]; len(evs) != 1 || evs[0].Payload["attributeUuid"] != ids[0] {
		t.Errorf("mixed bulk publish: events %+v, want one for %s", evs, ids[0])
	}

	// Bulk remove sets removedAt on every item; bulk restore clears it.
	items = Want(t, bulkTransition(c, "remove", ids...), 200).Objs()
	for _, it := range items {
		if it["status"] != "removed" || !TimestampRe.MatchString(Str(it, "removedAt")) {
			t.Errorf("bulk remove item %v", it)
		}
	}
	items = Want(t, bulkTransition(c, "restore", ids...), 200).Objs()
	for _, it := range items {
		if it["status"] != "draft" || it["removedAt"] != nil {
			t.Errorf("bulk restore item %v", it)
		}
	}
}

func TestBulkLifecycleIsAtomic(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	as := bulkCreate(t, c, "a", "b", "c")
	ids := UUIDsOf(as)
	moveTo(t, c, ids[1], "removed")
	snapshot := func() []map[string]any {
		var out []map[string]any
		for _, id := range ids {
			out = append(out, get(t, c, id))
		}
		return out
	}
	before := snapshot()
	n0 := len(events(t, tenant))

	// One disallowed move (removed → published) among allowed ones: 409, nothing changes.
	r := bulkTransition(c, "publish", ids[0], ids[1], ids[2])
	p := WantProblem(t, r, 409, "INVALID_TRANSITION", "uuids[1]")
	WantTransitionMeta(t, "bulk publish with a removed one", Meta(p), "removed", "restore")
	if after := snapshot(); !reflect.DeepEqual(after, before) {
		t.Errorf("a refused bulk transition changed attributes:\n%v\n%v", before, after)
	}

	// One unknown uuid: 404 naming it, nothing changes.
	r = bulkTransition(c, "remove", ids[0], ids[2], RandomUUID())
	WantProblem(t, r, 404, "NOT_FOUND", "uuids[2]")
	if after := snapshot(); !reflect.DeepEqual(after, before) {
		t.Errorf("a bulk transition with an unknown uuid changed attributes:\n%v\n%v", before, after)
	}
	if n := len(events(t, tenant)); n != n0 {
		t.Errorf("failed bulk transitions recorded %d event(s)", n-n0)
	}
}

func TestBulkLifecycleRequestErrors(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	a := create(t, c, "a")
	id := Str(a, "uuid")
	path := "/v1/attributes/bulk/actions/lifecycle"

	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish"}), 400, "VALIDATION_FAILED", "uuids")
	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish", "uuids": []string{}}), 400, "VALIDATION_FAILED", "uuids")
	many := make([]string, 101)
	for i := range many {
		many[i] = RandomUUID()
	}
	many[0] = id
	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish", "uuids": many}), 400, "VALIDATION_FAILED", "uuids")
	WantProblem(t, c.Patch(path, map[string]any{"uuids": []string{id}}), 400, "VALIDATION_FAILED", "transition")
	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish", "uuids": []string{"nope"}}), 400, "VALIDATION_FAILED", "uuids[0]")
	r := c.Patch(path, map[string]any{"transition": "fly", "uuids": []string{id}})
	if r.Status != 400 || !slices.Contains(ProblemFields(r.Obj()), "transition") {
		t.Errorf("unknown transition: %d %s", r.Status, r.Raw)
	}
	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish", "uuids": []string{id}, "extra": 1}), 400, "MALFORMED_REQUEST", "extra")
	WantProblem(t, c.Patch(path, []any{map[string]any{"transition": "publish"}}), 400, "MALFORMED_REQUEST")
	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish", "uuids": id}), 400, "MALFORMED_REQUEST", "uuids")
	if g := get(t, c, id); !reflect.DeepEqual(g, a) {
		t.Errorf("failed requests changed the attribute: %v", g)
	}

	// 100 uuids is the maximum: all are looked up (here: 99 unknown, so 404, not 400).
	hundred := many[:100]
	WantProblem(t, c.Patch(path, map[string]any{"transition": "publish", "uuids": hundred}), 404, "NOT_FOUND")
}

func TestBulkLifecycleHundredItems(t *testing.T) {
	t.Parallel()
	c := env.Client(t)
	body := make([]map[string]any, 100)
	for i := range body {
		body[i] = map[string]any{"code": fmt.Sprintf("c%03d", i)}
	}
	ids := UUIDsOf(Want(t, c.Post("/v1/attributes/bulk", body), 201).Objs())
	items := Want(t, bulkTransition(c, "publish", ids...), 200).Objs()
	if len(items) != 100 || !slices.Equal(UUIDsOf(items), ids) {
		t.Fatalf("bulk publish of 100: %d items", len(items))
	}
	r := list(t, c, Q("statuses[eq]", "published", "size", "1"))
	wantPagination(t, "published after bulk", r, 1, 1, 100, 100)
}
