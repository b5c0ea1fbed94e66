// Package events records what every mutation did, in the mutation's own transaction (an outbox):
// an event is never lost when the change commits and never sent when it rolls back.
package events

import (
	"context"
	"encoding/json"
	"fmt"
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

// Channel is the LISTEN/NOTIFY channel that wakes the webhook dispatchers.
const Channel = "catalogd_webhooks"

// Record writes evs into the outbox with tx's queries, and in the same statement one pending
// delivery per active subscription subscribed to each event's type. Call it inside the writing
// transaction: the events and deliveries commit or roll back with the change.
func Record(ctx context.Context, q *db.Queries, tenant string, now time.Time, evs []Event) error {
	if len(evs) == 0 {
		return nil
	}
	for _, e := range evs {
		if !Known(e.Type) {
			return fmt.Errorf("event type %q is not in the event catalog (server/events/catalog.go)", e.Type)
		}
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
	n, err := q.InsertEvents(ctx, db.InsertEventsParams{TenantID: tenant, Uuids: ids, Types: types, Payloads: payloads, Now: now})
	if err != nil || n == 0 {
		return err
	}
	return q.NotifyDeliveries(ctx)
}

// SeedCatalog writes the event catalog into webhook_event_types (new names added, descriptions
// kept current); it runs with the migrations.
func SeedCatalog(ctx context.Context, q *db.Queries) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	for _, t := range Catalog() {
		if err := q.UpsertEventType(ctx, db.UpsertEventTypeParams{Uuid: TypeUUID(t.Name), Name: t.Name, Description: t.Description, Now: now}); err != nil {
			return fmt.Errorf("seed event type %s: %w", t.Name, err)
		}
	}
	return nil
}
