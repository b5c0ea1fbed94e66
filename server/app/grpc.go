package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	otelcodes "go.opentelemetry.io/otel/codes"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/limits"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

// RequestIDHeader carries the request id from the gateway (and any gRPC client) to the server.
const RequestIDHeader = "x-request-id"

type interceptors struct {
	log      *slog.Logger
	verifier tokenVerifier
	scopes   map[string]string
	// rules is the request rule check of every API method (fields.Request), keyed like scopes.
	rules map[string]*fields.Request
	// reads are the methods a read replica may serve (ReadMethods), keyed like scopes.
	reads   map[string]bool
	metrics *metrics
	// limits are the per-tenant rate and concurrency limits (nil or disabled: none).
	limits *limits.Limiter
	// onTenant, when set (catalogd mock: demoSeeder.ensure), runs for every authenticated call
	// before its scope is checked; an error refuses the call.
	onTenant func(ctx context.Context, tenant string) error
	// idem runs POST and PATCH calls with an Idempotency-Key (idempotency.go; nil: keys ignored).
	idem *idempotency
}

// tokenVerifier checks a bearer token (auth.Verifier).
type tokenVerifier interface {
	Verify(ctx context.Context, token string) (*auth.Principal, error)
}

// newServer makes the gRPC server of the services (health and reflection are added by the caller).
// Its chain is the one the REST gateway's in-process connection runs too (ic.chain, localConn). A
// request message over MaxBodyBytes is the API's PAYLOAD_TOO_LARGE (sizeCodec; grpc itself refuses,
// with its own text, messages over grpc's default 4 MiB, which are never read).
func (ic *interceptors) newServer(services []Service, codec encoding.CodecV2) *grpc.Server {
	opts := append([]grpc.ServerOption{grpc.UnaryInterceptor(ic.chain), grpc.ForceServerCodecV2(sizeCodec{inner: codec, max: MaxBodyBytes}),
		grpc.InTapHandle(ic.tap), grpc.MaxConcurrentStreams(maxStreams)}, tracing.GRPCServerOptions()...)
	srv := grpc.NewServer(opts...)
	for _, svc := range services {
		srv.RegisterService(svc.Desc, svc.Impl)
	}
	return srv
}

// admission is what a transport's door established before the request message was read, once per
// call: the caller is authenticated and holds the method's scope (the principal is in the context,
// reqctx). The HTTP port's doors (REST's front door, the Connect/gRPC-Web door) also applied the
// tenant's limits and log the request themselves; the gRPC tap (direct calls) did not: the chain
// does both for them. Only the doors put an admission in a context, so nothing a client sends can
// make the chain skip a check.
type admission struct {
	method string // the one RPC admitted (a call of another method in that context is not admitted)
	http   bool   // admitted by a door of the HTTP port (ic.door): limits applied, its own log line
}

type admissionKey struct{}

func admit(ctx context.Context, a admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, a)
}

// admissionOf is the admission of method in ctx, if a door made one for it.
func admissionOf(ctx context.Context, method string) (admission, bool) {
	a, ok := ctx.Value(admissionKey{}).(admission)
	if !ok || a.method != method {
		return admission{}, false
	}
	return a, true
}

// maxStreams bounds the calls one gRPC connection has open at once.
const maxStreams = 100

// tap authenticates a direct gRPC call from its headers, before grpc reads the request message: a
// call without a valid token or scope is refused at once and its message is never buffered (else an
// anonymous client could make grpc hold up to 4 MiB per stream, with no deadline, on as many
// streams as it likes — the gRPC counterpart of the REST front door's auth before the body). The
// call's context carries the admission: the chain does not verify the token again. A refusal here
// is not logged.
func (ic *interceptors) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	ctx, err := ic.authorize(ctx, info.FullMethodName, info.Header)
	if err != nil {
		return ctx, err
	}
	return admit(ctx, admission{method: info.FullMethodName}), nil
}

// tooLargeField is the unknown field sizeCodec marks an over-size request with (the largest field
// number but one: fields.ServerCodec uses the largest).
const tooLargeField protowire.Number = protowire.MaxValidNumber - 1

// sizeCodec is the gRPC server's codec: an API request message over max bytes is not decoded;
// it is left empty with a marker (tooLargeField) that the interceptor, after authentication,
// answers with PAYLOAD_TOO_LARGE. (A codec error would be grpc's own INTERNAL, and grpc's own
// size limit answers with its own text before any interceptor runs.)
type sizeCodec struct {
	inner encoding.CodecV2
	max   int
}

func (c sizeCodec) Name() string                           { return c.inner.Name() }
func (c sizeCodec) Marshal(v any) (mem.BufferSlice, error) { return c.inner.Marshal(v) }

func (c sizeCodec) Unmarshal(data mem.BufferSlice, v any) error {
	if n := data.Len(); n > c.max {
		if m, ok := v.(proto.Message); ok && strings.HasPrefix(string(m.ProtoReflect().Descriptor().FullName()), "catalog.v1.") {
			proto.Reset(m)
			b := protowire.AppendTag(nil, tooLargeField, protowire.VarintType)
			m.ProtoReflect().SetUnknown(protowire.AppendVarint(b, uint64(n)))
			return nil
		}
	}
	return c.inner.Unmarshal(data, v)
}

// tooLarge reports whether sizeCodec marked req.
func tooLarge(req any) bool {
	m, ok := req.(proto.Message)
	if !ok {
		return false
	}
	num, typ, n := protowire.ConsumeTag(m.ProtoReflect().GetUnknown())
	return n > 0 && num == tooLargeField && typ == protowire.VarintType
}

// chain is the one interceptor chain every RPC passes, gRPC and REST calls alike (the gateway's
// localConn runs it in process): a deadline (requestTimeout at most), request id and logging,
// metrics, panic recovery, error normalisation, then authentication and scope (done by the
// transport's door when the context holds its admission: never twice), the tenant's limits (direct
// calls: the REST front door applied them to REST calls), then the request rules declared in proto
// ((catalog.v1.rules), the ones the OpenAPI document publishes): a request that breaks one never
// reaches its handler. A POST or PATCH with an Idempotency-Key then runs in the transaction that
// stores its answer, or gets the stored answer (idempotency.go).
func (ic *interceptors) chain(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	start := time.Now()
	adm, admitted := admissionOf(ctx, info.FullMethod)
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > requestTimeout {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, requestTimeout)
		defer cancel()
	}
	md, _ := metadata.FromIncomingContext(ctx)
	rid := first(md, RequestIDHeader)
	if !validRequestID(rid) {
		rid = uuid.NewString()
	}
	ctx = reqctx.WithRequestID(ctx, rid)
	_ = grpc.SetHeader(ctx, metadata.Pairs(RequestIDHeader, rid))
	// The chain's span, the parent of the handler's SQL statements: a REST call's HTTP server span,
	// a child of the gRPC server's span otherwise (tracing.StartRPC). Its attributes are set once,
	// when it ends (the span's name is the method already).
	ctx, span, ownSpan := tracing.StartRPC(ctx, info.FullMethod)
	defer func() {
		if p := recover(); p != nil {
			ic.log.ErrorContext(ctx, "panic", "method", info.FullMethod, "panic", p, "stack", string(debug.Stack()))
			err = apierr.New(apierr.Internal, "internal error")
		}
		code := status.Code(err)
		if span.IsRecording() {
			attrs := append(make([]attribute.KeyValue, 0, 3), attribute.String("rpc.grpc.status_code", code.String()),
				attribute.String("catalogd.request_id", rid))
			if p := reqctx.PrincipalFrom(ctx); p != nil {
				attrs = append(attrs, attribute.String("catalogd.tenant", p.Tenant))
			}
			span.SetAttributes(attrs...)
			if code == codes.Internal || code == codes.Unknown {
				span.SetStatus(otelcodes.Error, code.String())
			}
			if ownSpan {
				span.End()
			}
		}
		recordCode(ctx, code) // the HTTP request's log line names it (requestLog)
		ic.metrics.observe(info.FullMethod, code, time.Since(start))
		lvl := slog.LevelInfo
		if adm.http || ctx.Value(seedingKey{}) != nil { // the HTTP request has its own log line; the mock's seed one for all
			lvl = slog.LevelDebug
		}
		if code == codes.Internal || code == codes.Unknown {
			lvl = slog.LevelError
		}
		attrs := []any{"method", info.FullMethod, "code", code.String(), "duration_ms", float64(time.Since(start).Microseconds()) / 1000}
		if p := reqctx.PrincipalFrom(ctx); p != nil {
			attrs = append(attrs, "tenant", p.Tenant)
		}
		ic.log.Log(ctx, lvl, "rpc", attrs...)
	}()
	if !admitted {
		if ctx, err = ic.authorize(ctx, info.FullMethod, md); err != nil {
			return nil, err
		}
	}
	if tooLarge(req) {
		return nil, payloadTooLarge()
	}
	// The mock's demo seed is not the tenant's own traffic: it spends none of its limits.
	if p := reqctx.PrincipalFrom(ctx); !adm.http && p != nil && ic.limits.Enabled() && ctx.Value(seedingKey{}) == nil {
		release, err := ic.limit(ctx, p.Tenant)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	key, keyed, err := ic.idem.key(info.FullMethod, md)
	if err != nil {
		return nil, err
	}
	if err = ic.checkRules(info.FullMethod, req); err != nil {
		return nil, err
	}
	if ctx, err = ic.route(ctx, info.FullMethod, md); err != nil {
		return nil, err
	}
	handler = withETags(info.FullMethod, keyed, handler) // etag.go: If-Match and the answer's etags
	if keyed {
		resp, err = ic.idem.run(ctx, info.FullMethod, key, req, handler, ic.normalize)
	} else {
		resp, err = handler(ctx, req)
	}
	return resp, ic.normalize(ctx, info.FullMethod, err)
}

// ConsistencyHeader is the metadata key (and, capitalised, the HTTP header Catalog-Consistency)
// of what a read may see: absent, every write made before it (read-your-writes); "eventual", a
// read replica's state within CATALOG_READ_MAX_LAG.
const ConsistencyHeader = "catalog-consistency"

// route marks the context of a read method (a GET) as a read a replica may serve (store.Routed),
// with the consistency the call asks for; an unknown Catalog-Consistency is 400, on every read
// whether or not replicas are configured. Writes ignore the header: they run on the primary.
func (ic *interceptors) route(ctx context.Context, method string, md metadata.MD) (context.Context, error) {
	if !ic.reads[method] {
		return ctx, nil
	}
	c, err := store.ParseConsistency(strings.Join(md.Get(ConsistencyHeader), ","))
	if err != nil {
		return ctx, apierr.Field("Catalog-Consistency", err.Error())
	}
	return store.Routed(ctx, c), nil
}

// checkRules enforces the (catalog.v1.rules) of the method's request (fields.Request.Check).
func (ic *interceptors) checkRules(method string, req any) error {
	rq, ok := ic.rules[method]
	if !ok {
		return nil // gRPC health and reflection: not API methods (authorize refuses any other)
	}
	m, ok := req.(proto.Message)
	if !ok {
		return fmt.Errorf("request of %s is a %T, not a message", method, req)
	}
	return rq.Check(m)
}

// normalize turns any error into a client-safe status: API errors keep their code and details;
// database outages are UNAVAILABLE (store.IsUnavailable); cancellations stay cancellations;
// everything else is logged and becomes INTERNAL.
func (ic *interceptors) normalize(ctx context.Context, method string, err error) error {
	if err == nil {
		return nil
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
	}
	if store.IsUnavailable(err) { // the database is unreachable or going away: 503 with Retry-After, never 500
		ic.log.WarnContext(ctx, "database unavailable", "method", method, "error", err.Error())
		return apierr.New(apierr.Unavailable, "the database is unavailable, try again later")
	}
	if errors.Is(err, context.Canceled) {
		return status.Error(codes.Canceled, "request cancelled")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return status.Error(codes.DeadlineExceeded, "deadline exceeded")
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	ic.log.ErrorContext(ctx, "internal error", "method", method, "error", err.Error())
	return apierr.New(apierr.Internal, "internal error")
}

// authorize checks the bearer token and the scope the method declares.
func (ic *interceptors) authorize(ctx context.Context, method string, md metadata.MD) (context.Context, error) {
	scope, ok := ic.scopes[method]
	if !ok {
		if strings.HasPrefix(method, "/grpc.health.") || strings.HasPrefix(method, "/grpc.reflection.") {
			return ctx, nil
		}
		return ctx, apierr.New(apierr.Forbidden, "method %s is not available", method)
	}
	if len(md.Get("authorization")) > 1 {
		return ctx, apierr.New(apierr.Unauthenticated, "exactly one Authorization header is allowed")
	}
	tok, err := auth.ParseBearer(first(md, "authorization"))
	if err != nil {
		return ctx, apierr.New(apierr.Unauthenticated, "%s", err.Error())
	}
	p, err := ic.verifier.Verify(ctx, tok)
	if err != nil {
		if errors.Is(err, auth.ErrUnavailable) {
			ic.log.ErrorContext(ctx, "token keys unavailable", "error", errors.Unwrap(err))
			return ctx, apierr.New(apierr.Unavailable, "token signing keys are unavailable, try again later")
		}
		return ctx, apierr.New(apierr.Unauthenticated, "%s", err.Error())
	}
	ctx = reqctx.WithPrincipal(ctx, &reqctx.Principal{Tenant: p.Tenant, Subject: p.Subject, ClientID: p.ClientID, Scopes: p.Scopes})
	if ic.onTenant != nil {
		if err := ic.onTenant(ctx, p.Tenant); err != nil {
			return ctx, err
		}
	}
	if scope != ScopeAuthenticated && !p.HasScope(scope) {
		return ctx, apierr.New(apierr.Forbidden, "this operation needs the scope %s", scope).WithMeta("requiredScope", scope)
	}
	return ctx, nil
}

// limit applies the tenant's token bucket and concurrency cap to a direct gRPC call: the RateLimit
// headers go out as response metadata; past a limit, RESOURCE_EXHAUSTED with ErrorInfo RATE_LIMITED
// and google.rpc.RetryInfo.
func (ic *interceptors) limit(ctx context.Context, tenant string) (release func(), err error) {
	hdr := metadata.MD{}
	refused, retry := ic.takeToken(tenant, hdr.Set)
	_ = grpc.SetHeader(ctx, hdr)
	if refused != nil {
		return nil, retryable(refused, retry)
	}
	release, busy, err := ic.takeSlot(ctx, tenant, func(string, ...string) {})
	if busy != nil {
		return nil, retryable(busy, time.Second)
	}
	return release, err
}

// takeToken spends one of the tenant's tokens (both transports: the REST front door and limit). It
// gives the RateLimit-Policy and RateLimit fields, and Retry-After when the bucket is empty, to set
// (HTTP headers or gRPC metadata); refused is then the 429, retry the time until a token.
func (ic *interceptors) takeToken(tenant string, set func(k string, v ...string)) (refused *apierr.Error, retry time.Duration) {
	d := ic.limits.Take(tenant)
	set("RateLimit-Policy", ic.limits.Policy())
	set("RateLimit", d.Header())
	if d.Allowed {
		return nil, 0
	}
	set("Retry-After", strconv.FormatInt(limits.Seconds(d.RetryAfter), 10))
	return rateLimited(d.RetryAfter), d.RetryAfter
}

// takeSlot holds one of the tenant's concurrency slots until release is called (both transports).
// When none frees up in time, busy is the 429 and Retry-After (1 s) goes to set; err is the
// context's when the caller went away meanwhile.
func (ic *interceptors) takeSlot(ctx context.Context, tenant string, set func(k string, v ...string)) (release func(), busy *apierr.Error, err error) {
	release, err = ic.limits.Acquire(ctx, tenant)
	if errors.Is(err, limits.ErrBusy) {
		set("Retry-After", "1")
		return nil, apierr.New(apierr.RateLimited, "too many requests of this tenant in progress; retry after 1 second"), nil
	}
	return release, nil, err
}

// retryable is e's status with a google.rpc.RetryInfo detail.
func retryable(e *apierr.Error, after time.Duration) error {
	st := e.GRPCStatus()
	if withRetry, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(after.Round(time.Second))}); err == nil {
		st = withRetry
	}
	return st.Err()
}

func first(md metadata.MD, k string) string {
	if v := md.Get(k); len(v) > 0 {
		return v[0]
	}
	return ""
}

// metrics are the Prometheus series of the API.
type metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_rpc_requests_total",
			Help: "RPCs handled (REST calls included), by method and gRPC code."}, []string{"method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "catalogd_rpc_duration_seconds",
			Help: "RPC latency by method.", Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}, []string{"method"}),
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

func (m *metrics) observe(method string, code codes.Code, d time.Duration) {
	m.requests.WithLabelValues(method, code.String()).Inc()
	m.latency.WithLabelValues(method).Observe(d.Seconds())
}
