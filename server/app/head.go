package app

import (
	"context"
	"net/http"
)

// HEAD (RFC 9110 §9.3.2: a general-purpose server supports GET and HEAD) is answered by every /v1
// path that answers GET: headAsGet serves it as that GET, whole (the front door, scope, limits, the
// ETag and the If-None-Match 304), and net/http sends the status and headers without the body
// because the connection's request is the HEAD. The request log keeps the method the client sent.
// A HEAD where no GET is routed is 405 naming HEAD, with the Allow header of the path.
type headKey struct{}

func headAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		g := r.Clone(context.WithValue(r.Context(), headKey{}, true))
		g.Method = http.MethodGet
		next.ServeHTTP(w, g)
	})
}

// clientMethod is the method the client sent (HEAD for a HEAD served as its GET).
func clientMethod(r *http.Request) string {
	if head, _ := r.Context().Value(headKey{}).(bool); head {
		return http.MethodHead
	}
	return r.Method
}

// withHead adds HEAD after GET to a list of allowed methods.
func withHead(methods []string) []string {
	out := make([]string, 0, len(methods)+1)
	for _, m := range methods {
		out = append(out, m)
		if m == http.MethodGet {
			out = append(out, http.MethodHead)
		}
	}
	return out
}
