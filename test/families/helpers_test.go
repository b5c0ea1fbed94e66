package families

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

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

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

// unknownUUID names nothing in any tenant.
const unknownUUID = "0190aaaa-0000-7000-8000-000000000000"

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

// wantFields fails unless obj[k] == v for each pair (compared as JSON).
func wantFields(t *testing.T, what string, obj map[string]any, kv ...any) {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		got, _ := json.Marshal(obj[k])
		want, _ := json.Marshal(kv[i+1])
		if string(got) != string(want) {
			t.Errorf("%s: %s = %s, want %s", what, k, got, want)
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

// body builds a JSON object from alternating key, value pairs.
func body(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// q builds a query string from alternating key, value pairs, in order (several [order] keys
// apply in the order given).
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

// wantList fails unless the list at path answers exactly the uuids want, in that order when
// ordered, with totalItems counting them.
func wantList(t *testing.T, c *Client, path string, ordered bool, want ...string) {
	t.Helper()
	r := Want(t, c.Get(path), 200)
	got := uuidsOf(r.Items())
	if want == nil {
		want = []string{}
	}
	x, y := slices.Clone(got), slices.Clone(want)
	if !ordered {
		sort.Strings(x)
		sort.Strings(y)
	}
	if !slices.Equal(x, y) {
		t.Errorf("GET %s: uuids %v, want %v (ordered=%v)", path, got, want, ordered)
	}
	if tot := int(r.Obj()["pagination"].(map[string]any)["totalItems"].(float64)); tot != len(want) {
		t.Errorf("GET %s: totalItems %d, want %d", path, tot, len(want))
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

// problem checks an RFC 9457 error without stopping the test: status, code and, when given, a
// field named by one of the errors.
func problem(t *testing.T, what string, r Resp, status int, code string, field ...string) bool {
	t.Helper()
	if r.Status != status || str(r.Obj(), "code") != code {
		t.Errorf("%s: status %d code %v, want %d %s; body: %.600s", what, r.Status, r.Obj()["code"], status, code, r.Raw)
		return false
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("%s: content-type %q", what, ct)
	}
	if len(field) > 0 && !slices.Contains(errFields(r), field[0]) {
		t.Errorf("%s: no error names field %q: %s", what, field[0], r.Raw)
		return false
	}
	return true
}

// --- fixtures: the referenced resources, made through their own APIs ---

func mkFamily(t *testing.T, c *Client, code string) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/families", body("code", code)), 201).Obj(), "uuid")
}

func mkAttribute(t *testing.T, c *Client) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/attributes", body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkCategory(t *testing.T, c *Client) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/categories", body("code", "c_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkInputType(t *testing.T, c *Client) string {
	t.Helper()
	g := str(Want(t, c.Post("/v1/type-groups", body("code", "g_"+RandomHex(4), "entityType", "product")), 201).Obj(), "uuid")
	return str(Want(t, c.Post("/v1/input-types", body("typeGroupUuid", g, "code", "i_"+RandomHex(4), "dataType", "text")), 201).Obj(), "uuid")
}

func mkAssetType(t *testing.T, c *Client) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/product-asset-types", body("code", "at_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkRelationType(t *testing.T, c *Client) string {
	t.Helper()
	return str(Want(t, c.Post("/v1/product-relation-types", body("code", "rt_"+RandomHex(4), "direction", "one_way")), 201).Obj(), "uuid")
}

// --- events ---

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

func newLog(t *testing.T, tenant string) *eventLog {
	l := &eventLog{tenant: tenant}
	l.seen = len(l.all(t))
	return l
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

// expect fails unless the events written since the last call are exactly want (as a multiset).
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

// --- gRPC ---

// grpcCtx is a context carrying a bearer token for tenant (all scopes unless given).
func grpcCtx(t *testing.T, tenant string, scopes ...string) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+Token(tenant, scopes...))
}

// wantGRPC checks a gRPC error: its code, its google.rpc.ErrorInfo reason and, when given, that a
// google.rpc.BadRequest field violation names field.
func wantGRPC(t *testing.T, what string, err error, code codes.Code, reason string, field ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s %s", what, code, reason)
		return
	}
	st, ok := status.FromError(err)
	if !ok {
		t.Errorf("%s: %v is not a gRPC status", what, err)
		return
	}
	if st.Code() != code {
		t.Errorf("%s: code %s (%s), want %s", what, st.Code(), st.Message(), code)
	}
	var info *errdetails.ErrorInfo
	var fields []string
	for _, d := range st.Details() {
		switch x := d.(type) {
		case *errdetails.ErrorInfo:
			info = x
		case *errdetails.BadRequest:
			for _, v := range x.FieldViolations {
				fields = append(fields, v.Field)
			}
		}
	}
	if info == nil {
		t.Errorf("%s: no google.rpc.ErrorInfo in %v", what, st.Details())
	} else if info.Reason != reason {
		t.Errorf("%s: ErrorInfo reason %q, want %q", what, info.Reason, reason)
	}
	if len(field) > 0 && !slices.Contains(fields, field[0]) {
		t.Errorf("%s: BadRequest fields %v do not name %q", what, fields, field[0])
	}
}
