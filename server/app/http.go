package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc/codes"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/queryparam"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

// httpParts are the handlers the HTTP port routes to.
type httpParts struct {
	gw      http.Handler // the /v1 REST facade (grpc-gateway with the front door)
	rpcWeb  http.Handler // Connect and gRPC-Web calls of the services (rpcweb.go)
	rpcPath []string     // the path prefixes of rpcWeb: /catalog.v1.<Service>/
	ops     *store.DB    // the readiness pool
	reg     *prometheus.Registry
	openapi []byte
	docs    http.Handler // the API reference page, rendered from the OpenAPI document at start-up
	blobs   http.Handler // the blob store's signed URLs: authorized by their signature, never by a token
	cors    *cors        // nil: no cross-origin requests are allowed
}

// httpHandler routes the HTTP port: the /v1 REST facade, Connect and gRPC-Web calls of the services,
// the operational endpoints, the API reference page, and the blob store's signed URLs under /blobs/.
func httpHandler(log *slog.Logger, p httpParts) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	})
	// p.ops is the "ops" pool, not the API's: readiness is false only when the database does not
	// answer a ping (cannot connect, the connection breaks, no answer within store.ReadyTimeout),
	// never because API requests hold every connection of their own pool.
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := p.ops.Ready(r.Context()); err != nil {
			log.WarnContext(r.Context(), "not ready", "error", err.Error())
			WriteProblem(w, r, apierr.New(apierr.Unavailable, "database unreachable"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ready"}`))
	})
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(p.openapi)
	})
	// The API reference: its index at /docs, a page per resource family (and the shared responses and
	// schemas) at /docs/<page>.
	mux.Handle("GET /docs", p.docs)
	mux.Handle("GET /docs/{$}", http.RedirectHandler("/docs", http.StatusMovedPermanently))
	mux.Handle("GET /docs/{page}", p.docs)
	// The root is where a person pointed at the service lands: the API reference (302, so that the
	// root may serve something else one day).
	mux.Handle("GET /{$}", http.RedirectHandler("/docs", http.StatusFound))
	mux.Handle("GET /metrics", promhttp.HandlerFor(p.reg, promhttp.HandlerOpts{}))
	mux.Handle("/v1/", p.cors.wrap(queryparam.PreserveOrder(headAsGet(p.gw))))
	for _, path := range p.rpcPath {
		mux.Handle(path, p.cors.wrap(p.rpcWeb))
	}
	mux.Handle(blobPath+"/", p.blobs)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		WriteProblem(w, r, apierr.New(apierr.NotFound, "no resource at %s", r.URL.Path))
	})
	return requestLog(log, mux)
}

// bodyGrace is how long a request's unread body may still take once its answer is decided (a
// refusal before the body, a route that takes none): net/http reads up to 256 KiB of what is left so
// that the connection can serve another request, and a body that never finishes would otherwise hold
// the answer and the connection for ever. Within the grace the connection is kept; past it, the
// answer is sent and the connection closed.
var bodyGrace = time.Second

// statusWriter records the status for the request log, and guards the request's body: the first
// time the answer is written (or when the handler returns), a body not read to its end gets a read
// deadline of bodyGrace.
type statusWriter struct {
	http.ResponseWriter
	status  int
	body    *watchedBody // nil: the request has no body
	guarded bool
	outcome *callOutcome
	connect bool // a Connect call: an error's code is in its JSON body
}

func (s *statusWriter) WriteHeader(c int) {
	if s.status == 0 {
		s.status = c
		s.outcome.fromHeader(s.Header())
	}
	s.guard()
	s.ResponseWriter.WriteHeader(c)
}

// Unwrap lets http.ResponseController reach the connection (the front door's body read deadline).
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
		s.outcome.fromHeader(s.Header())
	}
	if s.connect && s.status != http.StatusOK {
		s.outcome.fromConnectError(b)
	}
	s.guard()
	return s.ResponseWriter.Write(b)
}

func (s *statusWriter) Flush() {
	s.guard()
	_ = http.NewResponseController(s.ResponseWriter).Flush()
}

// guard gives a body that was not read to its end bodyGrace to finish (see bodyGrace). A body read
// to its end is left alone: a read deadline then would end the connection's background read and
// cancel the request.
func (s *statusWriter) guard() {
	if s.guarded || s.body == nil {
		return
	}
	s.guarded = true
	if !s.body.done.Load() {
		_ = http.NewResponseController(s.ResponseWriter).SetReadDeadline(time.Now().Add(bodyGrace))
	}
}

// watchedBody is a request body that records when a read has ended it (its end, or an error).
type watchedBody struct {
	io.ReadCloser
	done atomic.Bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.done.Store(true)
	}
	return n, err
}

// requestLog starts the request's trace span (tracing.StartHTTP: first, so that the request's log
// line carries its ids), gives every request an id (X-Request-Id, taken from the client when sane),
// passes it to the gRPC server, guards its body (bodyGrace), logs one line per request and ends the
// span with the answer's status.
func requestLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ctx, span := tracing.StartHTTP(r)
		rid := r.Header.Get("X-Request-Id")
		if !validRequestID(rid) {
			rid = uuid.NewString()
			r.Header.Set("X-Request-Id", rid)
		}
		w.Header().Set("X-Request-Id", rid)
		ctx = reqctx.WithRequestID(ctx, rid)
		outcome := &callOutcome{}
		sw := &statusWriter{ResponseWriter: w, outcome: outcome, connect: r.Header.Get("Connect-Protocol-Version") != ""}
		ctx = context.WithValue(ctx, outcomeKey{}, outcome)
		r = r.WithContext(ctx)
		if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
			sw.body = &watchedBody{ReadCloser: r.Body}
			r.Body = sw.body
		}
		next.ServeHTTP(sw, r)
		sw.guard() // nothing written: net/http writes the answer after this returns
		tracing.EndHTTP(span, sw.status)
		if r.URL.Path == "/healthz" || r.URL.Path == "/metrics" {
			return
		}
		attrs := []any{"method", r.Method, "path", r.URL.Path, "status", sw.status}
		lvl := slog.LevelInfo
		if code, ok := outcome.get(); ok {
			attrs = append(attrs, "rpc_code", rpcCodeName(code))
			if code == codes.Internal || code == codes.Unknown || code == codes.DataLoss {
				lvl = slog.LevelError
			}
		} else if sw.status == http.StatusInternalServerError {
			lvl = slog.LevelError
		}
		attrs = append(attrs, "duration_ms", float64(time.Since(start).Microseconds())/1000)
		log.Log(ctx, lvl, "http", attrs...)
	})
}

// The request log names the call's RPC status (rpc_code: OK, INVALID_ARGUMENT…) beside the HTTP
// status, which says little for gRPC-Web (200 whatever the outcome) and Connect: what the answer
// itself says comes first (a gRPC-Web Grpc-Status header when the answer's headers are written, a
// Connect error body's code), else what was recorded: the status of the call the interceptor chain
// ran, or of the refusal the problem and Connect error writers wrote.
type outcomeKey struct{}

type callOutcome struct {
	mu             sync.Mutex
	code, wire     codes.Code
	set, wireKnown bool
}

// recordCode records the RPC status of the request ctx belongs to (nothing outside an HTTP request:
// direct gRPC calls have their own log line).
func recordCode(ctx context.Context, code codes.Code) {
	if o, ok := ctx.Value(outcomeKey{}).(*callOutcome); ok {
		o.mu.Lock()
		o.code, o.set = code, true
		o.mu.Unlock()
	}
}

func (o *callOutcome) fromHeader(h http.Header) {
	if v := h.Get("Grpc-Status"); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			o.mu.Lock()
			o.wire, o.wireKnown = codes.Code(n), true
			o.mu.Unlock()
		}
	}
}

var connectErrorCode = regexp.MustCompile(`^\{"code":"([a-z_]+)"`)

func (o *callOutcome) fromConnectError(b []byte) {
	var c connect.Code
	if m := connectErrorCode.FindSubmatch(b); m != nil && c.UnmarshalText(m[1]) == nil {
		o.mu.Lock()
		if !o.wireKnown {
			o.wire, o.wireKnown = codes.Code(c), true
		}
		o.mu.Unlock()
	}
}

func (o *callOutcome) get() (codes.Code, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.wireKnown {
		return o.wire, true
	}
	return o.code, o.set
}

// rpcCodeName is a status code's canonical name (google.rpc.Code): OK, INVALID_ARGUMENT…
func rpcCodeName(c codes.Code) string {
	if c == codes.OK {
		return "OK"
	}
	return strings.ToUpper(connect.Code(c).String())
}

// validRequestID tells whether a client's request id is kept: 1 to 128 printable ASCII characters
// (what gRPC metadata can carry, so the id the client sees is the one every log line and handler
// gets); any other is replaced by a fresh uuid.
func validRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}
