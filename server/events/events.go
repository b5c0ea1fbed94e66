// Package events records what every mutation did, in the mutation's own transaction (an outbox):
// an event is never lost when the change commits and never sent when it rolls back.
package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/history"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

// Event is one thing that happened. Payload keys are the REST path parameter names that fetch the
// current state, e.g. {"attributeUuid": "…"}.
//
// Before and After are the changed resource's states around the change, as its API messages, for
// its history entry (server/history): Before is nil for a create or link, After nil for a delete
// or unlink. An event of a resource with neither records an entry without changes.
type Event struct {
	Type    string
	Payload map[string]string
	Before  proto.Message
	After   proto.Message
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
// delivery per active subscription subscribed to each event's type and, when it made any, the
// NOTIFY that wakes the dispatchers. Call it inside the writing transaction: the events and
// deliveries commit or roll back with the change, and the notification is sent on commit.
func Record(ctx context.Context, q *db.Queries, tenant string, now time.Time, evs []Event) error {
	p, err := params(ctx, tenant, now, evs)
	if err != nil || p == nil {
		return err
	}
	_, err = q.InsertEvents(ctx, *p)
	return err
}

// RecordAtCommit is Record with its statement sent with tx's COMMIT, in the same round trip, when
// tx is one of store.DB.Tx's (store.AtCommit: a round trip less per write); else it runs now. Its
// answer (the deliveries it made) is read by nobody; a failure fails the commit.
func RecordAtCommit(ctx context.Context, tx pgx.Tx, tenant string, now time.Time, evs []Event) error {
	p, err := params(ctx, tenant, now, evs)
	if err != nil || p == nil {
		return err
	}
	var r store.Round
	r.Add(func(q *db.Queries) error {
		_, err := q.InsertEvents(ctx, *p)
		return err
	})
	return store.AtCommit(ctx, tx, &r)
}

// params are InsertEvents' arguments for evs (nil for none), their history entries included.
func params(ctx context.Context, tenant string, now time.Time, evs []Event) (*db.InsertEventsParams, error) {
	if len(evs) == 0 {
		return nil, nil
	}
	for _, e := range evs {
		if !Known(e.Type) {
			return nil, fmt.Errorf("event type %q is not in the event catalog (server/events/catalog.go)", e.Type)
		}
	}
	ids := make([]uuid.UUID, len(evs))
	types := make([]string, len(evs))
	payloads := make([][]byte, len(evs))
	buf := make([]byte, 0, len(evs)*64) // every payload in one buffer
	for i, e := range evs {
		ids[i] = uuid.Must(uuid.NewV7())
		types[i] = e.Type
		start := len(buf)
		buf = appendPayload(buf, e.Payload)
		payloads[i] = buf[start:len(buf):len(buf)]
	}
	params := &db.InsertEventsParams{TenantID: tenant, Uuids: ids, Types: types, Payloads: payloads, Now: now}
	if tp := tracing.Traceparent(ctx); tp != "" { // the deliveries continue the write's trace
		params.Traceparent = &tp
	}
	if !history.BenchOff {
		entries, err := historyOf(evs)
		if err != nil {
			return nil, err
		}
		if len(entries) > 0 { // written by the same statement
			h := history.Params(ctx, tenant, entries)
			params.HUuids, params.HResourceTypes, params.HResourceUuids, params.HParents = h.Uuids, h.ResourceTypes, h.ResourceUuids, h.Parents
			params.HActions, params.HActor, params.HChanges, params.HRequestID = h.Actions, h.Actor, h.Changes, h.RequestID
		}
	}
	return params, nil
}

// historyOf is the history entries of evs: one per event of a catalog resource (the jobs' events,
// import.* and export.*, are not changes of the catalog and record none), its resource and
// parents read from the payload in the order of the event's keys (catalog.go).
func historyOf(evs []Event) ([]history.Entry, error) {
	out := make([]history.Entry, 0, len(evs))
	// Every entry's changes are written into one buffer, made one string at the end: no copy per
	// entry of the up to 100 of a bulk write.
	var d history.Differ
	var buf []byte
	ends := make([]int, 0, len(evs))
	for _, e := range evs {
		dot := strings.LastIndexByte(e.Type, '.')
		prefix, verb := e.Type[:dot], e.Type[dot+1:]
		if r, ok := movedOn[e.Type]; ok {
			prefix = r
		}
		keys := keysOf[prefix]
		if noHistory[prefix] || len(keys) == 0 {
			continue
		}
		ids := make([]uuid.UUID, len(keys))
		for i, k := range keys {
			id, err := uuid.Parse(e.Payload[k])
			if err != nil {
				return nil, fmt.Errorf("event %s: payload key %s: %w", e.Type, k, err)
			}
			ids[i] = id
		}
		var err error
		if buf, err = d.Append(buf, e.Before, e.After); err != nil {
			return nil, err
		}
		ends = append(ends, len(buf))
		n := len(ids) - 1
		out = append(out, history.Entry{ResourceType: prefix, Resource: ids[n], Parents: ids[:n], Action: verb})
	}
	all, start := string(buf), 0
	for i, end := range ends {
		out[i].Changes, start = all[start:end], end
	}
	return out, nil
}

// appendPayload appends p as a JSON object with its keys in order, as encoding/json would (the
// column is jsonb: only the content counts), without a map walk through reflection for each of
// the up to 100 events of a bulk write.
func appendPayload(b []byte, p map[string]string) []byte {
	keys := make([]string, 0, 4)
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonpb.AppendString(b, k)
		b = append(b, ':')
		b = jsonpb.AppendString(b, p[k])
	}
	return append(b, '}')
}

// SeedCatalog writes the event catalog into webhook_event_types (new names added, descriptions
// kept current) in one transaction that holds the catalog's lock (replicas starting together seed
// one after another); it runs with the migrations.
func SeedCatalog(ctx context.Context, d *store.DB) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	return d.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		if err := q.LockEventCatalog(ctx); err != nil {
			return err
		}
		for _, t := range Catalog() {
			if err := q.UpsertEventType(ctx, db.UpsertEventTypeParams{Uuid: TypeUUID(t.Name), Name: t.Name, Description: t.Description, Now: now}); err != nil {
				return fmt.Errorf("seed event type %s: %w", t.Name, err)
			}
		}
		return nil
	})
}
