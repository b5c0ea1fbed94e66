package localization

import (
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

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

// uuidsOf is the uuids of items in order.
func uuidsOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = str(it, "uuid")
	}
	return out
}

// sameSet reports whether a and b hold the same strings, ignoring order.
func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(x, y)
}

// listAll is the items of a list call (size 100), failing unless it answers 200.
func listAll(t *testing.T, c *Client, path string) []map[string]any {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return Want(t, c.Get(path+sep+"size=100"), 200).Items()
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

// wantTotal fails unless the list at path counts n items.
func wantTotal(t *testing.T, c *Client, path string, n int) {
	t.Helper()
	r := Want(t, c.Get(path), 200)
	if tot := int(r.Obj()["pagination"].(map[string]any)["totalItems"].(float64)); tot != n || len(r.Items()) != n {
		t.Errorf("GET %s: totalItems %d (%d items), want %d: %.600s", path, tot, len(r.Items()), n, r.Raw)
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

// --- creating fixtures ---

func mkLocale(t *testing.T, c *Client, code string, extra ...any) map[string]any {
	t.Helper()
	body := map[string]any{"code": code}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return Want(t, c.Post("/v1/locales", body), 201).Obj()
}

func mkAttr(t *testing.T, c *Client, code string) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/attributes", map[string]any{"code": code}), 201).Obj(), "uuid")
}

func mkTerm(t *testing.T, c *Client, attr, code string, extra ...any) map[string]any {
	t.Helper()
	body := map[string]any{"code": code}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return Want(t, c.Post("/v1/attributes/"+attr+"/terms", body), 201).Obj()
}

func mkContent(t *testing.T, c *Client, base, locale, name string, extra ...any) map[string]any {
	t.Helper()
	body := map[string]any{"localeUuid": locale, "displayName": name}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return Want(t, c.Post(base, body), 201).Obj()
}

func attrContents(attr string) string { return "/v1/attributes/" + attr + "/contents" }
func terms(attr string) string        { return "/v1/attributes/" + attr + "/terms" }
func termContents(attr, term string) string {
	return "/v1/attributes/" + attr + "/terms/" + term + "/contents"
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

// softProblem is WantProblem that records a failure and lets the test go on (for checks whose
// failure should not hide the checks after them).
func softProblem(t *testing.T, r Resp, status int, code string, field ...string) bool {
	t.Helper()
	if r.Status != status || str(r.Obj(), "code") != code {
		t.Errorf("status %d code %v, want %d %s; body: %.600s", r.Status, r.Obj()["code"], status, code, r.Raw)
		return false
	}
	if len(field) > 0 && !slices.Contains(errFields(r), field[0]) {
		t.Errorf("no error names field %q: %s", field[0], r.Raw)
		return false
	}
	return true
}
