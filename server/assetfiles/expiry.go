package assetfiles

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/store"
)

// expire fails the pending files whose upload URL has expired, in batches of expiryBatch (one
// transaction each: the files failed, their objects queued for deletion by the trigger of
// migration 0018, one asset.file.failed event each), until none is left. It returns how many it failed.
func (w *Worker) expire(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := w.expireBatch(ctx)
		total += n
		if err != nil || n < expiryBatch {
			return total, err
		}
	}
}

func (w *Worker) expireBatch(ctx context.Context) (int, error) {
	now := store.NowFor(ctx)
	var n int
	err := w.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		rows, err := q.ExpireAssetFiles(ctx, db.ExpireAssetFilesParams{Now: now, Max: expiryBatch})
		if err != nil {
			return err
		}
		n = len(rows)
		byTenant := map[string][]events.Event{}
		var tenants []string
		for _, r := range rows {
			if _, ok := byTenant[r.TenantID]; !ok {
				tenants = append(tenants, r.TenantID)
			}
			now := db.AssetFile(r)
			was := now // the statement sets the status, the reason and updatedAt only
			was.Status, was.FailureReason = "pending", nil
			byTenant[r.TenantID] = append(byTenant[r.TenantID], catalog.AssetFileEvent("failed", &was, &now))
		}
		for _, t := range tenants {
			if err := events.Record(ctx, q, t, now, byTenant[t]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if n > 0 {
		w.Log.Info("expired uploads failed", "files", n)
		w.Metrics.expired(n)
	}
	return n, nil
}
