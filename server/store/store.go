// Package store opens the PostgreSQL pool, runs transactions and maps database errors onto the
// API's error model.
package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/tracing"
)

// DB is the service's database handle.
type DB struct {
	Pool *pgxpool.Pool
	Q    *db.Queries
	topo Topology
	// direct is the configuration of topo.DirectURL's connections (nil: none).
	direct *pgx.ConnConfig
	// replicas serve the routed reads (Routed; nil: the primary serves every read).
	replicas *Replicas
}

// Open connects a pool to url and checks it answers.
func Open(ctx context.Context, url string) (*DB, error) {
	return OpenWith(ctx, url, Options{})
}

// Options tune a pool that OpenWith opens.
type Options struct {
	// MaxConns is the pool's size; 0 takes the URL's pool_max_conns, at least 8.
	MaxConns int32
	// Name is the pool's application_name suffix (catalogd-<name>) as PostgreSQL's pg_stat_activity shows it.
	Name string
	// MinConns is the number of connections the pool keeps open even when idle (with MaxConns;
	// default 0). The ops pool keeps one, so that /readyz answers from a warm connection even when
	// the server's connection slots are all taken.
	MinConns int32
	// Topology: what url reaches (a pooler or PostgreSQL itself) and the direct URL beside it.
	Topology
}

// OpenWith connects a pool to url with opts and checks it answers. The webhook dispatcher has a
// pool of its own (DESIGN.md "Limits and fairness"), so that API load cannot take its connections.
func OpenWith(ctx context.Context, url string, opts Options) (*DB, error) {
	cfg, err := poolConfig(url, opts)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	var direct *pgx.ConnConfig
	if opts.DirectURL != "" {
		if direct, err = pgx.ParseConfig(opts.DirectURL); err != nil {
			return nil, fmt.Errorf("parse CATALOG_DATABASE_DIRECT_URL: %w", err)
		}
		if opts.Name != "" {
			direct.RuntimeParams["application_name"] = "catalogd-" + opts.Name
		}
		direct.RuntimeParams["timezone"] = "UTC"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	d := &DB{Pool: pool, topo: opts.Topology, direct: direct}
	d.Q = db.New(ctxDB{d})
	return d, nil
}

// poolConfig is the configuration of a pool of url with opts: its size, name, time zone, the
// pooler's statement mode, tracing and the uuid type.
func poolConfig(url string, opts Options) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
		cfg.MinConns = min(opts.MinConns, opts.MaxConns)
	} else if cfg.MaxConns < 8 {
		cfg.MaxConns = 8
	}
	if opts.Name != "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "catalogd-" + opts.Name
	}
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	opts.Topology.configure(cfg.ConnConfig)
	cfg.ConnConfig.Tracer = tracing.Pgx() // a span per statement when tracing is on (nil: off)
	cfg.AfterConnect = func(_ context.Context, c *pgx.Conn) error {
		registerUUID(c.TypeMap())
		return nil
	}
	return cfg, nil
}

// ctxDB is the pool as the queries' connection, except that a statement under a context from
// WithTx runs in that transaction: a handler that reads with DB.Q outside DB.Tx (e.g. to fill a
// response) sees what its own transaction wrote, and does not take a second connection. Outside a
// transaction, the queries of a routed read (Routed) run on a read replica (replicas.go); Exec,
// which writes, always runs on the primary.
type ctxDB struct{ d *DB }

func (c ctxDB) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return tx.Exec(ctx, sql, args...)
	}
	return c.d.Pool.Exec(ctx, sql, args...)
}

func (c ctxDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return tx.Query(ctx, sql, args...)
	}
	return c.routedQuery(ctx, sql, args)
}

func (c ctxDB) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return tx.QueryRow(ctx, sql, args...)
	}
	return c.routedQueryRow(ctx, sql, args)
}

// Close closes the pool (and the read replicas' of UseReplicas).
func (d *DB) Close() {
	if d.replicas != nil {
		d.replicas.Close()
	}
	d.Pool.Close()
}

// ReadyTimeout bounds one Ready check.
const ReadyTimeout = 3 * time.Second

// Ready reports whether the database is reachable: nil when a round trip (Ping) on one of d's
// connections succeeds within ReadyTimeout. Meant for a small pool of its own (the "ops" pool of
// /readyz), which API load cannot fill: a slow or saturated API pool is not an unreachable
// database. A failure that says the connection itself broke (IsUnavailable: e.g. the server was
// restarted since the connection was last used) is tried once more, on a fresh connection.
func (d *DB) Ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ReadyTimeout)
	defer cancel()
	err := d.Pool.Ping(ctx)
	if err != nil && IsUnavailable(err) && ctx.Err() == nil {
		err = d.Pool.Ping(ctx)
	}
	return err
}

// Tx runs fn in one transaction: committed when fn returns nil, rolled back otherwise. Under a
// context from WithTx it runs fn in a savepoint of that transaction instead (released when fn
// returns nil, rolled back to otherwise), so a caller can run an API operation as one step of its
// own transaction.
//
// A top-level transaction that PostgreSQL aborts as a deadlock victim or a serialization failure
// runs again (fn from the start, up to three attempts in all): two writers that lock the same rows
// in opposite orders then both succeed instead of one getting a 500. fn must only touch the
// database (and its own per-attempt state).
func (d *DB) Tx(ctx context.Context, fn func(tx pgx.Tx, q *db.Queries) error) error {
	if outer, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		if f, _ := ctx.Value(flatKey{}).(*flat); f != nil {
			err := fn(outer, d.Q.WithTx(outer))
			if err != nil {
				f.failed = true
			}
			return err
		}
		return d.tx(ctx, outer.Begin, fn)
	}
	return retried(func() error { return d.tx(ctx, d.pipe, fn) })
}

// pipe is a top-level transaction on a connection of the pool: a Pipe whose BEGIN goes with its
// first statement, and its COMMIT with the statements queued for it (AtCommit).
func (d *DB) pipe(ctx context.Context) (pgx.Tx, error) {
	c, err := d.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	return NewPipe(c.Conn(), c.Release, "BEGIN"), nil
}

// retried runs a top-level transaction (run, from the start) again when PostgreSQL aborted it as
// a deadlock victim or a serialization failure, up to three attempts in all: DB.Tx's, and a
// Round's sent on its own (one implicit transaction).
func retried(run func() error) error {
	for attempt := 1; ; attempt++ {
		err := run()
		if code, _ := PgCode(err); attempt < 3 && (code == DeadlockDetected || code == SerializationFailure) {
			time.Sleep(time.Duration(attempt) * time.Duration(5+rand.IntN(20)) * time.Millisecond)
			continue
		}
		return err
	}
}

func (d *DB) tx(ctx context.Context, begin func(context.Context) (pgx.Tx, error), fn func(tx pgx.Tx, q *db.Queries) error) error {
	tx, err := begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after commit
	if err := fn(tx, d.Q.WithTx(tx)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

type txKey struct{}

type flatKey struct{}

// flat records whether a transaction under Flat failed.
type flat struct{ failed bool }

// Flat is ctx (one from WithTx) under which DB.Tx runs fn straight in the caller's transaction,
// without a savepoint of its own: a round trip less each way, for a caller that makes many
// writes in one transaction and, when any fails, rolls the whole transaction back and does it
// again without Flat (an import line). A failure under Flat may leave the transaction aborted
// or holding part of a write, and code that goes on after an error (a second attempt, a read
// that explains the error) sees that; FlatFailed tells the caller to start over.
func Flat(ctx context.Context) context.Context {
	return context.WithValue(ctx, flatKey{}, &flat{})
}

// FlatFailed reports whether a DB.Tx under ctx (from Flat) has failed; IsFlat whether ctx is one.
func FlatFailed(ctx context.Context) bool {
	f, _ := ctx.Value(flatKey{}).(*flat)
	return f != nil && f.failed
}

// IsFlat reports whether ctx is from Flat.
func IsFlat(ctx context.Context) bool { return ctx.Value(flatKey{}) != nil }

// FailFlat marks ctx's writes (from Flat) as failed, for a caller that would otherwise go on
// after a failure as it does with savepoints.
func FailFlat(ctx context.Context) {
	if f, _ := ctx.Value(flatKey{}).(*flat); f != nil {
		f.failed = true
	}
}

type deferredKey struct{}

// WithDeferredRefresh marks ctx as running in a transaction that called refresh_defer()
// (migration 0029: readiness and search arrays refreshed once, at refresh_flush(), instead of
// after every statement): a read that needs them current calls refresh_flush() first
// (RefreshDeferred tells it).
func WithDeferredRefresh(ctx context.Context) context.Context {
	return context.WithValue(ctx, deferredKey{}, true)
}

// RefreshDeferred reports whether ctx is from WithDeferredRefresh.
func RefreshDeferred(ctx context.Context) bool { return ctx.Value(deferredKey{}) != nil }

// WithTx returns ctx under which DB.Tx runs in a savepoint of tx, and DB.Q's statements in tx (the
// scheduler runs publication moves inside the transaction that claims the schedule; an
// Idempotency-Key request runs its handler inside the transaction that stores its answer).
func WithTx(ctx context.Context, tx pgx.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, tx)
}

// Now is the time stamped on a write: UTC, truncated to the microseconds PostgreSQL stores.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

type nowKey struct{}

// WithNow fixes the time that writes under ctx stamp (the scheduler stamps a schedule's run and
// the publication move it makes with one time).
func WithNow(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, nowKey{}, t)
}

// NowFor is the time a write under ctx stamps: the one WithNow fixed, else Now().
func NowFor(ctx context.Context) time.Time {
	if t, ok := ctx.Value(nowKey{}).(time.Time); ok {
		return t
	}
	return Now()
}

// IsNoRows reports a missing row.
func IsNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// PgCode returns the SQLSTATE of a PostgreSQL error, or "".
func PgCode(err error) (code, constraint string) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code, pe.ConstraintName
	}
	return "", ""
}

// SQLSTATEs the services map onto API errors.
const (
	UniqueViolation      = "23505"
	ForeignKeyViolation  = "23503"
	CheckViolation       = "23514"
	DeadlockDetected     = "40P01"
	SerializationFailure = "40001"
	StringTooLong        = "22001"
	NumericOutOfRange    = "22003"
)
