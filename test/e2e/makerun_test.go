package e2e

import (
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMakeRun is a newcomer's first minutes, at the repository's root: `make run` builds
// bin/catalogd and starts it; the banner's `TOKEN=$(… token)` line, pasted into a shell there, gives
// a token the service takes; `/` sends a browser to the API reference; `bin/catalogd version` names
// the commit it was built from; and Ctrl-C (SIGINT to the terminal's process group: make, catalogd
// and its PostgreSQL) stops everything cleanly, without a `make: *** … Error` line.
func TestMakeRun(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"make", "git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("this test needs %s: %v", tool, err)
		}
	}
	parent, err := os.MkdirTemp("", "catalogd-e2e-make-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(parent)
	_ = os.Chmod(parent, 0o755) // the embedded cluster's user must traverse it (see TestBinaryEmbeddedDatabaseAndDevToken)
	httpAddr, grpcAddr := freePort(t), freePort(t)
	env := append(os.Environ(), "DATABASE_URL=", "CATALOG_DATA_DIR="+filepath.Join(parent, ".data"),
		"CATALOG_JWT_HS256_SECRET=", "CATALOG_JWKS_URL=", "CATALOG_HTTP_ADDR="+httpAddr, "CATALOG_GRPC_ADDR="+grpcAddr)

	cmd := exec.Command("make", "--no-print-directory", "run")
	cmd.Dir, cmd.Env = root, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // a terminal's foreground process group
	p := launch(t, cmd)
	stopped := false
	defer func() {
		if !stopped {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(30 * time.Second):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			}
		}
	}()

	// The build (a cold cache compiles everything) and the embedded cluster's first start.
	base := "http://" + httpAddr
	ready := false
	for deadline := time.Now().Add(10 * time.Minute); !ready && time.Now().Before(deadline); {
		if res, err := http.Get(base + "/readyz"); err == nil {
			res.Body.Close()
			ready = res.StatusCode == 200
		}
		if !ready {
			select {
			case err := <-p.done:
				stopped = true
				t.Fatalf("make run exited before the service was ready: %v\n%s", err, p.log())
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	if !ready {
		t.Fatalf("make run: not ready in 10 minutes\n%s", p.log())
	}

	// The banner's line for another token, run as a reader pastes it at the root of the repository.
	tokenRE := regexp.MustCompile(`(?m)^Another one at any time: (TOKEN=\$\(.*\))   \(`)
	var tokenLine string
	for end := time.Now().Add(5 * time.Second); tokenLine == "" && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if m := tokenRE.FindStringSubmatch(p.log()); m != nil {
			tokenLine = m[1]
		}
	}
	t.Logf("banner: %s", tokenLine)
	if tokenLine != "TOKEN=$(./bin/catalogd token)" {
		t.Fatalf("the banner's token line is %q, want TOKEN=$(./bin/catalogd token):\n%s", tokenLine, p.log())
	}
	sh := exec.Command("bash", "-c", tokenLine+` && printf %s "$TOKEN"`)
	sh.Dir, sh.Env = root, env
	out, err := sh.Output()
	if err != nil {
		t.Fatalf("%s at the repository's root: %v", tokenLine, err)
	}
	if st, _, m := do(t, "GET", base+"/v1/locales", string(out), ""); st != 200 || m["items"] == nil {
		t.Errorf("GET /v1/locales with the token of %s: %d %v", tokenLine, st, m)
	}

	// GET / points to the API reference.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/docs" {
		t.Errorf("GET /: %d, Location %q; want 302 to /docs", res.StatusCode, res.Header.Get("Location"))
	}
	if res, err := http.Get(base + "/"); err != nil || res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET / followed: %v %v", res, err)
	} else {
		res.Body.Close()
	}

	// The binary make built names the commit of the checkout.
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	version, err := exec.Command(filepath.Join(root, "bin", "catalogd"), "version").Output()
	if err != nil {
		t.Fatalf("bin/catalogd version: %v", err)
	}
	commit := regexp.MustCompile(`(?m)^commit (\S+)$`).FindSubmatch(version)
	if commit == nil || strings.TrimSuffix(string(commit[1]), "-modified") != strings.TrimSpace(string(head)) {
		t.Errorf("bin/catalogd version:\n%s\nwant the line `commit %s` (or with -modified)", version, strings.TrimSpace(string(head)))
	}

	// Ctrl-C.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-p.done:
		stopped = true
	case <-time.After(60 * time.Second):
		t.Fatalf("make run still running 60 s after Ctrl-C\n%s", p.log())
	}
	// make, interrupted itself, ends by the signal (the shell shows ^C) once catalogd has exited 0.
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGINT) {
		t.Errorf("make run after Ctrl-C: %v, want exit 0 or the interrupt itself", err)
	}
	if strings.Contains(p.log(), "***") || !strings.Contains(p.log(), `"msg":"stopped"`) {
		t.Errorf("Ctrl-C on make run did not end with catalogd's clean stop alone:\n%s", p.log())
	}
}
