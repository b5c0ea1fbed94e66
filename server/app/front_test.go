package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/limits"
	"github.com/catalogd/catalogd/server/queryparam"
)

const someUUID = "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"

// front is the REST facade of Start (request log, query order, body limit, the gateway with its
// front door) over a connection that never reaches a server: each RPC is recorded and answered with
// an empty message (or, while block is set, held until it is closed).
type front struct {
	h       http.Handler
	ic      *interceptors
	mu      sync.Mutex
	rpcs    []string
	auths   []string // the authorization metadata of the last RPC
	block   chan struct{}
	entered chan struct{}
}

func newFront(t *testing.T, lim *limits.Limiter) *front {
	t.Helper()
	ic, _ := ruleInterceptors(t)
	ic.limits = lim
	f := &front{ic: ic}
	conn, err := grpc.NewClient("passthrough:///nowhere", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(func(ctx context.Context, method string, _, _ any, _ *grpc.ClientConn, _ grpc.UnaryInvoker, _ ...grpc.CallOption) error {
			md, _ := metadata.FromOutgoingContext(ctx)
			f.mu.Lock()
			f.rpcs = append(f.rpcs, method)
			f.auths = md.Get("authorization")
			block, entered := f.block, f.entered
			f.mu.Unlock()
			if block != nil {
				entered <- struct{}{}
				<-block
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	gw, err := newRESTGateway(context.Background(), Services(Deps{}), conn, ic)
	if err != nil {
		t.Fatal(err)
	}
	f.h = requestLog(slog.New(slog.NewTextHandler(io.Discard, nil)), queryparam.PreserveOrder(gw))
	return f
}

func (f *front) calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.rpcs...)
}

func (f *front) reset() {
	f.mu.Lock()
	f.rpcs = nil
	f.mu.Unlock()
}

func token(t *testing.T, tenant string, scopes ...string) string {
	t.Helper()
	if scopes == nil {
		scopes = DevScopes
	}
	tok, err := auth.MintHS256(testSecret, "iss", "aud", tenant, "subject", scopes, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return "Bearer " + tok
}

// countingBody is a request body of n bytes that counts what the server reads of it.
type countingBody struct {
	n, read int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	if b.read >= b.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), b.n-b.read)
	for i := range p[:k] {
		p[i] = ' '
	}
	b.read += k
	return int(k), nil
}

func (b *countingBody) Close() error { return nil }

func (f *front) do(method, path, authz string, body io.ReadCloser, size int64, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, nil)
	if body != nil {
		r.Body, r.ContentLength = body, size
	}
	if authz != "" {
		r.Header.Set("Authorization", authz)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Add(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

// samplePath is a route's path with a uuid in each variable, or bad in the variable named param.
func samplePath(rt *route, param, bad string) string {
	return templateVar.ReplaceAllStringFunc(rt.template, func(v string) string {
		if m := templateVar.FindStringSubmatch(v); m[1] == param {
			return bad
		}
		return someUUID
	})
}

func allRoutes(t *testing.T) []*route {
	t.Helper()
	routes, err := restRoutes(Services(Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	var out []*route
	for _, rt := range routes {
		out = append(out, rt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].verb+out[i].template < out[j].verb+out[j].template })
	if len(out) < 250 {
		t.Fatalf("only %d routes", len(out))
	}
	return out
}

func problemCode(t *testing.T, w *httptest.ResponseRecorder) (string, []string) {
	t.Helper()
	var p struct {
		Code   string
		Errors []struct{ Field string }
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("content type %q: %s", ct, w.Body)
	}
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("problem %q: %v", w.Body, err)
	}
	var fields []string
	for _, e := range p.Errors {
		fields = append(fields, e.Field)
	}
	return p.Code, fields
}

// Every route is known to the front door: the start-up check replays each one through the gateway
// and finds the RPC the front door maps it to (newRESTGateway fails otherwise), and the patterns
// are the gateway's own.
func TestEveryRouteHasItsRPC(t *testing.T) {
	f := newFront(t, nil) // newRESTGateway checks every route
	routes, err := restRoutes(Services(Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	// A gateway without the routes fails the check.
	if err := (&frontDoor{ic: f.ic, routes: routes}).check(newGateway(newRouteTable(routes))); err == nil {
		t.Fatal("check passed on a gateway without routes")
	}
	for _, c := range []struct{ tmpl, want string }{
		{"/v1/attributes", "/v1/attributes"},
		{"/v1/attributes/{attribute_uuid}/contents/{attribute_content_uuid}", "/v1/attributes/{attribute_uuid=*}/contents/{attribute_content_uuid=*}"},
		{"/v1/x/{name=**}", "/v1/x/{name=**}"},
	} {
		if got := patternString(c.tmpl); got != c.want {
			t.Errorf("%s: %s, want %s", c.tmpl, got, c.want)
		}
	}
}

// Without a valid token, or without the operation's scope, a request with a body is refused
// before one byte of the body is read: every route that takes a body, 1 MiB each.
func TestAuthBeforeBody(t *testing.T) {
	f := newFront(t, nil)
	noScope := token(t, "t1", "nothing:here")
	n := 0
	for _, rt := range allRoutes(t) {
		if !rt.body {
			continue
		}
		n++
		path := samplePath(rt, "", "")
		for _, c := range []struct {
			authz  string
			status int
		}{{"", 401}, {"Bearer not-a-jwt", 401}, {noScope, 403}} {
			b := &countingBody{n: MaxBodyBytes}
			w := f.do(rt.verb, path, c.authz, b, b.n, "Content-Type", "application/json")
			if w.Code != c.status || b.read != 0 {
				t.Errorf("%s %s (%q): %d after reading %d bytes, want %d and nothing read", rt.verb, path, c.authz, w.Code, b.read, c.status)
			}
		}
	}
	if n < 100 || len(f.calls()) != 0 {
		t.Fatalf("%d routes with a body, %d RPCs made", n, len(f.calls()))
	}
}

// The same over a real connection: the client sends the headers of a 1 MiB body and nothing else,
// and gets its 401 (the server never waits for the body).
func TestAnonymousBodyAnsweredWithoutSendingIt(t *testing.T) {
	f := newFront(t, nil)
	srv := httptest.NewServer(f.h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/attributes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", MaxBodyBytes)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 401 {
		t.Fatalf("status %d, want 401", res.StatusCode)
	}
}

// A body that does not arrive within the read deadline is cut: 408, and no RPC.
func TestSlowBodyIsCut(t *testing.T) {
	old := bodyReadTimeout
	bodyReadTimeout = 300 * time.Millisecond
	defer func() { bodyReadTimeout = old }()
	f := newFront(t, nil)
	srv := httptest.NewServer(f.h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/attributes HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"code\":", token(t, "t1"))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 408 || !strings.Contains(string(body), `"REQUEST_TIMEOUT"`) {
		t.Fatalf("%d %s, want 408 REQUEST_TIMEOUT", res.StatusCode, body)
	}
	if len(f.calls()) != 0 {
		t.Fatalf("RPCs %v", f.calls())
	}
}

// A body must be JSON: form and text bodies are 415 (and no RPC); JSON types, with or without
// charset=utf-8, +json types and a body without Content-Type are served.
func TestContentType(t *testing.T) {
	f := newFront(t, nil)
	tok := token(t, "t1")
	for ct, want := range map[string]int{
		"application/x-www-form-urlencoded": 415, "text/plain": 415, "text/plain;charset=UTF-8": 415,
		"multipart/form-data; boundary=x": 415, "application/json; charset=latin1": 415, "application/jsonx": 415, "bad/": 415,
		"application/json": 200, "application/json; charset=utf-8": 200, "Application/JSON;Charset=UTF-8": 200,
		"application/merge-patch+json": 200, "": 200,
	} {
		f.reset()
		body := `{"code":"x"}`
		r := httptest.NewRequest("POST", "/v1/attributes", strings.NewReader(body))
		r.Header.Set("Authorization", tok)
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		switch want {
		case 415:
			if code, _ := problemCode(t, w); w.Code != 415 || code != "UNSUPPORTED_MEDIA_TYPE" || len(f.calls()) != 0 {
				t.Errorf("%q: %d %s, RPCs %v", ct, w.Code, w.Body, f.calls())
			}
		default:
			if w.Code >= 300 || len(f.calls()) != 1 {
				t.Errorf("%q: %d %s, RPCs %v", ct, w.Code, w.Body, f.calls())
			}
		}
	}
}

// A body with a content coding (gzip, or anything but identity) is 415 with Accept-Encoding: no
// coding is decoded, so none may be taken as JSON bytes.
func TestContentEncoding(t *testing.T) {
	f := newFront(t, nil)
	tok := token(t, "t1")
	for ce, want := range map[string]int{"gzip": 415, "br": 415, "deflate, gzip": 415, "identity": 200, "": 200} {
		f.reset()
		r := httptest.NewRequest("POST", "/v1/attributes", strings.NewReader(`{"code":"x"}`))
		r.Header.Set("Authorization", tok)
		r.Header.Set("Content-Type", "application/json")
		if ce != "" {
			r.Header.Set("Content-Encoding", ce)
		}
		w := httptest.NewRecorder()
		f.h.ServeHTTP(w, r)
		if want == 200 {
			if w.Code >= 300 || len(f.calls()) != 1 {
				t.Errorf("%q: %d %s, RPCs %v", ce, w.Code, w.Body, f.calls())
			}
			continue
		}
		if code, _ := problemCode(t, w); w.Code != 415 || code != "UNSUPPORTED_MEDIA_TYPE" || w.Header().Get("Accept-Encoding") != "identity" || len(f.calls()) != 0 {
			t.Errorf("%q: %d %s %v, RPCs %v", ce, w.Code, w.Body, w.Header(), f.calls())
		}
	}
}

// X-HTTP-Method-Override never changes the method, and a form POST is not served as a GET: the
// RPC made is the one of the request's own method, and the log line says that method.
func TestNoMethodOverride(t *testing.T) {
	f := newFront(t, nil)
	tok := token(t, "t1")
	w := f.do("POST", "/v1/attributes", tok, io.NopCloser(strings.NewReader(`{"code":"x"}`)), 12,
		"Content-Type", "application/json", "X-HTTP-Method-Override", "DELETE")
	if calls := f.calls(); w.Code != 201 || len(calls) != 1 || !strings.HasSuffix(calls[0], "/CreateAttribute") {
		t.Fatalf("POST with override DELETE: %d, RPCs %v", w.Code, calls)
	}
	f.reset()
	// The gateway's own override needs a form body; ours refuses to even route it as a DELETE.
	w = f.do("POST", "/v1/attributes/"+someUUID, tok, io.NopCloser(strings.NewReader("a=b")), 3,
		"Content-Type", "application/x-www-form-urlencoded", "X-HTTP-Method-Override", "DELETE")
	if w.Code != 405 || len(f.calls()) != 0 {
		t.Fatalf("form POST with override DELETE: %d %s, RPCs %v", w.Code, w.Body, f.calls())
	}
	// The POST-as-GET fallback for long query strings is off too.
	w = f.do("POST", "/v1/attributes/"+someUUID, tok, io.NopCloser(strings.NewReader("a=b")), 3,
		"Content-Type", "application/x-www-form-urlencoded")
	if w.Code != 405 || len(f.calls()) != 0 {
		t.Fatalf("form POST on a GET route: %d, RPCs %v", w.Code, f.calls())
	}
	var logged strings.Builder
	h := requestLog(slog.New(slog.NewJSONHandler(&logged, nil)), f.h)
	r := httptest.NewRequest("POST", "/v1/attributes/"+someUUID, strings.NewReader("a=b"))
	r.Header.Set("X-HTTP-Method-Override", "DELETE")
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if !strings.Contains(logged.String(), `"method":"POST"`) {
		t.Errorf("log: %s", logged.String())
	}
}

// Exactly one Authorization header: two (even two valid ones) are 401, REST and gRPC.
func TestOneAuthorizationHeader(t *testing.T) {
	f := newFront(t, nil)
	tok := token(t, "t1")
	w := f.do("GET", "/v1/attributes", tok, nil, 0, "Authorization", tok)
	if code, _ := problemCode(t, w); w.Code != 401 || code != "UNAUTHENTICATED" || len(f.calls()) != 0 {
		t.Fatalf("REST: %d %s", w.Code, w.Body)
	}
	if w := f.do("GET", "/v1/attributes", tok, nil, 0); w.Code != 200 || len(f.auths) != 1 {
		t.Fatalf("one header: %d %s; the RPC got authorization %v", w.Code, w.Body, f.auths)
	}
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("authorization", tok, "authorization", tok))
	if _, err := f.ic.authorize(ctx, "/catalog.v1.AttributeService/ListAttributes", metadata.Pairs("authorization", tok, "authorization", tok)); err == nil {
		t.Fatal("gRPC: two authorization values accepted")
	}
}

// Invalid UTF-8 (400 MALFORMED_REQUEST) or U+0000 (400 VALIDATION_FAILED) in any path parameter,
// query key or query value is refused naming it, before any RPC: every path parameter of every route, and a query key and value on
// every route.
func TestBadTextInParameters(t *testing.T) {
	f := newFront(t, nil)
	tok := token(t, "t1")
	jsonPath := regexp.MustCompile(`_([a-z])`)
	n := 0
	check := func(rt *route, path, field string) {
		want := "MALFORMED_REQUEST"
		if strings.Contains(path, "%00") {
			want = "VALIDATION_FAILED"
		}
		t.Helper()
		n++
		var body io.ReadCloser
		var size int64
		if rt.body {
			body, size = io.NopCloser(strings.NewReader("{}")), 2
		}
		w := f.do(rt.verb, path, tok, body, size, "Content-Type", "application/json")
		code, fields := problemCode(t, w)
		if w.Code != 400 || code != want || len(fields) != 1 || fields[0] != field {
			t.Errorf("%s %s: %d %s, want 400 %s naming %s", rt.verb, path, w.Code, w.Body, want, field)
		}
	}
	for _, rt := range allRoutes(t) {
		for param := range rt.params {
			name := jsonPath.ReplaceAllStringFunc(param, func(s string) string { return strings.ToUpper(s[1:]) })
			for _, bad := range []string{"%FF", "%00", "ab%C3%28"} {
				check(rt, samplePath(rt, param, bad), name)
			}
		}
		path := samplePath(rt, "", "")
		check(rt, path+"?code%5Bcontains%5D=%00", "code[contains]")
		check(rt, path+"?page=%FE", "page")
		check(rt, path+"?%FFx=1", "\uFFFDx")
		check(rt, path+"?a%00=1", "a\uFFFD")
	}
	if calls := f.calls(); len(calls) != 0 || n < 1000 {
		t.Fatalf("%d cases, RPCs %v", n, calls)
	}
}

// A body on an operation that takes none (a GET, a DELETE) is ignored: never read, however large
// it says it is, and the request is served.
func TestBodyOfBodylessOperationIsIgnored(t *testing.T) {
	f := newFront(t, nil)
	tok := token(t, "t1")
	for _, c := range []struct{ method, path string }{{"GET", "/v1/products"}, {"GET", "/v1/attributes/" + someUUID},
		{"DELETE", "/v1/attributes/" + someUUID}} {
		f.reset()
		b := &countingBody{n: 5 * MaxBodyBytes}
		w := f.do(c.method, c.path, tok, b, b.n, "Content-Type", "text/plain")
		if w.Code >= 300 || b.read != 0 || len(f.calls()) != 1 {
			t.Errorf("%s %s with a 5 MiB body: %d %s, read %d, RPCs %v", c.method, c.path, w.Code, w.Body, b.read, f.calls())
		}
	}
	// With a body route, a declared length over the limit is 413 without reading it.
	b := &countingBody{n: MaxBodyBytes + 1}
	if w := f.do("POST", "/v1/attributes", tok, b, b.n); w.Code != 413 || b.read != 0 {
		t.Errorf("declared 1 MiB + 1: %d, read %d", w.Code, b.read)
	}
	// Chunked (no length): cut at the limit.
	b = &countingBody{n: 3 * MaxBodyBytes}
	if w := f.do("POST", "/v1/attributes", tok, b, -1); w.Code != 413 || b.read > MaxBodyBytes+64<<10 {
		t.Errorf("chunked 3 MiB: %d, read %d", w.Code, b.read)
	}
}

// Past the burst: 429 RATE_LIMITED with Retry-After; every answer carries RateLimit-Policy and
// RateLimit; another tenant has its own bucket; the counter counts the refusals.
func TestRateLimit(t *testing.T) {
	lim := limits.New(limits.Config{RPS: 0.01, Burst: 3}, nil)
	f := newFront(t, lim)
	a, b := token(t, "a"), token(t, "b")
	for i := 0; i < 3; i++ {
		w := f.do("GET", "/v1/attributes", a, nil, 0)
		if w.Code != 200 || w.Header().Get("RateLimit-Policy") != `"default";q=3;w=300` ||
			w.Header().Get("RateLimit") != fmt.Sprintf(`"default";r=%d;t=%d`, 2-i, 100*(i+1)) {
			t.Fatalf("request %d: %d %v", i, w.Code, w.Header())
		}
	}
	w := f.do("POST", "/v1/attributes", a, io.NopCloser(strings.NewReader("{}")), 2)
	if code, _ := problemCode(t, w); w.Code != 429 || code != "RATE_LIMITED" || w.Header().Get("Retry-After") != "100" ||
		w.Header().Get("RateLimit") != `"default";r=0;t=300` {
		t.Fatalf("past the burst: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if w := f.do("GET", "/v1/attributes", b, nil, 0); w.Code != 200 {
		t.Fatalf("other tenant: %d", w.Code)
	}
	if len(f.calls()) != 4 {
		t.Fatalf("RPCs %v", f.calls())
	}
	// An anonymous request has no bucket (and is 401 whatever the load).
	if w := f.do("GET", "/v1/attributes", "", nil, 0); w.Code != 401 || w.Header().Get("RateLimit") != "" {
		t.Fatalf("anonymous: %d %v", w.Code, w.Header())
	}
}

// A tenant has at most its share of requests in handlers (and bodies being read): the next one
// waits, then gets 429 with Retry-After; another tenant is served meanwhile.
func TestConcurrencyShare(t *testing.T) {
	lim := limits.New(limits.Config{RPS: 1000, Burst: 1000, Concurrency: 1, Wait: 50 * time.Millisecond}, nil)
	f := newFront(t, lim)
	a, b := token(t, "a"), token(t, "b")
	f.block, f.entered = make(chan struct{}), make(chan struct{}, 4)
	done := make(chan int)
	go func() { done <- f.do("GET", "/v1/attributes", a, nil, 0).Code }()
	<-f.entered // a's first request is in its handler
	w := f.do("GET", "/v1/attributes", a, nil, 0)
	if code, _ := problemCode(t, w); w.Code != 429 || code != "RATE_LIMITED" || w.Header().Get("Retry-After") != "1" {
		t.Fatalf("second of a: %d %v %s", w.Code, w.Header(), w.Body)
	}
	// The slot comes before the body: a refused request's body is not read (one tenant cannot
	// have more bodies in memory than slots).
	body := &countingBody{n: MaxBodyBytes}
	w = f.do("POST", "/v1/attributes", a, body, body.n, "Content-Type", "application/json")
	if w.Code != 429 || body.read != 0 {
		t.Fatalf("a's body beyond its slots: %d after reading %d bytes, want 429 and nothing read", w.Code, body.read)
	}
	go func() { done <- f.do("GET", "/v1/attributes", b, nil, 0).Code }()
	<-f.entered // b is in its handler too
	close(f.block)
	for i := 0; i < 2; i++ {
		if c := <-done; c != 200 {
			t.Fatalf("held request: %d", c)
		}
	}
	if n := lim.InFlight(); n != 0 {
		t.Fatalf("%d tenants hold slots", n)
	}
}

// Every RPC runs with a deadline of at most requestTimeout; a caller's shorter one is kept.
func TestRequestDeadline(t *testing.T) {
	ic, ctx := ruleInterceptors(t)
	var got time.Duration
	handler := func(ctx context.Context, _ any) (any, error) {
		dl, ok := ctx.Deadline()
		if !ok {
			t.Fatal("no deadline")
		}
		got = time.Until(dl)
		return nil, nil
	}
	info := &grpc.UnaryServerInfo{FullMethod: "/grpc.health.v1.Health/Check"}
	if _, err := ic.chain(ctx, nil, info, handler); err != nil {
		t.Fatal(err)
	}
	if got <= requestTimeout-5*time.Second || got > requestTimeout {
		t.Errorf("default deadline in %v", got)
	}
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, _ = ic.chain(short, nil, info, handler)
	if got > 2*time.Second {
		t.Errorf("caller's 2 s deadline became %v", got)
	}
	long, cancel2 := context.WithTimeout(ctx, time.Hour)
	defer cancel2()
	_, _ = ic.chain(long, nil, info, handler)
	if got > requestTimeout {
		t.Errorf("caller's 1 h deadline kept: %v", got)
	}
}
