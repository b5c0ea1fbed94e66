// Package list runs every list operation: it reads the filter, order and page fields of a list
// request message (by reflection, so each family only declares a Spec), builds one parameterised
// SQL query with just the predicates given (so PostgreSQL plans each shape with its indexes),
// and returns a page with its pagination object.
//
// A page is read either by offset (page) or by keyset (cursor, see cursor.go): every page carries
// the cursor of the page after it, so a walk costs the same per page however deep it goes.
package list

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/fields"
)

// Type of a filterable column.
type Type int

const (
	Text Type = iota
	UUID
	Time
	Bool
	Int
	Enum
)

// Field maps a filter field of a list request (its JSON name, e.g. "codes" or "code") onto a column.
type Field struct {
	Column string
	Type   Type
	// Values allowed for an Enum column (checked here); for a Text column, the values its service
	// allows (checked by the service). Either way the OpenAPI document lists them as the enum.
	Values []string
	// Single: the filter takes one value (a singular name such as status[eq]); more is 400.
	Single bool
	// Match, when set, replaces "Column = ANY(values)" for a filter on the rows of other tables
	// (links, publications): an SQL condition on the row, such as an IN or EXISTS subquery, that
	// names the listed table's columns by the table (products.uuid) and holds @values, the
	// filter's values as one array parameter (uuid[] for a UUID filter, text[] otherwise), and
	// @tenant, the tenant's parameter. The family thus declares the join and the list machinery
	// still validates, binds and hashes the values like any other filter.
	Match string
}

// SoftDelete describes a family whose removed items are left out of lists unless asked for.
type SoftDelete struct {
	// StatusColumn and Removed: the status column and its removed value.
	StatusColumn, Removed string
	// IsRemovedField and StatusesField: the JSON names of the isRemoved[eq] and statuses[eq] filters.
	IsRemovedField, StatusesField string
}

// Spec is what a family declares about its list operation.
type Spec struct {
	Table string
	// Global tables (platform-managed, such as the event type catalog) have no tenant_id.
	Global bool
	// Filters by JSON field name of the request message.
	Filters map[string]Field
	// Order maps the order field names (the request's (catalog.v1.list).order_fields) onto columns.
	Order map[string]string
	// DefaultOrder (optional) are the columns, ascending, of a list asked for no order; created_at
	// otherwise. Ties break on uuid either way.
	DefaultOrder []string
	// DefaultDesc: DefaultOrder (or created_at) runs descending (newest first: history).
	DefaultDesc bool
	SoftDelete  *SoftDelete
	// Where (optional) is a fixed SQL condition on the listed table, part of every query of the
	// list (page and count): what the list may show at all, whatever the request.
	Where string
	// Search (optional): the list's full-text search, q (search.go).
	Search *Search
	// Facets (optional) by name: what facets[] may ask for (search.go).
	Facets map[string]Facet
	// NotNull (optional) are columns never NULL that PostgreSQL cannot tell so, those of a view
	// (loadNotNull reads a table's own): their keyset pages then start at an index range.
	NotNull []string
}

// Cond is a fixed condition of a scoped list (the parent of a sub-resource).
type Cond struct {
	Column string
	Value  any
}

// Eq scopes a list to column = value.
func Eq(column string, value any) Cond { return Cond{column, value} }

// Page limits.
const (
	DefaultSize = 20
	MaxSize     = 100
)

// Query is a built list query.
type Query struct {
	// SQL reads the page and one row more (whether there is a next page); each row ends with the
	// column KeyColumn, its position in the order (for the next page's cursor). CountSQL counts
	// the matches; it is empty on a cursor page, whose count came with the cursor.
	SQL, CountSQL string
	Args          []any
	Page, Size    int32
	// Total is the count a cursor page carries (from the page the walk started on).
	Total int64
	// Where is the condition of the filters on the table's rows (no cursor, order or page), over
	// Args: for a reader of every match in its own order (an export).
	Where string
	// hash identifies the filters and order the query was built for (queryHash).
	hash []byte
	// cursored: the page starts after a cursor's position.
	cursored bool
	// search is the parsed q (nil without), whose tsquery goes into Args[searchArg-1].
	search    *searchInput
	searchArg int
	// facets are the statements of the facets asked for.
	facets []facetQuery
	// countInPage: SQL's rows end with TotalColumn, the count of the matches, after KeyColumn
	// (CountSQL is run only when the page is empty past the first page).
	countInPage bool
}

// KeyColumn is the column SQL adds after the table's: the page's order columns and uuid as text.
const KeyColumn = "catalogd_list_key"

// TotalColumn is the column after KeyColumn of a page that counts its matches (Query.countInPage).
const TotalColumn = "catalogd_list_total"

var (
	stringsFilter = (&catalogv1.StringsFilter{}).ProtoReflect().Descriptor().FullName()
	stringFilter  = (&catalogv1.StringFilter{}).ProtoReflect().Descriptor().FullName()
	timeFilter    = (&catalogv1.TimeFilter{}).ProtoReflect().Descriptor().FullName()
	boolFilter    = (&catalogv1.BoolFilter{}).ProtoReflect().Descriptor().FullName()
	intFilter     = (&catalogv1.IntFilter{}).ProtoReflect().Descriptor().FullName()
	orderByName   = (&catalogv1.OrderBy{}).ProtoReflect().Descriptor().FullName()
)

// pageFields are the fields every list request has, as Build reads them.
var pageFields = []struct {
	name string
	kind protoreflect.Kind
}{{"page", protoreflect.Int32Kind}, {"size", protoreflect.Int32Kind}, {"cursor", protoreflect.StringKind}}

// Check verifies at start-up that spec covers every filter and order field of the request type
// (a filter the API offers but the SQL ignores would silently return everything) and that the
// request has the page fields of every list (optional page, size and cursor).
func (s *Spec) Check(req proto.Message) error {
	md := req.ProtoReflect().Descriptor()
	fs := md.Fields()
	for _, pf := range pageFields {
		f := fs.ByJSONName(pf.name)
		if f == nil || f.Kind() != pf.kind || f.IsList() || !f.HasPresence() {
			return fmt.Errorf("%s: a list request needs the field optional %s %s", md.FullName(), pf.kind, pf.name)
		}
	}
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if f.Kind() != protoreflect.MessageKind || f.IsList() {
			continue
		}
		switch f.Message().FullName() {
		case stringsFilter, stringFilter, timeFilter, boolFilter, intFilter:
			if _, ok := s.Filters[f.JSONName()]; !ok {
				if (s.SoftDelete == nil || f.JSONName() != s.SoftDelete.IsRemovedField) && (s.Search == nil || f.JSONName() != s.Search.LocalesField) {
					return fmt.Errorf("%s: filter %s has no column in the list spec", md.FullName(), f.JSONName())
				}
			}
		}
	}
	for name, f := range s.Filters {
		if f.Match == "" {
			continue
		}
		if (f.Type != UUID && f.Type != Text) || !strings.Contains(f.Match, "@values") {
			return fmt.Errorf("%s: filter %s: Match is for uuid or text values filters and must use @values", md.FullName(), name)
		}
		if s.Global && strings.Contains(f.Match, "@tenant") {
			return fmt.Errorf("%s: filter %s: a global list has no @tenant", md.FullName(), name)
		}
	}
	if lo, ok := proto.GetExtension(md.Options(), catalogv1.E_List).(*catalogv1.ListOptions); ok && lo != nil {
		for _, o := range lo.OrderFields {
			if _, ok := s.Order[o]; !ok {
				return fmt.Errorf("%s: order field %s has no column in the list spec", md.FullName(), o)
			}
		}
	}
	return nil
}

type builder struct {
	where []string
	args  []any
	// tenant is the tenant's parameter ($1), empty on a global table.
	tenant string
	// searchArg is the 1-based index in args of the search's tsquery (0: no search), rank the
	// relevance expression.
	searchArg int
	rank      string
}

func (b *builder) arg(v any) string {
	b.args = append(b.args, v)
	return "$" + strconv.Itoa(len(b.args))
}

// match is the condition of a values filter whose array parameter is values: the field's Match
// with its @values and @tenant set, or its column equal to one of the values.
func (b *builder) match(f Field, values string) string {
	if f.Match == "" {
		return f.Column + " = ANY(" + values + ")"
	}
	return "(" + strings.NewReplacer("@values", values, "@tenant", b.tenant).Replace(f.Match) + ")"
}

// Build turns a list request into SQL. Errors name the query parameter (`codes[eq]`).
func (s *Spec) Build(tenant string, req proto.Message, scope ...Cond) (*Query, error) {
	m := req.ProtoReflect()
	fs := m.Descriptor().Fields()
	v := apierr.NewValidator()
	q := &Query{Page: 1, Size: DefaultSize}
	var order []*catalogv1.OrderBy
	var cursor *string
	pageSet := false
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		name := f.JSONName()
		switch {
		case name == "page" || name == "size":
			if !m.Has(f) {
				continue
			}
			// Their bounds (page 1 or more, size 1 to MaxSize) are request rules in proto,
			// checked before the RPC runs.
			n := int32(m.Get(f).Int())
			if name == "page" {
				q.Page, pageSet = n, true
			} else {
				q.Size = n
			}
		case name == "cursor":
			if m.Has(f) {
				c := m.Get(f).String()
				cursor = &c
			}
		case f.IsList() && f.Kind() == protoreflect.MessageKind && f.Message().FullName() == orderByName:
			l := m.Get(f).List()
			for j := 0; j < l.Len(); j++ {
				order = append(order, l.Get(j).Message().Interface().(*catalogv1.OrderBy))
			}
		}
	}
	search := s.parseSearch(m, v)
	b := s.conditions(tenant, m, v, search, "", scope)
	var keys []orderKey
	last, byRelevance := false, false
	for _, o := range order {
		col, ok := s.Order[o.Field]
		if !ok {
			v.Add(o.Field+"[order]", "cannot be ordered")
			continue
		}
		last = o.Direction == catalogv1.SortDirection_SORT_DIRECTION_DESC
		k := orderKey{col: col, desc: last}
		if col == Relevance {
			if search == nil {
				// Without q every row is as relevant as any other: only the ties' order is left.
				byRelevance, last = true, false
				continue
			}
			k = orderKey{col: b.rank, desc: last, notNull: true}
		}
		keys = append(keys, k)
	}
	tieDesc := last
	if len(keys) == 0 && search != nil {
		// With q: most relevant first, ties by uuid ascending.
		keys, tieDesc = []orderKey{{col: b.rank, desc: true, notNull: true}}, false
	}
	if len(keys) == 0 && !byRelevance {
		def := s.DefaultOrder
		if len(def) == 0 {
			def = []string{"created_at"}
		}
		for _, col := range def {
			keys = append(keys, orderKey{col: col, desc: s.DefaultDesc})
		}
		tieDesc = s.DefaultDesc
	}
	if len(keys) > 0 && keys[len(keys)-1].notNull && search != nil {
		tieDesc = false // relevance last: ties by uuid ascending (no index serves a rank anyway)
	}
	// Ties break on uuid, in the direction of the last key so an index can serve the whole order.
	keys = append(keys, orderKey{col: "uuid", desc: tieDesc})
	q.hash = queryHash(m, tenant)
	var after *position
	if cursor != nil {
		if pageSet {
			v.Add("page", "must be absent with cursor: a cursor page follows the page the cursor came from")
		}
		p, msg := decodeCursor(*cursor, q.hash, len(keys))
		if msg != "" {
			v.Add("cursor", "%s", msg)
		} else {
			after = p
		}
	}
	q.facets = s.buildFacets(tenant, m, v, search, scope)
	if err := v.Err(); err != nil {
		return nil, err
	}
	where := strings.Join(b.where, " AND ")
	q.Where = where
	q.CountSQL = "SELECT count(*) FROM " + s.Table + " WHERE " + where
	q.search, q.searchArg = search, b.searchArg
	offset := " OFFSET " + strconv.FormatInt(int64(q.Page-1)*int64(q.Size), 10)
	if after != nil {
		// A cursor page starts after the cursor's row, by an index range rather than an offset,
		// and reports the count of the walk's first page rather than counting again: the count is
		// the part of a page whose cost grows with the table.
		where += " AND " + s.after(b, keys, after.Key)
		q.Page, q.Total, q.CountSQL, offset = after.Page, after.Total, "", ""
		q.cursored = true
	}
	q.Args = b.args
	ob := make([]string, len(keys))
	kc := make([]string, len(keys))
	for i, k := range keys {
		ob[i] = k.col + " ASC"
		if k.desc {
			ob[i] = k.col + " DESC"
		}
		kc[i] = "(" + k.col + ")::text"
	}
	orderBy := " ORDER BY " + strings.Join(ob, ", ")
	q.SQL = "SELECT *, ARRAY[" + strings.Join(kc, ", ") + "] AS " + KeyColumn + " FROM " + s.Table + " WHERE " + where +
		orderBy + " LIMIT " + strconv.Itoa(int(q.Size)+1) + offset
	if search != nil && !q.cursored {
		// With q, every match is read once: m holds each match's uuid and order keys (the rank
		// among them, computed once per match), the page is its first rows by the order joined
		// back to the table by uuid, and the count of m is the page's totalItems (one more
		// column after the key, catalogd_list_total); the count statement is then not run.
		mcols := []string{"uuid AS catalogd_list_uuid"}
		mob, pob, pkc := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
		for i, k := range keys {
			name := "catalogd_list_k" + strconv.Itoa(i)
			mcols = append(mcols, "("+k.col+") AS "+name)
			dir := " ASC"
			if k.desc {
				dir = " DESC"
			}
			mob[i], pob[i], pkc[i] = name+dir, "pg."+name+dir, "(pg."+name+")::text"
		}
		join := "t.uuid = pg.catalogd_list_uuid"
		if !s.Global {
			join = "t.tenant_id = " + b.tenant + " AND " + join
		}
		q.SQL = "WITH m AS MATERIALIZED (SELECT " + strings.Join(mcols, ", ") + " FROM " + s.Table + " WHERE " + where + "), " +
			"pg AS (SELECT * FROM m ORDER BY " + strings.Join(mob, ", ") + " LIMIT " + strconv.Itoa(int(q.Size)+1) + offset + ") " +
			"SELECT t.*, ARRAY[" + strings.Join(pkc, ", ") + "] AS " + KeyColumn + ", (SELECT count(*) FROM m) AS " + TotalColumn +
			" FROM pg JOIN " + s.Table + " t ON " + join + " ORDER BY " + strings.Join(pob, ", ")
		q.countInPage = true
	} else if search != nil {
		// A cursor page with q: the page's rows first, then their keys (a query's select list is
		// computed for every row its sort reads, every match here, and the key's array would
		// compute the rank a second time). The subquery takes the table's name, so the order's
		// expressions read its columns as they read the table's.
		q.SQL = "SELECT *, ARRAY[" + strings.Join(kc, ", ") + "] AS " + KeyColumn + " FROM (SELECT * FROM " + s.Table + " WHERE " + where +
			orderBy + " LIMIT " + strconv.Itoa(int(q.Size)+1) + ") " + s.Table + orderBy
	}
	return q, nil
}

// conditions is the WHERE of the request's filters (each a condition of b.where), its search
// (q) and its soft delete, leaving out the filter named skip (a facet's own). Errors go to v.
func (s *Spec) conditions(tenant string, m protoreflect.Message, v apierr.Validator, search *searchInput, skip string, scope []Cond) *builder {
	b := &builder{}
	if !s.Global {
		b.tenant = b.arg(tenant)
		b.where = append(b.where, "tenant_id = "+b.tenant)
	} else {
		b.where = append(b.where, "true")
	}
	if s.Where != "" {
		b.where = append(b.where, "("+s.Where+")")
	}
	for _, c := range scope {
		b.where = append(b.where, c.Column+" = "+b.arg(c.Value))
	}
	fs := m.Descriptor().Fields()
	var isRemoved *bool
	statusesNameRemoved := false
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		name := f.JSONName()
		if f.Kind() != protoreflect.MessageKind || f.IsList() || !m.Has(f) {
			continue
		}
		fm := m.Get(f).Message()
		if s.SoftDelete != nil && name == s.SoftDelete.IsRemovedField {
			bf := fm.Interface().(*catalogv1.BoolFilter)
			if bf.Eq != nil {
				isRemoved = bf.Eq
			}
			continue
		}
		col, ok := s.Filters[name]
		if !ok {
			continue // include/expand and other non-filter messages
		}
		if name == skip {
			continue // a facet's own filter (its soft delete stays the default: removed ones left out)
		}
		switch x := fm.Interface().(type) {
		case *catalogv1.StringsFilter:
			if len(x.Eq) == 0 {
				continue
			}
			param := name + "[eq]"
			if col.Single && len(x.Eq) > 1 {
				v.Add(param, "takes one value")
				continue
			}
			switch col.Type {
			case UUID:
				ids := make([]string, 0, len(x.Eq))
				for _, s := range x.Eq {
					id, err := fields.ParseUUID(s)
					if err != nil {
						v.Add(param, "%q is not a uuid", s)
						continue
					}
					ids = append(ids, id.String())
				}
				b.where = append(b.where, b.match(col, b.arg(ids)+"::uuid[]"))
			case Enum:
				// Whitelisted literals, not a parameter: the planner then sees the values and keeps
				// the status index (a parameterised = ANY($1) lost it).
				lits := make([]string, 0, len(x.Eq))
				for _, s := range x.Eq {
					if !contains(col.Values, s) {
						v.Add(param, "%q is not one of %s", s, strings.Join(col.Values, ", "))
						continue
					}
					lits = append(lits, "'"+s+"'")
				}
				if sd := s.SoftDelete; sd != nil && name == sd.StatusesField && contains(x.Eq, sd.Removed) {
					statusesNameRemoved = true
				}
				if len(lits) > 0 {
					b.where = append(b.where, col.Column+" IN ("+strings.Join(lits, ", ")+")")
				}
			default:
				b.where = append(b.where, b.match(col, b.arg(x.Eq)+"::text[]"))
			}
		case *catalogv1.StringFilter:
			if x.Contains != nil {
				b.where = append(b.where, col.Column+" ILIKE "+b.arg("%"+escapeLike(*x.Contains)+"%"))
			}
			if x.Starts != nil {
				b.where = append(b.where, col.Column+" ILIKE "+b.arg(escapeLike(*x.Starts)+"%"))
			}
			if x.Ends != nil {
				b.where = append(b.where, col.Column+" ILIKE "+b.arg("%"+escapeLike(*x.Ends)))
			}
		case *catalogv1.TimeFilter:
			for _, c := range []struct {
				ts *timestamppb.Timestamp
				op string
			}{{x.Eq, "="}, {x.Min, ">="}, {x.Max, "<="}} {
				if c.ts != nil {
					b.where = append(b.where, col.Column+" "+c.op+" "+b.arg(c.ts.AsTime().UTC().Truncate(time.Microsecond)))
				}
			}
		case *catalogv1.BoolFilter:
			if x.Eq != nil {
				b.where = append(b.where, col.Column+" = "+b.arg(*x.Eq))
			}
		case *catalogv1.IntFilter:
			for _, c := range []struct {
				n  *int32
				op string
			}{{x.Eq, "="}, {x.Min, ">="}, {x.Max, "<="}} {
				if c.n != nil {
					b.where = append(b.where, col.Column+" "+c.op+" "+b.arg(*c.n))
				}
			}
		}
	}
	if sd := s.SoftDelete; sd != nil {
		switch {
		case isRemoved != nil && *isRemoved:
			b.where = append(b.where, sd.StatusColumn+" = '"+sd.Removed+"'")
		case isRemoved != nil && !*isRemoved:
			b.where = append(b.where, sd.StatusColumn+" <> '"+sd.Removed+"'")
		case !statusesNameRemoved:
			b.where = append(b.where, sd.StatusColumn+" <> '"+sd.Removed+"'")
		}
	}
	if search != nil {
		// The tsquery itself is filled in by Run (searchArg), once the database has parsed the
		// words: the planner then sees the value.
		tsq := b.arg(nil) + "::tsquery"
		b.searchArg = len(b.args)
		b.where = append(b.where, s.Search.Document+" @@ "+tsq)
		b.rank = "ts_rank(" + s.Search.Document + ", " + tsq + ")"
	}
	return b
}

// CustomPlans, queued first in the batch of every list, makes PostgreSQL plan the list's
// statements for their values on every run. pgx prepares each statement on a connection, and after
// five runs PostgreSQL may switch a prepared statement to one generic plan for any values,
// estimated without them: the plan of a list is the plan for any tenant (ten products or a
// million) and any filter values. For the products search of `make bench` step search (a million
// products) it was a bitmap scan of every match sorted for the first page, 30 ms, where the values'
// plan reads the created_at index until the page is full, 3 ms. set_config(..., true) is SET LOCAL:
// it lasts until the end of the transaction, the batch's implicit one (a pipeline up to its Sync)
// or the caller's, so behind a transaction pooler it holds for the list's statements, on the
// server connection they run on, and for nobody after them (test/topology checks both).
const CustomPlans = "SELECT set_config('plan_cache_mode', 'force_custom_plan', true)"

// Querier is what a list runs on: the pool or a transaction.
type Querier interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// Run builds and runs a list, scanning rows into T (an sqlc model: columns by db tag).
func Run[T any](ctx context.Context, db Querier, s *Spec, tenant string, req proto.Message, scope ...Cond) ([]T, *catalogv1.Pagination, error) {
	items, page, _, err := RunFaceted[T](ctx, db, s, tenant, req, scope...)
	return items, page, err
}

// RunFaceted is Run with the facets the request asks for (nil when none).
func RunFaceted[T any](ctx context.Context, db Querier, s *Spec, tenant string, req proto.Message, scope ...Cond) ([]T, *catalogv1.Pagination, map[string][]FacetCount, error) {
	if err := s.loadNotNull(ctx, db); err != nil {
		return nil, nil, nil, err
	}
	q, err := s.Build(tenant, req, scope...)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := s.resolveSearch(ctx, db, tenant, q); err != nil {
		return nil, nil, nil, err
	}
	batch := &pgx.Batch{}
	batch.Queue(CustomPlans)
	batch.Queue(q.SQL, q.Args...)
	if q.CountSQL != "" && !q.countInPage {
		batch.Queue(q.CountSQL, q.Args...)
	}
	q.queueFacets(batch)
	br := db.SendBatch(ctx, batch)
	defer br.Close()
	if _, err := br.Exec(); err != nil {
		return nil, nil, nil, err
	}
	rows, err := br.Query()
	if err != nil {
		return nil, nil, nil, q.refused(err)
	}
	var keys [][]pgtype.Text
	var counted *int64
	if q.countInPage {
		counted = new(int64)
	}
	items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (T, error) {
		var key []pgtype.Text
		t, err := pgx.RowToStructByName[T](keyedRow{row, &key, counted})
		keys = append(keys, key)
		return t, err
	})
	if err != nil {
		return nil, nil, nil, q.refused(err)
	}
	total := q.Total
	if q.CountSQL != "" && !q.countInPage {
		if err := br.QueryRow().Scan(&total); err != nil {
			return nil, nil, nil, err
		}
	}
	facets, err := q.readFacets(br)
	if err != nil {
		return nil, nil, nil, err
	}
	if q.countInPage {
		switch {
		case len(items) > 0:
			total = *counted
		case q.Page == 1:
			total = 0 // no match at all
		default:
			// A page past the last: its count is run on its own.
			if err := br.Close(); err != nil {
				return nil, nil, nil, err
			}
			count := &pgx.Batch{}
			count.Queue(CustomPlans)
			count.Queue(q.CountSQL, q.Args...)
			cr := db.SendBatch(ctx, count)
			_, err := cr.Exec()
			if err == nil {
				err = cr.QueryRow().Scan(&total)
			}
			if cerr := cr.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return nil, nil, nil, err
			}
		}
	}
	pages := (total + int64(q.Size) - 1) / int64(q.Size)
	p := &catalogv1.Pagination{Page: q.Page, Size: q.Size, TotalItems: int32(total), TotalPages: int32(pages)}
	if len(items) > int(q.Size) {
		// The extra row says there is a next page; it starts after this page's last row.
		items = items[:q.Size]
		next := encodeCursor(q.hash, &position{Page: q.Page + 1, Total: total, Key: keyText(keys[q.Size-1])})
		p.NextCursor = &next
	}
	return items, p, facets, nil
}

// refused is err, or the 400 of a cursor whose position PostgreSQL cannot read as the order columns'
// values (a data exception, SQLSTATE class 22): the tag only detects edits by a client that does not
// know catalogd's cursor key, which is no secret, so a position is checked by the database itself.
func (q *Query) refused(err error) error {
	var pe *pgconn.PgError
	if q.cursored && errors.As(err, &pe) && strings.HasPrefix(pe.Code, "22") {
		return (&apierr.Error{Code: apierr.ValidationFailed, Detail: "cursor: is not a cursor catalogd made"}).
			WithField("cursor", "is not a cursor catalogd made: pass pagination.nextCursor of the previous page unchanged")
	}
	return err
}

// keyedRow is a result row without its last column (KeyColumn), which Scan puts into key, or
// its last two (KeyColumn, TotalColumn) when total is set: the row then scans into the family's
// model by name like a plain SELECT *.
type keyedRow struct {
	pgx.CollectableRow
	key   *[]pgtype.Text
	total *int64
}

func (r keyedRow) FieldDescriptions() []pgconn.FieldDescription {
	fd := r.CollectableRow.FieldDescriptions()
	if r.total != nil {
		return fd[:len(fd)-2]
	}
	return fd[:len(fd)-1]
}

func (r keyedRow) Scan(dest ...any) error {
	if r.total != nil {
		return r.CollectableRow.Scan(append(dest, r.key, r.total)...)
	}
	return r.CollectableRow.Scan(append(dest, r.key)...)
}

func keyText(key []pgtype.Text) []*string {
	out := make([]*string, len(key))
	for i, k := range key {
		if k.Valid {
			out[i] = &k.String
		}
	}
	return out
}

func escapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Filters of the fields most families share: uuid, code, displayName and the timestamps
// (uuids[eq], codes[eq], code[contains|starts|ends], displayNames[eq], displayName[…],
// createdAt[eq|min|max], updatedAt[…]), merged with a family's own.
func CodeNameFilters(extra map[string]Field) map[string]Field {
	out := map[string]Field{
		"uuids":        {Column: "uuid", Type: UUID},
		"codes":        {Column: "code", Type: Text},
		"code":         {Column: "code", Type: Text},
		"displayNames": {Column: "display_name", Type: Text},
		"displayName":  {Column: "display_name", Type: Text},
		"createdAt":    {Column: "created_at", Type: Time},
		"updatedAt":    {Column: "updated_at", Type: Time},
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// CodeNameOrder is the order fields of the same shared fields, merged with a family's own.
func CodeNameOrder(extra map[string]string) map[string]string {
	out := map[string]string{"code": "code", "displayName": "display_name", "createdAt": "created_at", "updatedAt": "updated_at"}
	for k, v := range extra {
		out[k] = v
	}
	return out
}
