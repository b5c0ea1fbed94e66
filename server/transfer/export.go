package transfer

// Exports (API.md "Import and export (jobs)"): the catalog written as the lines the importer
// reads, so that an export imported into an empty tenant rebuilds it in one pass. The kinds and
// their children are read through the importer's own declarations (Kind: its table, write path,
// references, sets, maps, lists and merges); products, the bulk of a catalog, through set-based
// batches (export_products.go).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// ExportOptions say what an export writes.
type ExportOptions struct {
	// Types are the line types to export (empty: all).
	Types []string
	// Products selects the products with the filters of GET /v1/products (nil: every product,
	// removed ones included; given: the list's rules, so removed ones only when asked for). Its
	// page, size, cursor, order and include are ignored.
	Products *catalogv1.ListProductsRequest
	// Format is "ndjson" (default) or "csv" (products only).
	Format string
}

// Exporter writes the lines of the kinds it is given from the tenant of the context.
type Exporter struct {
	DB *store.DB
	// kinds in the order of their references: a kind after every kind it refers to.
	kinds  []*Kind
	byType map[string]*Kind
	// products is the list spec of GET /v1/products: its filters select the exported products.
	products *list.Spec
}

// ExportBatch is the number of products read per batch.
const ExportBatch = 1000

// NewExporter is an exporter of kinds; products is the product list's spec (its filters).
func NewExporter(d *store.DB, kinds []*Kind, products *list.Spec) *Exporter {
	ex := &Exporter{DB: d, byType: map[string]*Kind{}, products: products}
	for _, k := range kinds {
		ex.byType[k.Type] = k
	}
	// Dependency order: repeatedly the first kind (in declaration order) whose references are
	// all placed; a reference to the kind itself (a category's parent) is ordered within it.
	placed := map[string]bool{}
	for len(ex.kinds) < len(kinds) {
		progress := false
		for _, k := range kinds {
			if placed[k.Type] {
				continue
			}
			ready := true
			for _, dep := range k.references() {
				if dep != k.Type && ex.byType[dep] != nil && !placed[dep] {
					ready = false
				}
			}
			if ready {
				placed[k.Type], progress = true, true
				ex.kinds = append(ex.kinds, k)
			}
		}
		if !progress { // a cycle between kinds: the rest in declaration order
			for _, k := range kinds {
				if !placed[k.Type] {
					placed[k.Type] = true
					ex.kinds = append(ex.kinds, k)
				}
			}
		}
	}
	return ex
}

// Func is the exporter as the jobs' ExportFunc.
func (ex *Exporter) Func() ExportFunc {
	return func(ctx context.Context, types []string, products *catalogv1.ListProductsRequest, format string, w io.Writer, progress func(int64)) (int64, error) {
		return ex.Export(ctx, ExportOptions{Types: types, Products: products, Format: format}, w, progress)
	}
}

// Types are the line types in the order an export writes them.
func (ex *Exporter) Types() []string {
	out := make([]string, len(ex.kinds))
	for i, k := range ex.kinds {
		out[i] = k.Type
	}
	return out
}

// references are the line types k's lines refer to.
func (k *Kind) references() []string {
	var out []string
	for _, r := range k.Refs {
		out = append(out, r.Kind)
	}
	for _, st := range k.Sets {
		out = append(out, st.Kind)
	}
	for _, mp := range k.Maps {
		out = append(out, mp.Kind)
	}
	for _, ls := range k.Lists {
		for _, mp := range ls.Maps {
			out = append(out, mp.Kind)
		}
	}
	for _, mg := range k.Merges {
		for _, r := range mg.Keys {
			out = append(out, r.Kind)
		}
		for _, r := range mg.Refs {
			out = append(out, r.Kind)
		}
	}
	sort.Strings(out)
	return out
}

// selfRef is k's reference to its own kind (a category's "parent"), if any.
func (k *Kind) selfRef() (string, Ref, bool) {
	for name, r := range k.Refs {
		if r.Kind == k.Type && !r.List {
			return name, r, true
		}
	}
	return "", Ref{}, false
}

// Export writes the export of opts to w and answers how many items (resources of the selected
// types) it wrote; progress, when set, is called as items are written. Everything is read in one
// read-only snapshot. A bad option is an API error (VALIDATION_FAILED naming the option).
func (ex *Exporter) Export(ctx context.Context, opts ExportOptions, w io.Writer, progress func(items int64)) (int64, error) {
	kinds, err := ex.selected(opts)
	if err != nil {
		return 0, err
	}
	var where string
	var args []any
	if opts.Products != nil && ex.products != nil {
		req := proto.Clone(opts.Products).(*catalogv1.ListProductsRequest)
		req.Page, req.Size, req.Cursor, req.OrderBy, req.Include, req.Expand = nil, nil, nil, nil, nil, nil
		q, err := ex.products.Build(reqctx.Tenant(ctx), req)
		if err != nil {
			return 0, productFilterErr(err)
		}
		where, args = q.Where, q.Args
	}
	tx, err := ex.DB.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	r := &reader{ex: ex, ctx: store.WithTx(ctx, tx), tx: tx, tenant: reqctx.Tenant(ctx), codes: map[string]map[uuid.UUID]string{}}
	if r.where, r.args = where, args; r.where == "" {
		r.where, r.args = "tenant_id = $1", []any{r.tenant}
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	out := &output{w: bw, progress: progress}
	if opts.Format == "csv" {
		err = r.productsCSV(out)
	} else {
		for _, k := range kinds {
			if err = r.kind(k, out); err != nil {
				break
			}
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if out.progress != nil {
		out.progress(out.items)
	}
	return out.items, err
}

// selected are the kinds opts asks for, in export order.
func (ex *Exporter) selected(opts ExportOptions) ([]*Kind, error) {
	switch opts.Format {
	case "", "ndjson":
	case "csv":
		if ex.products == nil || ex.byType["product"] == nil {
			return nil, apierr.New(apierr.ValidationFailed, "this exporter has no products").WithField("format", "csv exports products")
		}
		for _, t := range opts.Types {
			if t != "product" {
				return nil, apierr.New(apierr.ValidationFailed, "a csv export has products only").WithField("types", "csv exports products only")
			}
		}
		return nil, nil
	default:
		return nil, apierr.New(apierr.ValidationFailed, "format must be ndjson or csv").WithField("format", "must be ndjson or csv")
	}
	if len(opts.Types) == 0 {
		return ex.kinds, nil
	}
	want := map[string]bool{}
	for i, t := range opts.Types {
		if ex.byType[t] == nil {
			msg := fmt.Sprintf("unknown type %q: one of %s", t, strings.Join(ex.Types(), ", "))
			return nil, apierr.New(apierr.ValidationFailed, "%s", msg).WithField(fmt.Sprintf("types[%d]", i), msg)
		}
		want[t] = true
	}
	var out []*Kind
	for _, k := range ex.kinds {
		if want[k.Type] {
			out = append(out, k)
		}
	}
	return out, nil
}

// productFilterErr names a filter error after the export's productFilter.
func productFilterErr(err error) error {
	if ae, ok := err.(*apierr.Error); ok {
		for i := range ae.Fields {
			ae.Fields[i].Field = "productFilter." + ae.Fields[i].Field
		}
	}
	return err
}

// output is where lines go, counted.
type output struct {
	w        *bufio.Writer
	items    int64
	progress func(int64)
}

// line writes one line; item: it defines a resource (a later line that completes one does not
// count).
func (o *output) line(b []byte, item bool) error {
	b = append(b, '\n')
	if _, err := o.w.Write(b); err != nil {
		return err
	}
	if item {
		o.items++
	}
	return nil
}

// tick reports progress.
func (o *output) tick() {
	if o.progress != nil {
		o.progress(o.items)
	}
}

// reader reads one export's snapshot.
type reader struct {
	ex     *Exporter
	ctx    context.Context
	tx     pgx.Tx
	tenant string
	// where and args select the exported products (args[0] the tenant).
	where string
	args  []any
	// codes caches the codes of referenced resources by table.
	codes map[string]map[uuid.UUID]string
}

// code is the code of resource id of line type kind.
func (r *reader) code(kind string, id uuid.UUID) (string, error) {
	k := r.ex.byType[kind]
	if k == nil {
		return "", fmt.Errorf("export: no line type %q", kind)
	}
	return r.codeIn(k.Table, id)
}

// codeIn is the code of row id of table (cached: the tables of referenced resources are the
// catalog's structure, read once per export).
func (r *reader) codeIn(table string, id uuid.UUID) (string, error) {
	m := r.codes[table]
	if m == nil {
		m = map[uuid.UUID]string{}
		r.codes[table] = m
	}
	if c, ok := m[id]; ok {
		return c, nil
	}
	var c string
	if err := r.tx.QueryRow(r.ctx, "SELECT code FROM "+pgx.Identifier{table}.Sanitize()+" WHERE tenant_id = $1 AND uuid = $2", r.tenant, id).Scan(&c); err != nil {
		return "", fmt.Errorf("export: the code of %s %s: %w", table, id, err)
	}
	m[id] = c
	return c, nil
}

// kind writes the lines of kind k.
func (r *reader) kind(k *Kind, out *output) error {
	if r.ex.products != nil && k.Table == r.ex.products.Table {
		return r.products(k, out)
	}
	ids, err := r.rows(k)
	if err != nil {
		return err
	}
	for n, id := range ids {
		b, err := r.resource(k, id)
		if err != nil {
			return err
		}
		if err := out.line(b, true); err != nil {
			return err
		}
		if n%ExportBatch == ExportBatch-1 {
			out.tick()
		}
	}
	return nil
}

// rows are the uuids of k's resources in export order: by code, or for a kind that refers to
// itself (a tree) by depth and then code, so a parent comes before its children.
func (r *reader) rows(k *Kind) ([]uuid.UUID, error) {
	table := pgx.Identifier{k.Table}.Sanitize()
	q := "SELECT uuid FROM " + table + " WHERE tenant_id = $1 ORDER BY code"
	if _, ref, ok := k.selfRef(); ok {
		col := pgx.Identifier{column(ref.Field)}.Sanitize()
		q = "WITH RECURSIVE t AS (SELECT uuid, code, 0 AS depth FROM " + table + " WHERE tenant_id = $1 AND " + col + " IS NULL" +
			" UNION ALL SELECT c.uuid, c.code, t.depth + 1 FROM " + table + " c JOIN t ON c.tenant_id = $1 AND c." + col + " = t.uuid)" +
			" SELECT uuid FROM t ORDER BY depth, code"
	}
	rows, err := r.tx.Query(r.ctx, q, r.tenant)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// column is the column of a body's JSON field ("parentUuid": parent_uuid).
func column(field string) string {
	var b strings.Builder
	for _, c := range field {
		if c >= 'A' && c <= 'Z' {
			b.WriteByte('_')
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// message reads a resource as the family's reads show it, as JSON members.
func (r *reader) message(ops crud.Ops, scope crud.Scope, id uuid.UUID) (map[string]json.RawMessage, error) {
	m, err := ops.Get(r.ctx, r.ex.DB, scope, id)
	if err != nil {
		return nil, err
	}
	b, err := (jsonpb.Marshaler{}).Marshal(m)
	if err != nil {
		return nil, err
	}
	fs, _, err := objectKeys(b)
	return fs, err
}

// resource is the line of resource id of kind k.
func (r *reader) resource(k *Kind, id uuid.UUID) ([]byte, error) {
	msg, err := r.message(k.Ops, crud.Scope{}, id)
	if err != nil {
		return nil, err
	}
	var o object
	o.put("type", jsonString(k.Type))
	if err := r.body(&o, k.Ops.NewCreate(), msg, k.Refs, nil); err != nil {
		return nil, err
	}
	if k.Ops.Machine() != nil {
		o.putSome("status", msg["status"])
	}
	keys := []string{k.IDKey, id.String()}
	for _, st := range k.Sets {
		if st.Lookup != "" {
			return nil, fmt.Errorf("export: the set %s of %s is read by the product reader only", st.Line, k.Type)
		}
		members, err := children[uuid.UUID](r.ctx, r.tx, st.Members, id)
		if err != nil {
			return nil, err
		}
		codes := make([]string, 0, len(members))
		for m := range members {
			c, err := r.code(st.Kind, m)
			if err != nil {
				return nil, err
			}
			codes = append(codes, c)
		}
		if len(codes) > 0 {
			sort.Strings(codes)
			o.put(st.Line, jsonStrings(codes))
		}
	}
	for _, mp := range k.Maps {
		if err := r.mapOf(&o, mp, keys, []uuid.UUID{id}); err != nil {
			return nil, err
		}
	}
	for _, ls := range k.Lists {
		if err := r.listOf(&o, ls, keys, id); err != nil {
			return nil, err
		}
	}
	for _, mg := range k.Merges {
		if err := r.mergeOf(&o, mg, keys, id); err != nil {
			return nil, err
		}
	}
	return o.bytes(), nil
}

// body puts the fields of a create body (the descriptor of create) that msg holds: references as
// codes under their line names, everything else as the API shows it; null, empty and zero values
// are left out (absent means the same on create), and so is a displayName equal to the code (its
// default). skip names fields given otherwise (a child's key).
func (r *reader) body(o *object, create proto.Message, msg map[string]json.RawMessage, refs map[string]Ref, skip map[string]bool) error {
	fds := create.ProtoReflect().Descriptor().Fields()
	if fd := fds.ByJSONName("code"); fd != nil && !skip["code"] {
		if v, ok := msg["code"]; ok {
			o.put("code", v)
		}
	}
	for i := 0; i < fds.Len(); i++ {
		fd := fds.Get(i)
		name := fd.JSONName()
		if name == "code" {
			continue
		}
		v, ok := msg[name]
		if !ok || skip[name] || empty(v) {
			continue
		}
		if name == "displayName" && bytes.Equal(v, msg["code"]) {
			continue
		}
		if line, ref, isRef := refByField(refs, name); isRef {
			codes, err := r.refCodes(ref, v)
			if err != nil {
				return err
			}
			o.put(line, codes)
			continue
		}
		if fd.Kind() == protoreflect.MessageKind || fd.IsList() || fd.IsMap() {
			if v = withoutNulls(v); empty(v) {
				continue
			}
		}
		o.put(name, v)
	}
	return nil
}

// refCodes is the code (or codes) of reference value v (a uuid or an array of them).
func (r *reader) refCodes(ref Ref, v json.RawMessage) ([]byte, error) {
	var ids []uuid.UUID
	if ref.List {
		if err := json.Unmarshal(v, &ids); err != nil {
			return nil, err
		}
	} else {
		var id uuid.UUID
		if err := json.Unmarshal(v, &id); err != nil {
			return nil, err
		}
		ids = []uuid.UUID{id}
	}
	codes := make([]string, len(ids))
	for i, id := range ids {
		c, err := r.code(ref.Kind, id)
		if err != nil {
			return nil, err
		}
		codes[i] = c
	}
	if ref.List {
		sort.Strings(codes)
		return jsonStrings(codes), nil
	}
	return jsonString(codes[0]), nil
}

// refByField finds the reference whose body field is field: its line name.
func refByField(refs map[string]Ref, field string) (string, Ref, bool) {
	for name, r := range refs {
		if r.Field == field {
			return name, r, true
		}
	}
	return "", Ref{}, false
}

// empty: a value a line leaves out (null, "", false, 0, [] or {}).
func empty(v json.RawMessage) bool {
	switch s := string(bytes.TrimSpace(v)); s {
	case "null", `""`, "false", "0", "[]", "{}":
		return true
	}
	return false
}

// withoutNulls is v compacted, without the null members of its objects (a message's unset
// fields: {"maxLength":80,"min":null} is {"maxLength":80}).
func withoutNulls(v json.RawMessage) json.RawMessage {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '{' {
		return compact(v)
	}
	fs, order, err := objectKeys(v)
	if err != nil {
		return compact(v)
	}
	var o object
	for _, k := range order {
		if c := withoutNulls(fs[k]); string(c) != "null" {
			o.put(k, c)
		}
	}
	return o.bytes()
}

func compact(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		return v
	}
	return b.Bytes()
}

// mapOf puts map mp of the resource at the end of path: an object keyed by the keys' codes.
func (r *reader) mapOf(o *object, mp Map, keys []string, path []uuid.UUID) error {
	if mp.Set != nil {
		return fmt.Errorf("export: the map %s with sets is read by the product reader only", mp.Line)
	}
	id := path[len(path)-1]
	ops := mp.Ops
	if mp.OpsOf != nil {
		ops = mp.OpsOf(path)
	}
	have, err := children[uuid.UUID](r.ctx, r.tx, mp.Members, id)
	if err != nil {
		return err
	}
	type entry struct {
		code string
		body []byte
	}
	var entries []entry
	for key, child := range have {
		c, err := r.code(mp.Kind, key)
		if err != nil {
			return err
		}
		msg, err := r.message(ops, crud.Scope{Parent: id, Keys: keys}, child)
		if err != nil {
			return err
		}
		var b object
		if err := r.body(&b, ops.NewCreate(), msg, nil, map[string]bool{mp.Field: true}); err != nil {
			return err
		}
		entries = append(entries, entry{c, b.bytes()})
	}
	if len(entries) == 0 {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].code < entries[j].code })
	var m object
	for _, e := range entries {
		m.put(e.code, e.body)
	}
	o.put(mp.Line, m.bytes())
	return nil
}

// listOf puts list ls of resource id: its children by code, each with its own maps.
func (r *reader) listOf(o *object, ls List, keys []string, id uuid.UUID) error {
	have, err := children[string](r.ctx, r.tx, ls.Members, id)
	if err != nil {
		return err
	}
	codes := make([]string, 0, len(have))
	for c := range have {
		codes = append(codes, c)
	}
	if len(codes) == 0 {
		return nil
	}
	sort.Strings(codes)
	items := make([][]byte, len(codes))
	for i, c := range codes {
		child := have[c]
		msg, err := r.message(ls.Ops, crud.Scope{Parent: id, Keys: keys}, child)
		if err != nil {
			return err
		}
		var b object
		if err := r.body(&b, ls.Ops.NewCreate(), msg, nil, nil); err != nil {
			return err
		}
		ckeys := append(append([]string{}, keys...), ls.IDKey, child.String())
		for _, mp := range ls.Maps {
			if err := r.mapOf(&b, mp, ckeys, []uuid.UUID{id, child}); err != nil {
				return err
			}
		}
		items[i] = b.bytes()
	}
	o.put(ls.Line, jsonArray(items))
	return nil
}

// mergeOf puts merge mg of resource id: its children, each with its key references as codes,
// its other fields and, for a child with a lifecycle, its status; in the order of their JSON.
func (r *reader) mergeOf(o *object, mg Merge, keys []string, id uuid.UUID) error {
	have, err := children[string](r.ctx, r.tx, mg.Members, id)
	if err != nil {
		return err
	}
	var items [][]byte
	for _, child := range have {
		msg, err := r.message(mg.Ops, crud.Scope{Parent: id, Keys: keys}, child)
		if err != nil {
			return err
		}
		var b object
		skip := map[string]bool{}
		for _, name := range mg.KeyOrder {
			ref := mg.Keys[name]
			skip[ref.Field] = true
			v, ok := msg[ref.Field]
			if !ok || empty(v) {
				continue
			}
			codes, err := r.refCodes(ref, v)
			if err != nil {
				return err
			}
			b.put(name, codes)
		}
		if err := r.body(&b, mg.Ops.NewCreate(), msg, mg.Refs, skip); err != nil {
			return err
		}
		if mg.Moves != nil {
			b.putSome("status", msg["status"])
		}
		items = append(items, b.bytes())
	}
	if len(items) == 0 {
		return nil
	}
	sort.Slice(items, func(i, j int) bool { return bytes.Compare(items[i], items[j]) < 0 })
	o.put(mg.Line, jsonArray(items))
	return nil
}

// putSome puts a member the message has.
func (o *object) putSome(key string, v json.RawMessage) {
	if len(v) > 0 && string(v) != "null" {
		o.put(key, v)
	}
}

// jsonStrings is codes as a JSON array of strings.
func jsonStrings(codes []string) []byte { return appendList(nil, codes) }

// jsonArray is the JSON array of items (each a JSON value).
func jsonArray(items [][]byte) []byte {
	return append(append([]byte{'['}, bytes.Join(items, []byte{','})...), ']')
}
