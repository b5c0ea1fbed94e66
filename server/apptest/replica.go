package apptest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/pgembed"
)

// ReadReplicaEnv names the variable that gives every catalogd the tests start (Start, StartOn,
// Main) a read replica: TEST_READ_REPLICA=1 starts a streaming standby of the test server
// (Standby; the server must allow replication, as cmd/testpg's cluster does) and sets
// DATABASE_READ_URL to the test database on it, so that the tests' GETs read from the standby
// (read-your-writes). It combines with TEST_POOLER (reads then go to the standby directly, writes
// through the pooler). Empty: no replica.
const ReadReplicaEnv = "TEST_READ_REPLICA"

// standby is this process's standby of the test server, started on first use and removed with
// the process (pgembed's watchdog).
var standby struct {
	sync.Mutex
	c *pgembed.Cluster
}

// Standby is this process's streaming standby of the test server (pg_basebackup -R of AdminURL's
// cluster), started on first use.
func Standby() (*pgembed.Cluster, error) {
	standby.Lock()
	defer standby.Unlock()
	if standby.c != nil {
		return standby.c, nil
	}
	admin, err := AdminURL()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := pgembed.StartStandby(ctx, slog.New(slog.DiscardHandler), admin, pgembed.ForTests())
	if err != nil {
		return nil, err
	}
	standby.c = c
	return c, nil
}

// ReadsOn returns the option that gives a catalogd the standby c as its read replica: its
// DATABASE_READ_URL is its database (DatabaseURL) on c. Give it before an option that puts the
// catalogd behind a pooler (BehindPooler), which changes DatabaseURL.
func ReadsOn(c *pgembed.Cluster) func(*app.Config) {
	return func(cfg *app.Config) {
		u, err := c.HostPort(cfg.DatabaseURL)
		if err != nil {
			panic(fmt.Sprintf("apptest: database URL %q: %v", cfg.DatabaseURL, err))
		}
		cfg.DatabaseReadURLs = []string{u}
	}
}

// readReplicaFromEnv is ReadsOn(Standby()) when TEST_READ_REPLICA is set, else nil.
func readReplicaFromEnv() (func(*app.Config), error) {
	if os.Getenv(ReadReplicaEnv) == "" {
		return nil, nil
	}
	c, err := Standby()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ReadReplicaEnv, err)
	}
	return ReadsOn(c), nil
}
