package hierarchy

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// family is one hierarchy resource: categories and collections follow the same contract
// (API.md "Catalog structure": a collection is a category without contents).
type family struct {
	name, base string
	// event is the event prefix, idKey the payload key and path parameter of one item.
	event, idKey string
	// keys of a response item.
	keys []string
	// hasContents: include[contents]/expand[contents] and the contents sub-resource.
	hasContents bool
}

var (
	nodeKeys    = []string{"uuid", "createdAt", "updatedAt", "removedAt", "status", "code", "displayName", "parentUuid", "position"}
	categoriesF = family{name: "category", base: "/v1/categories", event: "category", idKey: "categoryUuid",
		keys: append(slices.Clone(nodeKeys), "contentUuids", "contents"), hasContents: true}
	collectionsF = family{name: "collection", base: "/v1/collections", event: "collection", idKey: "collectionUuid",
		keys: nodeKeys}
	families = []family{categoriesF, collectionsF}
)

// forEach runs body as a parallel subtest per family.
func forEach(t *testing.T, body func(t *testing.T, f family)) {
	t.Parallel()
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			body(t, f)
		})
	}
}

func (f family) path(id string) string { return f.base + "/" + id }

// create makes a node with code and extra key, value pairs (parentUuid, position, displayName).
func (f family) create(t *testing.T, c *Client, code string, extra ...any) map[string]any {
	t.Helper()
	return Want(t, c.Post(f.base, body(append([]any{"code", code}, extra...)...)), 201).Obj()
}

// createID is create's uuid.
func (f family) createID(t *testing.T, c *Client, code string, extra ...any) string {
	t.Helper()
	return str(f.create(t, c, code, extra...), "uuid")
}

func (f family) get(t *testing.T, c *Client, id string) map[string]any {
	t.Helper()
	return Want(t, c.Get(f.path(id)), 200).Obj()
}

func (f family) patch(t *testing.T, c *Client, id string, kv ...any) map[string]any {
	t.Helper()
	return Want(t, c.Patch(f.path(id), body(kv...)), 200).Obj()
}

func (f family) transition(c *Client, id, tr string) Resp {
	return c.Patch(f.path(id)+"/actions/lifecycle", map[string]any{"transition": tr})
}

// moveTo brings a draft node to status.
func (f family) moveTo(t *testing.T, c *Client, id, status string) {
	t.Helper()
	steps := map[string][]string{"draft": nil, "active": {"activate"}, "inactive": {"activate", "deactivate"}, "removed": {"remove"}}[status]
	for _, tr := range steps {
		Want(t, f.transition(c, id, tr), 200)
	}
	if got := str(f.get(t, c, id), "status"); got != status {
		t.Fatalf("moveTo %s: status %s", status, got)
	}
}

func (f family) ev(verb, id string) event { return ev(f.event+"."+verb, f.idKey, id) }

// body builds a JSON object from alternating key, value pairs.
func body(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// tenantClient is a REST client for a fresh tenant together with the tenant's id.
func tenantClient(t *testing.T) (*Client, string) {
	t.Helper()
	tenant := "t-" + RandomHex(8)
	return env.ClientFor(t, tenant), tenant
}

var (
	tsRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$`)
	uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

const missing = "0190aaaa-0000-7000-8000-000000000000"

// wantKeys fails unless obj has exactly the given keys.
func wantKeys(t *testing.T, what string, obj map[string]any, keys ...string) {
	t.Helper()
	var got []string
	for k := range obj {
		got = append(got, k)
	}
	sort.Strings(got)
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

// wantNode checks a node's exact shape and its values (parent "" means null).
func (f family) wantNode(t *testing.T, what string, obj map[string]any, status, code, name, parent string, position int) {
	t.Helper()
	wantKeys(t, what, obj, f.keys...)
	wantCommon(t, what, obj)
	var wantParent any
	if parent != "" {
		wantParent = parent
	}
	if obj["status"] != status || obj["code"] != code || obj["displayName"] != name || obj["parentUuid"] != wantParent || obj["position"] != float64(position) {
		t.Errorf("%s: got status %v code %v displayName %v parentUuid %v position %v, want %s %s %s %v %d",
			what, obj["status"], obj["code"], obj["displayName"], obj["parentUuid"], obj["position"], status, code, name, wantParent, position)
	}
	if status == "removed" {
		if s, _ := obj["removedAt"].(string); !tsRe.MatchString(s) {
			t.Errorf("%s: removedAt %v on a removed node", what, obj["removedAt"])
		}
	} else if v, ok := obj["removedAt"]; !ok || v != nil {
		t.Errorf("%s: removedAt %v, want null", what, obj["removedAt"])
	}
	if f.hasContents && (obj["contentUuids"] != nil || obj["contents"] != nil) {
		t.Errorf("%s: contentUuids/contents without include/expand: %v", what, obj)
	}
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func ts(t *testing.T, v any) time.Time {
	t.Helper()
	x, err := time.Parse(time.RFC3339Nano, str(map[string]any{"v": v}, "v"))
	if err != nil {
		t.Fatalf("timestamp %v: %v", v, err)
	}
	return x
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

// uuidsOf is the uuids of items in order.
func uuidsOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = str(it, "uuid")
	}
	return out
}

// wantUUIDs fails unless the list answers exactly the uuids want (in that order when ordered).
func wantUUIDs(t *testing.T, c *Client, path string, ordered bool, want ...string) {
	t.Helper()
	r := Want(t, c.Get(path), 200)
	got := uuidsOf(r.Items())
	ok := sameSet(got, want)
	if ordered {
		ok = slices.Equal(got, want)
	}
	if !ok {
		t.Errorf("GET %s: uuids %v, want %v (ordered=%v)", path, got, want, ordered)
	}
	if tot := int(r.Obj()["pagination"].(map[string]any)["totalItems"].(float64)); tot != len(want) {
		t.Errorf("GET %s: totalItems %d, want %d", path, tot, len(want))
	}
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(x, y)
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

// wantMeta fails unless the problem's meta has k = v.
func wantMeta(t *testing.T, p map[string]any, k, v string) {
	t.Helper()
	meta, _ := p["meta"].(map[string]any)
	if meta[k] != v {
		t.Errorf("meta.%s = %v, want %s (problem %v)", k, meta[k], v, p)
	}
}

// --- locales and contents (categories) ---

func mkLocale(t *testing.T, c *Client, code string) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/locales", map[string]any{"code": code}), 201).Obj(), "uuid")
}

func contentsOf(cat string) string { return "/v1/categories/" + cat + "/contents" }

func mkContent(t *testing.T, c *Client, cat, locale, name string, extra ...any) map[string]any {
	t.Helper()
	return Want(t, c.Post(contentsOf(cat), body(append([]any{"localeUuid", locale, "displayName", name}, extra...)...)), 201).Obj()
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

// countRows counts a tenant's rows of a table.
func countRows(t *testing.T, table, tenant string) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM "+table+" WHERE tenant_id = $1", tenant).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}
