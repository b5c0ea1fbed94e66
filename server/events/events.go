// Package events records what every mutation did, in the mutation's own transaction (an outbox):
// an event is never lost when the change commits and never sent when it rolls back.
package events

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/gen/db"
)

// Event is one thing that happened. Payload keys are the REST path parameter names that fetch the
// current state, e.g. {"attributeUuid": "…"}.
type Event struct {
	Type    string
	Payload map[string]string
}

// New builds an event from alternating key, value pairs.
func New(typ string, kv ...string) Event {
	p := make(map[string]string, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i]] = kv[i+1]
	}
	return Event{Type: typ, Payload: p}
}

// Record writes evs into the outbox with tx's queries; call it inside the writing transaction.
func Record(ctx context.Context, q *db.Queries, tenant string, now time.Time, evs []Event) error {
	if len(evs) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(evs))
	types := make([]string, len(evs))
	payloads := make([][]byte, len(evs))
	for i, e := range evs {
		ids[i] = uuid.Must(uuid.NewV7())
		types[i] = e.Type
		b, err := json.Marshal(e.Payload)
		if err != nil {
			return err
		}
		payloads[i] = b
	}
	return q.InsertEvents(ctx, db.InsertEventsParams{TenantID: tenant, Uuids: ids, Types: types, Payloads: payloads, Now: now})
}
