package transfer

// The children a line carries inside it (Kind's Sets, Maps, Lists and Merges): each applied
// through the child family's own writes after the line's resource, in the line's transaction.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// applySet makes the links of set st of resource id exactly the members whose codes v lists
// (a code given twice counts once): links to other members are deleted, missing ones created,
// the others left as they are. It reports whether anything changed.
func (im *Importer) applySet(ctx context.Context, tx pgx.Tx, st Set, keys []string, id, within uuid.UUID, v json.RawMessage) (bool, error) {
	ref := Ref{Field: st.Field, Kind: st.Kind, List: true}
	if string(v) == "null" {
		v = []byte("[]")
	}
	var want []uuid.UUID
	if st.Lookup == "" {
		resolved, err := im.resolve(ctx, tx, st.Line, ref, v)
		if err != nil {
			return false, err
		}
		if err := json.Unmarshal(resolved, &want); err != nil {
			return false, err
		}
	} else {
		var codes []string
		if err := json.Unmarshal(v, &codes); err != nil {
			return false, malformed(st.Line, "%s must be an array of %s codes", st.Line, st.Kind)
		}
		for i, c := range codes {
			m, found, err := memberLookup(ctx, tx, st, within, c)
			if err != nil {
				return false, err
			} else if !found {
				return false, unresolved(st.Kind, c, fmt.Sprintf("%s[%d]", st.Line, i))
			}
			want = append(want, m)
		}
	}
	have, err := children[uuid.UUID](ctx, tx, st.Members, id) // member → link
	if err != nil {
		return false, err
	}
	keep := map[uuid.UUID]bool{}
	var add []proto.Message
	var at []int // add[j] is the member at position at[j] of the line's list
	for i, m := range want {
		if keep[m] {
			continue
		}
		keep[m] = true
		if _, ok := have[m]; ok {
			continue
		}
		body := st.Ops.NewCreate()
		if err := decodeBody([]byte(`{"`+st.Field+`":"`+m.String()+`"}`), body); err != nil {
			return false, err
		}
		add, at = append(add, body), append(at, i)
	}
	scope := crud.Scope{Parent: id, Keys: keys}
	dropped, err := dropUnlisted(ctx, im, st.Ops, scope, have, keep, st.Line)
	if err != nil {
		return false, err
	}
	if len(add) > 0 {
		if _, err := via(ctx, st.Ops).Create(ctx, im.DB, repeat(scope, len(add)), add); err != nil {
			return false, inSet(err, st.Line, at)
		}
	}
	return dropped || len(add) > 0, nil
}

func repeat(s crud.Scope, n int) []crud.Scope {
	out := make([]crud.Scope, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// inSet names a link write's error fields after the line's set: "[j].categoryUuid" is
// "categories[at[j]]"; a field that names no item is the set itself.
func inSet(err error, line string, at []int) error {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return err
	}
	for i, f := range ae.Fields {
		name := line
		if strings.HasPrefix(f.Field, "[") {
			if end := strings.Index(f.Field, "]"); end > 0 {
				var j int
				if _, err := fmt.Sscanf(f.Field[1:end], "%d", &j); err == nil && j < len(at) {
					name = fmt.Sprintf("%s[%d]", line, at[j])
				}
			}
		}
		ae.Fields[i].Field = name
	}
	if len(ae.Fields) == 0 {
		ae.WithField(line, ae.Detail)
	}
	return err
}

// children reads a resource's children as key → child uuid with query q ($1 the tenant, $2 the
// resource): the key a member's or key's uuid (sets, maps) or a code or joined key (lists, merges).
func children[K comparable](ctx context.Context, tx pgx.Tx, q string, id uuid.UUID) (map[K]uuid.UUID, error) {
	if ahead, _ := ctx.Value(aheadKey{}).(readAhead); ahead != nil {
		if m, ok := ahead[aheadOf{q, id}].(map[K]uuid.UUID); ok {
			delete(ahead, aheadOf{q, id}) // read once: a second use reads again
			return m, nil
		}
	}
	rows, err := tx.Query(ctx, q, reqctx.Tenant(ctx), id)
	if err != nil {
		return nil, err
	}
	return collect[K](rows)
}

// collect reads rows of (key, child uuid).
func collect[K comparable](rows pgx.Rows) (map[K]uuid.UUID, error) {
	out := map[K]uuid.UUID{}
	defer rows.Close()
	for rows.Next() {
		var k K
		var child uuid.UUID
		if err := rows.Scan(&k, &child); err != nil {
			return nil, err
		}
		out[k] = child
	}
	return out, rows.Err()
}

// dropUnlisted deletes, through ops, the children in have whose key kept does not hold (in the
// order of their uuids, so that a line always writes alike), and reports whether it deleted any.
func dropUnlisted[K comparable](ctx context.Context, im *Importer, ops crud.Ops, scope crud.Scope, have map[K]uuid.UUID, kept map[K]bool, line string) (bool, error) {
	var drop []uuid.UUID
	for k, child := range have {
		if !kept[k] {
			drop = append(drop, child)
		}
	}
	if len(drop) == 0 {
		return false, nil
	}
	sort.Slice(drop, func(i, j int) bool { return drop[i].String() < drop[j].String() })
	if err := via(ctx, ops).Delete(ctx, im.DB, repeat(scope, len(drop)), drop); err != nil {
		return false, inSet(err, line, nil)
	}
	return true, nil
}

// applyMap merges the children of map mp of the resource at the end of path (keys: its scope's
// path keys) with v, an object keyed by codes (in the keys' sorted order, so that a line always
// writes alike). It reports whether anything changed.
func (im *Importer) applyMap(ctx context.Context, tx pgx.Tx, mp Map, keys []string, path []uuid.UUID, v json.RawMessage) (bool, error) {
	id := path[len(path)-1]
	if mp.OpsOf != nil {
		mp.Ops = mp.OpsOf(path)
	}
	if string(v) == "null" {
		return false, nil
	}
	if len(v) == 0 || v[0] != '{' {
		return false, malformed(mp.Line, "%s must be an object keyed by %s codes", mp.Line, mp.Kind)
	}
	entries, codes, err := objectKeys(v)
	if err != nil {
		return false, malformed(mp.Line, "%s: %v", mp.Line, err)
	}
	sort.Strings(codes)
	have, err := children[uuid.UUID](ctx, tx, mp.Members, id)
	if err != nil {
		return false, err
	}
	scope := []crud.Scope{{Parent: id, Keys: keys}}
	changed := false
	given := map[uuid.UUID]bool{}
	for _, code := range codes {
		field := mp.Line + "." + code
		key, ok, err := refLookup(ctx, tx, im.kinds[mp.Kind].Table, code)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, unresolved(mp.Kind, code, field)
		}
		child, exists := have[key]
		val := entries[code]
		given[key] = true
		if string(val) == "null" {
			if exists {
				if err := via(ctx, mp.Ops).Delete(ctx, im.DB, scope, []uuid.UUID{child}); err != nil {
					return false, under(err, field)
				}
				changed = true
			}
			continue
		}
		if mp.Set != nil {
			// The key's value is its set, or (SetIn) an object holding the set under SetIn and
			// the child's own fields.
			set, setLine, body, own := val, field, []byte(nil), 0
			if mp.SetIn != "" && len(val) > 0 && val[0] == '{' {
				fs, order, err := objectKeys(val)
				if err != nil {
					return false, malformed(field, "%s: %v", field, err)
				}
				set, setLine = fs[mp.SetIn], field+"."+mp.SetIn
				if body, own, err = keyedBody(mp, field, exists, child, key, fs, order, mp.SetIn); err != nil {
					return false, err
				}
			} else {
				body, _, _ = keyedBody(mp, field, exists, child, key, nil, nil, "")
			}
			if !exists || own > 0 {
				got, did, err := im.write(ctx, mp.Ops, scope[0], exists, body)
				if err != nil {
					return false, under(err, field)
				}
				if !exists {
					child, did = uuidOf(got), true
				}
				changed = changed || did
			}
			if set == nil {
				continue
			}
			st := *mp.Set
			st.Line = setLine
			did, err := im.applySet(ctx, tx, st, append(append([]string{}, keys...), mp.IDKey, child.String()), child, key, set)
			if err != nil {
				return false, err
			}
			changed = changed || did
			continue
		}
		fs, order, err := objectKeys(val)
		if err != nil || len(val) == 0 || val[0] != '{' {
			return false, malformed(field, "%s must be an object", field)
		}
		body, _, err := keyedBody(mp, field, exists, child, key, fs, order, "")
		if err != nil {
			return false, err
		}
		_, did, err := im.write(ctx, mp.Ops, scope[0], exists, body)
		if err != nil {
			return false, under(err, field)
		}
		changed = changed || did
	}
	if mp.Exact {
		dropped, err := dropUnlisted(ctx, im, mp.Ops, scope[0], have, given, mp.Line)
		if err != nil {
			return false, err
		}
		changed = changed || dropped
	}
	return changed, nil
}

// keyedBody is the write body of map mp's child at key: the child's uuid when it exists, else the
// key's field, then the fields of the line's object (fs, in order) but skip, and how many of
// those it put. The key's own fields (uuid, mp.Field) cannot be given: MALFORMED_REQUEST.
func keyedBody(mp Map, field string, exists bool, child, key uuid.UUID, fs map[string]json.RawMessage, order []string, skip string) ([]byte, int, error) {
	var o object
	if exists {
		o.id("uuid", child)
	} else {
		o.id(mp.Field, key)
	}
	n := 0
	for _, f := range order {
		switch {
		case skip != "" && f == skip:
		case f == "uuid" || f == mp.Field:
			return nil, 0, malformed(field+"."+f, "%s is given by the key", f)
		default:
			o.put(f, fs[f])
			n++
		}
	}
	return o.bytes(), n, nil
}

// under names an error's fields under prefix: "[0].displayName" is "contents.de-DE.displayName".
func under(err error, prefix string) error {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return err
	}
	for i, f := range ae.Fields {
		name := strings.TrimPrefix(strings.TrimPrefix(f.Field, "[0]"), ".")
		if name == "" {
			ae.Fields[i].Field = prefix
		} else {
			ae.Fields[i].Field = prefix + "." + name
		}
	}
	if len(ae.Fields) == 0 {
		ae.WithField(prefix, ae.Detail)
	}
	return err
}

// applyList makes the children of list ls of resource id exactly the items of v, an array of
// objects each with its code: listed codes are updated or created in the order given, with their
// own maps; children not listed are deleted. It reports whether anything changed.
func (im *Importer) applyList(ctx context.Context, tx pgx.Tx, k *Kind, ls List, id uuid.UUID, v json.RawMessage) (bool, error) {
	if string(v) == "null" {
		v = []byte("[]")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return false, malformed(ls.Line, "%s must be an array of objects with a code", ls.Line)
	}
	have, err := children[string](ctx, tx, ls.Members, id)
	if err != nil {
		return false, err
	}
	nested := map[string]bool{}
	for _, mp := range ls.Maps {
		nested[mp.Line] = true
	}
	scope := []crud.Scope{{Parent: id, Keys: []string{k.IDKey, id.String()}}}
	listed := map[string]bool{}
	changed := false
	for i, raw := range items {
		at := fmt.Sprintf("%s[%d]", ls.Line, i)
		fs, order, err := objectKeys(raw)
		if err != nil || len(raw) == 0 || raw[0] != '{' {
			return false, malformed(at, "%s must be an object with a code", at)
		}
		var code string
		if err := json.Unmarshal(fs["code"], &code); err != nil || code == "" {
			return false, apierr.New(apierr.ValidationFailed, "%s.code is required", at).WithField(at+".code", "is required")
		}
		if listed[code] {
			return false, apierr.New(apierr.ValidationFailed, "%s: code %q is listed twice", at, code).WithField(at+".code", "listed twice")
		}
		listed[code] = true
		child, exists := have[code]
		var o object
		if exists {
			o.id("uuid", child)
		}
		for _, f := range order {
			if nested[f] || (exists && f == "code") {
				continue
			}
			if f == "uuid" {
				return false, malformed(at+".uuid", "children are given by code")
			}
			o.put(f, fs[f])
		}
		got, did, err := im.write(ctx, ls.Ops, scope[0], exists, o.bytes())
		if err != nil {
			return false, under(err, at)
		}
		child, changed = uuidOf(got), changed || did
		for _, mp := range ls.Maps {
			mv, given := fs[mp.Line]
			if !given {
				continue
			}
			did, err := im.applyMap(ctx, tx, mp, []string{k.IDKey, id.String(), ls.IDKey, child.String()}, []uuid.UUID{id, child}, mv)
			if err != nil {
				return false, under(err, at)
			}
			changed = changed || did
		}
	}
	dropped, err := dropUnlisted(ctx, im, ls.Ops, scope[0], have, listed, ls.Line)
	return changed || dropped, err
}

// applyMerge merges the items of v, an array of objects keyed by mg's references, into the
// children of resource id. It reports whether anything changed.
func (im *Importer) applyMerge(ctx context.Context, tx pgx.Tx, k *Kind, mg Merge, id uuid.UUID, v json.RawMessage) (bool, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return false, malformed(mg.Line, "%s must be an array of objects", mg.Line)
	}
	have, err := children[string](ctx, tx, mg.Members, id)
	if err != nil {
		return false, err
	}
	scope := []crud.Scope{{Parent: id, Keys: []string{k.IDKey, id.String()}}}
	seen := map[string]bool{}
	changed := false
	// Writes of consecutive items of the same kind (creates, updates) wait in run and go to the
	// family in one call (one statement for all, one trigger run): see writeRun. Anything else an
	// item does (a failure, a delete, a read, a lifecycle move) writes what waits first, so the
	// line's writes, events and first error are those of items applied one by one.
	var run writeRun
	flush := func() error {
		did, err := run.write(ctx, im, mg.Ops, scope[0], func(err error, at string) error {
			return lineNames(under(err, at), mg.Keys, mg.Refs)
		})
		changed = changed || did
		return err
	}
	fail := func(err error) (bool, error) {
		if ferr := flush(); ferr != nil {
			return false, ferr
		}
		return false, err
	}
	for i, raw := range items {
		at := fmt.Sprintf("%s[%d]", mg.Line, i)
		fs, order, err := objectKeys(raw)
		if err != nil || len(raw) == 0 || raw[0] != '{' {
			return fail(malformed(at, "%s must be an object", at))
		}
		// The key: each reference resolved (absent or null: none).
		parts := make([]string, len(mg.KeyOrder))
		refs := map[string][]byte{}
		for j, name := range mg.KeyOrder {
			ref := mg.Keys[name]
			val, given := fs[name]
			if !given || string(val) == "null" {
				continue
			}
			resolved, err := im.resolve(ctx, tx, at+"."+name, ref, val)
			if err != nil {
				return fail(err)
			}
			refs[ref.Field] = resolved
			var u string
			_ = json.Unmarshal(resolved, &u)
			parts[j] = u
		}
		key := strings.Join(parts, "/")
		if seen[key] {
			return fail(apierr.New(apierr.ValidationFailed, "%s repeats the key of an item before it", at).WithField(at, "given twice"))
		}
		seen[key] = true
		child, exists := have[key]
		if nv, ok := fs[mg.Null]; ok && string(nv) == "null" {
			if exists {
				if err := flush(); err != nil {
					return false, err
				}
				if err := via(ctx, mg.Ops).Delete(ctx, im.DB, scope, []uuid.UUID{child}); err != nil {
					return false, under(err, at)
				}
				changed = true
			}
			continue
		}
		var o object
		if exists {
			o.id("uuid", child)
		} else {
			for _, name := range mg.KeyOrder {
				if r, ok := refs[mg.Keys[name].Field]; ok {
					o.put(mg.Keys[name].Field, r)
				}
			}
		}
		given := 0 // fields of the item besides its key and status
		for _, f := range order {
			if _, isKey := mg.Keys[f]; isKey || (f == "status" && mg.Moves != nil) {
				continue
			}
			if strings.HasSuffix(f, "Uuid") || f == "uuid" {
				return fail(malformed(at+"."+f, "references are given by code"))
			}
			if ref, ok := mg.Refs[f]; ok {
				resolved, err := im.resolve(ctx, tx, at+"."+f, ref, fs[f])
				if err != nil {
					return fail(err)
				}
				o.put(ref.Field, resolved)
			} else {
				o.put(f, fs[f])
			}
			given++
		}
		if mg.Moves == nil && (!exists || given > 0) {
			if run.exists != exists {
				if err := flush(); err != nil {
					return false, err
				}
			}
			run.add(exists, o.bytes(), at)
			continue
		}
		if err := flush(); err != nil {
			return false, err
		}
		var out proto.Message
		if exists && given == 0 {
			// Nothing to update but perhaps the status: the child as it is.
			if out, err = mg.Ops.Get(ctx, im.DB, scope[0], child); err != nil {
				return false, err
			}
		} else {
			var did bool
			if out, did, err = im.write(ctx, mg.Ops, scope[0], exists, o.bytes()); err != nil {
				return false, lineNames(under(err, at), mg.Keys, mg.Refs)
			}
			changed = changed || did
		}
		if st, ok := fs["status"]; ok && mg.Moves != nil {
			var want string
			if err := json.Unmarshal(st, &want); err != nil || want == "" {
				return false, malformed(at+".status", "status must be a string")
			}
			moved, err := im.moveTo(ctx, mg.Moves, scope[0], mg.Moves.Kind(), at+".status", uuidOf(out), !exists, statusOf(out), want)
			if err != nil {
				return false, err
			}
			changed = changed || moved
		}
	}
	if err := flush(); err != nil {
		return false, err
	}
	if mg.Exact {
		dropped, err := dropUnlisted(ctx, im, mg.Ops, scope[0], have, seen, mg.Line)
		if err != nil {
			return false, err
		}
		changed = changed || dropped
	}
	return changed, nil
}

// lineNames renames, in err's fields, the body's uuid fields (the last segment, "parentUuid") to
// the line's names of those references ("parent"): errors speak of what the line gave.
func lineNames(err error, refs ...map[string]Ref) error {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return err
	}
	for i, f := range ae.Fields {
		head, last := "", f.Field
		if j := strings.LastIndex(f.Field, "."); j >= 0 {
			head, last = f.Field[:j+1], f.Field[j+1:]
		}
		for _, rs := range refs {
			for name, r := range rs {
				if r.Field == last {
					ae.Fields[i].Field = head + name
				}
			}
		}
	}
	return err
}

// object builds a JSON object member by member (a body for a family's decoder).
type object struct {
	b bytes.Buffer
	n int
}

func (o *object) put(key string, v []byte) {
	if o.n == 0 {
		o.b.WriteByte('{')
	} else {
		o.b.WriteByte(',')
	}
	o.n++
	kb, _ := json.Marshal(key)
	o.b.Write(kb)
	o.b.WriteByte(':')
	o.b.Write(v)
}

// id puts a uuid member.
func (o *object) id(key string, id uuid.UUID) { o.put(key, []byte(`"`+id.String()+`"`)) }

func (o *object) bytes() []byte {
	if o.n == 0 {
		return []byte("{}")
	}
	return append(o.b.Bytes(), '}')
}

// write decodes body as the family's update body (exists) or create body and writes it in
// scope: the message as the family answers it and whether anything changed.
func (im *Importer) write(ctx context.Context, ops crud.Ops, scope crud.Scope, exists bool, body []byte) (proto.Message, bool, error) {
	if exists {
		m := ops.NewUpdate()
		if err := decodeBody(body, m); err != nil {
			return nil, false, err
		}
		got, changed, err := via(ctx, ops).Update(ctx, im.DB, []crud.Scope{scope}, []proto.Message{m})
		if err != nil {
			return nil, false, err
		}
		return got[0], changed[0], nil
	}
	m := ops.NewCreate()
	if err := decodeBody(body, m); err != nil {
		return nil, false, err
	}
	got, err := via(ctx, ops).Create(ctx, im.DB, []crud.Scope{scope}, []proto.Message{m})
	if err != nil {
		return nil, false, err
	}
	return got[0], true, nil
}

// writeRun is a run of a line's child writes of one kind (creates, or updates) waiting to be
// written: their bodies and the line's names of the items (at, "values[2]").
type writeRun struct {
	exists bool
	bodies [][]byte
	at     []string
}

func (r *writeRun) add(exists bool, body []byte, at string) {
	r.exists = exists
	r.bodies, r.at = append(r.bodies, body), append(r.at, at)
}

// write writes the run's items in one call of the family's write path (as a bulk request does:
// the same checks and statements, one statement and one trigger run for all) and empties it;
// it reports whether anything changed. When the call fails, it fails as a whole (its savepoint
// rolled back; under store.Flat the line is applied again the careful way) and the items are
// written again one by one, so the line's outcome and its first
// error are exactly those of items applied in turn; name renames an item's error (at: the
// item's name in the line).
func (r *writeRun) write(ctx context.Context, im *Importer, ops crud.Ops, scope crud.Scope, name func(err error, at string) error) (bool, error) {
	bodies, ats, exists := r.bodies, r.at, r.exists
	*r = writeRun{}
	if len(bodies) == 0 {
		return false, nil
	}
	if len(bodies) > 1 {
		changed, err := im.writeAll(ctx, ops, scope, exists, bodies)
		var ae *apierr.Error
		if err == nil || !errors.As(err, &ae) {
			return changed, err
		}
		if store.IsFlat(ctx) {
			store.FailFlat(ctx) // the line starts over the careful way
			return false, err
		}
	}
	changed := false
	for i, body := range bodies {
		_, did, err := im.write(ctx, ops, scope, exists, body)
		if err != nil {
			return false, name(err, ats[i])
		}
		changed = changed || did
	}
	return changed, nil
}

// writeAll is write of many bodies in one call; it reports whether any changed.
func (im *Importer) writeAll(ctx context.Context, ops crud.Ops, scope crud.Scope, exists bool, bodies [][]byte) (bool, error) {
	ms := make([]proto.Message, len(bodies))
	for i, body := range bodies {
		if exists {
			ms[i] = ops.NewUpdate()
		} else {
			ms[i] = ops.NewCreate()
		}
		if err := decodeBody(body, ms[i]); err != nil {
			return false, err
		}
	}
	scopes := repeat(scope, len(ms))
	if !exists {
		_, err := via(ctx, ops).Create(ctx, im.DB, scopes, ms)
		return err == nil, err
	}
	_, changed, err := via(ctx, ops).Update(ctx, im.DB, scopes, ms)
	return slices.Contains(changed, true), err
}

// readAhead holds the children of a line's resource read ahead of their use, by query and
// resource: map[K]uuid.UUID as children answers them.
type readAhead map[aheadOf]any

type aheadOf struct {
	q  string
	id uuid.UUID
}

type aheadKey struct{}

// readChildren reads, in one round trip, the children of resource id that line l's sets, maps,
// lists and merges (those without a lifecycle) will compare themselves with, and answers ctx
// under which children answers them from there. Each is read after the resource's own write, as
// before; reading them together is the same as one by one because the children of one of
// them are never written by another (they are different families, or different kinds of links).
func (im *Importer) readChildren(ctx context.Context, tx pgx.Tx, l *line, id uuid.UUID) (context.Context, error) {
	type want struct {
		q     string
		codes bool // keyed by strings (codes, joined keys), else by uuids
	}
	var ws []want
	k := l.kind
	for _, st := range k.Sets {
		if _, given := l.fields[st.Line]; given {
			ws = append(ws, want{st.Members, false})
		}
	}
	for _, mp := range k.Maps {
		if v, given := l.fields[mp.Line]; given && string(v) != "null" {
			ws = append(ws, want{mp.Members, false})
		}
	}
	for _, ls := range k.Lists {
		if _, given := l.fields[ls.Line]; given {
			ws = append(ws, want{ls.Members, true})
		}
	}
	for _, mg := range k.Merges {
		if _, given := l.fields[mg.Line]; given && mg.Moves == nil {
			ws = append(ws, want{mg.Members, true})
		}
	}
	if len(ws) < 2 {
		return ctx, nil
	}
	b := &pgx.Batch{}
	for _, w := range ws {
		b.Queue(w.q, reqctx.Tenant(ctx), id)
	}
	br := tx.SendBatch(ctx, b)
	got := readAhead{}
	for _, w := range ws {
		rows, err := br.Query()
		if err == nil {
			if w.codes {
				got[aheadOf{w.q, id}], err = collect[string](rows)
			} else {
				got[aheadOf{w.q, id}], err = collect[uuid.UUID](rows)
			}
		}
		if err != nil {
			_ = br.Close()
			return ctx, err
		}
	}
	if err := br.Close(); err != nil {
		return ctx, err
	}
	return context.WithValue(ctx, aheadKey{}, got), nil
}
