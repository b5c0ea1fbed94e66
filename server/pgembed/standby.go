package pgembed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
)

// StartStandby starts a streaming standby (hot standby: it answers read-only queries) of the
// server that primaryURL reaches: a postgres:// URL of its superuser with the password (such as
// Cluster.AdminURL) of a server that allows replication (a pgembed cluster started with
// Options.Replication). The standby is made by `pg_basebackup -R` in a new temporary directory,
// like StartTemp's: Remove stops it and deletes the directory, and so does a watchdog when the
// process ends in any way. opts are the standby's settings (Replication is implied); PostgreSQL
// refuses to start a standby with fewer connections than its primary, so give the primary's
// (ForTests() for the tests' clusters). Its superuser and password are the primary's; its
// databases are the primary's, under the same names (Replace a URL's host with HostPort).
func StartStandby(ctx context.Context, log *slog.Logger, primaryURL string, opts Options) (_ *Cluster, err error) {
	u, err := url.Parse(primaryURL)
	if err != nil || u.User == nil {
		return nil, fmt.Errorf("pgembed: standby: %q is not a postgres:// URL with a user", primaryURL)
	}
	password, _ := u.User.Password()
	if len(password) < 32 || !isHex(password) {
		return nil, errors.New("pgembed: standby: the primary's URL must carry a pgembed cluster's password (hex, 32 characters or more)")
	}
	binDir, err := FindBinaries()
	if err != nil {
		return nil, err
	}
	cred, err := credentialFor("")
	if err != nil {
		return nil, err
	}
	dir, td, err := watchedTempDir()
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, td.remove())
		}
	}()
	own := func(path string) error {
		if cred == nil {
			return nil
		}
		return os.Chown(path, int(cred.Uid), int(cred.Gid))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("pgembed: %w", err)
	}
	pwFile := filepath.Join(dir, passwordName)
	if err := os.WriteFile(pwFile, []byte(password+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("pgembed: %w", err)
	}
	for _, p := range []string{dir, pwFile} {
		if err := own(p); err != nil {
			return nil, fmt.Errorf("pgembed: %w", err)
		}
	}
	args := []string{"-D", filepath.Join(dir, "data"), "-R", "-X", "stream", "-c", "fast", "-d", primaryURL}
	if opts.Throwaway {
		args = append(args, "--no-sync")
	}
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "pg_basebackup"), args...)
	cmd.Dir, cmd.Env = dir, cleanEnv()
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pgembed: pg_basebackup of %s: %w: %s", u.Redacted(), err, strings.TrimSpace(string(out)))
	}
	opts.Replication, opts.standby = true, true
	c, err := StartWith(ctx, dir, log, opts)
	if err != nil {
		return nil, err
	}
	c.temp = td
	return c, nil
}

// HostPort is rawURL (a URL of the primary, with its user, password, database and parameters)
// with the host and port of c (a standby of it): the same database on the standby.
func (c *Cluster) HostPort(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	u.Host = net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port))
	return u.String(), nil
}

// WaitReplayed waits until the standby c has replayed the WAL the primary that primaryURL
// reaches had flushed when it was called (pg_current_wal_flush_lsn), or ctx ends.
func (c *Cluster) WaitReplayed(ctx context.Context, primaryURL string) error {
	p, err := pgx.Connect(ctx, primaryURL)
	if err != nil {
		return err
	}
	var lsn string
	err = p.QueryRow(ctx, "SELECT pg_current_wal_flush_lsn()::text").Scan(&lsn)
	_ = p.Close(context.WithoutCancel(ctx))
	if err != nil {
		return err
	}
	s, err := pgx.Connect(ctx, c.socketURL("postgres"))
	if err != nil {
		return err
	}
	defer s.Close(context.WithoutCancel(ctx))
	for {
		var done bool
		if err := s.QueryRow(ctx, "SELECT pg_last_wal_replay_lsn() >= $1::text::pg_lsn", lsn).Scan(&done); err != nil {
			return err
		}
		if done {
			return nil
		}
		if _, err := s.Exec(ctx, "SELECT pg_sleep(0.01)"); err != nil {
			return err
		}
	}
}
