// Command testpg runs a command against a private, throwaway PostgreSQL cluster: `make test` runs
// `go test ./...` under it, so that every test package shares one cluster instead of starting its
// own, and nothing is created on the host's PostgreSQL.
//
//	go run ./cmd/testpg [-install] [-durable] -- COMMAND [ARG...]
//
// It starts a cluster in a new temporary directory with the project's embedded-PostgreSQL code
// (server/pgembed: the machine's initdb/pg_ctl/postgres, run as the postgres user when root), on
// a free port below 32768, runs COMMAND with TEST_DATABASE_URL set to the cluster's "postgres"
// database, then stops the cluster and deletes the directory — also when COMMAND fails or testpg
// is interrupted (SIGINT, SIGTERM and SIGHUP are passed on to COMMAND); if testpg itself is
// killed, pgembed's watchdog does it. The exit status is COMMAND's.
//
// When TEST_DATABASE_URL is already set, COMMAND runs on that server and no cluster is started.
//
// -install: when no PostgreSQL server binaries are found, run scripts/install-postgres.sh
// (apt-get) first, and scripts/install-pgbouncer.sh when no pgbouncer is found (the topology
// tests start PgBouncers in front of the cluster). -durable: PostgreSQL's own durability settings and 128MB of shared buffers,
// as the benchmarks want, instead of the fast throwaway settings of the tests.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/catalogd/catalogd/server/pgembed"
)

func main() {
	install := flag.Bool("install", false, "install PostgreSQL's server binaries (scripts/install-postgres.sh) when none are found")
	durable := flag.Bool("durable", false, "keep PostgreSQL's durability settings, shared_buffers 128MB (benchmarks)")
	verbose := flag.Bool("v", false, "log what the cluster does")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: testpg [-install] [-durable] [-v] -- COMMAND [ARG...]\n"+
			"runs COMMAND with TEST_DATABASE_URL set to a private, throwaway PostgreSQL cluster\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(flag.Args(), *install, *durable, *verbose))
}

func run(args []string, install, durable, verbose bool) int {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		logf("TEST_DATABASE_URL is set: %s runs on that server (%s), no private cluster", args[0], redact(u))
		return runCommand(args, os.Environ())
	}
	if _, err := pgembed.FindBinaries(); err != nil {
		if !install {
			logf("%v", err)
			return 1
		}
		if err := installBinaries(); err != nil {
			logf("installing PostgreSQL: %v", err)
			return 1
		}
	}
	if _, err := pgembed.FindBouncer(); err != nil && install {
		// The topology tests put PgBouncer in front of the cluster (pgembed.StartBouncer).
		if err := installScript("install-pgbouncer.sh", func() error { _, err := pgembed.FindBouncer(); return err }); err != nil {
			logf("installing PgBouncer: %v", err)
			return 1
		}
	}

	level := slog.LevelWarn
	if verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	opts := clusterOptions(durable)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t0 := time.Now()
	c, err := pgembed.StartTemp(ctx, log, opts)
	cancel()
	if err != nil {
		logf("%v", err)
		return 1
	}
	logf("private PostgreSQL on 127.0.0.1:%d in %s (ready in %s)", c.Port(), c.TempRoot(), time.Since(t0).Round(10*time.Millisecond))

	code := runCommand(args, append(os.Environ(), "TEST_DATABASE_URL="+c.AdminURL()))
	if cpu, ok := serverCPU(filepath.Join(c.Dir(), "data")); ok {
		logf("PostgreSQL used %s of CPU (the server and its finished connections)", cpu.Round(10*time.Millisecond))
	}
	if err := c.Remove(); err != nil {
		logf("%v", err)
		if code == 0 {
			code = 1
		}
	} else {
		logf("private PostgreSQL stopped and %s removed", c.TempRoot())
	}
	return code
}

// clusterOptions are the tests' throwaway settings, or with durable PostgreSQL's own durability
// settings and the shared_buffers of its default configuration (128MB), for benchmarks.
// Both take standbys (ForTests: Replication): TEST_READ_REPLICA runs catalogd with its reads on one
// (server/apptest), and `make bench` step topology reads from one.
func clusterOptions(durable bool) pgembed.Options {
	opts := pgembed.ForTests()
	if durable {
		opts.Throwaway, opts.SharedBuffers = false, "128MB"
	}
	return opts
}

// runCommand runs args with env, passing interrupts on, and returns its exit status (128+signal
// when a signal ended it).
func runCommand(args, env []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	// Caught, not ignored: testpg lives on to remove the cluster after the command has ended. A
	// Ctrl-C reaches the command from the terminal as well; one more SIGINT does no harm.
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		logf("%v", err)
		return 127
	}
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return exit.ExitCode()
	default:
		logf("%s: %v", args[0], err)
		return 1
	}
}

// serverCPU is the CPU time of the postmaster and of its children that have ended (the connections'
// backends), read from /proc on Linux: what the tests cost the database server.
func serverCPU(dataDir string) (time.Duration, bool) {
	raw, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(raw), "\n", 2)[0]))
	if err != nil {
		return 0, false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// After "(comm)": state is field 3; utime, stime, cutime, cstime are fields 14–17, in clock
	// ticks (USER_HZ, 100 on Linux).
	i := strings.LastIndexByte(string(stat), ')')
	f := strings.Fields(string(stat)[i+1:])
	if len(f) < 15 {
		return 0, false
	}
	var ticks int64
	for _, s := range f[11:15] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, true
}

// installBinaries runs scripts/install-postgres.sh of the module testpg runs in, then checks that
// the binaries are found now.
func installBinaries() error {
	return installScript("install-postgres.sh", func() error { _, err := pgembed.FindBinaries(); return err })
}

// installScript runs scripts/<name> of the module testpg runs in, then found.
func installScript(name string, found func() error) error {
	script, err := findUp(filepath.Join("scripts", name))
	if err != nil {
		return err
	}
	cmd := exec.Command("bash", script)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", script, err)
	}
	return found()
}

// findUp looks for rel in the working directory and its parents.
func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s not found in the working directory or its parents", rel)
		}
		dir = parent
	}
}

func redact(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Redacted()
	}
	return "unparsable URL"
}

func logf(format string, args ...any) { fmt.Fprintf(os.Stderr, "testpg: "+format+"\n", args...) }
