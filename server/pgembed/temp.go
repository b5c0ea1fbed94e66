package pgembed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// TempPrefix starts the name of every directory StartTemp makes (under os.TempDir).
const TempPrefix = "catalogd-pg-"

// removeTimeout bounds how long Remove waits for the watchdog to stop the server and delete the
// directory.
const removeTimeout = 60 * time.Second

// watchdogScript stops a temporary cluster and deletes its directory once the process that
// started it is gone. Its standard input is the read end of a pipe whose only write end belongs to
// that process: `read` returns when the process closes it (Remove) or ends in any way, SIGKILL
// included, because the kernel closes a dead process's files. Then the postmaster named in
// postmaster.pid (if it still is a postgres process) gets SIGQUIT, PostgreSQL's immediate
// shutdown, which is all a cluster about to be deleted needs, and the directories are removed.
// $1 is the data directory, $2 the temporary directory, $3 a socket directory outside it ("" if
// none).
const watchdogScript = `read -r _ || :
pidfile="$1/postmaster.pid"
pid=$(head -n 1 "$pidfile" 2>/dev/null) || pid=
case "$pid" in '' | *[!0-9]*) pid= ;; esac
if [ -n "$pid" ]; then
	comm=$(cat "/proc/$pid/comm" 2>/dev/null) || comm=postgres
	if [ "$comm" = postgres ] && kill -QUIT "$pid" 2>/dev/null; then
		i=0
		while [ "$i" -lt 300 ] && [ -e "$pidfile" ] && kill -0 "$pid" 2>/dev/null; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
fi
rm -rf -- "$2"
if [ -n "$3" ]; then rm -rf -- "$3"; fi
`

// tempDir is the temporary directory of a StartTemp cluster and its watchdog.
type tempDir struct {
	root     string
	watchdog *exec.Cmd
	keepOpen *os.File // the pipe's write end: closing it (or exiting) sets the watchdog off
	once     sync.Once
	err      error
}

// liveTemps keeps every tempDir reachable, so that the garbage collector never finalizes (and so
// closes) a write end while the process lives: the cluster of a *Cluster the caller dropped stays
// up until the process ends.
var liveTemps sync.Map

// StartTemp starts a cluster with opts (typically ForTests()) in a new temporary directory
// (os.TempDir()/catalogd-pg-*). Remove stops it and deletes the directory. If the process ends
// without calling Remove — returns from main, exits, panics, is killed — a watchdog process
// started here does the same within moments, so no server and no directory is left behind.
func StartTemp(ctx context.Context, log *slog.Logger, opts Options) (*Cluster, error) {
	dir, td, err := watchedTempDir()
	if err != nil {
		return nil, err
	}
	c, err := StartWith(ctx, dir, log, opts)
	if err != nil {
		if rerr := td.remove(); rerr != nil {
			err = errors.Join(err, rerr)
		}
		return nil, err
	}
	c.temp = td
	return c, nil
}

// watchedTempDir makes a temporary directory (os.TempDir()/catalogd-pg-*) for a cluster in its
// "pg" subdirectory (dir) and starts its watchdog, which stops that cluster and deletes the
// directory when td.remove is called or the process ends. The watchdog starts before the
// cluster: a process killed while the cluster starts leaves nothing either.
func watchedTempDir() (dir string, td *tempDir, err error) {
	root, err := os.MkdirTemp("", TempPrefix)
	if err != nil {
		return "", nil, fmt.Errorf("pgembed: %w", err)
	}
	// As root, PostgreSQL runs as the postgres user, which must traverse root (MkdirTemp makes it 0700).
	if err := os.Chmod(root, 0o755); err != nil {
		_ = os.RemoveAll(root)
		return "", nil, fmt.Errorf("pgembed: %w", err)
	}
	dir = filepath.Join(root, "pg")
	if td, err = startWatchdog(root, filepath.Join(dir, "data"), socketDir(dir)); err != nil {
		_ = os.RemoveAll(root)
		return "", nil, err
	}
	return dir, td, nil
}

func startWatchdog(root, dataDir, sockDir string) (*tempDir, error) {
	extraSock := ""
	if rel, err := filepath.Rel(root, sockDir); err != nil || strings.HasPrefix(rel, "..") {
		extraSock = sockDir // a long TMPDIR puts the socket directory under /tmp (socketDir)
	}
	return startWatched(root, nil, watchdogScript, "pgembed-watchdog", dataDir, root, extraSock)
}

// startWatched runs script (sh -c, with args) as cred (nil: this process's user) with its standard
// input the read end of a pipe whose write end only this process holds: the script's `read`
// returns when remove closes it or the process ends in any way. The script must then stop what it
// watches and delete root, which remove waits for.
func startWatched(root string, cred *syscall.Credential, script string, args ...string) (*tempDir, error) {
	r, w, err := os.Pipe() // both ends close-on-exec: no other child of this process inherits w
	if err != nil {
		return nil, fmt.Errorf("pgembed: watchdog: %w", err)
	}
	cmd := exec.Command("/bin/sh", append([]string{"-c", script}, args...)...)
	cmd.Stdin = r // stdout and stderr: /dev/null, so that nobody waits on the watchdog's output
	// Its own session: a Ctrl-C in the terminal (SIGINT to the foreground process group) does not
	// kill the watchdog along with the tests, which is exactly when it is needed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: cred}
	err = cmd.Start()
	_ = r.Close()
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("pgembed: watchdog: %w", err)
	}
	td := &tempDir{root: root, watchdog: cmd, keepOpen: w}
	liveTemps.Store(td, struct{}{})
	return td, nil
}

// remove sets the watchdog off and waits until it has stopped the server and deleted the
// directory.
func (td *tempDir) remove() error {
	td.once.Do(func() {
		defer liveTemps.Delete(td)
		_ = td.keepOpen.Close()
		done := make(chan error, 1)
		go func() { done <- td.watchdog.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				td.err = fmt.Errorf("pgembed: watchdog: %w", err)
			}
		case <-time.After(removeTimeout):
			td.err = fmt.Errorf("pgembed: %s was not stopped and removed within %s", td.root, removeTimeout)
			return
		}
		if _, err := os.Stat(td.root); !errors.Is(err, os.ErrNotExist) {
			td.err = errors.Join(td.err, fmt.Errorf("pgembed: %s is still there after removal (%v)", td.root, err))
		}
	})
	return td.err
}

// Remove stops a cluster of StartTemp (immediate shutdown: its data is not kept) and deletes its
// temporary directory. It is idempotent.
func (c *Cluster) Remove() error {
	if c.temp == nil {
		return errors.New("pgembed: Remove is for clusters of StartTemp; use Stop")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.temp.remove()
	if err == nil {
		c.stopped = true
		c.release()
	}
	return err
}

// TempRoot is the temporary directory of a StartTemp cluster ("" for others).
func (c *Cluster) TempRoot() string {
	if c.temp == nil {
		return ""
	}
	return c.temp.root
}
