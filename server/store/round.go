package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/catalogd/catalogd/gen/db"
)

// A Round is a set of independent reads sent to PostgreSQL in one round trip (a pgx batch): a
// hydrated GET asks for the product and each of its associations at once, instead of one query
// after another (issue 32). Sent on its own, a round is also one implicit transaction, so writes
// that must commit together and need no answer in between may go in one too (the webhook
// dispatcher records its successes and claims again in one round). Each read is a function that
// makes exactly one sqlc query on the *db.Queries it is given and keeps the result in the caller's
// variables:
//
//	var r store.Round
//	r.Add(func(q *db.Queries) (err error) { cats, err = q.ListProductLinksOfProducts(ctx, …); return })
//	r.Add(func(q *db.Queries) (err error) { vals, err = q.ListEffectiveInputValuesOfProducts(ctx, …); return })
//	err := d.Send(ctx, &r)
//
// Send calls each read twice: first on a recorder that notes its statement and arguments and
// answers with an error (so the generated code returns at once, having scanned nothing), then,
// once the batch has been answered, on the batch's results in the same order. So the reads reuse
// the generated statements and scanning unchanged, and a read must be deterministic: the same
// statement and arguments both times, nothing else done with the recorder's error.
type Round struct {
	reads []func(*db.Queries) error
	// AsPlanned sends the round without GenericPlans: PostgreSQL chooses between generic and
	// custom plans as it does for any statement (plan_cache_mode auto). For statements whose
	// generic plan may be made while their tables are nearly empty (a queue in a fresh database:
	// the webhook dispatcher's), where a forced generic plan from the first run kept a plan that
	// read a tenant's every delivery per lookup.
	AsPlanned bool
}

// Add queues read (one sqlc query; see Round).
func (r *Round) Add(read func(q *db.Queries) error) { r.reads = append(r.reads, read) }

// Len is the number of reads queued.
func (r *Round) Len() int { return len(r.reads) }

// Send runs the round's reads on the pool in one round trip and returns the first read's error
// (sql.ErrNoRows of a :one query included, as the query itself would), after which the remaining
// results are discarded. An empty round sends nothing. It goes where DB.SendBatch sends it: under a
// context of WithTx in that transaction, as DB.Q's statements; for a routed read on a read replica
// (replicas.go). Otherwise the batch runs in one implicit transaction, each statement with its own
// snapshot (READ COMMITTED), as separate queries would, and runs again as DB.Tx's transactions do
// when PostgreSQL aborts it as a deadlock victim or a serialization failure (a round of writes).
func (d *DB) Send(ctx context.Context, r *Round) error {
	if len(r.reads) == 0 {
		return nil
	}
	calls, err := r.Statements()
	if err != nil {
		return err
	}
	if _, inTx := ctx.Value(txKey{}).(pgx.Tx); inTx {
		return d.send(ctx, r, calls, false)
	}
	return retried(func() error { return d.send(ctx, r, calls, !r.AsPlanned) })
}

// send sends the round's statements calls in one batch (after GenericPlans when generic) and
// replays its reads on the results.
func (d *DB) send(ctx context.Context, r *Round, calls []Statement, generic bool) error {
	b := &pgx.Batch{}
	if generic {
		b.Queue(GenericPlans)
	}
	for _, c := range calls {
		b.Queue(c.SQL, c.Args...)
	}
	br := d.SendBatch(ctx, b) // under WithTx in that transaction; a routed read on a replica
	if generic {
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return err
		}
	}
	rep := &replayer{br: br, want: calls}
	for _, read := range r.reads {
		if err := read(db.New(rep)); err != nil {
			_ = br.Close()
			return err
		}
	}
	return br.Close()
}

// GenericPlans, queued first in a round sent on its own (not under WithTx), makes PostgreSQL run
// the round's statements on the one generic plan it keeps for each prepared statement. Left to
// itself, it planned the hydration's reads afresh on every run: their custom plans (for the
// values) cost less than the generic one by its estimate, which counts next to nothing for
// planning, while planning the effective-values and featured-asset views took 0.2 to 2 ms a
// statement, two thirds of PostgreSQL's time per hydrated GET (pg_stat_statements with
// track_planning; bench/README.md "Hydrated GET"). The reads of a round are all "tenant and an
// array of uuids" lookups through an index, whose generic plan is the custom plan without the
// values (checked with EXPLAIN of each under both modes). The list pages do the opposite
// (list.CustomPlans): their plan depends on the filter values. set_config(..., true) lasts until
// the end of the batch's implicit transaction (its Sync), so it touches nothing after the round;
// under WithTx the round runs in the caller's transaction, whose later statements it must not
// change, and is sent without it.
const GenericPlans = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true)"

// Statement is one statement of a round as Send sends it.
type Statement struct {
	SQL  string
	Args []any
}

// Statements returns the statements Send would send for the round, in order, without sending
// them (the first pass of Send; the bench writes them as pgbench's reference script).
func (r *Round) Statements() ([]Statement, error) {
	rec := &recorder{}
	for i, read := range r.reads {
		err := read(db.New(rec))
		if !errors.Is(err, errRecorded) || len(rec.calls) != i+1 {
			return nil, fmt.Errorf("store: read %d of a round must make exactly one query (made %d, returned %v)", i, len(rec.calls)-i, err)
		}
	}
	return rec.calls, nil
}

// errRecorded is the recorder's answer to every statement.
var errRecorded = errors.New("store: statement recorded for a round")

// recorder is the DBTX of a round's first pass: it notes each statement and fails it.
type recorder struct{ calls []Statement }

func (r *recorder) note(sql string, args []any) {
	r.calls = append(r.calls, Statement{SQL: sql, Args: args})
}

func (r *recorder) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.note(sql, args)
	return pgconn.CommandTag{}, errRecorded
}

func (r *recorder) Query(_ context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.note(sql, args)
	return nil, errRecorded
}

func (r *recorder) QueryRow(_ context.Context, sql string, args ...any) pgx.Row {
	r.note(sql, args)
	return failedRow{errRecorded}
}

type failedRow struct{ err error }

func (f failedRow) Scan(...any) error { return f.err }

// replayer is the DBTX of a round's second pass: each statement gets the next result of the batch,
// which must be the one the first pass recorded.
type replayer struct {
	br   pgx.BatchResults
	want []Statement
	next int
}

func (r *replayer) check(sql string) error {
	if r.next >= len(r.want) || r.want[r.next].SQL != sql {
		return errors.New("store: a read of a round made another statement the second time")
	}
	r.next++
	return nil
}

func (r *replayer) Exec(_ context.Context, sql string, _ ...any) (pgconn.CommandTag, error) {
	if err := r.check(sql); err != nil {
		return pgconn.CommandTag{}, err
	}
	return r.br.Exec()
}

func (r *replayer) Query(_ context.Context, sql string, _ ...any) (pgx.Rows, error) {
	if err := r.check(sql); err != nil {
		return nil, err
	}
	return r.br.Query()
}

func (r *replayer) QueryRow(_ context.Context, sql string, _ ...any) pgx.Row {
	if err := r.check(sql); err != nil {
		return failedRow{err}
	}
	return r.br.QueryRow()
}
