package list_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/list"
)

// keysetRow is a row of the test table: nullable columns, ties on every order column.
type keysetRow struct {
	TenantID    string     `db:"tenant_id"`
	Uuid        uuid.UUID  `db:"uuid"`
	Code        string     `db:"code"`
	DisplayName *string    `db:"display_name"`
	Status      string     `db:"status"`
	Position    *int32     `db:"position"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   *time.Time `db:"updated_at"`
}

var keysetSpec = &list.Spec{
	Table: "keyset_rows",
	Filters: list.CodeNameFilters(map[string]list.Field{
		"statuses": {Column: "status", Type: list.Enum, Values: []string{"draft", "active"}},
	}),
	Order: map[string]string{"code": "code", "displayName": "display_name", "status": "status",
		"createdAt": "created_at", "updatedAt": "updated_at", "position": "position"},
}

func keysetDB(t *testing.T) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	u, drop, err := apptest.CreateDatabase(ctx, "keyset")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	pool, err := pgxpool.New(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, `CREATE TABLE keyset_rows (
		tenant_id text NOT NULL, uuid uuid PRIMARY KEY, code text NOT NULL, display_name text,
		status text NOT NULL, position integer, created_at timestamptz NOT NULL, updated_at timestamptz)`); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(15, 3))
	names := []*string{nil, new("a"), new("b"), new("B"), new("é"), new("c")}
	positions := []*int32{nil, new(int32(-1)), new(int32(0)), new(int32(7))}
	base := time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC)
	for i := range 41 {
		var updated *time.Time
		if n := rnd.IntN(3); n > 0 {
			updated = new(base.Add(time.Duration(n) * time.Hour))
		}
		if _, err := pool.Exec(ctx, `INSERT INTO keyset_rows VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			"t1", uuid.New(), fmt.Sprintf("c%02d", rnd.IntN(1000)*100+i), names[rnd.IntN(len(names))],
			[]string{"draft", "active"}[rnd.IntN(2)], positions[rnd.IntN(len(positions))],
			base.Add(time.Duration(rnd.IntN(4))*time.Microsecond), updated); err != nil {
			t.Fatal(err)
		}
	}
	// Another tenant's rows are never part of a walk.
	if _, err := pool.Exec(ctx, `INSERT INTO keyset_rows SELECT 't2', gen_random_uuid(), code, display_name, status,
		position, created_at, updated_at FROM keyset_rows`); err != nil {
		t.Fatal(err)
	}
	return pool
}

func uuidsOf(rows []keysetRow) []uuid.UUID {
	out := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		out[i] = r.Uuid
	}
	return out
}

// walk reads every page of req by cursor, checking each page's pagination.
func walk(t *testing.T, pool *pgxpool.Pool, req *catalogv1.ListAttributesRequest, size int32, total int) []uuid.UUID {
	t.Helper()
	ctx := context.Background()
	req.Size = &size
	var out []uuid.UUID
	for page := int32(1); ; page++ {
		rows, p, err := list.Run[keysetRow](ctx, pool, keysetSpec, "t1", req)
		if err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		out = append(out, uuidsOf(rows)...)
		pages := (int32(total) + size - 1) / size
		if p.Page != page || p.Size != size || p.TotalItems != int32(total) || p.TotalPages != pages {
			t.Errorf("page %d: pagination %v, want page %d of %d (%d items)", page, p, page, pages, total)
		}
		if page > pages+1 {
			t.Fatalf("the walk does not end: %d pages of %d items", page, total)
		}
		if p.NextCursor == nil {
			if page != max(pages, 1) {
				t.Errorf("nextCursor null on page %d of %d", page, pages)
			}
			return out
		}
		if len(rows) != int(size) {
			t.Errorf("page %d: %d rows, and a next cursor", page, len(rows))
		}
		req.Page, req.Cursor = nil, p.NextCursor
	}
}

// A walk by cursor in any order (each column either way, NULLs and ties included) lists exactly
// the rows of the offset listing, in the same order.
func TestKeysetWalkEqualsOffsetListing(t *testing.T) {
	pool := keysetDB(t)
	ctx := context.Background()
	fields := []string{"code", "displayName", "status", "createdAt", "updatedAt", "position"}
	var orders [][]*catalogv1.OrderBy
	orders = append(orders, nil) // the default order
	dirs := []catalogv1.SortDirection{catalogv1.SortDirection_SORT_DIRECTION_ASC, catalogv1.SortDirection_SORT_DIRECTION_DESC}
	for _, f := range fields {
		for _, d := range dirs {
			orders = append(orders, []*catalogv1.OrderBy{{Field: f, Direction: d}})
			for _, g := range fields {
				for _, e := range dirs {
					if g != f && g != "code" {
						orders = append(orders, []*catalogv1.OrderBy{{Field: f, Direction: d}, {Field: g, Direction: e}})
					}
				}
			}
		}
	}
	orders = append(orders, []*catalogv1.OrderBy{{Field: "status"}, {Field: "displayName", Direction: dirs[1]}, {Field: "position"}})
	filters := []*catalogv1.ListAttributesRequest{
		{},
		{Statuses: &catalogv1.StringsFilter{Eq: []string{"draft"}}},
		{DisplayNames: &catalogv1.StringsFilter{Eq: []string{"b", "B"}}},
	}
	for _, o := range orders {
		for fi, f := range filters {
			for _, size := range []int32{1, 3, 7} {
				req := &catalogv1.ListAttributesRequest{OrderBy: o, Statuses: f.Statuses, DisplayNames: f.DisplayNames}
				all, p, err := list.Run[keysetRow](ctx, pool, keysetSpec, "t1", &catalogv1.ListAttributesRequest{
					OrderBy: o, Statuses: f.Statuses, DisplayNames: f.DisplayNames, Size: new(int32(100))})
				if err != nil {
					t.Fatal(err)
				}
				if p.NextCursor != nil || len(all) == 0 {
					t.Fatalf("the offset listing has %d rows and next cursor %v", len(all), p.NextCursor)
				}
				got := walk(t, pool, req, size, len(all))
				if want := uuidsOf(all); !slices.Equal(got, want) {
					t.Errorf("order %v, filter %d, size %d: the walk listed\n%v\nthe offset listing\n%v", o, fi, size, got, want)
				}
			}
		}
	}
}

// An offset page also carries the cursor of the page after it, and a cursor then continues from
// there; a page past the end has none.
func TestOffsetPageCursor(t *testing.T) {
	pool := keysetDB(t)
	ctx := context.Background()
	order := []*catalogv1.OrderBy{{Field: "displayName", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}}
	all, _, err := list.Run[keysetRow](ctx, pool, keysetSpec, "t1", &catalogv1.ListAttributesRequest{OrderBy: order, Size: new(int32(100))})
	if err != nil {
		t.Fatal(err)
	}
	third, p, err := list.Run[keysetRow](ctx, pool, keysetSpec, "t1", &catalogv1.ListAttributesRequest{OrderBy: order, Page: new(int32(3)), Size: new(int32(5))})
	if err != nil || p.NextCursor == nil || !slices.Equal(uuidsOf(third), uuidsOf(all[10:15])) {
		t.Fatalf("page 3: %v %v", p, err)
	}
	fourth, p, err := list.Run[keysetRow](ctx, pool, keysetSpec, "t1", &catalogv1.ListAttributesRequest{OrderBy: order, Cursor: p.NextCursor, Size: new(int32(5))})
	if err != nil || p.Page != 4 || p.TotalItems != int32(len(all)) || !slices.Equal(uuidsOf(fourth), uuidsOf(all[15:20])) {
		t.Errorf("the page after page 3 by cursor: %v %v", p, err)
	}
	_, p, err = list.Run[keysetRow](ctx, pool, keysetSpec, "t1", &catalogv1.ListAttributesRequest{OrderBy: order, Page: new(int32(99)), Size: new(int32(5))})
	if err != nil || p.NextCursor != nil {
		t.Errorf("a page past the end: %v %v", p, err)
	}
}

// A cursor with a valid tag (its key is no secret) but a position that is not of the order's
// columns is a 400 naming cursor, never a 500.
func TestForgedCursorPositionIsRefused(t *testing.T) {
	pool := keysetDB(t)
	notATime, notAUUID := "not a time", "not a uuid"
	req := &catalogv1.ListAttributesRequest{Size: new(int32(5))}
	req.Cursor = new(list.ForgeCursor(req, []*string{&notATime, &notAUUID}))
	_, _, err := list.Run[keysetRow](context.Background(), pool, keysetSpec, "t1", req)
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != apierr.ValidationFailed || len(e.Fields) != 1 || e.Fields[0].Field != "cursor" {
		t.Fatalf("forged position: %v, want VALIDATION_FAILED naming cursor", err)
	}
}

// A list's statements are planned for their values on every run: after the five runs where
// PostgreSQL plans a prepared statement for its values, it would otherwise keep one generic plan
// for any tenant and filter values (a products search went from 3 ms to 30 ms a page on a million
// products). The setting ends with the list's batch: the connection goes back to the pool with
// PostgreSQL's default.
func TestListsArePlannedForTheirValues(t *testing.T) {
	ctx := context.Background()
	pool := keysetDB(t)
	cfg := pool.Config().Copy()
	cfg.MaxConns = 1 // one connection: its prepared statements are the ones pg_prepared_statements shows
	one, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	for range 12 {
		req := &catalogv1.ListAttributesRequest{Statuses: &catalogv1.StringsFilter{Eq: []string{"draft"}}, Size: new(int32(5))}
		if _, _, err := list.Run[keysetRow](ctx, one, keysetSpec, "t1", req); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := one.Query(ctx, `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
		WHERE statement LIKE '%FROM keyset_rows WHERE%' AND statement NOT LIKE '%pg_prepared_statements%'`)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var stmt string
		var generic, custom int64
		if err := rows.Scan(&stmt, &generic, &custom); err != nil {
			t.Fatal(err)
		}
		n++
		if generic != 0 || custom != 12 {
			t.Errorf("%d generic and %d custom plans, want 0 and 12: %s", generic, custom, stmt)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d prepared list statements, want 2 (the page and its count)", n)
	}
	var mode string
	if err := one.QueryRow(ctx, "SELECT current_setting('plan_cache_mode')").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "auto" {
		t.Errorf("plan_cache_mode %q after a list, want auto (the setting must not outlive the list)", mode)
	}
}
