package pgembed

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func startTemp(t *testing.T) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	c, err := StartTemp(ctx, testLogger(t), ForTests())
	if err != nil {
		t.Fatalf("StartTemp: %v", err)
	}
	t.Logf("StartTemp took %s: %s", time.Since(t0), c.AdminURL())
	t.Cleanup(func() { _ = c.Remove() })
	return c
}

func connectURL(t *testing.T, u string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("connect %s: %v", u, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func show(t *testing.T, conn *pgx.Conn, setting string) string {
	t.Helper()
	var v string
	if err := conn.QueryRow(context.Background(), "SELECT current_setting($1)", setting).Scan(&v); err != nil {
		t.Fatalf("current_setting(%s): %v", setting, err)
	}
	return v
}

// postmasterPID reads the server's pid from postmaster.pid.
func postmasterPID(t *testing.T, dataDir string) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(raw), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// gone waits up to limit for the postmaster to exit and the directory to disappear.
func gone(t *testing.T, pid int, dir string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		_, statErr := os.Stat(dir)
		alive := isPostgresProcess(pid) && syscall.Kill(pid, 0) == nil
		if errors.Is(statErr, os.ErrNotExist) && !alive {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: postmaster %d alive=%v, %s: %v", limit, pid, alive, dir, statErr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A StartTemp cluster runs in its own temporary directory with the test settings, below the
// ephemeral port range, and Remove stops it and deletes the directory.
func TestStartTempSettingsAndRemove(t *testing.T) {
	t.Parallel()
	c := startTemp(t)
	root := c.TempRoot()
	if filepath.Dir(root) != filepath.Clean(os.TempDir()) || !strings.HasPrefix(filepath.Base(root), TempPrefix) {
		t.Errorf("temp root %s, want %s/%s*", root, os.TempDir(), TempPrefix)
	}
	if c.Port() < 16384 || c.Port() > 32767 {
		t.Errorf("port %d, want one in 16384–32767 (below the ephemeral range, never 5432)", c.Port())
	}
	if want := fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/postgres?sslmode=disable", c.password, c.Port()); c.AdminURL() != want {
		t.Errorf("AdminURL = %s, want %s", c.AdminURL(), want)
	}
	conn := connectURL(t, c.AdminURL())
	for setting, want := range map[string]string{
		"fsync": "off", "synchronous_commit": "on", "full_page_writes": "off", "wal_level": "replica", // ForTests takes standbys
		"jit": "off", "max_connections": "200", "shared_buffers": "32MB", "listen_addresses": "127.0.0.1",
		"port": strconv.Itoa(c.Port()),
	} {
		if got := show(t, conn, setting); got != want {
			t.Errorf("%s = %s, want %s", setting, got, want)
		}
	}
	if got := show(t, conn, "data_directory"); got != filepath.Join(root, "pg", "data") {
		t.Errorf("data_directory = %s, want it inside %s", got, root)
	}
	// The catalogd schema needs pg_trgm, which comes with the server package.
	mustExec(t, conn, "CREATE EXTENSION IF NOT EXISTS pg_trgm")
	_ = conn.Close(context.Background())

	pid := postmasterPID(t, filepath.Join(c.Dir(), "data"))
	if err := c.Remove(); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	gone(t, pid, root, 5*time.Second)
	if !portFree(c.Port()) {
		t.Errorf("port %d still taken after Remove", c.Port())
	}
	if err := c.Remove(); err != nil {
		t.Errorf("second Remove: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Errorf("Stop after Remove: %v", err)
	}
}

// A test process that is killed (no deferred code, no Remove) leaves no server and no directory:
// the watchdog notices the process is gone and cleans up.
func TestStartTempCleanedUpWhenTheProcessIsKilled(t *testing.T) {
	t.Parallel()
	helper := osexec.Command(os.Args[0], "-test.run=^TestTempClusterHelperProcess$")
	helper.Env = append(os.Environ(), "PGEMBED_TEMP_HELPER=1")
	helper.Stderr = tWriter{t}
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = helper.Process.Kill(); _ = helper.Wait() }()

	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "CLUSTER ") {
				lines <- sc.Text()
				return
			}
		}
		close(lines)
	}()
	var root, adminURL string
	select {
	case line, ok := <-lines:
		if !ok {
			t.Fatal("the helper process ended without starting a cluster")
		}
		f := strings.Fields(line)
		root, adminURL = f[1], f[2]
	case <-time.After(2 * time.Minute):
		t.Fatal("the helper process did not start a cluster within 2 minutes")
	}
	conn := connectURL(t, adminURL)
	if n := count(t, conn, "SELECT 1"); n != 1 {
		t.Fatalf("SELECT 1 = %d", n)
	}
	_ = conn.Close(context.Background())
	pid := postmasterPID(t, filepath.Join(root, "pg", "data"))

	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	gone(t, pid, root, 30*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if c, err := pgx.Connect(ctx, adminURL); err == nil {
		_ = c.Close(ctx)
		t.Errorf("%s still answers after its process was killed", adminURL)
	}
}

// TestTempClusterHelperProcess is the process TestStartTempCleanedUpWhenTheProcessIsKilled kills:
// it starts a temporary cluster, prints where, and waits to be killed.
func TestTempClusterHelperProcess(t *testing.T) {
	if os.Getenv("PGEMBED_TEMP_HELPER") != "1" {
		t.Log("runs only as the helper process of TestStartTempCleanedUpWhenTheProcessIsKilled")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := StartTemp(ctx, nil, ForTests())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("CLUSTER %s %s\n", c.TempRoot(), c.AdminURL())
	time.Sleep(5 * time.Minute)
	os.Exit(1) // never reached in the test: killed before
}

func TestStartWithRejectsABadPortRange(t *testing.T) {
	for _, o := range []Options{{PortMin: 30000}, {PortMax: 30000}, {PortMin: 30000, PortMax: 20000}, {PortMin: 1, PortMax: 70000}} {
		_, err := StartWith(context.Background(), t.TempDir(), nil, o)
		if err == nil || !strings.Contains(err.Error(), "port range") {
			t.Errorf("%+v: err = %v, want a port range error", o, err)
		}
	}
}

// The port is taken from the range, and a stored port outside it is not reused.
func TestChoosePortInRange(t *testing.T) {
	dir := t.TempDir()
	c := &Cluster{dir: dir, opts: Options{PortMin: 20000, PortMax: 20099}}
	if err := os.WriteFile(filepath.Join(dir, "port"), []byte("45000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		p, err := c.choosePort()
		if err != nil {
			t.Fatal(err)
		}
		if p < 20000 || p > 20099 {
			t.Fatalf("port %d outside 20000–20099", p)
		}
		if stored, _ := os.ReadFile(filepath.Join(dir, "port")); strings.TrimSpace(string(stored)) != strconv.Itoa(p) {
			t.Fatalf("stored %q, chose %d", stored, p)
		}
	}
}

// `catalogd serve`'s clusters keep their settings: nothing of the throwaway ones leaks into them.
func TestSettingsOfDurableAndThrowawayClusters(t *testing.T) {
	durable := (&Cluster{port: 5000, sockDir: "/s"}).settings()
	for _, off := range []string{"fsync", "synchronous_commit", "full_page_writes", "max_connections"} {
		if strings.Contains(durable, off) {
			t.Errorf("the default settings set %s:\n%s", off, durable)
		}
	}
	if !strings.Contains(durable, "shared_buffers = '32MB'") {
		t.Errorf("default shared_buffers:\n%s", durable)
	}
	bench := (&Cluster{port: 5000, sockDir: "/s", opts: Options{SharedBuffers: "128MB"}}).settings()
	if !strings.Contains(bench, "shared_buffers = '128MB'") {
		t.Errorf("shared_buffers option:\n%s", bench)
	}
	// The tests' clusters take standbys (Replication): WAL for them, and commits that write their
	// WAL before returning (read-your-writes through a standby waits for the flushed position).
	tests := (&Cluster{port: 5000, sockDir: "/s", opts: ForTests()}).settings()
	for _, want := range []string{"fsync = off", "synchronous_commit = on", "full_page_writes = off", "max_connections = 200",
		"wal_level = replica", "max_wal_senders = 10", "hot_standby = on", "wal_keep_size = 512MB"} {
		if !strings.Contains(tests, want+"\n") {
			t.Errorf("test settings lack %q:\n%s", want, tests)
		}
	}
	solo := ForTests()
	solo.Replication = false
	fast := (&Cluster{port: 5000, sockDir: "/s", opts: solo}).settings()
	for _, want := range []string{"fsync = off", "synchronous_commit = off", "wal_level = minimal", "max_wal_senders = 0"} {
		if !strings.Contains(fast, want+"\n") {
			t.Errorf("throwaway settings without standbys lack %q:\n%s", want, fast)
		}
	}
}
