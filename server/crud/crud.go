// Package crud is the one implementation of create, bulk create, update, bulk update, get, delete
// and lifecycle moves for every family: validation with bulk item indexes, one transaction per
// request, one INSERT for a whole bulk with conflicts reported per item, the events of every change,
// and the errors of DESIGN.md. A family declares a Family value: its checks, conversions and sqlc
// calls; the engine does the rest.
package crud

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Scope locates a sub-resource's collection: its parent row and the payload keys that name the
// parents in events ("attributeUuid", "…"). The zero Scope is a top-level collection.
//
// Err carries a failure to resolve the scope (an unknown parent: 404), so that a family's RPC can
// pass a resolved scope straight to the engine: every operation returns Err first.
type Scope struct {
	Parent uuid.UUID
	Keys   []string
	Err    error
}

// Tx is what family callbacks run on: the transaction's queries and the caller's tenant.
type Tx struct {
	Q *db.Queries
	// Conn is the transaction itself, for the few generic statements that are not sqlc's.
	Conn   pgx.Tx
	Tenant string
	Scope  Scope
	Now    time.Time
	// Single is true for a single-item operation (field names without a bulk index).
	Single bool
	// moves are the uuids of a lifecycle request, in request order (MoveField names them).
	moves []uuid.UUID
	// scopes are the items' own scopes in an operation across collections of an Across family
	// (ItemScope).
	scopes []Scope
	events []events.Event
}

// MoveField names field of the item id of a lifecycle move: field itself in a single move,
// `uuids[i].field` in a bulk one (i: the first position of id in the request's uuids).
func (t *Tx) MoveField(id uuid.UUID, field string) string {
	if !t.Single {
		for i, x := range t.moves {
			if x == id {
				return fmt.Sprintf("uuids[%d].%s", i, field)
			}
		}
	}
	return field
}

// Emit adds an event beyond the engine's own (e.g. locale.updated for the locale that stopped being
// the default).
func (t *Tx) Emit(e ...events.Event) { t.events = append(t.events, e...) }

// Family declares a resource family. R is its sqlc row, M its API message, C its create body, U its
// update body.
type Family[R any, M any, C any, U any] struct {
	// Kind names the resource in messages ("attribute", "term").
	Kind string
	// Event is the event name prefix ("attribute", "attribute.term").
	Event string
	// IDKey is the path parameter naming one item, also its event payload key ("termUuid").
	IDKey string
	// Unique is the JSON name of the field whose uniqueness conflicts are reported ("code").
	Unique string
	// CreatedVerb and DeletedVerb override the event verbs of create and delete ("linked" and
	// "unlinked" for associations); empty means "created" and "deleted".
	CreatedVerb, DeletedVerb string
	// References maps foreign-key constraint names onto the JSON field that holds the reference,
	// so a write naming a missing resource is a 404 naming that field.
	References map[string]string

	ID   func(R) uuid.UUID
	ToPB func(R) M

	// CheckCreate validates a create body beyond its request rules ((catalog.v1.rules), checked
	// for every RPC before it runs: lengths, required fields, bounds, uuids); v names fields with
	// the bulk index. It returns the value of the unique field, for conflict messages.
	CheckCreate func(v apierr.Validator, c C) string
	// Insert writes every item in one statement, skipping conflicting ones (ON CONFLICT DO NOTHING).
	Insert func(ctx context.Context, t *Tx, ids []uuid.UUID, items []C) ([]R, error)
	// AfterCreate (optional) runs in the transaction after the insert and may return changed rows.
	AfterCreate func(ctx context.Context, t *Tx, rows []R, items []C) ([]R, error)

	// UpdateID is the uuid an update body names.
	UpdateID func(U) string
	// CheckUpdate (optional) validates an update body beyond its request rules.
	CheckUpdate func(v apierr.Validator, u U)
	// UpdateOne changes one row (store.IsNoRows when it does not exist in the scope).
	UpdateOne func(ctx context.Context, t *Tx, id uuid.UUID, u U) (R, error)
	// AfterUpdate (optional) runs after each row's update; field names the item's fields.
	AfterUpdate func(ctx context.Context, t *Tx, r R, u U, field func(string) string) (R, error)

	// GetOne reads one row of the scope (store.IsNoRows when missing).
	GetOne func(ctx context.Context, q *db.Queries, tenant string, s Scope, id uuid.UUID) (R, error)
	// CheckDelete (optional) refuses a delete of an existing row (e.g. the default locale).
	CheckDelete func(r R) error
	// DeleteOne deletes one row of the scope and returns how many it deleted.
	DeleteOne func(ctx context.Context, t *Tx, id uuid.UUID) (int64, error)

	// Lifecycle, for families with a status.
	Lifecycle *Lifecycle[R]

	// Across: Insert and AfterCreate take items of several collections at once, each in its own
	// scope (Tx.ItemScope(i)); otherwise an operation across collections (Ops) runs them once per
	// collection.
	Across bool

	// Present (optional) is row r's message as the family's reads answer it, when that is more than
	// ToPB (a field derived from other rows: a product's featuredAssetUuid). The etag a conditional
	// write compares is computed on it (etag.go).
	Present func(ctx context.Context, t *Tx, r R) (M, error)

	// Prepare (optional) runs first in every write transaction (e.g. a lock that serialises a rule
	// spanning rows, such as the tenant's one default locale).
	Prepare func(ctx context.Context, t *Tx) error
	// Refresh (optional) re-reads the rows of ids at the end of a create or update, for families
	// where one item's write changes another's state (moving the default locale).
	Refresh func(ctx context.Context, t *Tx, ids []uuid.UUID) ([]R, error)
}

// Lifecycle declares a family's state machine and how to read and move its rows.
type Lifecycle[R any] struct {
	Machine lifecycle.Machine
	Status  func(R) string
	// Lock reads and locks the rows of ids in the scope (missing ones are simply absent).
	Lock func(ctx context.Context, t *Tx, ids []uuid.UUID) ([]R, error)
	// Set moves the rows of ids to status and returns them.
	Set func(ctx context.Context, t *Tx, ids []uuid.UUID, status string) ([]R, error)
}

func (f *Family[R, M, C, U]) event(verb string, s Scope, id uuid.UUID) events.Event {
	kv := append(append(make([]string, 0, len(s.Keys)+2), s.Keys...), f.IDKey, id.String())
	return events.New(f.Event+"."+verb, kv...)
}

// change is the event of a change of row id from before to after (nil: a create, or a delete),
// with the rows as the family's messages for its history entry.
func (f *Family[R, M, C, U]) change(verb string, s Scope, id uuid.UUID, before, after *R) events.Event {
	e := f.event(verb, s, id)
	if before != nil {
		e.Before = f.message(*before)
	}
	if after != nil {
		e.After = f.message(*after)
	}
	return e
}

// message is row r's message as a proto.Message.
func (f *Family[R, M, C, U]) message(r R) proto.Message {
	m, _ := any(f.ToPB(r)).(proto.Message)
	return m
}

// Changed is the event of a change of a row of this family that the engine's operations did not
// make (a family's own write, the scheduler's), carrying before and after (nil for a create or a
// delete) for its history entry.
func (f *Family[R, M, C, U]) Changed(verb string, s Scope, id uuid.UUID, before, after *R) events.Event {
	return f.change(verb, s, id, before, after)
}

// EventFor builds an event of this family for a row.
func (f *Family[R, M, C, U]) EventFor(verb string, s Scope, id uuid.UUID) events.Event {
	return f.event(verb, s, id)
}

// Checks are the family's own checks of its create and update bodies (CheckCreate, CheckUpdate)
// by message name. The request rules run them too when a request breaks a rule, so that one
// answer lists every violation (fields.Checks).
func (f *Family[R, M, C, U]) Checks() fields.Checks {
	out := fields.Checks{}
	var c C
	if m, ok := any(c).(proto.Message); ok && f.CheckCreate != nil {
		out[m.ProtoReflect().Descriptor().FullName()] = func(v apierr.Validator, m proto.Message) { f.CheckCreate(v, m.(C)) }
	}
	var u U
	if m, ok := any(u).(proto.Message); ok && f.CheckUpdate != nil {
		out[m.ProtoReflect().Descriptor().FullName()] = func(v apierr.Validator, m proto.Message) { f.CheckUpdate(v, m.(U)) }
	}
	return out
}

// write runs fn in one transaction of the family, after its Prepare hook.
func (f *Family[R, M, C, U]) write(ctx context.Context, d *store.DB, s Scope, fn func(t *Tx) error) error {
	return run(ctx, d, s, func(t *Tx) error {
		if f.Prepare != nil {
			if err := f.Prepare(ctx, t); err != nil {
				return err
			}
		}
		return fn(t)
	})
}

// refresh re-reads rows when the family asks for it.
func (f *Family[R, M, C, U]) refresh(ctx context.Context, t *Tx, ids []uuid.UUID, rows []R) ([]R, error) {
	if f.Refresh == nil {
		return rows, nil
	}
	return f.Refresh(ctx, t, ids)
}

// run executes fn in one transaction and records the events it collected.
func run(ctx context.Context, d *store.DB, s Scope, fn func(t *Tx) error) error {
	tenant := reqctx.Tenant(ctx)
	now := store.NowFor(ctx)
	return d.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		t := &Tx{Q: q, Conn: tx, Tenant: tenant, Scope: s, Now: now}
		if err := fn(t); err != nil {
			return err
		}
		if b, _ := ctx.Value(eventBufferKey{}).(*eventBuffer); b != nil {
			b.evs = append(b.evs, t.events...) // HoldEvents
			return nil
		}
		return events.RecordAtCommit(ctx, tx, tenant, now, t.events) // with the COMMIT: a round trip less
	})
}

// Write runs fn in a transaction of the caller's tenant and records the events fn emits; for
// family-specific writes that the engine's operations do not cover.
func Write(ctx context.Context, d *store.DB, s Scope, fn func(t *Tx) error) error {
	return run(ctx, d, s, fn)
}

func index(i int, single bool) int {
	if single {
		return -1
	}
	return i
}

// FieldName is a field's name in a single (`code`) or bulk (`[2].code`) request.
func FieldName(field string, i int, single bool) string {
	if single {
		return field
	}
	return "[" + strconv.Itoa(i) + "]." + field
}

// Create creates items (one for a single create) in one transaction; the response follows the
// request order. Items whose unique field already exists are 409 ALREADY_EXISTS naming each.
func (f *Family[R, M, C, U]) Create(ctx context.Context, d *store.DB, s Scope, items []C, single bool) ([]M, error) {
	return f.create(ctx, d, sameScope(s, len(items)), items, single)
}

// create is Create of items[i] in scopes[i] (one scope for all in an API call).
func (f *Family[R, M, C, U]) create(ctx context.Context, d *store.DB, scopes []Scope, items []C, single bool) ([]M, error) {
	for _, s := range scopes {
		if s.Err != nil {
			return nil, s.Err
		}
	}
	v := apierr.NewValidator()
	ids := make([]uuid.UUID, len(items))
	uniq := make([]string, len(items))
	for i, c := range items {
		uniq[i] = f.CheckCreate(v.Item(index(i, single)), c)
		ids[i] = uuid.Must(uuid.NewV7())
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	groups := []group{{scope: scopes[0], at: nil}}
	if f.Across || len(items) == 0 {
		groups[0].at = make([]int, len(items))
		for i := range items {
			groups[0].at[i] = i
		}
	} else {
		groups = groupByScope(scopes)
	}
	var rows []R
	attempt := func(plain bool) error {
		return f.write(ctx, d, scopes[0], func(t *Tx) error {
			t.Single = single
			rows = rows[:0]
			for _, g := range groups {
				t.Scope, t.scopes = g.scope, nil
				if f.Across {
					t.scopes = scopes
				}
				gids, gitems := pick(ids, g.at), pick(items, g.at)
				got, err := f.insert(ctx, t, gids, gitems, plain)
				if err != nil {
					if plain && isConflict(err) {
						return errConflict
					}
					return renumber(f.writeErr(err, 0, true), g.at)
				}
				if err := f.conflicts(gids, got, pick(uniq, g.at), single); err != nil {
					return renumber(err, g.at)
				}
				if f.AfterCreate != nil {
					if got, err = f.AfterCreate(ctx, t, got, gitems); err != nil {
						return renumber(err, g.at)
					}
				}
				rows = append(rows, got...)
			}
			t.Scope, t.scopes = scopes[0], nil
			var err error
			if rows, err = f.refresh(ctx, t, ids, rows); err != nil {
				return err
			}
			by := f.byID(rows)
			for i, id := range ids {
				r := by[id]
				t.Emit(f.change(or(f.CreatedVerb, "created"), scopes[i], id, nil, &r))
			}
			return nil
		})
	}
	err := attempt(true)
	if errors.Is(err, errConflict) {
		err = attempt(false) // as written: the conflicting items are skipped and named
	}
	if err != nil {
		return nil, err
	}
	return f.inOrder(ids, rows), nil
}

// A create first runs the family's insert without its ON CONFLICT DO NOTHING. Every family's insert
// statement ends in that clause (the shared pattern of db/queries: one statement for a whole bulk,
// an item whose unique field exists inserts nothing and is reported by name, see conflicts), but
// the speculative insertion behind it costs PostgreSQL a fifth of a bulk insert (100 attributes:
// 3.6 ms with the clause, 2.8 without). With no conflict, the usual case, both forms insert the
// same rows. A unique or exclusion violation rolls the attempt back (errConflict) and the create
// runs again as written, which reports the conflicting items exactly as it always did; any other
// error of the plain form is one the clause would not have skipped either (checks and NOT NULL
// come before the conflict test, foreign keys are checked after the rows go in, when a conflict
// would already have stopped the plain statement).
const skipConflicts = "\nON CONFLICT DO NOTHING\n"

// errConflict ends a plain attempt that met a conflict.
var errConflict = errors.New("crud: conflict in a plain insert")

// insert runs the family's Insert, with its statements in their plain form when plain is set.
func (f *Family[R, M, C, U]) insert(ctx context.Context, t *Tx, ids []uuid.UUID, items []C, plain bool) ([]R, error) {
	if !plain {
		return f.Insert(ctx, t, ids, items)
	}
	q := t.Q
	t.Q = db.New(Plain(t.Conn))
	defer func() { t.Q = q }()
	return f.Insert(ctx, t, ids, items)
}

// Plain runs statements on conn with their ON CONFLICT DO NOTHING taken out: the form of a
// create's first attempt (bench/load times the service's statements through it).
func Plain(conn db.DBTX) db.DBTX { return plainInserts{conn} }

type plainInserts struct{ conn db.DBTX }

func plainSQL(sql string) string { return strings.Replace(sql, skipConflicts, "\n", 1) }

func (p plainInserts) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	return p.conn.Exec(ctx, plainSQL(sql), args...)
}

func (p plainInserts) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return p.conn.Query(ctx, plainSQL(sql), args...)
}

func (p plainInserts) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return p.conn.QueryRow(ctx, plainSQL(sql), args...)
}

// isConflict reports a unique or exclusion violation (SQLSTATE 23P01): what ON CONFLICT DO NOTHING
// would have skipped.
func isConflict(err error) bool {
	code, _ := store.PgCode(err)
	return code == store.UniqueViolation || code == "23P01"
}

// conflicts reports the items a bulk insert skipped as ALREADY_EXISTS.
func (f *Family[R, M, C, U]) conflicts(ids []uuid.UUID, rows []R, uniq []string, single bool) error {
	got := make(map[uuid.UUID]bool, len(rows))
	for _, r := range rows {
		got[f.ID(r)] = true
	}
	v := apierr.NewValidator()
	for i, id := range ids {
		if !got[id] {
			v.Item(index(i, single)).Add(f.Unique, "%s with %s %q already exists", article(f.Kind), f.Unique, uniq[i])
		}
	}
	if err := v.Err(); err != nil {
		e := err.(*apierr.Error)
		e.Code = apierr.AlreadyExists
		return e
	}
	return nil
}

// byID maps rows by uuid; when a row appears twice the first one wins.
func (f *Family[R, M, C, U]) byID(rows []R) map[uuid.UUID]R {
	by := make(map[uuid.UUID]R, len(rows))
	for _, r := range rows {
		if _, seen := by[f.ID(r)]; !seen {
			by[f.ID(r)] = r
		}
	}
	return by
}

// inOrder converts rows into the order of ids; when a row appears twice the first one wins.
func (f *Family[R, M, C, U]) inOrder(ids []uuid.UUID, rows []R) []M {
	by := f.byID(rows)
	out := make([]M, 0, len(ids))
	for _, id := range ids {
		if r, ok := by[id]; ok {
			out = append(out, f.ToPB(r))
		}
	}
	return out
}

// Update changes items (one for a single update) in one transaction, in request order. An item
// that changes nothing (unchanged below) writes nothing: no new updatedAt, no event, the stored
// row is its answer.
func (f *Family[R, M, C, U]) Update(ctx context.Context, d *store.DB, s Scope, items []U, single bool) ([]M, error) {
	out, _, err := f.update(ctx, d, sameScope(s, len(items)), items, single)
	return out, err
}

// sameScope is n copies of s: the scopes of an API call's items, which share their collection.
func sameScope(s Scope, n int) []Scope {
	out := make([]Scope, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// update is Update over items whose collections are scopes[i] (the same for every item of an API
// call; an import's items belong to many parents). changed[i] reports whether item i wrote.
func (f *Family[R, M, C, U]) update(ctx context.Context, d *store.DB, scopes []Scope, items []U, single bool) (out []M, changed []bool, err error) {
	for _, s := range scopes {
		if s.Err != nil {
			return nil, nil, s.Err
		}
	}
	v := apierr.NewValidator()
	ids := make([]uuid.UUID, len(items))
	conds := make([]etag.Condition, len(items))
	for i, u := range items {
		iv := v.Item(index(i, single))
		if single {
			conds[i] = etag.FromContext(ctx) // If-Match or the body's etag (app/etag.go)
		} else {
			conds[i] = itemCondition(iv, u)
		}
		if m, ok := any(u).(proto.Message); ok {
			fields.ApplyMask(iv, m)
		}
		// Single: the path parameter, checked by the caller; bulk: required and a uuid by the
		// request rules.
		ids[i], _ = fields.ParseUUID(f.UpdateID(u))
		if f.CheckUpdate != nil {
			f.CheckUpdate(iv, u)
		}
	}
	// A uuid may repeat in a bulk (the items apply in order), but a later item of it cannot carry
	// an etag: every condition is compared before the first write, and the earlier item's write
	// changes the tag the later one names, which would then overwrite a state it never saw.
	first := make(map[uuid.UUID]int, len(ids))
	for i, id := range ids {
		if j, again := first[id]; again && id != uuid.Nil && conds[i].Given() {
			v.Item(index(i, single)).Add(etag.FieldName, "repeats the uuid of item [%d], whose write changes the tag: an item with an etag must come first for its uuid", j)
		} else if !again {
			first[id] = i
		}
	}
	if err := v.Err(); err != nil {
		return nil, nil, err
	}
	s := scopes[0]
	err = f.write(ctx, d, s, func(t *Tx) error {
		t.Single = single
		if err := f.checkUpdates(ctx, t, scopes, ids, conds, items, single); err != nil {
			return err
		}
		rows := make([]R, len(items))
		changed = make([]bool, len(items))
		for i, u := range items {
			t.Scope = scopes[i]
			r, did, err := f.updateOne(ctx, t, ids[i], scopes[i], u, func(n string) string { return FieldName(n, i, single) })
			if store.IsNoRows(err) {
				if single {
					return apierr.NotFoundf(f.Kind, f.UpdateID(u))
				}
				return apierr.NotFoundf(f.Kind, f.UpdateID(u)).WithField(FieldName("uuid", i, single), "not found")
			} else if err != nil {
				return f.writeErr(err, i, single)
			}
			rows[len(items)-1-i] = r // the latest write of an id wins in inOrder
			changed[i] = did
		}
		t.Scope = s
		rows, err := f.refresh(ctx, t, ids, rows)
		out = f.inOrder(ids, rows)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, changed, nil
}

// updateOne writes one update item unless it changes nothing (DESIGN.md "HTTP conventions": a
// write that changes nothing changes nothing). The row is read and locked first: when every field
// the body gives already holds its value (sameAsStored), nothing is written at all; otherwise the
// write runs in a savepoint and the row, read again, is compared with what was stored as the API
// shows them (shown: derived fields included, updatedAt and etag aside): a write whose outcome
// equals what was stored (a merge that sets what is there, a number given for the decimal stored
// as its text) is rolled back, its events with it. A write that changed the row emits its
// updated event with both states (its history entry).
func (f *Family[R, M, C, U]) updateOne(ctx context.Context, t *Tx, id uuid.UUID, s Scope, u U, field func(string) string) (R, bool, error) {
	old, err := f.lockOne(ctx, t, id)
	if err != nil {
		return old, false, err
	}
	if sameAsStored(any(u), any(f.ToPB(old))) {
		return old, false, nil
	}
	before, err := f.shown(ctx, t, old)
	if err != nil {
		return old, false, err
	}
	if _, err := t.Conn.Exec(ctx, "SAVEPOINT crud_update"); err != nil {
		return old, false, err
	}
	emitted, held := len(t.events), heldEvents(ctx)
	r, err := f.UpdateOne(ctx, t, id, u)
	if err == nil && f.AfterUpdate != nil {
		r, err = f.AfterUpdate(ctx, t, r, u, field)
	}
	var after M
	if err == nil {
		// Read again: AfterUpdate may change what the row's reads show (another table, a flag
		// set by a second statement) without returning it.
		if r, err = f.lockOne(ctx, t, id); err == nil {
			after, err = f.shown(ctx, t, r)
		}
	}
	if err != nil {
		return r, false, err // the caller's transaction rolls back
	}
	if sameMessage(any(before), any(after)) {
		t.events = t.events[:emitted]
		dropHeldEvents(ctx, held) // of writes AfterUpdate made through the engine
		_, err := t.Conn.Exec(ctx, "ROLLBACK TO SAVEPOINT crud_update")
		return old, false, err
	}
	e := f.event("updated", s, id)
	e.Before, _ = any(before).(proto.Message)
	e.After, _ = any(after).(proto.Message)
	t.Emit(e)
	_, err = t.Conn.Exec(ctx, "RELEASE SAVEPOINT crud_update")
	return r, true, err
}

// writeErr maps a unique violation onto 409 naming the item's unique field, a foreign-key
// violation onto 404, and a CHECK violation or a value out of a column's range onto 400: the
// services validate every rule before writing, so these are the database's safety net, and bad
// input still never becomes a 500. No constraint name or database message reaches the client.
func (f *Family[R, M, C, U]) writeErr(err error, i int, single bool) error {
	code, constraint := store.PgCode(err)
	switch code {
	case store.UniqueViolation:
		name := FieldName(f.Unique, i, single)
		return apierr.New(apierr.AlreadyExists, "%s with this %s already exists", article(f.Kind), f.Unique).WithField(name, "already exists")
	case store.ForeignKeyViolation:
		e := apierr.New(apierr.NotFound, "a referenced resource does not exist")
		if field, ok := f.References[constraint]; ok {
			e.Detail = FieldName(field, i, single) + ": not found"
			e.WithField(FieldName(field, i, single), "not found")
		}
		return e
	case store.CheckViolation:
		// The constraint's name is the schema's, not the API's: the detail stays generic.
		return apierr.New(apierr.ValidationFailed, "the request breaks a rule of the %s", f.Kind)
	case store.StringTooLong, store.NumericOutOfRange:
		// PostgreSQL's message names column types and limits: it stays in the logs.
		return apierr.New(apierr.ValidationFailed, "a value of the %s is too long or out of range", f.Kind)
	}
	return err
}

// ParseID checks a path parameter uuid.
func (f *Family[R, M, C, U]) ParseID(raw string) (uuid.UUID, error) { return fields.UUID(f.IDKey, raw) }

// Get reads one item of the scope by its path parameter.
func (f *Family[R, M, C, U]) Get(ctx context.Context, d *store.DB, s Scope, raw string) (R, error) {
	var zero R
	if s.Err != nil {
		return zero, s.Err
	}
	id, err := f.ParseID(raw)
	if err != nil {
		return zero, err
	}
	r, err := f.GetOne(ctx, d.Q, reqctx.Tenant(ctx), s, id)
	if store.IsNoRows(err) {
		return zero, apierr.NotFoundf(f.Kind, raw)
	}
	return r, err
}

// Delete deletes one item permanently; an item still referenced is 409 IN_USE.
func (f *Family[R, M, C, U]) Delete(ctx context.Context, d *store.DB, s Scope, raw string) error {
	if s.Err != nil {
		return s.Err
	}
	id, err := f.ParseID(raw)
	if err != nil {
		return err
	}
	cond := etag.FromContext(ctx)
	err = f.write(ctx, d, s, func(t *Tx) error {
		if f.CheckDelete != nil || cond.Given() {
			var r R
			var err error
			if cond.Given() {
				r, err = f.lockOne(ctx, t, id)
			} else {
				r, err = f.GetOne(ctx, t.Q, t.Tenant, s, id)
			}
			if store.IsNoRows(err) {
				return apierr.NotFoundf(f.Kind, raw)
			} else if err != nil {
				return err
			}
			if cond.Given() {
				cur, err := f.tagOf(ctx, t, r)
				if err != nil {
					return err
				}
				if !cond.Match(cur) {
					return etag.Failed(f.Kind, raw, cur)
				}
			}
			if f.CheckDelete != nil {
				if err := f.CheckDelete(r); err != nil {
					return err
				}
			}
		}
		return f.deleteRow(ctx, t, id, func() error { return apierr.NotFoundf(f.Kind, raw) })
	})
	var r *refused
	if errors.As(err, &r) {
		// Which kinds still refer to the item is read once the refused transaction is over.
		return inUse(ctx, d, reqctx.Tenant(ctx), f.Kind, raw, id, r.constraint)
	}
	return err
}

// deleteRow deletes row id of t's scope and records its event: a foreign key's refusal is
// *refused (Delete and deleteIn read who refers once the transaction is over), a row that is not
// there notFound().
func (f *Family[R, M, C, U]) deleteRow(ctx context.Context, t *Tx, id uuid.UUID, notFound func() error) error {
	// The row as it was, for the history entry (a missing one: the delete below deletes nothing).
	old, err := f.GetOne(ctx, t.Q, t.Tenant, t.Scope, id)
	if err != nil && !store.IsNoRows(err) {
		return err
	}
	n, err := f.DeleteOne(ctx, t, id)
	if err != nil {
		if code, constraint := store.PgCode(err); code == store.ForeignKeyViolation {
			return &refused{constraint: constraint}
		}
		return err
	}
	if n == 0 {
		return notFound()
	}
	t.Emit(f.change(or(f.DeletedVerb, "deleted"), t.Scope, id, &old, nil))
	return nil
}

// refused carries a delete that a foreign key refused out of its transaction.
type refused struct{ constraint string }

func (r *refused) Error() string { return "delete refused by " + r.constraint }

// Transition moves items (one for a single move) through the lifecycle, atomically: an unknown
// uuid is 404, a disallowed move 409, and then nothing changes; same-state moves are no-ops
// without events. The transition is the short name ("publish"). The request rules have checked
// that a transition is given and that raw holds 1 to 100 uuids.
func (f *Family[R, M, C, U]) Transition(ctx context.Context, d *store.DB, s Scope, transition string, raw []string, single bool) ([]M, error) {
	if s.Err != nil {
		return nil, s.Err
	}
	ids := make([]uuid.UUID, len(raw))
	for i, r := range raw {
		ids[i], _ = fields.ParseUUID(r) // the path parameter (checked by the caller) or uuids[i] (the request rules)
	}
	var out []M
	err := f.write(ctx, d, s, func(t *Tx) error {
		rows, _, err := f.move(ctx, t, transition, ids, raw, single)
		out = f.inOrder(ids, rows)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// move applies transition to the rows of ids (raw: as the request gave them) in t's scope: each
// is locked, its condition compared, its move checked; the rows that change are set to the target
// status with their events. It returns the rows (moved ones first) and the uuids that moved.
func (f *Family[R, M, C, U]) move(ctx context.Context, t *Tx, transition string, ids []uuid.UUID, raw []string, single bool) ([]R, []uuid.UUID, error) {
	lc := f.Lifecycle
	t.Single, t.moves = single, ids
	cur, err := lc.Lock(ctx, t, ids)
	if err != nil {
		return nil, nil, err
	}
	by := make(map[uuid.UUID]R, len(cur))
	for _, r := range cur {
		by[f.ID(r)] = r
	}
	if err := f.checkMoves(ctx, t, by, ids, raw, single); err != nil {
		return nil, nil, err
	}
	var changed []uuid.UUID
	seen := map[uuid.UUID]bool{}
	to, verb := "", ""
	for i, id := range ids {
		r, ok := by[id]
		if !ok {
			if single {
				return nil, nil, apierr.NotFoundf(f.Kind, raw[i])
			}
			return nil, nil, apierr.NotFoundf(f.Kind, raw[i]).WithField(fmt.Sprintf("uuids[%d]", i), "not found")
		}
		res, err := lc.Machine.Apply(lc.Status(r), transition)
		if err != nil {
			if e, ok := err.(*apierr.Error); ok && !single {
				e.Detail = f.Kind + " " + raw[i] + ": " + e.Detail
				e.WithField(fmt.Sprintf("uuids[%d]", i), e.Detail)
			}
			return nil, nil, err
		}
		if res.Changed && !seen[id] {
			seen[id] = true
			changed = append(changed, id)
			to, verb = res.To, res.Event
		}
	}
	if len(changed) == 0 {
		return cur, nil, nil
	}
	moved, err := lc.Set(ctx, t, changed, to)
	if err != nil {
		return nil, nil, err
	}
	after := f.byID(moved)
	for _, id := range changed {
		b, a := by[id], after[id]
		t.Emit(f.change(verb, t.Scope, id, &b, &a))
	}
	return append(moved, cur...), changed, nil // moved rows win in inOrder
}

// One is the single item of a one-item operation's result.
func One[M any](out []M, err error) (M, error) {
	if err != nil || len(out) == 0 {
		var zero M
		return zero, err
	}
	return out[0], nil
}

// The RPC helpers below are what a family's gRPC methods call: each method is then one line over
// its request and response types.

// CreateOne creates one item (POST on the collection).
func (f *Family[R, M, C, U]) CreateOne(ctx context.Context, d *store.DB, s Scope, c C) (M, error) {
	return One(f.Create(ctx, d, s, []C{c}, true))
}

// CreateMany creates 1 to 100 items atomically (POST …/bulk).
func (f *Family[R, M, C, U]) CreateMany(ctx context.Context, d *store.DB, s Scope, items []C) ([]M, error) {
	if s.Err != nil {
		return nil, s.Err
	}
	return f.Create(ctx, d, s, items, false)
}

// UpdateAt updates the item of path parameter raw with body u (PATCH …/{uuid}); an empty body
// changes nothing but updatedAt.
func (f *Family[R, M, C, U]) UpdateAt(ctx context.Context, d *store.DB, s Scope, raw string, u U) (M, error) {
	var zero M
	if s.Err != nil {
		return zero, s.Err
	}
	if _, err := f.ParseID(raw); err != nil {
		return zero, err
	}
	m, ok := any(u).(proto.Message)
	if !ok {
		return zero, fmt.Errorf("crud: update body %T is not a message", u)
	}
	r := m.ProtoReflect()
	if !r.IsValid() {
		r = r.Type().New()
		u = r.Interface().(U)
	}
	if fd := r.Descriptor().Fields().ByName("uuid"); fd != nil {
		// The path names the item; a body uuid may repeat it but never name another one.
		if given := r.Get(fd).String(); given != "" && !strings.EqualFold(given, raw) {
			return zero, apierr.Field("uuid", "must be absent or the uuid of the path")
		}
		r.Set(fd, protoreflect.ValueOfString(raw))
	}
	return One(f.Update(ctx, d, s, []U{u}, true))
}

// UpdateMany updates 1 to 100 items atomically (PATCH …/bulk).
func (f *Family[R, M, C, U]) UpdateMany(ctx context.Context, d *store.DB, s Scope, items []U) ([]M, error) {
	if s.Err != nil {
		return nil, s.Err
	}
	return f.Update(ctx, d, s, items, false)
}

// TransitionAt moves the item of path parameter raw (PATCH …/{uuid}/actions/lifecycle).
func (f *Family[R, M, C, U]) TransitionAt(ctx context.Context, d *store.DB, s Scope, raw string, t protoreflect.Enum) (M, error) {
	var zero M
	if s.Err != nil { // the parent's 404 before the item's path parameter, as in Get
		return zero, s.Err
	}
	if _, err := f.ParseID(raw); err != nil {
		return zero, err
	}
	return One(f.Transition(ctx, d, s, EnumName(t), []string{raw}, true))
}

// TransitionMany moves 1 to 100 items atomically (PATCH …/bulk/actions/lifecycle).
func (f *Family[R, M, C, U]) TransitionMany(ctx context.Context, d *store.DB, s Scope, t protoreflect.Enum, raw []string) ([]M, error) {
	return f.Transition(ctx, d, s, EnumName(t), raw, false)
}

// EnumName is the short lower-case name of an enum value (publish ← ATTRIBUTE_TRANSITION_PUBLISH),
// as the JSON codec writes it, or "" for the zero value.
func EnumName(e protoreflect.Enum) string {
	name, _ := jsonpb.EnumString(e.Descriptor(), e.Number())
	return name
}

// GetAt reads the item of path parameter raw as its message.
func (f *Family[R, M, C, U]) GetAt(ctx context.Context, d *store.DB, s Scope, raw string) (M, error) {
	r, err := f.Get(ctx, d, s, raw)
	if err != nil {
		var zero M
		return zero, err
	}
	return f.ToPB(r), nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// RequireRefs parses the reference field of each item (already validated as a uuid by the
// family's CheckCreate) and checks, like RequireExisting, that each names a row of table in the
// caller's tenant (404 naming field with the item's index). It returns the uuids in item order.
func RequireRefs[C any](ctx context.Context, t *Tx, table, field string, items []C, ref func(C) string) ([]uuid.UUID, error) {
	out := make([]uuid.UUID, len(items))
	ptrs := make([]*uuid.UUID, len(items))
	for i, c := range items {
		out[i] = uuid.MustParse(ref(c))
		ptrs[i] = &out[i]
	}
	return out, RequireExisting(ctx, t, table, field, ptrs)
}

// RequireExisting checks, inside a write, that every non-nil id names a row of table in the
// caller's tenant; the first missing one is a 404 naming field (with the bulk index). table is a
// constant of the calling family, never input.
func RequireExisting(ctx context.Context, t *Tx, table, field string, ids []*uuid.UUID) error {
	want := make([]uuid.UUID, 0, len(ids))
	for _, id := range ids {
		if id != nil {
			want = append(want, *id)
		}
	}
	if len(want) == 0 {
		return nil
	}
	rows, err := t.Conn.Query(ctx, "SELECT uuid FROM "+table+" WHERE tenant_id = $1 AND uuid = ANY($2)", t.Tenant, want)
	if err != nil {
		return err
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	if err != nil {
		return err
	}
	have := make(map[uuid.UUID]bool, len(found))
	for _, f := range found {
		have[f] = true
	}
	for i, id := range ids {
		if id != nil && !have[*id] {
			return apierr.New(apierr.NotFound, "%s %s does not exist", field, id).WithField(FieldName(field, i, t.Single), "not found")
		}
	}
	return nil
}

// article is kind with its indefinite article: "an attribute", "a locale".
func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}
