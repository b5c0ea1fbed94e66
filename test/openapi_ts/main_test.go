// Package openapits checks the served /openapi.json from the outside, with tools that know nothing
// of how it was made: a TypeScript client generated from it by openapi-typescript must type-check
// with `tsc --strict` and run a client flow (openapi-fetch) against a live catalogd, and
// `@redocly/cli lint` must find no error in it. The npm project is ../openapi-ts (exact versions in
// its package.json and package-lock.json); `npm ci` runs here when its node_modules is missing or
// was installed from another lockfile. Node.js and npm are required: a missing tool is a failure,
// never a skip.
package openapits

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) { apptest.Main(m, &env, nil) }

// minNode is the oldest Node.js the pinned packages run on (@redocly/cli and openapi-fetch declare
// ">=20.19.0 <21 || >=22.12.0").
var minNode = [3]int{20, 19, 0}

// projectDir is the npm project: package.json, package-lock.json, tsconfig.json, redocly.yaml, src/.
func projectDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "openapi-ts"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"package.json", "package-lock.json", "tsconfig.json", "redocly.yaml", "src/client-flow.ts"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("the npm project is incomplete: %v", err)
		}
	}
	return dir
}

var (
	setupOnce sync.Once
	setupErr  error
)

// setup makes sure node and npm are there and node_modules matches the lockfile (once per run).
func setup(t *testing.T) string {
	t.Helper()
	dir := projectDir(t)
	setupOnce.Do(func() { setupErr = ensureNodeModules(dir, t) })
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return dir
}

func ensureNodeModules(dir string, t *testing.T) error {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is not on PATH: this test needs Node.js >= %d.%d.%d with npm (e.g. Debian's nodejs and npm "+
				"packages, or nodejs.org) to install the pinned npm packages of test/openapi-ts", tool, minNode[0], minNode[1], minNode[2])
		}
	}
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return fmt.Errorf("node --version: %v", err)
	}
	if v, ok := parseVersion(string(out)); !ok || !atLeast(v, minNode) {
		return fmt.Errorf("node %s is too old: the pinned packages need Node.js >= %d.%d.%d", strings.TrimSpace(string(out)),
			minNode[0], minNode[1], minNode[2])
	}

	// One `npm ci` at a time in this directory, also across concurrent `go test` runs.
	unlock, err := lockFile(filepath.Join(dir, "node_modules.lock"))
	if err != nil {
		return err
	}
	defer unlock()

	want, err := lockDigest(dir)
	if err != nil {
		return err
	}
	stamp := filepath.Join(dir, "node_modules", ".catalogd-lock-digest")
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		t.Logf("node_modules is up to date with package-lock.json")
		return nil
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		return err
	}
	t.Logf("npm ci: %s", time.Since(start).Round(time.Millisecond))
	return nil
}

// lockDigest identifies what node_modules must hold: package.json and package-lock.json.
func lockDigest(dir string) (string, error) {
	h := sha256.New()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

var versionRE = regexp.MustCompile(`v?(\d+)\.(\d+)\.(\d+)`)

func parseVersion(s string) ([3]int, bool) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return [3]int{}, false
	}
	var v [3]int
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, true
}

func atLeast(v, min [3]int) bool {
	for i := range v {
		if v[i] != min[i] {
			return v[i] > min[i]
		}
	}
	return true
}

// fetchDocument saves the served /openapi.json to a file and returns its path.
func fetchDocument(t *testing.T) string {
	t.Helper()
	res, err := http.Get(env.BaseURL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /openapi.json: %d %s", res.StatusCode, body)
	}
	var head struct {
		OpenAPI string `json:"openapi"`
	}
	if err := json.Unmarshal(body, &head); err != nil || !strings.HasPrefix(head.OpenAPI, "3.1.") {
		t.Fatalf("GET /openapi.json is not an OpenAPI 3.1 document (openapi %q, %v)", head.OpenAPI, err)
	}
	path := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// result is a finished command.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// run runs a command in dir with extra environment and a time limit; a command that cannot start or
// is killed by the limit fails the test, a non-zero exit is returned.
func run(t *testing.T, dir string, extraEnv []string, limit time.Duration, name string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s %s: no answer within %s\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), limit, r.stdout, r.stderr)
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return r
}
