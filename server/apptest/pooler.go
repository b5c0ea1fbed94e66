package apptest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/pgembed"
	"github.com/catalogd/catalogd/server/store"
)

// PoolerEnv names the variable that runs every catalogd the tests start (Start, StartOn, Main)
// behind a private PgBouncer: TEST_POOLER=transaction or session puts one, in that pool mode, in
// front of the test server (AdminURL), and catalogd reaches its database through it, with
// CATALOG_DATABASE_POOLER set to the mode and, in transaction mode, CATALOG_DATABASE_DIRECT_URL to
// the database itself (for LISTEN). The tests' own pools (Env.DBURL) stay direct. Empty: no pooler.
const PoolerEnv = "TEST_POOLER"

// bouncers are this process's PgBouncers, one per pool mode, started on first use and stopped
// with the process (pgembed's watchdog).
var bouncers struct {
	sync.Mutex
	m map[string]*pgembed.Bouncer
}

// Bouncer is this process's PgBouncer in pool mode ("transaction" or "session") in front of the
// test server, started on first use.
func Bouncer(mode string) (*pgembed.Bouncer, error) {
	bouncers.Lock()
	defer bouncers.Unlock()
	if b := bouncers.m[mode]; b != nil {
		return b, nil
	}
	admin, err := AdminURL()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// In session mode every client connection holds a server connection for its life: a catalogd
	// opens up to 20 and a test may run several on one database.
	size := 0
	if mode == "session" {
		size = 80
	}
	b, err := pgembed.StartBouncer(ctx, admin, pgembed.BouncerOptions{Mode: mode, PoolSize: size})
	if err != nil {
		return nil, err
	}
	if bouncers.m == nil {
		bouncers.m = map[string]*pgembed.Bouncer{}
	}
	bouncers.m[mode] = b
	return b, nil
}

// BehindPooler returns the option that runs a catalogd behind Bouncer(mode): its DATABASE_URL
// (the database it was given) through the bouncer, CATALOG_DATABASE_POOLER mode and, with direct,
// CATALOG_DATABASE_DIRECT_URL the database itself. Give it after any option that sets DatabaseURL.
// A catalogd already behind a pooler (TEST_POOLER) is moved behind this one.
func BehindPooler(mode string, direct bool) (func(*app.Config), error) {
	pooler, err := store.ParsePooler(mode)
	if err != nil || pooler == store.PoolerNone {
		return nil, fmt.Errorf("apptest: pooler mode %q: want transaction or session", mode)
	}
	b, err := Bouncer(mode)
	if err != nil {
		return nil, err
	}
	return func(cfg *app.Config) {
		db := cfg.DatabaseURL
		if cfg.DatabaseDirectURL != "" {
			db = cfg.DatabaseDirectURL
		}
		pooled, err := b.URL(db)
		if err != nil {
			panic(fmt.Sprintf("apptest: database URL %q: %v", db, err))
		}
		cfg.DatabasePooler, cfg.DatabaseURL, cfg.DatabaseDirectURL = pooler, pooled, ""
		if direct && pooler == store.PoolerTransaction {
			cfg.DatabaseDirectURL = db
		}
	}, nil
}

// poolerFromEnv is BehindPooler of TEST_POOLER (with the direct URL), or nil when it is empty.
func poolerFromEnv() (func(*app.Config), error) {
	mode := os.Getenv(PoolerEnv)
	if mode == "" {
		return nil, nil
	}
	opt, err := BehindPooler(mode, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", PoolerEnv, err)
	}
	return opt, nil
}
