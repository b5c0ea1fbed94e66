package webhooks

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/store"
)

// Successes are recorded in batches (docs/design.md "Webhook dispatcher: fairness and shutdown",
// "Successes in batches"): each was one statement and one commit (one WAL flush) of its own, and
// its freed slot a claim transaction of its own. The attempts queue their successes for the
// dispatcher's loop, which writes all that are waiting in one statement (RecordDeliverySuccesses)
// and, in the same transaction, claims the room they free. An attempt waits for its batch, so it
// counts as running (its slot, shutdown's wait) until it is recorded.

// maxRecord is the most successes one batch takes.
const maxRecord = 256

// maxLinger is the longest the loop waits for the attempts still on the wire to join a batch.
const maxLinger = 2 * time.Millisecond

// recordItem is one success waiting for its batch; err receives the outcome: nil (recorded,
// delivered), errNotHealthy (nothing written: record it on the exclusive path), errLeaseLost, or
// the error of the batch.
type recordItem struct {
	r     db.ClaimedDelivery
	lease uuid.UUID
	res   Result
	err   chan error
}

// gather returns the successes waiting to be recorded: first (when not nil) and those queued. The
// attempts still on the wire usually end within a moment of one another (a claim's rows are sent
// at once), so while there are some it waits for them, up to maxLinger: one batch, one commit for
// them all, and the room they free on their subscription refilled by one claim. A lone success,
// or the last of a burst, is written at once.
func (d *Dispatcher) gather(first *recordItem) []*recordItem {
	var batch []*recordItem
	if first != nil {
		batch = append(batch, first)
	}
	var linger <-chan time.Time
	for len(batch) < maxRecord {
		select {
		case it := <-d.successes:
			batch = append(batch, it)
			continue
		default:
		}
		if len(batch) == 0 || d.sending.Load() == 0 {
			return batch
		}
		if linger == nil {
			linger = time.After(maxLinger)
		}
		select {
		case it := <-d.successes:
			batch = append(batch, it)
		case <-linger:
			return batch
		}
	}
	return batch
}

// recordAndClaim writes a batch of successes and claims up to want due deliveries, in one
// transaction (one commit, one round trip, run again if it is a deadlock's victim, as DB.Tx's);
// either may be empty. It tells every item of the batch its outcome and returns the claimed rows.
// A failed claim does not lose the batch: it is written alone then.
func (d *Dispatcher) recordAndClaim(batch []*recordItem, want int) ([]db.ClaimedDelivery, uuid.UUID, error) {
	ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
	defer cancel()
	lease := uuid.New()
	p := recordParams(batch)
	var (
		recorded []db.RecordDeliverySuccessesRow
		rows     []db.ClaimedDelivery
		err      error
	)
	switch {
	case want == 0: // the successes alone: one statement, its own transaction
		recorded, err = d.DB.Q.RecordDeliverySuccesses(ctx, p)
	default:
		// One round trip: both statements in one batch, which runs as one implicit transaction
		// (a failed claim rolls the record back with it). Through a transaction pooler each round
		// trip is two hops, and a subscription's deliveries per second are bounded by its
		// in-flight cap over this loop's period.
		r := store.Round{AsPlanned: true}
		if len(batch) > 0 {
			r.Add(func(q *db.Queries) (err error) { recorded, err = q.RecordDeliverySuccesses(ctx, p); return })
		}
		r.Add(func(q *db.Queries) (err error) { rows, err = d.claim(ctx, q, want, lease); return })
		err = d.DB.Send(ctx, &r)
		if err != nil {
			d.Log.Error("webhook claim", "error", err.Error())
			rows = nil
			if len(batch) > 0 {
				recorded, err = d.DB.Q.RecordDeliverySuccesses(ctx, p)
			}
		}
	}
	d.tell(batch, recorded, err)
	return rows, lease, err
}

func recordParams(batch []*recordItem) db.RecordDeliverySuccessesParams {
	n := len(batch)
	p := db.RecordDeliverySuccessesParams{TenantIds: make([]string, n), SubscriptionUuids: make([]uuid.UUID, n),
		Uuids: make([]uuid.UUID, n), LeaseIds: make([]uuid.UUID, n), StatusCodes: make([]int32, n),
		AttemptUuids: make([]uuid.UUID, n), ResponseBodies: make([]string, n), ResponseTimesMs: make([]int32, n), Now: store.Now()}
	for i, it := range batch {
		p.TenantIds[i], p.SubscriptionUuids[i], p.Uuids[i], p.LeaseIds[i] = it.r.TenantID, it.r.SubscriptionUuid, it.r.Uuid, it.lease
		p.StatusCodes[i], p.AttemptUuids[i] = int32(it.res.StatusCode), uuid.Must(uuid.NewV7())
		p.ResponseBodies[i], p.ResponseTimesMs[i] = it.res.Body, int32(it.res.Duration.Milliseconds())
	}
	return p
}

// tell gives each item of a batch its outcome.
func (d *Dispatcher) tell(batch []*recordItem, recorded []db.RecordDeliverySuccessesRow, err error) {
	if len(batch) == 0 {
		return
	}
	type outcome struct{ healthy, finished bool }
	got := make(map[uuid.UUID]outcome, len(recorded))
	for _, row := range recorded {
		got[row.Uuid] = outcome{row.Healthy, row.Finished}
	}
	for _, it := range batch {
		switch o := got[it.r.Uuid]; {
		case err != nil:
			it.err <- err
		case !o.healthy:
			it.err <- errNotHealthy
		case !o.finished:
			d.Log.Warn("webhook delivery lease lost", "delivery", it.r.Uuid.String())
			it.err <- errLeaseLost
		default:
			it.err <- nil
		}
	}
}
