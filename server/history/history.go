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
	// Changes is the JSON array of the changed fields (Diff), stored as it is (history.changes is
	// text: PostgreSQL never reads inside it).
	Changes string
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
	var d Differ
	return d.Append(nil, before, after)
}

// Differ is Diff for many entries (the up to 100 of a bulk write): it keeps its buffers from one
// to the next. Its zero value is ready; one Differ serves one goroutine.
type Differ struct {
	json, bjson []byte
	a, b        []field
}

// Append appends Diff(before, after) to dst.
func (d *Differ) Append(dst []byte, before, after proto.Message) ([]byte, error) {
	var err error
	if d.bjson, d.b, err = fieldsOf(d.bjson[:0], d.b[:0], before); err != nil {
		return nil, err
	}
	if d.json, d.a, err = fieldsOf(d.json[:0], d.a[:0], after); err != nil {
		return nil, err
	}
	b, a := d.b, d.a
	created, deleted := before == nil || !before.ProtoReflect().IsValid(), after == nil || !after.ProtoReflect().IsValid()
	if !created && !deleted && len(a) != len(b) {
		return nil, fmt.Errorf("history: %T and %T are not one resource's states", before, after)
	}
	dst = append(dst, '[')
	first := len(dst)
	n := max(len(a), len(b))
	for i := range n {
		var name, bv, av []byte
		switch {
		case created:
			name, bv, av = a[i].name, null, a[i].value
		case deleted:
			name, bv, av = b[i].name, b[i].value, null
		default:
			if !bytes.Equal(b[i].name, a[i].name) {
				return nil, fmt.Errorf("history: %T and %T are not one resource's states", before, after)
			}
			name, bv, av = a[i].name, b[i].value, a[i].value
		}
		dst = appendChange(dst, len(dst) > first, name, bv, av, created, deleted)
	}
	return append(dst, ']'), nil
}

var null = []byte("null")

// appendChange appends field name's change, if any, to out (a JSON array being written; comma
// when it already has a change).
func appendChange(out []byte, comma bool, name, bv, av []byte, created, deleted bool) []byte {
	if Stamped[string(name)] {
		return out
	}
	switch {
	case created && isNull(av), deleted && isNull(bv):
		return out
	case !created && !deleted && bytes.Equal(bv, av):
		return out
	}
	if comma {
		out = append(out, ',')
	}
	// The codec's names are plain (no escapes): written as they are.
	out = append(out, `{"field":"`...)
	out = append(out, name...)
	out = append(out, '"')
	if !Secret[string(name)] {
		if !created {
			out = append(append(out, `,"before":`...), bv...)
		}
		if !deleted {
			out = append(append(out, `,"after":`...), av...)
		}
	}
	return append(out, '}')
}

func isNull(v []byte) bool { return string(v) == "null" }

// field is one top-level member of a message's API JSON (slices of that JSON).
type field struct {
	name, value []byte
}

// fieldsOf appends m's API JSON to buf and its members to fs, in the order the codec writes them
// (every field of the message, null when unset: one message type always gives the same names in
// the same order); none for a nil m.
func fieldsOf(buf []byte, fs []field, m proto.Message) ([]byte, []field, error) {
	if m == nil || !m.ProtoReflect().IsValid() {
		return buf, fs, nil
	}
	buf, err := jsonpb.AppendMessage(buf, m)
	if err != nil {
		return buf, fs, err
	}
	fs, err = members(fs, buf)
	return buf, fs, err
}

// members appends the members of raw, a JSON object written by the codec, to out without decoding
// the values: the codec's names are plain (no escapes), and a value ends at the first comma or
// closing brace outside strings, arrays and objects.
func members(out []field, raw []byte) ([]field, error) {
	bad := func() error { return fmt.Errorf("history: not a JSON object: %.60s", raw) }
	if len(raw) < 2 || raw[0] != '{' || raw[len(raw)-1] != '}' {
		return nil, bad()
	}
	i, end := 1, len(raw)-1
	for i < end {
		if raw[i] != '"' {
			return nil, bad()
		}
		k := bytes.IndexByte(raw[i+1:end], '"')
		if k < 0 || i+k+2 >= end || raw[i+k+2] != ':' {
			return nil, bad()
		}
		name := raw[i+1 : i+1+k]
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
		Changes: make([]string, n), Actor: Actor(ctx)}
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
