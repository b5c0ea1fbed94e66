package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Pooler is what DATABASE_URL reaches (CATALOG_DATABASE_POOLER; DESIGN.md "Production topology").
// It is configured, never guessed.
type Pooler string

// The poolers catalogd works behind.
const (
	// PoolerNone: DATABASE_URL is PostgreSQL itself. Statements are prepared once per connection
	// (pgx's statement cache); LISTEN uses a connection of the pool.
	PoolerNone Pooler = "none"
	// PoolerTransaction: a pooler that lends a server connection for one transaction (PgBouncer
	// pool_mode=transaction). Nothing may outlive a transaction: statements are sent unnamed with
	// their described types cached (pgx's cache_describe mode), locks are transaction-scoped, SET
	// is SET LOCAL, and LISTEN needs CATALOG_DATABASE_DIRECT_URL (without it the webhook dispatcher
	// polls).
	PoolerTransaction Pooler = "transaction"
	// PoolerSession: a pooler that lends a server connection for a client connection's life
	// (PgBouncer pool_mode=session): as PoolerNone.
	PoolerSession Pooler = "session"
)

// Poolers are the accepted values of CATALOG_DATABASE_POOLER.
var Poolers = []Pooler{PoolerNone, PoolerTransaction, PoolerSession}

// ParsePooler reads CATALOG_DATABASE_POOLER: none, transaction or session (in any letter case).
func ParsePooler(s string) (Pooler, error) {
	for _, p := range Poolers {
		if strings.EqualFold(s, string(p)) {
			return p, nil
		}
	}
	return "", errors.New("not a pooler mode")
}

// Topology is how the service reaches PostgreSQL beyond DATABASE_URL.
type Topology struct {
	// Pooler is what DATABASE_URL reaches; "" is PoolerNone.
	Pooler Pooler
	// DirectURL reaches the same primary without the pooler (CATALOG_DATABASE_DIRECT_URL): the
	// sessions a transaction pooler cannot keep (LISTEN) use it. Empty: none.
	DirectURL string
}

// ErrNoSession is Session's answer when DATABASE_URL reaches a transaction pooler and no
// CATALOG_DATABASE_DIRECT_URL is given: there is no connection whose session lasts.
var ErrNoSession = errors.New("DATABASE_URL reaches a transaction pooler and CATALOG_DATABASE_DIRECT_URL is not set: no session to LISTEN on")

// configure adapts a pool's connection settings to t: through a transaction pooler no named
// prepared statement may outlive its transaction (the next transaction may run on another server
// connection, or this one may serve another client), so statements go unnamed (the extended
// protocol still carries the arguments, typed by the cached description). A mode chosen in the URL
// (default_query_exec_mode) other than the statement cache is kept.
func (t Topology) configure(cfg *pgx.ConnConfig) {
	if t.Pooler == PoolerTransaction && cfg.DefaultQueryExecMode == pgx.QueryExecModeCacheStatement {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	}
}

// Session opens a connection of its own whose session lasts until the caller closes it (LISTEN):
// one of the pool's, taken out of it, when DATABASE_URL keeps sessions (no pooler, or a session
// pooler); a connection to CATALOG_DATABASE_DIRECT_URL behind a transaction pooler; ErrNoSession
// when there is none.
func (d *DB) Session(ctx context.Context) (*pgx.Conn, error) {
	switch {
	case d.topo.Pooler != PoolerTransaction:
		c, err := d.Pool.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		return c.Hijack(), nil
	case d.direct != nil:
		return pgx.ConnectConfig(ctx, d.direct.Copy())
	default:
		return nil, ErrNoSession
	}
}

// Topology is how d reaches PostgreSQL.
func (d *DB) Topology() Topology { return d.topo }

// TryLock takes the advisory lock named key if nobody holds it, for as long as the caller needs:
// in a transaction of its own (pg_try_advisory_xact_lock), left open until release. The lock ends
// with that transaction, and so with its connection or the process, with or without a pooler in
// between; a session lock (pg_advisory_lock) would, behind a transaction pooler, be taken on one
// server connection, "released" on another and stay with the first for whoever gets it next. ok is
// false when another transaction holds the lock (release is then nil). The caller's statements
// run on other connections, each in its own transaction.
func (d *DB) TryLock(ctx context.Context, key string) (release func(), ok bool, err error) {
	tx, err := d.Pool.Begin(ctx)
	if err != nil {
		return nil, false, err
	}
	if err = tx.QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0))`, key).Scan(&ok); err != nil || !ok {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return nil, false, err
	}
	return func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = tx.Rollback(rctx) // a rollback that fails closes the connection, which ends the lock too
	}, true, nil
}
