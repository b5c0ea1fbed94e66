package app

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/openapi"
	"github.com/catalogd/catalogd/server/queryparam"
	"github.com/catalogd/catalogd/server/reqctx"
)

// MaxBodyBytes is the largest request body (DESIGN.md: over 1 MiB is 413).
const MaxBodyBytes = 1 << 20

// MaxHeaderBytes bounds a request's line and headers (net/http answers 431 beyond it). Go's default,
// 1 MiB, let 800 anonymous connections with unfinished headers hold ~1 GB for the 10 s header
// timeout (an outside audit); 64 KiB is 8× the usual proxies' limit and far above any token.
const MaxHeaderBytes = 64 << 10

// retryAfterSeconds is the Retry-After of a 503 (DESIGN.md: UNAVAILABLE comes with Retry-After).
const retryAfterSeconds = "5"

// newGateway is the REST facade: the JSON codec of the spec, strict query parameters, problem
// errors and the status codes of DESIGN.md.
//
// middlewares run around every handler after routeProbe (the front door: auth, limits and the body
// before the handler decodes it; so a bad token is 401 and a missing scope 403 whatever the body).
// The method is always the request's: X-HTTP-Method-Override and the gateway's form-POST-as-GET
// fallback are off.
func newGateway(table *routeTable, middlewares ...runtime.Middleware) *runtime.ServeMux {
	return runtime.NewServeMux(
		runtime.WithMarshalerOption(runtime.MIMEWildcard, &jsonpb.Marshaler{}),
		queryParser(),
		runtime.WithDisableHTTPMethodOverride(),
		runtime.WithDisablePathLengthFallback(),
		runtime.WithMiddlewares(append([]runtime.Middleware{routeProbe, notModified}, middlewares...)...),
		runtime.WithErrorHandler(func(ctx context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
			if probing(r) {
				return
			}
			if md, ok := runtime.ServerMetadataFromContext(ctx); ok && len(md.HeaderMD.Get(IdempotencyReplayedHeader)) > 0 {
				w.Header().Set("Idempotency-Replayed", "true") // a stored 4xx, replayed
			}
			WriteProblem(w, r, apierr.From(err))
		}),
		runtime.WithRoutingErrorHandler(func(ctx context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, r *http.Request, status int) {
			if probing(r) {
				return
			}
			// The route table answers every 405 before the gateway routes (routeTable.wrap); one
			// the gateway still finds is answered the same way.
			if allow := table.allowed(r); status == http.StatusMethodNotAllowed && allow != nil {
				methodNotAllowed(w, r, allow)
				return
			}
			WriteProblem(w, r, apierr.New(apierr.NotFound, "no resource at %s", r.URL.Path))
		}),
		runtime.WithForwardResponseOption(etagHeader), // before successStatus writes the status
		runtime.WithForwardResponseOption(successStatus),
		runtime.WithForwardResponseRewriter(withoutOmitted),
		runtime.WithIncomingHeaderMatcher(func(k string) (string, bool) {
			// The gateway passes Authorization on by itself (every value): matching it here too
			// would send each value twice.
			if strings.EqualFold(k, RequestIDHeader) {
				return RequestIDHeader, true
			}
			if md, ok := etagMetadata(k); ok { // etag.go
				return md, true
			}
			if strings.EqualFold(k, IdempotencyHeader) { // idempotency.go; only POST and PATCH use it
				return IdempotencyHeader, true
			}
			if strings.EqualFold(k, ConsistencyHeader) { // grpc.go: route; only GETs use it
				return ConsistencyHeader, true
			}
			return "", false
		}),
		// gRPC response metadata is not an HTTP API: nothing leaks as Grpc-Metadata-* headers, except
		// the replay mark of an Idempotency-Key (idempotency.go).
		runtime.WithOutgoingHeaderMatcher(func(k string) (string, bool) {
			if k == IdempotencyReplayedHeader {
				return "Idempotency-Replayed", true
			}
			return "", false
		}),
		runtime.WithOutgoingTrailerMatcher(func(string) (string, bool) { return "", false }),
	)
}

// The gateway's query parameter parser is a process-wide setting: set it once, so that several
// servers in one process (tests) do not race on it.
var queryParserOnce sync.Once

func queryParser() runtime.ServeMuxOption {
	return func(mux *runtime.ServeMux) {
		queryParserOnce.Do(func() { runtime.SetQueryParameterParser(&queryparam.Parser{})(mux) })
	}
}

// A route is probed (the start-up check of the front door, front.go) by replaying a request under a
// probe context: routeProbe (a middleware around every registered handler) records that a route
// matched and its pattern, and returns without serving; the error handlers stay silent for probes.

type probeKey struct{}

// probe is what a probe request records: whether a route matched, and its pattern.
type probe struct {
	routed  bool
	pattern string
}

// probeMethods are the methods the API's HTTP rules use.
var probeMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// routeProbe marks a probe as routed instead of serving it.
func routeProbe(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		if p, ok := r.Context().Value(probeKey{}).(*probe); ok {
			p.routed = true
			if pat, ok := runtime.HTTPPattern(r.Context()); ok {
				p.pattern = pat.String()
			}
			return
		}
		next(w, r, params)
	}
}

func probing(r *http.Request) bool {
	_, ok := r.Context().Value(probeKey{}).(*probe)
	return ok
}

// Which methods a path has (the 405 and its Allow header) is decided once, from the HTTP rules,
// before the gateway routes: a path belongs to the most specific route shape that matches it (its
// template with every variable as one non-empty segment; at the first segment where two shapes
// differ, a literal beats a variable), and only the methods of that shape are allowed on it. So
// GET /v1/tags/bulk is 405 (Allow: POST, PATCH) instead of falling into GET /v1/tags/{uuid} (400),
// and a 405's Allow lists only the methods the path itself has.

// routeTable is the route shapes of the HTTP rules and the methods of each, indexed by their
// length and first two segments (every API path starts with literals: /v1/<family>).
type routeTable struct {
	shapes []*routeShape
	byHead map[shapeHead][]*routeShape
}

type shapeHead struct {
	n      int
	s0, s1 string
}

type routeShape struct {
	segs    []string // a literal segment, or "" for a variable
	methods []string // in probeMethods' order
	// rpcs is each method's RPC; gateways its service's own gateway (routeTable.serve).
	rpcs     map[string]string
	gateways map[string]http.Handler
}

// newRouteTable reads the shapes of the front door's routes.
func newRouteTable(routes map[string]*route) *routeTable {
	byKey := map[string]*routeShape{}
	t := &routeTable{byHead: map[shapeHead][]*routeShape{}}
	for _, rt := range routes {
		segs := strings.Split(strings.TrimPrefix(rt.template, "/"), "/")
		for i, s := range segs {
			if strings.HasPrefix(s, "{") {
				segs[i] = ""
			}
		}
		key := strings.Join(segs, "/")
		sh := byKey[key]
		if sh == nil {
			sh = &routeShape{segs: segs, rpcs: map[string]string{}, gateways: map[string]http.Handler{}}
			byKey[key] = sh
			t.shapes = append(t.shapes, sh)
			h := shapeHead{n: len(segs), s0: segs[0]}
			if len(segs) > 1 {
				h.s1 = segs[1]
			}
			t.byHead[h] = append(t.byHead[h], sh)
		}
		if !slices.Contains(sh.methods, rt.verb) {
			sh.methods = append(sh.methods, rt.verb)
		}
		sh.rpcs[rt.verb] = rt.rpc
	}
	for _, sh := range t.shapes {
		slices.SortFunc(sh.methods, func(a, b string) int { return slices.Index(probeMethods, a) - slices.Index(probeMethods, b) })
	}
	return t
}

// shape is the most specific shape that matches the path (RawPath when the path has escapes, as
// the gateway matches), nil when none does (the gateway's 404).
func (t *routeTable) shape(r *http.Request) *routeShape {
	path := r.URL.Path
	if r.URL.RawPath != "" {
		path = r.URL.RawPath
	}
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	// A shape whose first or second segment is a variable is filed under "" there.
	h := shapeHead{n: len(segs), s0: segs[0]}
	if len(segs) > 1 {
		h.s1 = segs[1]
	}
	heads := [...]shapeHead{h, {h.n, h.s0, ""}, {h.n, "", h.s1}, {h.n, "", ""}}
	var best *routeShape
	for i, head := range heads {
		if slices.Contains(heads[:i], head) {
			continue
		}
		for _, sh := range t.byHead[head] {
			if sh.matches(segs) && (best == nil || sh.moreSpecific(best)) {
				best = sh
			}
		}
	}
	return best
}

// allowed is the methods of the path's shape, nil when it has none.
func (t *routeTable) allowed(r *http.Request) []string {
	if sh := t.shape(r); sh != nil {
		return sh.methods
	}
	return nil
}

func (sh *routeShape) matches(segs []string) bool {
	if len(sh.segs) != len(segs) {
		return false
	}
	for i, s := range sh.segs {
		if (s == "" && segs[i] == "") || (s != "" && s != segs[i]) {
			return false
		}
	}
	return true
}

// moreSpecific reports whether sh has a literal at the first segment where it differs from o.
func (sh *routeShape) moreSpecific(o *routeShape) bool {
	for i := range sh.segs {
		if (sh.segs[i] == "") != (o.segs[i] == "") {
			return sh.segs[i] != ""
		}
	}
	return false
}

// Routing: the gateway (runtime.ServeMux) tries every pattern of the method in turn, and a pattern
// that does not match costs its MatchAndEscape and an errors.As: with the API's ~150 GET patterns
// that was a fifth of the REST machinery's CPU for a GET by uuid. The route table finds the path's
// shape at once (by its head), answers 405 when the shape lacks the method, and hands the request
// to the gateway of the service whose RPC the shape's method is: a gateway with that service's
// patterns alone (its handlers, middlewares and options are the same). A path of no shape goes to
// the gateway of every service (its 404, or a route the shapes do not describe).

// serve is the REST facade: services' gateways made by gateway, each registered with its service
// alone (and one with every service, for paths of no shape), dispatched by shape and method.
func (t *routeTable) serve(ctx context.Context, services []Service, conn grpc.ClientConnInterface, gateway func() *runtime.ServeMux) (http.Handler, error) {
	all := gateway()
	for _, svc := range services {
		own := gateway()
		for _, gw := range []*runtime.ServeMux{all, own} {
			if err := svc.Gateway(ctx, gw, conn); err != nil {
				return nil, err
			}
		}
		prefix := "/" + svc.Desc.ServiceName + "/"
		for _, sh := range t.shapes {
			for verb, rpc := range sh.rpcs {
				if strings.HasPrefix(rpc, prefix) {
					sh.gateways[verb] = own
				}
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sh := t.shape(r)
		if sh == nil {
			all.ServeHTTP(w, r)
			return
		}
		gw := sh.gateways[r.Method]
		if gw == nil {
			methodNotAllowed(w, r, sh.methods)
			return
		}
		gw.ServeHTTP(w, r)
	}), nil
}

// methodNotAllowed is the 405 of a path whose methods are allow (HEAD listed after GET).
func methodNotAllowed(w http.ResponseWriter, r *http.Request, allow []string) {
	allow = withHead(allow)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	WriteProblem(w, r, apierr.New(apierr.MethodNotAllowed, "%s is not allowed on %s; allowed: %s", clientMethod(r), r.URL.Path, strings.Join(allow, ", ")))
}

// discardWriter is the response writer of a probe: nothing is ever written to it.
type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}

// payloadTooLarge is the one 413 of the API, whichever check refused the body.
func payloadTooLarge() *apierr.Error {
	return apierr.New(apierr.PayloadTooLarge, "request body exceeds %d bytes", MaxBodyBytes)
}

// successStatus sets the success status of the RPC's naming convention (openapi.SuccessStatus,
// which the OpenAPI document publishes): 201 for creates and initiates, with Location on single
// ones (an initiate's is its file's: the path before /actions/ plus the file's uuid), 204 for
// deletes, else 200 (left to the gateway).
// withoutOmitted writes the answer of an RPC that leaves fields of its resource out (the attribute
// of a create, bulk or lifecycle answer: openapi.AnswerOmits) without them.
func withoutOmitted(ctx context.Context, resp proto.Message) (any, error) {
	resp = inlineAnswer(ctx, resp)
	method, ok := runtime.RPCMethod(ctx)
	if !ok {
		return resp, nil
	}
	omit := openapi.AnswerOmits(protoreflect.FullName(strings.ReplaceAll(strings.TrimPrefix(method, "/"), "/", ".")))
	if omit == nil {
		return resp, nil
	}
	var body any = resp
	if rb, ok := resp.(interface{ XXX_ResponseBody() any }); ok {
		body = rb.XXX_ResponseBody()
	}
	return jsonpb.Without{Body: body, Fields: omit}, nil
}

func successStatus(ctx context.Context, w http.ResponseWriter, resp proto.Message) error {
	method, ok := runtime.RPCMethod(ctx)
	if !ok {
		return nil
	}
	status, location := openapi.SuccessStatus(method[strings.LastIndex(method, "/")+1:])
	if location {
		if id := createdUUID(resp); id != "" {
			if p, ok := ctx.Value(pathKey{}).(string); ok {
				if i := strings.LastIndex(p, "/actions/"); i > 0 {
					p = p[:i]
				}
				w.Header().Set("Location", strings.TrimSuffix(p, "/")+"/"+id)
			}
		}
	}
	switch status {
	case http.StatusCreated:
		w.WriteHeader(http.StatusCreated)
	case http.StatusNoContent:
		w.Header().Del("Content-Type")
		w.WriteHeader(http.StatusNoContent)
	}
	return nil
}

// createdUUID finds the uuid of the resource a Create response carries (its one message field), or
// of the file an Initiate response's upload carries (one level further down).
func createdUUID(resp proto.Message) string { return createdUUIDIn(resp.ProtoReflect(), 2) }

func createdUUIDIn(m protoreflect.Message, depth int) string {
	fs := m.Descriptor().Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if f.Kind() == protoreflect.MessageKind && !f.IsList() && !f.IsMap() && m.Has(f) {
			inner := m.Get(f).Message()
			if u := inner.Descriptor().Fields().ByName("uuid"); u != nil {
				return inner.Get(u).String()
			}
			if depth > 1 {
				if id := createdUUIDIn(inner, depth-1); id != "" {
					return id
				}
			}
		}
	}
	return ""
}

// WriteProblem writes e as application/problem+json (apierr.WriteProblem). It is the one writer of
// the API's problem bodies, so it also holds the rules no path may break: a 413 always says the body
// limit (whatever refused the body), an INTERNAL never says more than "internal error" (apierr), a
// 401 carries WWW-Authenticate and a 503 Retry-After.
func WriteProblem(w http.ResponseWriter, r *http.Request, e *apierr.Error) {
	if e.Code == apierr.PayloadTooLarge {
		e = payloadTooLarge()
	}
	recordCode(r.Context(), e.Code.GRPCCode())
	h := w.Header()
	switch e.Code.HTTPStatus() {
	case http.StatusUnauthorized:
		h.Set("WWW-Authenticate", `Bearer realm="catalogd"`)
	case http.StatusServiceUnavailable:
		if h.Get("Retry-After") == "" {
			h.Set("Retry-After", retryAfterSeconds)
		}
	}
	apierr.WriteProblem(w, e, r.URL.Path, reqctx.RequestID(r.Context()))
}

// pathKey carries the request's path to successStatus (the Location of a create); the front door
// sets it.
type pathKey struct{}
