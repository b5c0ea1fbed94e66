package webhooks

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

var (
	secretRe = regexp.MustCompile(`^whsec_[A-Za-z0-9+/]+={0,2}$`)
)

// Keys of the webhook resources as the API returns them (DESIGN.md, webhooks.proto).
var (
	subscriptionKeys = []string{"uuid", "createdAt", "updatedAt", "status", "displayName", "targetUrl",
		"requestTimeoutMs", "secret", "consecutiveFailures", "suspendedAt"}
	deliveryKeys = []string{"uuid", "createdAt", "updatedAt", "subscriptionUuid", "eventUuid", "eventType",
		"payload", "status", "attempts", "lastStatusCode", "scheduledAt"}
	attemptKeys   = []string{"uuid", "createdAt", "deliveryUuid", "statusCode", "responseBody", "responseTimeMs", "error"}
	eventTypeKeys = []string{"uuid", "createdAt", "updatedAt", "name", "description", "deprecatedAt", "sunsetAt"}
	subEventKeys  = []string{"uuid", "createdAt", "webhookSubscriptionUuid", "webhookEventTypeUuid", "name"}
)

// ---- environments ----

// site is a running catalogd with a pool on its database.
type site struct {
	env  *Env
	pool *pgxpool.Pool
}

func mainSite() *site { return &site{env: env, pool: pool} }

// gate orders the start of a catalogd against the REST requests of this package: every app.Start
// sets grpc-gateway's process-global query parser (runtime.SetQueryParameterParser in
// server/app/gateway.go), which every other running instance reads while it serves a request — a
// data race under -race. Start-ups take the gate exclusively; requests share it.
var gate sync.RWMutex

type gatedTransport struct{ base http.RoundTripper }

func (g gatedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	gate.RLock()
	defer gate.RUnlock()
	return g.base.RoundTrip(r)
}

// clientFor is e.ClientFor through the gate: a REST client for tenant with scopes (all when none).
func clientFor(t *testing.T, e *Env, tenant string, scopes ...string) *Client {
	t.Helper()
	c := e.ClientFor(t, tenant, scopes...)
	c.HTTP.Transport = gatedTransport{http.DefaultTransport}
	return c
}

func (s *site) client(t *testing.T, tenant string, scopes ...string) *Client {
	t.Helper()
	return clientFor(t, s.env, tenant, scopes...)
}

// startSite runs a dedicated catalogd on a fresh database with the main options changed by opts;
// it stops with the test.
func startSite(t *testing.T, opts ...func(*app.Config)) *site {
	t.Helper()
	gate.Lock()
	e, err := Start(append([]func(*app.Config){mainOptions}, opts...)...)
	gate.Unlock()
	if err != nil {
		t.Fatalf("start catalogd: %v", err)
	}
	p, err := pgxpool.New(context.Background(), e.DBURL)
	if err != nil {
		e.Stop()
		t.Fatalf("connect to %s: %v", e.DBURL, err)
	}
	t.Cleanup(func() { p.Close(); e.Stop() })
	return &site{env: e, pool: p}
}

// startReplica runs another catalogd on s's database (main options changed by opts); it stops
// with the test, before s (cleanups run last in, first out).
func startReplica(t *testing.T, s *site, opts ...func(*app.Config)) *Env {
	t.Helper()
	gate.Lock()
	e, err := StartOn(s.env.DBURL, nil, append([]func(*app.Config){mainOptions}, opts...)...)
	gate.Unlock()
	if err != nil {
		t.Fatalf("start replica: %v", err)
	}
	t.Cleanup(e.Stop)
	return e
}

// tenantClient is a full-access REST client of a fresh tenant, with the tenant id.
func (s *site) tenantClient(t *testing.T) (*Client, string) {
	t.Helper()
	tenant := "t-" + RandomHex(8)
	return s.client(t, tenant), tenant
}

// ---- receivers ----

// hook is one request a receiver got.
type hook struct {
	Method string
	Header http.Header
	Body   []byte
	At     time.Time
}

func (h hook) id() string { return h.Header.Get("webhook-id") }

// receiver is an httptest webhook target recording every request; respond decides the answer to
// the n-th request (0-based); nil answers 200 "ok".
type receiver struct {
	mu      sync.Mutex
	got     []hook
	respond func(n int, w http.ResponseWriter, r *http.Request)
	srv     *httptest.Server
	URL     string
}

func newReceiver(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	rc := &receiver{respond: respond}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		n := len(rc.got)
		rc.got = append(rc.got, hook{Method: r.Method, Header: r.Header.Clone(), Body: b, At: time.Now()})
		f := rc.respond
		rc.mu.Unlock()
		if f == nil {
			_, _ = io.WriteString(w, "ok")
			return
		}
		f(n, w, r)
	}))
	rc.URL = rc.srv.URL + "/hook"
	t.Cleanup(rc.srv.Close)
	return rc
}

// respondWith answers every request with code and body.
func respondWith(code int, body string) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

func (rc *receiver) hooks() []hook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

func (rc *receiver) count() int { rc.mu.Lock(); defer rc.mu.Unlock(); return len(rc.got) }

// closedURL is an http URL on 127.0.0.1 where nothing listens (connections are refused).
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/hook"
}

// ---- signatures ----

// verify fails unless the official Standard Webhooks library accepts h with secret.
func verify(t *testing.T, what string, h hook, secret string) {
	t.Helper()
	if err := verifyErr(t, h, secret); err != nil {
		t.Errorf("%s: the Standard Webhooks library rejects the delivery with the subscription secret: %v (headers %v)", what, err, h.Header)
	}
}

func verifyErr(t *testing.T, h hook, secret string) error {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatalf("the Standard Webhooks library refuses the secret: %v", err)
	}
	return wh.Verify(h.Body, h.Header)
}

// ---- small JSON helpers ----

func num(m map[string]any, k string) int {
	f, ok := m[k].(float64)
	if !ok {
		return -1
	}
	return int(f)
}

func wantTimestamp(t *testing.T, what string, v any) {
	t.Helper()
	if s, _ := v.(string); !TimestampRe.MatchString(s) {
		t.Errorf("%s: %v is not a <YYYY-MM-DD>T<hh:mm:ss.ffffff>Z timestamp", what, v)
	}
}

// ---- API helpers ----

const subs = "/v1/webhook-subscriptions"

// eventTypeUUID returns the uuid of the event type named name, as the API lists it.
func eventTypeUUID(t *testing.T, c *Client, name string) string {
	t.Helper()
	items := Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", name)), 200).Items()
	if len(items) != 1 || Str(items[0], "name") != name {
		t.Fatalf("event type %s: listed %v", name, items)
	}
	return Str(items[0], "uuid")
}

// createSub creates an active subscription for target (body fields extra may add or override) and
// subscribes it to events; it returns the creation response.
func createSub(t *testing.T, c *Client, target string, extra map[string]any, events ...string) map[string]any {
	t.Helper()
	body := map[string]any{"displayName": "hook " + RandomHex(3), "targetUrl": target}
	for k, v := range extra {
		body[k] = v
	}
	sub := Want(t, c.Post(subs, body), 201).Obj()
	for _, e := range events {
		subscribe(t, c, Str(sub, "uuid"), e)
	}
	return sub
}

// newSub is createSub returning the uuid and the secret.
func newSub(t *testing.T, c *Client, target string, events ...string) (string, string) {
	t.Helper()
	s := createSub(t, c, target, nil, events...)
	return Str(s, "uuid"), Str(s, "secret")
}

func subscribe(t *testing.T, c *Client, sub, event string) map[string]any {
	t.Helper()
	return Want(t, c.Post(subs+"/"+sub+"/event-types", map[string]any{"webhookEventTypeUuid": eventTypeUUID(t, c, event)}), 201).Obj()
}

func lifecycle(c *Client, sub, transition string) Resp {
	return c.Patch(subs+"/"+sub+"/actions/lifecycle", map[string]any{"transition": transition})
}

func getSub(t *testing.T, c *Client, sub string) map[string]any {
	t.Helper()
	return Want(t, c.Get(subs+"/"+sub), 200).Obj()
}

// deliveries lists every delivery of a subscription (all pages), oldest first.
func deliveries(t *testing.T, c *Client, sub string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for page := 1; ; page++ {
		r := Want(t, c.Get(subs+"/"+sub+"/deliveries"+Q("page", strconv.Itoa(page), "size", "100")), 200)
		out = append(out, r.Items()...)
		if page >= num(r.Obj()["pagination"].(map[string]any), "totalPages") {
			return out
		}
	}
}

func getDelivery(t *testing.T, c *Client, sub, id string) map[string]any {
	t.Helper()
	return Want(t, c.Get(subs+"/"+sub+"/deliveries/"+id), 200).Obj()
}

func attempts(t *testing.T, c *Client, sub, id string) []map[string]any {
	t.Helper()
	return Want(t, c.Get(subs+"/"+sub+"/deliveries/"+id+"/attempts"+Q("size", "100")), 200).Items()
}

// onlyDelivery waits for the subscription's one delivery to exist and returns its uuid.
func onlyDelivery(t *testing.T, c *Client, sub string) string {
	t.Helper()
	var ds []map[string]any
	WaitFor(t, 15*time.Second, "a delivery of subscription "+sub, func() bool { ds = deliveries(t, c, sub); return len(ds) > 0 })
	if len(ds) != 1 {
		t.Fatalf("subscription %s has %d deliveries, want 1: %v", sub, len(ds), ds)
	}
	return Str(ds[0], "uuid")
}

// waitDelivery polls a delivery until cond holds (30 s at most) and returns it.
func waitDelivery(t *testing.T, c *Client, sub, id, what string, cond func(d map[string]any) bool) map[string]any {
	t.Helper()
	var d map[string]any
	WaitFor(t, 30*time.Second, "delivery "+id+" "+what, func() bool { d = getDelivery(t, c, sub, id); return cond(d) })
	return d
}

func isStatus(st string) func(map[string]any) bool {
	return func(d map[string]any) bool { return Str(d, "status") == st }
}

// mkAttr creates an attribute and returns its uuid.
func mkAttr(t *testing.T, c *Client, code string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/attributes", map[string]any{"code": code}), 201).Obj(), "uuid")
}

// ---- database ----

func (s *site) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.pool.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// deliveryRows counts the webhook_deliveries rows of a subscription.
func (s *site) deliveryRows(t *testing.T, sub string) int {
	t.Helper()
	return s.count(t, `SELECT count(*) FROM webhook_deliveries WHERE subscription_uuid = $1`, sub)
}

// eventRows counts the events of a tenant.
func (s *site) eventRows(t *testing.T, tenant string) int {
	t.Helper()
	return s.count(t, `SELECT count(*) FROM events WHERE tenant_id = $1`, tenant)
}
