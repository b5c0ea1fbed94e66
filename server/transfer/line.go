// Package transfer applies import lines (API.md "Import and export (jobs)"): one JSON object per
// line, a resource keyed by its code and referring to others by code, upserted through the same
// write path as the API's own operations (crud.Ops: the family's checks, statements, lifecycle
// and events), each line atomic and independent.
//
// This file is the line itself: its decoding, the code-to-uuid resolution of its references, and
// its application as a create or an update plus, for a line with a status, the lifecycle move
// that reaches it. The job around lines (upload, queue, workers, progress) is built on top.
package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// MaxLineBytes is the largest line: a longer one fails alone (API.md).
const MaxLineBytes = 1 << 20

// Kind is one line type: a family keyed by code.
type Kind struct {
	// Type is the line's "type" ("category", "inputType").
	Type string
	// Table holds the family's rows, with tenant_id, code and uuid columns.
	Table string
	// Ops is the family's write path.
	Ops crud.Ops
	// Refs are the line's reference fields, by their name in the line ("parent").
	Refs map[string]Ref
	// IDKey names the resource's uuid in its children's events and paths ("productUuid").
	IDKey string
	// Sets are the children a line gives as a list of codes that becomes exactly that set.
	Sets []Set
	// Maps are the children a line gives as an object keyed by codes, merged key by key.
	Maps []Map
	// Lists are the children a line gives as objects with codes of their own (an attribute's
	// terms): the list becomes exactly the resource's children.
	Lists []List
	// Merges are the children a line gives as objects keyed by several references (a product's
	// values by inputType, channel and locale), merged item by item.
	Merges []Merge
}

// Merge is a line's array of children each keyed by references (a product's "values": inputType,
// channel, locale): an item whose key exists updates that child with the item's other fields, a
// new key creates it, an item whose Null field is null deletes it; children not given are left
// alone. All through the child family's own writes.
type Merge struct {
	// Line is the line's field ("values").
	Line string
	// Keys are the item's key references by their name in the item ("inputType"); a key not
	// given is null (all channels, no locale).
	Keys map[string]Ref
	// Null is the field whose null deletes the child ("value").
	Null string
	// Ops is the child family's write path.
	Ops crud.Ops
	// Members selects the children of a resource: (key, child uuid), the key being the key
	// references' uuids in the order of KeyOrder joined by "/", a null as "" ($1 the tenant, $2
	// the resource's uuid).
	Members  string
	KeyOrder []string
	// Exact: children whose key no item gives are deleted (the array is the whole set: a
	// family's attributes).
	Exact bool
	// Moves, when set, is the children's lifecycle: an item's "status" is reached through it
	// (a publication's publish and unpublish, with their gate), after the item is written.
	Moves crud.Ops
	// Refs are the items' other reference fields, by their name in the item ("assetType").
	Refs map[string]Ref
}

// List is a line's array of children keyed by their own code within the resource (an attribute's
// "terms"): a listed code is updated (PATCH semantics) or created, a child whose code is not
// listed is deleted, all through the child family's own writes.
type List struct {
	// Line is the line's field ("terms").
	Line string
	// Ops is the child family's write path.
	Ops crud.Ops
	// Members selects the children of a resource: (code, child uuid), $1 the tenant and $2 the
	// resource's uuid.
	Members string
	// IDKey names a child's uuid in its own children's events ("termUuid").
	IDKey string
	// Maps are the children's own maps (a term's contents).
	Maps []Map
}

// Map is a line's object of children keyed by the code of another resource (a resource's
// "contents" by locale code): each key's object updates that child (PATCH semantics) or creates
// it, null deletes it, keys not given are left alone; all through the child family's own writes.
type Map struct {
	// Line is the line's field ("contents"); Kind the line type of its keys ("locale").
	Line, Kind string
	// Field is the child's create body field that holds the key's uuid ("localeUuid").
	Field string
	// Ops is the child family's write path; OpsOf, when set, is it for the children of the
	// resource at the end of path (the uuids from the line's resource down): a family whose
	// messages carry an ancestor (a term's contents carry the attribute's uuid).
	Ops   crud.Ops
	OpsOf func(path []uuid.UUID) crud.Ops
	// Members selects the children of a resource: (key uuid, child uuid), $1 the tenant and $2
	// the resource's uuid.
	Members string
	// Exact: children whose key is not given are deleted (the map is the whole set).
	Exact bool
	// IDKey names a child's uuid in its own children's events ("productAttributeUuid").
	IDKey string
	// Set, when given, makes each key's value a list of codes: the key's child is created when
	// missing and the list becomes its set (a product's attributes, each with its terms).
	Set *Set
}

// Set is a set of links a line gives as codes (a product's "categories"): after the line, the
// resource links exactly those, through the link family's own create and delete.
type Set struct {
	// Line is the line's field ("categories"); Kind the line type of its members ("category").
	Line, Kind string
	// Field is the link's create body field that names the member ("categoryUuid").
	Field string
	// Ops is the link family's write path.
	Ops crud.Ops
	// Members selects the links of a resource: (member uuid, link uuid), $1 the tenant and $2 the
	// resource's uuid.
	Members string
	// Lookup, when set, finds a member by code among those of the set's key (a term among its
	// attribute's): its uuid, $1 the tenant, $2 the key's uuid, $3 the code. Else members are
	// looked up by Kind.
	Lookup string
}

// Ref is a reference field of a line: the code (or codes) of a resource of another kind, given
// to the family's body as uuid(s).
type Ref struct {
	// Field is the body's field, by its JSON name ("parentUuid", "localeUuids").
	Field string
	// Kind is the line type of the referenced resource.
	Kind string
	// List: the line gives an array of codes.
	List bool
}

// Outcome of one line.
type Outcome string

const (
	Created   Outcome = "created"
	Updated   Outcome = "updated"
	Unchanged Outcome = "unchanged"
	Failed    Outcome = "failed"
)

// LineError is one reason a line failed, in the API's terms.
type LineError struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Result is what happened to one line.
type Result struct {
	Type    string
	Code    string
	Outcome Outcome
	UUID    uuid.UUID
	Errors  []LineError
}

// Importer applies lines to the tenant of the context it is given.
type Importer struct {
	DB    *store.DB
	kinds map[string]*Kind
}

// NewImporter is an importer of the given kinds.
func NewImporter(d *store.DB, kinds []*Kind) *Importer {
	im := &Importer{DB: d, kinds: map[string]*Kind{}}
	for _, k := range kinds {
		im.kinds[k.Type] = k
	}
	return im
}

// Types are the line types the importer knows, sorted.
func (im *Importer) Types() []string {
	out := make([]string, 0, len(im.kinds))
	for t := range im.kinds {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Apply applies one line in one transaction of its own: all of it or nothing. A line that fails
// answers Failed with its reasons (never a Go error for the line's own faults); the error is for
// the database failing.
func (im *Importer) Apply(ctx context.Context, line []byte) (Result, error) {
	var res Result
	l, err := im.decode(line, &res)
	if err == nil {
		err = im.DB.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
			return im.apply(store.WithTx(ctx, tx), tx, l, &res)
		})
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		res.Outcome, res.UUID, res.Errors = Failed, uuid.Nil, lineErrors(ae)
		return res, nil
	}
	return res, err
}

// line is a decoded line: its kind, code, status and the rest of its fields.
type line struct {
	kind   *Kind
	code   string
	status string
	hasSt  bool
	fields map[string]json.RawMessage
	order  []string // fields' keys in the line's order
}

func malformed(field, format string, args ...any) *apierr.Error {
	msg := fmt.Sprintf(format, args...)
	return apierr.New(apierr.MalformedRequest, "%s", msg).WithField(field, msg)
}

// decode reads a line's envelope: an object with a known "type" and a "code".
func (im *Importer) decode(raw []byte, res *Result) (*line, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > MaxLineBytes:
		return nil, apierr.New(apierr.PayloadTooLarge, "the line has %d bytes; at most %d", len(raw), MaxLineBytes).WithField("", "line too long")
	case !utf8.Valid(raw):
		return nil, malformed("", "the line is not valid UTF-8")
	case len(raw) == 0 || raw[0] != '{':
		return nil, malformed("", "a line is one JSON object")
	}
	fs, order, err := objectKeys(raw)
	if err != nil {
		return nil, malformed("", "the line is not a JSON object: %v", err)
	}
	l := &line{fields: fs}
	var typ string
	if err := json.Unmarshal(fs["type"], &typ); err != nil || typ == "" {
		return nil, malformed("type", "type is required: one of %s", strings.Join(im.Types(), ", "))
	}
	res.Type = typ
	if l.kind = im.kinds[typ]; l.kind == nil {
		return nil, malformed("type", "unknown type %q: one of %s", typ, strings.Join(im.Types(), ", "))
	}
	if err := json.Unmarshal(fs["code"], &l.code); err != nil || l.code == "" {
		return nil, apierr.New(apierr.ValidationFailed, "code is required").WithField("code", "is required")
	}
	res.Code = l.code
	if st, ok := fs["status"]; ok {
		if err := json.Unmarshal(st, &l.status); err != nil || l.status == "" {
			return nil, malformed("status", "status must be a string")
		}
		l.hasSt = true
		if l.kind.Ops.Machine() == nil {
			return nil, malformed("status", "a %s has no status", typ)
		}
	}
	sets := map[string]bool{}
	for _, st := range l.kind.Sets {
		sets[st.Line] = true
	}
	for _, mp := range l.kind.Maps {
		sets[mp.Line] = true
	}
	for _, ls := range l.kind.Lists {
		sets[ls.Line] = true
	}
	for _, mg := range l.kind.Merges {
		sets[mg.Line] = true
	}
	for _, k := range order {
		if k != "type" && k != "status" && !sets[k] {
			l.order = append(l.order, k)
		}
	}
	return l, nil
}

// objectKeys splits a JSON object into its members, keeping the keys' order; a key given twice
// is an error.
func objectKeys(raw []byte) (map[string]json.RawMessage, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	out := map[string]json.RawMessage{}
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := out[key]; dup {
			return nil, nil, fmt.Errorf("key %q given twice", key)
		}
		out[key] = v
		order = append(order, key)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	if dec.More() {
		return nil, nil, errors.New("data after the object")
	}
	return out, order, nil
}

// apply upserts line l inside transaction tx (ctx carries it, so the family's writes join it).
func (im *Importer) apply(ctx context.Context, tx pgx.Tx, l *line, res *Result) error {
	k := l.kind
	id, exists, err := lookup(ctx, tx, k.Table, l.code)
	if err != nil {
		return err
	}
	body, err := im.body(ctx, tx, l, id, exists)
	if err != nil {
		return err
	}
	scope := []crud.Scope{{}}
	var out proto.Message
	if !exists {
		m := k.Ops.NewCreate()
		if err := decodeBody(body, m); err != nil {
			return err
		}
		got, err := k.Ops.Create(ctx, im.DB, scope, []proto.Message{m})
		if err != nil {
			return lineNames(err, k.Refs)
		}
		out, res.Outcome = got[0], Created
	} else {
		m := k.Ops.NewUpdate()
		if err := decodeBody(body, m); err != nil {
			return err
		}
		got, changed, err := k.Ops.Update(ctx, im.DB, scope, []proto.Message{m})
		if err != nil {
			return lineNames(err, k.Refs)
		}
		out, res.Outcome = got[0], Unchanged
		if changed[0] {
			res.Outcome = Updated
		}
	}
	res.UUID = uuidOf(out)
	for _, st := range k.Sets {
		v, given := l.fields[st.Line]
		if !given {
			continue
		}
		changed, err := im.applySet(ctx, tx, st, []string{k.IDKey, res.UUID.String()}, res.UUID, uuid.Nil, v)
		if err != nil {
			return err
		}
		if changed && res.Outcome == Unchanged {
			res.Outcome = Updated
		}
	}
	for _, mp := range k.Maps {
		v, given := l.fields[mp.Line]
		if !given {
			continue
		}
		changed, err := im.applyMap(ctx, tx, mp, []string{k.IDKey, res.UUID.String()}, []uuid.UUID{res.UUID}, v)
		if err != nil {
			return err
		}
		if changed && res.Outcome == Unchanged {
			res.Outcome = Updated
		}
	}
	for _, ls := range k.Lists {
		v, given := l.fields[ls.Line]
		if !given {
			continue
		}
		changed, err := im.applyList(ctx, tx, k, ls, res.UUID, v)
		if err != nil {
			return err
		}
		if changed && res.Outcome == Unchanged {
			res.Outcome = Updated
		}
	}
	// Children first, then the line's status, then the children's own lifecycles (a publication
	// is published once its product is active and has its values).
	mergeAll := func(lifecycles bool) error {
		for _, mg := range k.Merges {
			v, given := l.fields[mg.Line]
			if !given || (mg.Moves != nil) != lifecycles {
				continue
			}
			changed, err := im.applyMerge(ctx, tx, k, mg, res.UUID, v)
			if err != nil {
				return err
			}
			if changed && res.Outcome == Unchanged {
				res.Outcome = Updated
			}
		}
		return nil
	}
	if err := mergeAll(false); err != nil {
		return err
	}
	if l.hasSt {
		moved, err := im.moveTo(ctx, k.Ops, crud.Scope{}, k.Type, "status", res.UUID, statusOf(out), l.status)
		if err != nil {
			return err
		}
		if moved && res.Outcome == Unchanged {
			res.Outcome = Updated
		}
	}
	return mergeAll(true)
}

// body is the family's create or update body of line l: its fields with each reference's code
// replaced by the uuid under the body's name; an update names the resource by uuid.
func (im *Importer) body(ctx context.Context, tx pgx.Tx, l *line, id uuid.UUID, exists bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(key string, v []byte) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(key)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(v)
	}
	if exists {
		put("uuid", []byte(`"`+id.String()+`"`))
	}
	for _, key := range l.order {
		v := l.fields[key]
		if key == "code" && exists {
			continue // the key, not a change
		}
		ref, isRef := l.kind.Refs[key]
		if !isRef {
			if strings.HasSuffix(key, "Uuid") || strings.HasSuffix(key, "Uuids") {
				return nil, malformed(key, "references are given by code: use %s", refName(l.kind, key))
			}
			put(key, v)
			continue
		}
		resolved, err := im.resolve(ctx, tx, key, ref, v)
		if err != nil {
			return nil, err
		}
		put(ref.Field, resolved)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// refName is the line's name of a body's uuid field, for the message that suggests it.
func refName(k *Kind, field string) string {
	for name, r := range k.Refs {
		if r.Field == field {
			return name
		}
	}
	return "the field without Uuid"
}

// resolve turns the code (or codes) of reference key into the uuid(s) of the body; null stays
// null (it clears the reference). A code that does not exist is UNRESOLVED_REFERENCE.
func (im *Importer) resolve(ctx context.Context, tx pgx.Tx, key string, ref Ref, v json.RawMessage) ([]byte, error) {
	if string(v) == "null" {
		return v, nil
	}
	target := im.kinds[ref.Kind]
	var codes []string
	if ref.List {
		if err := json.Unmarshal(v, &codes); err != nil {
			return nil, malformed(key, "%s must be an array of %s codes", key, ref.Kind)
		}
	} else {
		var c string
		if err := json.Unmarshal(v, &c); err != nil {
			return nil, malformed(key, "%s must be a %s code", key, ref.Kind)
		}
		codes = []string{c}
	}
	ids := make([]string, len(codes))
	for i, c := range codes {
		id, ok, err := lookup(ctx, tx, target.Table, c)
		if err != nil {
			return nil, err
		}
		if !ok {
			field := key
			if ref.List {
				field = fmt.Sprintf("%s[%d]", key, i)
			}
			return nil, apierr.New(apierr.UnresolvedReference, "%s %q does not exist", ref.Kind, c).
				WithField(field, fmt.Sprintf("no %s with code %q", ref.Kind, c))
		}
		ids[i] = id.String()
	}
	if ref.List {
		return json.Marshal(ids)
	}
	return json.Marshal(ids[0])
}

// lookup is the uuid of the row of table with code c in the context's tenant.
func lookup(ctx context.Context, tx pgx.Tx, table, c string) (uuid.UUID, bool, error) {
	var id uuid.UUID
	err := tx.QueryRow(ctx, "SELECT uuid FROM "+pgx.Identifier{table}.Sanitize()+" WHERE tenant_id = $1 AND code = $2",
		reqctx.Tenant(ctx), c).Scan(&id)
	if store.IsNoRows(err) {
		return id, false, nil
	}
	return id, err == nil, err
}

// decodeBody decodes a body as the REST facade decodes a request's (update masks from the keys,
// the API's messages for bad JSON) and checks the body's rules as a request's are checked.
func decodeBody(body []byte, m proto.Message) error {
	if err := (jsonpb.Marshaler{}).Unmarshal(body, m); err != nil {
		var de *apierr.DecodeError
		if errors.As(err, &de) {
			return apierr.New(apierr.MalformedRequest, "%s: %s", de.Field, de.Message).WithField(de.Field, de.Message)
		}
		return apierr.New(apierr.MalformedRequest, "%v", err)
	}
	v := apierr.NewValidator()
	fields.CheckBody(v, m)
	return v.Err()
}

// moveTo moves the resource to status want through the one transition that leads there from its
// current status (the API's lifecycle, its gate and its events); reports whether it moved.
func (im *Importer) moveTo(ctx context.Context, ops crud.Ops, scope crud.Scope, typ, field string, id uuid.UUID, cur, want string) (bool, error) {
	if cur == want {
		return false, nil
	}
	m := ops.Machine()
	var transition string
	var states []string
	seen := map[string]bool{}
	for _, t := range m.Transitions() {
		mv := m.Moves[t]
		if !seen[mv.To] {
			seen[mv.To] = true
			states = append(states, mv.To)
		}
		if mv.To == want && transition == "" {
			for _, f := range mv.From {
				if f == cur {
					transition = t
				}
			}
		}
	}
	if transition == "" {
		if !seen[want] {
			sort.Strings(states)
			return false, apierr.New(apierr.ValidationFailed, "%s must be one of %s", field, strings.Join(states, ", ")).
				WithField(field, "must be one of "+strings.Join(states, ", "))
		}
		return false, m.Refuse(cur, "a %s in status %s cannot move to %s", typ, cur, want).WithField(field, "cannot move from "+cur+" to "+want)
	}
	moved, err := ops.Move(ctx, im.DB, []crud.Scope{scope}, transition, []uuid.UUID{id})
	if err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			for i := range ae.Fields {
				if strings.HasPrefix(ae.Fields[i].Field, "uuids[") || ae.Fields[i].Field == "[0]" {
					ae.Fields[i].Field = field
				}
			}
			if len(ae.Fields) == 0 {
				ae.WithField(field, ae.Detail)
			}
		}
		return false, err
	}
	return moved[0], nil
}

// lineErrors are an API error's reasons as a line's: one per field (the item prefix of a bulk
// dropped: a line is one item), or one for the whole line.
func lineErrors(e *apierr.Error) []LineError {
	if len(e.Fields) == 0 {
		return []LineError{{Code: string(e.Code), Message: e.Detail}}
	}
	out := make([]LineError, len(e.Fields))
	for i, f := range e.Fields {
		name := strings.TrimPrefix(f.Field, "[0].")
		if name == "[0]" {
			name = ""
		}
		out[i] = LineError{Field: name, Code: string(e.Code), Message: f.Message}
	}
	return out
}

// uuidOf and statusOf read a resource message's uuid and status (as the API names it).
func uuidOf(m proto.Message) uuid.UUID {
	r := m.ProtoReflect()
	if fd := r.Descriptor().Fields().ByName("uuid"); fd != nil {
		id, _ := uuid.Parse(r.Get(fd).String())
		return id
	}
	return uuid.Nil
}

func statusOf(m proto.Message) string {
	r := m.ProtoReflect()
	fd := r.Descriptor().Fields().ByName("status")
	if fd == nil {
		return ""
	}
	if fd.Kind() == protoreflect.EnumKind {
		b, err := (jsonpb.Marshaler{}).Marshal(m)
		if err != nil {
			return ""
		}
		var v struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal(b, &v)
		return v.Status
	}
	return r.Get(fd).String()
}

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
			var m uuid.UUID
			err := tx.QueryRow(ctx, st.Lookup, reqctx.Tenant(ctx), within, c).Scan(&m)
			if store.IsNoRows(err) {
				return false, apierr.New(apierr.UnresolvedReference, "%s %q does not exist", st.Kind, c).
					WithField(fmt.Sprintf("%s[%d]", st.Line, i), fmt.Sprintf("no %s with code %q", st.Kind, c))
			} else if err != nil {
				return false, err
			}
			want = append(want, m)
		}
	}
	have, err := members(ctx, tx, st.Members, id) // member → link
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
	var drop []uuid.UUID
	for m, link := range have {
		if !keep[m] {
			drop = append(drop, link)
		}
	}
	scope := crud.Scope{Parent: id, Keys: keys}
	if len(drop) > 0 {
		sort.Slice(drop, func(i, j int) bool { return drop[i].String() < drop[j].String() })
		if err := st.Ops.Delete(ctx, im.DB, repeat(scope, len(drop)), drop); err != nil {
			return false, inSet(err, st.Line, nil)
		}
	}
	if len(add) > 0 {
		if _, err := st.Ops.Create(ctx, im.DB, repeat(scope, len(add)), add); err != nil {
			return false, inSet(err, st.Line, at)
		}
	}
	return len(drop)+len(add) > 0, nil
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

// members reads a resource's children as (key or member uuid → child uuid) with query q.
func members(ctx context.Context, tx pgx.Tx, q string, id uuid.UUID) (map[uuid.UUID]uuid.UUID, error) {
	out := map[uuid.UUID]uuid.UUID{}
	rows, err := tx.Query(ctx, q, reqctx.Tenant(ctx), id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, child uuid.UUID
		if err := rows.Scan(&k, &child); err != nil {
			return nil, err
		}
		out[k] = child
	}
	return out, rows.Err()
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
	have, err := members(ctx, tx, mp.Members, id)
	if err != nil {
		return false, err
	}
	scope := []crud.Scope{{Parent: id, Keys: keys}}
	changed := false
	given := map[uuid.UUID]bool{}
	for _, code := range codes {
		field := mp.Line + "." + code
		key, ok, err := lookup(ctx, tx, im.kinds[mp.Kind].Table, code)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, apierr.New(apierr.UnresolvedReference, "%s %q does not exist", mp.Kind, code).
				WithField(field, fmt.Sprintf("no %s with code %q", mp.Kind, code))
		}
		child, exists := have[key]
		val := entries[code]
		given[key] = true
		if mp.Set != nil {
			if !exists {
				m := mp.Ops.NewCreate()
				if err := decodeBody([]byte(`{"`+mp.Field+`":"`+key.String()+`"}`), m); err != nil {
					return false, under(err, field)
				}
				got, err := mp.Ops.Create(ctx, im.DB, scope, []proto.Message{m})
				if err != nil {
					return false, under(err, field)
				}
				child, changed = uuidOf(got[0]), true
			}
			st := *mp.Set
			st.Line = field
			did, err := im.applySet(ctx, tx, st, append(append([]string{}, keys...), mp.IDKey, child.String()), child, key, val)
			if err != nil {
				return false, err
			}
			changed = changed || did
			continue
		}
		if string(val) == "null" {
			if exists {
				if err := mp.Ops.Delete(ctx, im.DB, scope, []uuid.UUID{child}); err != nil {
					return false, under(err, field)
				}
				changed = true
			}
			continue
		}
		fs, order, err := objectKeys(val)
		if err != nil || len(val) == 0 || val[0] != '{' {
			return false, malformed(field, "%s must be an object", field)
		}
		var b bytes.Buffer
		b.WriteByte('{')
		if exists {
			b.WriteString(`"uuid":"` + child.String() + `"`)
		} else {
			b.WriteString(`"` + mp.Field + `":"` + key.String() + `"`)
		}
		for _, f := range order {
			if f == "uuid" || f == mp.Field {
				return false, malformed(field+"."+f, "%s is given by the key", f)
			}
			kb, _ := json.Marshal(f)
			b.WriteByte(',')
			b.Write(kb)
			b.WriteByte(':')
			b.Write(fs[f])
		}
		b.WriteByte('}')
		if exists {
			m := mp.Ops.NewUpdate()
			if err := decodeBody(b.Bytes(), m); err != nil {
				return false, under(err, field)
			}
			_, did, err := mp.Ops.Update(ctx, im.DB, scope, []proto.Message{m})
			if err != nil {
				return false, under(err, field)
			}
			changed = changed || did[0]
			continue
		}
		m := mp.Ops.NewCreate()
		if err := decodeBody(b.Bytes(), m); err != nil {
			return false, under(err, field)
		}
		if _, err := mp.Ops.Create(ctx, im.DB, scope, []proto.Message{m}); err != nil {
			return false, under(err, field)
		}
		changed = true
	}
	if mp.Exact {
		var drop []uuid.UUID
		for key, child := range have {
			if !given[key] {
				drop = append(drop, child)
			}
		}
		sort.Slice(drop, func(i, j int) bool { return drop[i].String() < drop[j].String() })
		if len(drop) > 0 {
			if err := mp.Ops.Delete(ctx, im.DB, repeat(scope[0], len(drop)), drop); err != nil {
				return false, inSet(err, mp.Line, nil)
			}
			changed = true
		}
	}
	return changed, nil
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

// codeMembers reads a resource's children as code → child uuid with query q.
func codeMembers(ctx context.Context, tx pgx.Tx, q string, id uuid.UUID) (map[string]uuid.UUID, error) {
	out := map[string]uuid.UUID{}
	rows, err := tx.Query(ctx, q, reqctx.Tenant(ctx), id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var code string
		var child uuid.UUID
		if err := rows.Scan(&code, &child); err != nil {
			return nil, err
		}
		out[code] = child
	}
	return out, rows.Err()
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
	have, err := codeMembers(ctx, tx, ls.Members, id)
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
		var b bytes.Buffer
		b.WriteByte('{')
		first := true
		put := func(key string, val []byte) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			kb, _ := json.Marshal(key)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(val)
		}
		if exists {
			put("uuid", []byte(`"`+child.String()+`"`))
		}
		for _, f := range order {
			if nested[f] || (exists && f == "code") {
				continue
			}
			if f == "uuid" {
				return false, malformed(at+".uuid", "children are given by code")
			}
			put(f, fs[f])
		}
		b.WriteByte('}')
		if exists {
			m := ls.Ops.NewUpdate()
			if err := decodeBody(b.Bytes(), m); err != nil {
				return false, under(err, at)
			}
			_, did, err := ls.Ops.Update(ctx, im.DB, scope, []proto.Message{m})
			if err != nil {
				return false, under(err, at)
			}
			changed = changed || did[0]
		} else {
			m := ls.Ops.NewCreate()
			if err := decodeBody(b.Bytes(), m); err != nil {
				return false, under(err, at)
			}
			got, err := ls.Ops.Create(ctx, im.DB, scope, []proto.Message{m})
			if err != nil {
				return false, under(err, at)
			}
			child, changed = uuidOf(got[0]), true
		}
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
	var drop []uuid.UUID
	var dropCodes []string
	for code := range have {
		if !listed[code] {
			dropCodes = append(dropCodes, code)
		}
	}
	sort.Strings(dropCodes)
	for _, code := range dropCodes {
		drop = append(drop, have[code])
	}
	if len(drop) > 0 {
		if err := ls.Ops.Delete(ctx, im.DB, repeat(scope[0], len(drop)), drop); err != nil {
			return false, inSet(err, ls.Line, nil)
		}
		changed = true
	}
	return changed, nil
}

// applyMerge merges the items of v, an array of objects keyed by mg's references, into the
// children of resource id. It reports whether anything changed.
func (im *Importer) applyMerge(ctx context.Context, tx pgx.Tx, k *Kind, mg Merge, id uuid.UUID, v json.RawMessage) (bool, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return false, malformed(mg.Line, "%s must be an array of objects", mg.Line)
	}
	have, err := codeMembers(ctx, tx, mg.Members, id)
	if err != nil {
		return false, err
	}
	scope := []crud.Scope{{Parent: id, Keys: []string{k.IDKey, id.String()}}}
	seen := map[string]bool{}
	changed := false
	for i, raw := range items {
		at := fmt.Sprintf("%s[%d]", mg.Line, i)
		fs, order, err := objectKeys(raw)
		if err != nil || len(raw) == 0 || raw[0] != '{' {
			return false, malformed(at, "%s must be an object", at)
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
				return false, err
			}
			refs[ref.Field] = resolved
			var u string
			_ = json.Unmarshal(resolved, &u)
			parts[j] = u
		}
		key := strings.Join(parts, "/")
		if seen[key] {
			return false, apierr.New(apierr.ValidationFailed, "%s repeats the key of an item before it", at).WithField(at, "given twice")
		}
		seen[key] = true
		child, exists := have[key]
		if nv, ok := fs[mg.Null]; ok && string(nv) == "null" {
			if exists {
				if err := mg.Ops.Delete(ctx, im.DB, scope, []uuid.UUID{child}); err != nil {
					return false, under(err, at)
				}
				changed = true
			}
			continue
		}
		var b bytes.Buffer
		b.WriteByte('{')
		first := true
		put := func(name string, val []byte) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			kb, _ := json.Marshal(name)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(val)
		}
		if exists {
			put("uuid", []byte(`"`+child.String()+`"`))
		} else {
			for _, name := range mg.KeyOrder {
				if r, ok := refs[mg.Keys[name].Field]; ok {
					put(mg.Keys[name].Field, r)
				}
			}
		}
		given := 0 // fields of the item besides its key and status
		for _, f := range order {
			if _, isKey := mg.Keys[f]; isKey || (f == "status" && mg.Moves != nil) {
				continue
			}
			if strings.HasSuffix(f, "Uuid") || f == "uuid" {
				return false, malformed(at+"."+f, "references are given by code")
			}
			if ref, ok := mg.Refs[f]; ok {
				resolved, err := im.resolve(ctx, tx, at+"."+f, ref, fs[f])
				if err != nil {
					return false, err
				}
				put(ref.Field, resolved)
			} else {
				put(f, fs[f])
			}
			given++
		}
		b.WriteByte('}')
		var out proto.Message
		if exists && given == 0 {
			// Nothing to update but perhaps the status: the child as it is.
			if out, err = mg.Ops.Get(ctx, im.DB, scope[0], child); err != nil {
				return false, err
			}
		} else if exists {
			m := mg.Ops.NewUpdate()
			if err := decodeBody(b.Bytes(), m); err != nil {
				return false, under(err, at)
			}
			got, did, err := mg.Ops.Update(ctx, im.DB, scope, []proto.Message{m})
			if err != nil {
				return false, lineNames(under(err, at), mg.Keys, mg.Refs)
			}
			out, changed = got[0], changed || did[0]
		} else {
			m := mg.Ops.NewCreate()
			if err := decodeBody(b.Bytes(), m); err != nil {
				return false, under(err, at)
			}
			got, err := mg.Ops.Create(ctx, im.DB, scope, []proto.Message{m})
			if err != nil {
				return false, lineNames(under(err, at), mg.Keys, mg.Refs)
			}
			out, changed = got[0], true
		}
		if st, ok := fs["status"]; ok && mg.Moves != nil {
			var want string
			if err := json.Unmarshal(st, &want); err != nil || want == "" {
				return false, malformed(at+".status", "status must be a string")
			}
			moved, err := im.moveTo(ctx, mg.Moves, scope[0], mg.Moves.Kind(), at+".status", uuidOf(out), statusOf(out), want)
			if err != nil {
				return false, err
			}
			changed = changed || moved
		}
	}
	if mg.Exact {
		var gone []string
		for key := range have {
			if !seen[key] {
				gone = append(gone, key)
			}
		}
		sort.Strings(gone)
		drop := make([]uuid.UUID, len(gone))
		for i, key := range gone {
			drop[i] = have[key]
		}
		if len(drop) > 0 {
			if err := mg.Ops.Delete(ctx, im.DB, repeat(scope[0], len(drop)), drop); err != nil {
				return false, inSet(err, mg.Line, nil)
			}
			changed = true
		}
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
