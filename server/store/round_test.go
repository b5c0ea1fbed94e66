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
	_, url := testDB(t)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	count := &trips{}
	cfg.ConnConfig.Tracer = count
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := migrations.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
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
	if b, n, q := count.batches.Load(), count.batched.Load(), count.queries.Load(); b != 1 || n != 3 || q != 0 {
		t.Fatalf("sent %d batches of %d queries and %d single queries, want 1 batch of 3 and none", b, n, q)
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
