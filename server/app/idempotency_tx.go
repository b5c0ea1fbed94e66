package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// keyTx is the transaction of a keyed call (idempotency.go): a pgx.Tx on one connection that saves
// round trips and statements, which the bench showed to be most of a key's cost. Its BEGIN goes in
// one batch with the key's lock and look-up (begin), and its COMMIT in one batch with the stored
// answer (commitWith).
//
// The handler's store.Tx calls (Begin) are optimistic at first: they run in the transaction itself,
// without savepoints (most succeed; a savepoint and its release are two statements and a
// subtransaction). When one fails (its Rollback), the transaction cannot be rolled back to before
// it: failed is set, and the chain runs the whole attempt again with savepoints (savepoints true).
// Those are sent with the next statement on the connection (in one batch), as are their releases
// and the rollbacks to them: nothing else runs on the connection in between, so the outcome is the
// same.
type keyTx struct {
	conn *pgx.Conn
	// savepoints: Begin takes a savepoint; else it takes none, and a failure sets failed.
	savepoints bool
	failed     bool
	pending    []string // savepoint statements not sent yet, in order
	next       int      // the last savepoint's number
	closed     bool
}

var _ pgx.Tx = (*keyTx)(nil)

// begin sends BEGIN and b's statements in one round trip; the transaction is open when it returns
// nil (else it is rolled back, or the connection is broken).
func (t *keyTx) begin(ctx context.Context, b *pgx.Batch) error {
	all := &pgx.Batch{}
	all.Queue("BEGIN")
	all.QueuedQueries = append(all.QueuedQueries, b.QueuedQueries...)
	return t.conn.SendBatch(ctx, all).Close()
}

// recover sends the pending statements at once when they roll back to a savepoint: the transaction
// may be aborted until then, and a batch would first prepare its new statements, which an aborted
// transaction refuses (an error path: one round trip more).
func (t *keyTx) recover(ctx context.Context) error {
	for _, p := range t.pending {
		if strings.HasPrefix(p, "ROLLBACK") {
			return t.flush(ctx)
		}
	}
	return nil
}

// flush sends the pending savepoint statements.
func (t *keyTx) flush(ctx context.Context) error {
	if len(t.pending) == 0 {
		return nil
	}
	sql := strings.Join(t.pending, "; ")
	t.pending = nil
	_, err := t.conn.PgConn().Exec(ctx, sql).ReadAll()
	return err
}

// commitWith sends the pending savepoint statements, sql with args, and COMMIT in one round trip.
func (t *keyTx) commitWith(ctx context.Context, sql string, args ...any) error {
	if t.closed {
		return pgx.ErrTxClosed
	}
	if err := t.recover(ctx); err != nil {
		return err
	}
	b := &pgx.Batch{}
	for _, p := range t.pending {
		b.Queue(p)
	}
	t.pending = nil
	b.Queue(sql, args...)
	b.Queue("COMMIT")
	if err := t.conn.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	t.closed = true
	return nil
}

func (t *keyTx) Begin(ctx context.Context) (pgx.Tx, error) {
	if t.closed {
		return nil, pgx.ErrTxClosed
	}
	if !t.savepoints {
		return &keySavepoint{tx: t}, nil
	}
	t.next++
	sp := &keySavepoint{tx: t, name: fmt.Sprintf("idem_sp_%d", t.next)}
	t.pending = append(t.pending, "SAVEPOINT "+sp.name)
	return sp, nil
}

func (t *keyTx) Commit(ctx context.Context) error {
	if t.closed {
		return pgx.ErrTxClosed
	}
	if err := t.flush(ctx); err != nil {
		return err
	}
	if _, err := t.conn.Exec(ctx, "COMMIT"); err != nil {
		return err
	}
	t.closed = true
	return nil
}

func (t *keyTx) Rollback(ctx context.Context) error {
	if t.closed {
		return pgx.ErrTxClosed
	}
	t.closed, t.pending = true, nil
	_, err := t.conn.Exec(ctx, "ROLLBACK")
	if err != nil {
		_ = t.conn.Close(ctx) // a connection in an unknown state is not given back
	}
	return err
}

func (t *keyTx) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	return t.conn.CopyFrom(ctx, table, cols, src)
}

func (t *keyTx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	// A failed flush leaves the transaction aborted (or the connection broken): the batch then
	// fails with that.
	_ = t.flush(ctx)
	return t.conn.SendBatch(ctx, b)
}

// LargeObjects is not supported: catalogd uses none (the zero value's methods fail).
func (t *keyTx) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }

func (t *keyTx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	if err := t.flush(ctx); err != nil {
		return nil, err
	}
	return t.conn.Prepare(ctx, name, sql)
}

// withPending sends the pending statements and then sql in one batch; the results of the pending
// ones are read (the first error is returned), sql's are left to the caller, who closes br.
func (t *keyTx) withPending(ctx context.Context, sql string, args []any) (pgx.BatchResults, error) {
	if err := t.recover(ctx); err != nil {
		return nil, err
	}
	if len(t.pending) == 0 {
		return t.conn.SendBatch(ctx, &pgx.Batch{QueuedQueries: []*pgx.QueuedQuery{{SQL: sql, Arguments: args}}}), nil
	}
	b := &pgx.Batch{}
	for _, p := range t.pending {
		b.Queue(p)
	}
	n := len(t.pending)
	t.pending = nil
	b.Queue(sql, args...)
	br := t.conn.SendBatch(ctx, b)
	for range n {
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return nil, err
		}
	}
	return br, nil
}

func (t *keyTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if len(t.pending) == 0 {
		return t.conn.Exec(ctx, sql, args...)
	}
	br, err := t.withPending(ctx, sql, args)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return tag, err
}

func (t *keyTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if len(t.pending) == 0 {
		return t.conn.Query(ctx, sql, args...)
	}
	br, err := t.withPending(ctx, sql, args)
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return nil, err
	}
	return &batchRows{Rows: rows, br: br}, nil
}

func (t *keyTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if len(t.pending) == 0 {
		return t.conn.QueryRow(ctx, sql, args...)
	}
	rows, err := t.Query(ctx, sql, args...)
	return &rowsRow{rows: rows, err: err}
}

func (t *keyTx) Conn() *pgx.Conn { return t.conn }

// keySavepoint is a store.Tx under a keyed call: a savepoint of the keyTx, or (name "") a part of
// it with none.
type keySavepoint struct {
	tx     *keyTx
	name   string
	closed bool
}

func (s *keySavepoint) Begin(ctx context.Context) (pgx.Tx, error) {
	if s.closed {
		return nil, pgx.ErrTxClosed
	}
	return s.tx.Begin(ctx)
}

// Commit releases the savepoint, with the next statement sent.
func (s *keySavepoint) Commit(context.Context) error {
	if s.closed {
		return pgx.ErrTxClosed
	}
	s.closed = true
	if s.name != "" {
		s.tx.pending = append(s.tx.pending, "RELEASE SAVEPOINT "+s.name)
	}
	return nil
}

// Rollback rolls back to the savepoint (and releases it), with the next statement sent.
func (s *keySavepoint) Rollback(context.Context) error {
	if s.closed {
		return pgx.ErrTxClosed
	}
	s.closed = true
	if s.name == "" {
		s.tx.failed = true
		return nil
	}
	s.tx.pending = append(s.tx.pending, "ROLLBACK TO SAVEPOINT "+s.name, "RELEASE SAVEPOINT "+s.name)
	return nil
}

func (s *keySavepoint) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	return s.tx.CopyFrom(ctx, table, cols, src)
}
func (s *keySavepoint) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return s.tx.SendBatch(ctx, b)
}
func (s *keySavepoint) LargeObjects() pgx.LargeObjects { return s.tx.LargeObjects() }
func (s *keySavepoint) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return s.tx.Prepare(ctx, name, sql)
}
func (s *keySavepoint) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return s.tx.Exec(ctx, sql, args...)
}
func (s *keySavepoint) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return s.tx.Query(ctx, sql, args...)
}
func (s *keySavepoint) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return s.tx.QueryRow(ctx, sql, args...)
}
func (s *keySavepoint) Conn() *pgx.Conn { return s.tx.conn }

// errRow is a pgx.Row that fails with err.
type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// batchRows are the rows of the last statement of a batch: closing them closes the batch.
type batchRows struct {
	pgx.Rows
	br     pgx.BatchResults
	closed bool
	err    error
}

func (r *batchRows) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.Rows.Close()
	r.err = r.br.Close()
}

func (r *batchRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.err
}

// rowsRow is a pgx.Row on rows, as pgx's own QueryRow: the first row, pgx.ErrNoRows when there is
// none.
type rowsRow struct {
	rows pgx.Rows
	err  error
}

func (r *rowsRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		r.rows.Close()
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}
