package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/gen/db"
)

// Two transactions that lock two rows in opposite orders deadlock; PostgreSQL aborts one of them,
// and DB.Tx runs that one again, so both succeed (and the victim's first attempt left nothing).
func TestTxRetriesADeadlockVictim(t *testing.T) {
	ctx := context.Background()
	d, _ := testDB(t)
	if _, err := d.Pool.Exec(ctx, `CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL); INSERT INTO pair VALUES (1, 0), (2, 0)`); err != nil {
		t.Fatal(err)
	}
	var attempts atomic.Int32
	var both sync.WaitGroup
	both.Add(2) // each transaction holds its first row before taking the second
	run := func(first, second int) error {
		once := sync.Once{}
		return d.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
			attempts.Add(1)
			if _, err := tx.Exec(ctx, "SET LOCAL deadlock_timeout = '100ms'"); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "UPDATE pair SET n = n + 1 WHERE id = $1", first); err != nil {
				return err
			}
			once.Do(func() { both.Done(); both.Wait() })
			_, err := tx.Exec(ctx, "UPDATE pair SET n = n + 1 WHERE id = $1", second)
			return err
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- run(1, 2) }()
	go func() { errs <- run(2, 1) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a transaction failed: %v", err)
		}
	}
	if n := attempts.Load(); n != 3 {
		t.Errorf("%d attempts, want 3 (one deadlock victim run again)", n)
	}
	var a, b int
	if err := d.Pool.QueryRow(ctx, "SELECT (SELECT n FROM pair WHERE id = 1), (SELECT n FROM pair WHERE id = 2)").Scan(&a, &b); err != nil {
		t.Fatal(err)
	}
	if a != 2 || b != 2 {
		t.Errorf("rows %d, %d: want 2, 2 (each transaction counted once)", a, b)
	}
}
