// Package fault runs catalogd as a child process on a PostgreSQL cluster of its own and breaks
// things under load: catalogd is killed with SIGKILL mid-delivery, PostgreSQL is restarted and
// crashed mid-write. The tests assert what issue 11 asks of an outage: no acknowledged write loses
// its row or its webhook delivery, clients see 503 with Retry-After (never 500) while the
// database is down, and /readyz says so, and only then.
package fault

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/server/pgembed"
)

// The package's own cluster and the catalogd binary, set up by TestMain.
var (
	cluster *pgembed.Cluster
	binary  string
)

func TestMain(m *testing.M) {
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fault:", err)
		code = 1
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tmp, err := os.MkdirTemp("", "catalogd-fault-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	binary = filepath.Join(tmp, "catalogd")
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, "github.com/catalogd/catalogd/cmd/catalogd")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return 0, fmt.Errorf("build catalogd: %w", err)
	}
	// A cluster of our own (never TEST_DATABASE_URL's: these tests stop and crash it). Throwaway
	// settings for speed, but synchronous_commit on: an immediate shutdown must not lose a commit
	// that was acknowledged (fsync off is harmless here, the machine does not crash).
	level := slog.LevelWarn
	if os.Getenv("TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	cluster, err = pgembed.StartTemp(ctx, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})), pgembed.ForTests())
	if err != nil {
		return 0, err
	}
	defer cluster.Remove() //nolint:errcheck
	conn, err := pgx.Connect(ctx, cluster.AdminURL())
	if err != nil {
		return 0, err
	}
	for _, sql := range []string{"ALTER SYSTEM SET synchronous_commit = on", "SELECT pg_reload_conf()"} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return 0, err
		}
	}
	_ = conn.Close(ctx)
	return m.Run(), nil
}
