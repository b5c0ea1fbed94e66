package app

import (
	"net/http"
	"strings"

	"github.com/catalogd/catalogd/server/apierr"
)

// cors lets pages of the configured origins call the API from a browser (the REST facade, Connect
// and gRPC-Web; Config.CORSAllowedOrigins). Calls carry a bearer token, never cookies: no
// credentials are allowed, and an origin that is not listed gets no CORS header (its page cannot
// read the answer) and a 403 on its preflight.
type cors struct {
	any     bool
	origins map[string]bool
}

// corsAllowHeaders are the request headers a page may send: the API's own and those of the Connect
// and gRPC-Web protocols.
const corsAllowHeaders = "Authorization, Content-Type, X-Request-Id, If-Match, If-None-Match, Idempotency-Key, Catalog-Consistency, " +
	"Connect-Protocol-Version, Connect-Timeout-Ms, Connect-Accept-Encoding, Connect-Content-Encoding, " +
	"Grpc-Timeout, Grpc-Accept-Encoding, Grpc-Encoding, X-Grpc-Web, X-User-Agent"

// corsExposeHeaders are the response headers a page may read.
const corsExposeHeaders = "X-Request-Id, Location, ETag, RateLimit, RateLimit-Policy, Retry-After, Idempotency-Replayed, " +
	"Grpc-Status, Grpc-Message, Grpc-Status-Details-Bin, Connect-Content-Encoding, Content-Encoding"

// corsMethods are the methods the API answers.
const corsMethods = "GET, HEAD, POST, PATCH, PUT, DELETE"

// newCORS is the policy of the configured origins (nil: none).
func newCORS(origins []string) *cors {
	if len(origins) == 0 {
		return nil
	}
	c := &cors{origins: map[string]bool{}}
	for _, o := range origins {
		if o == "*" {
			c.any = true
		}
		c.origins[strings.ToLower(strings.TrimSuffix(o, "/"))] = true
	}
	return c
}

// allowed compares origins without regard to case: scheme and host are case-insensitive, and browsers
// send them in lower case.
func (c *cors) allowed(origin string) bool { return c.any || c.origins[strings.ToLower(origin)] }

// wrap applies the policy around next (a nil policy: next as it is).
func (c *cors) wrap(next http.Handler) http.Handler {
	if c == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin")
		preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
		if preflight {
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
		}
		if !c.allowed(origin) {
			if preflight {
				WriteProblem(w, r, apierr.New(apierr.Forbidden, "origin %s may not call this API from a browser (CATALOG_CORS_ALLOWED_ORIGINS)", origin))
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		h.Set("Access-Control-Allow-Origin", origin)
		if preflight {
			h.Set("Access-Control-Allow-Methods", corsMethods)
			h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			h.Set("Access-Control-Max-Age", "7200")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		next.ServeHTTP(w, r)
	})
}
