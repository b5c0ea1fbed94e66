// Package hardening tests the front door of a real catalogd (docs/design.md "Front door: limits and
// rate limits"): authentication before the body, media types, no method override, parameters that
// are not text, message limits across the gateway's gRPC hop and for gRPC clients, and the
// per-tenant rate limit over REST and gRPC. The service runs with a small rate limit (1 request per
// second, bursts of 20); each test uses tenants of its own.
package hardening

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

var env *Env

const burst = 20

func TestMain(m *testing.M) {
	Main(m, &env, nil, func(c *app.Config) { c.RateLimitRPS, c.RateLimitBurst = 1, burst })
}

// raw sends a request with full control over its headers (no contract check: these requests are
// hostile on purpose).
func raw(t *testing.T, method, path string, body string, hdr ...string) (int, http.Header, string) {
	t.Helper()
	var rdr io.Reader
	if body != "" {
		rdr = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, env.BaseURL+path, rdr)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(path, "%") { // keep the path's own escapes (bad bytes included)
		req.URL.RawPath = strings.SplitN(path, "?", 2)[0]
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

// An anonymous client that sends the headers of a 1 MiB body gets its 401 without sending a byte
// of the body.
func TestAnonymousBodyIsNotWaitedFor(t *testing.T) {
	u, _ := url.Parse(env.BaseURL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(conn, "POST /v1/products/%s/input-values HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
		"0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13", 1<<20)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 401 {
		t.Fatalf("status %d, want 401", res.StatusCode)
	}
}

// X-HTTP-Method-Override never turns a POST into a DELETE: the attribute is still there.
func TestMethodOverrideDoesNotDelete(t *testing.T) {
	c := env.Client(t)
	id := Want(t, c.Post("/v1/attributes", map[string]any{"code": "keep"}), 201).Obj()["uuid"].(string)
	for _, ct := range []string{"application/json", "application/x-www-form-urlencoded"} {
		st, _, body := raw(t, "POST", "/v1/attributes/"+id, "{}", "Authorization", "Bearer "+c.Token,
			"Content-Type", ct, "X-HTTP-Method-Override", "DELETE")
		if st != 405 {
			t.Errorf("%s POST with override: %d %s", ct, st, body)
		}
	}
	Want(t, c.Get("/v1/attributes/"+id), 200)
}

// A form or text body is 415 (curl -d sends a form); JSON is served.
func TestNonJSONBodyIs415(t *testing.T) {
	c := env.Client(t)
	for _, ct := range []string{"application/x-www-form-urlencoded", "text/plain"} {
		st, _, body := raw(t, "POST", "/v1/attributes", `{"code":"a"}`, "Authorization", "Bearer "+c.Token, "Content-Type", ct)
		if st != 415 || !strings.Contains(body, `"UNSUPPORTED_MEDIA_TYPE"`) {
			t.Errorf("%s: %d %s", ct, st, body)
		}
	}
	if st, _, body := raw(t, "POST", "/v1/attributes", `{"code":"a"}`, "Authorization", "Bearer "+c.Token,
		"Content-Type", "application/json; charset=utf-8"); st != 201 {
		t.Errorf("JSON: %d %s", st, body)
	}
}

// Two Authorization headers are 401, even when both are valid (REST and gRPC).
func TestTwoAuthorizationHeaders(t *testing.T) {
	c := env.Client(t)
	st, _, body := raw(t, "GET", "/v1/attributes", "", "Authorization", "Bearer "+c.Token, "Authorization", "Bearer "+c.Token)
	if st != 401 || !strings.Contains(body, `"UNAUTHENTICATED"`) {
		t.Errorf("REST: %d %s", st, body)
	}
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+c.Token, "authorization", "Bearer "+c.Token)
	_, err := pb.NewAttributeServiceClient(env.GRPC).ListAttributes(ctx, &pb.ListAttributesRequest{})
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("gRPC: %v", err)
	}
}

// Invalid UTF-8 and U+0000 in a path parameter or in the query are 400 naming it, on the real
// service (before the gateway would put the bytes in a protobuf string); the event type list, which
// any token reads, included.
func TestBadTextIs400(t *testing.T) {
	c := env.Client(t)
	for _, x := range []struct{ path, field, code string }{
		{"/v1/attributes/%FF", "attributeUuid", "MALFORMED_REQUEST"},
		{"/v1/attributes/%00/contents", "attributeUuid", "VALIDATION_FAILED"},
		{"/v1/webhook-event-types?name%5Bcontains%5D=%00", "name[contains]", "VALIDATION_FAILED"},
		{"/v1/products?code%5Bstarts%5D=%C3%28", "code[starts]", "MALFORMED_REQUEST"},
	} {
		st, _, body := raw(t, "GET", x.path, "", "Authorization", "Bearer "+c.Token)
		if st != 400 || !strings.Contains(body, `"`+x.code+`"`) || !strings.Contains(body, `"field":"`+x.field+`"`) {
			t.Errorf("%s: %d %s", x.path, st, body)
		}
	}
}

// A JSON body under 1 MiB whose protobuf form is over 4 MiB (100 input values, each an array of
// 4 000 zeros: 0.8 MB of JSON, ~4.4 MB of google.protobuf.Value) passes the gateway's hop to the
// gRPC server: the answer is the service's own (here: the product does not exist), not 413.
func TestGrowingBodyPassesTheHop(t *testing.T) {
	c := env.Client(t)
	zeros := strings.TrimSuffix(strings.Repeat("0,", 4000), ",")
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 100; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"inputTypeUuid":"0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13","value":[%s]}`, zeros)
	}
	b.WriteString("]")
	if b.Len() >= 1<<20 {
		t.Fatalf("body of %d bytes", b.Len())
	}
	st, _, body := raw(t, "POST", "/v1/products/0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13/input-values/bulk", b.String(),
		"Authorization", "Bearer "+c.Token, "Content-Type", "application/json")
	if st == 413 || st >= 500 || st < 400 {
		t.Fatalf("status %d: %.300s", st, body)
	}
}

// A gRPC request message over 1 MiB is the API's PAYLOAD_TOO_LARGE (RESOURCE_EXHAUSTED with our
// ErrorInfo and the API's text), not grpc's own message.
func TestGRPCMessageLimit(t *testing.T) {
	c := env.Client(t)
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+c.Token)
	desc := strings.Repeat("d", 1<<20+10)
	_, err := pb.NewAttributeServiceClient(env.GRPC).CreateAttribute(ctx, &pb.CreateAttributeRequest{
		Attribute: &pb.AttributeCreate{Code: "big", DisplayName: &desc}})
	st := status.Convert(err)
	if st.Code() != codes.ResourceExhausted || st.Message() != "request body exceeds 1048576 bytes" || reason(st) != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("%v %q %q", st.Code(), st.Message(), reason(st))
	}
}

func reason(st *status.Status) string {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.Reason
		}
	}
	return ""
}

// A tenant gets its burst (a REST request counts once, though it also passes the gateway's gRPC
// hop), then 429 with Retry-After; every answer carries RateLimit-Policy and RateLimit; another
// tenant is served.
func TestRateLimitREST(t *testing.T) {
	c, other := env.Client(t), env.Client(t)
	for i := 0; i < burst; i++ {
		r := Want(t, c.Get("/v1/attributes"), 200)
		if r.Header.Get("RateLimit-Policy") != fmt.Sprintf(`"default";q=%d;w=%d`, burst, burst) || !strings.HasPrefix(r.Header.Get("RateLimit"), `"default";r=`) {
			t.Fatalf("request %d: headers %v", i, r.Header)
		}
	}
	var r Resp
	for i := 0; i < 10; i++ { // a token comes back every second: a few more may pass
		if r = c.Get("/v1/attributes"); r.Status == 429 {
			break
		}
	}
	WantProblem(t, r, 429, "RATE_LIMITED")
	if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || r.Header.Get("RateLimit") == "" {
		t.Fatalf("429 headers %v", r.Header)
	}
	Want(t, other.Get("/v1/attributes"), 200)
}

// The same for gRPC clients: the headers as response metadata; past the burst RESOURCE_EXHAUSTED
// with ErrorInfo RATE_LIMITED and google.rpc.RetryInfo.
func TestRateLimitGRPC(t *testing.T) {
	tok := Token("g-" + RandomHex(6))
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+tok)
	cl := pb.NewAttributeServiceClient(env.GRPC)
	for i := 0; i < burst; i++ {
		var hdr metadata.MD
		if _, err := cl.ListAttributes(ctx, &pb.ListAttributesRequest{}, grpc.Header(&hdr)); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if len(hdr.Get("ratelimit-policy")) != 1 || len(hdr.Get("ratelimit")) != 1 {
			t.Fatalf("call %d: metadata %v", i, hdr)
		}
	}
	var err error
	for i := 0; i < 10 && err == nil; i++ {
		_, err = cl.ListAttributes(ctx, &pb.ListAttributesRequest{})
	}
	st := status.Convert(err)
	var retry *errdetails.RetryInfo
	for _, d := range st.Details() {
		if r, ok := d.(*errdetails.RetryInfo); ok {
			retry = r
		}
	}
	if st.Code() != codes.ResourceExhausted || reason(st) != "RATE_LIMITED" || retry == nil || retry.GetRetryDelay().AsDuration() < time.Second {
		t.Fatalf("past the burst: %v %q %v", st.Code(), reason(st), retry)
	}
	other := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+Token("g-"+RandomHex(6)))
	if _, err := cl.ListAttributes(other, &pb.ListAttributesRequest{}); err != nil {
		t.Fatalf("other tenant: %v", err)
	}
}

// A direct gRPC call without a valid token is refused from its headers, before its message is read:
// the stream below never sends its request message (nor closes its side), and still gets
// UNAUTHENTICATED with our ErrorInfo. A server that read the message first would wait for it until
// the context ended, which the same stream with a valid token shows.
func TestGRPCAuthBeforeMessage(t *testing.T) {
	const method = "/catalog.v1.AttributeService/CreateAttribute"
	desc := &grpc.StreamDesc{ClientStreams: true}
	open := func(ctx context.Context) error {
		st, err := env.GRPC.NewStream(ctx, desc, method)
		if err != nil {
			return err
		}
		return st.RecvMsg(&pb.CreateAttributeResponse{})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := open(ctx)
	if status.Code(err) != codes.Unauthenticated || reasonOf(err) != "UNAUTHENTICATED" {
		t.Fatalf("anonymous stream without a message: %v, want UNAUTHENTICATED before any message", err)
	}
	c := env.Client(t)
	ctx, cancel = context.WithTimeout(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+c.Token), time.Second)
	defer cancel()
	if err := open(ctx); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("authenticated stream without a message: %v, want it to wait for the message", err)
	}
}

// reasonOf is the ErrorInfo reason of a gRPC error, or "".
func reasonOf(err error) string {
	st, _ := status.FromError(err)
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.Reason
		}
	}
	return ""
}

// Request lines and headers are bounded (app.MaxHeaderBytes): a 100 KiB query is 431, a long but
// ordinary one is served.
func TestHeaderSizeBounded(t *testing.T) {
	c := env.Client(t)
	ok := "/v1/attributes?code%5Bcontains%5D=" + strings.Repeat("a", 8<<10)
	if st, _, body := raw(t, "GET", ok, "", "Authorization", "Bearer "+c.Token); st != 200 {
		t.Fatalf("8 KiB query: %d %s", st, body)
	}
	long := "/v1/attributes?code%5Bcontains%5D=" + strings.Repeat("a", 100<<10)
	if st, _, _ := raw(t, "GET", long, "", "Authorization", "Bearer "+c.Token); st != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("100 KiB query: %d, want 431", st)
	}
}

// Every …/bulk path of the OpenAPI document (the registered routes) has only its own methods: any
// other (GET and DELETE included, which a /{uuid} route beside it has) is 405 with Allow listing
// exactly the document's methods of that path, never the /{uuid} route's 400 or 404; PUT
// /v1/tags/bulk's Allow is POST, PATCH.
func TestBulkPathsAre405ForOtherMethods(t *testing.T) {
	st, _, body := raw(t, "GET", "/openapi.json", "")
	if st != 200 {
		t.Fatalf("openapi.json: %d", st)
	}
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	order := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}
	n := 0
	for path, ops := range doc.Paths {
		if !strings.Contains(path+"/", "/bulk/") {
			continue
		}
		n++
		var allow []string
		for _, m := range order {
			if _, ok := ops[strings.ToLower(m)]; ok {
				allow = append(allow, m)
			}
		}
		concrete := regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(path, "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13")
		for _, m := range order {
			if slices.Contains(allow, m) {
				continue
			}
			st, hdr, body := raw(t, m, concrete, "")
			if st != 405 || hdr.Get("Allow") != strings.Join(allow, ", ") {
				t.Errorf("%s %s: %d Allow %q, want 405 %q: %s", m, concrete, st, hdr.Get("Allow"), strings.Join(allow, ", "), body)
			}
		}
	}
	if n < 37 {
		t.Errorf("only %d bulk paths in the document", n)
	}
	if _, hdr, _ := raw(t, "PUT", "/v1/tags/bulk", ""); hdr.Get("Allow") != "POST, PATCH" {
		t.Errorf("PUT /v1/tags/bulk: Allow %q", hdr.Get("Allow"))
	}
}

// An empty If-Match is checked after authentication: anonymous, 401; with a token, 400 naming it.
func TestEmptyIfMatchAfterAuthentication(t *testing.T) {
	path := "/v1/attributes/0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"
	if st, _, body := raw(t, "PATCH", path, `{"displayName":"x"}`, "Content-Type", "application/json", "If-Match", ""); st != 401 {
		t.Errorf("anonymous: %d %s", st, body)
	}
	c := env.Client(t)
	if st, _, body := raw(t, "PATCH", path, `{"displayName":"x"}`, "Authorization", "Bearer "+c.Token,
		"Content-Type", "application/json", "If-Match", ""); st != 400 || !strings.Contains(body, `"If-Match"`) {
		t.Errorf("with a token: %d %s", st, body)
	}
}

// A request whose body never finishes (a Content-Length under the 256 KiB net/http would read to
// keep the connection) is answered and its connection closed whatever refused it before the body:
// REST without a token, a 405, a path with no resource, a Connect call without a token, an
// signed blob URL that is not one (whatever its status). 40 such connections at once are all answered; before, none was, and each
// held its connection for as long as the client liked. The bound below only ends a failing run: the
// answer comes within the server's grace of a second.
func TestUnfinishedBodiesAreAnsweredAndClosed(t *testing.T) {
	u, _ := url.Parse(env.BaseURL)
	heads := []struct {
		head   string
		status int
	}{
		{"POST /v1/attributes HTTP/1.1\r\nContent-Type: application/json\r\n", 401},
		{"GET /v1/tags/bulk HTTP/1.1\r\n", 405},
		{"POST /nothing-here HTTP/1.1\r\n", 404},
		{"POST /catalog.v1.AttributeService/ListAttributes HTTP/1.1\r\nContent-Type: application/json\r\nConnect-Protocol-Version: 1\r\n", 401},
		{"PUT /blobs/nothing HTTP/1.1\r\n", 0},
	}
	const per = 8
	errs := make(chan error, len(heads)*per)
	for _, h := range heads {
		for range per {
			go func() {
				conn, err := net.Dial("tcp", u.Host)
				if err != nil {
					errs <- err
					return
				}
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
				fmt.Fprintf(conn, "%sHost: x\r\nContent-Length: 1000\r\n\r\n{\"code\":", h.head)
				br := bufio.NewReader(conn)
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					errs <- fmt.Errorf("%q: no answer: %v", h.head, err)
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if h.status != 0 && res.StatusCode != h.status {
					errs <- fmt.Errorf("%q: status %d, want %d", h.head, res.StatusCode, h.status)
					return
				}
				if _, err := br.ReadByte(); err != io.EOF {
					errs <- fmt.Errorf("%q: the connection is not closed after the answer: %v", h.head, err)
					return
				}
				errs <- nil
			}()
		}
	}
	for range len(heads) * per {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// A refused request whose body is sent whole keeps its connection: the next request on it is served.
func TestRefusedWholeBodyKeepsTheConnection(t *testing.T) {
	u, _ := url.Parse(env.BaseURL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	body := `{"code":"x"}`
	fmt.Fprintf(conn, "POST /v1/attributes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != 401 || res.Close {
		t.Fatalf("first: %v %v", res, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	if res, err = http.ReadResponse(br, nil); err != nil || res.StatusCode != 200 {
		t.Fatalf("second request on the connection: %v %v", res, err)
	}
}
