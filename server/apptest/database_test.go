package apptest

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/server/pgembed"
)

// hostServer is the machine's own PostgreSQL, which the tests must leave alone.
const hostServer = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable&connect_timeout=3"

func scalar[T any](t *testing.T, dbURL, sql string, args ...any) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatalf("connect %s: %v", dbURL, err)
	}
	defer conn.Close(context.Background())
	var v T
	if err := conn.QueryRow(ctx, sql, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return v
}

// hostAnswers reports whether a PostgreSQL server listens on the host's standard port.
func hostAnswers() bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:5432", time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// Without TEST_DATABASE_URL, the test databases live on this process's private cluster: a
// throwaway server in a temporary directory on a port below 32768, not the host's 5432.
func TestAdminURLWithoutTestDatabaseURLIsAPrivateCluster(t *testing.T) {
	t.Setenv("TEST_DATABASE_URL", "")
	admin, err := AdminURL()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(u.Port())
	if u.Hostname() != "127.0.0.1" || port == 5432 || port < 16384 || port > 32767 || u.Path != "/postgres" {
		t.Fatalf("AdminURL = %s, want the postgres database of a private cluster on 127.0.0.1, port 16384–32767", admin)
	}
	dataDir := scalar[string](t, admin, "SELECT current_setting('data_directory')")
	root := filepath.Dir(filepath.Dir(dataDir)) // <root>/pg/data
	if filepath.Dir(root) != filepath.Clean(os.TempDir()) || !strings.HasPrefix(filepath.Base(root), pgembed.TempPrefix) {
		t.Errorf("data directory %s, want one in a temporary %s* directory", dataDir, pgembed.TempPrefix)
	}
	for setting, want := range map[string]string{"fsync": "off", "full_page_writes": "off", "max_connections": "200",
		// testpg's cluster takes standbys (TEST_READ_REPLICA): commits write their WAL before returning.
		"synchronous_commit": "on", "wal_level": "replica"} {
		if got := scalar[string](t, admin, "SELECT current_setting($1)", setting); got != want {
			t.Errorf("%s = %s, want %s", setting, got, want)
		}
	}
	again, err := AdminURL()
	if err != nil || again != admin {
		t.Errorf("second AdminURL = %s, %v; want the same cluster %s", again, err, admin)
	}
}

// CreateDatabase without TEST_DATABASE_URL creates on the private cluster and nothing on the host's
// server (checked when one answers on 127.0.0.1:5432; the databases of other test runs may come and
// go there meanwhile, so the check is by name).
func TestCreateDatabaseLeavesTheHostServerAlone(t *testing.T) {
	t.Setenv("TEST_DATABASE_URL", "")
	const probe = "apptest_probe"
	const countProbes = "SELECT count(*) FROM pg_database WHERE datname LIKE 'apptest\\_probe\\_%'"
	host := hostAnswers()
	var hostBefore int64
	if host {
		hostBefore = scalar[int64](t, hostServer, countProbes)
	} else {
		t.Log("no server on 127.0.0.1:5432: nothing there to leave alone")
	}

	dbURL, drop, err := CreateDatabase(context.Background(), probe)
	if err != nil {
		t.Fatal(err)
	}
	admin, _ := AdminURL()
	u, _ := url.Parse(dbURL)
	name := strings.TrimPrefix(u.Path, "/")
	au, _ := url.Parse(admin)
	if u.Host != au.Host || !strings.HasPrefix(name, probe+"_") {
		t.Fatalf("database URL %s, want a %s_* database on the private cluster %s", dbURL, probe, au.Host)
	}
	if got := scalar[string](t, dbURL, "SELECT current_database()"); got != name {
		t.Errorf("connected to %s, want %s", got, name)
	}
	if n := scalar[int64](t, admin, "SELECT count(*) FROM pg_database WHERE datname = $1", name); n != 1 {
		t.Errorf("%d databases %s on the private cluster, want 1", n, name)
	}
	if host {
		if n := scalar[int64](t, hostServer, "SELECT count(*) FROM pg_database WHERE datname = $1", name); n != 0 {
			t.Errorf("database %s exists on the host's server", name)
		}
		if n := scalar[int64](t, hostServer, countProbes); n != hostBefore {
			t.Errorf("%d %s_* databases on the host's server, %d before", n, probe, hostBefore)
		}
	}

	drop()
	if n := scalar[int64](t, admin, "SELECT count(*) FROM pg_database WHERE datname = $1", name); n != 0 {
		t.Errorf("database %s still there after drop", name)
	}
}

// TEST_DATABASE_URL, when set, is the server the tests use, as given.
func TestAdminURLIsTestDatabaseURLWhenSet(t *testing.T) {
	const own = "postgres://me:secret@db.example:6543/admin?sslmode=disable"
	t.Setenv("TEST_DATABASE_URL", own)
	got, err := AdminURL()
	if err != nil || got != own {
		t.Errorf("AdminURL = %q, %v; want %q", got, err, own)
	}
	// A server that does not answer: the error names it, without its password.
	t.Setenv("TEST_DATABASE_URL", "postgres://me:secret@127.0.0.1:1/postgres?sslmode=disable&connect_timeout=2")
	_, _, err = CreateDatabase(context.Background(), "apptest_probe")
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") || strings.Contains(err.Error(), "secret") {
		t.Errorf("CreateDatabase on a server that does not answer: %v; want an error naming it, without the password", err)
	}
}
