package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/store"
)

// The errors a real outage produces are unavailable; the request's own cancellation, its
// deadline and the database's answers to bad data are not.
func TestIsUnavailableClassifiesRealErrors(t *testing.T) {
	ctx := context.Background()
	d, url := testDB(t)

	// Nothing listens on the port: connection refused, as a pool's acquire reports it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := fmt.Sprintf("postgres://postgres@%s/x?sslmode=disable&connect_timeout=2", l.Addr())
	_ = l.Close()
	_, refused := pgx.Connect(ctx, dead)

	// A session the server terminates (what a restart does to every open connection): the next
	// statement on it fails.
	victim, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close(ctx)
	var pid uint32
	if err := victim.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pool.Exec(ctx, "SELECT pg_terminate_backend($1)", pid); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	_, terminated := victim.Exec(ctx, "SELECT 1")
	_, closed := victim.Exec(ctx, "SELECT 1") // and the one after: the connection is closed

	// A transaction whose connection dies before the commit: the commit fails, and says so.
	commitErr := d.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
		var own uint32
		if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&own); err != nil {
			return err
		}
		_, err := d.Pool.Exec(ctx, "SELECT pg_terminate_backend($1)", own)
		time.Sleep(100 * time.Millisecond)
		return err // nil: Tx commits, on a connection the server has closed
	})

	_, unique := d.Pool.Exec(ctx, "CREATE TEMP TABLE u (v int PRIMARY KEY); INSERT INTO u VALUES (1), (1)")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, cancelled := d.Pool.Exec(cctx, "SELECT 1")
	dctx, dcancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer dcancel()
	_, timedOut := d.Pool.Exec(dctx, "SELECT pg_sleep(5)")

	for name, c := range map[string]struct {
		err  error
		want bool
	}{
		"connection refused":    {refused, true},
		"session terminated":    {terminated, true},
		"connection closed":     {closed, true},
		"commit on a dead conn": {commitErr, true},
		"57P01 admin_shutdown":  {&pgconn.PgError{Code: "57P01"}, true},
		"57P03 starting up":     {&pgconn.PgError{Code: "57P03"}, true},
		"53300 too many conns":  {fmt.Errorf("wrapped: %w", &pgconn.PgError{Code: "53300"}), true},
		"08006 conn failure":    {&pgconn.PgError{Code: "08006"}, true},
		"unexpected EOF":        {fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		"40P01 deadlock":        {fmt.Errorf("insert: %w", &pgconn.PgError{Code: "40P01"}), true},
		"40001 serialization":   {&pgconn.PgError{Code: "40001"}, true},
		"unique violation":      {unique, false},
		"cancelled request":     {cancelled, false},
		"request deadline":      {timedOut, false},
		"no rows":               {pgx.ErrNoRows, false},
		"nil":                   {nil, false},
		"other":                 {errors.New("boom"), false},
	} {
		if (c.err == nil) != (name == "nil") {
			t.Errorf("%s: the scenario produced err = %v", name, c.err)
			continue
		}
		t.Logf("%s: %v", name, c.err)
		if got := store.IsUnavailable(c.err); got != c.want {
			t.Errorf("%s: IsUnavailable(%v) = %v, want %v", name, c.err, got, c.want)
		}
	}
}
