package apptest

import (
	"bytes"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Proc is a catalogd process a test started itself (the built binary, an image's entrypoint), with
// its output collected.
type Proc struct {
	Cmd    *exec.Cmd
	logs   LockedBuffer
	exited chan error
}

// LockedBuffer is a bytes.Buffer that several goroutines may write (a process's two pipes) and read.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *LockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// StartProc starts cmd (a `catalogd serve` whose HTTP port is base, http://host:port), collects its
// output and waits until base/readyz answers 200; the test fails when the process exits or is not ready
// within a minute. At the end of the test the process gets SIGTERM and must exit cleanly within 30 s.
func StartProc(t testing.TB, cmd *exec.Cmd, base string) *Proc {
	t.Helper()
	p := &Proc{Cmd: cmd, exited: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = &p.logs, &p.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-p.exited:
			if err != nil {
				t.Errorf("%s: exit after SIGTERM: %v\n%s", cmd.Path, err, p.Log())
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("%s: no exit 30 s after SIGTERM", cmd.Path)
		}
	})
	WaitFor(t, time.Minute, base+" ready", func() bool {
		select {
		case err := <-p.exited:
			t.Fatalf("%s exited: %v\n%s", cmd.Path, err, p.Log())
		default:
		}
		res, err := http.Get(base + "/readyz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	return p
}

// Log is what the process has written so far (standard output and error).
func (p *Proc) Log() string { return p.logs.String() }

// FreeAddr is a 127.0.0.1 address with a port free a moment ago, for a process to listen on.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
