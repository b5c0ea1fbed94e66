// Package scheduler runs due publication schedules: every process runs one Runner, each tick
// claims a batch of due pending schedules of every tenant (catalog.RunDueSchedules) and runs them;
// replicas share the work through FOR UPDATE SKIP LOCKED, so each schedule runs exactly once.
package scheduler

import (
	"context"
	"log/slog"
	"time"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/store"
)

// DefaultInterval is the time between ticks (CATALOG_SCHEDULER_INTERVAL).
const DefaultInterval = time.Second

// DefaultBatch is how many schedules one transaction claims at most.
const DefaultBatch = 100

// Runner polls for due schedules.
type Runner struct {
	DB *store.DB
	// Interval between ticks; 0 is DefaultInterval.
	Interval time.Duration
	// Batch is the claim limit of a transaction; 0 is DefaultBatch.
	Batch int
	Log   *slog.Logger
	// Now is the clock (tests); nil is store.Now.
	Now func() time.Time
}

// Run ticks until ctx is done.
func (r *Runner) Run(ctx context.Context) {
	interval := r.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		r.Tick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick runs every schedule due now, batch after batch while batches come back full, and returns
// the totals. Errors are logged; the schedules they hit stay pending for the next tick.
func (r *Runner) Tick(ctx context.Context) catalog.ScheduleRun {
	batch := r.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	now := store.Now
	if r.Now != nil {
		now = r.Now
	}
	var total catalog.ScheduleRun
	for ctx.Err() == nil {
		res, err := catalog.RunDueSchedules(ctx, r.DB, now(), batch)
		total.Claimed += res.Claimed
		total.Executed += res.Executed
		total.Failed += res.Failed
		if err != nil {
			if ctx.Err() == nil && r.Log != nil {
				r.Log.Error("publication scheduler", "error", err.Error())
			}
			break
		}
		if res.Executed+res.Failed > 0 && r.Log != nil {
			r.Log.Info("publication schedules run", "executed", res.Executed, "failed", res.Failed)
		}
		if res.Claimed < batch {
			break
		}
	}
	return total
}
