package publications

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestCreateGetDelete(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	ch1, ch2, ch3 := mkChannel(t, c), mkChannel(t, c), mkChannel(t, c)
	log := NewEventLog(pool, tenant).Skip(t)

	r := Want(t, c.Post(base(p), Body("channelUuid", ch1)), 201)
	v := r.Obj()
	id := Str(v, "uuid")
	wantPub(t, "create", v, "productUuid", p, "channelUuid", ch1, "status", "draft", "publishedAt", nil)
	if loc := r.Header.Get("Location"); loc != base(p)+"/"+id {
		t.Errorf("Location %q", loc)
	}
	log.Expect(t, "create", ev("created", p, id))
	g := Want(t, c.Get(base(p)+"/"+id), 200).Obj()
	wantPub(t, "get", g, "uuid", id, "productUuid", p, "channelUuid", ch1, "status", "draft", "publishedAt", nil)

	// One publication per product and channel.
	Problem(t, "duplicate", c.Post(base(p), Body("channelUuid", ch1)), 409, "ALREADY_EXISTS", "channelUuid")
	Problem(t, "duplicate in bulk", c.Post(base(p)+"/bulk", []any{Body("channelUuid", ch2), Body("channelUuid", ch1)}), 409, "ALREADY_EXISTS", "[1].channelUuid")
	Problem(t, "twice in one bulk", c.Post(base(p)+"/bulk", []any{Body("channelUuid", ch2), Body("channelUuid", ch2)}), 409, "ALREADY_EXISTS", "[1].channelUuid")
	// References and validation.
	Problem(t, "unknown channel", c.Post(base(p), Body("channelUuid", RandomUUID())), 404, "NOT_FOUND", "channelUuid")
	other := env.ClientFor(t, "t-"+RandomHex(8))
	foreign := mkChannel(t, other)
	Problem(t, "other tenant's channel", c.Post(base(p), Body("channelUuid", foreign)), 404, "NOT_FOUND", "channelUuid")
	Problem(t, "unknown channel in bulk", c.Post(base(p)+"/bulk", []any{Body("channelUuid", ch2), Body("channelUuid", foreign)}), 404, "NOT_FOUND", "[1].channelUuid")
	Problem(t, "missing channel", c.Post(base(p), Body()), 400, "VALIDATION_FAILED", "channelUuid")
	Problem(t, "bad uuid", c.Post(base(p), Body("channelUuid", "nope")), 400, "VALIDATION_FAILED", "channelUuid")
	Problem(t, "empty bulk", c.Post(base(p)+"/bulk", []any{}), 400, "VALIDATION_FAILED")
	Problem(t, "unknown product", c.Post(base(RandomUUID()), Body("channelUuid", ch2)), 404, "NOT_FOUND")
	log.Expect(t, "failed writes")
	if n := CountRows(t, pool, "product_publications", tenant); n != 1 {
		t.Errorf("%d rows after failed writes, want 1", n)
	}

	// Bulk create: all draft, in request order.
	items := Want(t, c.Post(base(p)+"/bulk", []any{Body("channelUuid", ch3), Body("channelUuid", ch2)}), 201).Objs()
	if len(items) != 2 {
		t.Fatalf("bulk: %v", items)
	}
	wantPub(t, "bulk[0]", items[0], "channelUuid", ch3, "status", "draft", "publishedAt", nil, "productUuid", p)
	wantPub(t, "bulk[1]", items[1], "channelUuid", ch2, "status", "draft", "publishedAt", nil, "productUuid", p)
	log.Expect(t, "bulk", ev("created", p, Str(items[0], "uuid")), ev("created", p, Str(items[1], "uuid")))

	// Delete.
	Want(t, c.Delete(base(p)+"/"+id), 204)
	log.Expect(t, "delete", ev("deleted", p, id))
	Problem(t, "get deleted", c.Get(base(p)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "delete again", c.Delete(base(p)+"/"+id), 404, "NOT_FOUND")
	Problem(t, "bad id", c.Get(base(p)+"/nope"), 400, "VALIDATION_FAILED", "publicationUuid")
	// A publication of another product of the tenant is not found under this one.
	p2 := mkProduct(t, c, "simple")
	Problem(t, "other product", c.Get(base(p2)+"/"+Str(items[0], "uuid")), 404, "NOT_FOUND")
	Problem(t, "delete under other product", c.Delete(base(p2)+"/"+Str(items[0], "uuid")), 404, "NOT_FOUND")
	// The channel is free again: a new publication may target ch1.
	mkPub(t, c, p, ch1)
}

func TestInUseAndCascade(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	ch := mkChannel(t, c)
	mkPub(t, c, p, ch)
	if r := c.Delete("/v1/channels/" + ch); Problem(t, "delete channel with a publication", r, 409, "IN_USE") {
		if by, ok := Strings(Meta(r.Obj())["referencedBy"]); !ok || len(by) != 1 || by[0] != "product publication" {
			t.Errorf("meta.referencedBy %#v", Meta(r.Obj())["referencedBy"])
		}
	}
	Want(t, c.Delete("/v1/products/"+p), 204)
	if n := CountRows(t, pool, "product_publications", tenant); n != 0 {
		t.Errorf("%d publications left after deleting the product", n)
	}
	Want(t, c.Delete("/v1/channels/"+ch), 204)
}

func TestIsolation(t *testing.T) {
	t.Parallel()
	a, _ := env.TenantClient(t)
	b, tenantB := env.TenantClient(t)
	p := mkProduct(t, a, "simple")
	activate(t, a, p)
	ch := mkChannel(t, a)
	id := mkPub(t, a, p, ch)
	chB := mkChannel(t, b)
	for name, r := range map[string]Resp{
		"list":            b.Get(base(p)),
		"create":          b.Post(base(p), Body("channelUuid", chB)),
		"bulk create":     b.Post(base(p)+"/bulk", []any{Body("channelUuid", chB)}),
		"get":             b.Get(base(p) + "/" + id),
		"readiness":       b.Get(base(p) + "/" + id + "/readiness"),
		"delete":          b.Delete(base(p) + "/" + id),
		"transition":      move(b, p, id, "publish"),
		"bulk transition": b.Patch(base(p)+"/bulk/actions/lifecycle", Body("transition", "publish", "uuids", []string{id})),
	} {
		Problem(t, name, r, 404, "NOT_FOUND")
	}
	if n := CountRows(t, pool, "events", tenantB, "type LIKE 'product.%'"); n != 0 {
		t.Errorf("tenant B has %d product events", n)
	}
	wantPub(t, "untouched", Want(t, a.Get(base(p)+"/"+id), 200).Obj(), "status", "draft")
}
