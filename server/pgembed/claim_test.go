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
	"github.com/jackc/pgx/v5/pgconn"
)

// A second Start on a directory in use fails, names the holder, and changes nothing: the first
// cluster keeps answering, also after the refused one is "stopped".
func TestSecondStartIsRefusedAndStopsNothing(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")
	c := start(t, dir)
	pid := postmasterPID(t, filepath.Join(dir, "data"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c2, err := Start(ctx, dir, testLogger(t))
	if err == nil {
		_ = c2.Stop()
		t.Fatal("a second Start on a directory in use succeeded")
	}
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("err = %v, want ErrInUse naming pid %d", err, os.Getpid())
	}
	if got := postmasterPID(t, filepath.Join(dir, "data")); got != pid {
		t.Errorf("postmaster %d, was %d: the refused Start restarted the server", got, pid)
	}
	if n := count(t, connect(t, c), "SELECT 1"); n != 1 {
		t.Errorf("SELECT 1 = %d", n)
	}
	// Once the holder stops, the directory is free again.
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := count(t, connect(t, start(t, dir)), "SELECT 1"); n != 1 {
		t.Errorf("SELECT 1 after the holder stopped = %d", n)
	}
}

// Two processes, both orders. A process that finds the cluster in use exits with the holder's pid
// in its message and leaves the cluster running; the cluster of a process killed with SIGKILL has
// no holder any more and is adopted (not restarted) by the next process, which then stops it.
func TestTwoProcessesNeverStopEachOthersCluster(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")

	// 1. This process holds the cluster; another process tries to start it, and exits.
	c := start(t, dir)
	conn := connect(t, c)
	mustExec(t, conn, "CREATE TABLE t (v int)")
	mustExec(t, conn, "INSERT INTO t VALUES (7)")
	pid := postmasterPID(t, filepath.Join(dir, "data"))
	out, err := helperProcess(t, "try", dir).CombinedOutput()
	if code := exitCode(err); code != 3 || !strings.Contains(string(out), "process "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("second process: exit %d, output %s; want exit 3 naming pid %d", code, out, os.Getpid())
	}
	if n := count(t, conn, "SELECT v FROM t"); n != 7 || postmasterPID(t, filepath.Join(dir, "data")) != pid {
		t.Errorf("after the refused process: v = %d, postmaster %d (was %d)", n, postmasterPID(t, filepath.Join(dir, "data")), pid)
	}
	_ = conn.Close(context.Background())
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}

	// 2. Another process holds the cluster; this one is refused, naming it.
	holder := helperProcess(t, "hold", dir)
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Process.Kill(); _ = holder.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HOLDING ") {
		t.Fatalf("holder said %q, %v", line, err)
	}
	held := postmasterPID(t, filepath.Join(dir, "data"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if c2, err := Start(ctx, dir, testLogger(t)); err == nil {
		_ = c2.Stop()
		t.Fatal("Start succeeded while another process holds the cluster")
	} else if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "process "+strconv.Itoa(holder.Process.Pid)) {
		t.Fatalf("err = %v, want ErrInUse naming pid %d", err, holder.Process.Pid)
	}
	if got := postmasterPID(t, filepath.Join(dir, "data")); got != held {
		t.Fatalf("the holder's postmaster %d was replaced by %d", held, got)
	}

	// 3. The holder is killed: its server is adopted as it is, and stopped by its new owner.
	_ = holder.Process.Kill()
	_ = holder.Wait()
	c3 := start(t, dir)
	if got := postmasterPID(t, filepath.Join(dir, "data")); got != held {
		t.Errorf("adopted postmaster %d, want the running %d", got, held)
	}
	if n := count(t, connect(t, c3), "SELECT v FROM t"); n != 7 {
		t.Errorf("v = %d, want 7", n)
	}
	if err := c3.Stop(); err != nil {
		t.Fatal(err)
	}
	if running, _ := c3.running(context.Background()); running {
		t.Error("the adopted server still runs after Stop")
	}
}

func helperProcess(t *testing.T, mode, dir string) *osexec.Cmd {
	cmd := osexec.Command(os.Args[0], "-test.run=^TestClaimHelperProcess$")
	cmd.Env = append(os.Environ(), "PGEMBED_CLAIM_HELPER="+mode+":"+dir)
	return cmd
}

func exitCode(err error) int {
	var ee *osexec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestClaimHelperProcess is the other process of TestTwoProcessesNeverStopEachOthersCluster:
// "try:<dir>" starts the cluster and stops it again (exit 3 with the error when refused);
// "hold:<dir>" starts it, says HOLDING and waits to be killed.
func TestClaimHelperProcess(t *testing.T) {
	mode, dir, ok := strings.Cut(os.Getenv("PGEMBED_CLAIM_HELPER"), ":")
	if !ok {
		t.Log("runs only as the helper process of TestTwoProcessesNeverStopEachOthersCluster")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, dir, nil)
	if errors.Is(err, ErrInUse) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	} else if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if mode == "hold" {
		fmt.Println("HOLDING " + c.URL())
		time.Sleep(5 * time.Minute)
	}
	_ = c.Stop()
	os.Exit(0)
}

// TCP needs the generated password (SCRAM); the socket directory is the owner's only; the password
// file is 0600.
func TestTCPLoginNeedsThePassword(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")
	c := start(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for name, u := range map[string]string{
		"no password":    fmt.Sprintf("postgres://postgres@127.0.0.1:%d/catalogd?sslmode=disable", c.port),
		"wrong password": fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/catalogd?sslmode=disable", strings.Repeat("0", 48), c.port),
		"another role":   fmt.Sprintf("postgres://nobody@127.0.0.1:%d/catalogd?sslmode=disable", c.port),
	} {
		conn, err := pgx.Connect(ctx, u)
		if err == nil {
			_ = conn.Close(ctx)
			t.Errorf("%s: TCP login accepted", name)
			continue
		}
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code[:2] != "28" { // invalid_authorization_specification / invalid_password
			t.Errorf("%s: %v, want an authentication failure", name, err)
		}
	}
	if n := count(t, connect(t, c), "SELECT 1"); n != 1 {
		t.Errorf("with the password: SELECT 1 = %d", n)
	}
	var method string
	if err := connect(t, c).QueryRow(ctx, "SELECT auth_method FROM pg_hba_file_rules WHERE type = 'host' AND address = '127.0.0.1'").
		Scan(&method); err != nil || method != "scram-sha-256" {
		t.Errorf("pg_hba rule for 127.0.0.1: %q, %v", method, err)
	}
	for path, want := range map[string]os.FileMode{filepath.Join(dir, passwordName): 0o600, c.sockDir: 0o700 | os.ModeDir} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v, %v; want mode %v", path, fi.Mode(), err, want)
		}
	}
	// Another local user cannot reach the socket (as root: "nobody" tries).
	if os.Geteuid() == 0 {
		probe := osexec.Command("/bin/sh", "-c", `[ -x "$1" ] && exit 0; exit 9`, "probe", c.sockDir)
		probe.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		if err := probe.Run(); exitCode(err) != 9 {
			t.Errorf("user nobody can enter the socket directory %s (%v)", c.sockDir, err)
		}
	}
}

// A cluster whose password file is gone (e.g. one made by an earlier version, which trusted every
// local TCP login) gets a new password at its next start; the old URL stops working.
func TestStartSetsThePasswordOfAnExistingCluster(t *testing.T) {
	t.Parallel()
	dir := clusterDir(t, "pg")
	c := start(t, dir)
	old := c.URL()
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, passwordName)); err != nil {
		t.Fatal(err)
	}
	c2 := start(t, dir)
	if c2.URL() == old {
		t.Fatal("the same URL after a new password")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if conn, err := pgx.Connect(ctx, old); err == nil {
		_ = conn.Close(ctx)
		t.Error("the old password still works")
	}
	if n := count(t, connect(t, c2), "SELECT 1"); n != 1 {
		t.Errorf("SELECT 1 = %d", n)
	}
}

// Halt (fast and immediate, a crash) and Resume keep the port and the data.
func TestHaltAndResume(t *testing.T) {
	t.Parallel()
	c := start(t, clusterDir(t, "pg"))
	conn := connect(t, c)
	mustExec(t, conn, "CREATE TABLE t (v int)")
	mustExec(t, conn, "INSERT INTO t VALUES (1)")
	_ = conn.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, mode := range []string{"fast", "immediate"} {
		if err := c.Halt(mode); err != nil {
			t.Fatalf("Halt(%s): %v", mode, err)
		}
		short, cancelShort := context.WithTimeout(ctx, 3*time.Second)
		if conn, err := pgx.Connect(short, c.URL()); err == nil {
			_ = conn.Close(ctx)
			t.Errorf("after Halt(%s) the server still answers", mode)
		}
		cancelShort()
		if err := c.Resume(ctx); err != nil {
			t.Fatalf("Resume after %s: %v", mode, err)
		}
		if n := count(t, connect(t, c), "SELECT v FROM t"); n != 1 {
			t.Errorf("after %s: v = %d", mode, n)
		}
	}
	if err := c.Halt("slow"); err == nil {
		t.Error("Halt accepted an unknown mode")
	}
}
