package schedules

import (
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestCreateGetDelete(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	pub := mkPub(t, c, p)
	log := NewEventLog(pool, tenant).Skip(t)
	at := far(1)

	r := Want(t, c.Post(base(p, pub), Body("transition", "publish", "scheduledAt", ts(at))), 201)
	v := r.Obj()
	id := Str(v, "uuid")
	wantSched(t, "create", v, "productUuid", p, "publicationUuid", pub, "transition", "publish", "scheduledAt", ts(at),
		"status", "pending", "executedAt", nil, "failureCode", nil, "failureReason", nil)
	if loc := r.Header.Get("Location"); loc != base(p, pub)+"/"+id {
		t.Errorf("Location %q", loc)
	}
	log.Expect(t, "create", ev("created", p, pub, id))
	wantSched(t, "get", getSched(t, c, p, pub, id), "uuid", id, "transition", "publish", "scheduledAt", ts(at), "status", "pending")
	// Nanoseconds are cut to the microseconds stored.
	nano := at.Add(time.Hour).Add(123456789 * time.Nanosecond).Format(time.RFC3339Nano)
	v2 := Want(t, c.Post(base(p, pub), Body("transition", "unpublish", "scheduledAt", nano)), 201).Obj()
	wantSched(t, "create nanos", v2, "scheduledAt", ts(at.Add(time.Hour).Add(123456*time.Microsecond)), "transition", "unpublish")
	log.Skip(t)

	// Validation: transition and scheduledAt are required; scheduledAt must be in the future.
	past := time.Now().Add(-time.Second)
	Problem(t, "past scheduledAt", c.Post(base(p, pub), Body("transition", "publish", "scheduledAt", ts(past))), 400, "VALIDATION_FAILED", "scheduledAt")
	Problem(t, "scheduledAt now", c.Post(base(p, pub), Body("transition", "publish", "scheduledAt", ts(time.Now()))), 400, "VALIDATION_FAILED", "scheduledAt")
	Problem(t, "missing scheduledAt", c.Post(base(p, pub), Body("transition", "publish")), 400, "VALIDATION_FAILED", "scheduledAt")
	Problem(t, "null scheduledAt", c.Post(base(p, pub), Body("transition", "publish", "scheduledAt", nil)), 400, "VALIDATION_FAILED", "scheduledAt")
	Problem(t, "bad scheduledAt", c.Post(base(p, pub), Body("transition", "publish", "scheduledAt", "tomorrow")), 400, "MALFORMED_REQUEST", "scheduledAt")
	Problem(t, "missing transition", c.Post(base(p, pub), Body("scheduledAt", ts(at))), 400, "VALIDATION_FAILED", "transition")
	Problem(t, "bad transition", c.Post(base(p, pub), Body("transition", "cancel", "scheduledAt", ts(at))), 400, "MALFORMED_REQUEST", "transition")
	Problem(t, "read-only status", c.Post(base(p, pub), Body("transition", "publish", "scheduledAt", ts(at), "status", "executed")), 400, "MALFORMED_REQUEST", "status")
	Problem(t, "bulk item in the past", c.Post(base(p, pub)+"/bulk", []any{Body("transition", "publish", "scheduledAt", ts(at)),
		Body("transition", "publish", "scheduledAt", ts(past))}), 400, "VALIDATION_FAILED", "[1].scheduledAt")
	Problem(t, "empty bulk", c.Post(base(p, pub)+"/bulk", []any{}), 400, "VALIDATION_FAILED")
	// References: the publication must exist under the product.
	Problem(t, "unknown publication", c.Post(base(p, RandomUUID()), Body("transition", "publish", "scheduledAt", ts(at))), 404, "NOT_FOUND")
	p2 := mkProduct(t, c)
	pub2 := mkPub(t, c, p2)
	log.Skip(t)
	Problem(t, "publication of another product", c.Post(base(p, pub2), Body("transition", "publish", "scheduledAt", ts(at))), 404, "NOT_FOUND")
	Problem(t, "get under another product", c.Get(base(p2, pub)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "get under another publication", c.Get(base(p2, pub2)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "unknown product", c.Post(base(RandomUUID(), pub), Body("transition", "publish", "scheduledAt", ts(at))), 404, "NOT_FOUND")
	Problem(t, "bad product uuid", c.Get(base("nope", pub)), 400, "VALIDATION_FAILED", "productUuid")
	Problem(t, "bad publication uuid", c.Get(base(p, "nope")), 400, "VALIDATION_FAILED", "publicationUuid")
	Problem(t, "bad schedule uuid", c.Get(base(p, pub)+"/nope"), 400, "VALIDATION_FAILED", "scheduleUuid")
	Problem(t, "unknown schedule", c.Get(base(p, pub)+"/"+RandomUUID()), 404, "NOT_FOUND")
	log.Expect(t, "failed writes")
	if n := CountRows(t, pool, "publication_schedules", tenant); n != 2 {
		t.Errorf("%d rows after failed writes, want 2", n)
	}

	// Bulk create: pending, in request order.
	items := Want(t, c.Post(base(p, pub)+"/bulk", []any{Body("transition", "unpublish", "scheduledAt", ts(at.Add(2*time.Hour))),
		Body("transition", "publish", "scheduledAt", ts(at.Add(3*time.Hour)))}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk: %v", items)
	}
	wantSched(t, "bulk[0]", items[0], "transition", "unpublish", "scheduledAt", ts(at.Add(2*time.Hour)), "status", "pending", "publicationUuid", pub)
	wantSched(t, "bulk[1]", items[1], "transition", "publish", "scheduledAt", ts(at.Add(3*time.Hour)), "status", "pending", "productUuid", p)
	log.Expect(t, "bulk", ev("created", p, pub, Str(items[0], "uuid")), ev("created", p, pub, Str(items[1], "uuid")))

	// Delete.
	Problem(t, "delete under another publication", c.Delete(base(p2, pub2)+"/"+id), 404, "NOT_FOUND")
	Want(t, c.Delete(base(p, pub)+"/"+id), 204)
	log.Expect(t, "delete", ev("deleted", p, pub, id))
	Problem(t, "get deleted", c.Get(base(p, pub)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete(base(p, pub)+"/"+id), 404, "NOT_FOUND")
	// A cancelled schedule can be deleted too.
	Want(t, cancel(c, p, pub, Str(items[0], "uuid")), 200)
	Want(t, c.Delete(base(p, pub)+"/"+Str(items[0], "uuid")), 204)
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	pub := mkPub(t, c, p)
	a, b := mkSched(t, c, p, pub, "publish", far(1)), mkSched(t, c, p, pub, "publish", far(2))
	log := NewEventLog(pool, tenant).Skip(t)
	before := getSched(t, c, p, pub, a)

	at := far(5)
	v := Want(t, c.Patch(base(p, pub)+"/"+a, Body("transition", "unpublish", "scheduledAt", ts(at))), 200).Obj()
	wantSched(t, "update", v, "uuid", a, "transition", "unpublish", "scheduledAt", ts(at), "status", "pending", "createdAt", before["createdAt"])
	if !TS(t, v["updatedAt"]).After(TS(t, before["updatedAt"])) {
		t.Errorf("updatedAt not bumped: %v → %v", before["updatedAt"], v["updatedAt"])
	}
	log.Expect(t, "update", ev("updated", p, pub, a))
	// Only the fields present change; null on scheduledAt leaves it.
	v = Want(t, c.Patch(base(p, pub)+"/"+a, Body("transition", "publish", "scheduledAt", nil)), 200).Obj()
	wantSched(t, "partial", v, "transition", "publish", "scheduledAt", ts(at))
	v = Want(t, c.Patch(base(p, pub)+"/"+a, Body()), 200).Obj()
	wantSched(t, "empty body", v, "transition", "publish", "scheduledAt", ts(at))
	log.Expect(t, "partial updates", ev("updated", p, pub, a)) // the empty body changed nothing

	Problem(t, "past", c.Patch(base(p, pub)+"/"+a, Body("scheduledAt", ts(time.Now().Add(-time.Minute)))), 400, "VALIDATION_FAILED", "scheduledAt")
	Problem(t, "bad transition", c.Patch(base(p, pub)+"/"+a, Body("transition", "remove")), 400, "MALFORMED_REQUEST", "transition")
	Problem(t, "status is read-only", c.Patch(base(p, pub)+"/"+a, Body("status", "cancelled")), 400, "MALFORMED_REQUEST", "status")
	Problem(t, "unknown", c.Patch(base(p, pub)+"/"+RandomUUID(), Body("transition", "publish")), 404, "NOT_FOUND")

	// Bulk update: atomic, errors name the item.
	at7 := far(7)
	items := Want(t, c.Patch(base(p, pub)+"/bulk", []any{Body("uuid", b, "scheduledAt", ts(at7)), Body("uuid", a, "transition", "unpublish")}), 200).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk update: %v", items)
	}
	wantSched(t, "bulk[0]", items[0], "uuid", b, "scheduledAt", ts(at7), "transition", "publish")
	wantSched(t, "bulk[1]", items[1], "uuid", a, "scheduledAt", ts(at), "transition", "unpublish")
	log.Expect(t, "bulk update", ev("updated", p, pub, b), ev("updated", p, pub, a))
	Problem(t, "bulk past", c.Patch(base(p, pub)+"/bulk", []any{Body("uuid", b, "scheduledAt", ts(time.Now().Add(-time.Hour)))}), 400, "VALIDATION_FAILED", "[0].scheduledAt")
	Problem(t, "bulk unknown", c.Patch(base(p, pub)+"/bulk", []any{Body("uuid", b, "transition", "unpublish"), Body("uuid", RandomUUID(), "transition", "publish")}), 404, "NOT_FOUND", "[1].uuid")
	Problem(t, "bulk missing uuid", c.Patch(base(p, pub)+"/bulk", []any{Body("transition", "publish")}), 400, "VALIDATION_FAILED", "[0].uuid")

	// Only a pending schedule changes: 409 INVALID_TRANSITION with its status, nothing changed.
	Want(t, cancel(c, p, pub, a), 200)
	log.Skip(t)
	cancelled := getSched(t, c, p, pub, a)
	prob := WantProblem(t, c.Patch(base(p, pub)+"/"+a, Body("scheduledAt", ts(far(9)))), 409, "INVALID_TRANSITION")
	WantTransitionMeta(t, "update cancelled", Meta(prob), "cancelled")
	Problem(t, "bulk with a cancelled one", c.Patch(base(p, pub)+"/bulk", []any{Body("uuid", b, "transition", "unpublish"),
		Body("uuid", a, "transition", "publish")}), 409, "INVALID_TRANSITION", "[1].uuid")
	log.Expect(t, "refused updates")
	if got := getSched(t, c, p, pub, a); got["updatedAt"] != cancelled["updatedAt"] || got["transition"] != "unpublish" {
		t.Errorf("refused update changed %v", got)
	}
	wantSched(t, "b untouched by the refused bulk", getSched(t, c, p, pub, b), "transition", "publish")
}

func TestCascade(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c)
	pub, pub2 := mkPub(t, c, p), mkPub(t, c, p)
	mkSched(t, c, p, pub, "publish", far(1))
	mkSched(t, c, p, pub, "unpublish", far(2))
	mkSched(t, c, p, pub2, "publish", far(1))
	Want(t, c.Delete(pubBase(p)+"/"+pub), 204)
	if n := CountRows(t, pool, "publication_schedules", tenant); n != 1 {
		t.Errorf("%d schedules left after deleting a publication, want 1", n)
	}
	Want(t, c.Delete("/v1/products/"+p), 204)
	if n := CountRows(t, pool, "publication_schedules", tenant); n != 0 {
		t.Errorf("%d schedules left after deleting the product", n)
	}
}

func TestIsolation(t *testing.T) {
	t.Parallel()
	a, _ := env.TenantClient(t)
	b, tenantB := env.TenantClient(t)
	p := mkProduct(t, a)
	pub := mkPub(t, a, p)
	id := mkSched(t, a, p, pub, "publish", far(1))
	body := Body("transition", "publish", "scheduledAt", ts(far(2)))
	for name, r := range map[string]Resp{
		"list":        b.Get(base(p, pub)),
		"create":      b.Post(base(p, pub), body),
		"bulk create": b.Post(base(p, pub)+"/bulk", []any{body}),
		"get":         b.Get(base(p, pub) + "/" + id),
		"update":      b.Patch(base(p, pub)+"/"+id, Body("transition", "unpublish")),
		"bulk update": b.Patch(base(p, pub)+"/bulk", []any{Body("uuid", id, "transition", "unpublish")}),
		"delete":      b.Delete(base(p, pub) + "/" + id),
		"cancel":      cancel(b, p, pub, id),
		"bulk cancel": b.Patch(base(p, pub)+"/bulk/actions/lifecycle", Body("transition", "cancel", "uuids", []string{id})),
	} {
		Problem(t, name, r, 404, "NOT_FOUND")
	}
	// Tenant B's own product and publication do not reach A's schedule either.
	pB := mkProduct(t, b)
	pubB := mkPub(t, b, pB)
	Problem(t, "get through B's publication", b.Get(base(pB, pubB)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "update through B's publication", b.Patch(base(pB, pubB)+"/bulk", []any{Body("uuid", id, "transition", "unpublish")}), 404, "NOT_FOUND", "[0].uuid")
	Problem(t, "cancel through B's publication", cancel(b, pB, pubB, id), 404, "NOT_FOUND")
	Problem(t, "delete through B's publication", b.Delete(base(pB, pubB)+"/"+id), 404, "NOT_FOUND")
	if n := CountRows(t, pool, "events", tenantB, "type LIKE 'product.publication.schedule.%'"); n != 0 {
		t.Errorf("tenant B has %d schedule events", n)
	}
	wantSched(t, "untouched", getSched(t, a, p, pub, id), "status", "pending", "transition", "publish")
}
