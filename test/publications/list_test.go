package publications

import (
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

func TestList(t *testing.T) {
	t.Parallel()
	c, _ := env.TenantClient(t)
	p := mkProduct(t, c, "simple")
	activate(t, c, p)
	ch := []string{mkChannel(t, c), mkChannel(t, c), mkChannel(t, c)}
	ids := make([]string, 3)
	for i := range ch {
		ids[i] = mkPub(t, c, p, ch[i])
		time.Sleep(5 * time.Millisecond)
	}
	// Another product's publication never shows.
	p2 := mkProduct(t, c, "simple")
	mkPub(t, c, p2, ch[0])
	// ids[1] published, ids[2] published then unpublished.
	Want(t, move(c, p, ids[1], "publish"), 200)
	Want(t, move(c, p, ids[2], "publish"), 200)
	Want(t, move(c, p, ids[2], "unpublish"), 200)

	r := Want(t, c.Get(base(p)), 200)
	WantPagination(t, "all", r, 1, 20, 3, 1)
	for _, it := range r.Items() {
		WantKeys(t, "list item", it, pubKeys...)
	}
	WantUUIDs(t, c, base(p), true, ids...)
	WantUUIDs(t, c, base(p)+Q("uuids[eq]", ids[0], "uuids[eq]", ids[2]), true, ids[0], ids[2])
	WantUUIDs(t, c, base(p)+Q("channelUuids[eq]", ch[1]), true, ids[1])
	WantUUIDs(t, c, base(p)+Q("channelUuids[eq]", ch[1], "channelUuids[eq]", ch[2]), true, ids[1], ids[2])
	WantUUIDs(t, c, base(p)+Q("status[eq]", "draft"), true, ids[0])
	WantUUIDs(t, c, base(p)+Q("status[eq]", "published"), true, ids[1])
	WantUUIDs(t, c, base(p)+Q("status[eq]", "unpublished"), true, ids[2])
	Problem(t, "two statuses", c.Get(base(p)+Q("status[eq]", "draft", "status[eq]", "published")), 400, "VALIDATION_FAILED", "status[eq]")
	Problem(t, "unknown status", c.Get(base(p)+Q("status[eq]", "gone")), 400, "VALIDATION_FAILED", "status[eq]")
	Problem(t, "bad uuid", c.Get(base(p)+Q("uuids[eq]", "x")), 400, "VALIDATION_FAILED", "uuids[eq]")
	// status[order]: draft < published < unpublished alphabetically.
	WantUUIDs(t, c, base(p)+Q("status[order]", "desc"), true, ids[2], ids[1], ids[0])
	WantUUIDs(t, c, base(p)+Q("createdAt[order]", "desc"), true, ids[2], ids[1], ids[0])
	// updatedAt: ids[0] untouched since creation, ids[2] last moved.
	WantUUIDs(t, c, base(p)+Q("updatedAt[order]", "desc"), true, ids[2], ids[1], ids[0])

	items := r.Items()
	c0, c1 := Str(items[0], "createdAt"), Str(items[1], "createdAt")
	WantUUIDs(t, c, base(p)+Q("createdAt[eq]", c1), true, ids[1])
	WantUUIDs(t, c, base(p)+Q("createdAt[min]", c1), true, ids[1], ids[2])
	WantUUIDs(t, c, base(p)+Q("createdAt[max]", c1), true, ids[0], ids[1])
	WantUUIDs(t, c, base(p)+Q("createdAt[min]", c0, "createdAt[max]", c0), true, ids[0])
	u0 := Str(items[0], "updatedAt")
	u1 := Str(Want(t, c.Get(base(p)+"/"+ids[1]), 200).Obj(), "updatedAt")
	WantUUIDs(t, c, base(p)+Q("updatedAt[eq]", u0), true, ids[0])
	WantUUIDs(t, c, base(p)+Q("updatedAt[max]", u0), true, ids[0])
	WantUUIDs(t, c, base(p)+Q("updatedAt[min]", u1), true, ids[1], ids[2])

	pg := Want(t, c.Get(base(p)+Q("size", "2", "page", "2")), 200)
	WantPagination(t, "page 2", pg, 2, 2, 3, 2)
	if got := UUIDsOf(pg.Items()); len(got) != 1 || got[0] != ids[2] {
		t.Errorf("page 2: %v", got)
	}
	Problem(t, "bad size", c.Get(base(p)+Q("size", "101")), 400, "VALIDATION_FAILED", "size")
	Problem(t, "unknown product", c.Get(base(RandomUUID())), 404, "NOT_FOUND")
}
