// Package retention deletes what the service no longer needs to keep (DESIGN.md "Retention"):
// events, and finished (delivered or failed) webhook deliveries with their attempts, once they are
// older than CATALOG_RETENTION, and history entries older than CATALOG_HISTORY_RETENTION (one year
// by default, apart). Pending deliveries and their attempts are never deleted, whatever
// their age. It also deletes the stored answers of idempotency keys (server/app/idempotency.go)
// once they are older than IdempotencyTTL (24 h), whatever CATALOG_RETENTION says.
//
// Every replica runs a Pruner; a run takes a PostgreSQL advisory lock first (store.DB.TryLock: a
// transaction-scoped one, held by a transaction of its own for the run, so that it works behind a
// transaction pooler and never stays with an idle connection), so one replica prunes at a time and
// the others skip their turn. A run deletes in bounded batches (Batch rows per
// statement, each statement its own short transaction, keyset-ordered on an index so no batch walks
// what an earlier one deleted) and pauses between batches, so it never holds locks for long or takes
// the database from the API.
package retention

import (
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

// Defaults of a Pruner's zero fields.
const (
	// DefaultBatch is how many events, or deliveries (with their attempts), one statement deletes
	// at most.
	DefaultBatch = 1000
	// DefaultPause is the shortest rest after every Batch rows deleted (the rest is as long as the
	// statements took, so a run keeps its database backend busy at most half of the time).
	DefaultPause = 20 * time.Millisecond
	// DefaultLeaseGrace is how long a failed delivery that still holds a dispatcher's lease is kept
	// past its retention: its last attempt may still be in flight (the subscription was deactivated
	// while the dispatcher was sending), and the dispatcher records that attempt when it ends. It
	// exceeds any lease (the dispatcher's default is 60 s, the longest request 30 s).
	DefaultLeaseGrace = 10 * time.Minute
	// DefaultStatementTimeout bounds each statement of a run.
	DefaultStatementTimeout = time.Minute
	// MinInterval and MaxInterval bound the time between runs, Retention/10 by default.
	MinInterval = time.Second
	MaxInterval = 10 * time.Minute
)

// Pruner deletes expired rows, one run every Interval while Run runs.
type Pruner struct {
	DB *store.DB
	// LockDB holds the run's lock (an idle transaction for the whole run); DB when nil. catalogd
	// gives it the small "ops" pool, so that the lock never takes one of the API pool's
	// connections while the run's batches wait for another when API load fills that pool.
	LockDB *store.DB
	// Retention is how long events and finished deliveries are kept; 0 keeps them (then
	// IdempotencyTTL or HistoryRetention must be positive).
	Retention time.Duration
	// HistoryRetention is how long history entries are kept (CATALOG_HISTORY_RETENTION), apart from
	// Retention; 0 keeps them.
	HistoryRetention time.Duration
	// IdempotencyTTL is how long idempotency keys are kept; 0 keeps them. The API ignores keys
	// older than its own TTL whether or not they are deleted yet.
	IdempotencyTTL time.Duration
	// Interval between runs; 0 is Retention/10 within [MinInterval, MaxInterval].
	Interval time.Duration
	// Batch is the limit of rows per statement; 0 is DefaultBatch.
	Batch int
	// Pause is the shortest rest after every Batch rows deleted; the rest lasts as long as the
	// statements since the last rest took, when that is longer. 0 is DefaultPause, negative no rest.
	Pause time.Duration
	// LeaseGrace: see DefaultLeaseGrace; 0 is that.
	LeaseGrace time.Duration
	// StatementTimeout bounds each statement; 0 is DefaultStatementTimeout.
	StatementTimeout time.Duration
	Log              *slog.Logger
	// Metrics, when not nil, counts what runs delete.
	Metrics *Metrics
	// Now is the clock (tests); nil is store.Now.
	Now func() time.Time
}

// LockKey names the advisory lock of a run (store.DB.TryLock).
const LockKey = "catalogd:retention"

// Result is what one run did.
type Result struct {
	// Skipped: another replica holds the lock, nothing was done.
	Skipped bool
	// Events, Deliveries, Attempts, IdempotencyKeys and History entries deleted; Jobs are
	// finished imports and exports (with their failed lines; their files are queued for the blob
	// collector).
	Events, Deliveries, Attempts, IdempotencyKeys, Jobs, History int64
	// Statements is the number of delete statements the run sent (each one batch).
	Statements int
}

// interval is the time between runs that Run uses.
func (p *Pruner) interval() time.Duration {
	if p.Interval > 0 {
		return p.Interval
	}
	var base time.Duration
	for _, d := range []time.Duration{p.Retention, p.IdempotencyTTL, p.HistoryRetention} {
		if d > 0 && (base == 0 || d < base) {
			base = d
		}
	}
	return min(max(base/10, MinInterval), MaxInterval)
}

// Run prunes every interval until ctx is done. The first run starts at once (a replica that was
// down catches up); later runs are spread by ±10 % so replicas do not ask for the lock in step.
func (p *Pruner) Run(ctx context.Context) {
	if p.Retention <= 0 && p.IdempotencyTTL <= 0 && p.HistoryRetention <= 0 {
		return
	}
	for {
		start := time.Now()
		res, err := p.RunOnce(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			p.logger().Error("retention run", "error", err.Error(), "events", res.Events, "deliveries", res.Deliveries,
				"attempts", res.Attempts, "statements", res.Statements)
		case res.Skipped:
			p.logger().Debug("retention run skipped: another replica is pruning")
		default:
			p.logger().Info("retention run", "events", res.Events, "deliveries", res.Deliveries, "attempts", res.Attempts, "history", res.History,
				"idempotency_keys", res.IdempotencyKeys, "statements", res.Statements, "retention", p.Retention.String(), "duration_ms", time.Since(start).Milliseconds())
		}
		d := p.interval()
		d = time.Duration(float64(d) * (0.9 + 0.2*rand.Float64()))
		select {
		case <-ctx.Done():
			return
		case <-time.After(d):
		}
	}
}

// RunOnce makes one run: when no other replica holds the lock, it deletes every expired row, batch
// by batch, and returns the counts; otherwise it returns Skipped. It stops early, with ctx's error,
// when ctx ends; what it deleted until then stays deleted (each batch commits on its own).
func (p *Pruner) RunOnce(ctx context.Context) (res Result, err error) {
	if p.Retention <= 0 && p.IdempotencyTTL <= 0 && p.HistoryRetention <= 0 {
		return res, errors.New("retention: Retention, IdempotencyTTL or HistoryRetention must be positive")
	}
	ctx, span := tracing.Background(ctx, "retention.run", "")
	defer func() {
		span.SetAttributes(attribute.Int64("catalogd.pruned.events", res.Events), attribute.Int64("catalogd.pruned.deliveries", res.Deliveries))
		tracing.End(span, err)
	}()
	lockDB := p.LockDB
	if lockDB == nil {
		lockDB = p.DB
	}
	release, locked, err := lockDB.TryLock(ctx, LockKey)
	defer func() {
		if locked {
			release()
		}
		p.Metrics.run(res, err)
	}()
	if err != nil || !locked {
		res.Skipped = err == nil
		return res, err
	}
	now := store.Now()
	if p.Now != nil {
		now = p.Now()
	}
	r := run{p: p, q: p.DB.Q, pool: p.DB.Pool, res: &res, cutoff: now.Add(-p.Retention), batch: p.Batch}
	if r.batch <= 0 {
		r.batch = DefaultBatch
	}
	r.historyCutoff = now.Add(-p.HistoryRetention)
	r.leaseCutoff = r.cutoff.Add(-p.LeaseGrace)
	if p.LeaseGrace <= 0 {
		r.leaseCutoff = r.cutoff.Add(-DefaultLeaseGrace)
	}
	if p.IdempotencyTTL > 0 {
		if err := r.idempotencyKeys(ctx, now.Add(-p.IdempotencyTTL)); err != nil {
			return res, err
		}
	}
	if p.HistoryRetention > 0 {
		if err := r.history(ctx); err != nil {
			return res, err
		}
	}
	if p.Retention <= 0 {
		return res, nil
	}
	if err := r.deliveries(ctx); err != nil {
		return res, err
	}
	if err := r.jobs(ctx); err != nil {
		return res, err
	}
	return res, r.events(ctx)
}

// pruneIdempotencyKeys deletes up to $2 idempotency keys created before $1, oldest first. The
// delete checks the age again: a key a request has just taken over (its answer replaced, with a new
// created_at) is kept.
const pruneIdempotencyKeys = `WITH old AS (
    SELECT tenant_id, key FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2
)
DELETE FROM idempotency_keys k USING old
WHERE k.tenant_id = old.tenant_id AND k.key = old.key AND k.created_at < $1`

// idempotencyKeys deletes the idempotency keys created before cutoff, in batches.
func (r *run) idempotencyKeys(ctx context.Context, cutoff time.Time) error {
	for {
		var n int64
		if err := r.statement(ctx, func(ctx context.Context) error {
			tag, err := r.pool.Exec(ctx, pruneIdempotencyKeys, cutoff, r.batch)
			n = tag.RowsAffected()
			return err
		}); err != nil {
			return err
		}
		r.res.IdempotencyKeys += n
		r.p.Metrics.add(kindIdempotencyKeys, n)
		if n < int64(r.batch) {
			return nil
		}
		if err := r.rest(ctx, n); err != nil {
			return err
		}
	}
}

// run is the state of one RunOnce.
type run struct {
	p                   *Pruner
	q                   *db.Queries
	pool                *pgxpool.Pool // statements sqlc does not generate, each its own transaction
	res                 *Result
	cutoff, leaseCutoff time.Time
	historyCutoff       time.Time
	batch               int
	// sincePause counts rows deleted since the last pause, busy the time spent in statements.
	sincePause int64
	busy       time.Duration
}

// deliveries deletes finished deliveries that last changed before the cutoff, with their attempts,
// oldest first.
func (r *run) deliveries(ctx context.Context) error {
	arg := db.PruneDeliveriesParams{Cutoff: r.cutoff, LeaseCutoff: r.leaseCutoff, Max: int32(r.batch),
		AfterAt: time.Unix(0, 0).UTC()}
	for {
		var row db.PruneDeliveriesRow
		err := r.statement(ctx, func(ctx context.Context) (err error) {
			row, err = r.q.PruneDeliveries(ctx, arg)
			return err
		})
		if err != nil {
			return err
		}
		r.res.Deliveries += row.Deliveries
		r.res.Attempts += row.Attempts
		r.p.Metrics.add(kindDeliveries, row.Deliveries)
		r.p.Metrics.add(kindAttempts, row.Attempts)
		if row.Seen < int64(r.batch) {
			return nil
		}
		arg.AfterAt, arg.AfterTenant, arg.AfterUuid = row.LastAt, row.LastTenant, row.LastUuid
		if err := r.rest(ctx, row.Deliveries); err != nil {
			return err
		}
	}
}

// jobs deletes the imports and exports that finished before the cutoff, oldest first.
func (r *run) jobs(ctx context.Context) error {
	for _, prune := range []func(context.Context) (int64, error){
		func(ctx context.Context) (int64, error) {
			return r.q.PruneImports(ctx, db.PruneImportsParams{Cutoff: r.cutoff, Max: int32(r.batch)})
		},
		func(ctx context.Context) (int64, error) {
			return r.q.PruneExports(ctx, db.PruneExportsParams{Cutoff: r.cutoff, Max: int32(r.batch)})
		},
	} {
		for {
			var n int64
			if err := r.statement(ctx, func(ctx context.Context) (err error) { n, err = prune(ctx); return err }); err != nil {
				return err
			}
			r.res.Jobs += n
			r.p.Metrics.add(kindJobs, n)
			if n < int64(r.batch) {
				break
			}
			if err := r.rest(ctx, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// events deletes events created before the cutoff, tenant by tenant, each tenant's in uuid order.
func (r *run) events(ctx context.Context) error {
	return r.byTenant(ctx, r.cutoff, kindEvents, &r.res.Events, r.q.RetentionNextEventTenant,
		func(ctx context.Context, tenant string, bound uuid.UUID, after pruned, cutoff time.Time) (pruned, error) {
			row, err := r.q.PruneEvents(ctx, db.PruneEventsParams{TenantID: tenant, Bound: bound, Cutoff: cutoff, Max: int32(r.batch), AfterUuid: after.LastUuid})
			return pruned{Seen: row.Seen, Deleted: row.Deleted, LastUuid: row.LastUuid}, err
		})
}

// history deletes history entries created before the history cutoff, like events, in the order
// of its primary key (tenant_id, created_at, uuid).
func (r *run) history(ctx context.Context) error {
	return r.byTenant(ctx, r.historyCutoff, kindHistory, &r.res.History, r.q.RetentionNextHistoryTenant,
		func(ctx context.Context, tenant string, _ uuid.UUID, after pruned, cutoff time.Time) (pruned, error) {
			row, err := r.q.PruneHistory(ctx, db.PruneHistoryParams{TenantID: tenant, Cutoff: cutoff, Max: int32(r.batch),
				AfterAt: after.LastAt, AfterUuid: after.LastUuid})
			return pruned(row), err
		})
}

// pruned is what one batch of a keyset prune did: rows seen, rows deleted, the position of the
// last row seen (its uuid, and its created_at for a table keyed by time: history).
type pruned struct {
	Seen, Deleted int64
	LastAt        time.Time
	LastUuid      uuid.UUID
}

// byTenant deletes the rows of a table keyed (tenant_id, uuid v7) or (tenant_id, created_at, uuid)
// created before cutoff, tenant by tenant (next: the tenant after a given one, pgx.ErrNoRows after
// the last), each tenant's in key order, in batches (prune: each from the position of the last row
// the one before saw), counting them in *count and the metric kind.
func (r *run) byTenant(ctx context.Context, cutoff time.Time, kind string, count *int64,
	next func(context.Context, string) (string, error),
	prune func(ctx context.Context, tenant string, bound uuid.UUID, after pruned, cutoff time.Time) (pruned, error)) error {
	bound := MinV7(cutoff)
	tenant := ""
	for {
		var err error
		if err = r.within(ctx, func(ctx context.Context) error {
			tenant, err = next(ctx, tenant)
			return err
		}); errors.Is(err, pgx.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		var after pruned // before the first row: the zero uuid (and time)
		for {
			var row pruned
			if err := r.statement(ctx, func(ctx context.Context) (err error) {
				row, err = prune(ctx, tenant, bound, after, cutoff)
				return err
			}); err != nil {
				return err
			}
			*count += row.Deleted
			r.p.Metrics.add(kind, row.Deleted)
			if err := r.rest(ctx, row.Deleted); err != nil {
				return err
			}
			if row.Seen < int64(r.batch) {
				break
			}
			after = row
		}
	}
}

// statement runs one delete statement within the statement timeout and counts it.
func (r *run) statement(ctx context.Context, f func(context.Context) error) error {
	r.res.Statements++
	return r.within(ctx, f)
}

func (r *run) within(ctx context.Context, f func(context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	timeout := r.p.StatementTimeout
	if timeout <= 0 {
		timeout = DefaultStatementTimeout
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	defer func() { r.busy += time.Since(start) }()
	return f(sctx)
}

// rest pauses once every batch's worth of deleted rows, as long as the statements since the last
// pause took (at least Pause): a long run keeps its backend busy at most half of the time and leaves
// the database to the API between its batches, yet deletes faster than any write load it can follow
// adds. Rows spread over many tenants pause as often as rows of one.
func (r *run) rest(ctx context.Context, deleted int64) error {
	r.sincePause += deleted
	if r.sincePause < int64(r.batch) {
		return nil
	}
	r.sincePause = 0
	pause := r.p.Pause
	if pause == 0 {
		pause = DefaultPause
	}
	if pause < 0 {
		return ctx.Err()
	}
	pause, r.busy = max(pause, r.busy), 0
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(pause):
		return nil
	}
}

// MinV7 is the smallest version 7 uuid of t's millisecond: every v7 uuid made before that
// millisecond sorts below it (PostgreSQL compares uuids bytewise, and a v7 starts with its
// big-endian Unix millisecond).
func MinV7(t time.Time) uuid.UUID {
	var u uuid.UUID
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(t.UnixMilli()))
	copy(u[:6], ms[2:])
	u[6] = 0x70 // version 7, the rest zero
	return u
}

func (p *Pruner) logger() *slog.Logger {
	if p.Log != nil {
		return p.Log
	}
	return slog.New(slog.DiscardHandler)
}

// Metric kinds.
const (
	kindEvents     = "events"
	kindDeliveries = "deliveries"
	kindAttempts   = "attempts"
	// kindIdempotencyKeys are idempotency keys older than 24 h (server/app/idempotency.go).
	kindIdempotencyKeys = "idempotency_keys"
	// kindJobs are finished imports and exports.
	kindJobs = "jobs"
	// kindHistory are history entries (CATALOG_HISTORY_RETENTION).
	kindHistory = "history"
)

// Metrics are the pruner's Prometheus counters.
type Metrics struct {
	deleted *prometheus.CounterVec
	runs    *prometheus.CounterVec
}

// NewMetrics registers catalogd_retention_deleted_total{kind} (kind: events, deliveries,
// attempts) and catalogd_retention_runs_total{outcome} (outcome: done, skipped, error) on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		deleted: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_retention_deleted_total",
			Help: "Rows deleted by retention (CATALOG_RETENTION; idempotency keys after 24 h), by kind: events, deliveries, attempts, idempotency_keys, jobs (finished imports and exports), history (after CATALOG_HISTORY_RETENTION)."}, []string{"kind"}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_retention_runs_total",
			Help: "Retention runs of this process, by outcome: done, skipped (another replica was pruning), error."}, []string{"outcome"}),
	}
	reg.MustRegister(m.deleted, m.runs)
	for _, k := range []string{kindEvents, kindDeliveries, kindAttempts, kindIdempotencyKeys, kindJobs, kindHistory} {
		m.deleted.WithLabelValues(k)
	}
	for _, o := range []string{"done", "skipped", "error"} {
		m.runs.WithLabelValues(o)
	}
	return m
}

func (m *Metrics) add(kind string, n int64) {
	if m != nil && n > 0 {
		m.deleted.WithLabelValues(kind).Add(float64(n))
	}
}

func (m *Metrics) run(res Result, err error) {
	if m == nil {
		return
	}
	switch {
	case err != nil:
		m.runs.WithLabelValues("error").Inc()
	case res.Skipped:
		m.runs.WithLabelValues("skipped").Inc()
	default:
		m.runs.WithLabelValues("done").Inc()
	}
}
