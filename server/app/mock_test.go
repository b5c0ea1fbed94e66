package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/auth"
)

// seedConn stands for the services under the demo seed: each call of a tenant's seed waits for
// release (or fails at once with fail), and the tenants whose seeds are inside a call are counted.
type seedConn struct {
	release chan struct{}
	fail    error
	mu      sync.Mutex
	in      map[string]int
	most    int
	calls   map[string]int
}

func (c *seedConn) Invoke(ctx context.Context, method string, _, _ any, _ ...grpc.CallOption) error {
	md, _ := metadata.FromOutgoingContext(ctx)
	tok, _ := auth.ParseBearer(md.Get("authorization")[0])
	p, err := auth.Unverified(tok, MockTenant, DevScopes)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.calls[p.Tenant]++
	c.in[p.Tenant]++
	c.most = max(c.most, len(c.in))
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.in[p.Tenant]--; c.in[p.Tenant] == 0 {
			delete(c.in, p.Tenant)
		}
		c.mu.Unlock()
	}()
	if c.fail != nil {
		return c.fail
	}
	select {
	case <-c.release:
		return errors.New("released") // the seed stops at its first call: enough for these tests
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *seedConn) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, errors.New("no streams")
}

func newTestSeeder(conn *seedConn) *demoSeeder {
	conn.in, conn.calls = map[string]int{}, map[string]int{}
	return newDemoSeeder(conn, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

func unavailable(err error) bool {
	var e *apierr.Error
	return errors.As(err, &e) && e.Code == apierr.Unavailable
}

// New tenants' seeds run mockSeedsAtOnce at a time; a caller waits at most mockSeedWait and is then
// 503 while its seed goes on.
func TestDemoSeedsAreBounded(t *testing.T) {
	defer func(w time.Duration) { mockSeedWait = w }(mockSeedWait)
	mockSeedWait = 200 * time.Millisecond
	conn := &seedConn{release: make(chan struct{})}
	d := newTestSeeder(conn)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = d.ensure(context.Background(), "t"+string(rune('a'+i))) }()
	}
	wg.Wait()
	for i, err := range errs {
		if !unavailable(err) || !strings.Contains(err.Error(), "is being made") {
			t.Errorf("tenant %d: %v, want 503 while its seed runs", i, err)
		}
	}
	conn.mu.Lock()
	most := conn.most
	conn.mu.Unlock()
	if most != mockSeedsAtOnce {
		t.Errorf("%d seeds ran at once, want %d", most, mockSeedsAtOnce)
	}
	close(conn.release)
}

// A failed seed is not made again: the tenant's calls say so, without another seed.
func TestFailedDemoSeedStaysFailed(t *testing.T) {
	conn := &seedConn{fail: errors.New("boom")}
	d := newTestSeeder(conn)
	for i := 0; i < 3; i++ {
		if err := d.ensure(context.Background(), "broken"); !unavailable(err) || !strings.Contains(err.Error(), "could not be made") {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if n := conn.calls["broken"]; n != 1 {
		t.Errorf("the failed seed was tried %d times", n)
	}
	// The seed's own calls never wait for it.
	if err := d.ensure(context.WithValue(context.Background(), seedingKey{}, true), "other"); err != nil {
		t.Errorf("seed call: %v", err)
	}
}

func TestDemoTenantsAreCapped(t *testing.T) {
	defer func(n int) { mockMaxTenants = n }(mockMaxTenants)
	mockMaxTenants = 2
	conn := &seedConn{fail: errors.New("quick")}
	d := newTestSeeder(conn)
	_ = d.ensure(context.Background(), "one")
	_ = d.ensure(context.Background(), "two")
	var e *apierr.Error
	if err := d.ensure(context.Background(), "three"); !errors.As(err, &e) || e.Code != apierr.LimitExceeded {
		t.Fatalf("third tenant: %v, want LIMIT_EXCEEDED", err)
	}
	if err := d.ensure(context.Background(), "one"); !unavailable(err) {
		t.Errorf("a known tenant: %v", err)
	}
}

// catalogd mock refuses to start on an address that is not loopback (every address, a private or a
// public one) unless MockAllowPublic: anyone who reaches it is any tenant. Refused before anything
// starts (no database).
func TestMockListensOnLoopbackOnly(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, c := range []struct{ http, grpc string }{
		{"0.0.0.0:0", "127.0.0.1:0"},
		{":0", "127.0.0.1:0"},
		{"127.0.0.1:0", "[::]:0"},
		{"127.0.0.1:0", "10.1.2.3:0"},
	} {
		_, err := Start(context.Background(), Config{Mock: true, HTTPAddr: c.http, GRPCAddr: c.grpc}, log)
		if err == nil || !strings.Contains(err.Error(), "CATALOG_MOCK_ALLOW_PUBLIC") {
			t.Errorf("mock on %s and %s: %v, want a refusal naming CATALOG_MOCK_ALLOW_PUBLIC", c.http, c.grpc, err)
		}
	}
	for _, c := range []struct{ http, grpc string }{
		{"127.0.0.1:0", "[::1]:0"},
		{"localhost:0", "127.0.0.1:0"},
	} {
		if err := checkMockAddrs(context.Background(), Config{Mock: true, HTTPAddr: c.http, GRPCAddr: c.grpc}); err != nil {
			t.Errorf("mock on %s and %s: %v", c.http, c.grpc, err)
		}
	}
	if err := checkMockAddrs(context.Background(), Config{Mock: true, MockAllowPublic: true, HTTPAddr: "0.0.0.0:0", GRPCAddr: ":0"}); err != nil {
		t.Errorf("mock on every address with MockAllowPublic: %v", err)
	}
}
