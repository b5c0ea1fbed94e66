// Package tracing is catalogd's OpenTelemetry tracing, set up in one place and attached at the doors
// (the HTTP port, the gRPC server, the interceptor chain), the database pools (a pgx tracer), the
// outbox (the trace context stored with each event) and the background workers
// (docs/operations.md "Traces").
//
// It is configured only by the standard OTEL_* variables (FromEnv) and is off when none asks for it:
// then every hook here returns at once (no span, no context value, no propagation), so tracing that
// is off costs nothing worth measuring. Tests turn it on with Install and an in-memory exporter.
package tracing

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
)

// ScopeName is the instrumentation scope of catalogd's own spans.
const ScopeName = "github.com/catalogd/catalogd"

var on atomic.Bool

// Enabled reports whether tracing is on in this process (FromEnv found an exporter, or Install).
func Enabled() bool { return on.Load() }

// propagator is W3C trace context and baggage: what is accepted from clients and sent to webhook
// receivers.
var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// Install makes tp the process's tracer provider and W3C trace context its propagator, and turns
// the instrumentation on. Call it before the server starts (the pools take their pgx tracer when
// they are opened). Tests install a provider with an in-memory exporter.
func Install(tp trace.TracerProvider) {
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagator)
	t := tp.Tracer(ScopeName)
	ours.Store(&t)
	on.Store(true)
}

// ours is catalogd's tracer, asked of the provider once (Install): asking for it per span
// (otel.Tracer) cost a lock, a map look-up and the tracer options' allocation every time.
var ours atomic.Pointer[trace.Tracer]

// Exporter names what FromEnv would export to ("" for nothing), from the OTEL_* variables:
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn tracing off; otherwise it is on when
// OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. The protocol is OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
// else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf; grpc is the other one served.
func Exporter(getenv func(string) string) (protocol string, err error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return "", nil
	}
	switch exp := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return "", nil
	case "":
		if getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
			return "", nil
		}
	case "otlp":
	default:
		return "", fmt.Errorf("OTEL_TRACES_EXPORTER=%q: catalogd exports traces with otlp, or none", exp)
	}
	protocol = getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch protocol {
	case "":
		return "http/protobuf", nil
	case "http/protobuf", "grpc":
		return protocol, nil
	}
	return "", fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q: catalogd exports traces over http/protobuf or grpc", protocol)
}

// FromEnv sets tracing up from the OTEL_* variables (Exporter): an OTLP exporter (which reads its
// endpoint, headers, timeout and TLS settings from the OTEL_EXPORTER_OTLP_* variables itself), a
// batch span processor (OTEL_BSP_*), the sampler of OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG
// (parentbased_always_on by default), and the resource of OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES (service.name catalogd by default). With none of them set it does
// nothing and returns a no-op shutdown. shutdown flushes the spans still buffered.
func FromEnv(ctx context.Context, version string) (protocol string, shutdown func(context.Context) error, err error) {
	shutdown = func(context.Context) error { return nil }
	if protocol, err = Exporter(os.Getenv); err != nil || protocol == "" {
		return "", shutdown, err
	}
	var exp sdktrace.SpanExporter
	if protocol == "grpc" {
		exp, err = otlptracegrpc.New(ctx)
	} else {
		exp, err = otlptracehttp.New(ctx)
	}
	if err != nil {
		return "", shutdown, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(),
		resource.NewSchemaless(attribute.String("service.name", "catalogd"), attribute.String("service.version", version)))
	if err != nil {
		return "", shutdown, err
	}
	fromEnv, err := resource.New(ctx, resource.WithFromEnv())
	if err != nil {
		return "", shutdown, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	if res, err = resource.Merge(res, fromEnv); err != nil {
		return "", shutdown, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	Install(tp)
	return protocol, tp.Shutdown, nil
}

func tracer() trace.Tracer { return *ours.Load() }

// none is the span that does nothing, what the hooks return when they make no span (without looking
// for one in the context).
var none = trace.SpanFromContext(context.Background())

// Start starts a span named name as a child of ctx's span (a root span when ctx has none). When
// tracing is off it returns ctx itself and a span that does nothing.
func Start(ctx context.Context, name string, kind trace.SpanKind, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if !Enabled() {
		return ctx, none
	}
	return tracer().Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
}

// Background starts the span of one unit of background work (a webhook delivery, a rendition job,
// an import, a retention run): a root span, or with parent (a traceparent stored with the work, as
// the outbox does with events) a child of the trace that caused the work.
func Background(ctx context.Context, name, parent string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if !Enabled() {
		return ctx, none
	}
	ctx = trace.ContextWithSpanContext(ctx, trace.SpanContext{}) // never a child of whatever ctx carried
	if parent != "" {
		ctx = propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": parent})
	}
	kind := trace.SpanKindInternal
	if parent != "" {
		kind = trace.SpanKindConsumer
	}
	return tracer().Start(ctx, name, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
}

// End ends span, recording err (when not nil) as its error status.
func End(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// Traceparent is ctx's trace context as a W3C traceparent header value, "" without one (tracing
// off, or no span): what the outbox stores with an event.
func Traceparent(ctx context.Context) string {
	if !Enabled() {
		return ""
	}
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	return c["traceparent"]
}

// Inject sets ctx's trace context (traceparent, tracestate, baggage) on an outgoing request's
// headers: a webhook delivery carries the trace to its receiver.
func Inject(ctx context.Context, h http.Header) {
	if Enabled() {
		propagator.Inject(ctx, propagation.HeaderCarrier(h))
	}
}

// IDs are ctx's trace and span ids (hex), "" without a span: what every log line carries.
func IDs(ctx context.Context) (traceID, spanID string, ok bool) {
	if !Enabled() {
		return "", "", false
	}
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", "", false
	}
	return sc.TraceID().String(), sc.SpanID().String(), true
}

// untraced are the HTTP paths that get no span: probes and scrapes, which would be most spans of an
// idle replica and tell nothing.
var untraced = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// httpSpanNames are the server spans' names by method, made once.
var httpSpanNames = map[string]string{}

func init() {
	for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
		httpSpanNames[m] = "HTTP " + m
	}
}

// StartHTTP starts the server span of a request on the HTTP port (REST, Connect and gRPC-Web
// alike), named "HTTP <method>", with the method and the path: a child of the trace of the
// request's traceparent when it has one. EndHTTP ends it with the answer's status. When tracing is
// off, or for the probes and the scrape, it returns r's context itself and a span that does nothing.
//
// The access log calls both (app's requestLog), which already knows the answer's status: the door
// wraps neither the handler nor the response writer again, and records no HTTP metrics (the
// Prometheus ones exist). Once the span continues the caller's trace, the caller's traceparent and
// tracestate headers are dropped: Connect and gRPC-Web calls go on through the gRPC server in
// process (vanguard, grpc.Server.ServeHTTP), whose span must be a child of this one, not a sibling
// continuing the caller's headers again.
func StartHTTP(r *http.Request) (context.Context, trace.Span) {
	ctx := r.Context()
	if !Enabled() || untraced[r.URL.Path] {
		return ctx, none
	}
	if r.Header.Get("Traceparent") != "" || r.Header.Get("Baggage") != "" {
		ctx = propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))
		r.Header.Del("Traceparent")
		r.Header.Del("Tracestate")
	}
	name, method := httpSpanNames[r.Method], r.Method
	if name == "" { // a method of the client's own: not in the name (cardinality), as the conventions say
		name, method = "HTTP", "_OTHER"
	}
	ctx, span := tracer().Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("http.request.method", method), attribute.String("url.path", r.URL.Path)))
	if !span.IsRecording() { // not sampled: nothing for the chain to take
		return ctx, span
	}
	return context.WithValue(ctx, doorKey{}, &door{span: span}), span
}

// door is the HTTP server span of a request (a sampled one), in its context: the first RPC the
// interceptor chain runs directly under it (a REST call, through the gateway's in-process connection) takes it as its
// own span (StartRPC).
type door struct {
	span  trace.Span
	taken atomic.Bool
}

type doorKey struct{}

// StartRPC starts the span of the interceptor chain's call of method, the parent of the handler's
// SQL. A REST call has one already: the HTTP server span of its request (StartHTTP), which it takes
// and names after the method — one span for the door, the gateway and the chain, the one costly
// thing a sampled request makes besides its statements. Calls of the gRPC server (gRPC, and the
// Connect and gRPC-Web calls that go through it) get a child of the gRPC server's span, as does a
// second call in one HTTP request. own tells whether the span is the chain's to end; when tracing is
// off the span does nothing.
func StartRPC(ctx context.Context, method string) (_ context.Context, span trace.Span, own bool) {
	if !Enabled() {
		return ctx, none, false
	}
	if d, ok := ctx.Value(doorKey{}).(*door); ok && d.span == trace.SpanFromContext(ctx) && d.taken.CompareAndSwap(false, true) {
		d.span.SetName(method)
		return ctx, d.span, false
	}
	ctx, span = tracer().Start(ctx, method, trace.WithSpanKind(trace.SpanKindInternal))
	return ctx, span, true
}

// EndHTTP ends a span of StartHTTP with the answer's status (0: none written, net/http sends 200);
// a 5xx is the span's error.
func EndHTTP(span trace.Span, status int) {
	if !span.IsRecording() {
		return
	}
	if status == 0 {
		status = http.StatusOK
	}
	span.SetAttributes(attribute.Int("http.response.status_code", status))
	if status >= 500 {
		span.SetStatus(codes.Error, http.StatusText(status))
	}
	span.End()
}

// GRPCServerOptions are the gRPC server's: a server span per call (the traceparent of its
// metadata continued). None when tracing is off.
func GRPCServerOptions() []grpc.ServerOption {
	if !Enabled() {
		return nil
	}
	return []grpc.ServerOption{grpc.StatsHandler(otelgrpc.NewServerHandler(otelgrpc.WithPropagators(propagator)))}
}
