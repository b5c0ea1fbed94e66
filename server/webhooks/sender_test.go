package webhooks

import (
	"bytes"
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

const sendSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// hitCounter counts the requests a test server received.
type hitCounter struct{ n atomic.Int32 }

func (h *hitCounter) wrap(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h.n.Add(1)
		next(w, r)
	}
}

func sendServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *hitCounter) {
	t.Helper()
	c := &hitCounter{}
	srv := httptest.NewServer(c.wrap(h))
	t.Cleanup(srv.Close)
	return srv, c
}

func sendReq(url string) Request {
	return Request{MsgID: "0190c3c8-5f4e-7c39-a0c1-0123456789ab", EventType: "product.updated",
		Payload: []byte(`{"productUuid":"0190c3c8-5f4e-7c39-a0c1-ba9876543210"}`), Secret: sendSecret, URL: url,
		Timeout: 5 * time.Second}
}

var loopbackGuard = Guard{AllowPrivate: true} // httptest servers listen on 127.0.0.1

func TestSendSuccessHeaders(t *testing.T) {
	type received struct {
		method, path string
		header       http.Header
		body         []byte
	}
	got := make(chan received, 1)
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- received{r.Method, r.URL.RequestURI(), r.Header.Clone(), b}
		io.WriteString(w, `{"ok":true}`)
	})
	r := sendReq(srv.URL + "/hooks/catalog?x=1")
	before := time.Now().Unix()
	res := NewSender(loopbackGuard).Send(context.Background(), r)
	after := time.Now().Unix()
	if !res.Success || res.StatusCode != 200 || res.ErrorClass != "" || res.Body != `{"ok":true}` || res.RetryAfter != 0 {
		t.Fatalf("Send = %+v, want 200 success with body", res)
	}
	if res.Duration <= 0 || res.Duration > 5*time.Second {
		t.Errorf("Duration = %v", res.Duration)
	}
	rcv := <-got
	if rcv.method != "POST" || rcv.path != "/hooks/catalog?x=1" || !bytes.Equal(rcv.body, r.Payload) {
		t.Fatalf("received %s %s %q", rcv.method, rcv.path, rcv.body)
	}
	h := rcv.header
	ts, err := strconv.ParseInt(h.Get("webhook-timestamp"), 10, 64)
	if err != nil || ts < before || ts > after {
		t.Fatalf("webhook-timestamp %q, want unix seconds in [%d, %d]", h.Get("webhook-timestamp"), before, after)
	}
	wantSig, _ := Sign(sendSecret, r.MsgID, time.Unix(ts, 0), r.Payload)
	for name, want := range map[string]string{
		"Content-Type":         "application/json; charset=utf-8",
		"webhook-id":           r.MsgID,
		"webhook-signature":    wantSig,
		"X-Webhook-Event-Type": "product.updated",
		"User-Agent":           "catalogd-webhooks/1",
		"Content-Length":       strconv.Itoa(len(r.Payload)),
	} {
		if v := h.Values(name); len(v) != 1 || v[0] != want {
			t.Errorf("header %s = %q, want %q", name, v, want)
		}
	}
	for _, name := range []string{"Deprecation", "Sunset", "Authorization", "Cookie", "Accept-Encoding"} {
		if v, ok := h[http.CanonicalHeaderKey(name)]; ok {
			t.Errorf("unexpected header %s: %q", name, v)
		}
	}
}

// The webhook-* header names go on the wire in lower case, as Standard Webhooks writes them.
func TestSendHeaderNamesOnTheWire(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	head := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		var buf []byte
		tmp := make([]byte, 4096)
		for !bytes.Contains(buf, []byte("\r\n\r\n")) {
			n, err := c.Read(tmp)
			if err != nil {
				break
			}
			buf = append(buf, tmp[:n]...)
		}
		head <- string(buf)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	}()
	res := NewSender(loopbackGuard).Send(context.Background(), sendReq("http://"+ln.Addr().String()+"/"))
	if !res.Success {
		t.Fatalf("Send = %+v", res)
	}
	h := <-head
	for _, line := range []string{"\r\nwebhook-id: ", "\r\nwebhook-timestamp: ", "\r\nwebhook-signature: v1,", "\r\nX-Webhook-Event-Type: product.updated\r\n"} {
		if !strings.Contains(h, line) {
			t.Errorf("request head lacks %q:\n%s", line, h)
		}
	}
}

func TestSendResignsEachAttempt(t *testing.T) {
	var mu sync.Mutex
	var sigs, ids []string
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		sigs = append(sigs, r.Header.Get("webhook-signature"))
		ids = append(ids, r.Header.Get("webhook-id"))
	})
	s := NewSender(loopbackGuard)
	r := sendReq(srv.URL)
	s.Send(context.Background(), r)
	r.Secret, _ = NewSecret() // rotated: the next attempt uses the new secret
	s.Send(context.Background(), r)
	if ids[0] != ids[1] || ids[0] != r.MsgID {
		t.Errorf("webhook-id %q, want %q on every attempt", ids, r.MsgID)
	}
	if sigs[0] == sigs[1] {
		t.Errorf("signature unchanged after rotation: %q", sigs)
	}
}

func TestSendFailureStatus(t *testing.T) {
	for _, code := range []int{400, 404, 410, 500, 502} {
		srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			io.WriteString(w, "boom")
		})
		res := NewSender(loopbackGuard).Send(context.Background(), sendReq(srv.URL))
		if res.Success || res.StatusCode != code || res.ErrorClass != "" || res.Body != "boom" {
			t.Errorf("status %d: Send = %+v", code, res)
		}
	}
	for _, code := range []int{200, 201, 202, 204, 299} {
		srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
		res := NewSender(loopbackGuard).Send(context.Background(), sendReq(srv.URL))
		if !res.Success || res.StatusCode != code || res.ErrorClass != "" {
			t.Errorf("status %d: Send = %+v, want success", code, res)
		}
	}
}

func TestSendRedirectNotFollowed(t *testing.T) {
	target, targetHits := sendServer(t, func(w http.ResponseWriter, r *http.Request) {})
	for _, code := range []int{301, 302, 303, 307, 308} {
		srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target.URL+"/elsewhere", code)
		})
		res := NewSender(loopbackGuard).Send(context.Background(), sendReq(srv.URL))
		if res.Success || res.StatusCode != code || res.ErrorClass != "redirect" {
			t.Errorf("status %d: Send = %+v, want failure with ErrorClass redirect", code, res)
		}
	}
	if n := targetHits.n.Load(); n != 0 {
		t.Fatalf("the redirect target received %d requests", n)
	}
}

func TestSendConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	res := NewSender(loopbackGuard).Send(context.Background(), sendReq("http://"+addr+"/"))
	if res.Success || res.StatusCode != 0 || res.ErrorClass != "refused" {
		t.Fatalf("Send = %+v, want ErrorClass refused", res)
	}
}

func TestSendTimeout(t *testing.T) {
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then the server notices the client going away
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	r := sendReq(srv.URL)
	r.Timeout = 300 * time.Millisecond
	res := NewSender(loopbackGuard).Send(context.Background(), r)
	if res.Success || res.StatusCode != 0 || res.ErrorClass != "timeout" {
		t.Fatalf("Send = %+v, want ErrorClass timeout", res)
	}
	if res.Duration < 300*time.Millisecond || res.Duration > 2*time.Second {
		t.Fatalf("Duration = %v, want about 300ms", res.Duration)
	}
}

// The timeout also covers reading the body; the status line, received in time, decides success.
func TestSendTimeoutWhileReadingBody(t *testing.T) {
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		io.WriteString(w, "partial")
		w.(http.Flusher).Flush()
		io.Copy(io.Discard, r.Body) // then the server notices the client going away
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	r := sendReq(srv.URL)
	r.Timeout = 300 * time.Millisecond
	res := NewSender(loopbackGuard).Send(context.Background(), r)
	if !res.Success || res.StatusCode != 200 || res.Body != "partial" || res.ErrorClass != "" {
		t.Fatalf("Send = %+v, want 200 success with the partial body", res)
	}
	if res.Duration < 300*time.Millisecond || res.Duration > 2*time.Second {
		t.Fatalf("Duration = %v, want about 300ms", res.Duration)
	}
}

// countingConn counts the bytes the client read from the network.
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func TestSendLargeBody(t *testing.T) {
	const pattern = "aé€😀" // 1+2+3+4 bytes, 4 code points
	chunk := []byte(strings.Repeat(pattern, 64<<10/len(pattern)))
	const total = 10 << 20
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(total))
		for sent := 0; sent < total; {
			n, err := w.Write(chunk[:min(len(chunk), total-sent)])
			if err != nil {
				return
			}
			sent += n
		}
	})
	s := NewSender(loopbackGuard)
	var read atomic.Int64
	tr := s.client.Transport.(*http.Transport)
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{c, &read}, nil
	}
	res := s.Send(context.Background(), sendReq(srv.URL))
	if !res.Success || res.StatusCode != 200 {
		t.Fatalf("Send = %+v", res)
	}
	if want := strings.Repeat(pattern, 2048/4); res.Body != want {
		t.Fatalf("Body: %d code points, %d bytes; want exactly 2048 code points (%d bytes)",
			utf8.RuneCountInString(res.Body), len(res.Body), len(want))
	}
	if n := read.Load(); n > 256<<10 {
		t.Fatalf("read %d bytes from the network for a 10 MB body, want at most about 64 KiB", n)
	}
}

func TestSendBodyUTF8(t *testing.T) {
	cases := []struct {
		body []byte
		want string
	}{
		{[]byte("héllo wörld ☃ 😀"), "héllo wörld ☃ 😀"},
		{[]byte("ok\xffbad\xc3"), "ok\uFFFDbad\uFFFD"},
		{[]byte("a\xe2\x82b"), "a\uFFFD\uFFFDb"}, // truncated 3-byte sequence: one replacement per byte
		{[]byte("nul\x00byte"), "nul\uFFFDbyte"},
		{[]byte(strings.Repeat("é", 3000)), strings.Repeat("é", 2048)},
		{[]byte(strings.Repeat("\xff", 3000)), strings.Repeat("\uFFFD", 2048)},
		{[]byte(strings.Repeat("x", 2047) + "😀😀"), strings.Repeat("x", 2047) + "😀"},
		{nil, ""},
	}
	s := NewSender(loopbackGuard)
	for _, tc := range cases {
		srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(502)
			w.Write(tc.body)
		})
		res := s.Send(context.Background(), sendReq(srv.URL))
		if res.StatusCode != 502 || res.Body != tc.want || !utf8.ValidString(res.Body) {
			t.Errorf("body %.20q: Body = %.30q (%d code points, valid %v), want %.30q", tc.body, res.Body,
				utf8.RuneCountInString(res.Body), utf8.ValidString(res.Body), tc.want)
		}
	}
}

func TestSendRetryAfter(t *testing.T) {
	date := func(d time.Duration) string { return time.Now().Add(d).UTC().Format(http.TimeFormat) }
	cases := []struct {
		code     int
		header   string
		min, max time.Duration
	}{
		{429, "120", 120 * time.Second, 120 * time.Second},
		{503, "7", 7 * time.Second, 7 * time.Second},
		{429, " 30 ", 30 * time.Second, 30 * time.Second},
		{429, date(time.Hour), 58 * time.Minute, time.Hour},
		{503, date(2 * time.Hour), 118 * time.Minute, 2 * time.Hour},
		{429, "86400", 24 * time.Hour, 24 * time.Hour},
		{429, "86401", 24 * time.Hour, 24 * time.Hour},
		{503, "99999999999999999999999", 24 * time.Hour, 24 * time.Hour},
		{429, date(72 * time.Hour), 24 * time.Hour, 24 * time.Hour},
		{429, "", 0, 0},
		{429, "0", 0, 0},
		{429, "-5", 0, 0},
		{429, "1.5", 0, 0},
		{429, "soon", 0, 0},
		{503, date(-time.Hour), 0, 0},
		{500, "120", 0, 0},
		{200, "120", 0, 0},
		{301, "120", 0, 0},
	}
	s := NewSender(loopbackGuard)
	for _, tc := range cases {
		srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
			if tc.header != "" {
				w.Header().Set("Retry-After", tc.header)
			}
			w.WriteHeader(tc.code)
		})
		res := s.Send(context.Background(), sendReq(srv.URL))
		if res.StatusCode != tc.code || res.RetryAfter < tc.min || res.RetryAfter > tc.max {
			t.Errorf("%d Retry-After %q: got status %d, RetryAfter %v; want in [%v, %v]", tc.code, tc.header,
				res.StatusCode, res.RetryAfter, tc.min, tc.max)
		}
	}
	// RFC 850 and asctime forms of HTTP-date are accepted too.
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, v := range []string{"Sun, 01 Mar 2026 12:10:00 GMT", "Sunday, 01-Mar-26 12:10:00 GMT", "Sun Mar  1 12:10:00 2026"} {
		if got := parseRetryAfter(v, now); got != 10*time.Minute {
			t.Errorf("parseRetryAfter(%q) = %v, want 10m", v, got)
		}
	}
}

func TestSendSSRFBlocked(t *testing.T) {
	srv, h := sendServer(t, func(w http.ResponseWriter, r *http.Request) {})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	s := NewSender(Guard{})
	for _, url := range []string{
		srv.URL,                    // IP literal: refused before dialling
		"http://localhost:" + port, // a name: refused by the dialer on the resolved address
		"http://[::ffff:127.0.0.1]:" + port,
		"http://2130706433:" + port,
		"ftp://localhost:" + port + "/",
		"http://user:pw@localhost:" + port + "/",
	} {
		res := s.Send(context.Background(), sendReq(url))
		if res.Success || res.StatusCode != 0 || res.ErrorClass != "ssrf_blocked" {
			t.Errorf("%s: Send = %+v, want ErrorClass ssrf_blocked", url, res)
		}
		if res.Detail == "" {
			t.Errorf("%s: Send = %+v, want the refusal's reason in Detail", url, res)
		}
	}
	// The loopback address, as an IP literal (the URL check) or resolved from a name (the dialer),
	// names the setting that opens it in the reason the dispatcher logs.
	for _, url := range []string{srv.URL, "http://localhost:" + port} {
		if res := s.Send(context.Background(), sendReq(url)); !strings.Contains(res.Detail, "(loopback): "+PrivateTargetsHint) {
			t.Errorf("%s: Detail %q, want it to name CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS", url, res.Detail)
		}
	}
	// Link-local/metadata stays refused with AllowPrivate.
	res := NewSender(loopbackGuard).Send(context.Background(), sendReq("http://169.254.169.254/latest/meta-data/"))
	if res.ErrorClass != "ssrf_blocked" {
		t.Errorf("metadata address with AllowPrivate: Send = %+v, want ssrf_blocked", res)
	}
	if n := h.n.Load(); n != 0 {
		t.Fatalf("the server received %d requests", n)
	}
	// The same server is reachable with AllowPrivate, also by name.
	if res := NewSender(loopbackGuard).Send(context.Background(), sendReq("http://localhost:"+port+"/")); !res.Success {
		t.Fatalf("AllowPrivate, by name: Send = %+v", res)
	}
}

func TestSendDeprecationSunset(t *testing.T) {
	got := make(chan http.Header, 1)
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) { got <- r.Header.Clone() })
	dep := time.Date(2026, 1, 15, 8, 30, 0, 0, time.FixedZone("CET", 3600))
	sun := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	r := sendReq(srv.URL)
	r.Deprecation, r.Sunset = &dep, &sun
	if res := NewSender(loopbackGuard).Send(context.Background(), r); !res.Success {
		t.Fatalf("Send = %+v", res)
	}
	h := <-got
	if v := h.Get("Deprecation"); v != "Thu, 15 Jan 2026 07:30:00 GMT" {
		t.Errorf("Deprecation = %q", v)
	}
	if v := h.Get("Sunset"); v != "Wed, 01 Jul 2026 00:00:00 GMT" {
		t.Errorf("Sunset = %q", v)
	}
	if pt, err := http.ParseTime(h.Get("Deprecation")); err != nil || !pt.Equal(dep) {
		t.Errorf("Deprecation does not parse back: %v %v", pt, err)
	}
}

func TestSendDNSFailure(t *testing.T) {
	res := NewSender(Guard{}).Send(context.Background(), sendReq("http://nonexistent.invalid/hook"))
	if res.Success || res.StatusCode != 0 || res.ErrorClass != "dns" {
		t.Fatalf("Send = %+v, want ErrorClass dns", res)
	}
}

func TestSendTLSVerification(t *testing.T) {
	c := &hitCounter{}
	srv := httptest.NewUnstartedServer(c.wrap(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake failure is expected
	srv.StartTLS()
	defer srv.Close()
	res := NewSender(loopbackGuard).Send(context.Background(), sendReq(srv.URL))
	if res.Success || res.StatusCode != 0 || res.ErrorClass != "tls" {
		t.Fatalf("Send = %+v, want ErrorClass tls (self-signed certificate)", res)
	}
	if c.n.Load() != 0 {
		t.Fatal("the server received the request")
	}
}

func TestSendConnectionReset(t *testing.T) {
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		c, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			c.Close()
		}
	})
	res := NewSender(loopbackGuard).Send(context.Background(), sendReq(srv.URL))
	if res.Success || res.StatusCode != 0 || res.ErrorClass != "reset" {
		t.Fatalf("Send = %+v, want ErrorClass reset", res)
	}
}

func TestSendMalformedSecret(t *testing.T) {
	srv, h := sendServer(t, func(w http.ResponseWriter, r *http.Request) {})
	r := sendReq(srv.URL)
	r.Secret = "not-a-secret"
	res := NewSender(loopbackGuard).Send(context.Background(), r)
	if res.Success || res.ErrorClass != "secret" || h.n.Load() != 0 {
		t.Fatalf("Send = %+v (server hits %d), want ErrorClass secret and nothing sent", res, h.n.Load())
	}
}

func TestSendCanceled(t *testing.T) {
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // then the server notices the client going away
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res := NewSender(loopbackGuard).Send(ctx, sendReq(srv.URL))
	if res.Success || res.StatusCode != 0 || res.ErrorClass != "canceled" {
		t.Fatalf("Send = %+v, want ErrorClass canceled", res)
	}
}

func TestSendKeepAlive(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	s := NewSender(loopbackGuard)
	for range 5 {
		if res := s.Send(context.Background(), sendReq(srv.URL)); !res.Success {
			t.Fatalf("Send = %+v", res)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("5 sequential deliveries used %d connections, want 1 (keep-alive)", n)
	}
}

// The client never uses a proxy (a proxy would dial for us, past the guard), verifies TLS and
// does not follow redirects.
func TestSenderClientConfig(t *testing.T) {
	s := NewSender(Guard{})
	tr := s.client.Transport.(*http.Transport)
	if tr.Proxy != nil {
		t.Error("Transport.Proxy is set")
	}
	if tr.TLSClientConfig != nil && tr.TLSClientConfig.InsecureSkipVerify {
		t.Error("TLS verification is off")
	}
	if tr.DisableKeepAlives {
		t.Error("keep-alives are off")
	}
	if tr.DialContext == nil || tr.DialTLSContext != nil || tr.Dial != nil || tr.DialTLS != nil {
		t.Error("connections are not dialled through the guarded dialer only")
	}
	if s.client.CheckRedirect == nil || s.client.CheckRedirect(nil, nil) != http.ErrUseLastResponse {
		t.Error("CheckRedirect does not stop at the first response")
	}
}

// Connections to one host are not capped: a host shared by many subscriptions (a receiving SaaS)
// where 40 attempts hang still gets the next attempt of another subscription at once, instead of
// queueing it behind the hanging ones (the dispatcher's slots and caps bound the sockets).
func TestSendHangingAttemptsDoNotQueueOthersToTheSameHost(t *testing.T) {
	const hanging = 40
	release := make(chan struct{})
	entered := make(chan struct{}, hanging)
	srv, _ := sendServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			entered <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s := NewSender(loopbackGuard)
	var wg sync.WaitGroup
	defer func() { close(release); wg.Wait() }()
	for range hanging {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := sendReq(srv.URL + "/hang")
			req.Timeout = 30 * time.Second
			s.Send(context.Background(), req)
		}()
	}
	for i := range hanging {
		select {
		case <-entered:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d hanging attempts reached the host: connections to it are capped", i, hanging)
		}
	}
	if res := s.Send(context.Background(), sendReq(srv.URL+"/ok")); !res.Success {
		t.Fatalf("another subscription's attempt to the same host: %+v", res)
	}
}
