package app

import (
	"context"
	"encoding/binary"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/queryparam"
)

// httpLines records the request log's "http" lines: their level and attributes.
type httpLines struct {
	mu    sync.Mutex
	lines []map[string]string
}

func (h *httpLines) Enabled(context.Context, slog.Level) bool { return true }
func (h *httpLines) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *httpLines) WithGroup(string) slog.Handler            { return h }
func (h *httpLines) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "http" {
		return nil
	}
	m := map[string]string{"level": r.Level.String()}
	r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.String(); return true })
	h.mu.Lock()
	h.lines = append(h.lines, m)
	h.mu.Unlock()
	return nil
}

func (h *httpLines) last() map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lines[len(h.lines)-1]
}

// grpcWebFrame is one gRPC-Web message frame of msg.
func grpcWebFrame(t *testing.T, msg proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32([]byte{0}, uint32(len(b))), b...)
}

// The request log's line names the call's RPC status (rpc_code) beside the HTTP status, for REST,
// gRPC-Web (whose HTTP status is 200 whatever happened) and Connect, whether the chain ran the call
// or a door refused it; an INTERNAL would be logged at ERROR.
func TestRequestLogNamesTheRPCCode(t *testing.T) {
	r := newChainRig(t)
	r.ic.limits = nil
	gw, err := newRESTGateway(context.Background(), r.services, newLocalConn(r.services, r.ic.chain), r.ic)
	if err != nil {
		t.Fatal(err)
	}
	srv := r.ic.newServer(r.services, fields.ServerCodec{})
	web, paths, err := newRPCWeb(srv, r.services, r.ic)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", queryparam.PreserveOrder(gw))
	for _, p := range paths {
		mux.Handle(p, web)
	}
	lines := &httpLines{}
	h := requestLog(slog.New(lines), mux)
	get := "/catalog.v1.LocaleService/GetLocale"
	for _, c := range []struct {
		what, method, path, ct string
		body                   []byte
		token                  bool
		status                 int
		code                   string
	}{
		{"REST, served", "GET", "/v1/locales/l-1", "", nil, true, 200, "OK"},
		{"REST, the handler's 404", "GET", "/v1/locales/missing", "", nil, true, 404, "NOT_FOUND"},
		{"REST, the door's 401", "GET", "/v1/locales/l-1", "", nil, false, 401, "UNAUTHENTICATED"},
		{"gRPC-Web, served", "POST", get, "application/grpc-web+proto", grpcWebFrame(t, &pb.GetLocaleRequest{LocaleUuid: "l-2"}), true, 200, "OK"},
		{"gRPC-Web, the handler's NOT_FOUND", "POST", get, "application/grpc-web+proto", grpcWebFrame(t, &pb.GetLocaleRequest{LocaleUuid: "missing"}), true, 200, "NOT_FOUND"},
		{"gRPC-Web, a truncated frame", "POST", get, "application/grpc-web+proto", []byte{0, 0, 0, 0, 9, 1}, true, 200, "INVALID_ARGUMENT"},
		{"gRPC-Web, the door's 401", "POST", get, "application/grpc-web+proto", grpcWebFrame(t, &pb.GetLocaleRequest{LocaleUuid: "l-3"}), false, 200, "UNAUTHENTICATED"},
		{"gRPC-Web JSON that is not JSON (vanguard's answer)", "POST", get, "application/grpc-web+json", []byte("\x00\x00\x00\x00\x08not json"), true, 200, "INVALID_ARGUMENT"},
		{"Connect JSON that is not JSON (vanguard's answer)", "POST", get, "application/json", []byte("not json"), true, 400, "INVALID_ARGUMENT"},
		{"Connect, over 1 MiB", "POST", get, "application/proto", make([]byte, MaxBodyBytes+1), true, 413, "RESOURCE_EXHAUSTED"},
	} {
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(string(c.body)))
		if c.ct != "" {
			req.Header.Set("Content-Type", c.ct)
			req.Header.Set("Connect-Protocol-Version", "1")
		}
		if c.token {
			req.Header.Set("Authorization", r.token)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		line := lines.last()
		if w.Code != c.status || line["status"] != w.Result().Status[:3] || line["rpc_code"] != c.code || line["level"] != "INFO" {
			t.Errorf("%s: %d, log line %v; want status %d, rpc_code %s at INFO", c.what, w.Code, line, c.status, c.code)
		}
	}
}
