package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/mock"
)

// `catalogd mock` (Config.Mock) is the spec's mock server (docs/design.md "catalogd mock"): the same
// service on an embedded database of its own, where any well-formed bearer token is accepted and
// every tenant starts with the demo catalog (server/mock), seeded the first time one of its tokens
// is seen. Nothing else differs: the same paths, rules, errors, events and webhooks.

// MockTenant is the tenant of a mock token without a tenant_id claim, seeded at start-up.
const MockTenant = "mock"

// mockVerifier accepts any well-formed token (auth.Unverified): tenant from its tenant_id claim,
// else MockTenant; scopes from its scope claim, else every scope.
type mockVerifier struct{}

func (mockVerifier) Verify(_ context.Context, token string) (*auth.Principal, error) {
	return auth.Unverified(token, MockTenant, DevScopes)
}

// MockToken is a well-formed token of tenant with every scope, as the mock prints it for a person to
// copy (unsigned: the mock checks no signature; any other well-formed token works as well).
func MockToken(tenant string) string {
	seg := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return seg(map[string]string{"alg": "none", "typ": "JWT"}) + "." +
		seg(map[string]string{"tenant_id": tenant, "sub": "mock", "scope": strings.Join(DevScopes, " ")}) + "."
}

// The mock's bounds: it is meant for one developer or a CI job, not as a public service, but a loop
// of new tenants must not take it down. Seeds run a few at a time (each takes 0.2–0.4 s and holds a
// few connections); a tenant's call waits for its seed at most mockSeedWait, then is 503 while the
// seed goes on; past mockMaxTenants tenants, a new one is refused.
const mockSeedsAtOnce = 2

var ( // variables for the tests
	mockSeedWait   = 15 * time.Second
	mockMaxTenants = 1000
)

// demoSeeder gives each tenant the demo catalog once, before its first call is served: a tenant's
// first calls wait for the seed, later ones pass at once.
type demoSeeder struct {
	conn  grpc.ClientConnInterface // the services in process (localConn): the seed goes through the API
	log   *slog.Logger
	slots chan struct{} // mockSeedsAtOnce
	mu    sync.Mutex
	seed  map[string]*tenantSeed
}

func newDemoSeeder(conn grpc.ClientConnInterface, log *slog.Logger) *demoSeeder {
	return &demoSeeder{conn: conn, log: log, slots: make(chan struct{}, mockSeedsAtOnce), seed: map[string]*tenantSeed{}}
}

type tenantSeed struct {
	done chan struct{}
	err  error
}

// seedingKey marks the context of the seed's own calls, which must not wait for the seed.
type seedingKey struct{}

// ensure seeds tenant unless it is seeded (or being seeded: then it waits, at most mockSeedWait).
func (d *demoSeeder) ensure(ctx context.Context, tenant string) error {
	if ctx.Value(seedingKey{}) != nil {
		return nil
	}
	d.mu.Lock()
	s := d.seed[tenant]
	if s == nil {
		if len(d.seed) >= mockMaxTenants {
			d.mu.Unlock()
			return apierr.New(apierr.LimitExceeded, "this mock holds the demo catalogs of %d tenants, its most; restart catalogd mock for a clean state",
				mockMaxTenants).WithMeta("limit", mockMaxTenants)
		}
		s = &tenantSeed{done: make(chan struct{})}
		d.seed[tenant] = s
		go d.run(tenant, s) // not tied to this call: a client that goes away does not cut the seed
	}
	d.mu.Unlock()
	wait := time.NewTimer(mockSeedWait)
	defer wait.Stop()
	select {
	case <-s.done:
	case <-wait.C:
		return apierr.New(apierr.Unavailable, "the demo catalog of tenant %s is being made; try again in a few seconds", tenant)
	case <-ctx.Done():
		return ctx.Err()
	}
	if s.err != nil {
		// Not tried again: the seed's writes are many calls, and what a failed one made stays.
		return apierr.New(apierr.Unavailable, "the demo catalog of tenant %s could not be made (see the mock's log); use another tenant or restart catalogd mock", tenant)
	}
	return nil
}

func (d *demoSeeder) run(tenant string, s *tenantSeed) {
	defer close(s.done)
	d.slots <- struct{}{}
	defer func() { <-d.slots }()
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), seedingKey{}, true), 5*time.Minute)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+MockToken(tenant))
	start := time.Now()
	sum, err := mock.Seed(ctx, d.conn, tenant)
	switch {
	case errors.Is(err, mock.ErrSeeded): // seeded by an earlier process on this database
		d.log.Info("demo catalog already there", "tenant", tenant)
	case err != nil:
		s.err = err
		d.log.Error("seed the demo catalog", "tenant", tenant, "error", err.Error())
	default:
		d.log.Info("seeded the demo catalog", "tenant", tenant, "catalog", sum.String(),
			"duration_ms", time.Since(start).Milliseconds())
	}
}
