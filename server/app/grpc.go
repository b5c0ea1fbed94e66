package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/reqctx"
)

// RequestIDHeader carries the request id from the gateway (and any gRPC client) to the server.
const RequestIDHeader = "x-request-id"

// gatewayHeader marks the RPCs the REST gateway makes: their HTTP request already has its log line,
// so the RPC line is logged at debug level only (one line per request at info).
const gatewayHeader = "x-catalogd-gateway"

type interceptors struct {
	log      *slog.Logger
	verifier *auth.Verifier
	scopes   map[string]string
	// rules is the request rule check of every API method (fields.Request), keyed like scopes.
	rules   map[string]*fields.Request
	metrics *metrics
}

// unary is the one chain every RPC passes, REST calls included (the gateway dials the gRPC server):
// request id and logging, metrics, panic recovery, error normalisation, then authentication and scope,
// then the request rules declared in proto ((catalog.v1.rules), the ones the OpenAPI document
// publishes): a request that breaks one never reaches its handler.
func (ic *interceptors) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	start := time.Now()
	md, _ := metadata.FromIncomingContext(ctx)
	rid := first(md, RequestIDHeader)
	if rid == "" || len(rid) > 128 {
		rid = uuid.NewString()
	}
	ctx = reqctx.WithRequestID(ctx, rid)
	_ = grpc.SetHeader(ctx, metadata.Pairs(RequestIDHeader, rid))
	defer func() {
		if p := recover(); p != nil {
			ic.log.ErrorContext(ctx, "panic", "method", info.FullMethod, "panic", p, "stack", string(debug.Stack()))
			err = apierr.New(apierr.Internal, "internal error")
		}
		code := status.Code(err)
		ic.metrics.observe(info.FullMethod, code, time.Since(start))
		lvl := slog.LevelInfo
		if first(md, gatewayHeader) != "" {
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
	if ctx, err = ic.authorize(ctx, info.FullMethod, md); err != nil {
		return nil, err
	}
	if err = ic.checkRules(info.FullMethod, req); err != nil {
		return nil, err
	}
	resp, err = handler(ctx, req)
	return resp, ic.normalize(ctx, info.FullMethod, err)
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
// cancellations stay cancellations; everything else is logged and becomes INTERNAL.
func (ic *interceptors) normalize(ctx context.Context, method string, err error) error {
	if err == nil {
		return nil
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
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

// authorizeHeader is authorize for an HTTP Authorization header (the gateway's pre-check).
func (ic *interceptors) authorizeHeader(ctx context.Context, method, authorization string) error {
	_, err := ic.authorize(ctx, method, metadata.Pairs("authorization", authorization))
	return err
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
	ctx = reqctx.WithPrincipal(ctx, &reqctx.Principal{Tenant: p.Tenant, Subject: p.Subject, Scopes: p.Scopes})
	if scope != ScopeAuthenticated && !p.HasScope(scope) {
		return ctx, apierr.New(apierr.Forbidden, "this operation needs the scope %s", scope).WithMeta("requiredScope", scope)
	}
	return ctx, nil
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
