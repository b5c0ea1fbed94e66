package main

import (
	"bufio"
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestMain doubles as testpg itself (TESTPG_AS_MAIN=1) and as a command run under it
// (TESTPG_PROBE=file: connect to TEST_DATABASE_URL and write what the server says to file).
func TestMain(m *testing.M) {
	switch {
	case os.Getenv("TESTPG_AS_MAIN") == "1":
		os.Unsetenv("TESTPG_AS_MAIN")
		main()
	case os.Getenv("TESTPG_PROBE") != "":
		os.Exit(probe(os.Getenv("TESTPG_PROBE")))
	}
	os.Exit(m.Run())
}

func probe(out string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	u := os.Getenv("TEST_DATABASE_URL")
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		_ = os.WriteFile(out, []byte("error "+err.Error()), 0o644)
		return 1
	}
	defer conn.Close(ctx)
	var dataDir, fsync string
	if err := conn.QueryRow(ctx, "SELECT current_setting('data_directory'), current_setting('fsync')").Scan(&dataDir, &fsync); err != nil {
		return 1
	}
	_ = os.WriteFile(out, []byte(u+"\n"+dataDir+"\n"+fsync+"\n"), 0o644)
	return 0
}

func answers(u string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, u)
	if err == nil {
		_ = c.Close(ctx)
	}
	return err == nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}

// The command runs with TEST_DATABASE_URL on a private throwaway cluster, which is gone afterwards.
func TestRunGivesTheCommandAPrivateCluster(t *testing.T) {
	t.Setenv("TEST_DATABASE_URL", "")
	out := filepath.Join(t.TempDir(), "probe")
	t.Setenv("TESTPG_PROBE", out)
	if code := run([]string{os.Args[0]}, false, false, false); code != 0 {
		raw, _ := os.ReadFile(out)
		t.Fatalf("exit %d: %s", code, raw)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 3 {
		t.Fatalf("probe wrote %q", raw)
	}
	dbURL, dataDir, fsync := lines[0], lines[1], lines[2]
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	port, _ := strconv.Atoi(u.Port())
	if u.Hostname() != "127.0.0.1" || port == 5432 || port < 16384 || port > 32767 || u.Path != "/postgres" {
		t.Errorf("TEST_DATABASE_URL = %s, want a private cluster's postgres database below port 32768", dbURL)
	}
	if fsync != "off" {
		t.Errorf("fsync = %s, want off (throwaway settings)", fsync)
	}
	root := filepath.Dir(filepath.Dir(dataDir))
	if !strings.HasPrefix(filepath.Base(root), "catalogd-pg-") {
		t.Errorf("data directory %s, want one in a temporary catalogd-pg-* directory", dataDir)
	}
	if exists(root) {
		t.Errorf("%s is still there after the command", root)
	}
	if answers(dbURL) {
		t.Errorf("%s still answers after the command", dbURL)
	}
}

func TestClusterOptions(t *testing.T) {
	if o := clusterOptions(false); !o.Throwaway || o.MaxConnections != 200 || o.PortMax >= 32768 || o.PortMin < 1024 {
		t.Errorf("test options %+v, want throwaway, 200 connections, a port below 32768", o)
	}
	if o := clusterOptions(true); o.Throwaway || o.SharedBuffers != "128MB" || o.PortMax >= 32768 {
		t.Errorf("-durable options %+v, want durable, shared_buffers 128MB, a port below 32768", o)
	}
}

func TestRunCommandReturnsTheExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"true"}, 0},
		{[]string{"sh", "-c", "exit 3"}, 3},
		{[]string{"sh", "-c", "kill -TERM $$"}, 128 + int(syscall.SIGTERM)},
		{[]string{"/nonexistent/command"}, 127},
	} {
		if code := runCommand(tc.args, os.Environ()); code != tc.want {
			t.Errorf("%q: exit %d, want %d", tc.args, code, tc.want)
		}
	}
}

// With TEST_DATABASE_URL set, the command gets it unchanged and no cluster is started.
func TestRunKeepsAGivenTestDatabaseURL(t *testing.T) {
	t.Setenv("TEST_DATABASE_URL", "postgres://me@db.example:6543/postgres")
	script := `test "$TEST_DATABASE_URL" = postgres://me@db.example:6543/postgres`
	if code := run([]string{"sh", "-c", script}, false, false, false); code != 0 {
		t.Errorf("exit %d: the command did not get the given TEST_DATABASE_URL", code)
	}
}

// SIGTERM to testpg reaches the command; testpg then removes the cluster and exits with the
// command's status (128+15).
func TestInterruptedRunRemovesTheCluster(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--", "sh", "-c", `echo "URL $TEST_DATABASE_URL"; exec sleep 120`)
	cmd.Env = append(os.Environ(), "TESTPG_AS_MAIN=1", "TEST_DATABASE_URL=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "URL "); ok {
				urls <- u
			}
		}
		close(urls)
	}()
	var dbURL string
	select {
	case dbURL = <-urls:
	case <-time.After(2 * time.Minute):
		t.Fatal("the command did not start within 2 minutes")
	}
	if !answers(dbURL) {
		t.Fatalf("%s does not answer while the command runs", dbURL)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Errorf("testpg ended with %v, want exit status %d; stderr:\n%s", err, 128+int(syscall.SIGTERM), stderr.String())
	}
	if !strings.Contains(stderr.String(), "stopped and") {
		t.Errorf("testpg did not report removing the cluster; stderr:\n%s", stderr.String())
	}
	if answers(dbURL) {
		t.Errorf("%s still answers after testpg ended", dbURL)
	}
}

// scripts/install-postgres.sh, with apt-get and the cluster tools faked: it installs the package
// and stops only the cluster the installation started.
func TestInstallScriptStopsOnlyTheClustersTheInstallationStarted(t *testing.T) {
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "install-postgres.sh"))
	if err != nil {
		t.Fatal(err)
	}
	bin, state := t.TempDir(), t.TempDir()
	calls := filepath.Join(state, "calls")
	fake := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fake("id", `echo 0`)
	fake("sudo", `echo "sudo $*" >>`+calls+`; exec "$@"`)
	fake("apt-get", `echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >>`+calls+`
case "$*" in *install*postgresql*) touch `+state+`/installed ;; esac`)
	// An old cluster that is running (someone's own), and after the installation a new one on 5432.
	fake("pg_lsclusters", `echo "13 old 5433 online postgres /var/lib/postgresql/13/old /var/log/13-old.log"
[ -e `+state+`/installed ] && echo "15 main 5432 online postgres /var/lib/postgresql/15/main /var/log/15-main.log"
exit 0`)
	fake("pg_ctlcluster", `echo "pg_ctlcluster $*" >>`+calls)
	fake("systemctl", `echo "systemctl $*" >>`+calls)

	for _, tc := range []struct {
		aptUpdated string
		wantUpdate bool
	}{{"", true}, {"1", false}} {
		_ = os.Remove(calls)
		_ = os.Remove(filepath.Join(state, "installed"))
		cmd := exec.Command("bash", script)
		cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin", "APT_UPDATED="+tc.aptUpdated)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("install-postgres.sh: %v\n%s", err, out)
		}
		raw, _ := os.ReadFile(calls)
		got := string(raw)
		if strings.Contains(got, "apt-get update") != tc.wantUpdate {
			t.Errorf("APT_UPDATED=%q: apt-get update called: %v, want %v:\n%s", tc.aptUpdated, !tc.wantUpdate, tc.wantUpdate, got)
		}
		if !strings.Contains(got, "apt-get install -y -q postgresql DEBIAN_FRONTEND=noninteractive") {
			t.Errorf("no noninteractive apt-get install postgresql:\n%s", got)
		}
		stopped := strings.Contains(got, "pg_ctlcluster --skip-systemctl-redirect 15 main stop") ||
			strings.Contains(got, "systemctl stop postgresql@15-main")
		if !stopped {
			t.Errorf("the new cluster 15/main was not stopped:\n%s", got)
		}
		if strings.Contains(got, "13 old") || strings.Contains(got, "13-old") {
			t.Errorf("the cluster that was there before was touched:\n%s", got)
		}
		if strings.Contains(got, "sudo") {
			t.Errorf("sudo used as root:\n%s", got)
		}
	}
}

func TestServerCPU(t *testing.T) {
	dir := t.TempDir()
	if _, ok := serverCPU(dir); ok {
		t.Error("serverCPU without postmaster.pid reported a figure")
	}
	// This process stands in for the postmaster: it has used some CPU by now.
	if err := os.WriteFile(filepath.Join(dir, "postmaster.pid"), []byte(strconv.Itoa(os.Getpid())+"\n/data\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	x := 0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; x++ {
	}
	cpu, ok := serverCPU(dir)
	if !ok || cpu <= 0 || cpu > time.Hour {
		t.Errorf("serverCPU = %s, %v (after %d spins)", cpu, ok, x)
	}
}
