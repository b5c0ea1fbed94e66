// Package pgembed runs a private PostgreSQL cluster, made with the machine's
// own PostgreSQL binaries (initdb, pg_ctl, postgres), for running catalogd
// when no DATABASE_URL is configured.
//
// Layout of the cluster directory given to Start:
//
//	data/          the PostgreSQL data directory (PGDATA)
//	data/pgembed.conf  settings rewritten on every Start (port, sockets, ...)
//	data/pgembed_hba.conf  client authentication, rewritten on every Start (claim.go)
//	run/           unix socket directory, 0700 (or a short one under /tmp, see socketDir)
//	port           the TCP port last used, reused on the next Start when free
//	password       the superuser's generated password (0600), required on TCP
//	lock           flock(2)ed by the one process using the cluster (claim.go)
//	postgres.log   the server's own log
//
// One process at a time uses a cluster directory: Start fails with ErrInUse
// while another live process holds it, and never stops a server another
// process uses (claim.go).
//
// PostgreSQL refuses to run as root: when the process is root, every
// PostgreSQL program runs as the "postgres" system user (or as the owner of an
// existing data directory) and the cluster directory is chowned to it.
//
// StartWith takes Options (settings for throwaway test clusters, the port
// range); StartTemp (temp.go) starts a throwaway cluster in a temporary
// directory that is removed when the process ends, however it ends.
package pgembed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

const (
	// DatabaseName is the database Start creates if missing.
	DatabaseName = "catalogd"
	superuser    = "postgres"

	pgCtlTimeout = 60 * time.Second // pg_ctl -t, for start and stop
	readyTimeout = 30 * time.Second // pgx connect loop after pg_ctl start
	// Unix socket paths are limited to 107 bytes (sun_path); keep well below.
	maxSocketPath = 100
	socketName    = "/.s.PGSQL.65535" // longest possible socket file name
	confName      = "pgembed.conf"
	includeLine   = "include_if_exists = '" + confName + "'\t# added by catalogd pgembed\n"
)

// requiredBinaries must all live, as real executables, in one directory:
// pg_ctl finds postgres next to itself.
var requiredBinaries = []string{"initdb", "pg_ctl", "postgres"}

// versionedBinGlobs are where distributions install versioned PostgreSQL
// servers (Debian/Ubuntu, then RHEL/Fedora PGDG).
var versionedBinGlobs = []string{"/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin"}

// Options change how a cluster is made and run. The zero value is what
// `catalogd serve` uses (Start): a durable cluster, 32MB of shared buffers,
// PostgreSQL's default connection limit, a port the kernel picks.
type Options struct {
	// Throwaway trades crash safety for speed, for clusters whose data is
	// deleted after use (tests): initdb --no-sync; fsync, full_page_writes and
	// synchronous_commit off; minimal WAL; no JIT.
	Throwaway bool
	// MaxConnections is max_connections; 0 keeps PostgreSQL's default (100).
	MaxConnections int
	// SharedBuffers is shared_buffers, e.g. "128MB"; "" is 32MB.
	SharedBuffers string
	// PortMin and PortMax, when both are set, bound the TCP port: a free port
	// in [PortMin, PortMax] is chosen instead of one the kernel hands out from
	// its ephemeral range, where an outgoing connection can take it between
	// the choice and the server's bind.
	PortMin, PortMax int
	// Replication lets standbys stream from the cluster (StartStandby): wal_level replica and
	// WAL senders, also on a throwaway cluster (whose WAL is minimal otherwise).
	Replication bool
	// standby: the data directory is a standby's (StartStandby), which is read-only: no password
	// is set and no database created on start.
	standby bool
}

// ForTests are the options of the tests' private clusters: throwaway, a port
// below Linux's ephemeral range (32768–60999), and 200 connections. A test
// package opens up to ~30 (the service's pool of 8 per running replica, a
// test pool of 4, admin connections) and `go test -p 2` runs two packages at
// once against the same cluster; 200 leaves room without costing memory
// worth mentioning. Standbys may stream from them (Replication): the read
// replica tests (test/topology, TEST_READ_REPLICA) take one with StartStandby.
func ForTests() Options {
	return Options{Throwaway: true, MaxConnections: 200, PortMin: 16384, PortMax: 32767, Replication: true}
}

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dir     string // cluster directory (absolute)
	dataDir string
	sockDir string
	logFile string
	binDir  string
	port    int
	opts    Options
	cred    *syscall.Credential // nil: run PostgreSQL as the current user
	log     *slog.Logger
	temp    *tempDir // set by StartTemp

	password string   // the superuser's (dir/password)
	lock     *os.File // the cluster directory's flock, held until Stop

	mu      sync.Mutex
	stopped bool
}

// URL returns the connection URL of the catalogd database.
func (c *Cluster) URL() string { return c.urlFor(DatabaseName) }

// AdminURL returns the connection URL of the "postgres" database, as the
// superuser: where other databases are created.
func (c *Cluster) AdminURL() string { return c.urlFor("postgres") }

// Port is the TCP port the server listens on (127.0.0.1).
func (c *Cluster) Port() int { return c.port }

// Dir is the cluster directory (absolute).
func (c *Cluster) Dir() string { return c.dir }

func (c *Cluster) urlFor(db string) string {
	return fmt.Sprintf("postgres://%s:%s@127.0.0.1:%d/%s?sslmode=disable", superuser, c.password, c.port, db)
}

// Start initialises (first time only) and starts a private PostgreSQL
// cluster in dir (e.g. ".data/pg"), and creates database "catalogd" if
// missing. The cluster is this process's until Stop: while another live
// process holds dir, Start fails with ErrInUse (naming that process) and
// touches nothing. A server left running from dir by a process that ended
// without Stop (e.g. killed) is adopted; Stop then stops it.
func Start(ctx context.Context, dir string, log *slog.Logger) (*Cluster, error) {
	return StartWith(ctx, dir, log, Options{})
}

// StartWith is Start with options. The settings of opts are written on every
// start (a cluster started again with other options gets the new ones), but
// a server already running from dir is reused with the settings it has.
func StartWith(ctx context.Context, dir string, log *slog.Logger, opts Options) (_ *Cluster, err error) {
	if opts.PortMin > 0 || opts.PortMax > 0 {
		if opts.PortMin <= 0 || opts.PortMax > 65535 || opts.PortMin > opts.PortMax {
			return nil, fmt.Errorf("pgembed: port range %d–%d is not a range of TCP ports", opts.PortMin, opts.PortMax)
		}
	}
	if log == nil {
		log = slog.Default()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("pgembed: %w", err)
	}
	binDir, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	c := &Cluster{
		dir:     abs,
		dataDir: filepath.Join(abs, "data"),
		logFile: filepath.Join(abs, "postgres.log"),
		binDir:  binDir,
		opts:    opts,
		log:     log.With("component", "pgembed", "dir", abs),
	}
	if c.cred, err = credentialFor(c.dataDir); err != nil {
		return nil, err
	}
	if err := c.prepareDirs(); err != nil {
		return nil, err
	}
	if err := c.claim(); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			c.release()
		}
	}()
	if err := c.loadPassword(); err != nil {
		return nil, err
	}
	if err := c.checkVersion(ctx); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(c.dataDir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := c.initdb(ctx); err != nil {
			return nil, err
		}
	}

	reused, err := c.reuseRunning(ctx)
	if err != nil {
		return nil, err
	}
	if !reused {
		if err := c.start(ctx); err != nil {
			return nil, err
		}
	}
	if err := c.waitReadyAndCreateDB(ctx); err != nil {
		if !reused {
			_ = c.stopServer("fast")
		}
		return nil, err
	}
	c.log.Info("embedded PostgreSQL ready", "port", c.port, "bindir", c.binDir, "reused", reused, "log", c.logFile)
	return c, nil
}

// Stop shuts the server down ("pg_ctl stop -m fast") and gives the cluster
// directory up (another process may then start it). It is idempotent.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	if err := c.stopServer("fast"); err != nil {
		return err
	}
	c.stopped = true
	c.release()
	return nil
}

// Halt stops the server but keeps the cluster directory claimed, for fault
// tests: mode "fast" (a clean shutdown: sessions are terminated, 57P01) or
// "immediate" (a crash: no checkpoint, recovery at the next start). Resume
// starts it again.
func (c *Cluster) Halt(mode string) error {
	if mode != "fast" && mode != "immediate" {
		return fmt.Errorf("pgembed: Halt mode %q, want fast or immediate", mode)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errors.New("pgembed: Halt of a stopped cluster")
	}
	return c.stopServer(mode)
}

// Resume starts a halted server again, on the same port (so that URLs given
// out stay valid), and waits until it accepts connections.
func (c *Cluster) Resume(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errors.New("pgembed: Resume of a stopped cluster")
	}
	if running, err := c.running(ctx); err != nil || running {
		return err
	}
	if err := c.writeConf(); err != nil {
		return err
	}
	logStart := fileSize(c.logFile)
	if out, err := c.run(ctx, "pg_ctl", "start", "-D", c.dataDir, "-l", c.logFile, "-w", "-t", secs(pgCtlTimeout), "-s"); err != nil {
		return fmt.Errorf("pgembed: pg_ctl start: %w: %s\n%s", err, strings.TrimSpace(out), tail(readFrom(c.logFile, logStart), 20))
	}
	return c.waitReadyAndCreateDB(ctx)
}

// stopServer runs "pg_ctl stop -m mode" when the server runs.
func (c *Cluster) stopServer(mode string) error {
	ctx, cancel := context.WithTimeout(context.Background(), pgCtlTimeout+10*time.Second)
	defer cancel()
	if running, _ := c.running(ctx); !running {
		return nil
	}
	c.log.Info("stopping embedded PostgreSQL", "mode", mode)
	if out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.dataDir, "-m", mode, "-w", "-t", secs(pgCtlTimeout)); err != nil {
		return fmt.Errorf("pgembed: pg_ctl stop: %w: %s", err, out)
	}
	return nil
}

// credentialFor returns the user PostgreSQL must run as: nil (ourselves)
// unless we are root, which PostgreSQL refuses to run as.
func credentialFor(dataDir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	// An existing data directory owned by a non-root user: keep using its owner.
	if fi, err := os.Stat(dataDir); err == nil {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid != 0 {
			return &syscall.Credential{Uid: st.Uid, Gid: st.Gid}, nil
		}
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgembed: running as root, but PostgreSQL refuses to run as root and there is no "+
			"\"postgres\" system user to run it as (%v); create one (useradd --system --user-group postgres), "+
			"run as a non-root user, or set DATABASE_URL", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("pgembed: user postgres has a non-numeric uid/gid %q/%q", u.Uid, u.Gid)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// prepareDirs creates the cluster and socket directories, owned by the user
// PostgreSQL runs as.
func (c *Cluster) prepareDirs() error {
	// Parents we create must let the postgres user through (0755); the cluster dir itself is 0700.
	if err := os.MkdirAll(filepath.Dir(c.dir), 0o755); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	if err := c.chown(c.dir); err != nil {
		return err
	}
	c.sockDir = socketDir(c.dir)
	if err := os.MkdirAll(c.sockDir, 0o700); err != nil {
		return fmt.Errorf("pgembed: socket dir: %w", err)
	}
	if err := c.chown(c.sockDir); err != nil {
		return err
	}
	// A socket dir under the shared /tmp must really be ours.
	fi, err := os.Lstat(c.sockDir)
	if err != nil {
		return fmt.Errorf("pgembed: socket dir: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || (ok && int(st.Uid) != c.uid()) {
		return fmt.Errorf("pgembed: socket dir %s is not a directory owned by uid %d", c.sockDir, c.uid())
	}
	// The socket is trusted (claim.go): only its owner may enter the directory.
	if err := os.Chmod(c.sockDir, 0o700); err != nil {
		return fmt.Errorf("pgembed: socket dir: %w", err)
	}
	return nil
}

// socketDir is dir/run, or /tmp/pgembed-<hash of dir> when that would make
// the socket path too long for a unix socket.
func socketDir(dir string) string {
	d := filepath.Join(dir, "run")
	if len(d)+len(socketName) < maxSocketPath {
		return d
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join("/tmp", "pgembed-"+hex.EncodeToString(sum[:6]))
}

func (c *Cluster) uid() int {
	if c.cred != nil {
		return int(c.cred.Uid)
	}
	return os.Geteuid()
}

func (c *Cluster) chown(path string) error {
	if c.cred == nil {
		return nil
	}
	if err := os.Chown(path, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	return nil
}

// checkVersion runs "postgres -V" as the PostgreSQL user from the cluster
// directory, which also proves that user can reach the directory, and makes
// sure an existing data directory matches the binaries' major version.
func (c *Cluster) checkVersion(ctx context.Context) error {
	out, err := c.run(ctx, "postgres", "-V")
	if err != nil {
		who := "the current user"
		if c.cred != nil {
			who = fmt.Sprintf("uid %d (PostgreSQL refuses to run as root)", c.cred.Uid)
		}
		return fmt.Errorf("pgembed: cannot run %s as %s in %s: %w %s"+
			"(that user needs to traverse every parent directory, e.g. chmod o+x, or choose another directory)",
			filepath.Join(c.binDir, "postgres"), who, c.dir, err, out)
	}
	raw, err := os.ReadFile(filepath.Join(c.dataDir, "PG_VERSION"))
	if err != nil {
		return nil // no cluster yet
	}
	want := strings.TrimSpace(string(raw))
	if binaryMatches(out, want) {
		return nil
	}
	// The data directory belongs to another installed major version: use it.
	alt := filepath.Join("/usr/lib/postgresql", want, "bin")
	if realBinDir(filepath.Join(alt, "initdb")) == alt {
		c.log.Info("using the PostgreSQL version the cluster was created with", "version", want, "bindir", alt)
		c.binDir = alt
		return nil
	}
	return fmt.Errorf("pgembed: the cluster in %s was created by PostgreSQL %s, but the binaries in %s are %s; "+
		"install PostgreSQL %s, or remove %s (losing its data) to start afresh",
		c.dataDir, want, c.binDir, strings.TrimSpace(out), want, c.dir)
}

// binaryMatches reports whether "postgres -V" output (e.g. "postgres
// (PostgreSQL) 15.20 (Debian ...)") is of major version major (e.g. "15").
func binaryMatches(versionOutput, major string) bool {
	m := regexp.MustCompile(`\(PostgreSQL\) ([0-9][0-9.]*)`).FindStringSubmatch(versionOutput)
	return m != nil && strings.HasPrefix(m[1]+".", major+".")
}

// initdb creates the cluster in a temporary directory and renames it into
// place, so an interrupted initdb never leaves a half-made data directory.
func (c *Cluster) initdb(ctx context.Context) error {
	tmp := c.dataDir + ".initdb"
	var out string
	var err error
	for _, locale := range []string{"C.UTF-8", "C"} { // C.UTF-8 may not exist outside glibc
		if err := os.RemoveAll(tmp); err != nil {
			return fmt.Errorf("pgembed: %w", err)
		}
		c.log.Info("initialising PostgreSQL cluster", "bindir", c.binDir, "locale", locale)
		args := []string{"-D", tmp, "-A", "trust", "-U", superuser, "-E", "UTF8", "--locale=" + locale}
		if c.opts.Throwaway {
			args = append(args, "--no-sync") // no fsync of the new files: about a second less
		}
		out, err = c.run(ctx, "initdb", args...)
		if err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("pgembed: initdb: %w: %s", err, out)
	}
	f, err := os.OpenFile(filepath.Join(tmp, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = io.WriteString(f, "\n"+includeLine)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		err = os.Rename(tmp, c.dataDir)
	}
	if err != nil {
		return fmt.Errorf("pgembed: initdb: %w", err)
	}
	return nil
}

// running reports whether "pg_ctl status" finds a live postmaster.
func (c *Cluster) running(ctx context.Context) (bool, error) {
	out, err := c.run(ctx, "pg_ctl", "status", "-D", c.dataDir)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 3: // no server running
		return false, nil
	default:
		return false, fmt.Errorf("pgembed: pg_ctl status: %w: %s", err, out)
	}
}

// reuseRunning adopts a server already running from this data directory
// (e.g. left behind when an earlier process was killed). A postmaster.pid
// whose pid now belongs to some other process is removed.
func (c *Cluster) reuseRunning(ctx context.Context) (bool, error) {
	running, err := c.running(ctx)
	if err != nil || !running {
		return false, err
	}
	pidFile := filepath.Join(c.dataDir, "postmaster.pid")
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		return false, fmt.Errorf("pgembed: %w", err)
	}
	lines := strings.Split(string(raw), "\n")
	var pid, port int
	if len(lines) >= 4 {
		pid, _ = strconv.Atoi(strings.TrimSpace(lines[0]))
		port, _ = strconv.Atoi(strings.TrimSpace(lines[3]))
	}
	if pid > 0 && !isPostgresProcess(pid) {
		c.log.Warn("removing stale postmaster.pid: its pid belongs to another process", "pid", pid)
		return false, os.Remove(pidFile)
	}
	if port <= 0 {
		return false, fmt.Errorf("pgembed: a PostgreSQL server (pid %d) is running on %s but its port is unknown; "+
			"stop it with: %s stop -D %s", pid, c.dataDir, filepath.Join(c.binDir, "pg_ctl"), c.dataDir)
	}
	c.port = port
	c.log.Info("reusing the PostgreSQL server already running on this directory", "pid", pid, "port", port)
	return true, nil
}

// isPostgresProcess reports whether pid looks like a postgres process (true
// when that cannot be told, e.g. without /proc).
func isPostgresProcess(pid int) bool {
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) || !dirExists("/proc/self")
	}
	return strings.HasPrefix(strings.TrimSpace(string(comm)), "postgres")
}

// start picks a port (the stored one if free), writes the settings and runs
// "pg_ctl start -w". Transient failures (port taken meanwhile, memory of a
// killed server still held by its dying children) are retried.
func (c *Cluster) start(ctx context.Context) error {
	var lastErr error
	for attempt := 0; attempt < 6; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(attempt) * 500 * time.Millisecond):
			}
		}
		port, err := c.choosePort()
		if err != nil {
			return err
		}
		c.port = port
		if err := c.writeConf(); err != nil {
			return err
		}
		logStart := fileSize(c.logFile)
		c.log.Info("starting embedded PostgreSQL", "port", port, "bindir", c.binDir)
		out, err := c.run(ctx, "pg_ctl", "start", "-D", c.dataDir, "-l", c.logFile, "-w", "-t", secs(pgCtlTimeout), "-s")
		if err == nil {
			return nil
		}
		serverLog := readFrom(c.logFile, logStart)
		lastErr = fmt.Errorf("pgembed: pg_ctl start: %w: %s\n%s", err, strings.TrimSpace(out), tail(serverLog, 20))
		if !transientStartFailure(serverLog) {
			return lastErr
		}
		c.log.Warn("PostgreSQL failed to start, retrying", "err", lastErr)
	}
	return lastErr
}

func transientStartFailure(serverLog string) bool {
	for _, s := range []string{"could not bind", "Address already in use", "still in use", "lock file"} {
		if strings.Contains(serverLog, s) {
			return true
		}
	}
	return false
}

// choosePort returns the port stored in dir/port if it is free (and within
// the options' range), otherwise a new free port, which it stores.
func (c *Cluster) choosePort() (int, error) {
	portFile := filepath.Join(c.dir, "port")
	if raw, err := os.ReadFile(portFile); err == nil {
		if p, err := strconv.Atoi(strings.TrimSpace(string(raw))); err == nil && p > 0 && c.inRange(p) && portFree(p) {
			return p, nil
		}
	}
	p, err := c.freePort()
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(portFile, []byte(strconv.Itoa(p)+"\n"), 0o600); err != nil {
		return 0, fmt.Errorf("pgembed: %w", err)
	}
	return p, nil
}

func (c *Cluster) inRange(p int) bool {
	return c.opts.PortMin == 0 || (p >= c.opts.PortMin && p <= c.opts.PortMax)
}

// freePort is a port nothing listens on: one the kernel picks, or a random
// one of the options' range.
func (c *Cluster) freePort() (int, error) {
	if c.opts.PortMin == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("pgembed: finding a free port: %w", err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		return p, nil
	}
	for range 200 {
		if p := c.opts.PortMin + rand.IntN(c.opts.PortMax-c.opts.PortMin+1); portFree(p) {
			return p, nil
		}
	}
	return 0, fmt.Errorf("pgembed: no free port found in %d–%d", c.opts.PortMin, c.opts.PortMax)
}

func portFree(p int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// writeConf writes data/pgembed.conf, included from postgresql.conf, and
// the pg_hba file it names.
func (c *Cluster) writeConf() error {
	if err := c.writeHBA(); err != nil {
		return err
	}
	conf := c.settings()
	path := filepath.Join(c.dataDir, confName)
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	return c.chown(path)
}

// settings is the content of pgembed.conf.
func (c *Cluster) settings() string {
	sharedBuffers := c.opts.SharedBuffers
	if sharedBuffers == "" {
		sharedBuffers = "32MB"
	}
	conf := fmt.Sprintf(`# Written by catalogd pgembed on every start; edits are lost.
listen_addresses = '127.0.0.1'
port = %d
unix_socket_directories = %s
unix_socket_permissions = 0700
hba_file = %s
password_encryption = 'scram-sha-256'
shared_buffers = %s
`, c.port, quoteConf(c.sockDir), quoteConf(filepath.Join(c.dataDir, hbaName)), quoteConf(sharedBuffers))
	if c.opts.MaxConnections > 0 {
		conf += fmt.Sprintf("max_connections = %d\n", c.opts.MaxConnections)
	}
	if c.opts.Throwaway {
		conf += `# A throwaway cluster (tests): its data may be lost in a crash, and is deleted after use anyway.
fsync = off
full_page_writes = off
jit = off
`
		if !c.opts.Replication {
			conf += "synchronous_commit = off\nwal_level = minimal\nmax_wal_senders = 0\n"
		} else {
			// A commit's WAL is written before it returns (cheap with fsync off): a standby's
			// reader that waits for pg_current_wal_flush_lsn() then sees every commit made before.
			conf += "synchronous_commit = on\n"
		}
	}
	if c.opts.Replication {
		conf += "# Standbys stream from it (StartStandby); a standby runs read queries (hot standby).\nwal_level = replica\nmax_wal_senders = 10\nhot_standby = on\n"
		// Standbys stream without a replication slot, and pg_basebackup's WAL streamer takes its
		// temporary slot only after the backup has started: under a busy suite a checkpoint in
		// between removed the segment it needed ("requested WAL segment … has already been
		// removed", a CI run of make test). The last 512MB of WAL stay for them.
		conf += "wal_keep_size = 512MB\n"
	}
	return conf
}

func quoteConf(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// waitReadyAndCreateDB connects (over the Unix socket) until the server
// answers (up to readyTimeout), sets the superuser's password and creates the
// catalogd database if missing.
func (c *Cluster) waitReadyAndCreateDB(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	var conn *pgx.Conn
	var err error
	for {
		attemptCtx, attemptCancel := context.WithTimeout(ctx, 3*time.Second)
		conn, err = pgx.Connect(attemptCtx, c.socketURL("postgres"))
		attemptCancel()
		if err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pgembed: PostgreSQL on port %d not ready after %s: %w\n%s",
				c.port, readyTimeout, err, tail(readFrom(c.logFile, 0), 20))
		case <-time.After(200 * time.Millisecond):
		}
	}
	defer conn.Close(context.Background())
	if c.opts.standby { // read-only: the password and the databases are the primary's
		return nil
	}
	if err := c.setPassword(ctx, conn); err != nil {
		return err
	}

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", DatabaseName).Scan(&exists); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	if exists {
		return nil
	}
	c.log.Info("creating database", "database", DatabaseName)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{DatabaseName}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: created concurrently
		err = nil
	}
	if err != nil {
		return fmt.Errorf("pgembed: creating database %s: %w", DatabaseName, err)
	}
	return nil
}

// run runs a PostgreSQL program from binDir as the PostgreSQL user, from
// the cluster directory, and returns its combined output.
func (c *Cluster) run(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	cmd.Dir = c.dir
	cmd.Env = cleanEnv()
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	// pg_ctl start leaves the server running; never wait on inherited pipes.
	cmd.WaitDelay = 5 * time.Second
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	c.log.Debug("running", "cmd", cmd.String())
	err := cmd.Run()
	return buf.String(), err
}

// cleanEnv is the environment without PG* variables (PGDATA, PGPORT, ...),
// which would otherwise change what the PostgreSQL programs do.
func cleanEnv() []string {
	env := os.Environ()
	return slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "PG") })
}

// FindBinaries returns the directory holding initdb, pg_ctl and postgres: a
// directory on PATH first (following symlinks such as /usr/local/bin/pg_ctl
// -> /usr/lib/postgresql/15/bin/pg_ctl and skipping wrapper scripts such as
// Debian's pg_wrapper), then `pg_config --bindir`, then the highest version
// under /usr/lib/postgresql/*/bin (or /usr/pgsql-*/bin).
func FindBinaries() (string, error) {
	return findBinaries(filepath.SplitList(os.Getenv("PATH")), versionedBinGlobs)
}

func findBinaries(pathDirs, globs []string) (string, error) {
	// 1. PATH.
	for _, d := range pathDirs {
		if d == "" {
			d = "."
		}
		if dir := realBinDir(filepath.Join(d, "initdb")); dir != "" {
			return dir, nil
		}
	}
	// 2. pg_config --bindir (Debian's libpq-dev pg_config says /usr/bin, which has no initdb: skipped).
	for _, d := range pathDirs {
		pgConfig := filepath.Join(d, "pg_config")
		if !isExecutable(pgConfig) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := exec.CommandContext(ctx, pgConfig, "--bindir").Output()
		cancel()
		if err == nil {
			if dir := realBinDir(filepath.Join(strings.TrimSpace(string(out)), "initdb")); dir != "" {
				return dir, nil
			}
		}
		break // only the pg_config PATH would run
	}
	// 3. Versioned install directories, highest version first.
	var cands []string
	for _, g := range globs {
		m, _ := filepath.Glob(g)
		cands = append(cands, m...)
	}
	slices.SortStableFunc(cands, func(a, b string) int { return slices.Compare(versionOf(b), versionOf(a)) })
	for _, d := range cands {
		if dir := realBinDir(filepath.Join(d, "initdb")); dir != "" {
			return dir, nil
		}
	}
	return "", errors.New("pgembed: no PostgreSQL server binaries (initdb, pg_ctl, postgres) found on PATH, " +
		"via `pg_config --bindir` or under " + strings.Join(globs, ", ") + ". " +
		"Either install PostgreSQL (Debian/Ubuntu: `apt-get install postgresql`; Fedora/RHEL: `dnf install postgresql-server`; " +
		"macOS: `brew install postgresql`), or set DATABASE_URL to use an existing PostgreSQL server")
}

// realBinDir resolves symlinks of initdb and returns its directory if it
// holds all requiredBinaries as real executables (not wrapper scripts), or "".
func realBinDir(initdb string) string {
	resolved, err := filepath.EvalSymlinks(initdb)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(resolved)
	for _, name := range requiredBinaries {
		if !isExecutable(filepath.Join(dir, name)) || isScript(filepath.Join(dir, name)) {
			return ""
		}
	}
	return dir
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	head := make([]byte, 2)
	_, err = io.ReadFull(f, head)
	return err != nil || string(head) == "#!"
}

var versionRE = regexp.MustCompile(`[0-9]+(\.[0-9]+)*`)

// versionOf extracts the version from a bin dir such as
// /usr/lib/postgresql/15/bin or /usr/pgsql-15/bin (its parent's name).
func versionOf(binDir string) []int {
	var v []int
	for _, part := range strings.Split(versionRE.FindString(filepath.Base(filepath.Dir(binDir))), ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			break
		}
		v = append(v, n)
	}
	return v
}

func dirExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// readFrom returns the content of path from offset on (at most 64 KiB).
func readFrom(path string, offset int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if size := fileSize(path); size-offset > 64<<10 {
		offset = size - 64<<10
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(f)
	return string(b)
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func secs(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }
