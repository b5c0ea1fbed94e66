package store_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	migrations "github.com/catalogd/catalogd/db"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/store"
)

// trips counts what a pool sends: batches and single queries.
type trips struct{ batches, queries, batched atomic.Int32 }

func (c *trips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.queries.Add(1)
	return ctx
}
func (c *trips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *trips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.batches.Add(1)
	return ctx
}
func (c *trips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {
	c.batched.Add(1)
}
func (c *trips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// A round's reads get what each query alone returns, in one batch: :one and :many queries, an
// absent row as the query's own no-rows error, and nothing sent for an empty round.
func TestRoundSendsItsReadsInOneBatch(t *testing.T) {
	ctx := context.Background()
	count := &trips{}
	pool := migratedPool(t, func(cfg *pgxpool.Config) { cfg.ConnConfig.Tracer = count })
	d := &store.DB{Pool: pool, Q: db.New(pool)}
	a, b := uuid.New(), uuid.New()
	if _, err := d.Q.InsertTags(ctx, db.InsertTagsParams{TenantID: "t1", Uuids: []uuid.UUID{a, b}, Codes: []string{"a", "b"},
		DisplayNames: []string{"A", "B"}, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	count.queries.Store(0)

	var r store.Round
	var ta, tb db.Tag
	var none []db.ListFeaturedAssetsOfProductsRow
	r.Add(func(q *db.Queries) (err error) {
		ta, err = q.GetTag(ctx, db.GetTagParams{TenantID: "t1", Uuid: a})
		return err
	})
	r.Add(func(q *db.Queries) (err error) {
		none, err = q.ListFeaturedAssetsOfProducts(ctx, db.ListFeaturedAssetsOfProductsParams{TenantID: "t1", ProductUuids: []uuid.UUID{a}})
		return err
	})
	r.Add(func(q *db.Queries) (err error) {
		tb, err = q.GetTag(ctx, db.GetTagParams{TenantID: "t1", Uuid: b})
		return err
	})
	if err := d.Send(ctx, &r); err != nil {
		t.Fatal(err)
	}
	if ta.Code != "a" || tb.Code != "b" || tb.DisplayName != "B" || len(none) != 0 {
		t.Fatalf("round read %+v, %+v, %v", ta, tb, none)
	}
	// The three reads and, first, the plan mode (store.GenericPlans).
	if b, n, q := count.batches.Load(), count.batched.Load(), count.queries.Load(); b != 1 || n != 4 || q != 0 {
		t.Fatalf("sent %d batches of %d queries and %d single queries, want 1 batch of 4 and none", b, n, q)
	}

	// Under a context of WithTx the round reads in that transaction: it sees the transaction's own
	// uncommitted row.
	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	c := uuid.New()
	if _, err := db.New(tx).InsertTags(ctx, db.InsertTagsParams{TenantID: "t1", Uuids: []uuid.UUID{c}, Codes: []string{"c"},
		DisplayNames: []string{"C"}, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var inTx store.Round
	var tc db.Tag
	inTx.Add(func(q *db.Queries) (err error) {
		tc, err = q.GetTag(ctx, db.GetTagParams{TenantID: "t1", Uuid: c})
		return err
	})
	if err := d.Send(store.WithTx(ctx, tx), &inTx); err != nil || tc.Code != "c" {
		t.Fatalf("a round under WithTx read %+v (%v), want the transaction's own row", tc, err)
	}

	// Another tenant's row is absent: the :one read returns pgx.ErrNoRows, as alone.
	var missing store.Round
	missing.Add(func(q *db.Queries) (err error) {
		_, err = q.GetTag(ctx, db.GetTagParams{TenantID: "t2", Uuid: a})
		return err
	})
	if err := d.Send(ctx, &missing); !errors.Is(err, pgx.ErrNoRows) || !store.IsNoRows(err) {
		t.Fatalf("a missing row: %v, want no rows", err)
	}
	// A read making no query, or two, is refused before anything is sent.
	count.batches.Store(0)
	var bad store.Round
	bad.Add(func(q *db.Queries) error { return nil })
	if err := d.Send(ctx, &bad); err == nil {
		t.Fatal("a read making no query was accepted")
	}
	var two store.Round
	two.Add(func(q *db.Queries) error {
		_, _ = q.GetTag(ctx, db.GetTagParams{TenantID: "t1", Uuid: a})
		_, err := q.GetTag(ctx, db.GetTagParams{TenantID: "t1", Uuid: b})
		return err
	})
	if err := d.Send(ctx, &two); err == nil {
		t.Fatal("a read making two queries was accepted")
	}
	var empty store.Round
	if err := d.Send(ctx, &empty); err != nil || count.batches.Load() != 0 {
		t.Fatalf("empty or refused rounds sent %d batches (%v)", count.batches.Load(), err)
	}
}

// A round sent on its own runs its statements on their generic plans, planned once per connection
// (store.GenericPlans), and leaves the connection's plan mode as it was; under WithTx it changes
// nothing in the caller's transaction.
func TestRoundPlansItsStatementsOnce(t *testing.T) {
	ctx := context.Background()
	// One session: its prepared statements and settings are the round's.
	pool := migratedPool(t, func(cfg *pgxpool.Config) { cfg.MaxConns = 1 })
	d := &store.DB{Pool: pool, Q: db.New(pool)}
	ids := []uuid.UUID{uuid.New(), uuid.New()}
	const runs = 8
	for i := 0; i < runs; i++ {
		var r store.Round
		r.Add(func(q *db.Queries) (err error) {
			_, err = q.ListEffectiveInputValuesOfProducts(ctx, db.ListEffectiveInputValuesOfProductsParams{TenantID: "t1", OwnerUuids: ids})
			return err
		})
		r.Add(func(q *db.Queries) (err error) {
			_, err = q.ListFeaturedAssetsOfProducts(ctx, db.ListFeaturedAssetsOfProductsParams{TenantID: "t1", ProductUuids: ids})
			return err
		})
		if err := d.Send(ctx, &r); err != nil {
			t.Fatal(err)
		}
	}
	var generic, custom int64
	if err := pool.QueryRow(ctx, `SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0) FROM pg_prepared_statements
		WHERE (statement LIKE '%name: ListEffectiveInputValuesOfProducts%' OR statement LIKE '%name: ListFeaturedAssetsOfProducts%')
		  AND statement NOT LIKE '%pg_prepared_statements%'`).Scan(&generic, &custom); err != nil {
		t.Fatal(err)
	}
	if custom != 0 || generic != 2*runs {
		t.Fatalf("%d runs of 2 statements: %d generic and %d custom plans, want %d generic and none custom", runs, generic, custom, 2*runs)
	}
	var mode string
	if err := pool.QueryRow(ctx, "SELECT current_setting('plan_cache_mode')").Scan(&mode); err != nil || mode != "auto" {
		t.Fatalf("after the rounds the session's plan_cache_mode is %q (%v), want auto", mode, err)
	}

	tx, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck
	var r store.Round
	r.Add(func(q *db.Queries) (err error) {
		_, err = q.ListFeaturedAssetsOfProducts(ctx, db.ListFeaturedAssetsOfProductsParams{TenantID: "t1", ProductUuids: ids})
		return err
	})
	if err := d.Send(store.WithTx(ctx, tx), &r); err != nil {
		t.Fatal(err)
	}
	if err := tx.QueryRow(ctx, "SELECT current_setting('plan_cache_mode')").Scan(&mode); err != nil || mode != "auto" {
		t.Fatalf("after a round under WithTx the transaction's plan_cache_mode is %q (%v), want auto", mode, err)
	}
}

// migratedPool is a pool on a fresh migrated database, configured by tweak, closed at the end of
// the test.
func migratedPool(t *testing.T, tweak func(*pgxpool.Config)) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	_, url := testDB(t)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	tweak(cfg)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := migrations.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	return pool
}
