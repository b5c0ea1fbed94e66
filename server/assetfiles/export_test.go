package assetfiles

import (
	"context"

	"github.com/catalogd/catalogd/gen/db"
)

// What the tests (package assetfiles_test, which may import server/app through server/apptest)
// drive one step at a time instead of through Run's loops.

const (
	MaxAttempts = maxAttempts
	ExpiryBatch = expiryBatch
)

var (
	RenditionName = renditionName
	Backoff       = backoff
)

// Prepare applies the defaults Run applies.
func (w *Worker) Prepare() { w.defaults() }

func (w *Worker) ClaimJobs(ctx context.Context, n int) ([]db.ClaimRenditionJobsRow, error) {
	return w.claimJobs(ctx, n)
}

func (w *Worker) Render(ctx context.Context, j db.ClaimRenditionJobsRow) { w.render(ctx, j) }

// RenderDue claims every due job (a slot's worth at a time) and renders them one by one.
func (w *Worker) RenderDue(ctx context.Context) (int, error) {
	total := 0
	for {
		jobs, err := w.claimJobs(ctx, w.Pool.Slots())
		if err != nil || len(jobs) == 0 {
			return total, err
		}
		for _, j := range jobs {
			w.render(ctx, j)
		}
		total += len(jobs)
	}
}

func (w *Worker) Expire(ctx context.Context) (int, error)  { return w.expire(ctx) }
func (w *Worker) Collect(ctx context.Context) (int, error) { return w.collect(ctx) }
