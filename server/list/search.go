package list

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/apierr"
)

// Full-text search and facets (issue 31), for a list whose Spec has Search and Facets; the request
// fields are
//
//	q          optional string: the words to search for (1 to 200 characters, a request rule)
//	locales    StringsFilter (Search.LocalesField): the locales whose text may match
//	facets     repeated string: the facets to count (REST: facets[]=...)
//	facetSize  optional int32: values per facet (default DefaultFacetSize, at most MaxFacetSize)
//
// and the order field "relevance" (Spec.Order maps it onto Relevance).
//
// q is parsed here into items (words, and phrases in double quotes); the database turns them into
// a tsquery (Search.Query: stemming needs its dictionaries) with every lexeme quoted, so no input
// reaches to_tsquery's syntax. The tsquery is then a parameter of the list's statements, so that
// the planner sees it.

// Search is a list's full-text search.
type Search struct {
	// Document is the tsvector column q is matched against (with @@, ranked with ts_rank).
	Document string
	// Query is SQL returning the tsquery of the parsed q (NULL when nothing in it is searchable):
	// @tenant, @items (text[]: the words and phrases), @phrases (boolean[]: which items are
	// phrases), @prefix (boolean: the last item is a word matched as a prefix) and @locales
	// (text[]: the values of the locales filter, NULL without one).
	Query string
	// LocalesField is the JSON name of the filter that limits the matching to locales.
	LocalesField string
}

// Relevance in Spec.Order is the order field of the relevance to q.
const Relevance = "@relevance"

// MaxQueryLength is q's limit in characters (also a request rule of the field).
const MaxQueryLength = 200

// Facet counts of a page (facets[]).
const (
	DefaultFacetSize = 20
	MaxFacetSize     = 100
)

// Operators are the characters of tsquery's syntax refused in q: words are matched as typed, never
// as a query language.
const Operators = "&|!:*()<>"

// searchInput is a parsed q.
type searchInput struct {
	items   []string
	phrases []bool
	prefix  bool
	locales []string // nil: no locales filter
}

// parseSearch reads q and the locales filter of m (nil without q). Errors go to v, naming q.
func (s *Spec) parseSearch(m protoreflect.Message, v apierr.Validator) *searchInput {
	fs := m.Descriptor().Fields()
	qf := fs.ByJSONName("q")
	if s.Search == nil {
		return nil
	}
	if qf == nil || !m.Has(qf) {
		return nil // the locales filter, if any, limits nothing
	}
	q := m.Get(qf).String()
	in := parseQuery(q)
	switch {
	case utf8.RuneCountInString(q) > MaxQueryLength:
		v.Add("q", "must be at most %d characters", MaxQueryLength)
		return nil
	case strings.ContainsAny(q, Operators) || strings.ContainsRune(q, 0):
		v.Add("q", "must not contain the search operators %s: words are matched as typed", strings.Join(strings.Split(Operators, ""), " "))
		return nil
	case len(in.items) == 0:
		v.Add("q", "has no word to search for")
		return nil
	}
	if lf := fs.ByJSONName(s.Search.LocalesField); lf != nil && m.Has(lf) {
		in.locales = []string{}
		l := m.Get(lf).Message()
		eq := l.Get(l.Descriptor().Fields().ByName("eq")).List()
		for i := 0; i < eq.Len(); i++ {
			in.locales = append(in.locales, eq.Get(i).String())
		}
	}
	return in
}

// parseQuery splits q into words (at white space) and phrases (between double quotes; one left
// open runs to the end). The last item is matched as a prefix when it is a word.
func parseQuery(q string) *searchInput {
	in := &searchInput{}
	var cur strings.Builder
	phrase := false
	flush := func(isPhrase bool) {
		t := strings.TrimSpace(cur.String())
		cur.Reset()
		if t != "" && strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			in.items = append(in.items, t)
			in.phrases = append(in.phrases, isPhrase)
		}
	}
	for _, r := range q {
		switch {
		case r == '"':
			flush(phrase)
			phrase = !phrase
		case unicode.IsSpace(r) && !phrase:
			flush(false)
		default:
			cur.WriteRune(r)
		}
	}
	flush(phrase)
	in.prefix = len(in.items) > 0 && !in.phrases[len(in.items)-1]
	return in
}

// Facet is one facet of a list: for each value, how many rows match the request, without the
// facet's own filter.
type Facet struct {
	// Filter is the JSON name of the filter the facet ignores (brandUuids for brands).
	Filter string
	// Keys is SQL selecting, from m (the matching rows: FROM m), each row's values of the facet
	// as column k, one row per value (NULLs are not counted). It names the table's columns as
	// m.column: the facets sharing a statement materialize m with those columns only.
	Keys string
	// Codes is SQL selecting the code of every value (columns k and code) with @tenant, or empty
	// when the values are the table's own (kinds, statuses: the code is the value).
	Codes string
}

// facetQuery is the statement of one facet (name: rows k, code, n), or of several (names: rows
// f, k, code, n, f the index of the facet in names).
type facetQuery struct {
	name      string
	names     []string
	sql       string
	args      []any
	searchArg int
}

// FacetCount is one value of a facet.
type FacetCount struct {
	Key, Code string
	Count     int64
}

// buildFacets reads facets[] and facetSize and builds one statement per facet asked for.
func (s *Spec) buildFacets(tenant string, m protoreflect.Message, v apierr.Validator, search *searchInput, scope []Cond) []facetQuery {
	fs := m.Descriptor().Fields()
	ff, sf := fs.ByJSONName("facets"), fs.ByJSONName("facetSize")
	if s.Facets == nil || ff == nil {
		return nil
	}
	size := DefaultFacetSize
	if sf != nil && m.Has(sf) {
		size = int(m.Get(sf).Int()) // 1 to MaxFacetSize: a request rule
		if size < 1 || size > MaxFacetSize {
			v.Add("facetSize", "must be between 1 and %d", MaxFacetSize)
		}
	}
	l := m.Get(ff).List()
	var names []string
	for i := 0; i < l.Len(); i++ {
		n := l.Get(i).String()
		if _, ok := s.Facets[n]; !ok {
			v.Add("facets[]", "unknown facet %q: one of %s", n, strings.Join(s.FacetNames(), ", "))
			continue
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	// The facets whose own filter the request does not have count the request's matches: they
	// share one statement, which reads the matches once (m, materialized with the columns the
	// facets read); each of the others counts over its own WHERE.
	main := s.conditions(tenant, m, apierr.NewValidator(), search, "", scope)
	mainWhere := strings.Join(main.where, " AND ")
	var shared []string
	out := make([]facetQuery, 0, len(names))
	for _, n := range names {
		f := s.Facets[n]
		b := s.conditions(tenant, m, apierr.NewValidator(), search, f.Filter, scope)
		where := strings.Join(b.where, " AND ")
		if where == mainWhere {
			shared = append(shared, n)
			continue
		}
		sql := "WITH m AS (SELECT * FROM " + s.Table + " WHERE " + where + "), " + facetCounts("c", f, size) + " " +
			"SELECT c.k::text, " + facetCode(f) + ", c.n FROM " + facetJoin("c", f, b.tenant) + " ORDER BY c.n DESC, c.k"
		out = append(out, facetQuery{name: n, sql: sql, args: b.args, searchArg: b.searchArg})
	}
	if len(shared) > 0 {
		cols := []string{}
		ctes := []string{}
		selects := []string{}
		for i, n := range shared {
			f := s.Facets[n]
			for _, c := range facetColumn.FindAllStringSubmatch(f.Keys, -1) {
				if !slices.Contains(cols, c[1]) {
					cols = append(cols, c[1])
				}
			}
			c := "c" + strconv.Itoa(i)
			ctes = append(ctes, facetCounts(c, f, size))
			selects = append(selects, "SELECT "+strconv.Itoa(i)+" AS f, c.k::text AS k, "+facetCode(f)+" AS code, c.n, "+
				"row_number() OVER (ORDER BY c.n DESC, c.k) AS r FROM "+facetJoin(c, f, main.tenant))
		}
		slices.Sort(cols)
		sql := "WITH m AS MATERIALIZED (SELECT " + strings.Join(cols, ", ") + " FROM " + s.Table + " WHERE " + mainWhere + "), " +
			strings.Join(ctes, ", ") + " SELECT f, k, code, n FROM (" + strings.Join(selects, " UNION ALL ") + ") u ORDER BY f, r"
		out = append(out, facetQuery{names: shared, sql: sql, args: main.args, searchArg: main.searchArg})
	}
	return out
}

// facetColumn finds the columns of the listed table a facet's Keys reads (m.column).
var facetColumn = regexp.MustCompile(`\bm\.([a-z_][a-z0-9_]*)`)

// facetCounts is the CTE named c of a facet's top values over m: value k, count n.
func facetCounts(c string, f Facet, size int) string {
	return c + " AS (SELECT k, count(*) AS n FROM (" + f.Keys + ") x WHERE k IS NOT NULL GROUP BY k ORDER BY n DESC, k LIMIT " + strconv.Itoa(size) + ")"
}

// facetCode is the code of a value of c (its own text when the facet has no table of codes).
func facetCode(f Facet) string {
	if f.Codes == "" {
		return "c.k::text"
	}
	return "coalesce(d.code, c.k::text)"
}

// facetJoin is the CTE named cte (as c) joined to the codes of its values (as d).
func facetJoin(cte string, f Facet, tenant string) string {
	if f.Codes == "" {
		return cte + " c"
	}
	return cte + " c LEFT JOIN (" + strings.ReplaceAll(f.Codes, "@tenant", tenant) + ") d ON d.k = c.k"
}

// FacetNames is the facets of the list, sorted.
func (s *Spec) FacetNames() []string {
	out := make([]string, 0, len(s.Facets))
	for n := range s.Facets {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// resolveSearch runs Search.Query for the parsed q and puts the tsquery into the page's, the
// count's and the facets' arguments. A q in which the database finds nothing to search for (only
// punctuation) is 400 naming q.
func (s *Spec) resolveSearch(ctx context.Context, db Querier, tenant string, q *Query) error {
	if q.search == nil {
		return nil
	}
	in := q.search
	sql := strings.NewReplacer("@tenant", "$1", "@items", "$2", "@phrases", "$3", "@prefix", "$4", "@locales", "$5::text[]").Replace(s.Search.Query)
	var locales any
	if in.locales != nil {
		locales = in.locales
	}
	batch := &pgx.Batch{}
	batch.Queue("SELECT ("+sql+")::text", tenant, in.items, in.phrases, in.prefix, locales)
	br := db.SendBatch(ctx, batch)
	var tsq *string
	err := br.QueryRow().Scan(&tsq)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if tsq == nil {
		return (&apierr.Error{Code: apierr.ValidationFailed, Detail: "q: has no word to search for"}).WithField("q", "has no word to search for")
	}
	q.Args[q.searchArg-1] = *tsq
	for i := range q.facets {
		q.facets[i].args[q.facets[i].searchArg-1] = *tsq
	}
	return nil
}

// queueFacets queues the facets' statements.
func (q *Query) queueFacets(batch *pgx.Batch) {
	for _, f := range q.facets {
		batch.Queue(f.sql, f.args...)
	}
}

// readFacets reads the facets' results, in the order queued.
func (q *Query) readFacets(br pgx.BatchResults) (map[string][]FacetCount, error) {
	if len(q.facets) == 0 {
		return nil, nil
	}
	out := make(map[string][]FacetCount, len(q.facets))
	for _, f := range q.facets {
		rows, err := br.Query()
		if err != nil {
			return nil, err
		}
		if f.names != nil {
			for _, n := range f.names {
				out[n] = []FacetCount{}
			}
			var c FacetCount
			var i int
			_, err := pgx.ForEachRow(rows, []any{&i, &c.Key, &c.Code, &c.Count}, func() error {
				if i < 0 || i >= len(f.names) {
					return fmt.Errorf("facet %d of %d", i, len(f.names))
				}
				out[f.names[i]] = append(out[f.names[i]], c)
				return nil
			})
			if err != nil {
				return nil, err
			}
			continue
		}
		counts, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (FacetCount, error) {
			var c FacetCount
			return c, row.Scan(&c.Key, &c.Code, &c.Count)
		})
		if err != nil {
			return nil, err
		}
		out[f.name] = append([]FacetCount{}, counts...)
	}
	return out, nil
}

// FacetsInto fills msg (a response's facets message: for each facet a field of its JSON name,
// a message with one repeated field of items {uuid or value, code, count}) with the facets asked
// for; nil facets leave it nil.
func FacetsInto[M proto.Message](facets map[string][]FacetCount, newMsg func() M) M {
	var zero M
	if facets == nil {
		return zero
	}
	msg := newMsg()
	m := msg.ProtoReflect()
	for name, counts := range facets {
		f := m.Descriptor().Fields().ByJSONName(name)
		if f == nil {
			continue
		}
		list := m.Mutable(f).Message()
		items := list.Mutable(list.Descriptor().Fields().Get(0)).List()
		for _, c := range counts {
			el := items.NewElement()
			em := el.Message()
			ef := em.Descriptor().Fields()
			key := ef.ByName("uuid")
			if key == nil {
				key = ef.ByName("value")
			}
			em.Set(key, protoreflect.ValueOfString(c.Key))
			em.Set(ef.ByName("code"), protoreflect.ValueOfString(c.Code))
			em.Set(ef.ByName("count"), protoreflect.ValueOfInt32(int32(c.Count)))
			items.Append(el)
		}
	}
	return msg
}

// Statement is one SQL statement of a list page with its arguments.
type Statement struct {
	SQL  string
	Args []any
}

// Statements builds the list as Run does, q's tsquery resolved by the database, and returns what
// one page runs: the page, the count (not on a cursor page, nor with q: the page counts) and the
// facets, in that order (for pgbench scripts and plans: bench/search).
func (s *Spec) Statements(ctx context.Context, db Querier, tenant string, req proto.Message) ([]Statement, error) {
	q, err := s.Build(tenant, req)
	if err != nil {
		return nil, err
	}
	if err := s.resolveSearch(ctx, db, tenant, q); err != nil {
		return nil, err
	}
	out := []Statement{{q.SQL, q.Args}}
	if q.CountSQL != "" && !q.countInPage {
		out = append(out, Statement{q.CountSQL, q.Args})
	}
	for _, f := range q.facets {
		out = append(out, Statement{f.sql, f.args})
	}
	return out, nil
}

// CountStatement is the count of the request's matches as a statement of its own (the tsquery
// resolved), for checks of totalItems (bench/search).
func (s *Spec) CountStatement(ctx context.Context, db Querier, tenant string, req proto.Message) (Statement, error) {
	q, err := s.Build(tenant, req)
	if err != nil {
		return Statement{}, err
	}
	if err := s.resolveSearch(ctx, db, tenant, q); err != nil {
		return Statement{}, err
	}
	return Statement{"SELECT count(*) FROM " + s.Table + " WHERE " + q.Where, q.Args}, nil
}
