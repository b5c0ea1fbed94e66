// Package history is the audit trail (API.md "History (who changed what)"): for every resource a
// write changes, one entry with the actor, the request and each changed field's value before and
// after, in the API's JSON names and shapes. Entries are written by events.Record, in the writing
// transaction, from the events of the write: an event carries the resource's states around the
// change as its API messages (events.Event Before and After), and Diff compares their JSON
// renderings field by field. A write that changes nothing emits no event and so records nothing.
package history

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/reqctx"
)

// Entry is one changed resource of a write.
type Entry struct {
	// ResourceType is the event type's resource ("product", "product.input_value").
	ResourceType string
	Resource     uuid.UUID
	// Parents are the path parameters above the resource, in path order.
	Parents []uuid.UUID
	// Action is the event's verb (created, updated, deleted, linked, published, ...).
	Action string
	// Changes is the JSON array of the changed fields (Diff).
	Changes []byte
}

// Stamped are the JSON fields that never count as changes: the entry itself carries the resource's
// uuid and the time, and updatedAt and etag are stamped by every write.
var Stamped = map[string]bool{"uuid": true, "createdAt": true, "updatedAt": true, "etag": true}

// Secret names fields whose values never appear in history: a change of one records the field
// without its values (a webhook subscription's rotated secret).
var Secret = map[string]bool{"secret": true}

// Diff is the JSON array of the fields that differ between before and after, two states of one
// resource as its API message ({"field", "before", "after"}, in the message's field order). A nil
// before is a create (only "after", fields that are null left out), a nil after a delete (only
// "before"). Fields of Stamped are left out.
func Diff(before, after proto.Message) ([]byte, error) {
	b, err := fieldsOf(before)
	if err != nil {
		return nil, err
	}
	a, err := fieldsOf(after)
	if err != nil {
		return nil, err
	}
	m := after
	if m == nil {
		m = before
	}
	out := make([]byte, 0, 256)
	out = append(out, '[')
	if m != nil {
		fs := m.ProtoReflect().Descriptor().Fields()
		for i := 0; i < fs.Len(); i++ {
			out = appendChange(out, fs.Get(i), b, a, before == nil, after == nil)
		}
	}
	return append(out, ']'), nil
}

// appendChange appends field fd's change, if any, to out (a JSON array being written).
func appendChange(out []byte, fd protoreflect.FieldDescriptor, b, a map[string]json.RawMessage, created, deleted bool) []byte {
	name := fd.JSONName()
	if Stamped[name] {
		return out
	}
	bv, av := orNull(b[name]), orNull(a[name])
	switch {
	case created && isNull(av), deleted && isNull(bv):
		return out
	case !created && !deleted && bytes.Equal(bv, av):
		return out
	}
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(out, `{"field":`...)
	out = jsonpb.AppendString(out, name)
	if !Secret[name] {
		if !created {
			out = append(append(out, `,"before":`...), bv...)
		}
		if !deleted {
			out = append(append(out, `,"after":`...), av...)
		}
	}
	return append(out, '}')
}

func orNull(v json.RawMessage) json.RawMessage {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}

func isNull(v json.RawMessage) bool { return string(v) == "null" }

// fieldsOf is m's API JSON by field (nil for a nil m).
func fieldsOf(m proto.Message) (map[string]json.RawMessage, error) {
	if m == nil || !m.ProtoReflect().IsValid() {
		return nil, nil
	}
	raw, err := jsonpb.Marshaler{}.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("history: %T is not a JSON object: %w", m, err)
	}
	return out, nil
}

// BenchOff is set by the environment variable CATALOG_BENCH_HISTORY_OFF=1, for `make bench` alone
// (bench/history: the same writes with and without their history): then no entry is compared or
// written. It is no setting of the service and documented nowhere else.
var BenchOff = os.Getenv("CATALOG_BENCH_HISTORY_OFF") == "1"

// SystemSubject is the actor of the scheduler's writes.
const SystemSubject = "system"

// Actor is the JSON actor of the writes under ctx: {"subject", "clientId"} from the caller's token,
// {"subject": "system"} for the scheduler, with "importUuid" for an import's lines.
func Actor(ctx context.Context) []byte {
	p := reqctx.PrincipalFrom(ctx)
	if p == nil {
		return []byte(`{"subject":"system"}`)
	}
	return p.Actor()
}

// Record writes the entries of one write with q, the writing transaction's queries; the actor and
// request id are ctx's, the time the statement's (InsertHistory). Writes with events record their
// entries with them instead (events.Record: one statement).
func Record(ctx context.Context, q *db.Queries, tenant string, entries []Entry) error {
	if len(entries) == 0 || BenchOff {
		return nil
	}
	return q.InsertHistory(ctx, Params(ctx, tenant, entries))
}

// Params are the columns of entries as InsertHistory (and InsertEvents) take them.
func Params(ctx context.Context, tenant string, entries []Entry) db.InsertHistoryParams {
	n := len(entries)
	p := db.InsertHistoryParams{TenantID: tenant, Uuids: make([]uuid.UUID, n), ResourceTypes: make([]string, n),
		ResourceUuids: make([]uuid.UUID, n), Parents: make([]string, n), Actions: make([]string, n),
		Changes: make([][]byte, n), Actor: Actor(ctx)}
	if id := reqctx.RequestID(ctx); id != "" {
		p.RequestID = &id
	}
	var sb strings.Builder
	for i, e := range entries {
		p.Uuids[i] = uuid.Must(uuid.NewV7())
		p.ResourceTypes[i], p.ResourceUuids[i], p.Actions[i], p.Changes[i] = e.ResourceType, e.Resource, e.Action, e.Changes
		sb.Reset()
		for j, id := range e.Parents {
			if j > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(id.String())
		}
		p.Parents[i] = sb.String()
	}
	return p
}
