package schedules

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestCancel(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	pub := mkPub(t, c, p)
	a, b, d := mkSched(t, c, p, pub, "publish", far(1)), mkSched(t, c, p, pub, "unpublish", far(2)), mkSched(t, c, p, pub, "publish", far(3))
	log := NewEventLog(pool, tenant).Skip(t)

	v := Want(t, cancel(c, p, pub, a), 200).Obj()
	wantSched(t, "cancel", v, "uuid", a, "status", "cancelled", "executedAt", nil, "failureCode", nil, "failureReason", nil)
	log.Expect(t, "cancel", ev("cancelled", p, pub, a))
	wantSched(t, "get cancelled", getSched(t, c, p, pub, a), "status", "cancelled")
	// Same state: a no-op without event.
	wantSched(t, "cancel again", Want(t, cancel(c, p, pub, a), 200).Obj(), "status", "cancelled", "updatedAt", v["updatedAt"])
	log.Expect(t, "no-op")

	Problem(t, "unknown transition", c.Patch(base(p, pub)+"/"+b+"/actions/lifecycle", Body("transition", "publish")), 400, "MALFORMED_REQUEST", "transition")
	Problem(t, "missing transition", c.Patch(base(p, pub)+"/"+b+"/actions/lifecycle", Body()), 400, "VALIDATION_FAILED", "transition")
	Problem(t, "unknown schedule", cancel(c, p, RandomUUID(), b), 404, "NOT_FOUND")
	Problem(t, "unknown uuid", cancel(c, p, pub, RandomUUID()), 404, "NOT_FOUND")
	Problem(t, "bad uuid", cancel(c, p, pub, "nope"), 400, "VALIDATION_FAILED", "scheduleUuid")

	// Bulk: atomic; an unknown uuid is 404 naming it and nothing changes.
	bulk := base(p, pub) + "/bulk/actions/lifecycle"
	Problem(t, "bulk unknown", c.Patch(bulk, Body("transition", "cancel", "uuids", []string{b, RandomUUID()})), 404, "NOT_FOUND", "uuids[1]")
	Problem(t, "bulk empty", c.Patch(bulk, Body("transition", "cancel", "uuids", []string{})), 400, "VALIDATION_FAILED", "uuids")
	log.Expect(t, "refused")
	wantSched(t, "b still pending", getSched(t, c, p, pub, b), "status", "pending")
	items := Want(t, c.Patch(bulk, Body("transition", "cancel", "uuids", []string{b, a, d})), 200).Objs()
	if len(items) != 3 || UUIDsOf(items)[0] != b || UUIDsOf(items)[2] != d {
		t.Fatalf("bulk cancel: %v", items)
	}
	for _, it := range items {
		wantSched(t, "bulk item", it, "status", "cancelled")
	}
	log.Expect(t, "bulk cancel (a was already cancelled)", ev("cancelled", p, pub, b), ev("cancelled", p, pub, d))
}
