package crud

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Operations across collections: the API's bulk operations act on one collection (one parent:
// the path's productUuid); an import line writes the children of many parents at once. These
// run the family's own write path (its checks, statements, events) over items that each carry
// their scope, in one transaction (a savepoint of the caller's under store.WithTx). Their errors
// name items by their index in the call, as a bulk request's do ([i].field, uuids[i]).
//
// A family whose Insert reads each item's scope (Tx.ItemScope) declares Across and inserts all
// items with one statement; for the others the engine inserts the items of each scope in turn.

// Ops is a family's write path with its types erased: create, update, delete and move items of
// any collections, bodies as the family's API messages.
type Ops interface {
	// Kind names the resource in messages ("product", "product category").
	Kind() string
	// NewCreate and NewUpdate are empty create and update bodies (nil when the family has none).
	NewCreate() proto.Message
	NewUpdate() proto.Message
	// Machine is the family's lifecycle (nil without one).
	Machine() *lifecycle.Machine
	// Create creates items[i] in scopes[i]; the answer follows the items' order.
	Create(ctx context.Context, d *store.DB, scopes []Scope, items []proto.Message) ([]proto.Message, error)
	// Update applies items[i] in scopes[i]; changed[i] reports whether item i changed anything.
	Update(ctx context.Context, d *store.DB, scopes []Scope, items []proto.Message) (out []proto.Message, changed []bool, err error)
	// Delete deletes ids[i] of scopes[i].
	Delete(ctx context.Context, d *store.DB, scopes []Scope, ids []uuid.UUID) error
	// Move applies transition to ids[i] of scopes[i]; moved[i] reports whether item i moved.
	Move(ctx context.Context, d *store.DB, scopes []Scope, transition string, ids []uuid.UUID) (moved []bool, err error)
	// Get reads item id of scope s as the family's reads show it, in the transaction of ctx
	// when there is one (store.WithTx).
	Get(ctx context.Context, d *store.DB, s Scope, id uuid.UUID) (proto.Message, error)
}

// Ops returns the family's write path as Ops.
func (f *Family[R, M, C, U]) Ops() Ops { return erased[R, M, C, U]{f} }

type erased[R, M, C, U any] struct{ f *Family[R, M, C, U] }

func (e erased[R, M, C, U]) Kind() string { return e.f.Kind }

func (e erased[R, M, C, U]) NewCreate() proto.Message { return newMessage[C]() }

func (e erased[R, M, C, U]) NewUpdate() proto.Message { return newMessage[U]() }

func (e erased[R, M, C, U]) Machine() *lifecycle.Machine {
	if e.f.Lifecycle == nil {
		return nil
	}
	return &e.f.Lifecycle.Machine
}

// newMessage is a new empty message of type T (a pointer to a generated message), or nil.
func newMessage[T any]() proto.Message {
	var zero T
	m, ok := any(zero).(proto.Message)
	if !ok {
		return nil
	}
	return m.ProtoReflect().Type().New().Interface()
}

func typed[T any](ms []proto.Message) ([]T, error) {
	out := make([]T, len(ms))
	for i, m := range ms {
		t, ok := m.(T)
		if !ok {
			return nil, fmt.Errorf("crud: item %d is a %T", i, m)
		}
		out[i] = t
	}
	return out, nil
}

func erase[M any](ms []M) []proto.Message {
	out := make([]proto.Message, len(ms))
	for i, m := range ms {
		out[i], _ = any(m).(proto.Message)
	}
	return out
}

func (e erased[R, M, C, U]) Create(ctx context.Context, d *store.DB, scopes []Scope, items []proto.Message) ([]proto.Message, error) {
	cs, err := typed[C](items)
	if err != nil {
		return nil, err
	}
	out, err := e.f.create(ctx, d, scopes, cs, false)
	return erase(out), err
}

func (e erased[R, M, C, U]) Update(ctx context.Context, d *store.DB, scopes []Scope, items []proto.Message) ([]proto.Message, []bool, error) {
	us, err := typed[U](items)
	if err != nil {
		return nil, nil, err
	}
	out, changed, err := e.f.update(ctx, d, scopes, us, false)
	return erase(out), changed, err
}

func (e erased[R, M, C, U]) Delete(ctx context.Context, d *store.DB, scopes []Scope, ids []uuid.UUID) error {
	return e.f.deleteIn(ctx, d, scopes, ids)
}

func (e erased[R, M, C, U]) Get(ctx context.Context, d *store.DB, s Scope, id uuid.UUID) (proto.Message, error) {
	var out proto.Message
	err := run(ctx, d, s, func(t *Tx) error {
		r, err := e.f.GetOne(ctx, t.Q, t.Tenant, s, id)
		if store.IsNoRows(err) {
			return apierr.NotFoundf(e.f.Kind, id.String())
		} else if err != nil {
			return err
		}
		m, err := e.f.shown(ctx, t, r)
		out, _ = any(m).(proto.Message)
		return err
	})
	return out, err
}

func (e erased[R, M, C, U]) Move(ctx context.Context, d *store.DB, scopes []Scope, transition string, ids []uuid.UUID) ([]bool, error) {
	return e.f.moveIn(ctx, d, scopes, transition, ids)
}

// ItemScope is the scope of item i of the write: its own in an operation across collections, the
// request's otherwise.
func (t *Tx) ItemScope(i int) Scope {
	if t.scopes != nil {
		return t.scopes[i]
	}
	return t.Scope
}

// group is the positions, in an operation across collections, of the items of one scope.
type group struct {
	scope Scope
	at    []int
}

// groupByScope splits positions 0…n-1 by their scope's parent, in order of first appearance.
func groupByScope(scopes []Scope) []group {
	var out []group
	by := map[uuid.UUID]int{}
	for i, s := range scopes {
		g, ok := by[s.Parent]
		if !ok {
			g = len(out)
			by[s.Parent] = g
			out = append(out, group{scope: s})
		}
		out[g].at = append(out[g].at, i)
	}
	return out
}

func pick[T any](xs []T, at []int) []T {
	out := make([]T, len(at))
	for k, i := range at {
		out[k] = xs[i]
	}
	return out
}

// itemField matches an item's position in a field name: "[3].code", "uuids[3]".
var itemField = regexp.MustCompile(`^(uuids)?\[(\d+)\]`)

// renumber rewrites the item positions of err's fields from a group's (k) to the call's (at[k]).
func renumber(err error, at []int) error {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return err
	}
	for j, fv := range ae.Fields {
		m := itemField.FindStringSubmatchIndex(fv.Field)
		if m == nil {
			continue
		}
		k, _ := strconv.Atoi(fv.Field[m[4]:m[5]])
		if k < len(at) {
			ae.Fields[j].Field = fv.Field[:m[4]] + strconv.Itoa(at[k]) + fv.Field[m[5]:]
		}
	}
	return err
}

// deleteIn deletes ids[i] of scopes[i] in one transaction; a delete that a foreign key refuses is
// 409 IN_USE naming the item ([i]), like Delete's.
func (f *Family[R, M, C, U]) deleteIn(ctx context.Context, d *store.DB, scopes []Scope, ids []uuid.UUID) error {
	var refusedAt = -1
	var r *refused
	err := f.write(ctx, d, scopes[0], func(t *Tx) error {
		for i, id := range ids {
			t.Scope = scopes[i]
			if f.CheckDelete != nil {
				row, err := f.GetOne(ctx, t.Q, t.Tenant, t.Scope, id)
				if store.IsNoRows(err) {
					return apierr.NotFoundf(f.Kind, id.String()).WithField(FieldName("uuid", i, false), "not found")
				} else if err != nil {
					return err
				}
				if err := f.CheckDelete(row); err != nil {
					return renumber(withItem(err, i), []int{i})
				}
			}
			err := f.deleteRow(ctx, t, id, func() error {
				return apierr.NotFoundf(f.Kind, id.String()).WithField(FieldName("uuid", i, false), "not found")
			})
			if err != nil {
				refusedAt = i
				return err
			}
		}
		return nil
	})
	if errors.As(err, &r) {
		e := inUse(ctx, d, reqctx.Tenant(ctx), f.Kind, ids[refusedAt].String(), ids[refusedAt], r.constraint)
		return withItem(e, refusedAt)
	}
	return err
}

// withItem names item i on an error that names no field.
func withItem(err error, i int) error {
	var ae *apierr.Error
	if errors.As(err, &ae) && len(ae.Fields) == 0 {
		ae.WithField("["+strconv.Itoa(i)+"]", ae.Detail)
	}
	return err
}

// moveIn applies transition to ids[i] of scopes[i] in one transaction, scope by scope.
func (f *Family[R, M, C, U]) moveIn(ctx context.Context, d *store.DB, scopes []Scope, transition string, ids []uuid.UUID) ([]bool, error) {
	if f.Lifecycle == nil {
		return nil, fmt.Errorf("crud: %s has no lifecycle", f.Kind)
	}
	moved := make([]bool, len(ids))
	err := f.write(ctx, d, scopes[0], func(t *Tx) error {
		for _, g := range groupByScope(scopes) {
			t.Scope = g.scope
			gids := pick(ids, g.at)
			raw := make([]string, len(gids))
			for k, id := range gids {
				raw[k] = id.String()
			}
			_, changed, err := f.move(ctx, t, transition, gids, raw, false)
			if err != nil {
				return renumber(err, g.at)
			}
			did := make(map[uuid.UUID]bool, len(changed))
			for _, id := range changed {
				did[id] = true
			}
			for k, i := range g.at {
				moved[i] = did[gids[k]]
			}
		}
		return nil
	})
	return moved, err
}

// eventBuffer holds the events of the writes under a context from HoldEvents.
type eventBuffer struct{ evs []events.Event }

type eventBufferKey struct{}

// HoldEvents is ctx under which the engine's writes keep their events instead of recording each
// write's with a statement of its own; RecordHeld records them all, in the order they were
// emitted, with one statement. For a caller that makes many writes in one transaction of its
// own (an import line): it must call RecordHeld in that transaction before it commits, and
// drop the context if the transaction rolls back. The events, their order and their
// transaction are the same as without it.
func HoldEvents(ctx context.Context) context.Context {
	return context.WithValue(ctx, eventBufferKey{}, &eventBuffer{})
}

// RecordHeld records the events held under ctx (see HoldEvents) with q, the transaction's
// queries, at the context's time.
func RecordHeld(ctx context.Context, q *db.Queries) error {
	return events.Record(ctx, q, reqctx.Tenant(ctx), store.NowFor(ctx), TakeHeld(ctx))
}

// heldEvents is how many events ctx holds (HoldEvents); dropHeldEvents drops those after the
// first n, for a write rolled back to a savepoint.
func heldEvents(ctx context.Context) int {
	if b, _ := ctx.Value(eventBufferKey{}).(*eventBuffer); b != nil {
		return len(b.evs)
	}
	return 0
}

func dropHeldEvents(ctx context.Context, n int) {
	if b, _ := ctx.Value(eventBufferKey{}).(*eventBuffer); b != nil && len(b.evs) > n {
		b.evs = b.evs[:n]
	}
}

// TakeHeld answers the events held under ctx (see HoldEvents) in the order they were emitted, and
// holds none after: for a caller that records them itself (lines applied together tell each event
// to its line and record them line after line).
func TakeHeld(ctx context.Context) []events.Event {
	b, _ := ctx.Value(eventBufferKey{}).(*eventBuffer)
	if b == nil {
		return nil
	}
	evs := b.evs
	b.evs = nil
	return evs
}
