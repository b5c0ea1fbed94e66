package app

import (
	"encoding/binary"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/apierr"
)

// The HTTP port also speaks Connect and gRPC-Web (docs/design.md "Connect and gRPC-Web"), so that
// the TypeScript SDK works from browsers: a POST to /catalog.v1.<Service>/<Method> in either
// protocol is translated by vanguard into a gRPC call of the gRPC server itself
// (grpc.Server.ServeHTTP, in process), which runs the one interceptor chain as every other call.
// REST stays with the gateway (vanguard's own REST knows none of the facade's conventions).
//
// Before vanguard reads a byte of the body, the door does what REST's front door does (ic.door):
// token and scope, the tenant's token bucket and a concurrency slot; its refusals are written in
// the request's own protocol (connect.ErrorWriter), with the API's error details.

// maxRPCWebBody bounds the body of a Connect or gRPC-Web request: the message itself is held to
// MaxBodyBytes by the gRPC server's codec (PAYLOAD_TOO_LARGE), and the envelope or JSON around it
// may be larger than the message. Request bodies are never compressed (see acceptedBody): vanguard
// would inflate a compressed body whole before it applies any limit.
const maxRPCWebBody = 2 * MaxBodyBytes

// rpcWeb is the HTTP handler of Connect and gRPC-Web calls of the services.
type rpcWeb struct {
	ic   *interceptors
	next http.Handler
	errs *connect.ErrorWriter
}

// newRPCWeb serves the services' methods in Connect and gRPC-Web on top of srv (the gRPC server with
// the services registered); paths are the patterns to route to it on the HTTP port's mux.
func newRPCWeb(srv *grpc.Server, services []Service, ic *interceptors) (h http.Handler, paths []string, err error) {
	vs := make([]*vanguard.Service, 0, len(services))
	for _, svc := range services {
		vs = append(vs, vanguard.NewService(svc.Desc.ServiceName, srv))
		paths = append(paths, "/"+svc.Desc.ServiceName+"/")
	}
	tc, err := vanguard.NewTranscoder(vs,
		vanguard.WithCodec(func(res vanguard.TypeResolver) vanguard.Codec { return jsonCodec{vanguard.NewJSONCodec(res)} }),
		vanguard.WithDefaultServiceOptions(
			vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
			vanguard.WithTargetCodecs(vanguard.CodecProto),
			vanguard.WithNoTargetCompression(),
			vanguard.WithMaxMessageBufferBytes(maxRPCWebBody),
		))
	if err != nil {
		return nil, nil, err
	}
	return &rpcWeb{ic: ic, next: tc, errs: connect.NewErrorWriter()}, paths, nil
}

// rpcWebProtocol names the protocol of a request the HTTP port serves at an RPC path ("" for none):
// Connect's unary protocol (application/proto or application/json, with Connect-Protocol-Version: 1)
// or gRPC-Web in binary (application/grpc-web[+proto|+json]). Connect's streaming protocol, gRPC-Web
// text and plain gRPC are not served here (every method is unary; plain gRPC is the gRPC port's).
func rpcWebProtocol(r *http.Request) string {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	switch mt {
	case "application/grpc-web", "application/grpc-web+proto", "application/grpc-web+json":
		return "grpc-web"
	case "application/proto", "application/json":
		if cs, ok := params["charset"]; (ok && !strings.EqualFold(cs, "utf-8")) || r.Header.Get("Connect-Protocol-Version") != "1" {
			return ""
		}
		return "connect"
	}
	return ""
}

func (h *rpcWeb) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		WriteProblem(w, r, apierr.New(apierr.MethodNotAllowed, "%s is called with POST (Connect or gRPC-Web)", printable(r.URL.Path)))
		return
	}
	protocol := rpcWebProtocol(r)
	if protocol == "" {
		WriteProblem(w, r, apierr.New(apierr.UnsupportedMedia, "%s is served in Connect (application/proto or application/json, "+
			"with Connect-Protocol-Version: 1) and gRPC-Web (application/grpc-web, binary); gRPC itself is served on the gRPC port",
			printable(r.URL.Path)))
		return
	}
	method := r.URL.Path
	if _, known := h.ic.scopes[method]; !known {
		recordCode(r.Context(), codes.Unimplemented)
		_ = h.errs.Write(w, r, connect.NewError(connect.CodeUnimplemented, fmt.Errorf("no method %s", printable(method))))
		return
	}
	ctx, release, err := h.ic.door(w, r, method, func() *apierr.Error { return acceptedBody(w, r, protocol) })
	if err != nil {
		if err != errClientGone {
			h.writeError(w, r, err)
		}
		return
	}
	defer release()
	r = r.WithContext(ctx)
	// A Connect unary body is the message itself: at most MaxBodyBytes, like a REST body. A gRPC-Web
	// body is the message in a frame (the gRPC server's codec holds the message to MaxBodyBytes).
	limit := int64(maxRPCWebBody)
	if protocol == "connect" {
		limit = MaxBodyBytes
	}
	body, bad := readAll(w, r, limit)
	if bad != nil {
		h.writeError(w, r, bad)
		return
	}
	if protocol == "grpc-web" {
		if bad := checkGRPCWebFrames(body); bad != nil {
			h.writeError(w, r, bad)
			return
		}
	}
	h.next.ServeHTTP(&oneRequestID{ResponseWriter: w}, r)
}

// acceptedBody refuses what the door does not take before a body is read: a compressed body (like
// REST's, request bodies are sent as they are: an inflated body could be far larger than the limit)
// and a time-out that is not a number.
func acceptedBody(w http.ResponseWriter, r *http.Request, protocol string) *apierr.Error {
	coding, accept := "Content-Encoding", "Accept-Encoding"
	if protocol == "grpc-web" {
		coding, accept = "Grpc-Encoding", "Grpc-Accept-Encoding"
	}
	for _, h := range []string{coding, "Connect-Content-Encoding"} {
		if v, coded := contentCoding(r.Header, h); coded {
			w.Header().Set(accept, "identity")
			return apierr.New(apierr.UnsupportedMedia, "request bodies are not accepted compressed (%s: %s); send them uncompressed",
				h, strconv.Quote(printable(v)))
		}
	}
	if v := r.Header.Get("Connect-Timeout-Ms"); v != "" {
		if !connectTimeout.MatchString(v) {
			return apierr.New(apierr.MalformedRequest, "Connect-Timeout-Ms must be a whole number of milliseconds (1 to 10 digits)")
		}
		if ms, _ := strconv.ParseInt(v, 10, 64); ms > requestTimeout.Milliseconds() {
			r.Header.Del("Connect-Timeout-Ms")
		}
	}
	if v := r.Header.Get("Grpc-Timeout"); v != "" {
		if !grpcTimeout.MatchString(v) {
			return apierr.New(apierr.MalformedRequest, "Grpc-Timeout must be 1 to 8 digits and a unit (H, M, S, m, u or n)")
		}
		if n, _ := strconv.ParseInt(v[:len(v)-1], 10, 64); n > int64(requestTimeout/grpcTimeoutUnits[v[len(v)-1]]) {
			r.Header.Del("Grpc-Timeout")
		}
	}
	return nil
}

// A time-out longer than requestTimeout (the longest any call runs) is the same as none: the
// header is dropped before vanguard reads it (which refused a valid one of more than 8 hours,
// 99999999H, with a plain-text 400), and the call runs under requestTimeout.
var (
	connectTimeout   = regexp.MustCompile(`^[0-9]{1,10}$`)
	grpcTimeout      = regexp.MustCompile(`^[0-9]{1,8}[HMSmun]$`)
	grpcTimeoutUnits = map[byte]time.Duration{'H': time.Hour, 'M': time.Minute, 'S': time.Second,
		'm': time.Millisecond, 'u': time.Microsecond, 'n': time.Nanosecond}
)

// checkGRPCWebFrames refuses a gRPC-Web body that is not exactly one plain message frame (every
// method is unary): an empty body, a body that ends inside a frame, a second frame, a frame flagged
// compressed (no Grpc-Encoding is accepted) or a trailer frame from a client. Each is the API's
// MALFORMED_REQUEST (INVALID_ARGUMENT), not vanguard's or grpc's INTERNAL, and no frame after the
// first is ever ignored.
func checkGRPCWebFrames(b []byte) *apierr.Error {
	if len(b) == 0 {
		return apierr.New(apierr.MalformedRequest, "a gRPC-Web call of a unary method takes one message frame; the body is empty")
	}
	if len(b) < 5 {
		return apierr.New(apierr.MalformedRequest, "the gRPC-Web body ends inside a frame header (%d bytes)", len(b))
	}
	if b[0] != 0 {
		return apierr.New(apierr.MalformedRequest, "a gRPC-Web request frame must be an uncompressed message (flags 0), not flags %#x", b[0])
	}
	n := uint64(binary.BigEndian.Uint32(b[1:5]))
	switch {
	case n > uint64(len(b)-5):
		return apierr.New(apierr.MalformedRequest, "the gRPC-Web frame declares %d bytes, the body holds %d", n, len(b)-5)
	case n < uint64(len(b)-5):
		return apierr.New(apierr.MalformedRequest, "a gRPC-Web call of a unary method takes one message frame; the body has %d bytes after it", uint64(len(b)-5)-n)
	}
	return nil
}

// writeError writes err (an API error) in the request's protocol, with the same status and details
// a gRPC client gets. A Connect refusal of the body's size is HTTP 413, not the 429 Connect gives
// resource_exhausted: 429 tells clients and proxies to retry, and the same body will never pass
// (the error's code stays resource_exhausted, with PAYLOAD_TOO_LARGE, as every transport says).
func (h *rpcWeb) writeError(w http.ResponseWriter, r *http.Request, err error) {
	ae := apierr.From(err)
	recordCode(r.Context(), status.Code(ae))
	if ae.Code == apierr.PayloadTooLarge && rpcWebProtocol(r) == "connect" {
		w = statusOverride{ResponseWriter: w, status: http.StatusRequestEntityTooLarge}
	}
	_ = h.errs.Write(w, r, connectError(ae))
}

// statusOverride writes another HTTP status than the one its writer is given.
type statusOverride struct {
	http.ResponseWriter
	status int
}

func (s statusOverride) WriteHeader(int) { s.ResponseWriter.WriteHeader(s.status) }

// connectError is an API error as Connect's error, with the details a gRPC client gets.
func connectError(err error) *connect.Error {
	st := status.Convert(apierr.From(err))
	ce := connect.NewError(connect.Code(st.Code()), errors.New(st.Message()))
	for _, d := range st.Proto().GetDetails() {
		if detail, derr := connect.NewErrorDetail(d); derr == nil {
			ce.AddDetail(detail)
		}
	}
	return ce
}

// jsonCodec is vanguard's JSON codec whose refusal of a request is the API's MALFORMED_REQUEST (400,
// with its details) instead of vanguard's UNKNOWN: the decoder's own message is not shown.
type jsonCodec struct{ *vanguard.JSONCodec }

func (c jsonCodec) Unmarshal(data []byte, msg proto.Message) error {
	if err := c.JSONCodec.Unmarshal(data, msg); err != nil {
		return connectError(apierr.New(apierr.MalformedRequest, "the request body is not a JSON %s", msg.ProtoReflect().Descriptor().FullName()))
	}
	return nil
}

// oneRequestID writes the X-Request-Id header once: requestLog set it, and the chain's gRPC header
// (the same id: the chain read it from the request) comes back through vanguard as a second one.
type oneRequestID struct {
	http.ResponseWriter
	wrote bool
}

func (w *oneRequestID) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		if ids := w.Header()["X-Request-Id"]; len(ids) > 1 {
			w.Header()["X-Request-Id"] = ids[:1]
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *oneRequestID) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *oneRequestID) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *oneRequestID) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// plainGRPC reports whether a Content-Type is gRPC's own (not gRPC-Web), which needs HTTP/2 and is
// served on the gRPC port.
func plainGRPC(ct string) bool {
	return ct == "application/grpc" || strings.HasPrefix(ct, "application/grpc+") || strings.HasPrefix(ct, "application/grpc;")
}
