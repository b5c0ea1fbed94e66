package attributes

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// wantEvents fails unless the events of tenant recorded since index from are exactly want
// (type and attributeUuid), in any order (ordering is not guaranteed within one transaction).
func wantEvents(t *testing.T, what, tenant string, from int, want ...[2]string) int {
	t.Helper()
	all := events(t, tenant)
	if len(all) < from {
		t.Fatalf("%s: events went from %d to %d", what, from, len(all))
	}
	var got [][2]string
	for _, e := range all[from:] {
		WantKeys(t, what+": payload", e.Payload, "attributeUuid")
		got = append(got, [2]string{e.Type, Str(e.Payload, "attributeUuid")})
	}
	cmp := func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	}
	slices.SortFunc(got, cmp)
	want = slices.Clone(want)
	slices.SortFunc(want, cmp)
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("%s: events %v, want %v", what, got, want)
	}
	return len(all)
}

func TestEventsOfEveryOperation(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	n := wantEvents(t, "fresh tenant", tenant, 0)

	a := create(t, c, "color")
	id := Str(a, "uuid")
	n = wantEvents(t, "create", tenant, n, [2]string{"attribute.created", id})

	bs := bulkCreate(t, c, "b1", "b2", "b3")
	n = wantEvents(t, "bulk create of 3", tenant, n,
		[2]string{"attribute.created", Str(bs[0], "uuid")},
		[2]string{"attribute.created", Str(bs[1], "uuid")},
		[2]string{"attribute.created", Str(bs[2], "uuid")})

	Want(t, c.Patch("/v1/attributes/"+id, map[string]any{"displayName": "Colour"}), 200)
	n = wantEvents(t, "update", tenant, n, [2]string{"attribute.updated", id})

	Want(t, transition(c, id, "publish"), 200)
	n = wantEvents(t, "publish", tenant, n, [2]string{"attribute.published", id})
	Want(t, transition(c, id, "unpublish"), 200)
	n = wantEvents(t, "unpublish", tenant, n, [2]string{"attribute.unpublished", id})
	Want(t, transition(c, id, "remove"), 200)
	n = wantEvents(t, "remove", tenant, n, [2]string{"attribute.removed", id})
	Want(t, transition(c, id, "restore"), 200)
	n = wantEvents(t, "restore", tenant, n, [2]string{"attribute.restored", id})

	// Same-state moves record nothing.
	Want(t, transition(c, id, "restore"), 200) // draft → draft
	n = wantEvents(t, "no-op restore", tenant, n)

	Want(t, c.Delete("/v1/attributes/"+id), 204)
	n = wantEvents(t, "delete", tenant, n, [2]string{"attribute.deleted", id})

	// Bulk lifecycle: one event per changed item.
	Want(t, bulkTransition(c, "publish", Str(bs[0], "uuid"), Str(bs[1], "uuid")), 200)
	n = wantEvents(t, "bulk publish", tenant, n,
		[2]string{"attribute.published", Str(bs[0], "uuid")},
		[2]string{"attribute.published", Str(bs[1], "uuid")})
	Want(t, bulkTransition(c, "remove", Str(bs[0], "uuid"), Str(bs[2], "uuid")), 200)
	n = wantEvents(t, "bulk remove", tenant, n,
		[2]string{"attribute.removed", Str(bs[0], "uuid")},
		[2]string{"attribute.removed", Str(bs[2], "uuid")})
	Want(t, bulkTransition(c, "restore", Str(bs[0], "uuid"), Str(bs[2], "uuid")), 200)
	n = wantEvents(t, "bulk restore", tenant, n,
		[2]string{"attribute.restored", Str(bs[0], "uuid")},
		[2]string{"attribute.restored", Str(bs[2], "uuid")})
	Want(t, bulkTransition(c, "unpublish", Str(bs[1], "uuid")), 200)
	wantEvents(t, "bulk unpublish", tenant, n, [2]string{"attribute.unpublished", Str(bs[1], "uuid")})
}

func TestEventsOfBulkUpdate(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	bs := bulkCreate(t, c, "a", "b")
	n := len(events(t, tenant))
	Want(t, c.Patch("/v1/attributes/bulk", []map[string]any{
		{"uuid": bs[1]["uuid"], "displayName": "B"},
		{"uuid": bs[0]["uuid"], "code": "a2"},
	}), 200)
	wantEvents(t, "bulk update of 2", tenant, n,
		[2]string{"attribute.updated", Str(bs[0], "uuid")},
		[2]string{"attribute.updated", Str(bs[1], "uuid")})
}

func TestEventsNotRecordedOnFailure(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	as := bulkCreate(t, c, "a", "b")
	moveTo(t, c, Str(as[1], "uuid"), "removed")
	n := len(events(t, tenant))

	// Duplicate code in a bulk create (against an existing one, and within the bulk).
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "new"}, {"code": "a"}}), 409, "ALREADY_EXISTS")
	WantProblem(t, c.Post("/v1/attributes/bulk", []map[string]any{{"code": "x"}, {"code": "x"}}), 409, "ALREADY_EXISTS")
	WantProblem(t, c.Post("/v1/attributes", map[string]any{"code": "a"}), 409, "ALREADY_EXISTS")
	// A disallowed bulk transition and a bulk transition with an unknown uuid.
	WantProblem(t, bulkTransition(c, "publish", Str(as[0], "uuid"), Str(as[1], "uuid")), 409, "INVALID_TRANSITION")
	WantProblem(t, bulkTransition(c, "publish", Str(as[0], "uuid"), RandomUUID()), 404, "NOT_FOUND")
	WantProblem(t, transition(c, Str(as[0], "uuid"), "unpublish"), 409, "INVALID_TRANSITION")
	// A bulk update whose second item fails.
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": as[0]["uuid"], "displayName": "A"}, {"uuid": RandomUUID(), "displayName": "?"}}), 404, "NOT_FOUND")
	WantProblem(t, c.Patch("/v1/attributes/bulk", []map[string]any{{"uuid": as[0]["uuid"], "displayName": "A"}, {"uuid": as[1]["uuid"], "code": "a"}}), 409, "ALREADY_EXISTS")
	// Validation failures and not-found single operations.
	WantProblem(t, c.Post("/v1/attributes", map[string]any{"code": ""}), 400, "VALIDATION_FAILED")
	WantProblem(t, c.Patch("/v1/attributes/"+RandomUUID(), map[string]any{"displayName": "x"}), 404, "NOT_FOUND")
	WantProblem(t, c.Delete("/v1/attributes/"+RandomUUID()), 404, "NOT_FOUND")
	// Forbidden writes.
	ro := env.ClientFor(t, tenant, "catalog:read")
	WantProblem(t, ro.Post("/v1/attributes", map[string]any{"code": "ro"}), 403, "FORBIDDEN")
	// A same-state move.
	Want(t, transition(c, Str(as[1], "uuid"), "remove"), 200)

	if got := len(events(t, tenant)); got != n {
		t.Errorf("failed writes recorded %d event(s): %+v", got-n, events(t, tenant)[n:])
	}
}

func TestEventsAreTenantScoped(t *testing.T) {
	t.Parallel()
	c1, t1 := env.TenantClient(t)
	c2, t2 := env.TenantClient(t)
	a := create(t, c1, "same")
	b := create(t, c2, "same")
	wantEvents(t, "tenant 1", t1, 0, [2]string{"attribute.created", Str(a, "uuid")})
	wantEvents(t, "tenant 2", t2, 0, [2]string{"attribute.created", Str(b, "uuid")})
	// A failed cross-tenant write records nothing for either.
	WantProblem(t, transition(c2, Str(a, "uuid"), "publish"), 404, "NOT_FOUND")
	wantEvents(t, "tenant 1 after", t1, 1)
	wantEvents(t, "tenant 2 after", t2, 1)
}
