package transfer

// Lines applied together (issue 26, Speed): the lines of a batch run the same code as a line
// applied alone (apply: its lookups, its sets, maps, lists and merges, its moves), each in a lane
// of its own, but their family writes are not sent one line at a time. A lane that reaches a
// write (crud.Ops Create, Update, Delete, Move) waits there; once every lane waits or is done,
// the waiting writes of one family and one kind go to that family's write path in ONE call with
// the items of all the lanes, each item with its own scope (the path the bulk API and
// Family.Across use: one INSERT or UPDATE for all, one run of each check, one trigger run), and
// each lane goes on with its own part of the answer. The rules are the families' own, run once
// for many items as a bulk request runs them; nothing here checks anything of its own.
//
// Lanes run one at a time (a lane runs until it waits or ends, then the next), so the
// transaction is never used by two at once and every run is deterministic. Lines that touch each
// other's codes never run side by side: a line whose JSON strings name a code another line of
// the batch defines (its own, or its list's children's codes: Importer.Defines), or that defines
// a code the other names, starts only once that line is done, so it sees that line's writes as
// it would after it. Lines that name no code of each other can be written in any order: what
// remains between them is what a bulk request of their items meets (uniqueness, a variant's axis
// twins), and the families check that over the whole call.
//
// All or nothing: the batch's lines are applied together in one savepoint, and when anything
// fails (a line's own error, a family's write refusing the call, an event that cannot be told to
// one line), the savepoint is rolled back and the caller applies the lines one by one as before,
// so a failing line fails exactly as it did and the others are applied. The events of the
// batch's writes are recorded with one statement, line after line in the order a line applied
// alone emits them (each event goes to the one line whose resources it names).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// errWide ends lines applied together: they are rolled back and applied one by one.
var errWide = errors.New("lines applied together failed")

// ApplyTogether applies the lines raws (each one JSON line, none failed before its application)
// together in the transaction of ctx (store.WithTx; a savepoint of it): all of them or none.
// why not nil: nothing was written and the lines must be applied one by one (Apply), which gives
// each its outcome and errors; why says what stopped them. err is the database failing.
func (im *Importer) ApplyTogether(ctx context.Context, raws [][]byte) (out []Result, why error, err error) {
	// A line that cannot be read fails alone, with nothing written: only the others go in lanes.
	var ls []*line
	var lanesRaw [][]byte
	out = make([]Result, len(raws))
	at := make([]int, 0, len(raws)) // lane k is line at[k]
	for i, raw := range raws {
		l, err := im.decode(raw, &out[i])
		if err != nil {
			if out[i], err = failedLine(out[i], err); err != nil {
				return nil, nil, err
			}
			continue
		}
		ls, lanesRaw, at = append(ls, l), append(lanesRaw, raw), append(at, i)
	}
	if len(ls) == 0 {
		return out, nil, nil
	}
	now := store.NowFor(ctx)
	ctx = store.WithNow(ctx, now)
	skipped := 0
	err = im.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		tctx := store.WithTx(ctx, tx)
		pre, err := im.prefetch(tctx, tx, ls)
		if err != nil {
			return err
		}
		deps := dependencies(im, ls, lanesRaw)
		// Lines that certainly change nothing are not applied (unchanged.go); the others run, each
		// waiting for the lines it depends on that run too (a skipped line is done: it wrote nothing).
		same, err := im.unchanged(tctx, tx, ls, deps, pre)
		if err != nil {
			return err
		}
		var run []*line
		var runDeps [][]int
		var runAt []int
		lane := make([]int, len(ls)) // line k's lane among those that run, -1 when skipped
		for k, l := range ls {
			if same[k] != uuid.Nil {
				lane[k] = -1
				out[at[k]] = Result{Type: l.kind.Type, Code: l.code, Outcome: Unchanged, UUID: same[k], Skipped: true}
				continue
			}
			var d []int
			for _, j := range deps[k] {
				if lane[j] >= 0 {
					d = append(d, lane[j])
				}
			}
			lane[k] = len(run)
			run, runDeps, runAt = append(run, l), append(runDeps, d), append(runAt, at[k])
		}
		skipped = len(ls) - len(run)
		w := &wide{im: im, tx: tx, base: store.Flat(context.WithValue(tctx, prefetchKey{}, pre)), owner: map[uuid.UUID]int{}}
		results, err := w.run(run, runDeps)
		if err != nil {
			why = w.why
			return errWide
		}
		for k, res := range results {
			out[runAt[k]] = res
		}
		var evs []events.Event
		for _, e := range w.evs {
			evs = append(evs, e...)
		}
		return events.Record(tctx, q, reqctx.Tenant(ctx), now, evs)
	})
	if err != nil {
		// The codes the lines found may name rows the rollback removed.
		codesOf(ctx).forget()
	}
	if errors.Is(err, errWide) && ctx.Err() == nil {
		if why == nil {
			why = errWide
		}
		return nil, why, nil
	}
	if err != nil {
		return nil, nil, err
	}
	linesSkipped.Add(int64(skipped))
	return out, nil, nil
}

// prefetch looks up the codes of the lines' own resources, one statement per table: answered to
// each line's lookup of its code (lookup) when no other line of the batch defines that code.
func (im *Importer) prefetch(ctx context.Context, tx pgx.Tx, ls []*line) (prefetched, error) {
	// A code that two lines define (whatever their types: a line's own, an attribute line's
	// terms) is looked up by each line itself, after the other (see dependencies).
	defs := map[string]int{}
	for _, l := range ls {
		for _, d := range im.definesOf(l) {
			defs[d.Code]++
		}
	}
	tenant := reqctx.Tenant(ctx)
	byTable := map[string][]string{}
	for _, l := range ls {
		if defs[l.code] == 1 {
			byTable[l.kind.Table] = append(byTable[l.kind.Table], l.code)
		}
	}
	pre := prefetched{}
	for table, codes := range byTable {
		sort.Strings(codes)
		for _, c := range codes {
			pre[codeKey{tenant, table, c}] = uuid.Nil // absent unless found
		}
		rows, err := tx.Query(ctx, "SELECT code, uuid FROM "+pgx.Identifier{table}.Sanitize()+" WHERE tenant_id = $1 AND code = ANY($2)", tenant, codes)
		if err != nil {
			return nil, err
		}
		found, err := collect[string](rows)
		if err != nil {
			return nil, err
		}
		for c, id := range found {
			pre[codeKey{tenant, table, c}] = id
		}
	}
	return pre, nil
}

// prefetched are codes looked up ahead for a batch: uuid.Nil for a code that does not exist.
type prefetched map[codeKey]uuid.UUID

type prefetchKey struct{}

// ownLookup is lookup of a line's own code, answered from the codes looked up ahead (once) when
// the batch's lines were.
func ownLookup(ctx context.Context, tx pgx.Tx, table, code string) (uuid.UUID, bool, error) {
	if pre, _ := ctx.Value(prefetchKey{}).(prefetched); pre != nil {
		k := codeKey{reqctx.Tenant(ctx), table, code}
		if id, ok := pre[k]; ok {
			delete(pre, k)
			return id, id != uuid.Nil, nil
		}
	}
	return lookup(ctx, tx, table, code)
}

// wide is one application of lines together.
type wide struct {
	im   *Importer
	tx   pgx.Tx
	base context.Context
	// owner: the line (lane) whose writes wrote or named each uuid, to tell events to lines.
	owner map[uuid.UUID]int
	evs   [][]events.Event
	// why is the first reason the lines could not be applied together.
	why error
}

type opKind int

const (
	opCreate opKind = iota
	opUpdate
	opDelete
	opMove
)

// call is a lane's waiting write.
type call struct {
	lane       int
	ops        crud.Ops
	op         opKind
	transition string
	scopes     []crud.Scope
	items      []proto.Message
	ids        []uuid.UUID
	reply      chan answer
}

type answer struct {
	out     []proto.Message
	changed []bool
	err     error
}

// laneEvent is what a running lane does next: wait at a write (c) or end (done).
type laneEvent struct {
	c    *call
	done bool
	res  Result
	err  error
}

type laneKey struct{}

// lane is a line's handle on the batch it is applied with.
type lane struct {
	i    int
	next chan laneEvent
}

// via is ops, or for a line applied together with others (a lane's ctx) its writes waiting for
// the batch's.
func via(ctx context.Context, ops crud.Ops) crud.Ops {
	if l, _ := ctx.Value(laneKey{}).(*lane); l != nil {
		return laneOps{Ops: ops, l: l}
	}
	return ops
}

// laneOps is a family's write path whose writes wait for those of the other lanes.
type laneOps struct {
	crud.Ops
	l *lane
}

func (o laneOps) wait(c *call) answer {
	c.lane, c.ops, c.reply = o.l.i, o.Ops, make(chan answer, 1)
	o.l.next <- laneEvent{c: c}
	return <-c.reply
}

func (o laneOps) Create(_ context.Context, _ *store.DB, scopes []crud.Scope, items []proto.Message) ([]proto.Message, error) {
	a := o.wait(&call{op: opCreate, scopes: scopes, items: items})
	return a.out, a.err
}

func (o laneOps) Update(_ context.Context, _ *store.DB, scopes []crud.Scope, items []proto.Message) ([]proto.Message, []bool, error) {
	a := o.wait(&call{op: opUpdate, scopes: scopes, items: items})
	return a.out, a.changed, a.err
}

func (o laneOps) Delete(_ context.Context, _ *store.DB, scopes []crud.Scope, ids []uuid.UUID) error {
	return o.wait(&call{op: opDelete, scopes: scopes, ids: ids}).err
}

func (o laneOps) Move(_ context.Context, _ *store.DB, scopes []crud.Scope, transition string, ids []uuid.UUID) ([]bool, error) {
	a := o.wait(&call{op: opMove, transition: transition, scopes: scopes, ids: ids})
	return a.changed, a.err
}

func (o laneOps) Machine() *lifecycle.Machine { return o.Ops.Machine() }

// run applies the lines, lane by lane, writing together; their results in order.
func (w *wide) run(ls []*line, deps [][]int) ([]Result, error) {
	n := len(ls)
	w.evs = make([][]events.Event, n)
	results := make([]Result, n)
	lanes := make([]*lane, n)
	started, done := make([]bool, n), make([]bool, n)
	waiting := make([]*call, n)
	var failed error
	// resume lets lane i run until it waits or ends (starting it the first time).
	resume := func(i int, a *answer) {
		l := lanes[i]
		if a == nil {
			l = &lane{i: i, next: make(chan laneEvent)}
			lanes[i], started[i] = l, true
			go func() {
				var ev laneEvent
				defer func() {
					if p := recover(); p != nil {
						ev = laneEvent{done: true, err: fmt.Errorf("line applied together: panic: %v", p)}
					}
					l.next <- ev
				}()
				res := Result{Type: ls[i].kind.Type, Code: ls[i].code}
				lctx := context.WithValue(w.base, laneKey{}, l)
				err := w.im.apply(lctx, w.tx, ls[i], &res)
				ev = laneEvent{done: true, res: res, err: err}
			}()
		} else {
			waiting[i].reply <- *a
			waiting[i] = nil
		}
		ev := <-l.next
		switch {
		case ev.c != nil:
			waiting[i] = ev.c
			if failed != nil {
				// Stopping: every further write fails at once, until the lane ends.
				for ev.c != nil {
					ev.c.reply <- answer{err: errWide}
					ev = <-l.next
				}
				waiting[i], done[i] = nil, true
			}
		default:
			done[i], results[i] = true, ev.res
			if failed == nil && (ev.err != nil || ev.res.Outcome == Failed) {
				failed = errWide
				w.why = fmt.Errorf("line %d (%s %s): %v", i, ev.res.Type, ev.res.Code, ev.err)
			}
		}
	}
	for {
		progressed := false
		for i := range n {
			if started[i] || (failed != nil) {
				continue
			}
			ready := true
			for _, j := range deps[i] {
				ready = ready && done[j]
			}
			if ready {
				resume(i, nil)
				progressed = true
			}
		}
		// The waiting writes, by family and kind, in the order of their first lane.
		var groups [][]*call
		for i := range n {
			c := waiting[i]
			if c == nil {
				continue
			}
			placed := false
			for g := range groups {
				h := groups[g][0]
				if h.ops == c.ops && h.op == c.op && h.transition == c.transition {
					groups[g], placed = append(groups[g], c), true
					break
				}
			}
			if !placed {
				groups = append(groups, []*call{c})
			}
		}
		if len(groups) == 0 {
			if !progressed {
				break
			}
			continue
		}
		for _, g := range groups {
			var answers []answer
			err := errWide
			if failed == nil {
				answers, err = w.write(g)
				if err != nil {
					failed = errWide
					w.why = fmt.Errorf("%s of %d %s items: %w", [...]string{"create", "update", "delete", "move"}[g[0].op], len(g), g[0].ops.Kind(), err)
				}
			}
			for k, c := range g {
				a := answer{err: errWide}
				if err == nil {
					a = answers[k]
				}
				resume(c.lane, &a)
			}
		}
	}
	for i := range n {
		if started[i] && !done[i] {
			failed = fmt.Errorf("line %d applied together never ended", i)
		}
	}
	if failed != nil {
		return nil, failed
	}
	return results, nil
}

// write makes the writes of group g (one family, one kind) with one call of the family's write
// path, and tells each lane its part of the answer; the call's events go to the lanes.
func (w *wide) write(g []*call) ([]answer, error) {
	var scopes []crud.Scope
	var items []proto.Message
	var ids []uuid.UUID
	at := make([]int, len(g)+1) // g[k]'s items are at[k]…at[k+1]-1
	for k, c := range g {
		at[k] = len(scopes)
		scopes = append(scopes, c.scopes...)
		items = append(items, c.items...)
		ids = append(ids, c.ids...)
	}
	at[len(g)] = len(scopes)
	ctx := crud.HoldEvents(w.base)
	ops := g[0].ops
	var out []proto.Message
	var changed []bool
	var err error
	switch g[0].op {
	case opCreate:
		out, err = ops.Create(ctx, w.im.DB, scopes, items)
	case opUpdate:
		out, changed, err = ops.Update(ctx, w.im.DB, scopes, items)
	case opDelete:
		err = ops.Delete(ctx, w.im.DB, scopes, ids)
	case opMove:
		changed, err = ops.Move(ctx, w.im.DB, scopes, g[0].transition, ids)
	}
	if err != nil || store.FlatFailed(ctx) {
		if err == nil {
			err = errors.New("a write failed")
		}
		return nil, err
	}
	answers := make([]answer, len(g))
	for k, c := range g {
		a := answer{}
		if out != nil {
			a.out = out[at[k]:at[k+1]]
			for _, m := range a.out {
				w.own(uuidOf(m), c.lane)
			}
		}
		if changed != nil {
			a.changed = changed[at[k]:at[k+1]]
		}
		for _, id := range c.ids {
			w.own(id, c.lane)
		}
		for _, s := range c.scopes {
			w.own(s.Parent, c.lane)
		}
		answers[k] = a
	}
	for _, e := range crud.TakeHeld(ctx) {
		lane, ok := w.lineOf(e)
		if !ok {
			return nil, fmt.Errorf("event %s %v names no one line", e.Type, e.Payload)
		}
		w.evs[lane] = append(w.evs[lane], e)
	}
	return answers, nil
}

// own records that lane wrote or named id.
func (w *wide) own(id uuid.UUID, lane int) {
	if id == uuid.Nil {
		return
	}
	if _, ok := w.owner[id]; !ok {
		w.owner[id] = lane
	}
}

// lineOf is the one line whose resources event e names.
func (w *wide) lineOf(e events.Event) (int, bool) {
	found := -1
	for _, v := range e.Payload {
		id, err := uuid.Parse(v)
		if err != nil {
			continue
		}
		if lane, ok := w.owner[id]; ok {
			if found >= 0 && found != lane {
				return 0, false
			}
			found = lane
		}
	}
	return found, found >= 0
}

// dependencies: for each line, the earlier lines it must wait for: those defining a code among
// its JSON strings, or naming one of the codes it defines.
func dependencies(im *Importer, ls []*line, raws [][]byte) [][]int {
	names := make([]map[string]bool, len(ls))
	defs := make([][]string, len(ls))
	for i, raw := range raws {
		names[i] = stringsOf(raw)
		for _, d := range im.definesOf(ls[i]) {
			defs[i] = append(defs[i], d.Code)
		}
	}
	out := make([][]int, len(ls))
	for i := range ls {
		for j := range i {
			if touches(defs[j], names[i]) || touches(defs[i], names[j]) {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

func touches(codes []string, names map[string]bool) bool {
	for _, c := range codes {
		if names[c] {
			return true
		}
	}
	return false
}

// stringsOf is every string of a JSON document, keys and values.
func stringsOf(raw []byte) map[string]bool {
	out := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case string:
			out[t] = true
		case []any:
			for _, x := range t {
				walk(x)
			}
		case map[string]any:
			for k, x := range t {
				out[k] = true
				walk(x)
			}
		}
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		walk(v)
	}
	return out
}
