package apptest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
)

// npmDone remembers, per directory, the outcome of NpmCI in this process.
var npmDone struct {
	sync.Mutex
	dirs map[string]*npmOnce
}

type npmOnce struct {
	once sync.Once
	err  error
}

// NpmCI makes sure that node and npm are on PATH, that node is at least the version the npm project
// in dir asks for (its package.json's engines.node, ">=X.Y.Z"), and that dir/node_modules is what its
// package.json and package-lock.json pin: it runs `npm ci` (from the npm cache when it can) unless
// node_modules carries the digest of those two files from an earlier install. Once per directory
// and process; concurrent test processes take turns on a lock file (dir/node_modules.lock, which the
// project's .gitignore should list). A missing or too old tool fails the test with what to install;
// it never skips. args are added to `npm ci` (e.g. --ignore-scripts, for a package whose prepare
// script the test runs itself).
func NpmCI(t testing.TB, dir string, args ...string) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	npmDone.Lock()
	if npmDone.dirs == nil {
		npmDone.dirs = map[string]*npmOnce{}
	}
	o := npmDone.dirs[abs]
	if o == nil {
		o = &npmOnce{}
		npmDone.dirs[abs] = o
	}
	npmDone.Unlock()
	o.once.Do(func() { o.err = npmCI(t, abs, args) })
	if o.err != nil {
		t.Fatal(o.err)
	}
}

func npmCI(t testing.TB, dir string, args []string) error {
	min, err := engineNode(dir)
	if err != nil {
		return err
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is not on PATH: the tests of %s need Node.js %s with npm (e.g. Debian's nodejs and npm "+
				"packages, or nodejs.org) to install its pinned npm packages", tool, dir, min)
		}
	}
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return fmt.Errorf("node --version: %v", err)
	}
	if v, ok := parseVersion(string(out)); !ok || (min.ok && !atLeast(v, min.v)) {
		return fmt.Errorf("node %s is too old: the npm packages of %s need Node.js %s", strings.TrimSpace(string(out)), dir, min)
	}

	// One `npm ci` at a time in this directory, also across concurrent `go test` runs.
	unlock, err := LockFile(filepath.Join(dir, "node_modules.lock"))
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
		t.Logf("%s: node_modules is up to date with package-lock.json", dir)
		return nil
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", append([]string{"ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		return err
	}
	t.Logf("%s: npm ci: %s", dir, time.Since(start).Round(time.Millisecond))
	return nil
}

// minVersion is the least Node.js version a project accepts (ok false: it names none).
type minVersion struct {
	v  [3]int
	ok bool
}

func (m minVersion) String() string {
	if !m.ok {
		return "(any version)"
	}
	return fmt.Sprintf(">= %d.%d.%d", m.v[0], m.v[1], m.v[2])
}

var engineRE = regexp.MustCompile(`>=\s*v?(\d+\.\d+\.\d+)`)

// engineNode reads the least Node.js version of package.json's engines.node (its first ">=X.Y.Z").
func engineNode(dir string) (minVersion, error) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return minVersion{}, fmt.Errorf("the npm project %s is incomplete: %w", dir, err)
	}
	var pkg struct {
		Engines struct {
			Node string `json:"node"`
		} `json:"engines"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return minVersion{}, fmt.Errorf("%s/package.json: %w", dir, err)
	}
	m := engineRE.FindStringSubmatch(pkg.Engines.Node)
	if m == nil {
		return minVersion{}, nil
	}
	v, _ := parseVersion(m[1])
	return minVersion{v: v, ok: true}, nil
}

// lockDigest identifies what node_modules must hold: package.json and package-lock.json.
func lockDigest(dir string) (string, error) {
	h := sha256.New()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", fmt.Errorf("the npm project %s is incomplete: %w", dir, err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// LockFile takes an exclusive lock on path (created when missing), waiting for it, and returns the
// function that releases it: test processes that change the same npm project take turns.
func LockFile(path string) (func(), error) {
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
