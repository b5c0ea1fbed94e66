package pgembed

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// clusterDir returns a fresh directory for a cluster. As root, PostgreSQL
// runs as the postgres user, which must be able to traverse the parents:
// t.TempDir creates them 0700, so open them up.
func clusterDir(t *testing.T, name string) string {
	t.Helper()
	tmp := t.TempDir()
	if os.Geteuid() == 0 {
		for _, d := range []string{tmp, filepath.Dir(tmp)} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return filepath.Join(tmp, name)
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func start(t *testing.T, dir string) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	c, err := Start(ctx, dir, testLogger(t))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Logf("Start took %s, URL %s", time.Since(t0), c.URL())
	t.Cleanup(func() { _ = c.Stop() })
	return c
}

func connect(t *testing.T, c *Cluster) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL())
	if err != nil {
		t.Fatalf("connect %s: %v", c.URL(), err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func mustExec(t *testing.T, conn *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func count(t *testing.T, conn *pgx.Conn, sql string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func TestStartQueryStopRestartPersists(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")
	c := start(t, dir)

	if !strings.HasPrefix(c.URL(), "postgres://postgres:"+c.password+"@127.0.0.1:") || len(c.password) < 32 ||
		!strings.HasSuffix(c.URL(), "/catalogd?sslmode=disable") {
		t.Errorf("URL = %q", c.URL())
	}
	conn := connect(t, c)
	var db, encoding, user string
	if err := conn.QueryRow(context.Background(),
		"SELECT current_database(), pg_encoding_to_char(encoding), current_user FROM pg_database WHERE datname = current_database()").
		Scan(&db, &encoding, &user); err != nil {
		t.Fatal(err)
	}
	if db != "catalogd" || encoding != "UTF8" || user != "postgres" {
		t.Errorf("db=%s encoding=%s user=%s", db, encoding, user)
	}
	mustExec(t, conn, "CREATE EXTENSION IF NOT EXISTS pg_trgm")
	mustExec(t, conn, "CREATE TABLE items (name text)")
	mustExec(t, conn, "INSERT INTO items VALUES ($1)", "persisted")
	_ = conn.Close(context.Background())

	// Listens on 127.0.0.1 only, socket inside the cluster dir, our own pg_hba.
	for _, want := range []string{"listen_addresses = '127.0.0.1'", "unix_socket_directories = '" + filepath.Join(dir, "run") + "'",
		"hba_file = '" + filepath.Join(dir, "data", hbaName) + "'"} {
		conf, _ := os.ReadFile(filepath.Join(dir, "data", confName))
		if !strings.Contains(string(conf), want) {
			t.Errorf("%s lacks %q:\n%s", confName, want, conf)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "run", ".s.PGSQL."+strconv.Itoa(c.port))); err != nil {
		t.Errorf("unix socket: %v", err)
	}

	if err := c.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if portFree(c.port) == false {
		t.Errorf("port %d still in use after Stop", c.port)
	}

	c2 := start(t, dir)
	if c2.URL() != c.URL() {
		t.Errorf("restart URL %s, want the stored port again: %s", c2.URL(), c.URL())
	}
	conn2 := connect(t, c2)
	if n := count(t, conn2, "SELECT count(*) FROM items WHERE name = 'persisted'"); n != 1 {
		t.Errorf("persisted rows = %d, want 1", n)
	}
}

func TestStartAfterKill(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")
	c := start(t, dir)
	conn := connect(t, c)
	mustExec(t, conn, "CREATE TABLE t (v int)")
	mustExec(t, conn, "INSERT INTO t VALUES (42)")
	_ = conn.Close(context.Background())

	// SIGKILL the postmaster, leaving a stale postmaster.pid behind.
	raw, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(raw), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	c.release() // and the process that started it is gone too
	for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, "data", "postmaster.pid")); err != nil {
		t.Fatalf("expected a stale postmaster.pid: %v", err)
	}

	c2 := start(t, dir)
	conn2 := connect(t, c2)
	if n := count(t, conn2, "SELECT v FROM t"); n != 42 {
		t.Errorf("v = %d, want 42", n)
	}
}

func TestStartLongPathUsesShortSocketDir(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, strings.Repeat("long-directory-name-", 5))
	c := start(t, dir)
	if !strings.HasPrefix(c.sockDir, "/tmp/pgembed-") {
		t.Errorf("socket dir %s, want one under /tmp", c.sockDir)
	}
	if n := count(t, connect(t, c), "SELECT 1"); n != 1 {
		t.Errorf("SELECT 1 = %d", n)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	_ = os.RemoveAll(c.sockDir)
}

func TestSocketDir(t *testing.T) {
	if got := socketDir("/srv/catalogd/.data/pg"); got != "/srv/catalogd/.data/pg/run" {
		t.Errorf("short: %s", got)
	}
	long := "/" + strings.Repeat("x", 90)
	got := socketDir(long)
	if !strings.HasPrefix(got, "/tmp/pgembed-") || got != socketDir(long) {
		t.Errorf("long: %s", got)
	}
	if len(got)+len(socketName) >= maxSocketPath {
		t.Errorf("socket path too long: %s", got)
	}
}

func TestFindBinaries(t *testing.T) {
	dir, err := FindBinaries()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("bindir %s", dir)
	for _, name := range requiredBinaries {
		p := filepath.Join(dir, name)
		if !isExecutable(p) || isScript(p) {
			t.Errorf("%s is not a real executable", p)
		}
	}
}

func TestFindBinariesFollowsSymlinksAndSkipsWrappers(t *testing.T) {
	real, err := FindBinaries()
	if err != nil {
		t.Fatal(err)
	}
	// A PATH dir of wrapper scripts (like Debian's pg_wrapper) comes first,
	// then a dir of symlinks (like /usr/local/bin here).
	wrappers, links := t.TempDir(), t.TempDir()
	for _, name := range requiredBinaries {
		if err := os.WriteFile(filepath.Join(wrappers, name), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(real, name), filepath.Join(links, name)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := findBinaries([]string{wrappers, links}, nil)
	if err != nil || got != real {
		t.Errorf("findBinaries = %q, %v; want %q", got, err, real)
	}

	// Not on PATH: found under a versioned dir, highest version first.
	// (Fake executables: only the layout matters here.)
	root := t.TempDir()
	for _, v := range []string{"9.6", "15", "13"} {
		bin := filepath.Join(root, v, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range requiredBinaries {
			if err := os.WriteFile(filepath.Join(bin, name), []byte("\x7fELF"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := filepath.Join(root, "15", "bin")
	if got, err := findBinaries([]string{wrappers}, []string{filepath.Join(root, "*", "bin")}); err != nil || got != want {
		t.Errorf("findBinaries via glob = %q, %v; want %q", got, err, want)
	}
}

func TestFindBinariesNoneFound(t *testing.T) {
	empty := t.TempDir()
	_, err := findBinaries([]string{empty}, []string{filepath.Join(empty, "*", "bin")})
	if err == nil {
		t.Fatal("expected an error")
	}
	t.Log(err)
	for _, want := range []string{"apt-get install postgresql", "DATABASE_URL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestBinaryMatches(t *testing.T) {
	for _, tc := range []struct {
		out, major string
		want       bool
	}{
		{"postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n", "15", true},
		{"postgres (PostgreSQL) 15.20\n", "16", false},
		{"postgres (PostgreSQL) 150.1\n", "15", false},
		{"postgres (PostgreSQL) 9.6.24\n", "9.6", true},
	} {
		if got := binaryMatches(tc.out, tc.major); got != tc.want {
			t.Errorf("binaryMatches(%q, %q) = %v", tc.out, tc.major, got)
		}
	}
}

func TestVersionOf(t *testing.T) {
	if slices.Compare(versionOf("/usr/lib/postgresql/15/bin"), versionOf("/usr/lib/postgresql/9.6/bin")) <= 0 {
		t.Error("15 should sort above 9.6")
	}
	if got := versionOf("/tmp/Test123/usr/pgsql-16/bin"); !slices.Equal(got, []int{16}) {
		t.Errorf("versionOf pgsql-16 = %v", got)
	}
}

func TestRestartPicksNewPortWhenStoredOneIsTaken(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")
	c := start(t, dir)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c2 := start(t, dir)
	if c2.port == c.port {
		t.Fatalf("restart reused taken port %d", c.port)
	}
	if n := count(t, connect(t, c2), "SELECT 1"); n != 1 {
		t.Errorf("SELECT 1 = %d", n)
	}
	if stored, _ := os.ReadFile(filepath.Join(dir, "port")); strings.TrimSpace(string(stored)) != strconv.Itoa(c2.port) {
		t.Errorf("stored port %q, want %d", stored, c2.port)
	}
}

func TestStartRemovesPidFileOfUnrelatedProcess(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")
	c := start(t, dir)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	// After a crash and reboot, the pid in postmaster.pid may belong to an
	// unrelated live process of the same user: pg_ctl then thinks the server runs.
	sleep := osexec.Command("sleep", "60")
	if c.cred != nil {
		sleep.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sleep.Process.Kill(); _ = sleep.Wait() }()
	pidFile := fmt.Sprintf("%d\n%s\n1700000000\n%d\n%s\n127.0.0.1\n0 0\nready\n", sleep.Process.Pid, filepath.Join(dir, "data"), c.port, c.sockDir)
	if err := os.WriteFile(filepath.Join(dir, "data", "postmaster.pid"), []byte(pidFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := c.chown(filepath.Join(dir, "data", "postmaster.pid")); err != nil {
		t.Fatal(err)
	}
	if running, err := c.running(context.Background()); !running {
		t.Fatalf("pg_ctl status should be fooled by the fake pid file (running=%v, err=%v)", running, err)
	}
	c2 := start(t, dir)
	if n := count(t, connect(t, c2), "SELECT 1"); n != 1 {
		t.Errorf("SELECT 1 = %d", n)
	}
}
