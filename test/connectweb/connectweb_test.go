// Package connectweb tests the Connect and gRPC-Web protocols of the HTTP port (docs/design.md
// "Connect and gRPC-Web") with connect-go's own client, which knows nothing of how the server
// serves them: the same methods, errors and details as gRPC, the door's authentication and limits
// before the body, one pass of the interceptor chain per call, and the CORS policy browsers see.
package connectweb

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

const origin = "http://admin.example.test"

func TestMain(m *testing.M) {
	apptest.Main(m, &env, nil, func(c *app.Config) {
		c.CORSAllowedOrigins = []string{"HTTP://Admin.Example.TEST"} // origins compare without regard to case
		c.RateLimitRPS, c.RateLimitBurst = 0.5, 8                    // a burst of 8 per tenant: TestRateLimitIsTheTenants spends it
	})
}

// protocols are the ways connect-go's client can reach the HTTP port.
var protocols = []struct {
	name string
	opts []connect.ClientOption
}{
	{"connect+proto", nil},
	{"connect+json", []connect.ClientOption{connect.WithProtoJSON()}},
	{"grpc-web", []connect.ClientOption{connect.WithGRPCWeb()}},
}

func method(name string) string { return "/catalog.v1.LocaleService/" + name }

func client[Req, Res any](name string, opts ...connect.ClientOption) *connect.Client[Req, Res] {
	return connect.NewClient[Req, Res](http.DefaultClient, env.BaseURL+method(name), opts...)
}

func call[Req, Res any](c *connect.Client[Req, Res], token string, msg *Req) (*connect.Response[Res], error) {
	req := connect.NewRequest(msg)
	if token != "" {
		req.Header().Set("Authorization", "Bearer "+token)
	}
	return c.CallUnary(context.Background(), req)
}

// errorInfo is the google.rpc.ErrorInfo detail of a Connect error.
func errorInfo(t *testing.T, err error) (*connect.Error, *errdetails.ErrorInfo, *errdetails.BadRequest) {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) {
		t.Fatalf("want a connect error, got %v", err)
	}
	var info *errdetails.ErrorInfo
	var br *errdetails.BadRequest
	for _, d := range ce.Details() {
		v, derr := d.Value()
		if derr != nil {
			t.Fatalf("detail %s: %v", d.Type(), derr)
		}
		switch m := v.(type) {
		case *errdetails.ErrorInfo:
			info = m
		case *errdetails.BadRequest:
			br = m
		}
	}
	if info == nil || info.Domain != "catalogd" {
		t.Fatalf("error %v has no ErrorInfo of domain catalogd (details %v)", ce, ce.Details())
	}
	return ce, info, br
}

func TestCreateGetAndErrorsInEveryProtocol(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			tenant := "t-" + apptest.RandomHex(6)
			token := apptest.Token(tenant)
			create := client[pb.CreateLocaleRequest, pb.CreateLocaleResponse]("CreateLocale", p.opts...)
			res, err := call(create, token, &pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: "de-DE"}})
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			loc := res.Msg.GetLocale()
			if loc.GetCode() != "de-DE" || loc.GetUuid() == "" || !loc.GetIsDefault() {
				t.Fatalf("created %v", loc)
			}
			if ids := res.Header().Values("X-Request-Id"); len(ids) != 1 {
				t.Errorf("X-Request-Id %q: want exactly one", ids)
			}

			// The same tenant sees it over REST: one service behind both facades.
			got := apptest.Want(t, env.ClientFor(t, tenant).Get("/v1/locales/"+loc.GetUuid()), 200).Obj()
			if got["code"] != "de-DE" {
				t.Fatalf("REST sees %v", got)
			}
			get := client[pb.GetLocaleRequest, pb.GetLocaleResponse]("GetLocale", p.opts...)
			if g, err := call(get, token, &pb.GetLocaleRequest{LocaleUuid: loc.GetUuid()}); err != nil || !proto.Equal(g.Msg.GetLocale(), loc) {
				t.Fatalf("get: %v %v", g, err)
			}

			// A rule violation: INVALID_ARGUMENT with the API's code and the field.
			_, err = call(create, token, &pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: "not a locale!"}})
			ce, info, br := errorInfo(t, err)
			if ce.Code() != connect.CodeInvalidArgument || info.Reason != "VALIDATION_FAILED" || br == nil ||
				len(br.FieldViolations) == 0 || br.FieldViolations[0].Field != "code" {
				t.Fatalf("bad code: %v %v %v", ce, info, br)
			}
			// A conflict: the code is taken.
			_, err = call(create, token, &pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: "de-DE"}})
			if ce, info, _ := errorInfo(t, err); ce.Code() != connect.CodeAlreadyExists || info.Reason != "ALREADY_EXISTS" {
				t.Fatalf("duplicate: %v %v", ce, info)
			}
			// Not found.
			_, err = call(get, token, &pb.GetLocaleRequest{LocaleUuid: apptest.RandomUUID()})
			if ce, info, _ := errorInfo(t, err); ce.Code() != connect.CodeNotFound || info.Reason != "NOT_FOUND" {
				t.Fatalf("not found: %v %v", ce, info)
			}
		})
	}
}

func TestTheDoorAuthenticatesBeforeTheBody(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			list := client[pb.ListLocalesRequest, pb.ListLocalesResponse]("ListLocales", p.opts...)
			_, err := call(list, "", &pb.ListLocalesRequest{})
			if ce, info, _ := errorInfo(t, err); ce.Code() != connect.CodeUnauthenticated || info.Reason != "UNAUTHENTICATED" {
				t.Fatalf("no token: %v %v", ce, info)
			}
			_, err = call(list, "not-a-jwt", &pb.ListLocalesRequest{})
			if ce, _, _ := errorInfo(t, err); ce.Code() != connect.CodeUnauthenticated {
				t.Fatalf("bad token: %v", ce)
			}
			create := client[pb.CreateLocaleRequest, pb.CreateLocaleResponse]("CreateLocale", p.opts...)
			_, err = call(create, apptest.Token("t-"+apptest.RandomHex(6), "catalog:read"), &pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: "fr-FR"}})
			if ce, info, _ := errorInfo(t, err); ce.Code() != connect.CodePermissionDenied || info.Reason != "FORBIDDEN" {
				t.Fatalf("read-only token on a create: %v %v", ce, info)
			}
		})
	}

	// An anonymous body is never read: a 1 MiB body without a token is refused, and so is one that
	// never ends (the answer comes while the client is still sending).
	body := io.MultiReader(bytes.NewReader([]byte{0, 0, 0x10, 0, 0}), neverEnding{})
	req, _ := http.NewRequest(http.MethodPost, env.BaseURL+method("CreateLocale"), body)
	req.Header.Set("Content-Type", "application/grpc-web+proto")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if st := resp.Header.Get("Grpc-Status"); st != strconv.Itoa(int(connect.CodeUnauthenticated)) {
		t.Fatalf("anonymous endless body: grpc-status %q, want 16", st)
	}
}

type neverEnding struct{}

func (neverEnding) Read(p []byte) (int, error) { return len(p), nil }

func TestOversizeMessageIsPayloadTooLarge(t *testing.T) {
	token := apptest.Token("t-" + apptest.RandomHex(6))
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			create := client[pb.CreateLocaleRequest, pb.CreateLocaleResponse]("CreateLocale", p.opts...)
			big := &pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: strings.Repeat("a", app.MaxBodyBytes+10)}}
			_, err := call(create, token, big)
			if ce, info, _ := errorInfo(t, err); ce.Code() != connect.CodeResourceExhausted || info.Reason != "PAYLOAD_TOO_LARGE" {
				t.Fatalf("oversize: %v %v", ce, info)
			}
		})
	}
}

// The chain runs once per call: the method's metric counts exactly the calls made.
func TestOnePassOfTheChainPerCall(t *testing.T) {
	token := apptest.Token("t-" + apptest.RandomHex(6))
	before := rpcCount(t, method("ListLocales"), "OK")
	for _, p := range protocols {
		list := client[pb.ListLocalesRequest, pb.ListLocalesResponse]("ListLocales", p.opts...)
		if _, err := call(list, token, &pb.ListLocalesRequest{}); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
	}
	if got := rpcCount(t, method("ListLocales"), "OK") - before; got != len(protocols) {
		t.Fatalf("%d calls counted %d times", len(protocols), got)
	}
}

func rpcCount(t *testing.T, method, code string) int {
	t.Helper()
	resp, err := http.Get(env.BaseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	re := regexp.MustCompile(fmt.Sprintf(`catalogd_rpc_requests_total\{code="%s",method="%s"\} (\d+)`, code, regexp.QuoteMeta(method)))
	m := re.FindSubmatch(b)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// The tenant's token bucket is the one REST and gRPC spend: 8 calls, then RESOURCE_EXHAUSTED
// with RATE_LIMITED and Retry-After, whatever the protocol.
func TestRateLimitIsTheTenants(t *testing.T) {
	tenant := "t-" + apptest.RandomHex(6)
	token := apptest.Token(tenant)
	c := env.ClientFor(t, tenant)
	for i := 0; i < 6; i++ {
		apptest.Want(t, c.Get("/v1/locales"), 200)
	}
	list := client[pb.ListLocalesRequest, pb.ListLocalesResponse]("ListLocales")
	if _, err := call(list, token, &pb.ListLocalesRequest{}); err != nil {
		t.Fatal(err)
	}
	web := client[pb.ListLocalesRequest, pb.ListLocalesResponse]("ListLocales", connect.WithGRPCWeb())
	if _, err := call(web, token, &pb.ListLocalesRequest{}); err != nil {
		t.Fatal(err)
	}
	_, err := call(list, token, &pb.ListLocalesRequest{})
	ce, info, _ := errorInfo(t, err)
	if ce.Code() != connect.CodeResourceExhausted || info.Reason != "RATE_LIMITED" || ce.Meta().Get("Retry-After") == "" {
		t.Fatalf("9th call of the tenant: %v %v %v", ce, info, ce.Meta())
	}
}

func TestWhatIsNotAConnectOrGRPCWebCall(t *testing.T) {
	token := apptest.Token("t-" + apptest.RandomHex(6))
	problem := func(what string, resp *http.Response, body string, status int, code string) {
		t.Helper()
		if resp.StatusCode != status || resp.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(body, `"code":"`+code+`"`) {
			t.Errorf("%s: %d %s %s, want %d %s problem", what, resp.StatusCode, resp.Header.Get("Content-Type"), body, status, code)
		}
	}
	list := method("ListLocales")
	// gRPC itself belongs on the gRPC port (it needs HTTP/2); gRPC-Web text, Connect streaming,
	// Connect without its version header and other media types are not served.
	for _, c := range []struct{ ct, version string }{
		{"application/grpc", ""}, {"application/grpc+proto", ""}, {"application/grpc-web-text", ""},
		{"application/connect+json", "1"}, {"application/json", ""}, {"application/proto", "2"},
		{"application/json; charset=latin1", "1"}, {"text/plain", "1"}, {"", "1"},
	} {
		resp, body := send(t, http.MethodPost, list, []byte("{}"), "Content-Type", c.ct, "Authorization", "Bearer "+token,
			"Connect-Protocol-Version", c.version)
		problem(c.ct+" version "+c.version, resp, body, 415, "UNSUPPORTED_MEDIA_TYPE")
	}
	// Only POST (no Connect GET: no method is marked free of side effects).
	resp, body := send(t, http.MethodGet, list+"?connect=v1&encoding=json&message=%7B%7D", nil, "Authorization", "Bearer "+token)
	problem("GET", resp, body, 405, "METHOD_NOT_ALLOWED")
	if resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET: Allow %q", resp.Header.Get("Allow"))
	}
	// A method the service does not have: Connect's unimplemented, nothing called.
	for _, path := range []string{"/catalog.v1.LocaleService/DropEverything", "/catalog.v1.LocaleService/", list + "/"} {
		resp, body := send(t, http.MethodPost, path, []byte("{}"), "Content-Type", "application/json", "Authorization", "Bearer "+token,
			"Connect-Protocol-Version", "1")
		if resp.StatusCode != 501 || !strings.Contains(body, `"code":"unimplemented"`) {
			t.Errorf("unknown method %s: %d %s", path, resp.StatusCode, body)
		}
	}
	// Health and reflection stay on the gRPC port.
	resp, _ = send(t, http.MethodPost, "/grpc.health.v1.Health/Check", []byte("{}"), "Content-Type", "application/json",
		"Authorization", "Bearer "+token, "Connect-Protocol-Version", "1")
	if resp.StatusCode != 404 {
		t.Errorf("health over Connect: %d", resp.StatusCode)
	}
}

// Bad input in a Connect or gRPC-Web call is the API's 4xx with its details, never a 500 or
// vanguard's own UNKNOWN.
func TestBadBodiesAre4xx(t *testing.T) {
	token := apptest.Token("t-" + apptest.RandomHex(6))
	create := method("CreateLocale")
	post := func(ct string, body []byte, hdr ...string) (int, http.Header, string) {
		resp, b := send(t, http.MethodPost, create, body, append([]string{"Content-Type", ct, "Authorization", "Bearer " + token}, hdr...)...)
		return resp.StatusCode, resp.Header, b
	}
	connectJSON := func(what string, body []byte, status int, code, reason string, hdr ...string) {
		t.Helper()
		got, h, b := post("application/json", body, append([]string{"Connect-Protocol-Version", "1"}, hdr...)...)
		if got != status || !strings.Contains(b, `"code":"`+code+`"`) || !strings.Contains(b, `"reason":"`+reason+`"`) {
			t.Errorf("%s: %d %v %s, want %d %s %s", what, got, h, b, status, code, reason)
		}
	}
	connectJSON("not JSON", []byte("not json"), 400, "invalid_argument", "MALFORMED_REQUEST")
	connectJSON("a field of the wrong type", []byte(`{"locale":{"code":7}}`), 400, "invalid_argument", "MALFORMED_REQUEST")
	// (An unknown field is ignored, as Connect's JSON does for forward compatibility; REST refuses it.)
	connectJSON("an unknown field, then the rules", []byte(`{"nope":1}`), 400, "invalid_argument", "VALIDATION_FAILED")
	connectJSON("a bad time-out", []byte(`{}`), 400, "invalid_argument", "MALFORMED_REQUEST", "Connect-Timeout-Ms", "soon")

	// A compressed body is refused before it is read: a 300 KB gzip bomb of 300 MiB never inflates.
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zeros := make([]byte, 1<<20)
	for i := 0; i < 300; i++ {
		_, _ = zw.Write(zeros)
	}
	_ = zw.Close()
	got, h, b := post("application/json", bomb.Bytes(), "Connect-Protocol-Version", "1", "Content-Encoding", "gzip")
	if got != 400 || !strings.Contains(b, "UNSUPPORTED_MEDIA_TYPE") || h.Get("Accept-Encoding") != "identity" {
		t.Errorf("gzip Connect body: %d %v %s", got, h, b)
	}
	frame := append([]byte{0, 0, 0, 0, 0}, bomb.Bytes()...)
	binary.BigEndian.PutUint32(frame[1:5], uint32(bomb.Len()))
	got, h, _ = post("application/grpc-web+proto", frame, "Grpc-Encoding", "gzip")
	if got != 200 || h.Get("Grpc-Status") != strconv.Itoa(int(connect.CodeInvalidArgument)) || h.Get("Grpc-Accept-Encoding") != "identity" {
		t.Errorf("gzip gRPC-Web body: %d %v", got, h)
	}
	// A frame flagged compressed without an encoding, and a gRPC-Web JSON body that is not JSON.
	frame[0] = 1
	if got, h, _ = post("application/grpc-web+proto", frame); got != 200 || h.Get("Grpc-Status") != strconv.Itoa(int(connect.CodeInvalidArgument)) {
		t.Errorf("compressed gRPC-Web frame: %d %v", got, h)
	}
	notJSON := append([]byte{0, 0, 0, 0, 8}, []byte("not json")...)
	if got, h, _ = post("application/grpc-web+json", notJSON); got != 200 || h.Get("Grpc-Status") != strconv.Itoa(int(connect.CodeInvalidArgument)) {
		t.Errorf("gRPC-Web JSON that is not JSON: %d %v", got, h)
	}
}

func TestCORS(t *testing.T) {
	do := func(m, path, from string, hdr ...string) *http.Response {
		resp, _ := send(t, m, path, nil, append([]string{"Origin", from}, hdr...)...)
		return resp
	}
	for _, path := range []string{method("CreateLocale"), "/v1/locales"} {
		r := do(http.MethodOptions, path, origin, "Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "authorization,content-type,connect-protocol-version,x-grpc-web,x-user-agent")
		if r.StatusCode != 204 || r.Header.Get("Access-Control-Allow-Origin") != origin ||
			!strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "Connect-Protocol-Version") ||
			!strings.Contains(r.Header.Get("Access-Control-Allow-Methods"), "POST") {
			t.Errorf("preflight of %s from %s: %d %v", path, origin, r.StatusCode, r.Header)
		}
		r = do(http.MethodOptions, path, "http://evil.example.test", "Access-Control-Request-Method", "POST")
		if r.StatusCode != 403 || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight of %s from another origin: %d %v", path, r.StatusCode, r.Header)
		}
	}
	// The answer itself: the origin may read it and the headers it needs.
	r := do(http.MethodGet, "/v1/locales", origin, "Authorization", "Bearer "+apptest.Token("t-"+apptest.RandomHex(6)))
	if r.StatusCode != 200 || r.Header.Get("Access-Control-Allow-Origin") != origin ||
		!strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), "Grpc-Status-Details-Bin") || r.Header.Get("Vary") != "Origin" {
		t.Errorf("GET from %s: %d %v", origin, r.StatusCode, r.Header)
	}
	r = do(http.MethodGet, "/v1/locales", "http://evil.example.test", "Authorization", "Bearer "+apptest.Token("t-"+apptest.RandomHex(6)))
	if r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("GET from another origin may be read: %v", r.Header)
	}
	// The operational endpoints are not the API: no CORS.
	if r := do(http.MethodGet, "/metrics", origin); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("/metrics answers cross-origin: %v", r.Header)
	}
}

// send makes one raw HTTP request (hdr: name, value, …; an empty value is not sent) and returns the
// answer and its body.
func send(t *testing.T, m, path string, body []byte, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(m, env.BaseURL+path, bytes.NewReader(body))
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] != "" {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// A gRPC-Web body that is not exactly one message frame is INVALID_ARGUMENT (MALFORMED_REQUEST),
// never INTERNAL, and a second frame on a unary call is refused, not ignored; a time-out longer than
// any call runs is no time-out (the call runs under the server's own), not a plain-text 400.
func TestGRPCWebFramesAndTimeouts(t *testing.T) {
	list := method("ListLocales")
	frame := func(msg proto.Message) []byte {
		b, _ := proto.Marshal(msg)
		return append(binary.BigEndian.AppendUint32([]byte{0}, uint32(len(b))), b...)
	}
	one := frame(&pb.ListLocalesRequest{})
	create := frame(&pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: "de-DE"}})
	for _, c := range []struct {
		what string
		body []byte
		hdr  []string
		code connect.Code
	}{
		{"an empty body", nil, nil, connect.CodeInvalidArgument},
		{"a body inside a frame header", []byte{0, 0, 0}, nil, connect.CodeInvalidArgument},
		{"a truncated frame", []byte{0, 0, 0, 0, 9, 8, 1}, nil, connect.CodeInvalidArgument},
		{"a second frame", append(append([]byte{}, one...), one...), nil, connect.CodeInvalidArgument},
		{"99999999H", one, []string{"Grpc-Timeout", "99999999H"}, connect.Code(0)},
		{"9H", one, []string{"Grpc-Timeout", "9H"}, connect.Code(0)},
		{"5S", one, []string{"Grpc-Timeout", "5S"}, connect.Code(0)},
		{"a malformed time-out", one, []string{"Grpc-Timeout", "soon"}, connect.CodeInvalidArgument},
	} {
		token := apptest.Token("t-" + apptest.RandomHex(6)) // a tenant each: the bucket holds 8 calls
		resp, body := send(t, http.MethodPost, list, c.body, append([]string{"Content-Type", "application/grpc-web+proto",
			"Authorization", "Bearer " + token}, c.hdr...)...)
		if resp.StatusCode != 200 || resp.Header.Get("Grpc-Status") != strconv.Itoa(int(c.code)) &&
			!(c.code == 0 && strings.Contains(strings.ToLower(body), "grpc-status: 0\r\n")) {
			t.Errorf("%s: %d %v %q, want grpc-status %d", c.what, resp.StatusCode, resp.Header, body, c.code)
		}
	}
	// The second frame of a create is not ignored: nothing is created.
	token := apptest.Token("t-" + apptest.RandomHex(6))
	resp, _ := send(t, http.MethodPost, method("CreateLocale"), append(append([]byte{}, create...), create...),
		"Content-Type", "application/grpc-web+proto", "Authorization", "Bearer "+token)
	if resp.Header.Get("Grpc-Status") != strconv.Itoa(int(connect.CodeInvalidArgument)) {
		t.Errorf("a create with two frames: %v", resp.Header)
	}
	// Connect's time-out: 10 digits of milliseconds (115 days) is no time-out either.
	resp, body := send(t, http.MethodPost, list, []byte(`{}`), "Content-Type", "application/json", "Connect-Protocol-Version", "1",
		"Connect-Timeout-Ms", "9999999999", "Authorization", "Bearer "+token)
	if resp.StatusCode != 200 {
		t.Errorf("Connect-Timeout-Ms 9999999999: %d %s", resp.StatusCode, body)
	}
}

// A Connect body over 1 MiB is HTTP 413 (resource_exhausted, PAYLOAD_TOO_LARGE in the body), not
// Connect's 429 for resource_exhausted, which clients and proxies take as "retry".
func TestConnectBodyOverTheLimitIs413(t *testing.T) {
	token := apptest.Token("t-" + apptest.RandomHex(6))
	body := []byte(`{"locale":{"code":"` + strings.Repeat("a", app.MaxBodyBytes) + `"}}`)
	resp, b := send(t, http.MethodPost, method("CreateLocale"), body, "Content-Type", "application/json",
		"Connect-Protocol-Version", "1", "Authorization", "Bearer "+token)
	if resp.StatusCode != 413 || !strings.Contains(b, `"code":"resource_exhausted"`) || !strings.Contains(b, "PAYLOAD_TOO_LARGE") {
		t.Errorf("JSON over 1 MiB: %d %s", resp.StatusCode, b)
	}
	big, _ := proto.Marshal(&pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: strings.Repeat("a", app.MaxBodyBytes)}})
	resp, b = send(t, http.MethodPost, method("CreateLocale"), big, "Content-Type", "application/proto",
		"Connect-Protocol-Version", "1", "Authorization", "Bearer "+token)
	if resp.StatusCode != 413 || !strings.Contains(b, "PAYLOAD_TOO_LARGE") {
		t.Errorf("proto over 1 MiB: %d %s", resp.StatusCode, b)
	}
}
