package transfer

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

// Worker runs import and export jobs until Run's context ends. Every replica runs one: jobs are
// claimed with a lease (ClaimImport, ClaimExport), renewed by every committed line (imports) or
// progress report (exports); a worker that dies leaves its job to be taken over when the lease
// ends. An import goes on after its last committed line: each line commits with the progress that
// passes it (CheckpointImport), so no line is applied twice and none is skipped. An export taken
// over is written again from the start (its file is only stored once complete).
type Worker struct {
	*Jobs
	Log *slog.Logger
	// Imports and Exports are how many of each this worker runs at once (DefaultWorkers when 0).
	Imports, Exports int
	// Lease: DefaultLease when 0. Interval is the idle poll (DefaultInterval when 0).
	Lease, Interval time.Duration

	once sync.Once
	csv  *Importer
}

// linesTogether counts the lines import jobs applied together (wide.go).
var linesTogether atomic.Int64

// LinesTogether is how many lines import jobs of this process applied together with others
// (wide.go) so far.
func LinesTogether() int64 { return linesTogether.Load() }

// Defaults of Worker.
const (
	DefaultWorkers  = 1
	DefaultLease    = 30 * time.Second
	DefaultInterval = time.Second
	// progressEvery is how often an export reports its count (and renews its lease).
	progressEvery = time.Second
	// deferredBatch is how many deferred lines a pass reads at once.
	deferredBatch = 100
)

// errLost: the job was cancelled or taken over by another worker; the line rolls back.
var errLost = errors.New("the job was cancelled or taken over")

func (w *Worker) defaults() {
	if w.Imports <= 0 {
		w.Imports = DefaultWorkers
	}
	if w.Exports <= 0 {
		w.Exports = DefaultWorkers
	}
	if w.Lease <= 0 {
		w.Lease = DefaultLease
	}
	if w.Interval <= 0 {
		w.Interval = DefaultInterval
	}
	if w.Log == nil {
		w.Log = slog.New(slog.DiscardHandler)
	}
}

// Run works until ctx ends. A job cut by ctx gives its lease back (another worker or replica
// takes it over at once) after its current line.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	var wg sync.WaitGroup
	for range w.Imports {
		wg.Go(func() { w.loop(ctx, w.nextImport, w.importQueued.wait()) })
	}
	for range w.Exports {
		wg.Go(func() { w.loop(ctx, w.nextExport, w.exportQueued.wait()) })
	}
	wg.Go(func() {
		for sleep(ctx, w.Interval*10, nil) {
			if _, err := w.DB.Q.ExpireImportUploads(ctx, store.Now()); err != nil && ctx.Err() == nil {
				w.Log.Error("import upload expiry", "error", err.Error())
			}
		}
	})
	wg.Wait()
}

// loop runs next until ctx ends, waiting an interval whenever there was nothing to do, or less
// when this process's API queues a job of its kind (wake).
func (w *Worker) loop(ctx context.Context, next func(ctx context.Context) (bool, error), wake <-chan struct{}) {
	for ctx.Err() == nil {
		did, err := next(ctx)
		if err != nil && ctx.Err() == nil {
			w.Log.Error("transfer job", "error", err.Error())
		}
		if !did && !sleep(ctx, w.Interval, wake) {
			return
		}
	}
}

// sleep waits d, or until wake is signalled (a nil wake never is); false when ctx ended first.
func sleep(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	case <-wake:
		return true
	}
}

func (w *Worker) leaseSeconds() float64 { return w.Lease.Seconds() }

// merging is the importer of CSV rows (Importer.Merging), made once.
func (w *Worker) merging() *Importer {
	w.once.Do(func() { w.csv = w.Importer.Merging() })
	return w.csv
}

// nextImport claims and runs one import; false when none was waiting.
func (w *Worker) nextImport(ctx context.Context) (bool, error) {
	lease := uuid.New()
	imp, err := w.DB.Q.ClaimImport(ctx, db.ClaimImportParams{LeaseID: &lease, LeaseSeconds: w.leaseSeconds(), Now: store.Now()})
	if store.IsNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	run := &importRun{w: w, imp: imp, lease: lease}
	ctx, span := tracing.Background(ctx, "import.run", "", attribute.String("catalogd.tenant", imp.TenantID),
		attribute.String("catalogd.import", imp.Uuid.String()))
	err = run.run(ctx)
	tracing.End(span, err)
	switch {
	case errors.Is(err, errLost):
		return true, nil
	case ctx.Err() != nil:
		// Shutdown: the lease goes back so that another replica goes on at once.
		_, _ = w.DB.Q.ReleaseImport(context.WithoutCancel(ctx), db.ReleaseImportParams{TenantID: imp.TenantID, Uuid: imp.Uuid, LeaseID: &lease})
		return true, nil
	case err != nil:
		return true, err // the lease ends and a worker takes the import over
	}
	return true, nil
}

// importRun is one worker's run of one import.
type importRun struct {
	w     *Worker
	imp   db.Import
	lease uuid.UUID
	// im applies the lines: the importer, or its merging form for CSV rows.
	im *Importer
	// defined are the codes the lines of a dry run would have created (dry runs write nothing, so
	// a later line's reference to one is taken as resolved).
	defined map[RefKey]bool
	// added are the codes of defined in the order the lines added them (a batch rolled back
	// takes its own out again).
	added []RefKey
	// ctx is the run's context, with its memory of codes (WithCodes).
	ctx context.Context
	// created counts the lines this run created; the tables are analyzed again once it reaches
	// nextAnalyze (analyze).
	created, nextAnalyze int64
}

// firstAnalyze is how many lines an import creates before the tables it grows are analyzed the
// first time; then again each time the count doubles.
const firstAnalyze = 500

// analyze runs ANALYZE on the tables an import grows (Jobs.Analyze) once the run has created
// nextAnalyze lines, then doubles the mark. PostgreSQL plans each statement with the statistics
// of the tenant's rows as last sampled: a tenant the statistics do not know yet (an onboarding
// import into a database that holds other tenants, or any import into new tables) is estimated at
// a few rows, and the batch's reads by key of its products (the search documents, their children)
// were planned as scans of the tenant's rows filtered, whose cost grows with every batch. Measured
// on a database of 11 tenants, the search documents of 64 products of a new tenant of 20 000:
// 868 ms before ANALYZE, 9 ms after (docs/design.md "Import and export jobs"). Autovacuum analyzes
// a table only after a tenth of it changed, which a tenant small beside the others never reaches.
// The cost: about a second per ANALYZE of the product tables, a dozen times over a million lines.
// A failure is logged, never the import's.
func (r *importRun) analyze(ctx context.Context) {
	if len(r.w.Analyze) == 0 || r.imp.DryRun || r.created < r.nextAnalyze { // a dry run writes nothing
		return
	}
	r.nextAnalyze = 2 * r.created
	tables := make([]string, len(r.w.Analyze))
	for i, t := range r.w.Analyze {
		tables[i] = pgx.Identifier{t}.Sanitize()
	}
	start := time.Now()
	if _, err := r.w.DB.Pool.Exec(ctx, "ANALYZE "+strings.Join(tables, ", ")); err != nil {
		r.w.Log.Warn("import: analyze failed", "import", r.imp.Uuid.String(), "error", err.Error())
		return
	}
	r.w.Log.Debug("import: tables analyzed", "import", r.imp.Uuid.String(), "created", r.created, "ms", time.Since(start).Milliseconds())
}

// run reads the import's file from where its last committed line ended, applies each line, then
// the deferred lines pass after pass, and finishes the import.
func (r *importRun) run(ctx context.Context) error {
	imp := r.imp
	ctx = reqctx.WithPrincipal(ctx, importPrincipal(imp))
	ctx = WithCodes(ctx)
	r.ctx = ctx
	r.nextAnalyze = firstAnalyze
	if imp.DryRun {
		// A dry run taken over starts again: the codes its lines would have defined are not kept.
		r.defined = map[RefKey]bool{}
		if imp.BytesRead > 0 || imp.LinesRead > 0 {
			if err := r.restartDry(ctx); err != nil {
				return err
			}
		}
	}
	open := func(ctx context.Context, offset int64) (io.ReadCloser, error) {
		return r.w.Files.NewRangeReader(ctx, imp.StorageKey, offset)
	}
	start := Position{Offset: imp.BytesRead, Line: imp.LinesRead}
	var src Source
	r.im = r.w.Importer
	switch imp.Format {
	case "ndjson":
		rc, err := open(ctx, start.Offset)
		if err != nil {
			return r.unreadable(ctx, err)
		}
		defer rc.Close()
		src = NDJSON(rc, start)
	default:
		// Each column of a row touches its own attribute, value or channel only (Merging).
		r.im = r.w.merging()
		cs, err := CSV(ctx, open, start, InputDataTypes(r.w.DB))
		if err != nil {
			var fe *FileError
			if errors.As(err, &fe) {
				return r.fail(ctx, fe.Reason)
			}
			return r.unreadable(ctx, err)
		}
		defer cs.Close()
		src = cs
	}
	for {
		done, err := r.batch(ctx, src)
		r.analyze(ctx)
		var re readError
		switch {
		case errors.As(err, &re):
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return r.fail(ctx, re.err.Error())
		case err != nil:
			return err
		}
		if done {
			break
		}
	}
	if err := r.passes(ctx); err != nil {
		return err
	}
	return r.finish(ctx, "completed", nil)
}

// restartDry zeroes a dry run's progress and drops its recorded lines.
func (r *importRun) restartDry(ctx context.Context) error {
	if _, err := r.w.DB.Q.RestartImport(ctx, db.RestartImportParams{TenantID: r.imp.TenantID, Uuid: r.imp.Uuid, LeaseID: &r.lease}); err != nil {
		return err
	}
	r.imp.BytesRead, r.imp.LinesRead = 0, 0
	return nil
}

// apply applies (or, in a dry run, checks) one line in the transaction of ctx.
func (r *importRun) apply(ctx context.Context, raw []byte) (Result, error) {
	im := r.im
	if !r.imp.DryRun {
		return im.Apply(ctx, raw)
	}
	res, err := im.Check(ctx, raw)
	if err != nil {
		return res, err
	}
	if res.Unresolved != nil && r.defined[*res.Unresolved] {
		// Refers to what an earlier line of this dry run would have created: checked as far as
		// the dry run can without writing it.
		res.Errors, res.Unresolved = nil, nil
		res.Outcome = Updated
		if _, exists, err := im.exists(ctx, raw); err == nil && !exists {
			res.Outcome = Created
		}
	}
	if res.Outcome != Failed {
		for _, k := range im.Defines(raw) {
			if !r.defined[k] {
				r.defined[k] = true
				r.added = append(r.added, k)
			}
		}
	}
	return res, nil
}

// line applies one line of the file (deferred: from the deferred lines, whose reading position
// has passed already) and commits it with its outcome and progress, in one transaction. A line
// the database fails twice (not for its content: the API's errors are outcomes) is recorded as
// failed with INTERNAL, so that no line can hold an import forever.
func (r *importRun) line(ctx context.Context, l Line, deferred bool) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = r.commit(ctx, l, deferred); err == nil || errors.Is(err, errLost) || ctx.Err() != nil {
			return err
		}
		r.w.Log.Error("import line", "import", r.imp.Uuid.String(), "line", l.No, "error", err.Error())
	}
	if l.Type == "" {
		var res Result
		_, _ = r.im.decode(l.Raw, &res) // the type and code it names, as far as it can be read
		l.Type, l.Code = res.Type, res.Code
	}
	l.Raw, l.Fail = nil, []LineError{{Code: "INTERNAL", Message: "the line could not be applied (internal error)"}}
	return r.commit(ctx, l, deferred)
}

func (r *importRun) commit(ctx context.Context, l Line, deferred bool) error {
	return r.inTx(ctx, func(tctx context.Context, q *db.Queries) (Counts, *Position, error) {
		c, err := r.step(tctx, q, l, deferred)
		pos := l.End
		if deferred {
			pos = Position{Offset: r.imp.BytesRead, Line: r.imp.LinesRead}
		}
		return c, &pos, err
	})
}

// inTx runs apply in one transaction whose readiness and search-array refreshes wait for its end
// (migration 0029: refresh_defer, then refresh_flush before the commit), and commits the counts
// apply answers with the import's progress at pos (CheckpointImport; nothing when pos is nil).
// The import's own position in memory moves on once that has committed.
func (r *importRun) inTx(ctx context.Context, apply func(tctx context.Context, q *db.Queries) (Counts, *Position, error)) error {
	var pos *Position
	var committed Counts
	err := r.w.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if err := q.RefreshDefer(ctx); err != nil {
			return err
		}
		var c Counts
		var err error
		if c, pos, err = apply(store.WithDeferredRefresh(store.WithTx(ctx, tx)), q); err != nil || pos == nil {
			return err
		}
		committed = c
		if err := q.RefreshFlush(ctx); err != nil {
			return err
		}
		return r.checkpoint(ctx, q, *pos, c)
	})
	if err == nil && pos != nil {
		r.imp.BytesRead, r.imp.LinesRead = pos.Offset, pos.Line
		r.created += committed.Created
	}
	if err != nil {
		codesOf(r.ctx).forget() // they may name rows the rollback removed
	}
	return err
}

// Batches (a dry run's, or see batchTogether): the lines read from the file are applied
// batchLines at a time, or as many as batchTime allows, in one transaction (each line in a savepoint of its own, so still atomic and
// independent) committed with the progress after its last line: one commit, one progress write
// and one refresh of the search arrays (migration 0029) per batch instead of per line. Bounded in
// time, so that the rows a batch locks (the products it writes, their categories and parents)
// and the events of other transactions that wait for it in GET /v1/events (commit order) are held
// no longer than that.
const (
	batchLines = 250
	// batchTime is short because GET /v1/events (and the webhook dispatcher) show events in
	// commit order across the whole cluster: while any write transaction is open, events
	// committed after it started wait for it, in every tenant. 100 ms batches held a just-made
	// event out of the log long enough for the README test to miss it.
	batchTime = 20 * time.Millisecond
)

// readError is the file failing to be read in a batch (the import fails, after the batch's lines
// before it commit).
type readError struct{ err error }

func (e readError) Error() string { return e.err.Error() }

// batch reads and applies the next lines of src, committed together; true at the end of the file.
// Outside dry runs it reads batchTogether lines and applies them together (wide.go), or, when
// that fails, one by one in the same transaction (each in its savepoint, as a dry run's batch,
// which is bounded by batchLines and batchTime instead). A batch that fails as a whole (the database failing, not a line: a line's own faults are its
// outcome) is rolled back and its lines applied again one transaction each (line), so one line the
// database cannot apply never holds back the others.
func (r *importRun) batch(ctx context.Context, src Source) (bool, error) {
	var lines []Line
	var eof bool
	var readErr error
	start := time.Now()
	mark := len(r.added)
	// Lines applied together (wide.go; not in a dry run, whose lines each roll back): the batch
	// reads its lines first, then applies them together, or one by one when that fails.
	together := !r.imp.DryRun
	read := func() bool {
		l, err := src.Next(ctx)
		if errors.Is(err, io.EOF) {
			eof = true
			return false
		}
		if err != nil {
			readErr = err
			return false
		}
		lines = append(lines, l)
		return true
	}
	if together {
		for len(lines) < batchTogether && read() {
		}
	}
	attempts := 0
	err := r.inTx(ctx, func(tctx context.Context, q *db.Queries) (Counts, *Position, error) {
		// A deadlock victim runs again from its first line, without what its rolled-back attempt
		// remembered. The first attempt keeps the codes the run resolved in the batches committed
		// before it (forgetting them at every batch looked every category, tag, locale and input
		// type up again in every batch).
		if attempts++; attempts > 1 {
			r.forget(mark)
		}
		var c Counts
		if together && len(lines) > 0 {
			applied, err := r.applyTogether(tctx, q, lines, &c)
			if err != nil {
				return c, nil, err
			}
			if applied {
				return c, &lines[len(lines)-1].End, nil
			}
		}
		for i := 0; ; i++ {
			if i == len(lines) {
				if together || eof || readErr != nil || len(lines) >= batchLines || time.Since(start) >= batchTime {
					break
				}
				if !read() {
					break
				}
			}
			lc, err := r.step(tctx, q, lines[i], false)
			if err != nil {
				return c, nil, err
			}
			c.plus(lc)
		}
		if len(lines) == 0 {
			return c, nil, nil
		}
		return c, &lines[len(lines)-1].End, nil
	})
	if err != nil {
		if errors.Is(err, errLost) || ctx.Err() != nil {
			return false, err
		}
		r.w.Log.Warn("import batch rolled back, its lines applied one by one", "import", r.imp.Uuid.String(),
			"lines", len(lines), "error", err.Error())
		r.forget(mark)
		for _, l := range lines {
			if err := r.line(ctx, l, false); err != nil {
				return false, err
			}
		}
	}
	if readErr != nil {
		return false, readError{readErr}
	}
	return eof, nil
}

// batchTogether is how many lines a batch applied together holds (wide.go). Decided from
// measurements (docs/design.md "Import and export jobs", Speed): 16 lines cost the database 40 %
// more CPU a line than 64, and 250 no less than 64; a batch of 64 lines holds its transaction
// (its rows' locks, and the events of later transactions in GET /v1/events, which follows commit
// order) for the time of 64 lines instead of the 20 ms of batchTime.
const batchTogether = 64

// applyTogether applies lines together (Importer.ApplyTogether) in the transaction of ctx and records
// their outcomes; false (nothing written, nothing recorded) when they must be applied one by one.
func (r *importRun) applyTogether(ctx context.Context, q *db.Queries, lines []Line, c *Counts) (bool, error) {
	var raws [][]byte
	for _, l := range lines {
		if l.Fail == nil {
			raws = append(raws, l.Raw)
		}
	}
	var results []Result
	if len(raws) > 0 {
		var why, err error
		if results, why, err = r.im.ApplyTogether(ctx, raws); err != nil || why != nil {
			if why != nil {
				r.w.Log.Debug("import lines applied one by one", "import", r.imp.Uuid.String(), "lines", len(raws), "why", why.Error())
			}
			return false, err
		}
	}
	k := 0
	for _, l := range lines {
		res := Result{Outcome: Failed, Errors: l.Fail, Type: l.Type, Code: l.Code}
		if l.Fail == nil {
			res = results[k]
			k++
		}
		lc, err := r.record(ctx, q, l, res, false)
		if err != nil {
			return false, err
		}
		c.plus(lc)
	}
	linesTogether.Add(int64(len(raws)))
	return true, nil
}

// forget undoes what the run remembered from lines rolled back: the codes a dry run's lines
// defined after mark, and the codes resolved (which may name rows the rollback removed).
func (r *importRun) forget(mark int) {
	for _, k := range r.added[mark:] {
		delete(r.defined, k)
	}
	r.added = r.added[:mark]
	codesOf(r.ctx).forget()
}

// step applies line l in the transaction of ctx (q's) and records its outcome: the counts it adds,
// its failure, or its deferral when it waits for codes further down the file (a deferred line
// applied again is taken off the deferred ones).
func (r *importRun) step(ctx context.Context, q *db.Queries, l Line, deferred bool) (Counts, error) {
	res := Result{Outcome: Failed, Errors: l.Fail, Type: l.Type, Code: l.Code}
	if l.Fail == nil {
		var err error
		if res, err = r.apply(ctx, l.Raw); err != nil {
			return Counts{}, err
		}
	}
	return r.record(ctx, q, l, res, deferred)
}

// record records line l's outcome res (step).
func (r *importRun) record(ctx context.Context, q *db.Queries, l Line, res Result, deferred bool) (Counts, error) {
	imp := r.imp
	var c Counts
	res.Errors = l.Rename(res.Errors)
	switch {
	case !deferred && unresolvedOnly(res):
		// Applied again once the file is read: a later line may define the code.
		if err := q.InsertImportDeferred(ctx, db.InsertImportDeferredParams{TenantID: imp.TenantID, ImportUuid: imp.Uuid,
			Line: l.No, Raw: l.Raw}); err != nil {
			return c, err
		}
	default:
		c.add(res)
		if res.Outcome == Failed {
			if err := r.recordFailure(ctx, q, l.No, res); err != nil {
				return c, err
			}
		}
	}
	if deferred {
		if _, err := q.DeleteImportDeferred(ctx, db.DeleteImportDeferredParams{TenantID: imp.TenantID, ImportUuid: imp.Uuid, Line: l.No}); err != nil {
			return c, err
		}
	}
	return c, nil
}

// checkpoint commits, with the transaction of q, the lines' counts c and the reading position pos,
// renewing the lease: errLost when the import was cancelled or taken over.
func (r *importRun) checkpoint(ctx context.Context, q *db.Queries, pos Position, c Counts) error {
	n, err := q.CheckpointImport(ctx, db.CheckpointImportParams{TenantID: r.imp.TenantID, Uuid: r.imp.Uuid, LeaseID: &r.lease,
		BytesRead: pos.Offset, LinesRead: pos.Line, Created: c.Created, Updated: c.Updated, Unchanged: c.Unchanged,
		Failed: c.FailedLines, LeaseSeconds: r.w.leaseSeconds(), Now: store.Now()})
	if err == nil && n == 0 {
		return errLost
	}
	return err
}

// recordFailure lists a failed line.
func (r *importRun) recordFailure(ctx context.Context, q *db.Queries, no int64, res Result) error {
	errs, err := json.Marshal(res.Errors)
	if err != nil {
		return err
	}
	p := db.InsertImportLineParams{TenantID: r.imp.TenantID, Uuid: uuid.Must(uuid.NewV7()), ImportUuid: r.imp.Uuid, Line: no,
		Errors: errs, Now: store.Now()}
	if res.Type != "" {
		p.Type = &res.Type
	}
	if res.Code != "" {
		p.Code = &res.Code
	}
	return q.InsertImportLine(ctx, p)
}

// passes applies the deferred lines again, pass after pass while one resolves; then what is left
// fails with its UNRESOLVED_REFERENCE.
func (r *importRun) passes(ctx context.Context) error {
	for final := false; ; {
		progress, seen := false, false
		err := r.eachDeferred(ctx, func(d db.ListImportDeferredRow) (bool, error) {
			seen = true
			if !final {
				res, err := r.probe(ctx, d.Raw)
				if err != nil || unresolvedOnly(res) {
					return true, err
				}
			}
			progress = true
			return true, r.line(ctx, Line{No: d.Line, Raw: d.Raw}, true)
		})
		if err != nil {
			return err
		}
		if final || (!progress && !seen) {
			return nil
		}
		if !progress {
			joined, err := r.together(ctx)
			if err != nil {
				return err
			}
			final = !joined // nothing resolved: what is left fails
		}
	}
}

// eachDeferred calls fn with the import's deferred lines in line order, a batch read at a time,
// while fn answers true.
func (r *importRun) eachDeferred(ctx context.Context, fn func(d db.ListImportDeferredRow) (bool, error)) error {
	var after int64
	for {
		batch, err := r.w.DB.Q.ListImportDeferred(ctx, db.ListImportDeferredParams{TenantID: r.imp.TenantID, ImportUuid: r.imp.Uuid,
			AfterLine: after, Max: deferredBatch})
		if err != nil {
			return err
		}
		for _, d := range batch {
			after = d.Line
			if more, err := fn(d); err != nil || !more {
				return err
			}
		}
		if len(batch) < deferredBatch {
			return nil
		}
	}
}

// maxTogether bounds the lines applied together in one transaction.
const maxTogether = 500

// errApart rolls back lines applied together when one of them fails.
var errApart = errors.New("lines applied together failed")

// together applies, in one transaction, the deferred product lines that wait only for the codes
// of their relations' targets (new products relating to each other: each waits for the other):
// every such line without its relations first, then their relations. All of them commit, each
// line whole, or none does (and the last pass fails each with its own reason); so lines stay
// atomic while a file may relate new products both ways. True when they committed.
func (r *importRun) together(ctx context.Context) (bool, error) {
	type member struct {
		d      db.ListImportDeferredRow
		code   string
		target RefKey
	}
	var group []member
	err := r.eachDeferred(ctx, func(d db.ListImportDeferredRow) (bool, error) {
		res, err := r.probe(ctx, d.Raw)
		if err != nil {
			return false, err
		}
		if res.Type == "product" && unresolvedOnly(res) && onlyIn(res, "relations") && res.Unresolved != nil {
			group = append(group, member{d: d, code: res.Code, target: *res.Unresolved})
		}
		return len(group) < maxTogether, nil
	})
	if err != nil {
		return false, err
	}
	// Only lines whose missing target is one of the group's own codes, until that holds for all.
	for changed := true; changed; {
		changed = false
		codes := map[RefKey]bool{}
		for _, m := range group {
			codes[RefKey{Type: "product", Code: m.code}] = true
		}
		kept := group[:0]
		for _, m := range group {
			if codes[m.target] {
				kept = append(kept, m)
			} else {
				changed = true
			}
		}
		group = kept
	}
	// A line that fails in the group (a relation to a code that never comes, a check of its own)
	// leaves it, and the others are tried again without it.
	for len(group) >= 2 {
		failedAt := -1
		err := r.w.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
			tctx := store.WithTx(ctx, tx)
			outs := make([]Result, len(group))
			for pass := 0; pass < 2; pass++ {
				for i, m := range group {
					part, err := splitLine(m.d.Raw, "relations", pass == 1)
					if err != nil {
						failedAt = i
						return errApart
					}
					res, err := r.apply(tctx, part)
					if err != nil {
						return err
					}
					switch {
					case res.Outcome == Failed:
						failedAt = i
						return errApart
					case pass == 0:
						outs[i] = res
					case res.Outcome == Updated && outs[i].Outcome == Unchanged:
						outs[i].Outcome = Updated
					}
				}
			}
			var c Counts
			for i, m := range group {
				c.add(outs[i])
				if _, err := q.DeleteImportDeferred(ctx, db.DeleteImportDeferredParams{TenantID: r.imp.TenantID, ImportUuid: r.imp.Uuid, Line: m.d.Line}); err != nil {
					return err
				}
			}
			return r.checkpoint(ctx, q, Position{Offset: r.imp.BytesRead, Line: r.imp.LinesRead}, c)
		})
		if !errors.Is(err, errApart) {
			return err == nil, err
		}
		group = append(group[:failedAt], group[failedAt+1:]...)
	}
	return false, nil
}

// onlyIn: every error of res is on field (or an item of it).
func onlyIn(res Result, field string) bool {
	for _, e := range res.Errors {
		if e.Field != field && !strings.HasPrefix(e.Field, field+"[") && !strings.HasPrefix(e.Field, field+".") {
			return false
		}
	}
	return true
}

// splitLine is the line raw without field (rest false), or only its type, code and field (rest
// true).
func splitLine(raw []byte, field string, rest bool) ([]byte, error) {
	fs, order, err := objectKeys(raw)
	if err != nil {
		return nil, err
	}
	var o object
	for _, k := range order {
		if (k == field) == rest || (rest && (k == "type" || k == "code")) {
			o.put(k, fs[k])
		}
	}
	return o.bytes(), nil
}

// probe tells whether a deferred line still misses a reference, writing nothing.
func (r *importRun) probe(ctx context.Context, raw []byte) (Result, error) {
	if r.imp.DryRun {
		var res Result
		err := r.w.DB.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
			var err error
			res, err = r.apply(store.WithTx(ctx, tx), raw)
			return err
		})
		return res, err
	}
	return r.im.Check(ctx, raw)
}

// unreadable is an import whose file the blob store did not give: missing, the import fails
// (replicas with a local blob store each do not share their files); anything else is an error of
// the store, and the import is taken up again once the lease has run out.
func (r *importRun) unreadable(ctx context.Context, err error) error {
	if blobstore.IsNotFound(err) {
		return r.fail(ctx, "the import's file is not in the blob store (replicas must share one: CATALOG_BLOB_URL)")
	}
	return err
}

// fail ends the import as failed: its file could not be read.
func (r *importRun) fail(ctx context.Context, reason string) error {
	return r.finish(ctx, "failed", &reason)
}

func (r *importRun) finish(ctx context.Context, status string, reason *string) error {
	return r.w.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		now := store.Now()
		_, err := q.FinishImport(ctx, db.FinishImportParams{TenantID: r.imp.TenantID, Uuid: r.imp.Uuid, LeaseID: &r.lease,
			Status: status, FailureReason: reason, Now: now})
		if store.IsNoRows(err) {
			return errLost
		}
		if err != nil {
			return err
		}
		return events.Record(ctx, q, r.imp.TenantID, now, []events.Event{events.New("import."+status, "importUuid", r.imp.Uuid.String())})
	})
}

// nextExport claims and runs one export; false when none was waiting.
func (w *Worker) nextExport(ctx context.Context) (bool, error) {
	lease := uuid.New()
	exp, err := w.DB.Q.ClaimExport(ctx, db.ClaimExportParams{LeaseID: &lease, LeaseSeconds: w.leaseSeconds(), Now: store.Now()})
	if store.IsNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ctx, span := tracing.Background(ctx, "export.run", "", attribute.String("catalogd.tenant", exp.TenantID),
		attribute.String("catalogd.export", exp.Uuid.String()))
	defer span.End()
	err = w.runExport(ctx, exp, lease)
	switch {
	case errors.Is(err, errLost):
		return true, nil
	case ctx.Err() != nil:
		_, _ = w.DB.Q.ReleaseExport(context.WithoutCancel(ctx), db.ReleaseExportParams{TenantID: exp.TenantID, Uuid: exp.Uuid, LeaseID: &lease})
		return true, nil
	case err != nil:
		return true, w.finishExport(ctx, exp, lease, "failed", 0, 0, "", err.Error())
	}
	return true, nil
}

// runExport writes an export's lines into a spool file (hashing them, gzip when asked), reporting
// its count every progressEvery, then stores the file and completes the export.
func (w *Worker) runExport(ctx context.Context, exp db.Export, lease uuid.UUID) error {
	ctx = reqctx.WithPrincipal(ctx, &reqctx.Principal{Tenant: exp.TenantID, Subject: "export:" + exp.Uuid.String()})
	var products *pb.ListProductsRequest
	if len(exp.ProductFilter) > 0 {
		f := &pb.ProductFilter{}
		if err := (jsonpb.Marshaler{}).Unmarshal(exp.ProductFilter, f); err != nil {
			return err
		}
		products = ProductsRequest(f)
	}
	spool, err := os.CreateTemp("", "catalogd-export-*")
	if err != nil {
		return err
	}
	defer func() { _ = spool.Close(); _ = os.Remove(spool.Name()) }()
	var out io.Writer = spool
	var gz *gzip.Writer
	if exp.Gzip {
		gz = gzip.NewWriter(spool)
		out = gz
	}
	var lost error
	last := time.Now()
	progress := func(n int64) {
		if time.Since(last) < progressEvery || lost != nil {
			return
		}
		last = time.Now()
		rows, err := w.DB.Q.ProgressExport(ctx, db.ProgressExportParams{TenantID: exp.TenantID, Uuid: exp.Uuid, LeaseID: &lease,
			ItemCount: n, LeaseSeconds: w.leaseSeconds(), Now: store.Now()})
		if err == nil && rows == 0 {
			lost = errLost
		}
	}
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	count, err := w.Export(pctx, exp.Types, products, exp.Format, out, func(n int64) {
		if progress(n); lost != nil {
			cancel(lost)
		}
	})
	if lost != nil {
		return lost
	}
	if err != nil {
		return fmt.Errorf("the export could not be written: %w", err)
	}
	if gz != nil {
		if err := gz.Close(); err != nil {
			return err
		}
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	ct := contentTypes[exp.Format]
	if exp.Gzip {
		ct = "application/gzip"
	}
	size, sum, err := w.Files.Put(ctx, exp.StorageKey, ct, spool)
	if err != nil {
		return err
	}
	return w.finishExport(ctx, exp, lease, "completed", count, size, sum, "")
}

func (w *Worker) finishExport(ctx context.Context, exp db.Export, lease uuid.UUID, status string, count, size int64, sum, reason string) error {
	return w.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		now := store.Now()
		p := db.FinishExportParams{TenantID: exp.TenantID, Uuid: exp.Uuid, LeaseID: &lease, Status: status, ItemCount: count,
			SizeBytes: size, Now: now}
		if sum != "" {
			p.ChecksumSha256 = &sum
		}
		if reason != "" {
			p.FailureReason = &reason
		}
		if _, err := q.FinishExport(ctx, p); err != nil {
			if store.IsNoRows(err) {
				return errLost
			}
			return err
		}
		return events.Record(ctx, q, exp.TenantID, now, []events.Event{exportEvent(status, exp.Uuid)})
	})
}

// importPrincipal is who an import's lines write as: the creator of the import (its stored actor),
// naming the import (history's actor.importUuid).
func importPrincipal(imp db.Import) *reqctx.Principal {
	var a struct {
		Subject  string  `json:"subject"`
		ClientID *string `json:"clientId"`
	}
	_ = json.Unmarshal(imp.Actor, &a) // an import created before migration 0032 has none
	p := &reqctx.Principal{Tenant: imp.TenantID, Subject: a.Subject, ImportUUID: imp.Uuid.String()}
	if a.ClientID != nil {
		p.ClientID = *a.ClientID
	}
	return p
}
