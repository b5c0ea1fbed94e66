package webhooks

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/catalogd/catalogd/server/tracing"
)

// Error classes of Result.ErrorClass.
const (
	ClassTimeout  = "timeout"
	ClassDNS      = "dns"
	ClassTLS      = "tls"
	ClassRefused  = "refused"
	ClassReset    = "reset"
	ClassRedirect = "redirect"
	ClassBlocked  = "ssrf_blocked"
	ClassNetwork  = "network"
	// ClassSecret: the subscription secret is malformed, nothing was sent.
	ClassSecret = "secret"
	// ClassCanceled: the caller's context ended (for example on shutdown) before a response came.
	ClassCanceled = "canceled"
)

const (
	// UserAgent is sent with every delivery.
	UserAgent = "catalogd-webhooks/1"
	// DefaultTimeout applies when Request.Timeout is not positive.
	DefaultTimeout = 15 * time.Second
	// MaxBodyChars is the number of characters (code points) of the response body kept.
	MaxBodyChars = 2048
	// MaxBodyRead is the number of bytes of the response body read at most.
	MaxBodyRead = 64 << 10
	// MaxRetryAfter caps a receiver's Retry-After.
	MaxRetryAfter = 24 * time.Hour
	// MaxIdleConnsPerHost is how many connections to one target host are kept alive between
	// attempts. Connections in use are not capped per host: a host shared by many subscriptions
	// (a receiving SaaS) would otherwise be a queue that one tenant's hanging subscriptions fill
	// for everyone. What bounds the sockets is the dispatcher: its attempt slots, and the caps per
	// subscription and per tenant on attempts in flight.
	MaxIdleConnsPerHost = 32
)

// Request is one delivery attempt.
type Request struct {
	MsgID     string // webhook-id: the delivery uuid, the same on every attempt
	EventType string // X-Webhook-Event-Type
	Payload   []byte // raw JSON body
	Secret    string // whsec_... current secret (signed again per attempt)
	URL       string
	Timeout   time.Duration // whole attempt: connect, TLS, headers and body; DefaultTimeout when <= 0
	// Optional: sent as HTTP-dates (http.TimeFormat) when set.
	Deprecation, Sunset *time.Time
}

// Result is the outcome of one attempt.
type Result struct {
	StatusCode int    // 0 when no HTTP response
	Body       string // first 2048 characters of the response body, valid UTF-8 without NUL, reading at most 64 KiB
	Duration   time.Duration
	// "" on any HTTP response except a redirect (3xx); else one of the Class* constants:
	// timeout, dns, tls, refused, reset, redirect, ssrf_blocked, network (and secret, canceled).
	ErrorClass string
	// Why an ssrf_blocked attempt was refused (the guard's message, naming the address and, for a
	// loopback or private one, CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS); the dispatcher logs it.
	// Not stored: the attempt records the class.
	Detail     string
	RetryAfter time.Duration // parsed Retry-After (seconds or HTTP-date) on 429/503, capped at 24h; 0 when absent/invalid
	Success    bool          // any 2xx within the timeout
}

// Sender makes webhook delivery attempts. It is safe for concurrent use.
type Sender struct {
	guard  Guard
	client *http.Client
}

// NewSender returns a Sender whose connections are dialled through the Guard's Control (every
// resolved address is checked), with no proxy, no redirects followed, TLS verification on and
// keep-alive connection pools (MaxIdleConnsPerHost idle connections per target host).
func NewSender(g Guard) *Sender {
	dialer := &net.Dialer{
		Timeout:   30 * time.Second, // the per-request context is usually shorter
		KeepAlive: 30 * time.Second,
		Control:   g.Control,
	}
	tr := &http.Transport{
		Proxy:                  nil, // never from the environment: a proxy would dial for us, past the guard
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    10 * time.Second,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           1024,
		MaxIdleConnsPerHost:    MaxIdleConnsPerHost,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		DisableCompression:     true, // the stored body is what the receiver sent; no decompression bombs
	}
	return &Sender{
		guard: g,
		client: &http.Client{
			Transport: tr,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
	}
}

// CloseIdleConnections closes the idle keep-alive connections of the Sender.
func (s *Sender) CloseIdleConnections() { s.client.CloseIdleConnections() }

// Send POSTs one attempt, signed with the current time as webhook-timestamp. It never returns an
// error: delivery failures are described by the Result.
func (s *Sender) Send(ctx context.Context, req Request) Result {
	start := time.Now()
	res := s.send(ctx, req, start)
	res.Duration = time.Since(start)
	return res
}

func (s *Sender) send(ctx context.Context, req Request, start time.Time) Result {
	// The URL was checked on create/update; check again, the policy may differ now.
	if err := s.guard.CheckURL(req.URL); err != nil {
		return Result{ErrorClass: ClassBlocked, Detail: err.Error()}
	}
	sig, err := Sign(req.Secret, req.MsgID, start, req.Payload)
	if err != nil {
		return Result{ErrorClass: ClassSecret}
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, req.URL, bytes.NewReader(req.Payload))
	if err != nil {
		return Result{ErrorClass: ClassBlocked, Detail: "targetUrl is not a valid URL"}
	}
	h := hr.Header
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("User-Agent", UserAgent)
	// Standard Webhooks names its headers in lower case; set them verbatim (not canonicalised).
	h["webhook-id"] = []string{req.MsgID}
	h["webhook-timestamp"] = []string{strconv.FormatInt(start.Unix(), 10)}
	h["webhook-signature"] = []string{sig}
	h.Set("X-Webhook-Event-Type", req.EventType)
	if req.Deprecation != nil {
		h.Set("Deprecation", req.Deprecation.UTC().Format(http.TimeFormat))
	}
	if req.Sunset != nil {
		h.Set("Sunset", req.Sunset.UTC().Format(http.TimeFormat))
	}
	tracing.Inject(ctx, h) // traceparent: the trace of the write that caused the event

	resp, err := s.client.Do(hr)
	if err != nil {
		res := Result{ErrorClass: classifyErr(ctx, err)}
		var b *blockedError
		if errors.As(err, &b) {
			res.Detail = b.msg
		}
		return res
	}
	defer resp.Body.Close()
	// Errors reading the body (including the timeout) are ignored: the status line decided.
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, MaxBodyRead))
	res := Result{
		StatusCode: resp.StatusCode,
		Body:       truncateBody(raw, MaxBodyChars),
		Success:    resp.StatusCode >= 200 && resp.StatusCode <= 299,
	}
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		res.ErrorClass = ClassRedirect
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		res.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return res
}

// truncateBody returns the first max code points of b as valid UTF-8: each invalid byte and each
// NUL (which PostgreSQL text cannot store) becomes U+FFFD.
func truncateBody(b []byte, max int) string {
	var sb strings.Builder
	sb.Grow(min(len(b), max*utf8.UTFMax))
	for n := 0; len(b) > 0 && n < max; n++ {
		r, size := utf8.DecodeRune(b)
		if r == 0 {
			r = utf8.RuneError
		}
		sb.WriteRune(r) // RuneError for an invalid byte (size 1)
		b = b[size:]
	}
	return sb.String()
}

// parseRetryAfter parses a Retry-After value: delay-seconds or an HTTP-date. It returns 0 when v
// is absent, invalid or in the past, and caps the delay at MaxRetryAfter.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if v[0] >= '0' && v[0] <= '9' {
		for i := 0; i < len(v); i++ {
			if v[i] < '0' || v[i] > '9' {
				return 0
			}
		}
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > int64(MaxRetryAfter/time.Second) { // also overflow
			return MaxRetryAfter
		}
		d = time.Duration(secs) * time.Second
	} else {
		t, err := http.ParseTime(v)
		if err != nil {
			return 0
		}
		d = t.Sub(now)
	}
	if d <= 0 {
		return 0
	}
	return min(d, MaxRetryAfter)
}

// classifyErr maps a client error (no HTTP response) to an error class.
func classifyErr(ctx context.Context, err error) string {
	var (
		dnsErr   *net.DNSError
		certErr  *tls.CertificateVerificationError
		recErr   tls.RecordHeaderError
		alertErr tls.AlertError
		unkAuth  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		invErr   x509.CertificateInvalidError
		netErr   net.Error
	)
	switch {
	case errors.Is(err, ErrBlocked):
		return ClassBlocked
	case errors.As(err, &dnsErr):
		return ClassDNS
	case errors.As(err, &certErr), errors.As(err, &recErr), errors.As(err, &alertErr),
		errors.As(err, &unkAuth), errors.As(err, &hostErr), errors.As(err, &invErr):
		return ClassTLS
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, syscall.ETIMEDOUT),
		errors.As(err, &netErr) && netErr.Timeout():
		return ClassTimeout
	case errors.Is(err, context.Canceled):
		if ctx.Err() != nil {
			return ClassCanceled
		}
		return ClassNetwork
	case errors.Is(err, syscall.ECONNREFUSED):
		return ClassRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return ClassReset
	case strings.Contains(err.Error(), "tls: "):
		return ClassTLS
	}
	return ClassNetwork
}
