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
	"fmt"
	"os"
	"strings"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"

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
// resource as its API message ({"field", "before", "after"}, in the order the API writes them). A
// nil before is a create (only "after", fields that are null left out), a nil after a delete (only
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
	created, deleted := b == nil, a == nil
	if created {
		b = make([]field, len(a))
	} else if deleted {
		a = make([]field, len(b))
	} else if len(a) != len(b) {
		return nil, fmt.Errorf("history: %T and %T are not one resource's states", before, after)
	}
	out := make([]byte, 0, 256)
	out = append(out, '[')
	for i := range a {
		name := a[i].name
		if deleted {
			name = b[i].name
		} else if !created && b[i].name != name {
			return nil, fmt.Errorf("history: %T and %T are not one resource's states", before, after)
		}
		out = appendChange(out, name, orNull(b[i].value), orNull(a[i].value), created, deleted)
	}
	return append(out, ']'), nil
}

// appendChange appends field name's change, if any, to out (a JSON array being written).
func appendChange(out []byte, name string, bv, av []byte, created, deleted bool) []byte {
	if Stamped[name] {
		return out
	}
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

func orNull(v []byte) []byte {
	if v == nil {
		return []byte("null")
	}
	return v
}

func isNull(v []byte) bool { return string(v) == "null" }

// field is one top-level member of a message's API JSON.
type field struct {
	name  string
	value []byte
}

// fieldsOf is m's API JSON member by member, in the order the codec writes them (every field of
// the message, null when unset: one message type always gives the same names in the same order);
// nil for a nil m.
func fieldsOf(m proto.Message) ([]field, error) {
	if m == nil || !m.ProtoReflect().IsValid() {
		return nil, nil
	}
	raw, err := jsonpb.Marshaler{}.Marshal(m)
	if err != nil {
		return nil, err
	}
	return members(raw)
}

// members splits a JSON object written by the codec into its members without decoding the values:
// the codec's names are plain (no escapes), and a value ends at the first comma or closing brace
// outside strings, arrays and objects.
func members(raw []byte) ([]field, error) {
	bad := fmt.Errorf("history: not a JSON object: %.60s", raw)
	if len(raw) < 2 || raw[0] != '{' || raw[len(raw)-1] != '}' {
		return nil, bad
	}
	out := make([]field, 0, 16)
	i, end := 1, len(raw)-1
	for i < end {
		if raw[i] != '"' {
			return nil, bad
		}
		k := bytes.IndexByte(raw[i+1:end], '"')
		if k < 0 || i+k+2 >= end || raw[i+k+2] != ':' {
			return nil, bad
		}
		name := string(raw[i+1 : i+1+k])
		start := i + k + 3
		j, depth, inString := start, 0, false
		for ; j < end; j++ {
			c := raw[j]
			switch {
			case inString:
				if c == '\\' {
					j++
				} else if c == '"' {
					inString = false
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
			case c == ',' && depth == 0:
				goto done
			}
		}
	done:
		out = append(out, field{name, raw[start:j]})
		i = j + 1
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
