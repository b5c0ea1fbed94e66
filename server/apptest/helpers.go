package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"
)

// This file holds the assertion and fixture helpers the integration test packages (test/...) share.

var (
	// TimestampRe matches a timestamp as the API writes it: <YYYY-MM-DD>T<hh:mm:ss.ffffff>Z.
	TimestampRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$`)
	// UUIDRe matches a lowercase uuid.
	UUIDRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// UnknownUUID names nothing in any tenant.
const UnknownUUID = "0190aaaa-0000-7000-8000-000000000000"

// RandomUUID is a well-formed (version 4) uuid that nothing has.
func RandomUUID() string {
	h := RandomHex(16)
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}

// TenantClient is a REST client for a fresh tenant with every scope, together with the tenant's
// id (for the events table).
func (e *Env) TenantClient(t testing.TB) (*Client, string) {
	t.Helper()
	tenant := "t-" + RandomHex(8)
	return e.ClientFor(t, tenant), tenant
}

// --- JSON values ---

// Str is m[k] when it is a string, else "".
func Str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// TS parses a timestamp of a response (RFC 3339); it fails the test unless v is one.
func TS(t testing.TB, v any) time.Time {
	t.Helper()
	s, _ := v.(string)
	x, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("timestamp %v: %v", v, err)
	}
	return x
}

// Body builds a JSON object from alternating key, value pairs.
func Body(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// Q builds a query string from alternating key, value pairs, in order and with the keys as written
// (several [order] keys apply in the order given, which url.Values would lose); "" when empty.
func Q(kv ...string) string {
	if len(kv)%2 != 0 {
		panic("Q: odd number of arguments")
	}
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

// UUIDsOf is the uuids of items in order.
func UUIDsOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = Str(it, "uuid")
	}
	return out
}

// SameSet reports whether a and b hold the same strings, ignoring order.
func SameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(x, y)
}

// --- resource shapes ---

// WantKeys fails unless obj has exactly the given keys.
func WantKeys(t testing.TB, what string, obj map[string]any, keys ...string) {
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

// WantCommon checks uuid, createdAt and updatedAt of a resource.
func WantCommon(t testing.TB, what string, obj map[string]any) {
	t.Helper()
	if s, _ := obj["uuid"].(string); !UUIDRe.MatchString(s) {
		t.Errorf("%s: uuid %v is not a lowercase uuid", what, obj["uuid"])
	}
	for _, k := range []string{"createdAt", "updatedAt"} {
		if s, _ := obj[k].(string); !TimestampRe.MatchString(s) {
			t.Errorf("%s: %s %v is not <YYYY-MM-DD>T<hh:mm:ss.ffffff>Z", what, k, obj[k])
		}
	}
}

// WantFields fails unless obj[k] == v for each pair (compared as JSON).
func WantFields(t testing.TB, what string, obj map[string]any, kv ...any) {
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

// --- lists ---

// totalItems is pagination.totalItems of a page body.
func totalItems(r Resp) int {
	return int(r.Obj()["pagination"].(map[string]any)["totalItems"].(float64))
}

// WantUUIDs fails unless the list at path answers exactly the uuids want (in that order when
// ordered), with totalItems counting them.
func WantUUIDs(t testing.TB, c *Client, path string, ordered bool, want ...string) {
	t.Helper()
	r := Want(t, c.Get(path), 200)
	got := UUIDsOf(r.Items())
	ok := SameSet(got, want)
	if ordered {
		ok = slices.Equal(got, want)
	}
	if !ok {
		t.Errorf("GET %s: uuids %v, want %v (ordered=%v)", path, got, want, ordered)
	}
	if tot := totalItems(r); tot != len(want) {
		t.Errorf("GET %s: totalItems %d, want %d", path, tot, len(want))
	}
}

// WantTotal fails unless the list at path counts n items (totalItems and the items of the page).
func WantTotal(t testing.TB, c *Client, path string, n int) {
	t.Helper()
	r := Want(t, c.Get(path), 200)
	if tot := totalItems(r); tot != n || len(r.Items()) != n {
		t.Errorf("GET %s: totalItems %d (%d items), want %d: %.600s", path, tot, len(r.Items()), n, r.Raw)
	}
}

// PaginationKeys are the keys of every pagination object.
var PaginationKeys = []string{"page", "size", "totalItems", "totalPages", "nextCursor"}

// WantPagination fails unless the pagination of a page body is exactly page, size, totalItems
// and totalPages, with a nextCursor exactly when a page follows (page × size < totalItems).
func WantPagination(t testing.TB, what string, r Resp, page, size, total, pages int) {
	t.Helper()
	p, _ := r.Obj()["pagination"].(map[string]any)
	WantKeys(t, what+": pagination", p, PaginationKeys...)
	got := []any{p["page"], p["size"], p["totalItems"], p["totalPages"]}
	want := []any{float64(page), float64(size), float64(total), float64(pages)}
	if !slices.Equal(got, want) {
		t.Errorf("%s: pagination page/size/totalItems/totalPages %v, want %v", what, got, want)
	}
	WantNextCursor(t, what, p, page*size < total)
}

// WantNextCursor fails unless the pagination object p has a nextCursor (a non-empty string) when
// more is true and null otherwise.
func WantNextCursor(t testing.TB, what string, p map[string]any, more bool) {
	t.Helper()
	c, isString := p["nextCursor"].(string)
	switch {
	case more && (!isString || c == ""):
		t.Errorf("%s: pagination.nextCursor %#v, want a cursor (a page follows)", what, p["nextCursor"])
	case !more && p["nextCursor"] != nil:
		t.Errorf("%s: pagination.nextCursor %#v, want null (last page)", what, p["nextCursor"])
	}
}

// --- problems (RFC 9457) ---

// ProblemFields is the field names of a problem body's errors.
func ProblemFields(p map[string]any) []string {
	var out []string
	errs, _ := p["errors"].([]any)
	for _, e := range errs {
		if m, ok := e.(map[string]any); ok {
			out = append(out, Str(m, "field"))
		}
	}
	return out
}

// ErrFields is the field names of a problem response's errors.
func ErrFields(r Resp) []string { return ProblemFields(r.Obj()) }

// Problem is WantProblem that records a failure and lets the test go on: status, code, the
// problem content type and, when given, a field named by one of the errors.
func Problem(t testing.TB, what string, r Resp, status int, code string, field ...string) bool {
	t.Helper()
	return softProblem(t, what+": ", true, r, status, code, field)
}

// SoftProblem is Problem without a label and without the content-type check.
func SoftProblem(t testing.TB, r Resp, status int, code string, field ...string) bool {
	t.Helper()
	return softProblem(t, "", false, r, status, code, field)
}

func softProblem(t testing.TB, prefix string, contentType bool, r Resp, status int, code string, field []string) bool {
	t.Helper()
	if r.Status != status || Str(r.Obj(), "code") != code {
		t.Errorf("%sstatus %d code %v, want %d %s; body: %.600s", prefix, r.Status, r.Obj()["code"], status, code, r.Raw)
		return false
	}
	if contentType {
		if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
			t.Errorf("%scontent-type %q", prefix, ct)
		}
	}
	if len(field) > 0 && !slices.Contains(ErrFields(r), field[0]) {
		t.Errorf("%sno error names field %q: %s", prefix, field[0], r.Raw)
		return false
	}
	return true
}

// --- fixtures ---

// CreateLocale creates a locale with code and returns its uuid.
func CreateLocale(t testing.TB, c *Client, code string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/locales", map[string]any{"code": code}), 201).Obj(), "uuid")
}

// --- database ---

// DB is what the helpers need of a database handle (a *pgxpool.Pool, a *pgx.Conn).
type DB interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// CountRows counts a tenant's rows of a table, with an extra SQL condition when where is given.
func CountRows(t testing.TB, db DB, table, tenant string, where ...string) int {
	t.Helper()
	sql := "SELECT count(*) FROM " + table + " WHERE tenant_id = $1"
	if len(where) > 0 {
		sql += " AND " + where[0]
	}
	var n int
	if err := db.QueryRow(context.Background(), sql, tenant).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// --- events ---

// Event is one row of the outbox: its type and its payload (an object of strings).
type Event struct {
	Type    string
	Payload map[string]string
}

func (e Event) String() string {
	b, _ := json.Marshal(e.Payload)
	return e.Type + " " + string(b)
}

// Ev is the event typ with the payload of alternating key, value pairs.
func Ev(typ string, kv ...string) Event {
	p := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i]] = kv[i+1]
	}
	return Event{Type: typ, Payload: p}
}

// EventLog reads a tenant's events in the order they were written and remembers how many of them
// the test has seen.
type EventLog struct {
	db     DB
	tenant string
	seen   int
}

// NewEventLog is the log of tenant's events in db, from the first one (call Skip to start at the
// current end).
func NewEventLog(db DB, tenant string) *EventLog { return &EventLog{db: db, tenant: tenant} }

// All is every event of the tenant, oldest first.
func (l *EventLog) All(t testing.TB) []Event {
	t.Helper()
	rows, err := l.db.Query(context.Background(),
		`SELECT type, payload FROM events WHERE tenant_id = $1 ORDER BY created_at, uuid`, l.tenant)
	if err != nil {
		t.Fatalf("read events: %v", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
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

// Seen is how many events the log has seen.
func (l *EventLog) Seen() int { return l.seen }

// Skip marks every event written so far as seen; it returns l.
func (l *EventLog) Skip(t testing.TB) *EventLog {
	t.Helper()
	l.seen = len(l.All(t))
	return l
}

// Expect fails unless the events written since the last call are exactly want (as a multiset:
// ordering is not guaranteed).
func (l *EventLog) Expect(t testing.TB, step string, want ...Event) {
	t.Helper()
	all := l.All(t)
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

// --- gRPC ---

// GRPCContext is a context carrying a bearer token for tenant (all scopes unless given); it is
// cancelled after 30 s or with the test.
func GRPCContext(t testing.TB, tenant string, scopes ...string) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+Token(tenant, scopes...))
}

// WantGRPC checks a gRPC error: its code, its google.rpc.ErrorInfo (reason, domain catalogd) and,
// when given, that a google.rpc.BadRequest field violation names field. It returns the ErrorInfo
// metadata (nil unless the ErrorInfo matches).
func WantGRPC(t testing.TB, what string, err error, code codes.Code, reason string, field ...string) map[string]string {
	t.Helper()
	return wantGRPC(t, what, err, code, reason, "catalogd", field)
}

// wantGRPC is WantGRPC checking the ErrorInfo domain unless domain is "".
func wantGRPC(t testing.TB, what string, err error, code codes.Code, reason, domain string, field []string) map[string]string {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s %s", what, code, reason)
		return nil
	}
	st, ok := status.FromError(err)
	if !ok {
		t.Errorf("%s: %v is not a gRPC status", what, err)
		return nil
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
	var meta map[string]string
	switch {
	case info == nil:
		t.Errorf("%s: no google.rpc.ErrorInfo in %v", what, st.Details())
	case domain == "" && info.Reason != reason:
		t.Errorf("%s: ErrorInfo reason %q, want %q", what, info.Reason, reason)
	case domain != "" && (info.Reason != reason || info.Domain != domain):
		t.Errorf("%s: ErrorInfo reason %q domain %q, want %q %s", what, info.Reason, info.Domain, reason, domain)
	default:
		meta = info.Metadata
	}
	if len(field) > 0 && !slices.Contains(fields, field[0]) {
		t.Errorf("%s: BadRequest fields %v do not name %q", what, fields, field[0])
	}
	return meta
}

// --- error meta (DESIGN.md: meta is structured JSON) ---

// Meta is the meta object of a problem body (nil when absent).
func Meta(p map[string]any) map[string]any {
	m, _ := p["meta"].(map[string]any)
	return m
}

// GRPCMeta is the typed meta of a gRPC error: its google.protobuf.Struct detail (nil when absent).
func GRPCMeta(err error) map[string]any {
	for _, d := range status.Convert(err).Details() {
		if s, ok := d.(*structpb.Struct); ok {
			return s.AsMap()
		}
	}
	return nil
}

// Strings is a JSON array of strings as decoded JSON gives it; ok is false for anything else
// (a string, null, an array holding a non-string).
func Strings(v any) (out []string, ok bool) {
	a, isArray := v.([]any)
	if !isArray {
		return nil, false
	}
	out = make([]string, len(a))
	for i, x := range a {
		if out[i], ok = x.(string); !ok {
			return nil, false
		}
	}
	return out, true
}

// WantTransitionMeta checks the meta of an INVALID_TRANSITION (a problem's or GRPCMeta's):
// currentStatus is current and allowedTransitions a JSON array holding exactly allowed (any order).
func WantTransitionMeta(t testing.TB, what string, meta map[string]any, current string, allowed ...string) {
	t.Helper()
	if meta["currentStatus"] != current {
		t.Errorf("%s: meta.currentStatus %#v, want %q (meta %v)", what, meta["currentStatus"], current, meta)
	}
	got, ok := Strings(meta["allowedTransitions"])
	if !ok {
		t.Errorf("%s: meta.allowedTransitions %#v is not an array of strings", what, meta["allowedTransitions"])
		return
	}
	got, want := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(allowed))
	if !slices.Equal(got, want) {
		t.Errorf("%s: meta.allowedTransitions %v, want %v", what, got, want)
	}
}

// WaitFor polls cond every 50 ms until it holds, and fails the test when d passes first: for what
// background work (webhook dispatch, renditions, sweeps) makes true a moment later.
func WaitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// OpenAPI decodes the served /openapi.json into doc (a struct of the parts a test reads).
func (e *Env) OpenAPI(t testing.TB, doc any) {
	t.Helper()
	res, err := http.Get(e.BaseURL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /openapi.json: %s", res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(doc); err != nil {
		t.Fatalf("GET /openapi.json: %v", err)
	}
}

// Metrics reads e's /metrics: the value of every sample, keyed by its name and labels as written
// (`catalogd_webhook_attempts_total{outcome="success"}`).
func (e *Env) Metrics(t testing.TB) map[string]float64 {
	t.Helper()
	_, b := e.GetRaw(t, "/metrics")
	out := map[string]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

// GetRaw is an anonymous GET of path on e: the status and the whole body.
func (e *Env) GetRaw(t testing.TB, path string) (int, []byte) {
	t.Helper()
	res, err := http.Get(e.BaseURL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return res.StatusCode, b
}

// SendFile sends body as it is, with its content type and the client's token: a file given as
// the request body, as curl would send it. The answer's JSON is decoded when it has a body. The
// exchange is not checked against the OpenAPI document (a file body is not JSON).
func (c *Client) SendFile(method, path, contentType string, body []byte) Resp {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Content-Type", contentType)
	return c.exchange(req)
}

// Upload transfers file to the upload URL of a create's answer (uploadMethod, uploadUrl,
// uploadHeaders), as a client does.
func Upload(t testing.TB, created map[string]any, file []byte) {
	t.Helper()
	req, err := http.NewRequest(Str(created, "uploadMethod"), Str(created, "uploadUrl"), bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range created["uploadHeaders"].(map[string]any) {
		req.Header.Set(k, v.(string))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		t.Fatalf("upload: %s", res.Status)
	}
}
