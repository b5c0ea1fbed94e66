package tracing

import (
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	. "github.com/catalogd/catalogd/server/apptest"
)

// otlpReceiver is a tiny OTLP/HTTP trace collector: it keeps the spans POSTed to /v1/traces
// (binary protobuf, gzip or not).
type otlpReceiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
	names map[string]bool // the service.name of each resource seen
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want a POST of application/x-protobuf to /v1/traces", http.StatusBadRequest)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	var req coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(raw, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, a := range rs.GetResource().GetAttributes() {
			if a.Key == "service.name" {
				o.names[a.GetValue().GetStringValue()] = true
			}
		}
		for _, ss := range rs.ScopeSpans {
			o.spans = append(o.spans, ss.Spans...)
		}
	}
	o.mu.Unlock()
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// of is the spans received of trace id (hex).
func (o *otlpReceiver) of(id string) []*tracepb.Span {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []*tracepb.Span
	for _, s := range o.spans {
		if hex.EncodeToString(s.TraceId) == id {
			out = append(out, s)
		}
	}
	return out
}

func spanAttr(s *tracepb.Span, key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.GetValue().GetStringValue()
		}
	}
	return ""
}

// The done-when of tracing, on the real binary configured only by OTEL_* variables: a REST write
// sent with a traceparent reaches an OTLP/HTTP collector as spans of that trace, its SQL included;
// the webhook delivery it causes reaches the receiver with a traceparent of the same trace; the
// write's log line carries its trace_id.
func TestBinaryExportsTheTraceByOTLP(t *testing.T) {
	dir := t.TempDir()
	bin, err := BuildCatalogd(dir)
	if err != nil {
		t.Fatal(err)
	}
	dbURL, drop, err := CreateDatabase(context.Background(), "catalogd_otlp")
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	collector := &otlpReceiver{names: map[string]bool{}}
	cs := httptest.NewServer(collector)
	defer cs.Close()
	hooks := newHookReceiver(t)

	httpAddr, grpcAddr := FreeAddr(t), FreeAddr(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "CATALOG_DATA_DIR="+dir, "CATALOG_HTTP_ADDR="+httpAddr,
		"CATALOG_GRPC_ADDR="+grpcAddr, "CATALOG_JWT_HS256_SECRET="+Secret, "CATALOG_JWT_ISSUER="+Issuer,
		"CATALOG_JWT_AUDIENCE="+Audience, "CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true",
		"OTEL_EXPORTER_OTLP_ENDPOINT="+cs.URL, "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf",
		"OTEL_SERVICE_NAME=catalogd-otlp-test", "OTEL_BSP_SCHEDULE_DELAY=100")
	base := "http://" + httpAddr
	proc := StartProc(t, cmd, base)

	tenant := "otlp-" + RandomHex(4)
	token := Token(tenant)
	hooks.subscribe(t, base, token, "locale.created")
	tp, id, parent := traceparent()
	must(t, base, token, "POST", "/v1/locales", `{"code":"en-GB"}`, "traceparent", tp)

	var spans []*tracepb.Span
	WaitFor(t, 20*time.Second, "the write's HTTP span, its SQL and the delivery's span at the collector", func() bool {
		spans = collector.of(id.String())
		var server, sql, deliver bool
		for _, s := range spans {
			server = server || (s.Name == "/catalog.v1.LocaleService/CreateLocale" && hex.EncodeToString(s.ParentSpanId) == parent.String())
			sql = sql || (spanAttr(s, "db.system.name") == "postgresql" && strings.Contains(spanAttr(s, "db.query.text"), "INSERT INTO"))
			deliver = deliver || s.Name == "webhook.deliver"
		}
		return server && sql && deliver
	})
	for _, s := range spans {
		if text := spanAttr(s, "db.query.text"); strings.Contains(text, "en-GB") || strings.Contains(text, tenant) {
			t.Errorf("SQL span %s carries a value: %q", s.Name, text)
		}
	}
	collector.mu.Lock()
	named := collector.names["catalogd-otlp-test"]
	collector.mu.Unlock()
	if !named {
		t.Error("no resource with service.name catalogd-otlp-test (OTEL_SERVICE_NAME)")
	}
	got := hooks.first(t)
	if !strings.HasPrefix(got, "00-"+id.String()+"-") {
		t.Errorf("the webhook receiver got traceparent %q, want one of trace %s", got, id)
	}
	// The request's log line names the trace (the access log is written once the answer is).
	WaitFor(t, 10*time.Second, "the write's log line with its trace_id", func() bool {
		for _, line := range strings.Split(proc.Log(), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "http" && m["path"] == "/v1/locales" &&
				m["trace_id"] == id.String() && m["span_id"] != nil {
				return true
			}
		}
		return false
	})
}
