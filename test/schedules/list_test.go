package schedules

import (
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	p := mkProduct(t, c)
	pub := mkPub(t, c, p)
	// Created in the order 0, 1, 2, 3; scheduled in the order 2, 0, 3, 1.
	at := []time.Time{far(2), far(4), far(1), far(3)}
	tr := []string{"publish", "unpublish", "publish", "unpublish"}
	ids := make([]string, 4)
	for i := range ids {
		ids[i] = mkSched(t, c, p, pub, tr[i], at[i])
		time.Sleep(2 * time.Millisecond)
	}
	// Another publication's schedules never show.
	pub2 := mkPub(t, c, p)
	mkSched(t, c, p, pub2, "publish", far(1))
	Want(t, cancel(c, p, pub, ids[3]), 200)
	time.Sleep(2 * time.Millisecond)
	// Touch 0 (there and back: a PATCH with the stored values would change nothing).
	Want(t, c.Patch(base(p, pub)+"/"+ids[0], Body("transition", "unpublish")), 200)
	Want(t, c.Patch(base(p, pub)+"/"+ids[0], Body("transition", "publish")), 200)

	r := Want(t, c.Get(base(p, pub)), 200)
	WantPagination(t, "all", r, 1, 20, 4, 1)
	for _, it := range r.Items() {
		WantKeys(t, "list item", it, schedKeys...)
	}
	WantUUIDs(t, c, base(p, pub), true, ids...)
	WantUUIDs(t, c, base(p, pub)+Q("uuids[eq]", ids[0], "uuids[eq]", ids[2]), true, ids[0], ids[2])
	WantUUIDs(t, c, base(p, pub)+Q("status[eq]", "pending"), true, ids[0], ids[1], ids[2])
	WantUUIDs(t, c, base(p, pub)+Q("status[eq]", "cancelled"), true, ids[3])
	WantUUIDs(t, c, base(p, pub)+Q("status[eq]", "executed"), true)
	WantUUIDs(t, c, base(p, pub)+Q("transitions[eq]", "unpublish"), true, ids[1], ids[3])
	WantUUIDs(t, c, base(p, pub)+Q("transitions[eq]", "unpublish", "transitions[eq]", "publish"), true, ids...)
	WantUUIDs(t, c, base(p, pub)+Q("transitions[eq]", "publish", "status[eq]", "pending"), true, ids[0], ids[2])
	Problem(t, "two statuses", c.Get(base(p, pub)+Q("status[eq]", "pending", "status[eq]", "failed")), 400, "VALIDATION_FAILED", "status[eq]")
	Problem(t, "unknown status", c.Get(base(p, pub)+Q("status[eq]", "gone")), 400, "VALIDATION_FAILED", "status[eq]")
	Problem(t, "unknown transition", c.Get(base(p, pub)+Q("transitions[eq]", "cancel")), 400, "VALIDATION_FAILED", "transitions[eq]")
	Problem(t, "bad uuid", c.Get(base(p, pub)+Q("uuids[eq]", "x")), 400, "VALIDATION_FAILED", "uuids[eq]")
	Problem(t, "unknown filter", c.Get(base(p, pub)+Q("statuses[eq]", "pending")), 400, "MALFORMED_REQUEST")

	// scheduledAt: filter and order.
	WantUUIDs(t, c, base(p, pub)+Q("scheduledAt[order]", "asc"), true, ids[2], ids[0], ids[3], ids[1])
	WantUUIDs(t, c, base(p, pub)+Q("scheduledAt[order]", "desc"), true, ids[1], ids[3], ids[0], ids[2])
	WantUUIDs(t, c, base(p, pub)+Q("scheduledAt[eq]", ts(at[3])), true, ids[3])
	WantUUIDs(t, c, base(p, pub)+Q("scheduledAt[min]", ts(at[3])), true, ids[1], ids[3])
	WantUUIDs(t, c, base(p, pub)+Q("scheduledAt[max]", ts(at[0])), true, ids[0], ids[2])
	WantUUIDs(t, c, base(p, pub)+Q("scheduledAt[min]", ts(at[0]), "scheduledAt[max]", ts(at[3])), true, ids[0], ids[3])
	Problem(t, "bad time", c.Get(base(p, pub)+Q("scheduledAt[min]", "soon")), 400, "MALFORMED_REQUEST", "scheduledAt[min]")
	// Several orders apply in the order given.
	WantUUIDs(t, c, base(p, pub)+Q("status[eq]", "pending", "scheduledAt[order]", "desc"), true, ids[1], ids[0], ids[2])

	// createdAt and updatedAt.
	WantUUIDs(t, c, base(p, pub)+Q("createdAt[order]", "desc"), true, ids[3], ids[2], ids[1], ids[0])
	// updatedAt: 1 and 2 untouched, then 3 (cancelled), then 0 (updated last).
	WantUUIDs(t, c, base(p, pub)+Q("updatedAt[order]", "asc"), true, ids[1], ids[2], ids[3], ids[0])
	items := r.Items()
	c1 := Str(items[1], "createdAt")
	WantUUIDs(t, c, base(p, pub)+Q("createdAt[eq]", c1), true, ids[1])
	WantUUIDs(t, c, base(p, pub)+Q("createdAt[min]", c1), true, ids[1], ids[2], ids[3])
	WantUUIDs(t, c, base(p, pub)+Q("createdAt[max]", c1), true, ids[0], ids[1])
	u0 := Str(getSched(t, c, p, pub, ids[0]), "updatedAt")
	u3 := Str(getSched(t, c, p, pub, ids[3]), "updatedAt")
	WantUUIDs(t, c, base(p, pub)+Q("updatedAt[eq]", u0), true, ids[0])
	WantUUIDs(t, c, base(p, pub)+Q("updatedAt[min]", u3), true, ids[0], ids[3])
	WantUUIDs(t, c, base(p, pub)+Q("updatedAt[max]", u3, "updatedAt[min]", u3), true, ids[3])

	pg := Want(t, c.Get(base(p, pub)+Q("size", "3", "page", "2", "scheduledAt[order]", "asc")), 200)
	WantPagination(t, "page 2", pg, 2, 3, 4, 2)
	if got := UUIDsOf(pg.Items()); len(got) != 1 || got[0] != ids[1] {
		t.Errorf("page 2: %v", got)
	}
	Problem(t, "bad size", c.Get(base(p, pub)+Q("size", "101")), 400, "VALIDATION_FAILED", "size")
	Problem(t, "unknown publication", c.Get(base(p, RandomUUID())), 404, "NOT_FOUND")
	p2 := mkProduct(t, c)
	Problem(t, "publication of another product", c.Get(base(p2, pub)), 404, "NOT_FOUND")
}
