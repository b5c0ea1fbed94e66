package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/catalogd/catalogd/server/apierr"
)

// testGateway is the REST gateway of every service over a connection that never reaches a server:
// each RPC it makes is counted and answered with rpcErr.
func testGateway(t *testing.T, rpcErr error) (http.Handler, *atomic.Int64) {
	t.Helper()
	calls := &atomic.Int64{}
	conn, err := grpc.NewClient("passthrough:///nowhere", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(func(context.Context, string, any, any, *grpc.ClientConn, grpc.UnaryInvoker, ...grpc.CallOption) error {
			calls.Add(1)
			return rpcErr
		}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	routes, err := restRoutes(Services(Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	table := newRouteTable(routes)
	h, err := table.serve(context.Background(), Services(Deps{}), conn, func() *runtime.ServeMux { return newGateway(table) })
	if err != nil {
		t.Fatal(err)
	}
	return headAsGet(h), calls
}

func serve(h http.Handler, method, path string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, path, nil))
	return w
}

func problemOf(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("content type %q: %s", ct, w.Body)
	}
	var p map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("problem body %q: %v", w.Body, err)
	}
	return p
}

// routePaths are the paths of every HTTP rule, a uuid in each path variable.
func routePaths(t *testing.T) []string {
	t.Helper()
	vars := regexp.MustCompile(`\{[^}]*\}`)
	seen := map[string]bool{}
	var out []string
	for _, svc := range Services(Deps{}) {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc.Desc.ServiceName))
		if err != nil {
			t.Fatal(err)
		}
		sd := d.(protoreflect.ServiceDescriptor)
		for j := 0; j < sd.Methods().Len(); j++ {
			rule, _ := proto.GetExtension(sd.Methods().Get(j).Options(), annotations.E_Http).(*annotations.HttpRule)
			tmpl := rule.GetGet() + rule.GetPost() + rule.GetPatch() + rule.GetDelete() + rule.GetPut()
			p := vars.ReplaceAllString(tmpl, "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13")
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d route paths", len(out))
	}
	return out
}

// Every 405 carries Allow listing exactly the methods that route its path (those that do not
// answer 404 or 405), the problem body, and runs no RPC; every path of an HTTP rule is checked.
func TestMethodNotAllowedListsTheAllowedMethods(t *testing.T) {
	h, calls := testGateway(t, status.Error(codes.Unavailable, "no server"))
	n405 := 0
	for _, path := range routePaths(t) {
		var routed []string
		for _, m := range probeMethods {
			if c := serve(h, m, path).Code; c != http.StatusNotFound && c != http.StatusMethodNotAllowed {
				routed = append(routed, m)
			}
		}
		if len(routed) == 0 {
			t.Errorf("%s: no method routes it", path)
			continue
		}
		// HEAD is routed wherever GET is (head.go), and Allow lists it after GET.
		if i := slices.Index(routed, http.MethodGet); i >= 0 {
			routed = slices.Insert(routed, i+1, http.MethodHead)
			if c := serve(h, http.MethodHead, path).Code; c == http.StatusNotFound || c == http.StatusMethodNotAllowed {
				t.Errorf("HEAD %s: %d, but GET routes it", path, c)
			}
		}
		for _, m := range append(slices.Clone(probeMethods), http.MethodHead, http.MethodOptions) {
			if slices.Contains(routed, m) {
				continue
			}
			before := calls.Load()
			w := serve(h, m, path)
			if w.Code != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", m, path, w.Code)
				continue
			}
			n405++
			if got, want := w.Header().Get("Allow"), strings.Join(routed, ", "); got != want {
				t.Errorf("%s %s: Allow %q, want %q", m, path, got, want)
			}
			if p := problemOf(t, w); p["code"] != "METHOD_NOT_ALLOWED" || p["status"] != float64(405) {
				t.Errorf("%s %s: problem %v", m, path, p)
			}
			if calls.Load() != before {
				t.Errorf("%s %s: the 405 ran an RPC", m, path)
			}
		}
	}
	if n405 == 0 {
		t.Fatal("no 405 seen")
	}
	// The examples of the spec: an attribute, a collection, a link without update.
	for _, c := range []struct{ method, path, allow string }{
		{"PUT", "/v1/attributes/0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13", "GET, HEAD, PATCH, DELETE"},
		{"DELETE", "/v1/attributes", "GET, HEAD, POST"},
		{"PATCH", "/v1/assets/0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13/collections/0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13", "GET, HEAD, DELETE"},
		{"HEAD", "/v1/products/bulk/actions/lifecycle", "PATCH"},
	} {
		w := serve(h, c.method, c.path)
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != c.allow {
			t.Errorf("%s %s: %d Allow %q, want 405 %q", c.method, c.path, w.Code, w.Header().Get("Allow"), c.allow)
		}
	}
	if p := problemOf(t, serve(h, http.MethodHead, "/v1/products/bulk/actions/lifecycle")); !strings.HasPrefix(fmt.Sprint(p["detail"]), "HEAD is not allowed") {
		t.Errorf("HEAD on a path without GET: detail %q, want the method the client sent", p["detail"])
	}
	// A path no rule has stays 404, without Allow.
	if w := serve(h, "GET", "/v1/nothing-here"); w.Code != http.StatusNotFound || w.Header().Get("Allow") != "" {
		t.Errorf("unknown path: %d Allow %q", w.Code, w.Header().Get("Allow"))
	}
}

// A path with a literal segment where another route has a variable (every …/bulk path beside its
// /{uuid}) has only its own methods: the others are 405 with Allow listing exactly the methods its
// HTTP rules give it (read from the rules here, not from the route table), never the /{uuid}
// route's 400 or 404; no RPC runs.
func TestBulkPathsHaveOnlyTheirMethods(t *testing.T) {
	h, calls := testGateway(t, status.Error(codes.Unavailable, "no server"))
	byPath := map[string][]string{}
	for _, svc := range Services(Deps{}) {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc.Desc.ServiceName))
		if err != nil {
			t.Fatal(err)
		}
		sd := d.(protoreflect.ServiceDescriptor)
		for j := 0; j < sd.Methods().Len(); j++ {
			rule, _ := proto.GetExtension(sd.Methods().Get(j).Options(), annotations.E_Http).(*annotations.HttpRule)
			for m, tmpl := range map[string]string{"GET": rule.GetGet(), "POST": rule.GetPost(), "PUT": rule.GetPut(),
				"PATCH": rule.GetPatch(), "DELETE": rule.GetDelete()} {
				if tmpl != "" && strings.Contains(tmpl+"/", "/bulk/") {
					p := regexp.MustCompile(`\{[^}]*\}`).ReplaceAllString(tmpl, "0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13")
					byPath[p] = append(byPath[p], m)
				}
			}
		}
	}
	if len(byPath) < 37 {
		t.Fatalf("only %d bulk paths", len(byPath))
	}
	for path, methods := range byPath {
		var allow []string
		for _, m := range probeMethods {
			if slices.Contains(methods, m) {
				allow = append(allow, m)
			}
		}
		for _, m := range append(slices.Clone(probeMethods), http.MethodHead) {
			if slices.Contains(methods, m) {
				continue
			}
			before := calls.Load()
			w := serve(h, m, path)
			if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != strings.Join(allow, ", ") {
				t.Errorf("%s %s: %d Allow %q, want 405 %q", m, path, w.Code, w.Header().Get("Allow"), strings.Join(allow, ", "))
			}
			if calls.Load() != before {
				t.Errorf("%s %s: the 405 ran an RPC", m, path)
			}
		}
	}
	if w := serve(h, "PUT", "/v1/tags/bulk"); w.Header().Get("Allow") != "POST, PATCH" {
		t.Errorf("PUT /v1/tags/bulk: Allow %q, want POST, PATCH", w.Header().Get("Allow"))
	}
}

// Whatever text grpc puts in a status, the client sees the API's own: a 413 says the body limit,
// an internal failure "internal error".
func TestGatewayHidesLibraryText(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		detail string
	}{
		{status.Error(codes.ResourceExhausted, "grpc: received message larger than max (5242880 vs. 4194304)"), 413, "request body exceeds 1048576 bytes"},
		{status.Error(codes.Internal, "grpc: error unmarshalling request: proto: cannot parse invalid wire-format data"), 500, "internal error"},
		{status.Error(codes.Unknown, "pq: duplicate key value violates unique constraint \"attributes_code_key\""), 500, "internal error"},
		{status.Error(codes.Unavailable, "connection error: desc = \"transport: Error while dialing: dial tcp 10.0.0.1:9090\""), 503, "the service is unavailable, try again later"},
	} {
		h, _ := testGateway(t, c.err)
		w := serve(h, "GET", "/v1/attributes")
		p := problemOf(t, w)
		if w.Code != c.status || p["detail"] != c.detail {
			t.Errorf("%v: %d %q, want %d %q", c.err, w.Code, p["detail"], c.status, c.detail)
		}
		for _, leak := range []string{"grpc", "pq:", "transport", "4194304", "attributes_code_key", "10.0.0.1"} {
			if strings.Contains(w.Body.String(), leak) {
				t.Errorf("%v: body shows %q: %s", c.err, leak, w.Body)
			}
		}
		if c.status == 503 && w.Header().Get("Retry-After") == "" {
			t.Errorf("503 without Retry-After")
		}
	}
}

// meta is written as JSON values, as the server's error carried them through gRPC.
func TestProblemMetaIsJSON(t *testing.T) {
	e := apierr.New(apierr.InvalidTransition, "no").WithMeta("currentStatus", "removed").
		WithMeta("allowedTransitions", []string{"restore"})
	h, _ := testGateway(t, e)
	w := serve(h, "GET", "/v1/attributes")
	p := problemOf(t, w)
	meta, _ := p["meta"].(map[string]any)
	if w.Code != 409 || meta["currentStatus"] != "removed" || !slices.Equal(toStrings(meta["allowedTransitions"]), []string{"restore"}) {
		t.Errorf("%d %s", w.Code, w.Body)
	}
	if errs, ok := p["errors"].([]any); !ok || len(errs) != 0 {
		t.Errorf("errors %v, want []", p["errors"])
	}
}

func toStrings(v any) []string {
	a, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(a))
	for i, x := range a {
		out[i], _ = x.(string)
	}
	return out
}

// WriteProblem holds the rules for every writer: a 413 names the limit, INTERNAL shows nothing else.
func TestWriteProblemRules(t *testing.T) {
	r := httptest.NewRequest("GET", "/v1/x", nil)
	w := httptest.NewRecorder()
	WriteProblem(w, r, apierr.New(apierr.PayloadTooLarge, "grpc: received message larger than max"))
	if p := problemOf(t, w); w.Code != 413 || p["detail"] != "request body exceeds 1048576 bytes" {
		t.Errorf("413: %d %s", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	WriteProblem(w, r, apierr.New(apierr.Internal, "select failed: %s", "relation secret_table").WithMeta("sql", "select 1"))
	if p := problemOf(t, w); w.Code != 500 || p["detail"] != "internal error" || p["meta"] != nil || strings.Contains(w.Body.String(), "secret") {
		t.Errorf("500: %d %s", w.Code, w.Body)
	}
}
