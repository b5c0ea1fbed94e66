package tracing

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

func TestExporterFromTheOTELVariables(t *testing.T) {
	for _, c := range []struct {
		env      map[string]string
		protocol string
		err      bool
	}{
		{env: nil},
		{env: map[string]string{"OTEL_SERVICE_NAME": "x", "OTEL_TRACES_SAMPLER": "always_on"}}, // no exporter asked for
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, protocol: "http/protobuf"},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, protocol: "http/protobuf"},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, protocol: "http/protobuf"},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, protocol: "grpc"},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
			"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"}, protocol: "grpc"},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"}},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, err: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, err: true},
	} {
		got, err := Exporter(func(k string) string { return c.env[k] })
		if got != c.protocol || (err != nil) != c.err {
			t.Errorf("%v: protocol %q, error %v; want %q, error %v", c.env, got, err, c.protocol, c.err)
		}
	}
}

func TestStatement(t *testing.T) {
	for sql, want := range map[string][2]string{
		"-- name: GetLocale :one\nSELECT * FROM locales WHERE uuid = $1\n": {"GetLocale", "SELECT * FROM locales WHERE uuid = $1"},
		"  select 1":                          {"SELECT", "select 1"},
		"-- a comment\nUPDATE x SET y = $1":   {"UPDATE", "UPDATE x SET y = $1"},
		"begin":                               {"BEGIN", "begin"},
		"SELECT(1)":                           {"SELECT", "SELECT(1)"},
		"":                                    {"SQL", ""},
		"-- only a comment":                   {"SQL", ""},
		"LISTEN catalogd_webhooks":            {"LISTEN", "LISTEN catalogd_webhooks"},
		"-- name: InsertEvents :one\nWITH ev": {"InsertEvents", "WITH ev"},
		"-- name: InsertItems :many\n-- one statement for a bulk\nINSERT INTO items": {"InsertItems", "INSERT INTO items"},
	} {
		if name, text := Statement(sql); name != want[0] || text != want[1] {
			t.Errorf("Statement(%q) = %q, %q; want %q, %q", sql, name, text, want[0], want[1])
		}
	}
}

// Off (nothing installed in this test binary): every hook is a no-op that adds nothing.
func TestOffAddsNothing(t *testing.T) {
	if Enabled() {
		t.Fatal("tracing is on without FromEnv or Install")
	}
	r := httptest.NewRequest("GET", "/v1/locales", nil)
	r.Header.Set("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	if got, span := StartHTTP(r); got != r.Context() || span.SpanContext().IsValid() || r.Header.Get("Traceparent") == "" {
		t.Error("StartHTTP made a context or a span, or dropped the traceparent, while tracing is off")
	}
	if Pgx() != nil {
		t.Error("a pgx tracer while tracing is off")
	}
	if len(GRPCServerOptions()) != 0 {
		t.Error("gRPC server options while tracing is off")
	}
	ctx := context.Background()
	got, span := Start(ctx, "x", trace.SpanKindInternal)
	if got != ctx || span.SpanContext().IsValid() {
		t.Error("Start made a context or a span while tracing is off")
	}
	if got, span = Background(ctx, "x", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"); got != ctx || span.SpanContext().IsValid() {
		t.Error("Background made a context or a span while tracing is off")
	}
	if Traceparent(ctx) != "" {
		t.Error("a traceparent while tracing is off")
	}
	hdr := http.Header{}
	Inject(ctx, hdr)
	if len(hdr) != 0 {
		t.Errorf("Inject set %v while tracing is off", hdr)
	}
	if _, _, ok := IDs(ctx); ok {
		t.Error("IDs while tracing is off")
	}
}
