package app

import (
	"errors"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"connectrpc.com/vanguard"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

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

// maxRPCWebBody bounds the body of a Connect or gRPC-Web request, and the message vanguard
// decompresses or decodes from it: the message itself is held to MaxBodyBytes by the gRPC server's
// codec (PAYLOAD_TOO_LARGE), and the envelope, JSON or base64 around it (gRPC-Web text) may be
// larger than the message.
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
	tc, err := vanguard.NewTranscoder(vs, vanguard.WithDefaultServiceOptions(
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

func (h *rpcWeb) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.errs.IsSupported(r) || plainGRPC(r.Header.Get("Content-Type")) {
		WriteProblem(w, r, apierr.New(apierr.UnsupportedMedia, "%s is served in Connect (application/proto or application/json, "+
			"with Connect-Protocol-Version: 1) and gRPC-Web (application/grpc-web); gRPC itself is served on the gRPC port", r.URL.Path))
		return
	}
	method := r.URL.Path
	if _, known := h.ic.scopes[method]; !known || r.Method != http.MethodPost {
		// Not a call of an API method: vanguard refuses it in the request's protocol (unknown
		// method, or an HTTP method other than POST) without calling anything.
		h.next.ServeHTTP(w, r)
		return
	}
	ctx, release, err := h.ic.door(w, r, method, nil)
	if err != nil {
		if err != errClientGone {
			h.writeError(w, r, err)
		}
		return
	}
	defer release()
	r = r.WithContext(ctx)
	if bad := readAll(w, r, maxRPCWebBody); bad != nil {
		h.writeError(w, r, bad)
		return
	}
	h.next.ServeHTTP(&oneRequestID{ResponseWriter: w}, r)
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

// writeError writes err (an API error) in the request's protocol, with the same status and details
// a gRPC client gets.
func (h *rpcWeb) writeError(w http.ResponseWriter, r *http.Request, err error) {
	st := status.Convert(apierr.From(err))
	ce := connect.NewError(connect.Code(st.Code()), errors.New(st.Message()))
	for _, d := range st.Proto().GetDetails() {
		if detail, derr := connect.NewErrorDetail(d); derr == nil {
			ce.AddDetail(detail)
		}
	}
	_ = h.errs.Write(w, r, ce)
}
