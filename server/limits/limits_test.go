package limits

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newAt(cfg Config) (*Limiter, *clock) {
	c := &clock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := New(cfg, prometheus.NewRegistry())
	l.now = c.now
	return l, c
}

// The bucket gives Burst requests at once, then one per 1/RPS; a refusal says when a token comes
// back; tenants have buckets of their own.
func TestTokenBucket(t *testing.T) {
	l, c := newAt(Config{RPS: 2, Burst: 4})
	for i := 0; i < 4; i++ {
		d := l.Take("a")
		if !d.Allowed || d.Remaining != 3-i {
			t.Fatalf("request %d: %+v", i, d)
		}
	}
	d := l.Take("a")
	if d.Allowed || d.RetryAfter != time.Second || Seconds(d.Reset) != 2 || d.Remaining != 0 {
		t.Fatalf("past the burst: %+v", d)
	}
	if d := l.Take("b"); !d.Allowed || d.Remaining != 3 {
		t.Fatalf("another tenant: %+v", d)
	}
	c.add(500 * time.Millisecond) // one token back at 2/s
	if d := l.Take("a"); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("after 0.5 s: %+v", d)
	}
	if d := l.Take("a"); d.Allowed {
		t.Fatalf("second after 0.5 s: %+v", d)
	}
	c.add(10 * time.Second) // refilled, never above the burst
	if d := l.Take("a"); !d.Allowed || d.Remaining != 3 || Seconds(d.Reset) != 1 {
		t.Fatalf("after 10 s: %+v", d)
	}
	if got := counter(t, l, ReasonRate); got != 2 {
		t.Errorf("refused counter %v, want 2", got)
	}
}

// A slow rate gives a Retry-After of the time one token takes, rounded up.
func TestRetryAfterFollowsTheRate(t *testing.T) {
	l, _ := newAt(Config{RPS: 0.25, Burst: 1})
	l.Take("a")
	if d := l.Take("a"); d.Allowed || d.RetryAfter != 4*time.Second {
		t.Fatalf("%+v", d)
	}
}

// The header values follow draft-ietf-httpapi-ratelimit-headers: q is the burst, w the seconds an
// empty bucket takes to fill; r the whole tokens left, t the seconds until full.
func TestHeaders(t *testing.T) {
	l, _ := newAt(Config{RPS: 200, Burst: 400})
	if got := l.Policy(); got != `"default";q=400;w=2` {
		t.Errorf("policy %s", got)
	}
	if got := l.Take("a").Header(); got != `"default";r=399;t=1` {
		t.Errorf("header %s", got)
	}
	l, _ = newAt(Config{RPS: 3, Burst: 10})
	if got := l.Policy(); got != `"default";q=10;w=4` {
		t.Errorf("policy %s", got)
	}
}

// Idle buckets are dropped once full again, so memory follows the active tenants.
func TestIdleBucketsAreDropped(t *testing.T) {
	l, c := newAt(Config{RPS: 10, Burst: 10})
	for i := 0; i < 1000; i++ {
		l.Take("t" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + time.Duration(i).String())
	}
	if n := l.Tenants(); n != 1000 {
		t.Fatalf("%d buckets", n)
	}
	c.add(2 * sweepEvery)
	l.Take("last")
	if n := l.Tenants(); n != 1 {
		t.Fatalf("%d buckets after the sweep, want 1", n)
	}
}

// Off (RPS 0) allows everything and holds nothing.
func TestDisabled(t *testing.T) {
	l, _ := newAt(Config{Concurrency: 1})
	for i := 0; i < 100; i++ {
		if !l.Take("a").Allowed {
			t.Fatal("refused while off")
		}
		if _, err := l.Acquire(context.Background(), "a"); err != nil {
			t.Fatal(err)
		}
	}
	if l.Tenants() != 0 || l.InFlight() != 0 {
		t.Fatal("state kept while off")
	}
	var nl *Limiter
	if nl.Enabled() || !nl.Take("a").Allowed {
		t.Fatal("nil limiter")
	}
}

// A tenant holds at most Concurrency slots; the next waits, then is refused; another tenant is
// not affected; a released slot goes to a waiter; entries go when nothing is held.
func TestConcurrencyCap(t *testing.T) {
	l, _ := newAt(Config{RPS: 1000, Burst: 1000, Concurrency: 2, Wait: 20 * time.Millisecond})
	ctx := context.Background()
	r1, err1 := l.Acquire(ctx, "a")
	r2, err2 := l.Acquire(ctx, "a")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if _, err := l.Acquire(ctx, "a"); !errors.Is(err, ErrBusy) {
		t.Fatalf("third slot: %v", err)
	}
	rb, err := l.Acquire(ctx, "b")
	if err != nil {
		t.Fatalf("other tenant: %v", err)
	}
	rb()
	got := make(chan error)
	l.cfg.Wait = time.Minute
	go func() {
		r, err := l.Acquire(ctx, "a")
		if err == nil {
			r()
		}
		got <- err
	}()
	r1()
	if err := <-got; err != nil {
		t.Fatalf("waiter: %v", err)
	}
	r3, err := l.Acquire(ctx, "a") // the slot r1 freed (the waiter gave it back)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() { _, err := l.Acquire(cctx, "a"); got <- err }()
	go func() { _, err := l.Acquire(cctx, "a"); got <- err }()
	cancel()
	for i := 0; i < 2; i++ {
		if err := <-got; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled waiter: %v", err)
		}
	}
	r2()
	r3()
	if n := l.InFlight(); n != 0 {
		t.Fatalf("%d tenants still held", n)
	}
	if got := counter(t, l, ReasonConcurrency); got != 1 {
		t.Errorf("refused counter %v, want 1 (cancellations are not refusals)", got)
	}
}

func counter(t *testing.T, l *Limiter, reason string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(l.refused)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "reason" && lp.GetValue() == reason {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	t.Fatalf("no series reason=%s", reason)
	return 0
}
