package publications

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestLifecycle(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	log := NewEventLog(pool, tenant)
	p := mkProduct(t, c, "simple")
	activate(t, c, p)
	ch := mkChannel(t, c)
	id := mkPub(t, c, p, ch)
	log.Skip(t)

	// draft: unpublish is not allowed; publish moves to published and sets publishedAt.
	pr := WantProblem(t, move(c, p, id, "unpublish"), 409, "INVALID_TRANSITION")
	if meta, _ := pr["meta"].(map[string]any); meta["status"] != "draft" || meta["allowedTransitions"] != "publish" {
		t.Errorf("INVALID_TRANSITION meta: %v", pr)
	}
	v := Want(t, move(c, p, id, "publish"), 200).Obj()
	wantPub(t, "published", v, "uuid", id, "status", "published")
	first := Str(v, "publishedAt")
	if !TimestampRe.MatchString(first) || first != Str(v, "updatedAt") {
		t.Errorf("publishedAt %q, updatedAt %q", first, Str(v, "updatedAt"))
	}
	log.Expect(t, "publish", moveEv("published", p, id))
	// published: publish again is a no-op without event.
	v = Want(t, move(c, p, id, "publish"), 200).Obj()
	wantPub(t, "no-op publish", v, "status", "published", "publishedAt", first)
	log.Expect(t, "no-op publish")
	// published → unpublished keeps publishedAt.
	v = Want(t, move(c, p, id, "unpublish"), 200).Obj()
	wantPub(t, "unpublished", v, "status", "unpublished", "publishedAt", first)
	log.Expect(t, "unpublish", moveEv("unpublished", p, id))
	// unpublished: unpublish again is a no-op; publish moves back and keeps the first publishedAt.
	wantPub(t, "no-op unpublish", Want(t, move(c, p, id, "unpublish"), 200).Obj(), "status", "unpublished")
	log.Expect(t, "no-op unpublish")
	v = Want(t, move(c, p, id, "publish"), 200).Obj()
	wantPub(t, "republished", v, "status", "published", "publishedAt", first)
	log.Expect(t, "republish", moveEv("published", p, id))
	wantPub(t, "get", Want(t, c.Get(base(p)+"/"+id), 200).Obj(), "status", "published", "publishedAt", first)

	Problem(t, "unknown transition", move(c, p, id, "remove"), 400, "MALFORMED_REQUEST", "transition")
	Problem(t, "missing transition", c.Patch(base(p)+"/"+id+"/actions/lifecycle", Body()), 400, "VALIDATION_FAILED", "transition")
	Problem(t, "unknown publication", move(c, p, RandomUUID(), "publish"), 404, "NOT_FOUND")
	Problem(t, "unknown product", move(c, RandomUUID(), id, "publish"), 404, "NOT_FOUND")
	log.Expect(t, "refused moves")
}

func TestBulkLifecycle(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	activate(t, c, p)
	a, b := mkPub(t, c, p, mkChannel(t, c)), mkPub(t, c, p, mkChannel(t, c))
	log := NewEventLog(pool, tenant).Skip(t)
	bulk := base(p) + "/bulk/actions/lifecycle"

	Problem(t, "unknown uuid", c.Patch(bulk, Body("transition", "publish", "uuids", []string{a, RandomUUID()})), 404, "NOT_FOUND", "uuids[1]")
	Problem(t, "disallowed move", c.Patch(bulk, Body("transition", "unpublish", "uuids", []string{a, b})), 409, "INVALID_TRANSITION", "uuids[0]")
	Problem(t, "no uuids", c.Patch(bulk, Body("transition", "publish", "uuids", []string{})), 400, "VALIDATION_FAILED", "uuids")
	log.Expect(t, "refused")

	items := Want(t, c.Patch(bulk, Body("transition", "publish", "uuids", []string{b, a})), 200).Objs()
	if len(items) != 2 || Str(items[0], "uuid") != b || Str(items[1], "uuid") != a {
		t.Fatalf("bulk publish: %v", items)
	}
	for _, it := range items {
		wantPub(t, "bulk published", it, "status", "published")
		if it["publishedAt"] == nil {
			t.Errorf("publishedAt not set: %v", it)
		}
	}
	log.Expect(t, "bulk publish", moveEv("published", p, a), moveEv("published", p, b))
	// A publication of another product is unknown here.
	p2 := mkProduct(t, c, "simple")
	other := mkPub(t, c, p2, mkChannel(t, c))
	log.Skip(t)
	Problem(t, "other product's publication", c.Patch(bulk, Body("transition", "unpublish", "uuids", []string{a, other})), 404, "NOT_FOUND", "uuids[1]")
	wantPub(t, "a unchanged", Want(t, c.Get(base(p)+"/"+a), 200).Obj(), "status", "published")
	items = Want(t, c.Patch(bulk, Body("transition", "unpublish", "uuids", []string{a})), 200).Objs()
	wantPub(t, "bulk unpublished", items[0], "status", "unpublished")
	log.Expect(t, "bulk unpublish", moveEv("unpublished", p, a))
}
