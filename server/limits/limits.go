// Package limits is the per-tenant fairness of the front door (DESIGN.md "Limits and fairness"): a
// token bucket per tenant per replica (CATALOG_RATE_LIMIT_RPS, CATALOG_RATE_LIMIT_BURST) and a cap on
// the requests one tenant has in handlers at once (half the database pool), with the IETF
// RateLimit-Policy / RateLimit header values (draft-ietf-httpapi-ratelimit-headers, structured fields)
// and a counter of refused requests. The transports (REST middleware, gRPC interceptor) decide where
// to call it; this package knows nothing of HTTP or gRPC.
package limits

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// PolicyName is the name of the one quota policy in the RateLimit headers.
const PolicyName = "default"

// sweepEvery is how often idle buckets are dropped (at most; done by the calls themselves).
const sweepEvery = time.Minute

// Config of a Limiter.
type Config struct {
	// RPS is the steady rate of each tenant's bucket; 0 turns every limit of this package off.
	RPS float64
	// Burst is the bucket's size (at least 1).
	Burst int
	// Concurrency is how many requests one tenant may have in handlers at once; 0: no cap.
	Concurrency int
	// Wait is how long a request waits for one of its tenant's Concurrency slots before it is refused.
	Wait time.Duration
}

// Limiter holds the buckets and slots of every tenant seen recently. A nil or disabled Limiter
// allows everything.
type Limiter struct {
	cfg    Config
	now    func() time.Time
	policy string

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time

	smu   sync.Mutex
	slots map[string]*slots

	refused *prometheus.CounterVec
}

type bucket struct {
	tokens float64
	last   time.Time
}

// slots is one tenant's concurrency semaphore; refs counts holders and waiters (the entry is
// dropped when it reaches 0, so memory follows the tenants with requests in flight).
type slots struct {
	ch   chan struct{}
	refs int
}

// Reasons of catalogd_rate_limited_requests_total.
const (
	ReasonRate        = "rate"
	ReasonConcurrency = "concurrency"
)

// New makes a Limiter; reg (may be nil) gets the counter catalogd_rate_limited_requests_total.
func New(cfg Config, reg prometheus.Registerer) *Limiter {
	if cfg.Burst < 1 {
		cfg.Burst = 1
	}
	l := &Limiter{cfg: cfg, now: time.Now, buckets: map[string]*bucket{}, slots: map[string]*slots{},
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_rate_limited_requests_total",
			Help: "Requests refused with 429 by the per-tenant limits, by reason: rate (token bucket) or concurrency (share of the database pool)."},
			[]string{"reason"})}
	l.refused.WithLabelValues(ReasonRate)
	l.refused.WithLabelValues(ReasonConcurrency)
	if reg != nil {
		reg.MustRegister(l.refused)
	}
	// The policy: the bucket's size as the quota, over the time an empty bucket takes to fill.
	l.policy = fmt.Sprintf("%q;q=%d;w=%d", PolicyName, cfg.Burst, l.window())
	return l
}

// Enabled reports whether the limits apply.
func (l *Limiter) Enabled() bool { return l != nil && l.cfg.RPS > 0 }

// window is the policy's w: whole seconds for an empty bucket to fill (at least 1).
func (l *Limiter) window() int64 {
	if l.cfg.RPS <= 0 {
		return 1
	}
	return max(1, int64(math.Ceil(float64(l.cfg.Burst)/l.cfg.RPS)))
}

// Policy is the RateLimit-Policy field value: `"default";q=<burst>;w=<seconds to fill>`.
func (l *Limiter) Policy() string { return l.policy }

// Decision is the outcome of Take.
type Decision struct {
	Allowed bool
	// Remaining is the whole tokens left after this request (the header's r).
	Remaining int
	// Reset is the time until the bucket is full again (the header's t, rounded up).
	Reset time.Duration
	// RetryAfter is, when refused, the time until one token is available.
	RetryAfter time.Duration
}

// Header is the RateLimit field value: `"default";r=<remaining>;t=<seconds until full>`.
func (d Decision) Header() string {
	return fmt.Sprintf("%q;r=%d;t=%d", PolicyName, d.Remaining, Seconds(d.Reset))
}

// Seconds rounds a duration up to whole seconds (Retry-After, t).
func Seconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64(math.Ceil(d.Seconds()))
}

// Take spends one token of tenant's bucket when there is one.
func (l *Limiter) Take(tenant string) Decision {
	if !l.Enabled() {
		return Decision{Allowed: true, Remaining: l.burst()}
	}
	now := l.now()
	burst := float64(l.cfg.Burst)
	l.mu.Lock()
	if now.Sub(l.lastSweep) >= sweepEvery {
		l.sweepLocked(now)
	}
	b := l.buckets[tenant]
	if b == nil {
		b = &bucket{tokens: burst, last: now}
		l.buckets[tenant] = b
	}
	l.refill(b, now)
	d := Decision{}
	if b.tokens >= 1 {
		b.tokens--
		d.Allowed = true
	} else {
		d.RetryAfter = max(time.Second, l.dur((1-b.tokens)/l.cfg.RPS))
	}
	d.Remaining = int(b.tokens)
	d.Reset = l.dur((burst - b.tokens) / l.cfg.RPS)
	l.mu.Unlock()
	if !d.Allowed {
		l.refused.WithLabelValues(ReasonRate).Inc()
	}
	return d
}

func (l *Limiter) burst() int {
	if l == nil {
		return 0
	}
	return l.cfg.Burst
}

func (l *Limiter) dur(sec float64) time.Duration { return time.Duration(sec * float64(time.Second)) }

func (l *Limiter) refill(b *bucket, now time.Time) {
	if el := now.Sub(b.last); el > 0 {
		b.tokens = math.Min(float64(l.cfg.Burst), b.tokens+el.Seconds()*l.cfg.RPS)
		b.last = now
	}
}

// sweepLocked drops the buckets that are full again: a full bucket is what a new one is, so
// dropping it changes nothing but memory (the tenants that made a request in the last
// Burst/RPS seconds, plus at most sweepEvery).
func (l *Limiter) sweepLocked(now time.Time) {
	for k, b := range l.buckets {
		l.refill(b, now)
		if b.tokens >= float64(l.cfg.Burst) {
			delete(l.buckets, k)
		}
	}
	l.lastSweep = now
}

// Tenants is the number of buckets held (tests, metrics).
func (l *Limiter) Tenants() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// ErrBusy is Acquire's refusal: the tenant's slots stayed taken for the whole wait.
var ErrBusy = fmt.Errorf("too many requests of this tenant in flight")

// Acquire takes one of tenant's concurrency slots, waiting up to Config.Wait (or until ctx ends).
// release gives it back; it must be called exactly once when err is nil.
func (l *Limiter) Acquire(ctx context.Context, tenant string) (release func(), err error) {
	if !l.Enabled() || l.cfg.Concurrency <= 0 {
		return func() {}, nil
	}
	l.smu.Lock()
	s := l.slots[tenant]
	if s == nil {
		s = &slots{ch: make(chan struct{}, l.cfg.Concurrency)}
		l.slots[tenant] = s
	}
	s.refs++
	l.smu.Unlock()
	release = func() {
		<-s.ch
		l.unref(tenant, s)
	}
	select {
	case s.ch <- struct{}{}:
		return release, nil
	default:
	}
	t := time.NewTimer(l.cfg.Wait)
	defer t.Stop()
	select {
	case s.ch <- struct{}{}:
		return release, nil
	case <-t.C:
		err = ErrBusy
		l.refused.WithLabelValues(ReasonConcurrency).Inc()
	case <-ctx.Done():
		err = ctx.Err()
	}
	l.unref(tenant, s)
	return nil, err
}

func (l *Limiter) unref(tenant string, s *slots) {
	l.smu.Lock()
	s.refs--
	if s.refs == 0 {
		delete(l.slots, tenant)
	}
	l.smu.Unlock()
}

// InFlight is the number of tenants with a slot held or awaited (tests).
func (l *Limiter) InFlight() int {
	l.smu.Lock()
	defer l.smu.Unlock()
	return len(l.slots)
}
