// Package tracing tests catalogd's OpenTelemetry tracing (server/tracing) on a running catalogd whose
// tracer provider records every span in memory (the SDK's span recorder): one trace per request
// through the doors (REST, Connect, gRPC-Web, gRPC), the interceptor chain and every SQL statement;
// the trace context stored with the event in the outbox and carried to the webhook receiver; log
// lines with trace_id and span_id. e2e_test.go runs the real binary against an OTLP/HTTP receiver.
package tracing

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/jackc/pgx/v5/pgxpool"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/metadata"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/tracing"
)

var (
	env      *Env
	pool     *pgxpool.Pool
	recorder = tracetest.NewSpanRecorder()
)

func TestMain(m *testing.M) {
	// Every span is sampled and recorded in memory; installed before catalogd starts (its pools take
	// their pgx tracer when they open).
	tracing.Install(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)))
	Main(m, &env, &pool, func(c *app.Config) {
		c.WebhookAllowPrivate = true // the receiver is on 127.0.0.1
		c.Retention = 24 * time.Hour // the pruner runs at start-up: background work with spans of its own
	})
}

// traceparent is a W3C traceparent of a fresh trace (sampled) and the trace and parent span ids.
func traceparent() (header string, traceID trace.TraceID, parent trace.SpanID) {
	copy(traceID[:], mustHex(RandomHex(16)))
	copy(parent[:], mustHex(RandomHex(8)))
	return fmt.Sprintf("00-%s-%s-01", traceID, parent), traceID, parent
}

func mustHex(s string) []byte {
	b := make([]byte, len(s)/2)
	for i := range b {
		fmt.Sscanf(s[2*i:2*i+2], "%02x", &b[i])
	}
	return b
}

// spansOf waits until the recorder holds a span of trace id for which done holds over the trace's
// ended spans, and returns them (the server span ends just after the answer is written).
func spansOf(t *testing.T, id trace.TraceID, what string, done func([]sdktrace.ReadOnlySpan) bool) []sdktrace.ReadOnlySpan {
	t.Helper()
	var got []sdktrace.ReadOnlySpan
	WaitFor(t, 10*time.Second, what, func() bool {
		got = got[:0]
		for _, s := range recorder.Ended() {
			if s.SpanContext().TraceID() == id {
				got = append(got, s)
			}
		}
		return done(got)
	})
	return got
}

func named(spans []sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	for _, s := range spans {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

func hasNamed(name string) func([]sdktrace.ReadOnlySpan) bool {
	return func(spans []sdktrace.ReadOnlySpan) bool { return named(spans, name) != nil }
}

func attr(s sdktrace.ReadOnlySpan, key string) string {
	for _, a := range s.Attributes() {
		if string(a.Key) == key {
			return a.Value.Emit()
		}
	}
	return ""
}

// call makes a REST request to the catalogd at base with extra headers (apptest's client sets none of
// its own) and returns the status and the decoded body.
func call(t *testing.T, base, token, method, path, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// must is call that fails the test unless the status is 2xx.
func must(t *testing.T, base, token, method, path, body string, header ...string) map[string]any {
	t.Helper()
	status, out := call(t, base, token, method, path, body, header...)
	if status/100 != 2 {
		t.Fatalf("%s %s: %d %v", method, path, status, out)
	}
	return out
}

// hookReceiver is a webhook receiver that records the traceparent header of each delivery.
type hookReceiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []string
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.got = append(h.got, r.Header.Get("traceparent"))
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.Close)
	return h
}

// subscribe makes a subscription of the token's tenant, at the catalogd at base, that sends event to h.
func (h *hookReceiver) subscribe(t *testing.T, base, token, event string) {
	t.Helper()
	sub := must(t, base, token, "POST", "/v1/webhook-subscriptions", `{"displayName":"traced","targetUrl":"`+h.URL+`"}`)
	types, _ := must(t, base, token, "GET", "/v1/webhook-event-types?names[eq]="+event, "")["items"].([]any)
	if len(types) != 1 {
		t.Fatalf("event type %s: %v", event, types)
	}
	must(t, base, token, "POST", "/v1/webhook-subscriptions/"+Str(sub, "uuid")+"/event-types",
		`{"webhookEventTypeUuid":"`+Str(types[0].(map[string]any), "uuid")+`"}`)
}

// first waits for the first delivery and returns its traceparent.
func (h *hookReceiver) first(t *testing.T) string {
	t.Helper()
	WaitFor(t, 20*time.Second, "a webhook delivery", func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.got) > 0 })
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.got[0]
}

// A REST write with a traceparent is one trace: the HTTP server span, a child of the caller's span,
// is the interceptor chain's span too (named after the RPC, with the chain's attributes: one span for
// the door, the gateway and the chain), and each SQL statement of the write a span under it, with the
// statement's text and never its values.
func TestRESTWriteIsOneTraceWithItsSQL(t *testing.T) {
	_, tenant := env.TenantClient(t)
	tp, id, parent := traceparent()
	code := "en-US"
	must(t, env.BaseURL, Token(tenant), "POST", "/v1/locales", `{"code":"`+code+`"}`, "traceparent", tp)
	const method = "/catalog.v1.LocaleService/CreateLocale"
	spans := spansOf(t, id, "the server span of the write", hasNamed(method))
	chain := named(spans, method)
	if chain.SpanKind() != trace.SpanKindServer || chain.Parent().SpanID() != parent || !chain.Parent().IsRemote() {
		t.Errorf("server span: kind %v, parent %v (remote %v), want a server span under the caller's %v",
			chain.SpanKind(), chain.Parent().SpanID(), chain.Parent().IsRemote(), parent)
	}
	for _, s := range spans {
		if s.Name() == "HTTP POST" || (s.Name() == method && s.SpanContext().SpanID() != chain.SpanContext().SpanID()) {
			t.Errorf("a span %s beside the server span %s: %v", s.Name(), method, names(spans))
		}
	}
	for k, want := range map[string]string{"http.request.method": "POST", "url.path": "/v1/locales", "http.response.status_code": "201",
		"rpc.grpc.status_code": "OK", "catalogd.tenant": tenant} {
		if got := attr(chain, k); got != want {
			t.Errorf("server span's %s %q, want %q", k, got, want)
		}
	}
	var sql []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if attr(s, "db.system.name") == "postgresql" {
			sql = append(sql, s)
		}
	}
	if len(sql) == 0 {
		t.Fatalf("no SQL span in the write's trace: %v", names(spans))
	}
	insert := false
	for _, s := range sql {
		text := attr(s, "db.query.text")
		if text == "" || s.SpanKind() != trace.SpanKindClient {
			t.Errorf("SQL span %s: kind %v, text %q", s.Name(), s.SpanKind(), text)
		}
		if strings.Contains(text, code) || strings.Contains(text, tenant) {
			t.Errorf("SQL span %s carries a value of the statement: %q", s.Name(), text)
		}
		if strings.HasPrefix(text, "--") { // sqlc's "-- name: X :kind" line is the span's name, not its text
			t.Errorf("SQL span %s: the text starts with a comment: %q", s.Name(), text)
		}
		if !under(s, chain, spans) {
			t.Errorf("SQL span %s is not under the chain's span", s.Name())
		}
		insert = insert || s.Name() == "InsertEvents"
	}
	if !insert {
		t.Errorf("no InsertEvents statement (the outbox) among the write's SQL spans: %v", names(sql))
	}
}

// A request that runs no RPC (refused at the front door here) keeps the door's span, HTTP <method>,
// with its status.
func TestRequestWithoutRPCKeepsTheHTTPSpan(t *testing.T) {
	tp, id, parent := traceparent()
	if status, _ := call(t, env.BaseURL, "", "GET", "/v1/locales", "", "traceparent", tp); status != http.StatusUnauthorized {
		t.Fatalf("GET without a token: %d", status)
	}
	spans := spansOf(t, id, "the HTTP span of the refused request", hasNamed("HTTP GET"))
	server := named(spans, "HTTP GET")
	if server.Parent().SpanID() != parent || attr(server, "http.response.status_code") != "401" || attr(server, "url.path") != "/v1/locales" {
		t.Errorf("HTTP GET span under %v, status %q, path %q; want under %v, 401, /v1/locales", server.Parent().SpanID(),
			attr(server, "http.response.status_code"), attr(server, "url.path"), parent)
	}
	if len(spans) != 1 {
		t.Errorf("spans of a request refused at the door: %v, want HTTP GET alone", names(spans))
	}
}

// The chain takes the door's span once: a second call in the same HTTP request gets a span of its
// own under it, which the chain ends (the door's span is ended by the door alone).
func TestTheChainTakesTheDoorsSpanOnce(t *testing.T) {
	tp, id, _ := traceparent()
	r := httptest.NewRequest("GET", "/v1/locales", nil)
	r.Header.Set("Traceparent", tp)
	ctx, door := tracing.StartHTTP(r)
	if r.Header.Get("Traceparent") != "" {
		t.Error("the caller's traceparent is left on the request once continued")
	}
	first, span1, own1 := tracing.StartRPC(ctx, "/catalog.v1.LocaleService/ListLocales")
	if own1 || span1 != door || first != ctx {
		t.Fatalf("the first call did not take the door's span (own %v)", own1)
	}
	_, span2, own2 := tracing.StartRPC(ctx, "/catalog.v1.LocaleService/GetLocale")
	if !own2 || span2 == door {
		t.Fatalf("the second call took the door's span too (own %v)", own2)
	}
	span2.End()
	tracing.EndHTTP(door, http.StatusOK)
	spans := spansOf(t, id, "both spans", func(s []sdktrace.ReadOnlySpan) bool { return len(s) == 2 })
	d, c := named(spans, "/catalog.v1.LocaleService/ListLocales"), named(spans, "/catalog.v1.LocaleService/GetLocale")
	if d == nil || c == nil || c.Parent().SpanID() != d.SpanContext().SpanID() || d.SpanKind() != trace.SpanKindServer {
		t.Errorf("spans %v: want the door's, renamed after the first call, and the second call's under it", names(spans))
	}
}

// under reports whether s descends from anc among spans.
func under(s, anc sdktrace.ReadOnlySpan, spans []sdktrace.ReadOnlySpan) bool {
	byID := map[trace.SpanID]sdktrace.ReadOnlySpan{}
	for _, x := range spans {
		byID[x.SpanContext().SpanID()] = x
	}
	for p := s.Parent().SpanID(); p.IsValid(); {
		if p == anc.SpanContext().SpanID() {
			return true
		}
		x, ok := byID[p]
		if !ok {
			return false
		}
		p = x.Parent().SpanID()
	}
	return false
}

func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name())
	}
	return out
}

// Connect, gRPC-Web (on the HTTP port) and gRPC (its own port) calls continue the caller's trace.
func TestEveryProtocolContinuesTheCallersTrace(t *testing.T) {
	_, tenant := env.TenantClient(t)
	const method = "/catalog.v1.LocaleService/ListLocales"
	for _, p := range []struct {
		name string
		opts []connect.ClientOption
	}{{"connect", nil}, {"grpc-web", []connect.ClientOption{connect.WithGRPCWeb()}}} {
		t.Run(p.name, func(t *testing.T) {
			tp, id, _ := traceparent()
			c := connect.NewClient[pb.ListLocalesRequest, pb.ListLocalesResponse](http.DefaultClient, env.BaseURL+method, p.opts...)
			req := connect.NewRequest(&pb.ListLocalesRequest{})
			req.Header().Set("Authorization", "Bearer "+Token(tenant))
			req.Header().Set("traceparent", tp)
			if _, err := c.CallUnary(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			// The HTTP server span, the in-process gRPC server's span under it, the chain's under that.
			spans := spansOf(t, id, "the call's HTTP, gRPC and chain spans", func(s []sdktrace.ReadOnlySpan) bool {
				return named(s, "HTTP POST") != nil && named(s, method[1:]) != nil && named(s, method) != nil
			})
			if g := named(spans, method[1:]); g.Parent().SpanID() != named(spans, "HTTP POST").SpanContext().SpanID() {
				t.Errorf("the gRPC span is not under the HTTP server span: %v", names(spans))
			}
			if !under(named(spans, method), named(spans, method[1:]), spans) {
				t.Errorf("the chain's span is not under the gRPC span: %v", names(spans))
			}
		})
	}
	t.Run("grpc", func(t *testing.T) {
		tp, id, parent := traceparent()
		ctx := metadata.AppendToOutgoingContext(GRPCContext(t, tenant), "traceparent", tp)
		if _, err := pb.NewLocaleServiceClient(env.GRPC).ListLocales(ctx, &pb.ListLocalesRequest{}); err != nil {
			t.Fatal(err)
		}
		spans := spansOf(t, id, "the gRPC server span", hasNamed("catalog.v1.LocaleService/ListLocales"))
		server := named(spans, "catalog.v1.LocaleService/ListLocales")
		if server.SpanKind() != trace.SpanKindServer || server.Parent().SpanID() != parent {
			t.Errorf("gRPC span: kind %v under %v, want a server span under %v", server.SpanKind(), server.Parent().SpanID(), parent)
		}
		if chain := named(spans, method); chain == nil || chain.Parent().SpanID() != server.SpanContext().SpanID() {
			t.Errorf("the chain's span is not under the gRPC server span: %v", names(spans))
		}
	})
}

// A request without a traceparent starts a trace of its own; probes and scrapes make no span.
func TestTraceWithoutTraceparentAndUntracedProbes(t *testing.T) {
	_, tenant := env.TenantClient(t)
	rid := "trace-" + RandomHex(6)
	must(t, env.BaseURL, Token(tenant), "GET", "/v1/locales", "", "X-Request-Id", rid)
	var chain sdktrace.ReadOnlySpan
	WaitFor(t, 10*time.Second, "the server span of the request", func() bool {
		for _, s := range recorder.Ended() {
			if attr(s, "catalogd.request_id") == rid {
				chain = s
			}
		}
		return chain != nil
	})
	if !chain.SpanContext().TraceID().IsValid() || chain.Parent().IsValid() || chain.SpanKind() != trace.SpanKindServer {
		t.Errorf("a request without traceparent: server span %s (kind %v) under %v, want the root server span of a trace",
			chain.Name(), chain.SpanKind(), chain.Parent().SpanID())
	}
	before := len(recorder.Ended())
	for _, p := range []string{"/healthz", "/readyz", "/metrics"} {
		must(t, env.BaseURL, "", "GET", p, "")
	}
	// A request after the probes, whose span is ended once it is recorded: the probes' would be
	// recorded before it.
	tp, id, _ := traceparent()
	must(t, env.BaseURL, Token(tenant), "GET", "/v1/locales", "", "traceparent", tp)
	spansOf(t, id, "the request after the probes", hasNamed("/catalog.v1.LocaleService/ListLocales"))
	for _, s := range recorder.Ended()[before:] {
		if p := attr(s, "url.path"); p == "/healthz" || p == "/readyz" || p == "/metrics" {
			t.Errorf("a span for %s", p)
		}
	}
}

// The webhook delivery a write causes continues the write's trace: its traceparent is stored with
// the event (and its delivery) in the outbox, the dispatcher's span is in that trace, and the
// receiver gets a traceparent of the same trace.
func TestWebhookDeliveryContinuesTheWritesTrace(t *testing.T) {
	_, tenant := env.TenantClient(t)
	hooks := newHookReceiver(t)
	hooks.subscribe(t, env.BaseURL, Token(tenant), "locale.created")
	tp, id, _ := traceparent()
	must(t, env.BaseURL, Token(tenant), "POST", "/v1/locales", `{"code":"fr-FR"}`, "traceparent", tp)
	header := hooks.first(t)
	parts := strings.Split(header, "-")
	if len(parts) != 4 || parts[1] != id.String() {
		t.Fatalf("the receiver got traceparent %q, want one of trace %s", header, id)
	}
	spans := spansOf(t, id, "the delivery's span", hasNamed("webhook.deliver"))
	deliver := named(spans, "webhook.deliver")
	if deliver.SpanContext().SpanID().String() != parts[2] {
		t.Errorf("the receiver's parent span %s is not the delivery's span %s", parts[2], deliver.SpanContext().SpanID())
	}
	if attr(deliver, "http.response.status_code") != "204" {
		t.Errorf("delivery span status code %q", attr(deliver, "http.response.status_code"))
	}
	var stored string
	if err := pool.QueryRow(context.Background(),
		`SELECT e.traceparent FROM events e WHERE e.tenant_id = $1 AND e.type = 'locale.created'`, tenant).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stored, "00-"+id.String()+"-") {
		t.Errorf("events.traceparent %q, want the write's trace %s", stored, id)
	}
	var delivered *string
	if err := pool.QueryRow(context.Background(), `SELECT traceparent FROM webhook_deliveries WHERE tenant_id = $1`, tenant).Scan(&delivered); err != nil {
		t.Fatal(err)
	}
	if delivered == nil || *delivered != stored {
		t.Errorf("webhook_deliveries.traceparent %v, want the event's %q", delivered, stored)
	}
}

// Log lines written under a span carry its trace_id and span_id.
func TestLogLinesCarryTheTrace(t *testing.T) {
	var buf bytes.Buffer
	log := app.NewLogger(&buf, slog.LevelInfo)
	ctx, span := tracing.Start(context.Background(), "test", trace.SpanKindInternal)
	log.InfoContext(ctx, "traced")
	span.End()
	log.InfoContext(context.Background(), "untraced")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var first, second map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
		t.Fatal(err)
	}
	if first["trace_id"] != span.SpanContext().TraceID().String() || first["span_id"] != span.SpanContext().SpanID().String() {
		t.Errorf("traced line %v, want trace_id %s span_id %s", first, span.SpanContext().TraceID(), span.SpanContext().SpanID())
	}
	if _, ok := second["trace_id"]; ok {
		t.Errorf("a line without a span has a trace_id: %v", second)
	}
}

// Background work is in spans of its own: the retention run (which starts with catalogd) is a
// root span with its SQL under it.
func TestBackgroundWorkHasSpansOfItsOwn(t *testing.T) {
	var run sdktrace.ReadOnlySpan
	WaitFor(t, 10*time.Second, "the retention run's span", func() bool {
		for _, s := range recorder.Ended() {
			if s.Name() == "retention.run" {
				run = s
			}
		}
		return run != nil
	})
	if run.Parent().IsValid() {
		t.Errorf("retention.run has a parent %v, want a root span", run.Parent().SpanID())
	}
	sql := 0
	for _, s := range recorder.Ended() {
		if s.SpanContext().TraceID() == run.SpanContext().TraceID() && attr(s, "db.system.name") == "postgresql" {
			sql++
			if s.Parent().SpanID() != run.SpanContext().SpanID() {
				t.Errorf("SQL span %s of the retention run is under %v, not the run", s.Name(), s.Parent().SpanID())
			}
		}
	}
	if sql == 0 {
		t.Error("no SQL span in the retention run's trace")
	}
}
