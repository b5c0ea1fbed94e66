package pgembed

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// Bouncer is a private PgBouncer (Debian's pgbouncer package) in front of a PostgreSQL server, for
// the tests and benchmarks that run catalogd behind a connection pooler (DESIGN.md "Production
// topology"). It listens on 127.0.0.1 on a free port of its own, serves every database of the
// server (a "*" entry) with the server's own user and password, and runs in a temporary directory
// that is removed, with the process, by Stop or, when the process that started it ends in any way,
// by a watchdog shell (the same pipe trick as StartTemp's). As root it runs as the postgres user
// (PgBouncer refuses to run as root).
type Bouncer struct {
	server  string // the URL StartBouncer was given (its user and password)
	port    int
	mode    string
	root    string
	logFile string
	td      *tempDir // the running bouncer's watchdog (nil until it runs)
}

// BouncerOptions are a Bouncer's pool settings.
type BouncerOptions struct {
	// Mode is PgBouncer's pool_mode: "transaction" (the default) or "session".
	Mode string
	// PoolSize is default_pool_size, the server connections per database and user; 0 is 20.
	PoolSize int
}

// bouncerScript runs PgBouncer until its standard input closes ($1 the binary, $2 its
// configuration, $3 the directory to remove afterwards). SIGINT is PgBouncer's safe shutdown,
// which waits for its clients: a directory about to be deleted wants SIGTERM, the immediate one.
const bouncerScript = `"$1" "$2" &
pid=$!
read -r _ || :
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rm -rf -- "$3"
`

// bouncerPaths are where distributions install pgbouncer (it is in sbin, often not on PATH).
var bouncerPaths = []string{"/usr/sbin/pgbouncer", "/usr/local/sbin/pgbouncer", "/usr/bin/pgbouncer", "/usr/local/bin/pgbouncer"}

// FindBouncer returns the path of the pgbouncer binary: on PATH, or where distributions put it.
func FindBouncer() (string, error) {
	if p, err := exec.LookPath("pgbouncer"); err == nil {
		return p, nil
	}
	for _, p := range bouncerPaths {
		if isExecutable(p) {
			return p, nil
		}
	}
	return "", errors.New("pgembed: no pgbouncer binary on PATH or in " + strings.Join(bouncerPaths, ", ") +
		": install it (Debian/Ubuntu: scripts/install-pgbouncer.sh, or `go run ./cmd/testpg -install`)")
}

// StartBouncer starts a PgBouncer in front of the server that serverURL (a postgres:// URL with a
// user and password, such as Cluster.AdminURL) reaches, and waits until it accepts connections.
func StartBouncer(ctx context.Context, serverURL string, opts BouncerOptions) (_ *Bouncer, err error) {
	bin, err := FindBouncer()
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(serverURL)
	if err != nil || u.User == nil {
		return nil, fmt.Errorf("pgembed: bouncer: %q is not a postgres:// URL with a user", serverURL)
	}
	password, _ := u.User.Password()
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = "5432"
	}
	if opts.Mode == "" {
		opts.Mode = "transaction"
	}
	if opts.Mode != "transaction" && opts.Mode != "session" {
		return nil, fmt.Errorf("pgembed: bouncer: pool mode %q is not transaction or session", opts.Mode)
	}
	if opts.PoolSize <= 0 {
		opts.PoolSize = 20
	}
	cred, err := credentialFor("")
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp("", "catalogd-pgbouncer-")
	if err != nil {
		return nil, fmt.Errorf("pgembed: bouncer: %w", err)
	}
	b := &Bouncer{server: serverURL, mode: opts.Mode, root: root, logFile: filepath.Join(root, "pgbouncer.log")}
	defer func() {
		if err != nil {
			_ = b.Stop()
		}
	}()
	own := func(path string) error {
		if cred == nil {
			return nil
		}
		return os.Chown(path, int(cred.Uid), int(cred.Gid))
	}
	if err := own(root); err != nil {
		return nil, fmt.Errorf("pgembed: bouncer: %w", err)
	}
	if b.port, err = (&Cluster{opts: ForTests()}).freePort(); err != nil {
		return nil, err
	}
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	files := map[string]string{
		"userlist.txt": quote(u.User.Username()) + " " + quote(password) + "\n",
		"pgbouncer.ini": fmt.Sprintf(`; written by catalogd pgembed (StartBouncer)
[databases]
* = host=%s port=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = scram-sha-256
auth_file = %s
admin_users = %s
pool_mode = %s
default_pool_size = %d
max_client_conn = 2000
ignore_startup_parameters = extra_float_digits
logfile = %s
`, host, port, b.port, filepath.Join(root, "userlist.txt"), u.User.Username(), opts.Mode, opts.PoolSize, b.logFile),
	}
	for name, content := range files {
		path := filepath.Join(root, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			return nil, fmt.Errorf("pgembed: bouncer: %w", err)
		}
		if err := own(path); err != nil {
			return nil, fmt.Errorf("pgembed: bouncer: %w", err)
		}
	}
	if b.td, err = startWatched(root, cred, bouncerScript, "pgembed-bouncer", bin, filepath.Join(root, "pgbouncer.ini"), root); err != nil {
		return nil, err
	}
	return b, b.waitReady(ctx)
}

// waitReady waits until the bouncer accepts TCP connections (at most 10 s).
func (b *Bouncer) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(b.port))
	for {
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
		if err == nil {
			_ = c.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pgembed: pgbouncer on %s not ready: %w\n%s", addr, err, tail(readFrom(b.logFile, 0), 20))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Port is the port the bouncer listens on (127.0.0.1).
func (b *Bouncer) Port() int { return b.port }

// Mode is the bouncer's pool_mode.
func (b *Bouncer) Mode() string { return b.mode }

// URL is serverURL (a URL of the server behind the bouncer: its user, password, database and
// parameters) through the bouncer.
func (b *Bouncer) URL(serverURL string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", err
	}
	u.Host = net.JoinHostPort("127.0.0.1", strconv.Itoa(b.port))
	return u.String(), nil
}

// Transactions is how many transactions the bouncer has passed to database (SHOW STATS of its
// admin console, total_xact_count): 0 for a database it has not served.
func (b *Bouncer) Transactions(ctx context.Context, database string) (int64, error) {
	admin, err := b.URL(b.server)
	if err != nil {
		return 0, err
	}
	u, _ := url.Parse(admin)
	u.Path, u.RawQuery = "/pgbouncer", "default_query_exec_mode=simple_protocol&sslmode=disable"
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	rows, err := conn.Query(ctx, "SHOW STATS")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	for rows.Next() {
		row := map[string]string{} // the simple protocol's text of each column
		for i, f := range rows.FieldDescriptions() {
			row[f.Name] = string(rows.RawValues()[i])
		}
		if row["database"] == database {
			if n, err = strconv.ParseInt(row["total_xact_count"], 10, 64); err != nil {
				return 0, fmt.Errorf("pgembed: SHOW STATS: total_xact_count %q", row["total_xact_count"])
			}
		}
	}
	return n, rows.Err()
}

// Log is what PgBouncer has logged so far.
func (b *Bouncer) Log() string { return readFrom(b.logFile, 0) }

// Stop stops PgBouncer and removes its directory.
func (b *Bouncer) Stop() error {
	if b.td == nil {
		return os.RemoveAll(b.root)
	}
	return b.td.remove()
}
