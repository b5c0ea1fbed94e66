package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/limits"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/transfer"
)

// The front door of the REST facade (docs/design.md "Front door: limits and rate limits"): a
// gateway middleware that runs, for every routed request and before the body is read, what the
// gRPC interceptor would otherwise do only after the gateway had decoded the whole body:
//
//  1. the token and the operation's scope (exactly one Authorization header): 401/403;
//  2. the tenant's token bucket (429 with Retry-After; RateLimit-Policy and RateLimit on every
//     answer);
//  3. an empty If-Match, path and query parameters: invalid UTF-8 or U+0000 in any of them is 400
//     naming it;
//  4. one of the tenant's concurrency slots (half the database pool), held until the answer, so
//     that the bodies one tenant has in memory are bounded too;
//  5. the body, only on operations that take one (any other body is never read): a JSON
//     Content-Type (415 otherwise), at most MaxBodyBytes (413), read under a deadline (408).
//
// The gRPC interceptor checks the token and scope again (it is also the door of direct gRPC calls).

// bodyReadTimeout is how long a client has to send a whole request body.
var bodyReadTimeout = 10 * time.Second

// requestTimeout is the deadline of every RPC (REST calls included): a caller's shorter deadline is
// kept, a longer one or none is cut to this.
const requestTimeout = 30 * time.Second

// concurrencyWait is how long a request waits for one of its tenant's slots before 429.
const concurrencyWait = 500 * time.Millisecond

// newLimiter is the per-tenant limiter of the configuration: CATALOG_RATE_LIMIT_RPS/BURST, and a
// concurrency cap of half the database pool; RPS 0 turns both off.
func newLimiter(cfg Config, d *store.DB, reg prometheus.Registerer) *limits.Limiter {
	conc := 0
	if d != nil && d.Pool != nil {
		conc = max(1, int(d.Pool.Config().MaxConns)/2)
	}
	return limits.New(limits.Config{RPS: cfg.RateLimitRPS, Burst: cfg.RateLimitBurst, Concurrency: conc,
		Wait: concurrencyWait}, reg)
}

// route is what the front door knows of one REST route.
type route struct {
	rpc      string // full gRPC method name
	verb     string
	template string // the google.api.http path template
	body     bool   // the rule maps a body
	// params maps each path variable (a request field name) to its JSON name.
	params map[string]string
}

// restRoutes reads the google.api.http rule of every method, keyed by verb and the gateway's own
// form of the path pattern (runtime.Pattern.String: `{uuid=*}`), which the middleware looks up
// with runtime.HTTPPattern.
func restRoutes(services []Service) (map[string]*route, error) {
	out := map[string]*route{}
	err := eachMethod(services, func(name string, m protoreflect.MethodDescriptor) error {
		rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule)
		if rule == nil {
			return fmt.Errorf("method %s has no google.api.http rule", name)
		}
		for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
			rt := &route{rpc: name, body: r.GetBody() != "", params: map[string]string{}}
			switch p := r.GetPattern().(type) {
			case *annotations.HttpRule_Get:
				rt.verb, rt.template = http.MethodGet, p.Get
			case *annotations.HttpRule_Post:
				rt.verb, rt.template = http.MethodPost, p.Post
			case *annotations.HttpRule_Patch:
				rt.verb, rt.template = http.MethodPatch, p.Patch
			case *annotations.HttpRule_Put:
				rt.verb, rt.template = http.MethodPut, p.Put
			case *annotations.HttpRule_Delete:
				rt.verb, rt.template = http.MethodDelete, p.Delete
			default:
				return fmt.Errorf("method %s: unsupported HTTP pattern", name)
			}
			for _, v := range templateVar.FindAllStringSubmatch(rt.template, -1) {
				rt.params[v[1]] = v[1]
				if f := m.Input().Fields().ByName(protoreflect.Name(v[1])); f != nil {
					rt.params[v[1]] = f.JSONName()
				}
			}
			key := rt.verb + " " + patternString(rt.template)
			if prev, dup := out[key]; dup {
				return fmt.Errorf("%s is the route of %s and %s", key, prev.rpc, name)
			}
			out[key] = rt
		}
		return nil
	})
	return out, err
}

var templateVar = regexp.MustCompile(`\{([^}=]+)(=[^}]*)?\}`)

// patternString writes a path template as runtime.Pattern.String does: `{x}` is `{x=*}`.
func patternString(tmpl string) string {
	return templateVar.ReplaceAllStringFunc(tmpl, func(s string) string {
		if strings.Contains(s, "=") {
			return s
		}
		return s[:len(s)-1] + "=*}"
	})
}

// frontDoor is the REST middleware (see the top of this file).
type frontDoor struct {
	ic     *interceptors
	routes map[string]*route
}

// newRESTGateway builds the gateway with the front door, registers every service on it over conn,
// and checks that every route the gateway serves is one the front door knows (so that no route
// would reach the body unchecked). The handler answers a path's 405 before the gateway routes
// (routeTable).
func newRESTGateway(ctx context.Context, services []Service, conn grpc.ClientConnInterface, ic *interceptors) (http.Handler, error) {
	routes, err := restRoutes(services)
	if err != nil {
		return nil, err
	}
	f := &frontDoor{ic: ic, routes: routes}
	table := newRouteTable(routes)
	h, err := table.serve(ctx, services, conn, func() *runtime.ServeMux { return newGateway(table, f.middleware) })
	if err != nil {
		return nil, err
	}
	return h, f.check(h)
}

// check replays one request per route (a sample path) under a probe and verifies that the gateway
// routes it to the pattern the front door maps to the same RPC.
func (f *frontDoor) check(gw http.Handler) error {
	for key, rt := range f.routes {
		pr := &probe{}
		sample := templateVar.ReplaceAllString(rt.template, "x")
		req, err := http.NewRequestWithContext(context.WithValue(context.Background(), probeKey{}, pr), rt.verb, sample, nil)
		if err != nil {
			return err
		}
		gw.ServeHTTP(discardWriter{}, req)
		if !pr.routed {
			return fmt.Errorf("front door: %s (%s) is not routed by the gateway", key, rt.rpc)
		}
		if got := f.routes[rt.verb+" "+pr.pattern]; got != rt {
			return fmt.Errorf("front door: %s %s (%s) is routed to pattern %s", rt.verb, sample, rt.rpc, pr.pattern)
		}
	}
	return nil
}

func (f *frontDoor) middleware(next runtime.HandlerFunc) runtime.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
		pat, _ := runtime.HTTPPattern(r.Context())
		rt := f.routes[r.Method+" "+pat.String()]
		if rt == nil { // not an API route (check makes sure every registered one is)
			next(w, r, params)
			return
		}
		ctx, release, err := f.ic.door(w, r, rt.rpc, func() *apierr.Error {
			// An empty If-Match, which the gateway would drop silently, is malformed (400), after
			// authentication like every other check of the request.
			if v, ok := r.Header["If-Match"]; ok && strings.TrimSpace(strings.Join(v, "")) == "" {
				return apierr.Field("If-Match", `must be * or a list of entity tags ("…")`)
			}
			return checkParams(rt, params, r.URL.RawQuery)
		})
		if err != nil {
			if err != errClientGone {
				WriteProblem(w, r, apierr.From(err))
			}
			return
		}
		defer release()
		// The call carries the path too (the Location of a create).
		r = r.WithContext(context.WithValue(ctx, pathKey{}, r.URL.Path))
		if rt.body {
			read := readBody
			if rt.rpc == transfer.InlineImportRPC && transfer.InlineFormat(r.Header.Get("Content-Type")) != "" {
				read = readInlineImport // the file itself as the body (inline.go)
				r = r.WithContext(context.WithValue(r.Context(), inlineKey{}, true))
			}
			if err := read(w, r); err != nil {
				WriteProblem(w, r, err)
				return
			}
		} else {
			// A body on an operation that takes none is ignored: never read, never decoded.
			r.Body, r.ContentLength = http.NoBody, 0
		}
		next(w, r, params)
	}
}

// errClientGone is door's error when the client went away while waiting: nothing is answered.
var errClientGone = errors.New("the client has gone")

// door is what each door of the HTTP port (REST's front door, the Connect/gRPC-Web door) does for
// a call of method before its body is read: the token and the method's scope (exactly one
// Authorization header), the tenant's token bucket, the Idempotency-Key's form (idempotency.go),
// then check (the route's own checks; may be nil), then one of the tenant's concurrency slots,
// held until release. The headers of the limits
// (RateLimit, RateLimit-Policy, Retry-After) go on w. The context it returns carries the call's
// admission: the chain neither verifies the token nor counts the tenant again.
func (ic *interceptors) door(w http.ResponseWriter, r *http.Request, method string, check func() *apierr.Error) (context.Context, func(), error) {
	ctx, err := ic.authorize(r.Context(), method, metadataOf(r.Header.Values("Authorization")))
	if err != nil {
		return nil, nil, err
	}
	tenant := reqctx.PrincipalFrom(ctx).Tenant
	if ic.limits.Enabled() {
		if refused, _ := ic.takeToken(tenant, setHeader(w)); refused != nil {
			return nil, nil, refused
		}
	}
	// The Idempotency-Key as sent: the gateway would drop a value that is not valid gRPC metadata
	// (non-ASCII, control characters) instead of refusing it.
	if _, _, err := ic.idem.key(method, metadata.MD{IdempotencyHeader: r.Header.Values("Idempotency-Key")}); err != nil {
		return nil, nil, err
	}
	if check != nil {
		if bad := check(); bad != nil {
			return nil, nil, bad
		}
	}
	// The slot is taken before the body is read: the bodies one tenant has in memory (or
	// trickling in) are bounded by its slots, not only by its token bucket.
	release, busy, err := ic.takeSlot(r.Context(), tenant, setHeader(w))
	if busy != nil {
		return nil, nil, busy
	}
	if err != nil {
		return nil, nil, errClientGone
	}
	return admit(ctx, admission{method: method, http: true}), release, nil
}

// setHeader sets the fields takeToken and takeSlot give on w's header.
func setHeader(w http.ResponseWriter) func(k string, v ...string) {
	return func(k string, v ...string) { w.Header()[http.CanonicalHeaderKey(k)] = v }
}

// metadataOf is the gRPC metadata of an HTTP request's Authorization header values.
func metadataOf(authorization []string) metadata.MD {
	return metadata.MD{"authorization": authorization}
}

// rateLimited is the 429 of an empty bucket.
func rateLimited(retry time.Duration) *apierr.Error {
	return apierr.New(apierr.RateLimited, "rate limit exceeded; retry after %d seconds", limits.Seconds(retry))
}

// printable is a parameter name as a problem may show it (invalid bytes and U+0000 replaced).
func printable(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", "\uFFFD"), "\uFFFD")
}

// checkParams refuses invalid UTF-8 and U+0000 in the path parameters and in the query (keys and
// values): 400 naming each parameter (a path parameter by its JSON name, a query parameter as
// written), in name order. The code is the one a body string gets for the same text (server/fields):
// bytes that are not UTF-8 cannot be read, MALFORMED_REQUEST; text that is read but holds U+0000 is
// refused, VALIDATION_FAILED.
func checkParams(rt *route, params map[string]string, rawQuery string) *apierr.Error {
	var bad []apierr.FieldViolation
	for k, v := range params {
		if msg := fields.StringViolation(v); msg != "" {
			name := rt.params[k]
			if name == "" {
				name = printable(k)
			}
			bad = append(bad, apierr.FieldViolation{Field: name, Message: msg})
		}
	}
	if rawQuery != "" {
		q, _ := url.ParseQuery(rawQuery) // a malformed query is the parser's to report
		for k, vs := range q {
			msg := fields.StringViolation(k)
			for _, v := range vs {
				if msg == "" {
					msg = fields.StringViolation(v)
				}
			}
			if msg != "" {
				bad = append(bad, apierr.FieldViolation{Field: printable(k), Message: msg})
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Slice(bad, func(i, j int) bool { return bad[i].Field < bad[j].Field })
	code := apierr.ValidationFailed
	parts := make([]string, len(bad))
	for i, f := range bad {
		parts[i] = f.Field + ": " + f.Message
		if f.Message == fields.MsgInvalidUTF8 {
			code = apierr.MalformedRequest
		}
	}
	return &apierr.Error{Code: code, Detail: strings.Join(parts, "; "), Fields: bad}
}

// jsonMediaType reports whether a Content-Type is JSON: application/json or application/*+json,
// with no charset or charset=utf-8. An absent Content-Type is taken as JSON.
func jsonMediaType(ct string) bool {
	if ct == "" {
		return true
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	if mt != "application/json" && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
}

// readBody checks a REST body's media type and coding, then reads it (readAll, at most
// MaxBodyBytes).
func readBody(w http.ResponseWriter, r *http.Request) *apierr.Error {
	if r.ContentLength == 0 {
		r.Body = http.NoBody
		return nil
	}
	if ct := r.Header.Get("Content-Type"); !jsonMediaType(ct) {
		return apierr.New(apierr.UnsupportedMedia, "the request body must be JSON (Content-Type: application/json), not %s",
			strconv.Quote(printable(ct)))
	}
	if err := refuseCoding(w, r, "; send plain JSON"); err != nil {
		return err
	}
	_, err := readAll(w, r, MaxBodyBytes)
	return err
}

// refuseCoding refuses a request body with a content coding: none is supported (RFC 9110
// §15.5.16: 415 for an unsupported one), as a gzip body would otherwise be read as its bytes, and
// a body labelled gzip but plain stored as is. hint ends the message.
func refuseCoding(w http.ResponseWriter, r *http.Request, hint string) *apierr.Error {
	ce, coded := contentCoding(r.Header, "Content-Encoding")
	if !coded {
		return nil
	}
	w.Header().Set("Accept-Encoding", "identity")
	return apierr.New(apierr.UnsupportedMedia, "request bodies are not accepted with a Content-Encoding (%s)%s",
		strconv.Quote(printable(ce)), hint)
}

// contentCoding reports whether the header name (Content-Encoding, Grpc-Encoding…) gives a request
// body a coding, and which (its values joined, for the refusal to name). No coding is accepted:
// only no header or exactly identity passes.
func contentCoding(h http.Header, name string) (coding string, coded bool) {
	vs := h.Values(name)
	if len(vs) == 0 || (len(vs) == 1 && strings.EqualFold(strings.TrimSpace(vs[0]), "identity")) {
		return "", false
	}
	return strings.Join(vs, ", "), true
}

// readAll reads the whole body of r (at most max bytes, within bodyReadTimeout) into memory, puts
// it back as r.Body and returns it: a slow client cannot hold the request, and the decoder reads
// from memory.
func readAll(w http.ResponseWriter, r *http.Request, max int64) ([]byte, *apierr.Error) {
	if r.ContentLength > max {
		return nil, payloadTooLarge()
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(bodyReadTimeout)) // not supported by test recorders
	// The buffer grows with what arrives: a declared Content-Length reserves at most 64 KiB up front.
	size := min(r.ContentLength, 64<<10)
	if size < 0 {
		size = 512
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+1))
	_, err := buf.ReadFrom(io.LimitReader(r.Body, max+1))
	_ = rc.SetReadDeadline(time.Time{})
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		return nil, apierr.New(apierr.RequestTimeout, "the request body was not received within %s", bodyReadTimeout)
	case int64(buf.Len()) > max:
		w.Header().Set("Connection", "close")
		return nil, payloadTooLarge()
	case err != nil:
		w.Header().Set("Connection", "close")
		return nil, apierr.New(apierr.MalformedRequest, "the request body could not be read")
	}
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(buf.Bytes())), int64(buf.Len())
	return buf.Bytes(), nil
}
