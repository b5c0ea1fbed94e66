package pgembed

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
)

// A cluster directory is used by one process at a time. The process that starts (or adopts) the
// server holds an exclusive flock(2) on dir/lock until Stop (or until it ends, however it ends:
// the kernel drops the lock of a dead process). A second process that finds the lock taken does
// not touch the cluster at all: Start fails with ErrInUse, naming the holder's pid and command.
// So a process never stops, restarts or reconfigures a server another live process uses; a
// server left running by a process that was killed has no holder and is adopted by the next one.
const (
	lockName     = "lock"
	passwordName = "password"
	hbaName      = "pgembed_hba.conf"
)

// ErrInUse is the error (wrapped) of Start when another live process holds the cluster directory.
var ErrInUse = errors.New("the embedded PostgreSQL is in use by another process")

// claim takes the cluster directory's lock, or fails with ErrInUse naming the holder.
func (c *Cluster) claim() error {
	path := filepath.Join(c.dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600) // close-on-exec: postgres never inherits it
	if err != nil {
		return fmt.Errorf("pgembed: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("pgembed: %w: %s holds %s. This process neither shares nor stops it: "+
				"stop that process first, or give this one another data directory (CATALOG_DATA_DIR) or a DATABASE_URL",
				ErrInUse, describeHolder(holder), c.dir)
		}
		return fmt.Errorf("pgembed: lock %s: %w", path, err)
	}
	// Who holds it, for the message of the next process that tries.
	me := strconv.Itoa(os.Getpid()) + "\n" + commandLine(os.Getpid()) + "\n"
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(me), 0)
	}
	c.lock = f
	return nil
}

// release drops the lock (after the server is stopped).
func (c *Cluster) release() {
	if c.lock != nil {
		_ = c.lock.Close() // closing the only descriptor drops the flock
		c.lock = nil
	}
}

// describeHolder renders a lock file's content ("pid\ncommand\n") as "process 123 (catalogd serve)".
func describeHolder(content []byte) string {
	pid, cmd, _ := strings.Cut(strings.TrimSpace(string(content)), "\n")
	if _, err := strconv.Atoi(pid); err != nil {
		return "another process"
	}
	if cmd = strings.TrimSpace(cmd); cmd != "" {
		return "process " + pid + " (" + cmd + ")"
	}
	return "process " + pid
}

// commandLine is the command line of pid, space-separated, at most 200 bytes ("" if unknown).
func commandLine(pid int) string {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(bytes.ReplaceAll(raw, []byte{0}, []byte{' '})))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// Authentication. Other local users must not be able to log in: TCP (127.0.0.1 only) requires the
// superuser's password (SCRAM-SHA-256), generated on first use into dir/password (0600, the
// starting process's user); the Unix socket lives in a 0700 directory (dir/run, or a 0700
// /tmp/pgembed-<hash> of our own when that path would exceed the socket path limit), which only
// the cluster's owner (and root) can enter, and is trusted. pg_hba is pgembed_hba.conf in the
// data directory, rewritten on every start (hba_file in pgembed.conf), so a cluster made by an
// earlier version, whose pg_hba.conf trusted every local TCP connection, is secured on its next
// start.

// loadPassword reads dir/password, creating it on first use.
func (c *Cluster) loadPassword() error {
	path := filepath.Join(c.dir, passwordName)
	if raw, err := os.ReadFile(path); err == nil {
		if pw := strings.TrimSpace(string(raw)); len(pw) >= 32 && isHex(pw) {
			c.password = pw
			return nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("pgembed: password: %w", err)
	}
	buf := make([]byte, 24)
	if _, err := rand.Read(buf); err != nil {
		return fmt.Errorf("pgembed: password: %w", err)
	}
	pw := hex.EncodeToString(buf)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(pw+"\n"), 0o600); err != nil {
		return fmt.Errorf("pgembed: password: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("pgembed: password: %w", err)
	}
	c.password = pw
	return nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}

// hba is the content of pgembed_hba.conf.
func hba() string {
	return `# Written by catalogd pgembed on every start; edits are lost.
# The socket directory is 0700: only the cluster's owner (and root) reach the socket.
local all all trust
# TCP (listen_addresses is 127.0.0.1): the superuser's password, SCRAM only.
host all all 127.0.0.1/32 scram-sha-256
host all all ::1/128 scram-sha-256
# Streaming standbys (StartStandby; only with Options.Replication are there WAL senders).
host replication all 127.0.0.1/32 scram-sha-256
`
}

// writeHBA writes data/pgembed_hba.conf.
func (c *Cluster) writeHBA() error {
	path := filepath.Join(c.dataDir, hbaName)
	if err := os.WriteFile(path, []byte(hba()), 0o600); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	return c.chown(path)
}

// socketURL is the URL of db over the Unix socket (trusted: how pgembed itself connects).
func (c *Cluster) socketURL(db string) string {
	q := url.Values{"host": {c.sockDir}, "port": {strconv.Itoa(c.port)}, "sslmode": {"disable"}}
	return "postgres://" + superuser + "@/" + db + "?" + q.Encode()
}

// setPassword makes the superuser's password the one of dir/password (SCRAM).
func (c *Cluster) setPassword(ctx context.Context, conn *pgx.Conn) error {
	if _, err := conn.Exec(ctx, "SET password_encryption = 'scram-sha-256'"); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	// ALTER ROLE takes no parameters; the password is hex, quoted as a literal.
	if _, err := conn.Exec(ctx, "ALTER ROLE "+pgx.Identifier{superuser}.Sanitize()+" PASSWORD '"+c.password+"'"); err != nil {
		return fmt.Errorf("pgembed: setting the superuser's password: %w", err)
	}
	return nil
}
