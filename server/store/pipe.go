package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/catalogd/catalogd/gen/db"
)

// Pipe is a transaction on one connection that saves round trips: the statements that answer
// nothing a caller waits for — its BEGIN, savepoints, their releases and the rollbacks to them —
// wait to go with the next statement on the connection, in one batch (nothing else runs on the
// connection in between, so the outcome is the same), and its COMMIT goes in one batch with the
// statements queued for it (AtCommit: the events and history of a write). A bulk create of 100
// made four round trips (BEGIN, the insert, the events, COMMIT); on a Pipe it makes two (issue 32,
// bench/README.md "Bulk create"). A transaction that sends nothing costs no round trip at all.
//
// DB.Tx runs its top-level transactions on one (begun with BEGIN pending); the transaction of a
// keyed call (server/app, idempotency.go) is one too, begun with its key's lock and look-up.
type Pipe struct {
	conn *pgx.Conn
	// done gives the connection back when the transaction ends (nil: the caller does).
	done    func()
	pending []string    // statements without arguments not sent yet, in order
	commit  []Statement // AtCommit's statements, sent with COMMIT
	next    int         // the last savepoint's number
	closed  bool
	// Optimistic makes Begin take no savepoint: the nested transaction runs in this one, and its
	// failure (its Rollback) cannot be undone, only reported (Failed): for a caller that then
	// runs everything again with savepoints (a keyed call: most of its writes succeed, and a
	// savepoint and its release are two statements and a subtransaction).
	Optimistic bool
	failed     bool
}

var _ pgx.Tx = (*Pipe)(nil)

// NewPipe is a transaction on conn whose first statements are pending (e.g. BEGIN: sent with the
// next statement); done (optional) runs when it ends, after its COMMIT or ROLLBACK.
func NewPipe(conn *pgx.Conn, done func(), pending ...string) *Pipe {
	return &Pipe{conn: conn, done: done, pending: pending}
}

// Failed reports whether a nested transaction of an Optimistic pipe failed.
func (t *Pipe) Failed() bool { return t.failed }

// Send sends the pending statements, then b's, in one round trip and reads every result; the
// transaction is open when it returns nil.
func (t *Pipe) Send(ctx context.Context, b *pgx.Batch) error {
	br, err := t.withPending(ctx, b.QueuedQueries)
	if err != nil {
		return err
	}
	return br.Close()
}

// atCommit queues statements to be sent with COMMIT.
func (t *Pipe) atCommit(s []Statement) { t.commit = append(t.commit, s...) }

// end closes the transaction and gives its connection back.
func (t *Pipe) end() {
	t.closed, t.pending, t.commit = true, nil, nil
	if t.done != nil {
		t.done()
		t.done = nil
	}
}

// begun reports whether anything was sent: a pipe whose BEGIN is still pending has no
// transaction open on the server.
func (t *Pipe) begun() bool { return len(t.pending) == 0 || !strings.EqualFold(t.pending[0], "BEGIN") }

// recover sends the pending statements at once when they roll back to a savepoint: the transaction
// may be aborted until then, and a batch would first prepare its new statements, which an aborted
// transaction refuses (an error path: one round trip more).
func (t *Pipe) recover(ctx context.Context) error {
	for _, p := range t.pending {
		if strings.HasPrefix(p, "ROLLBACK") {
			return t.flush(ctx)
		}
	}
	return nil
}

// flush sends the pending statements.
func (t *Pipe) flush(ctx context.Context) error {
	if len(t.pending) == 0 {
		return nil
	}
	sql := strings.Join(t.pending, "; ")
	t.pending = nil
	_, err := t.conn.PgConn().Exec(ctx, sql).ReadAll()
	return err
}

// CommitWith sends the pending statements, sql with args, the statements queued by AtCommit and
// COMMIT in one round trip.
func (t *Pipe) CommitWith(ctx context.Context, sql string, args ...any) error {
	t.commit = append(t.commit, Statement{SQL: sql, Args: args})
	return t.Commit(ctx)
}

// Commit sends the pending statements, the statements queued by AtCommit and COMMIT in one round
// trip (none when nothing was ever sent or queued). When one of them fails, the transaction is
// rolled back and the connection given back.
func (t *Pipe) Commit(ctx context.Context) error {
	if t.closed {
		return pgx.ErrTxClosed
	}
	if !t.begun() && len(t.commit) == 0 {
		t.end()
		return nil
	}
	if err := t.recover(ctx); err != nil {
		t.abort(ctx)
		return err
	}
	qs := make([]*pgx.QueuedQuery, 0, len(t.commit)+1)
	for _, s := range t.commit {
		qs = append(qs, &pgx.QueuedQuery{SQL: s.SQL, Arguments: s.Args})
	}
	qs = append(qs, &pgx.QueuedQuery{SQL: "COMMIT"})
	br, err := t.withPending(ctx, qs)
	if err == nil {
		for range len(qs) - 1 {
			if _, err = br.Exec(); err != nil {
				break
			}
		}
	}
	if err == nil {
		var tag pgconn.CommandTag
		if tag, err = br.Exec(); err == nil && tag.String() == "ROLLBACK" {
			err = pgx.ErrTxCommitRollback
		}
	}
	if br != nil {
		if cerr := br.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.abort(ctx) // a statement failed before the COMMIT, which did not run
		return err
	}
	t.end()
	return nil
}

// abort rolls back whatever is open on the connection and ends the transaction.
func (t *Pipe) abort(ctx context.Context) {
	if t.conn.PgConn().TxStatus() != 'I' && !t.conn.IsClosed() {
		if _, err := t.conn.Exec(context.WithoutCancel(ctx), "ROLLBACK"); err != nil {
			_ = t.conn.Close(context.WithoutCancel(ctx)) // a connection in an unknown state is not given back
		}
	}
	t.end()
}

// Rollback rolls the transaction back (no round trip when nothing was sent yet).
func (t *Pipe) Rollback(ctx context.Context) error {
	if t.closed {
		return pgx.ErrTxClosed
	}
	begun := t.begun()
	t.pending = nil
	var err error
	if begun {
		if _, err = t.conn.Exec(ctx, "ROLLBACK"); err != nil {
			_ = t.conn.Close(context.WithoutCancel(ctx)) // a connection in an unknown state is not given back
		}
	}
	t.end()
	return err
}

// Begin starts a nested transaction: a savepoint, sent with the next statement (none when
// Optimistic).
func (t *Pipe) Begin(context.Context) (pgx.Tx, error) {
	if t.closed {
		return nil, pgx.ErrTxClosed
	}
	if t.Optimistic {
		return &savepoint{tx: t}, nil
	}
	t.next++
	sp := &savepoint{tx: t, name: fmt.Sprintf("sp_%d", t.next)}
	t.pending = append(t.pending, "SAVEPOINT "+sp.name)
	return sp, nil
}

func (t *Pipe) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	if err := t.flush(ctx); err != nil {
		return 0, err
	}
	return t.conn.CopyFrom(ctx, table, cols, src)
}

// SendBatch sends the pending statements and b's in one round trip; a failure of a pending one is
// every result's.
func (t *Pipe) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if len(t.pending) == 0 {
		return t.conn.SendBatch(ctx, b)
	}
	br, err := t.withPending(ctx, b.QueuedQueries)
	if err != nil {
		return errBatch{err}
	}
	return br
}

// LargeObjects is not supported: catalogd uses none (the zero value's methods fail).
func (t *Pipe) LargeObjects() pgx.LargeObjects { return pgx.LargeObjects{} }

func (t *Pipe) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	if err := t.flush(ctx); err != nil {
		return nil, err
	}
	return t.conn.Prepare(ctx, name, sql)
}

// withPending sends the pending statements and then qs in one batch; the results of the pending
// ones are read (the first error is returned), qs's are left to the caller, who closes br.
func (t *Pipe) withPending(ctx context.Context, qs []*pgx.QueuedQuery) (pgx.BatchResults, error) {
	if err := t.recover(ctx); err != nil {
		return nil, err
	}
	n := len(t.pending)
	b := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, n+len(qs))}
	for _, p := range t.pending {
		b.Queue(p)
	}
	t.pending = nil
	b.QueuedQueries = append(b.QueuedQueries, qs...)
	br := t.conn.SendBatch(ctx, b)
	for range n {
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return nil, err
		}
	}
	return br, nil
}

func (t *Pipe) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if len(t.pending) == 0 {
		return t.conn.Exec(ctx, sql, args...)
	}
	br, err := t.withPending(ctx, []*pgx.QueuedQuery{{SQL: sql, Arguments: args}})
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return tag, err
}

func (t *Pipe) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if len(t.pending) == 0 {
		return t.conn.Query(ctx, sql, args...)
	}
	br, err := t.withPending(ctx, []*pgx.QueuedQuery{{SQL: sql, Arguments: args}})
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

func (t *Pipe) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if len(t.pending) == 0 {
		return t.conn.QueryRow(ctx, sql, args...)
	}
	rows, err := t.Query(ctx, sql, args...)
	return &rowsRow{rows: rows, err: err}
}

func (t *Pipe) Conn() *pgx.Conn { return t.conn }

// savepoint is a nested transaction of a Pipe: a savepoint, or (name "", an Optimistic pipe) a
// part of the transaction with none.
type savepoint struct {
	tx     *Pipe
	name   string
	closed bool
}

var _ pgx.Tx = (*savepoint)(nil)

func (s *savepoint) Begin(ctx context.Context) (pgx.Tx, error) {
	if s.closed {
		return nil, pgx.ErrTxClosed
	}
	return s.tx.Begin(ctx)
}

// Commit releases the savepoint, with the next statement sent.
func (s *savepoint) Commit(context.Context) error {
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
func (s *savepoint) Rollback(context.Context) error {
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

func (s *savepoint) CopyFrom(ctx context.Context, table pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	return s.tx.CopyFrom(ctx, table, cols, src)
}
func (s *savepoint) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	return s.tx.SendBatch(ctx, b)
}
func (s *savepoint) LargeObjects() pgx.LargeObjects { return s.tx.LargeObjects() }
func (s *savepoint) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	return s.tx.Prepare(ctx, name, sql)
}
func (s *savepoint) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return s.tx.Exec(ctx, sql, args...)
}
func (s *savepoint) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return s.tx.Query(ctx, sql, args...)
}
func (s *savepoint) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return s.tx.QueryRow(ctx, sql, args...)
}
func (s *savepoint) Conn() *pgx.Conn { return s.tx.conn }

// AtCommit queues the statements of r (made as Round's reads are: sqlc calls whose answers are
// not needed, only their errors) to be sent with tx's COMMIT, in the same round trip, when tx is a
// Pipe (DB.Tx's top-level transactions); otherwise (a savepoint, which may yet be rolled back to)
// it runs them on tx now, one after another. A failure of one of them fails the COMMIT, and the transaction rolls
// back as if it had failed here.
func AtCommit(ctx context.Context, tx pgx.Tx, r *Round) error {
	if len(r.reads) == 0 {
		return nil
	}
	p, _ := tx.(*Pipe) // a savepoint's statements run now: it may yet be rolled back to
	if p == nil || p.closed {
		for _, read := range r.reads {
			if err := read(db.New(tx)); err != nil {
				return err
			}
		}
		return nil
	}
	calls, err := r.Statements()
	if err != nil {
		return err
	}
	p.atCommit(calls)
	return nil
}

// errBatch is a batch that fails with err.
type errBatch struct{ err error }

func (b errBatch) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, b.err }
func (b errBatch) Query() (pgx.Rows, error)         { return nil, b.err }
func (b errBatch) QueryRow() pgx.Row                { return errRow{b.err} }
func (b errBatch) Close() error                     { return b.err }
func (b errBatch) Tx() pgx.Tx                       { return nil }

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
