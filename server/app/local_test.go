package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/limits"
	"github.com/catalogd/catalogd/server/queryparam"
	"github.com/catalogd/catalogd/server/reqctx"
)

// countingVerifier counts the token verifications.
type countingVerifier struct {
	inner tokenVerifier
	n     atomic.Int64
}

func (v *countingVerifier) Verify(ctx context.Context, tok string) (*auth.Principal, error) {
	v.n.Add(1)
	return v.inner.Verify(ctx, tok)
}

// countingLog counts the records of each message (at every level).
type countingLog struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *countingLog) Enabled(context.Context, slog.Level) bool { return true }
func (c *countingLog) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *countingLog) WithGroup(string) slog.Handler            { return c }
func (c *countingLog) Handle(_ context.Context, r slog.Record) error {
	c.mu.Lock()
	c.n[r.Message]++
	c.mu.Unlock()
	return nil
}

func (c *countingLog) count(msg string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[msg]
}

// fakeLocales answers GetLocale from the request (NOT_FOUND for the uuid "missing") and records
// what the handler saw.
type fakeLocales struct {
	pb.UnimplementedLocaleServiceServer
	calls  atomic.Int64
	mu     sync.Mutex
	req    *pb.GetLocaleRequest
	tenant string
	rid    string
}

func (f *fakeLocales) GetLocale(ctx context.Context, req *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.req, f.tenant, f.rid = req, reqctx.Tenant(ctx), reqctx.RequestID(ctx)
	f.mu.Unlock()
	if req.LocaleUuid == "missing" {
		return nil, apierr.New(apierr.NotFound, "locale %s not found", req.LocaleUuid)
	}
	return &pb.GetLocaleResponse{Locale: &pb.Locale{Uuid: req.LocaleUuid, Code: "en-US"}}, nil
}

// chainRig is the interceptor chain of Start around the real services' descriptions, with
// LocaleService answered by fakeLocales, and counters on what each interceptor does once per call:
// the token verification, the log line, the metrics, the tenant's rate limit (a bucket of 3) and
// concurrency (1 slot: a second take in the same call would wait and be refused).
type chainRig struct {
	ic       *interceptors
	verifier *countingVerifier
	log      *countingLog
	locales  *fakeLocales
	services []Service
	token    string
}

func newChainRig(t *testing.T) *chainRig {
	t.Helper()
	ic, _ := ruleInterceptors(t)
	r := &chainRig{ic: ic, verifier: &countingVerifier{inner: ic.verifier}, log: &countingLog{n: map[string]int{}},
		locales: &fakeLocales{}, token: token(t, "tenant-a")}
	ic.verifier = r.verifier
	ic.log = slog.New(r.log)
	ic.limits = limits.New(limits.Config{RPS: 0.001, Burst: 3, Concurrency: 1, Wait: 50 * time.Millisecond}, nil)
	r.services = Services(Deps{})
	for i := range r.services {
		if r.services[i].Desc == &pb.LocaleService_ServiceDesc {
			r.services[i].Impl = r.locales
		}
	}
	return r
}

func (r *chainRig) rpcs(code codes.Code) float64 {
	var m dto.Metric
	if err := r.ic.metrics.requests.WithLabelValues("/catalog.v1.LocaleService/GetLocale", code.String()).Write(&m); err != nil {
		panic(err)
	}
	return m.GetCounter().GetValue()
}

// Every interceptor runs exactly once for a REST call, which reaches its handler in process: the
// token is verified once (by the front door; the chain takes its admission), the tenant's bucket and
// concurrency slot are taken once, one rpc log line and one count in the metrics; the handler gets
// the path parameter, the principal and the request id, and its answer and errors reach the client.
func TestRESTRunsEachInterceptorOnce(t *testing.T) {
	r := newChainRig(t)
	gw, err := newRESTGateway(context.Background(), r.services, newLocalConn(r.services, r.ic.chain), r.ic)
	if err != nil {
		t.Fatal(err)
	}
	h := requestLog(slog.New(r.log), queryparam.PreserveOrder(gw))
	get := func(id string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/v1/locales/"+id, nil)
		req.Header.Set("Authorization", r.token)
		req.Header.Set("X-Request-Id", "rid-"+id)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}

	w := get("l-1")
	if w.Code != http.StatusOK {
		t.Fatalf("GET: %d %s", w.Code, w.Body)
	}
	var body struct{ UUID, Code string }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.UUID != "l-1" || body.Code != "en-US" {
		t.Fatalf("body %s (%v)", w.Body, err)
	}
	if got := w.Header().Get("X-Request-Id"); got != "rid-l-1" {
		t.Errorf("X-Request-Id %q", got)
	}
	checks := []struct {
		what      string
		got, want float64
	}{
		{"handler calls", float64(r.locales.calls.Load()), 1},
		{"token verifications", float64(r.verifier.n.Load()), 1},
		{"rpc log lines", float64(r.log.count("rpc")), 1},
		{"http log lines", float64(r.log.count("http")), 1},
		{"rpcs counted OK", r.rpcs(codes.OK), 1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	r.locales.mu.Lock()
	if r.locales.req.GetLocaleUuid() != "l-1" || r.locales.tenant != "tenant-a" || r.locales.rid != "rid-l-1" {
		t.Errorf("the handler saw uuid %q, tenant %q, request id %q", r.locales.req.GetLocaleUuid(), r.locales.tenant, r.locales.rid)
	}
	r.locales.mu.Unlock()

	// An API error keeps its code through the in-process call.
	w = get("missing")
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"NOT_FOUND"`) {
		t.Fatalf("missing: %d %s", w.Code, w.Body)
	}
	if r.rpcs(codes.NotFound) != 1 || r.verifier.n.Load() != 2 || r.log.count("rpc") != 2 {
		t.Errorf("after 2 calls: %v NOT_FOUND counted, %d verifications, %d rpc lines", r.rpcs(codes.NotFound), r.verifier.n.Load(), r.log.count("rpc"))
	}
	// The bucket of 3 was charged once per call: a third call passes, the fourth is refused.
	if w = get("l-3"); w.Code != http.StatusOK {
		t.Fatalf("third call: %d %s", w.Code, w.Body)
	}
	if w = get("l-4"); w.Code != http.StatusTooManyRequests {
		t.Fatalf("fourth call: %d %s", w.Code, w.Body)
	}
	if n := r.locales.calls.Load(); n != 3 {
		t.Errorf("handler calls %d, want 3", n)
	}
	if n := r.ic.limits.InFlight(); n != 0 {
		t.Errorf("%d tenants hold slots", n)
	}
}

// A Connect call on the HTTP port passes the door once (token, bucket, slot) and the chain once, with
// the same handler context as REST and gRPC.
func TestConnectRunsEachInterceptorOnce(t *testing.T) {
	r := newChainRig(t)
	srv := r.ic.newServer(r.services, fields.ServerCodec{})
	t.Cleanup(srv.Stop)
	web, _, err := newRPCWeb(srv, r.services, r.ic)
	if err != nil {
		t.Fatal(err)
	}
	h := requestLog(slog.New(r.log), web)
	get := func(id string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/catalog.v1.LocaleService/GetLocale", strings.NewReader(`{"localeUuid":"`+id+`"}`))
		req.Header.Set("Authorization", r.token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1")
		req.Header.Set("X-Request-Id", "rid-"+id)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	w := get("c-1")
	var body struct{ Locale struct{ UUID, Code string } }
	if err := json.Unmarshal(w.Body.Bytes(), &body); w.Code != http.StatusOK || err != nil || body.Locale.UUID != "c-1" {
		t.Fatalf("Connect GetLocale: %d %s (%v)", w.Code, w.Body, err)
	}
	if ids := w.Header().Values("X-Request-Id"); len(ids) != 1 || ids[0] != "rid-c-1" {
		t.Errorf("X-Request-Id %q", ids)
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"handler calls", float64(r.locales.calls.Load()), 1},
		{"token verifications", float64(r.verifier.n.Load()), 1},
		{"rpc log lines", float64(r.log.count("rpc")), 1},
		{"http log lines", float64(r.log.count("http")), 1},
		{"rpcs counted OK", r.rpcs(codes.OK), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	r.locales.mu.Lock()
	if r.locales.tenant != "tenant-a" || r.locales.rid != "rid-c-1" {
		t.Errorf("the handler saw tenant %q, request id %q", r.locales.tenant, r.locales.rid)
	}
	r.locales.mu.Unlock()
	// The bucket of 3 is charged once per call: the fourth call is refused in Connect's own form.
	get("c-2")
	get("c-3")
	if w = get("c-4"); w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), `"resource_exhausted"`) ||
		!strings.Contains(w.Body.String(), "RATE_LIMITED") {
		t.Fatalf("fourth call: %d %s", w.Code, w.Body)
	}
	if n := r.locales.calls.Load(); n != 3 {
		t.Errorf("handler calls %d, want 3", n)
	}
	if n := r.ic.limits.InFlight(); n != 0 {
		t.Errorf("%d tenants hold slots", n)
	}
}

// A direct gRPC call is verified once too: by the tap, before its message is read; the chain takes
// the tap's admission.
func TestGRPCVerifiesTokenOnce(t *testing.T) {
	r := newChainRig(t)
	srv := r.ic.newServer(r.services, fields.ServerCodec{})
	lis := bufconn.Listen(1 << 20)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///test", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", r.token)
	resp, err := pb.NewLocaleServiceClient(conn).GetLocale(ctx, &pb.GetLocaleRequest{LocaleUuid: "g-1"})
	if err != nil || resp.GetLocale().GetUuid() != "g-1" {
		t.Fatalf("GetLocale: %v %v", resp, err)
	}
	if n := r.verifier.n.Load(); n != 1 {
		t.Errorf("token verified %d times", n)
	}
	if r.rpcs(codes.OK) != 1 || r.log.count("rpc") != 1 || r.locales.calls.Load() != 1 {
		t.Errorf("%v counted, %d rpc lines, %d handler calls", r.rpcs(codes.OK), r.log.count("rpc"), r.locales.calls.Load())
	}
	// Without a token the tap refuses: no verification of anything, no handler.
	if _, err := pb.NewLocaleServiceClient(conn).GetLocale(context.Background(), &pb.GetLocaleRequest{LocaleUuid: "g-2"}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("no token: %v", err)
	}
	if r.locales.calls.Load() != 1 {
		t.Error("the handler ran without a token")
	}
}

// The in-process connection gives the handler a copy of the request and the caller a copy of the
// response (no memory shared, as over a connection), the handler's header metadata, and the
// chain's context (incoming metadata, grpc.Method).
func TestLocalConnCopiesAndCarriesMetadata(t *testing.T) {
	var seen *pb.GetLocaleRequest
	var sent *pb.GetLocaleResponse
	var method string
	var md, outgoing metadata.MD
	impl := &localeFunc{get: func(ctx context.Context, req *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error) {
		seen = req
		method, _ = grpc.Method(ctx)
		md, _ = metadata.FromIncomingContext(ctx)
		outgoing, _ = metadata.FromOutgoingContext(ctx)
		_ = grpc.SetHeader(ctx, metadata.Pairs("x-set", "h"))
		_ = grpc.SetTrailer(ctx, metadata.Pairs("x-trail", "t"))
		sent = &pb.GetLocaleResponse{Locale: &pb.Locale{Uuid: req.LocaleUuid}}
		return sent, nil
	}}
	interceptions := 0
	conn := newLocalConn([]Service{{Desc: &pb.LocaleService_ServiceDesc, Impl: impl}},
		func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			interceptions++
			return h(ctx, req)
		})
	in := &pb.GetLocaleRequest{LocaleUuid: "c-1"}
	var hdr, trl metadata.MD
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-in", "v")
	out, err := pb.NewLocaleServiceClient(conn).GetLocale(ctx, in, grpc.Header(&hdr), grpc.Trailer(&trl))
	if err != nil {
		t.Fatal(err)
	}
	if interceptions != 1 || method != "/catalog.v1.LocaleService/GetLocale" || first(md, "x-in") != "v" || len(outgoing) != 0 {
		t.Errorf("interceptions %d, method %q, incoming metadata %v, outgoing %v", interceptions, method, md, outgoing)
	}
	if seen == in || !proto.Equal(seen, in) || out == sent || !proto.Equal(out, sent) {
		t.Errorf("request or response not copied: %p %p, %p %p", seen, in, out, sent)
	}
	if first(hdr, "x-set") != "h" || first(trl, "x-trail") != "t" {
		t.Errorf("header %v, trailer %v", hdr, trl)
	}
	if _, err := pb.NewAttributeServiceClient(conn).GetAttribute(ctx, &pb.GetAttributeRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("a method not served: %v", err)
	}
}

// An admission is for the one method its door admitted: in its context, a call of another method
// is authenticated by the chain itself (here: no token, refused; the handler never runs).
func TestAdmissionIsForItsMethod(t *testing.T) {
	ic, _ := ruleInterceptors(t)
	ctx := reqctx.WithPrincipal(context.Background(), &reqctx.Principal{Tenant: "t", Scopes: DevScopes})
	ctx = admit(ctx, admission{method: "/catalog.v1.LocaleService/GetLocale", http: true})
	ran := false
	handler := func(context.Context, any) (any, error) { ran = true; return &pb.ListLocalesResponse{}, nil }
	info := &grpc.UnaryServerInfo{FullMethod: "/catalog.v1.LocaleService/DeleteLocale"}
	if _, err := ic.chain(ctx, &pb.DeleteLocaleRequest{LocaleUuid: "0b8a7c1e-5d1f-4c36-9a57-2f4b0f3f1a10"}, info, handler); status.Code(err) != codes.Unauthenticated || ran {
		t.Errorf("another method under the admission: %v (handler ran: %v)", err, ran)
	}
}

// A client's X-Request-Id is kept only when gRPC metadata can carry it (printable ASCII, 1 to 128
// bytes): else the response, the logs and the handler all get the same fresh id.
func TestRequestIDTheHandlerSees(t *testing.T) {
	r := newChainRig(t)
	r.ic.limits = nil
	gw, err := newRESTGateway(context.Background(), r.services, newLocalConn(r.services, r.ic.chain), r.ic)
	if err != nil {
		t.Fatal(err)
	}
	h := requestLog(slog.New(r.log), queryparam.PreserveOrder(gw))
	for _, id := range []string{"caf\xe9", "tab\there", strings.Repeat("x", 129), "", "ok-id_1.2"} {
		req := httptest.NewRequest(http.MethodGet, "/v1/locales/l-1", nil)
		req.Header.Set("Authorization", r.token)
		req.Header.Set("X-Request-Id", id)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		got := w.Header().Get("X-Request-Id")
		r.locales.mu.Lock()
		seen := r.locales.rid
		r.locales.mu.Unlock()
		if w.Code != http.StatusOK || got == "" || seen != got || (id == "ok-id_1.2") != (got == id) {
			t.Errorf("X-Request-Id %q: status %d, response id %q, handler's %q", id, w.Code, got, seen)
		}
	}
}

type localeFunc struct {
	pb.UnimplementedLocaleServiceServer
	get func(context.Context, *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error)
}

func (f *localeFunc) GetLocale(ctx context.Context, req *pb.GetLocaleRequest) (*pb.GetLocaleResponse, error) {
	return f.get(ctx, req)
}

// BenchmarkGet is the cost of the API machinery around a handler that answers at once (no
// database): REST (request log, front door, gateway, in-process call through the chain, JSON) and
// gRPC over loopback TCP (client and server in this process, so both sides count).
func BenchmarkGet(b *testing.B) {
	t := &testing.T{}
	r := newChainRig(t)
	r.ic.limits = nil
	r.ic.log = slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b.Run("rest", func(b *testing.B) {
		gw, err := newRESTGateway(context.Background(), r.services, newLocalConn(r.services, r.ic.chain), r.ic)
		if err != nil {
			b.Fatal(err)
		}
		h := requestLog(r.ic.log, queryparam.PreserveOrder(gw))
		b.ReportAllocs()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodGet, "/v1/locales/0b8a7c1e-5d1f-4c36-9a57-2f4b0f3f1a10", nil)
			req.Header.Set("Authorization", r.token)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
	})
	b.Run("connect", func(b *testing.B) {
		srv := r.ic.newServer(r.services, fields.ServerCodec{})
		defer srv.Stop()
		web, _, err := newRPCWeb(srv, r.services, r.ic)
		if err != nil {
			b.Fatal(err)
		}
		h := requestLog(r.ic.log, web)
		b.ReportAllocs()
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, "/catalog.v1.LocaleService/GetLocale",
				strings.NewReader(`{"localeUuid":"0b8a7c1e-5d1f-4c36-9a57-2f4b0f3f1a10"}`))
			req.Header.Set("Authorization", r.token)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Connect-Protocol-Version", "1")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
	})
	b.Run("grpc", func(b *testing.B) {
		srv := r.ic.newServer(r.services, fields.ServerCodec{})
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		go func() { _ = srv.Serve(lis) }()
		defer srv.Stop()
		conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close()
		client := pb.NewLocaleServiceClient(conn)
		ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", r.token)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := client.GetLocale(ctx, &pb.GetLocaleRequest{LocaleUuid: "0b8a7c1e-5d1f-4c36-9a57-2f4b0f3f1a10"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A handler's response reaches the gateway whole: its scalar, repeated and message fields and its
// unknown fields; a reply of another type is an Internal error.
func TestMoveMessage(t *testing.T) {
	src := &pb.ListAttributesResponse{
		Items:      []*pb.Attribute{{Uuid: "a-1", Code: "color"}, {Uuid: "a-2", Code: "size", DisplayName: "Size"}},
		Pagination: &pb.Pagination{TotalItems: 2},
	}
	src.ProtoReflect().SetUnknown([]byte{0xf8, 0x3e, 0x01}) // field 999, varint 1
	want := proto.Clone(src)
	dst := &pb.ListAttributesResponse{Items: []*pb.Attribute{{Uuid: "stale"}}}
	if err := moveMessage(dst, src); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(dst, want) {
		t.Errorf("moved %v, want %v", dst, want)
	}
	if err := moveMessage(&pb.GetAttributeResponse{}, src); status.Code(err) != codes.Internal {
		t.Errorf("another type: %v, want Internal", err)
	}
}
