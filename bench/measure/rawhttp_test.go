package measure

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The raw client reads every framing net/http's server writes (a small answer with
// Content-Length, a large one chunked, with trailers, an empty 204), checks the status, sends the
// bearer token and keeps its connection for the next request.
func TestRawHTTP(t *testing.T) {
	large := strings.Repeat("0123456789abcdef", 4096) // 64 KiB: chunked, in several chunks
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/small":
			_, _ = w.Write([]byte(`{"ok":true}`))
		case "/large":
			w.Header().Set("Trailer", "X-Sum")
			_, _ = w.Write([]byte(large))
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte(large))
			w.Header().Set("X-Sum", "1")
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		case "/query":
			_, _ = w.Write([]byte(r.URL.Query().Get("a[eq]")))
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()

	h, err := NewRawHTTP(srv.URL, "tok")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for range 3 {
		for _, c := range []struct {
			path   string
			status int
			n      int
		}{{"/small", 200, len(`{"ok":true}`)}, {"/large", 200, 2 * len(large)}, {"/empty", 204, 0}, {"/query?a[eq]=xy", 200, 2}} {
			n, err := h.Get(c.path, c.status)
			if err != nil || n != c.n {
				t.Fatalf("GET %s: %d bytes, %v; want %d bytes", c.path, n, err, c.n)
			}
		}
	}
	if _, err := h.Get("/missing", 200); err == nil || !strings.Contains(err.Error(), "status 404") {
		t.Fatalf("GET /missing: %v, want a status 404 error", err)
	}
	if got := conns.Load(); got > 1 {
		t.Errorf("%d connections for sequential requests, want the first one kept", got)
	}
	bad, _ := NewRawHTTP(srv.URL, "other")
	if _, err := bad.Get("/small", 200); err == nil || !strings.Contains(err.Error(), "status 401") {
		t.Fatalf("wrong token: %v, want a status 401 error", err)
	}
	if _, err := NewRawHTTP("https://example.com", "tok"); err == nil {
		t.Error("https accepted")
	}
}
