package structure_basic

import (
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	. "github.com/catalogd/catalogd/server/apptest"
)

// family is one top-level family of the group: all four share the code/displayName contract
// (API.md), so one suite checks each; what differs is declared here.
type family struct {
	name  string
	path  string
	event string // event name prefix
	idKey string // path parameter and event payload key
	// keys of a response object.
	keys []string
	// base holds the create fields required beyond code (the relation type's direction).
	base map[string]any
	// defaults are the values of the fields beyond the common ones after a create from base.
	defaults map[string]any
	// table of the family (row counts).
	table string
	// contents: the family has localized contents (and include/expand).
	contents bool
}

var (
	brandsF = family{name: "brands", path: "/v1/brands", event: "brand", idKey: "brandUuid", table: "brands", contents: true,
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "contentUuids", "contents"},
		defaults: map[string]any{"contentUuids": nil, "contents": nil}}
	tagsF = family{name: "tags", path: "/v1/tags", event: "tag", idKey: "tagUuid", table: "tags", contents: true,
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "contentUuids", "contents"},
		defaults: map[string]any{"contentUuids": nil, "contents": nil}}
	assetTypesF = family{name: "product-asset-types", path: "/v1/product-asset-types", event: "product_asset_type", idKey: "productAssetTypeUuid",
		table:    "product_asset_types",
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "isFeaturedSource"},
		defaults: map[string]any{"isFeaturedSource": false}}
	relationTypesF = family{name: "product-relation-types", path: "/v1/product-relation-types", event: "product_relation_type", idKey: "productRelationTypeUuid",
		table:    "product_relation_types",
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "direction"},
		base:     map[string]any{"direction": "one_way"},
		defaults: map[string]any{"direction": "one_way"}}
)

var families = []family{brandsF, tagsF, assetTypesF, relationTypesF}

// forEachFamily runs body as a parallel subtest per family.
func forEachFamily(t *testing.T, body func(t *testing.T, f family)) {
	t.Parallel()
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			body(t, f)
		})
	}
}

// body is a create body: base, code (omitted when empty) and extra key/value pairs.
func (f family) body(code string, kv ...any) map[string]any {
	b := maps.Clone(f.base)
	if b == nil {
		b = map[string]any{}
	}
	if code != "" {
		b["code"] = code
	}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return b
}

func (f family) item(id string) string { return f.path + "/" + id }

// create makes one item (201) and returns it.
func (f family) create(t *testing.T, c *Client, code string, kv ...any) map[string]any {
	t.Helper()
	return Want(t, c.Post(f.path, f.body(code, kv...)), 201).Obj()
}

// bulkCreate makes items of the codes in one bulk and returns them in order.
func (f family) bulkCreate(t *testing.T, c *Client, codes ...string) []map[string]any {
	t.Helper()
	items := make([]any, len(codes))
	for i, code := range codes {
		items[i] = f.body(code)
	}
	return Want(t, c.Post(f.path+"/bulk", items), 201).Objs()
}

func (f family) get(t *testing.T, c *Client, id string) map[string]any {
	t.Helper()
	return Want(t, c.Get(f.item(id)), 200).Obj()
}

// wantItem checks a response object: exactly the family's keys, the common fields' formats, code,
// displayName and the defaults of the family's other fields.
func (f family) wantItem(t *testing.T, what string, obj map[string]any, code, displayName string) {
	t.Helper()
	wantKeys(t, what, obj, f.keys...)
	wantCommon(t, what, obj)
	if obj["code"] != code || obj["displayName"] != displayName {
		t.Errorf("%s: code/displayName %v/%v, want %s/%s", what, obj["code"], obj["displayName"], code, displayName)
	}
	for k, v := range f.defaults {
		if obj[k] != v {
			t.Errorf("%s: %s %v, want %v", what, k, obj[k], v)
		}
	}
}

func (f family) ev(verb, id string) event { return ev(f.event+"."+verb, f.idKey, id) }

// tenantClient is a REST client for a fresh tenant together with the tenant's id (for the events table).
func tenantClient(t *testing.T) (*Client, string) {
	t.Helper()
	tenant := "t-" + RandomHex(8)
	return env.ClientFor(t, tenant), tenant
}

var (
	tsRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$`)
	uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

func randomUUID() string { return uuid.NewString() }

// wantKeys fails unless obj has exactly the given keys.
func wantKeys(t *testing.T, what string, obj map[string]any, keys ...string) {
	t.Helper()
	got := slices.Sorted(maps.Keys(obj))
	want := slices.Clone(keys)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: keys %v, want exactly %v (%v)", what, got, want, obj)
	}
}

// wantCommon checks uuid, createdAt and updatedAt of a resource.
func wantCommon(t *testing.T, what string, obj map[string]any) {
	t.Helper()
	if s, _ := obj["uuid"].(string); !uuidRe.MatchString(s) {
		t.Errorf("%s: uuid %v is not a lowercase uuid", what, obj["uuid"])
	}
	for _, k := range []string{"createdAt", "updatedAt"} {
		if s, _ := obj[k].(string); !tsRe.MatchString(s) {
			t.Errorf("%s: %s %v is not <YYYY-MM-DD>T<hh:mm:ss.ffffff>Z", what, k, obj[k])
		}
	}
}

func ts(t *testing.T, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	x, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("timestamp %v: %v", v, err)
	}
	return x
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// q builds a query string from alternating key, value pairs (keys are sent as written).
func q(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if b.Len() == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(kv[i]))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(kv[i+1]))
	}
	return b.String()
}

func uuidsOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = str(it, "uuid")
	}
	return out
}

func codesOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = str(it, "code")
	}
	return out
}

// listCodes is the codes a list answers (size 100), in order, failing unless it answers 200
// with a consistent pagination.
func listCodes(t *testing.T, c *Client, path string) []string {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	r := Want(t, c.Get(path+sep+"size=100"), 200)
	items := r.Items()
	if tot := int(r.Obj()["pagination"].(map[string]any)["totalItems"].(float64)); tot != len(items) {
		t.Errorf("GET %s: totalItems %d but %d items", path, tot, len(items))
	}
	return codesOf(items)
}

// wantCodes fails unless got equals want (in order when ordered, else as sets).
func wantCodes(t *testing.T, what string, got []string, ordered bool, want ...string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	if !ordered {
		sort.Strings(g)
		sort.Strings(w)
	}
	if !slices.Equal(g, w) && !(len(g) == 0 && len(w) == 0) {
		t.Errorf("%s: codes %v, want %v (ordered=%v)", what, got, want, ordered)
	}
}

func wantPagination(t *testing.T, what string, r Resp, page, size, total, pages int) {
	t.Helper()
	p, _ := r.Obj()["pagination"].(map[string]any)
	wantKeys(t, what+": pagination", p, "page", "size", "totalItems", "totalPages")
	got := []any{p["page"], p["size"], p["totalItems"], p["totalPages"]}
	want := []any{float64(page), float64(size), float64(total), float64(pages)}
	if !slices.Equal(got, want) {
		t.Errorf("%s: pagination page/size/totalItems/totalPages %v, want %v", what, got, want)
	}
}

// errFields is the field names of a problem body's errors.
func errFields(r Resp) []string {
	var out []string
	errs, _ := r.Obj()["errors"].([]any)
	for _, e := range errs {
		if m, ok := e.(map[string]any); ok {
			out = append(out, str(m, "field"))
		}
	}
	return out
}

// --- fixtures ---

func mkLocale(t *testing.T, c *Client, code string) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/locales", map[string]any{"code": code}), 201).Obj(), "uuid")
}

// --- events ---

// event is one row of the outbox.
type event struct {
	Type    string
	Payload map[string]string
}

func (e event) String() string {
	b, _ := json.Marshal(e.Payload)
	return e.Type + " " + string(b)
}

func ev(typ string, kv ...string) event {
	p := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i]] = kv[i+1]
	}
	return event{Type: typ, Payload: p}
}

// eventLog reads a tenant's events in the order they were written.
type eventLog struct {
	tenant string
	seen   int
}

func (l *eventLog) all(t *testing.T) []event {
	t.Helper()
	rows, err := pool.Query(context.Background(),
		`SELECT type, payload FROM events WHERE tenant_id = $1 ORDER BY created_at, uuid`, l.tenant)
	if err != nil {
		t.Fatalf("read events: %v", err)
	}
	defer rows.Close()
	var out []event
	for rows.Next() {
		var e event
		var raw []byte
		if err := rows.Scan(&e.Type, &raw); err != nil {
			t.Fatalf("scan event: %v", err)
		}
		if err := json.Unmarshal(raw, &e.Payload); err != nil {
			t.Fatalf("event payload %s is not an object of strings: %v", raw, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("read events: %v", err)
	}
	return out
}

// skip marks every event written so far as seen.
func (l *eventLog) skip(t *testing.T) { t.Helper(); l.seen = len(l.all(t)) }

// expect fails unless the events written since the last call are exactly want (as a multiset:
// ordering is not guaranteed).
func (l *eventLog) expect(t *testing.T, step string, want ...event) {
	t.Helper()
	all := l.all(t)
	got := all[min(l.seen, len(all)):]
	l.seen = len(all)
	gs, ws := make([]string, len(got)), make([]string, len(want))
	for i, e := range got {
		gs[i] = e.String()
	}
	for i, e := range want {
		ws[i] = e.String()
	}
	sort.Strings(gs)
	sort.Strings(ws)
	if !slices.Equal(gs, ws) {
		t.Errorf("%s: events\n  got  %v\n  want %v", step, gs, ws)
	}
}

// countRows counts a tenant's rows of a table (optionally with an extra condition).
func countRows(t *testing.T, table, tenant string, where ...string) int {
	t.Helper()
	sql := "SELECT count(*) FROM " + table + " WHERE tenant_id = $1"
	if len(where) > 0 {
		sql += " AND " + where[0]
	}
	var n int
	if err := pool.QueryRow(context.Background(), sql, tenant).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}
