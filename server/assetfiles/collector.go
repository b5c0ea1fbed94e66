package assetfiles

import (
	"context"
	"sync"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/blobstore"
)

// Outcomes of catalogd_blob_deletions_total{outcome}.
const (
	deletionDeleted = "deleted" // the object was deleted (or was already gone)
	deletionError   = "error"   // the store refused; retried with backoff
	deletionKept    = "kept"    // a live asset file still names the key, or it is not a valid key: row dropped, object kept
)

// collect deletes the due objects of blob_deletions, deletionBatch rows per claim, until none is
// due. A deleted object's row goes; a refused deletion stays queued with backoff (for ever: an
// object must not be forgotten while the store is down). It returns how many objects it deleted.
func (w *Worker) collect(ctx context.Context) (int, error) {
	total := 0
	for ctx.Err() == nil {
		rows, err := w.DB.Q.ClaimBlobDeletions(ctx, db.ClaimBlobDeletionsParams{Max: deletionBatch, LeaseSeconds: w.Lease.Seconds()})
		if err != nil {
			return total, err
		}
		done := make([]bool, len(rows))
		sem := make(chan struct{}, deleteParallel)
		var wg sync.WaitGroup
		for i, r := range rows {
			if r.InUse || blobstore.ValidateKey(r.StorageKey) != nil {
				// Never the case by construction (the queue is filled only with keys let go of);
				// deleting could lose a file's bytes, and a key the store refuses never deletes.
				w.Log.Error("blob deletion dropped, object kept: the key is in use by an asset file or invalid", "key", r.StorageKey, "in_use", r.InUse)
				w.Metrics.deletion(deletionKept)
				done[i] = true
				continue
			}
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				err := w.Store.Delete(ctx, r.StorageKey)
				if err == nil {
					done[i] = true
					w.Metrics.deletion(deletionDeleted)
					return
				}
				if ctx.Err() != nil {
					return // shutdown: the row is due again after its lease
				}
				delay := backoff(r.Attempts)
				w.Log.Warn("blob deletion failed; will retry", "key", r.StorageKey, "attempt", r.Attempts, "retry_in", delay.String(), "error", err.Error())
				w.Metrics.deletion(deletionError)
				if err := w.DB.Q.RetryBlobDeletion(ctx, db.RetryBlobDeletionParams{ID: r.ID, DelaySeconds: delay.Seconds()}); err != nil {
					w.Log.Warn("blob deletion retry", "error", err.Error()) // due again after its lease
				}
			})
		}
		wg.Wait()
		var ids []int64
		for i, ok := range done {
			if ok {
				ids = append(ids, rows[i].ID)
			}
		}
		if len(ids) > 0 {
			if err := w.DB.Q.DeleteBlobDeletions(ctx, ids); err != nil {
				return total, err // the objects are gone; their rows are deleted again after the lease
			}
		}
		total += len(ids)
		if len(rows) < deletionBatch {
			break
		}
	}
	return total, nil
}
