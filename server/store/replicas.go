package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// Read replicas (DATABASE_READ_URL; DESIGN.md "Production topology"). The API's reads (the
// chain marks every GET method's context with Routed) run their statements outside a
// transaction on a streaming standby when one can serve them; everything else (every
// transaction, every statement of a write or a worker, whose contexts are never Routed) runs on
// the primary. The choice is made once per request, at its first statement, and kept for the
// rest of it, so that a request never sees two points in time going backwards.

// Consistency is what a routed read may see.
type Consistency int

const (
	// ReadYourWrites (the default): a replica that has replayed the primary's WAL position as of
	// the request's start (pg_current_wal_flush_lsn(), one trivial round trip on the primary), so that
	// the read sees every write committed before it started, the client's own included. A replica
	// gets ReadOptions.MaxWait to get there; else the primary answers.
	ReadYourWrites Consistency = iota
	// Eventual (Catalog-Consistency: eventual): any replica whose lag is below ReadOptions.MaxLag,
	// without asking the primary anything.
	Eventual
)

// ParseConsistency reads a Catalog-Consistency value: "" is ReadYourWrites, "eventual" Eventual;
// anything else is an error.
func ParseConsistency(s string) (Consistency, error) {
	switch {
	case s == "":
		return ReadYourWrites, nil
	case s == "eventual":
		return Eventual, nil
	}
	return 0, errors.New(`must be "eventual" (or absent: the read sees every write made before it)`)
}

// ReadOptions tune the routing of reads.
type ReadOptions struct {
	// MaxWait bounds how long a read-your-writes read waits for a replica to replay the primary's
	// position before the primary answers it (CATALOG_READ_MAX_WAIT, default 100ms).
	MaxWait time.Duration
	// MaxLag is the lag below which a replica serves an eventual read, and above which it is
	// skipped altogether (CATALOG_READ_MAX_LAG, default 2s).
	MaxLag time.Duration
	// Probe is how often every replica's replay position, lag and pause are read, and a replica
	// marked down is tried again; 0 is 250ms.
	Probe time.Duration
	// Pooler is what the read URLs reach (CATALOG_DATABASE_POOLER applies to them as well).
	Pooler Pooler
	// Log receives the state changes of replicas (down, up again); nil: slog.Default().
	Log *slog.Logger
}

// Default read routing settings.
const (
	DefaultReadMaxWait = 100 * time.Millisecond
	DefaultReadMaxLag  = 2 * time.Second
	defaultReadProbe   = 250 * time.Millisecond
	// replicaConnectTimeout bounds a connection attempt to a replica whose URL sets none: a
	// replica that does not answer costs a request this at most, once, before it is marked down.
	replicaConnectTimeout = 2 * time.Second
)

// Replicas are the read replicas of a DB (UseReplicas), their state, and the figures /metrics
// shows of them (Replicas is a prometheus.Collector).
type Replicas struct {
	primary *pgxpool.Pool
	set     []*replica
	opts    ReadOptions
	next    atomic.Uint32 // round robin among the candidates
	reads   sync.Map      // target name → *atomic.Int64: routed reads served by it
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// replica is one read URL.
type replica struct {
	name string // host:port/database, as /metrics labels it
	pool *pgxpool.Pool
	// replayed is the highest WAL position (pg_lsn as a number) the replica was seen to have
	// replayed: a read-your-writes read whose target is at or below it needs no question.
	replayed atomic.Int64
	mu       sync.Mutex
	down     bool      // a connection or statement failed; the probe tries it again
	paused   bool      // replay paused (pg_wal_replay_pause) while behind, at the last probe
	lag      float64   // seconds behind at the last probe (0: had replayed the primary's position)
	probedAt time.Time // zero: never probed successfully
}

// PrimaryTarget is the target label of reads the primary served.
const PrimaryTarget = "primary"

// OpenReplicas makes a pool for each of urls (connected lazily: a replica that is down costs no
// start-up failure) and starts probing them; d's routed reads then use them (UseReplicas). Close
// stops the probe and closes the pools.
func OpenReplicas(urls []string, primary *DB, opts ReadOptions) (*Replicas, error) {
	if opts.MaxWait <= 0 {
		opts.MaxWait = DefaultReadMaxWait
	}
	if opts.MaxLag <= 0 {
		opts.MaxLag = DefaultReadMaxLag
	}
	if opts.Probe <= 0 {
		opts.Probe = defaultReadProbe
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	rs := &Replicas{primary: primary.Pool, opts: opts, stop: make(chan struct{}), done: make(chan struct{})}
	for i, u := range urls {
		cfg, err := poolConfig(u, Options{Name: "read", Topology: Topology{Pooler: opts.Pooler}})
		if err != nil {
			rs.closePools()
			return nil, fmt.Errorf("DATABASE_READ_URL %d: %w", i+1, err)
		}
		if cfg.ConnConfig.ConnectTimeout == 0 {
			cfg.ConnConfig.ConnectTimeout = replicaConnectTimeout
		}
		pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
		if err != nil {
			rs.closePools()
			return nil, fmt.Errorf("DATABASE_READ_URL %d: %w", i+1, err)
		}
		name := replicaName(cfg.ConnConfig)
		for _, r := range rs.set {
			if r.name == name {
				pool.Close()
				rs.closePools()
				return nil, fmt.Errorf("DATABASE_READ_URL %d: %s is given twice", i+1, name)
			}
		}
		rs.set = append(rs.set, &replica{name: name, pool: pool})
	}
	if len(rs.set) == 0 {
		return nil, errors.New("DATABASE_READ_URL: no URL")
	}
	go rs.probeLoop()
	return rs, nil
}

// replicaName is the host, port and database of a connection configuration (never its password).
func replicaName(c *pgx.ConnConfig) string {
	return fmt.Sprintf("%s:%d/%s", c.Host, c.Port, c.Database)
}

// ParseReadURLs splits DATABASE_READ_URL (one or more URLs, separated by commas) and checks
// each: a postgres:// URL (key=value strings may hold commas, so only URLs are taken here).
func ParseReadURLs(s string) ([]string, error) {
	var out []string
	for i, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		u, err := url.Parse(part)
		if part == "" || err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
			return nil, fmt.Errorf("URL %d is not a postgres:// URL with a host", i+1)
		}
		if _, err := pgxpool.ParseConfig(part); err != nil {
			// pgx quotes the connection string (password masked) before the reason; keep the reason.
			msg := err.Error()
			if i := strings.LastIndex(msg, "`: "); i >= 0 {
				msg = msg[i+3:]
			}
			return nil, fmt.Errorf("URL %d: %s", i+1, msg)
		}
		out = append(out, part)
	}
	return out, nil
}

// UseReplicas makes d's routed reads (contexts from Routed) run on rs.
func (d *DB) UseReplicas(rs *Replicas) { d.replicas = rs }

// Close stops the probe and closes the replicas' pools.
func (rs *Replicas) Close() {
	rs.once.Do(func() {
		close(rs.stop)
		<-rs.done
		rs.closePools()
	})
}

func (rs *Replicas) closePools() {
	for _, r := range rs.set {
		r.pool.Close()
	}
}

type routeKey struct{}

// route is a request's choice of target, made at its first statement.
type route struct {
	consistency Consistency
	once        sync.Once
	mu          sync.Mutex
	rep         *replica // nil: the primary
}

// Routed is ctx of a read that a replica may serve: DB.Q's statements and batches sent on the DB
// (list.Run) outside a transaction run on the replica chosen at the first of them. Transactions
// (DB.Tx, WithTx) stay on the primary.
func Routed(ctx context.Context, c Consistency) context.Context {
	return context.WithValue(ctx, routeKey{}, &route{consistency: c})
}

// target is the replica ctx's statements run on: nil for the primary (no replicas, a context that
// is not Routed, or no replica that can serve it).
func (d *DB) target(ctx context.Context) *replica {
	rs := d.replicas
	r, _ := ctx.Value(routeKey{}).(*route)
	if rs == nil || r == nil {
		return nil
	}
	r.once.Do(func() {
		r.rep = rs.choose(ctx, r.consistency)
		rs.count(r.rep)
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rep
}

// failed handles err of a statement on rep under ctx: true when the statement should run on the
// primary instead (the replica could not serve it: it is marked down, and the rest of the
// request goes to the primary too).
func (d *DB) failed(ctx context.Context, rep *replica, err error) bool {
	if err == nil || ctx.Err() != nil || !IsUnavailable(err) {
		return false
	}
	d.replicas.markDown(rep, err)
	if r, _ := ctx.Value(routeKey{}).(*route); r != nil {
		r.mu.Lock()
		r.rep = nil
		r.mu.Unlock()
	}
	d.replicas.count(nil)
	return true
}

// count records a read served by rep (nil: the primary).
func (rs *Replicas) count(rep *replica) {
	name := PrimaryTarget
	if rep != nil {
		name = rep.name
	}
	v, _ := rs.reads.LoadOrStore(name, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (rs *Replicas) markDown(rep *replica, err error) {
	rep.mu.Lock()
	was := rep.down
	rep.down = true
	rep.mu.Unlock()
	if !was {
		rs.opts.Log.Warn("read replica down: its reads go to the primary until it answers again", "replica", rep.name, "error", err.Error())
	}
}

// candidates are the replicas that may serve a read of consistency c now, starting at the next
// in turn: not down, not lagging beyond MaxLag at the last probe; for an eventual read, probed at
// least once (its lag is known); for a read-your-writes read, not paused behind the primary (it
// would not catch up within MaxWait).
func (rs *Replicas) candidates(now time.Time, c Consistency) []*replica {
	start := int(rs.next.Add(1))
	var out []*replica
	for i := range rs.set {
		r := rs.set[(start+i)%len(rs.set)]
		r.mu.Lock()
		ok := !r.down && r.lagBound(now) < rs.opts.MaxLag.Seconds()
		if c == Eventual {
			ok = ok && !r.probedAt.IsZero()
		} else {
			ok = ok && !r.paused
		}
		r.mu.Unlock()
		if ok {
			out = append(out, r)
		}
	}
	return out
}

// lagBound is how far behind r may be now, in seconds: its lag at the last probe plus the time
// since (the primary may have committed since). Never probed: unknown, taken as 0 until the
// first probe (a read-your-writes read asks it anyway). Call with r.mu held.
func (r *replica) lagBound(now time.Time) float64 {
	if r.probedAt.IsZero() {
		return 0
	}
	return r.lag + now.Sub(r.probedAt).Seconds()
}

// choose picks the replica of a read of consistency c, or nil for the primary.
func (rs *Replicas) choose(ctx context.Context, c Consistency) *replica {
	now := time.Now()
	cands := rs.candidates(now, c)
	if len(cands) == 0 {
		return nil
	}
	if c == Eventual {
		return cands[0]
	}
	var target int64
	if err := rs.primary.QueryRow(ctx, walPosition).Scan(&target); err != nil {
		return nil // the primary answers, and reports its own trouble
	}
	deadline := now.Add(rs.opts.MaxWait)
	for {
		for _, r := range cands {
			if r.replayed.Load() >= target {
				return r
			}
		}
		wait, cancel := context.WithDeadline(ctx, deadline)
		for _, r := range cands {
			lsn, err := rs.replayPosition(wait, r)
			if err == nil && lsn >= target {
				cancel()
				return r
			}
		}
		cancel()
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil
		}
		select {
		case <-time.After(min(2*time.Millisecond, time.Until(deadline))):
		case <-ctx.Done():
			return nil
		}
	}
}

// walPosition is the primary's current WAL position as a number; replayPosition the standby's.
const (
	walPosition    = `SELECT (pg_current_wal_flush_lsn() - '0/0'::pg_lsn)::int8`
	replayPosition = `SELECT pg_is_in_recovery(), coalesce((pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::int8, 0),
		CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END,
		coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8, 0)`
)

// errNotStandby: a read URL reaches a server that is not in recovery (a promoted standby, or a
// primary named by mistake): its WAL positions say nothing about the primary's.
var errNotStandby = errors.New("not a standby (pg_is_in_recovery() is false)")

// replayPosition asks r its replay position (and records it); an error marks it down unless ctx
// ran out (a wait that ended).
func (rs *Replicas) replayPosition(ctx context.Context, r *replica) (int64, error) {
	st, err := r.state(ctx)
	if err != nil {
		if ctx.Err() == nil {
			rs.markDown(r, err)
		}
		return 0, err
	}
	return st.lsn, nil
}

// replicaState is what a replica says of its replay.
type replicaState struct {
	lsn    int64   // replayed WAL position
	paused bool    // replay paused
	since  float64 // seconds since its last replayed transaction committed on the primary
}

// state asks r its replay state and records the position.
func (r *replica) state(ctx context.Context) (replicaState, error) {
	var st replicaState
	var inRecovery bool
	err := r.pool.QueryRow(ctx, replayPosition).Scan(&inRecovery, &st.lsn, &st.paused, &st.since)
	if err == nil && !inRecovery {
		err = errNotStandby
	}
	if err != nil {
		return st, err
	}
	for {
		old := r.replayed.Load()
		if st.lsn <= old || r.replayed.CompareAndSwap(old, st.lsn) {
			return st, nil
		}
	}
}

// probeLoop probes every replica every opts.Probe until Close.
func (rs *Replicas) probeLoop() {
	defer close(rs.done)
	t := time.NewTicker(rs.opts.Probe)
	defer t.Stop()
	for {
		rs.probe()
		select {
		case <-rs.stop:
			return
		case <-t.C:
		}
	}
}

// probe reads the primary's position, then each replica's: a replica that has replayed it has
// lag 0, one behind lags by the time since its last replayed transaction; a replica that answers
// is up again.
func (rs *Replicas) probe() {
	ctx, cancel := context.WithTimeout(context.Background(), max(rs.opts.Probe, time.Second))
	defer cancel()
	var primary int64
	if err := rs.primary.QueryRow(ctx, walPosition).Scan(&primary); err != nil {
		return // no primary position: nothing to compare with
	}
	for _, r := range rs.set {
		st, err := r.state(ctx)
		if err != nil {
			rs.markDown(r, err)
			continue
		}
		behind := st.lsn < primary
		r.mu.Lock()
		if r.down {
			rs.opts.Log.Info("read replica answers again", "replica", r.name)
		}
		r.down, r.paused, r.probedAt = false, st.paused && behind, time.Now()
		r.lag = 0
		if behind {
			r.lag = max(st.since, 0)
		}
		r.mu.Unlock()
	}
}

// Routed statements: DB.Q's (ctxDB) and DB.SendBatch run on the request's target, and again on
// the primary when the replica fails them before any row was read.

func (c ctxDB) routedQuery(ctx context.Context, sql string, args []any) (pgx.Rows, error) {
	if rep := c.d.target(ctx); rep != nil {
		rows, err := rep.pool.Query(ctx, sql, args...)
		if !c.d.failed(ctx, rep, err) {
			return rows, err
		}
	}
	return c.d.Pool.Query(ctx, sql, args...)
}

func (c ctxDB) routedQueryRow(ctx context.Context, sql string, args []any) pgx.Row {
	if rep := c.d.target(ctx); rep != nil {
		return &routedRow{ctx: ctx, d: c.d, rep: rep, sql: sql, args: args}
	}
	return c.d.Pool.QueryRow(ctx, sql, args...)
}

// routedRow is a QueryRow on a replica, run again on the primary when the replica fails it.
type routedRow struct {
	ctx  context.Context
	d    *DB
	rep  *replica
	sql  string
	args []any
}

func (r *routedRow) Scan(dest ...any) error {
	err := r.rep.pool.QueryRow(r.ctx, r.sql, r.args...).Scan(dest...)
	if r.d.failed(r.ctx, r.rep, err) {
		return r.d.Pool.QueryRow(r.ctx, r.sql, r.args...).Scan(dest...)
	}
	return err
}

// SendBatch sends b in ctx's transaction (WithTx), else on the target of a routed read, else on
// the primary: lists run their batch this way (list.Run).
func (d *DB) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if tx, ok := ctx.Value(txKey{}).(pgx.Tx); ok {
		return tx.SendBatch(ctx, b)
	}
	if rep := d.target(ctx); rep != nil {
		return &routedBatch{BatchResults: rep.pool.SendBatch(ctx, b), ctx: ctx, d: d, rep: rep, b: b}
	}
	return d.Pool.SendBatch(ctx, b)
}

// routedBatch is a batch sent to a replica: when its first result fails as the replica's fault,
// the batch is sent again to the primary and read from there.
type routedBatch struct {
	pgx.BatchResults
	ctx   context.Context
	d     *DB
	rep   *replica
	b     *pgx.Batch
	first bool // a result was read
}

// again reports whether err of the first result moved the batch to the primary.
func (r *routedBatch) again(err error) bool {
	first := !r.first
	r.first = true
	if !first || !r.d.failed(r.ctx, r.rep, err) {
		return false
	}
	_ = r.BatchResults.Close()
	r.BatchResults = r.d.Pool.SendBatch(r.ctx, r.b)
	return true
}

func (r *routedBatch) Exec() (pgconn.CommandTag, error) {
	tag, err := r.BatchResults.Exec()
	if r.again(err) {
		return r.BatchResults.Exec()
	}
	return tag, err
}

func (r *routedBatch) Query() (pgx.Rows, error) {
	rows, err := r.BatchResults.Query()
	if r.again(err) {
		return r.BatchResults.Query()
	}
	return rows, err
}

func (r *routedBatch) QueryRow() pgx.Row {
	r.first = true // a row's error shows at Scan: not retried
	return r.BatchResults.QueryRow()
}

// Metrics.

var (
	descReads        = prometheus.NewDesc("catalogd_db_reads_total", "API reads (GET requests) by the server that served them: primary, or a read replica (host:port/database).", []string{"target"}, nil)
	descReplicaLag   = prometheus.NewDesc("catalogd_db_replica_lag_seconds", "How far a read replica was behind the primary at its last probe (0: it had replayed the primary's WAL position).", []string{"replica"}, nil)
	descReplicaUp    = prometheus.NewDesc("catalogd_db_replica_up", "1 when the read replica answered its last probe and serves reads, 0 when it is down or not a standby.", []string{"replica"}, nil)
	descReplicaPause = prometheus.NewDesc("catalogd_db_replica_paused", "1 when the read replica's replay was paused behind the primary at its last probe (it serves no read).", []string{"replica"}, nil)
)

// Describe implements prometheus.Collector.
func (rs *Replicas) Describe(ch chan<- *prometheus.Desc) {
	ch <- descReads
	ch <- descReplicaLag
	ch <- descReplicaUp
	ch <- descReplicaPause
}

// Collect implements prometheus.Collector.
func (rs *Replicas) Collect(ch chan<- prometheus.Metric) {
	for _, name := range append([]string{PrimaryTarget}, rs.names()...) {
		var n int64
		if v, ok := rs.reads.Load(name); ok {
			n = v.(*atomic.Int64).Load()
		}
		ch <- prometheus.MustNewConstMetric(descReads, prometheus.CounterValue, float64(n), name)
	}
	for _, r := range rs.set {
		r.mu.Lock()
		lag, up, paused := r.lag, !r.down && !r.probedAt.IsZero(), r.paused
		r.mu.Unlock()
		ch <- prometheus.MustNewConstMetric(descReplicaLag, prometheus.GaugeValue, lag, r.name)
		ch <- prometheus.MustNewConstMetric(descReplicaUp, prometheus.GaugeValue, b2f(up), r.name)
		ch <- prometheus.MustNewConstMetric(descReplicaPause, prometheus.GaugeValue, b2f(paused), r.name)
	}
}

func (rs *Replicas) names() []string {
	out := make([]string, len(rs.set))
	for i, r := range rs.set {
		out[i] = r.name
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
