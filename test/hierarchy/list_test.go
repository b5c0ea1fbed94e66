package hierarchy

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// tree is the fixture of the list tests:
//
//	shoes (pos 2, active) ─ running (pos 1) ─ trail_50%_off (pos 0, removed)
//	                      └ Boots (pos 3, inactive, "Winter boots")
//	hats (pos 1, "Hats & Caps")
type tree struct{ shoes, running, trail, boots, hats string }

func (f family) tree(t *testing.T, c *Client) tree {
	t.Helper()
	var x tree
	x.shoes = f.createID(t, c, "shoes", "displayName", "Shoes", "position", 2)
	x.running = f.createID(t, c, "running", "displayName", "Running", "parentUuid", x.shoes, "position", 1)
	x.trail = f.createID(t, c, "trail_50%_off", "displayName", "Trail", "parentUuid", x.running)
	x.boots = f.createID(t, c, "Boots", "displayName", "Winter boots", "parentUuid", x.shoes, "position", 3)
	x.hats = f.createID(t, c, "hats", "displayName", "Hats & Caps", "position", 1)
	f.moveTo(t, c, x.shoes, "active")
	f.moveTo(t, c, x.trail, "removed")
	f.moveTo(t, c, x.boots, "inactive")
	return x
}

func TestListFilters(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c := env.Client(t)
		x := f.tree(t, c)
		other := env.Client(t)
		f.createID(t, other, "shoes") // another tenant's items are never listed
		l := func(kv ...string) string { return f.base + Q(kv...) }
		live := []string{x.shoes, x.running, x.boots, x.hats}

		r := Want(t, c.Get(f.base), 200)
		WantPagination(t, "all", r, 1, 20, 4, 1)
		WantUUIDs(t, c, l(), true, live...) // removed left out; createdAt order
		WantUUIDs(t, c, l("uuids[eq]", x.hats, "uuids[eq]", x.running, "uuids[eq]", UnknownUUID), false, x.hats, x.running)
		WantUUIDs(t, c, l("uuids[eq]", x.trail), false)
		WantUUIDs(t, c, l("codes[eq]", "shoes", "codes[eq]", "boots"), false, x.shoes) // codes are exact
		WantUUIDs(t, c, l("code[contains]", "O"), false, x.shoes, x.boots)             // case-insensitive
		WantUUIDs(t, c, l("code[starts]", "b"), false, x.boots)
		WantUUIDs(t, c, l("code[ends]", "S"), false, x.shoes, x.boots, x.hats)
		WantUUIDs(t, c, l("code[contains]", "%", "isRemoved[eq]", "true"), false, x.trail) // % is literal
		WantUUIDs(t, c, l("code[contains]", "_"), false)
		WantUUIDs(t, c, l("displayNames[eq]", "Hats & Caps", "displayNames[eq]", "winter boots"), false, x.hats) // exact
		WantUUIDs(t, c, l("displayName[contains]", "&"), false, x.hats)
		WantUUIDs(t, c, l("displayName[starts]", "R"), false, x.running)
		WantUUIDs(t, c, l("displayName[ends]", "S"), false, x.shoes, x.boots, x.hats)
		WantUUIDs(t, c, l("statuses[eq]", "active", "statuses[eq]", "inactive"), false, x.shoes, x.boots)
		WantUUIDs(t, c, l("statuses[eq]", "draft"), false, x.running, x.hats)
		WantUUIDs(t, c, l("statuses[eq]", "removed"), false, x.trail)
		WantUUIDs(t, c, l("statuses[eq]", "removed", "statuses[eq]", "draft"), false, x.trail, x.running, x.hats)
		WantUUIDs(t, c, l("isRemoved[eq]", "true"), false, x.trail)
		WantUUIDs(t, c, l("isRemoved[eq]", "false"), false, live...)
		WantUUIDs(t, c, l("parentUuids[eq]", x.shoes), false, x.running, x.boots)
		WantUUIDs(t, c, l("parentUuids[eq]", x.shoes, "parentUuids[eq]", x.running, "isRemoved[eq]", "true"), false, x.trail)
		WantUUIDs(t, c, l("parentUuids[eq]", x.hats), false)
		WantUUIDs(t, c, l("isRoot[eq]", "true"), false, x.shoes, x.hats)
		WantUUIDs(t, c, l("isRoot[eq]", "false"), false, x.running, x.boots)
		WantUUIDs(t, c, l("position[eq]", "1"), false, x.running, x.hats)
		WantUUIDs(t, c, l("position[min]", "2"), false, x.shoes, x.boots)
		WantUUIDs(t, c, l("position[max]", "1"), false, x.running, x.hats)
		WantUUIDs(t, c, l("position[min]", "1", "position[max]", "2"), false, x.shoes, x.running, x.hats)
		WantUUIDs(t, c, l("isRoot[eq]", "false", "statuses[eq]", "inactive", "code[contains]", "oo"), false, x.boots)

		// Timestamps: eq, min and max are inclusive.
		hats := f.get(t, c, x.hats)
		shoes := f.get(t, c, x.shoes)
		WantUUIDs(t, c, l("createdAt[eq]", Str(hats, "createdAt")), false, x.hats)
		WantUUIDs(t, c, l("createdAt[min]", Str(hats, "createdAt")), false, x.hats)
		WantUUIDs(t, c, l("createdAt[max]", Str(shoes, "createdAt")), false, x.shoes)
		WantUUIDs(t, c, l("updatedAt[eq]", Str(shoes, "updatedAt")), false, x.shoes)
		WantUUIDs(t, c, l("updatedAt[min]", Str(shoes, "updatedAt")), false, x.shoes, x.boots) // moved last
		WantUUIDs(t, c, l("updatedAt[max]", Str(hats, "updatedAt")), false, x.running, x.hats)

		// Malformed filters are 400 naming the parameter.
		for _, bad := range [][2]string{
			{"parentUuids[eq]", "nope"}, {"uuids[eq]", "x"}, {"statuses[eq]", "published"}, {"isRoot[eq]", "maybe"},
			{"position[min]", "x"}, {"position[eq]", "1.5"}, {"createdAt[min]", "yesterday"}, {"isRemoved[eq]", "1x"},
			{"parentUuid[eq]", x.shoes}, {"depth[eq]", "1"}, {"position[contains]", "1"},
		} {
			r := c.Get(l(bad[0], bad[1]))
			if r.Status != 400 {
				t.Errorf("GET %s=%s: status %d, want 400: %s", bad[0], bad[1], r.Status, r.Raw)
				continue
			}
			if !slices.Contains(ErrFields(r), bad[0]) {
				t.Errorf("GET %s=%s: errors %v do not name the parameter", bad[0], bad[1], ErrFields(r))
			}
		}
	})
}

func TestListOrderAndPages(t *testing.T) {
	forEach(t, func(t *testing.T, f family) {
		c := env.Client(t)
		x := f.tree(t, c)
		l := func(kv ...string) string { return f.base + Q(kv...) }
		WantUUIDs(t, c, l("code[order]", "asc"), true, x.boots, x.hats, x.running, x.shoes) // byte order: B < h
		WantUUIDs(t, c, l("code[order]", "desc"), true, x.shoes, x.running, x.hats, x.boots)
		WantUUIDs(t, c, l("displayName[order]", "asc"), true, x.hats, x.running, x.shoes, x.boots)
		WantUUIDs(t, c, l("position[order]", "asc", "code[order]", "asc"), true, x.hats, x.running, x.shoes, x.boots)
		WantUUIDs(t, c, l("position[order]", "desc", "createdAt[order]", "desc"), true, x.boots, x.shoes, x.hats, x.running)
		WantUUIDs(t, c, l("status[order]", "asc", "code[order]", "desc"), true, x.shoes, x.running, x.hats, x.boots)
		WantUUIDs(t, c, l("createdAt[order]", "desc"), true, x.hats, x.boots, x.running, x.shoes)
		WantUUIDs(t, c, l("updatedAt[order]", "asc"), true, x.running, x.hats, x.shoes, x.boots)
		WantUUIDs(t, c, l("parentUuids[eq]", x.shoes, "position[order]", "desc"), true, x.boots, x.running)
		for _, bad := range [][2]string{{"parentUuid[order]", "asc"}, {"code[order]", "up"}, {"uuid[order]", "asc"}} {
			if r := c.Get(l(bad[0], bad[1])); r.Status != 400 || !slices.Contains(ErrFields(r), bad[0]) {
				t.Errorf("GET %s=%s: %d %s", bad[0], bad[1], r.Status, r.Raw)
			}
		}

		// Pages.
		r := Want(t, c.Get(l("size", "3", "page", "2", "code[order]", "asc")), 200)
		WantPagination(t, "page 2", r, 2, 3, 4, 2)
		if got := UUIDsOf(r.Items()); !slices.Equal(got, []string{x.shoes}) {
			t.Errorf("page 2 of 3: %v", got)
		}
		r = Want(t, c.Get(l("page", "9")), 200)
		WantPagination(t, "past the end", r, 9, 20, 4, 1)
		if !strings.Contains(string(r.Raw), `"items":[]`) {
			t.Errorf("past the end: %s", r.Raw)
		}
		WantProblem(t, c.Get(l("size", "101")), 400, "VALIDATION_FAILED", "size")
		WantProblem(t, c.Get(l("page", "0")), 400, "VALIDATION_FAILED", "page")
	})
}

// The list filters and orders have their indexes (the tenant first, then the filtered or ordered
// column, then uuid for the tie-break).
func TestListIndexes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for _, table := range []string{"categories", "collections"} {
		for _, cols := range [][]string{
			{"tenant_id", "created_at", "uuid"}, {"tenant_id", "parent_uuid", `"position"`, "uuid"}, {"tenant_id", "status", "created_at", "uuid"},
			{"tenant_id", "is_root", `"position"`, "uuid"}, {"tenant_id", `"position"`, "uuid"}, {"tenant_id", "updated_at", "uuid"},
		} {
			var n int
			err := pool.QueryRow(ctx, `SELECT count(*) FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE '%(' || $2 || ')'`, table, strings.Join(cols, ", ")).Scan(&n)
			if err != nil || n != 1 {
				t.Errorf("%s: index on (%s): %d (%v)", table, strings.Join(cols, ", "), n, err)
			}
		}
	}
}
