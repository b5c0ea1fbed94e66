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
	// Line is the line's field ("terms"); Kind the line type its items' codes are referred to by
	// ("term").
	Line, Kind string
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
	// missing and the list becomes its set (a product's attributes, each with its terms). With
	// SetIn, the value may also be an object: its SetIn field is the list (absent: the set is left
	// alone) and its other fields are the child's own, created or updated with PATCH semantics
	// ({"terms":["red"],"isVariantAxis":true}).
	Set   *Set
	SetIn string
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
	// Unresolved is the reference that failed the line with UNRESOLVED_REFERENCE, if one did.
	Unresolved *RefKey
	// Skipped: Unchanged found by comparing the line with what is stored, without applying it
	// (unchanged.go).
	Skipped bool
}

// RefKey names a resource by line type and code.
type RefKey struct{ Type, Code string }

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
	return im.apply1(ctx, line, false)
}

// Check is Apply rolled back whatever happens: the line is checked and its outcome told, nothing
// is written and no event recorded (a dry run).
func (im *Importer) Check(ctx context.Context, line []byte) (Result, error) {
	return im.apply1(ctx, line, true)
}

// errDryRun rolls a checked line back.
var errDryRun = errors.New("dry run")

func (im *Importer) apply1(ctx context.Context, line []byte, dry bool) (Result, error) {
	var res Result
	l, err := im.decode(line, &res)
	if err != nil {
		return failedLine(res, err)
	}
	c := codesOf(ctx)
	hits := c.hitCount()
	// First the fast way: the family writes without savepoints of their own (store.Flat). Most
	// lines succeed so; a line where a family's write failed is applied again the careful way
	// (savepoints, which the writes' error handling relies on: a second attempt of a create,
	// the explanation of a refused delete, a bulk written again item by item), so its outcome
	// and errors are exactly those of that way. And a line that used remembered codes and fails
	// is applied again looking them up, so that a resource deleted meanwhile fails the line as
	// it would have without the memory.
	res, err = im.applyOnce(ctx, l, dry, true)
	flatFailed := errors.Is(err, errFlat)
	if stale := (flatFailed || (err == nil && res.Outcome == Failed)) && c.hitCount() > hits; stale || flatFailed {
		if stale {
			ctx = refreshing(ctx)
		}
		res, err = im.applyOnce(ctx, l, dry, false)
	}
	return res, err
}

// errFlat rolls back a line whose fast attempt met a failure of a family's write.
var errFlat = errors.New("a write failed without its savepoint")

func (im *Importer) applyOnce(ctx context.Context, l *line, dry, flat bool) (Result, error) {
	res := Result{Type: l.kind.Type, Code: l.code}
	// One time for the line's writes, and their events recorded together at its end.
	ctx = store.WithNow(ctx, store.NowFor(ctx))
	err := im.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		lctx := crud.HoldEvents(store.WithTx(ctx, tx))
		if flat {
			lctx = store.Flat(lctx)
		}
		err := im.apply(lctx, tx, l, &res)
		if store.FlatFailed(lctx) {
			return errFlat
		}
		if err != nil {
			return err
		}
		if err := crud.RecordHeld(lctx, q); err != nil || !dry {
			return err
		}
		return errDryRun
	})
	if errors.Is(err, errDryRun) {
		return res, nil
	}
	if errors.Is(err, errFlat) {
		return res, err
	}
	return failedLine(res, err)
}

// failedLine is res failed with err when err is the API's error (the line's own fault); any
// other error is the database failing.
func failedLine(res Result, err error) (Result, error) {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		res.Outcome, res.UUID, res.Errors = Failed, uuid.Nil, lineErrors(ae)
		if ae.Code == apierr.UnresolvedReference {
			kind, _ := ae.Meta["kind"].(string)
			code, _ := ae.Meta["code"].(string)
			res.Unresolved = &RefKey{Type: kind, Code: code}
		}
		return res, nil
	}
	return res, err
}

// exists tells whether the resource a line names exists (in the transaction of ctx, if any).
func (im *Importer) exists(ctx context.Context, raw []byte) (uuid.UUID, bool, error) {
	var res Result
	l, err := im.decode(raw, &res)
	if err != nil {
		return uuid.Nil, false, err
	}
	var id uuid.UUID
	var ok bool
	err = im.DB.Tx(ctx, func(tx pgx.Tx, _ *db.Queries) error {
		var err error
		id, ok, err = lookup(ctx, tx, l.kind.Table, l.code)
		return err
	})
	return id, ok, err
}

// Defines are the codes line defines (its own, and its children's with codes of their own such as
// an attribute's terms), by line type; nil for a line that cannot be read.
func (im *Importer) Defines(line []byte) []RefKey {
	var res Result
	l, err := im.decode(line, &res)
	if err != nil {
		return nil
	}
	return im.definesOf(l)
}

// definesOf is Defines of a decoded line.
func (im *Importer) definesOf(l *line) []RefKey {
	out := []RefKey{{Type: l.kind.Type, Code: l.code}}
	for _, ls := range l.kind.Lists {
		var items []struct {
			Code string `json:"code"`
		}
		if json.Unmarshal(l.fields[ls.Line], &items) == nil {
			for _, it := range items {
				out = append(out, RefKey{Type: ls.Kind, Code: it.Code})
			}
		}
	}
	return out
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
	id, exists, err := ownLookup(ctx, tx, k.Table, l.code)
	if err != nil {
		return err
	}
	body, err := im.body(ctx, tx, l, id, exists)
	if err != nil {
		return err
	}
	out, changed, err := im.write(ctx, k.Ops, crud.Scope{}, exists, body)
	if err != nil {
		return lineNames(err, k.Refs)
	}
	switch {
	case !exists:
		res.Outcome = Created
	case changed:
		res.Outcome = Updated
	default:
		res.Outcome = Unchanged
	}
	res.UUID = uuidOf(out)
	if ctx, err = im.readChildren(ctx, tx, l, res.UUID); err != nil {
		return err
	}
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
		moved, err := im.moveTo(ctx, k.Ops, crud.Scope{}, k.Type, "status", res.UUID, !exists, statusOf(out), l.status)
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
	var o object
	if exists {
		o.id("uuid", id)
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
			o.put(key, v)
			continue
		}
		resolved, err := im.resolve(ctx, tx, key, ref, v)
		if err != nil {
			return nil, err
		}
		o.put(ref.Field, resolved)
	}
	return o.bytes(), nil
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
		id, ok, err := refLookup(ctx, tx, target.Table, c)
		if err != nil {
			return nil, err
		}
		if !ok {
			field := key
			if ref.List {
				field = fmt.Sprintf("%s[%d]", key, i)
			}
			return nil, unresolved(ref.Kind, c, field)
		}
		ids[i] = id.String()
	}
	if ref.List {
		return json.Marshal(ids)
	}
	return json.Marshal(ids[0])
}

// unresolved is the failure of a reference (field) to a code of kind that does not exist. Its meta
// names the kind and the code: a dry run tells the codes that lines before it would have created.
func unresolved(kind, code, field string) *apierr.Error {
	return apierr.New(apierr.UnresolvedReference, "%s %q does not exist", kind, code).
		WithField(field, fmt.Sprintf("no %s with code %q", kind, code)).WithMeta("kind", kind).WithMeta("code", code)
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
// current status or, for a resource the line created (created), through the shortest chain of
// transitions that does (a new category reaches inactive by activate then deactivate, so that an
// export, which gives statuses as they are, rebuilds them); each move is the API's, with its gate
// and its events. It reports whether it moved.
func (im *Importer) moveTo(ctx context.Context, ops crud.Ops, scope crud.Scope, typ, field string, id uuid.UUID, created bool, cur, want string) (bool, error) {
	if cur == want {
		return false, nil
	}
	m := ops.Machine()
	path, known := m.Path(cur, want)
	if !known {
		states := m.States()
		return false, apierr.New(apierr.ValidationFailed, "%s must be one of %s", field, strings.Join(states, ", ")).
			WithField(field, "must be one of "+strings.Join(states, ", "))
	}
	if path == nil || (len(path) > 1 && !created) {
		return false, m.Refuse(cur, "a %s in status %s cannot move to %s", typ, cur, want).WithField(field, "cannot move from "+cur+" to "+want)
	}
	for _, transition := range path {
		if _, err := via(ctx, ops).Move(ctx, im.DB, []crud.Scope{scope}, transition, []uuid.UUID{id}); err != nil {
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
	}
	return true, nil
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
