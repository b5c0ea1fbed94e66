// Package assetfiles is the background work on asset files (issue 12, API.md "Assets"), run by
// every replica on one shared database:
//
//   - renditions: the thumbnail (≤ 256 px) and web_optimized (≤ 2048 px) copies of each uploaded
//     image original, made from the rendition_jobs queue that complete-upload fills;
//   - expiry: pending uploads past their upload URL's expiry become failed;
//   - blob collection: objects queued in blob_deletions (deleted or failed files, orphans of
//     interrupted renditions) are deleted from the blob store.
//
// Coordination is the database's: every queue is claimed with FOR UPDATE SKIP LOCKED and a lease
// (as webhook deliveries are, server/webhooks), so any number of replicas share the work, and a
// replica that dies leaves its claims to the others once their leases end.
package assetfiles

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/renditions"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

// Defaults of a Worker's zero fields, and fixed policy.
const (
	// DefaultLease is how long a claimed job or deletion stays invisible to other workers. A
	// rendition of the largest image accepted (100 MP) takes some seconds; a lease that runs out
	// anyway costs only duplicate work (the second commit inserts nothing and drops its blobs).
	DefaultLease = time.Minute
	// DefaultInterval is the poll interval of the deletion queue; the expiry sweep runs every
	// expiryEvery intervals.
	DefaultInterval = time.Second
	// renditionPoll is the longest the rendition queue waits between two claims (shorter when
	// Interval is): a new job waits half of it on average before a worker takes it. An empty
	// queue's claim is one probe of the rendition_jobs_due index, writing nothing.
	renditionPoll = 250 * time.Millisecond

	// maxAttempts: a rendition job that failed transiently this many times is given up (the
	// original stays, without renditions). A claim counts as an attempt, so a job whose worker
	// keeps dying (killed mid-decode) is given up too.
	maxAttempts = 5
	// backoffBase and backoffMax: a failed job or deletion is retried after base·2^(attempts−1),
	// at most max.
	backoffBase = 10 * time.Second
	backoffMax  = 10 * time.Minute
	// jobTimeout bounds one rendition job (read, decode, scale, encode, store, commit).
	jobTimeout = 10 * time.Minute
	// intentHold is how long the key of a rendition object being written stays out of the blob
	// collector's reach (InsertBlobIntents). It must outlast jobTimeout: a worker still inside
	// its job must never see its objects collected. A worker that died leaves them for this long.
	intentHold = time.Hour
	// finishTimeout bounds the commit of finished renditions and the clean-up after a job; they
	// run on past a shutdown, so that work done is not thrown away.
	finishTimeout = 30 * time.Second
	// expiryEvery: the expiry sweep runs once every so many poll intervals (5 s by default).
	expiryEvery = 5
	// expiryBatch and deletionBatch bound one statement (and one transaction) of each queue.
	expiryBatch   = 500
	deletionBatch = 100
	// deleteParallel is how many objects the collector deletes at once (S3 deletes are round trips).
	deleteParallel = 8
	// sweepEvery and sweepAge: temporary files of the blob store (spool, fileblob staging) left
	// by dead processes are removed once unmodified for sweepAge.
	sweepEvery = 10 * time.Minute
	sweepAge   = time.Hour
)

// Worker makes renditions, expires pending uploads and collects blobs until Run's context ends.
// Configure the exported fields, then call Run once (typically in its own goroutine).
type Worker struct {
	// DB is the database (the API's pool is fine: the worker holds a connection only for short
	// statements and one short transaction per job, never across a decode or a blob transfer).
	DB *store.DB
	// Store holds the originals and receives the renditions.
	Store *blobstore.Store
	Log   *slog.Logger
	// Pool bounds the renditions running at once and their decoded bytes; the worker claims no
	// more jobs than it has slots. nil: renditions.NewPool(0, 0, renditions.Limits{}) (GOMAXPROCS
	// slots, 512 MiB, the 100-megapixel limit).
	Pool *renditions.Pool
	// Lease: DefaultLease when 0.
	Lease time.Duration
	// Interval: DefaultInterval when 0.
	Interval time.Duration
	// Metrics, when not nil, receives the figures of NewMetrics.
	Metrics *Metrics

	wake chan struct{} // a rendition slot was freed
}

func (w *Worker) defaults() {
	if w.Pool == nil {
		w.Pool = renditions.NewPool(0, 0, renditions.Limits{})
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
	w.wake = make(chan struct{}, 1)
}

// Run works until ctx ends, then returns once every job it started is finished or given back:
// renditions being made are cut (a decode checks ctx as it reads and scales) and their jobs are
// due again at once, uncounted; renditions already stored are still committed (bounded by
// finishTimeout). A process killed outright gives nothing back: its claims wait for their lease.
func (w *Worker) Run(ctx context.Context) {
	w.defaults()
	var wg sync.WaitGroup
	wg.Go(func() { w.renditionLoop(ctx) })
	wg.Go(func() { w.expiryLoop(ctx) })
	wg.Go(func() { w.collectorLoop(ctx) })
	wg.Wait()
}

// renditionLoop claims due jobs while it has free slots and runs each in its own goroutine.
func (w *Worker) renditionLoop(ctx context.Context) {
	slots := w.Pool.Slots()
	var busy atomic.Int64
	var running sync.WaitGroup
	defer running.Wait()
	for ctx.Err() == nil {
		free := slots - int(busy.Load())
		if free > 0 {
			jobs, err := w.claimJobs(ctx, free)
			if err != nil && ctx.Err() == nil {
				w.Log.Error("rendition claim", "error", err.Error())
			}
			for _, j := range jobs {
				busy.Add(1)
				running.Go(func() {
					defer func() {
						busy.Add(-1)
						select {
						case w.wake <- struct{}{}:
						default:
						}
					}()
					ctx, span := tracing.Background(ctx, "rendition.job", "", attribute.String("catalogd.tenant", j.TenantID),
						attribute.String("catalogd.asset_file", j.FileUuid.String()))
					defer span.End()
					w.render(ctx, j)
				})
			}
			if err == nil && len(jobs) == free {
				continue // there may be more due
			}
		}
		select {
		case <-ctx.Done():
		case <-w.wake:
		case <-time.After(min(w.Interval, renditionPoll)):
		}
	}
}

// expiryLoop runs the expiry sweep every expiryEvery intervals.
func (w *Worker) expiryLoop(ctx context.Context) {
	for {
		if _, err := w.expire(ctx); err != nil && ctx.Err() == nil {
			w.Log.Error("asset file expiry", "error", err.Error())
		}
		if !sleep(ctx, expiryEvery*w.Interval) {
			return
		}
	}
}

// collectorLoop deletes queued blobs every interval, and sweeps the store's temporary files
// every sweepEvery.
func (w *Worker) collectorLoop(ctx context.Context) {
	lastSweep := time.Now() // blobstore.Open has just swept
	for {
		if _, err := w.collect(ctx); err != nil && ctx.Err() == nil {
			w.Log.Error("blob collector", "error", err.Error())
		}
		if time.Since(lastSweep) >= sweepEvery {
			lastSweep = time.Now()
			n, err := w.Store.Sweep(ctx, sweepAge)
			switch {
			case err != nil && ctx.Err() == nil:
				w.Log.Error("blob store sweep", "error", err.Error())
			case n > 0:
				w.Log.Info("blob store sweep removed stale temporary files", "files", n)
			}
		}
		if !sleep(ctx, w.Interval) {
			return
		}
	}
}

// backoff is the delay before the next try after attempts failed ones.
func backoff(attempts int32) time.Duration {
	d := backoffBase
	for i := int32(1); i < attempts && d < backoffMax; i++ {
		d *= 2
	}
	return min(d, backoffMax)
}

// sleep waits d, or less if ctx ends; it reports whether ctx is still alive.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
