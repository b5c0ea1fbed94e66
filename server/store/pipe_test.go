package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/store"
)

// DB.Tx runs on a store.Pipe: its BEGIN goes with the first statement and the statements queued by
// AtCommit with its COMMIT (two round trips for a write and its events); a failure of a queued
// statement rolls everything back; a transaction that sends nothing sends nothing; under WithTx
// (a savepoint) the queued statements run at once.
func TestTxPipelinesBeginAndCommit(t *testing.T) {
	ctx := context.Background()
	count := &trips{}
	pool := migratedPool(t, func(cfg *pgxpool.Config) { cfg.ConnConfig.Tracer = count })
	d := &store.DB{Pool: pool, Q: db.New(pool)}
	insert := func(q *db.Queries, ids []uuid.UUID, codes ...string) error {
		_, err := q.InsertTags(ctx, db.InsertTagsParams{TenantID: "t1", Uuids: ids, Codes: codes, DisplayNames: codes, Now: time.Now()})
		return err
	}
	queued := func(ids []uuid.UUID, codes ...string) *store.Round {
		var r store.Round
		r.Add(func(q *db.Queries) error { return insert(q, ids, codes...) })
		return &r
	}
	codes := func() map[string]bool {
		rows, err := pool.Query(ctx, "SELECT code FROM tags WHERE tenant_id = 't1'")
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, c := range got {
			out[c] = true
		}
		return out
	}
	reset := func() { count.batches.Store(0); count.batched.Store(0); count.queries.Store(0) }

	reset()
	err := d.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := insert(q, []uuid.UUID{uuid.New()}, "a"); err != nil {
			return err
		}
		return store.AtCommit(ctx, tx, queued([]uuid.UUID{uuid.New()}, "b"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, n, q := count.batches.Load(), count.batched.Load(), count.queries.Load(); b != 2 || n != 4 || q != 0 {
		t.Errorf("a write and its queued statement: %d batches of %d statements and %d single statements, want 2 batches of 4 (BEGIN + insert, insert + COMMIT) and none", b, n, q)
	}
	if got := codes(); !got["a"] || !got["b"] {
		t.Fatalf("committed %v, want a and b", got)
	}

	// A queued statement that fails (a NULL uuid: more codes than uuids) fails the commit and
	// rolls back the transaction's other writes; the connection serves the next transaction.
	err = d.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := insert(q, []uuid.UUID{uuid.New()}, "c"); err != nil {
			return err
		}
		return store.AtCommit(ctx, tx, queued([]uuid.UUID{uuid.New()}, "d1", "d2"))
	})
	if code, _ := store.PgCode(err); code != "23502" {
		t.Fatalf("a failing queued statement: %v, want its not-null violation", err)
	}
	if got := codes(); got["c"] || got["d1"] {
		t.Fatalf("after a failed commit the table holds %v: c and d1 must be rolled back", got)
	}

	reset()
	if err := d.Tx(ctx, func(pgx.Tx, *db.Queries) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if b, q := count.batches.Load(), count.queries.Load(); b != 0 || q != 0 {
		t.Errorf("an empty transaction sent %d batches and %d statements, want none", b, q)
	}

	// Under WithTx the nested DB.Tx is a savepoint: its queued statement runs at once (the
	// savepoint may yet be rolled back to), inside the outer transaction.
	err = d.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
		inner := store.WithTx(ctx, tx)
		if err := d.Tx(inner, func(stx pgx.Tx, _ *db.Queries) error {
			return store.AtCommit(inner, stx, queued([]uuid.UUID{uuid.New()}, "e"))
		}); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM tags WHERE tenant_id = 't1' AND code = 'e'").Scan(&n); err != nil || n != 1 {
			t.Errorf("the savepoint's queued insert is not visible in the transaction: %d rows, %v", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(); !got["e"] {
		t.Fatalf("committed %v, want e", got)
	}
}
