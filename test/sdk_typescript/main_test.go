// Package sdkts checks the TypeScript SDK (sdk/typescript) as its users get it: it builds the package
// (npm ci, then `npm run build`, which is tsc --strict), packs it with `npm pack`, installs the tarball
// into a separate npm project (this folder's package.json, pinned typescript, esbuild and @types/node) and runs
// there
//   - the README's examples: every ```ts example=<file> block is compiled with tsc --strict; each Node
//     example runs against a live catalogd and against `catalogd mock` (app.Config.Mock, whose tenants
//     start with the demo catalog), each as a fresh tenant, and must print exactly the
//     ```text output=<file> block after it (one marked only=mock runs against the mock only); the
//     README's mock token recipe works on the mock (readme_test.go);
//   - the README's "Running the examples": a new project made by its blocks (npm init -y, type=module,
//     the tarball, tsx, typescript and @types/node, its tsconfig.json) runs an example with tsx
//     against the live catalogd and type-checks every Node example with tsc --noEmit (project_test.go);
//   - against the live catalogd, a Node flow over gRPC (the gRPC port) and over Connect (the HTTP
//     port) (node_test.go);
//   - a page bundled by esbuild from the SDK's browser entry, in headless Chromium, from another origin
//     than catalogd's, over Connect and gRPC-Web (browser_test.go).
//
// Node.js, npm and Chromium are required (apptest.NpmCI, apptest.Chromium): a missing tool is a
// failure with what to install, never a skip.
package sdkts

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

var (
	// env is a real catalogd (tokens signed with apptest's secret), mockEnv a `catalogd mock`.
	env, mockEnv *apptest.Env
	// pageListener is where browser_test.go serves its page: opened before catalogd starts, so that
	// catalogd's CORS configuration can name its origin (pageOrigin) and no other.
	pageListener net.Listener
	pageOrigin   string
)

func TestMain(m *testing.M) {
	var err error
	if pageListener, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		fmt.Fprintln(os.Stderr, "listen for the test page:", err)
		os.Exit(1)
	}
	pageOrigin = "http://" + pageListener.Addr().String()
	// A real catalogd (its CORS lets the test page in) and a mock: the README's examples run against both.
	apptest.MainServers(m,
		apptest.Server{Env: &env, Options: []func(*app.Config){func(c *app.Config) {
			c.CORSAllowedOrigins = []string{pageOrigin}
			c.WebhookAllowPrivate = true // webhooks_test.go's receiver listens on 127.0.0.1
		}}},
		apptest.Server{Env: &mockEnv, Options: []func(*app.Config){func(c *app.Config) { c.Mock = true }}})
}

// server is one of the two catalogd the README's examples run against.
type server struct {
	name string // the subtest: "real" or "mock"
	env  *apptest.Env
	mock bool
}

func servers() []server {
	return []server{{"real", env, false}, {"mock", mockEnv, true}}
}

// sdkDir and consumerDir are the SDK's npm project and the one that installs it.
func sdkDir(t testing.TB) string {
	return projectDir(t, "../../sdk/typescript", "src/index.ts", "README.md")
}
func consumerDir(t testing.TB) string {
	return projectDir(t, ".", "src/flow.ts", "src/page.ts")
}

func projectDir(t testing.TB, rel string, files ...string) string {
	t.Helper()
	dir, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append([]string{"package.json", "package-lock.json", "tsconfig.json"}, files...) {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatalf("the npm project %s is incomplete: %v", dir, err)
		}
	}
	return dir
}

var (
	setupOnce sync.Once
	setupErr  error
	readme    *readmeDoc
)

// setup builds, packs and installs the SDK, writes the README's examples into the consumer project and
// compiles and bundles it (once per test process). It returns the consumer project's directory.
func setup(t *testing.T) string {
	t.Helper()
	sdk, consumer := sdkDir(t), consumerDir(t)
	setupOnce.Do(func() { setupErr = build(t, sdk, consumer) })
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return consumer
}

func build(t *testing.T, sdk, consumer string) error {
	// The SDK's own build runs below (npm run build), where its failure has a message of its own.
	apptest.NpmCI(t, sdk, "--ignore-scripts")
	apptest.NpmCI(t, consumer)

	// Stale output must never stand in for a failed step: dist/ of both projects is rebuilt.
	for _, d := range []string{filepath.Join(sdk, "dist"), filepath.Join(consumer, "dist"), filepath.Join(consumer, "src", "readme")} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	r, err := command(sdk, nil, 5*time.Minute, "npm", "run", "build", "--silent")
	if err != nil {
		return fmt.Errorf("the SDK does not build with tsc --strict (npm run build in %s): %v\n%s%s", sdk, err, r.Stdout, r.Stderr)
	}
	t.Logf("SDK: npm run build (tsc --strict): %s", r.Took.Round(time.Millisecond))
	// The tarball is needed only until it is installed.
	packDir, err := os.MkdirTemp("", "catalogd-sdk-pack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(packDir)
	tarball, err := pack(t, sdk, packDir)
	if err != nil {
		return err
	}

	doc, err := parseReadme(filepath.Join(sdk, "README.md"))
	if err != nil {
		return err
	}
	if want := filepath.Base(tarball); !strings.Contains(doc.text, want) {
		return fmt.Errorf("README.md does not name the tarball npm pack writes, %s", want)
	}
	readme = doc

	// The consumer project's node_modules and src/readme change below: one test process at a time.
	unlock, err := apptest.LockFile(filepath.Join(consumer, "node_modules.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	r, err = command(consumer, nil, 5*time.Minute, "npm", "install", "--no-save", "--prefer-offline", "--no-audit", "--no-fund",
		"--loglevel=error", tarball)
	if err != nil {
		return fmt.Errorf("npm install %s in %s: %v\n%s%s", tarball, consumer, err, r.Stdout, r.Stderr)
	}
	t.Logf("consumer: npm install <tarball>: %s", r.Took.Round(time.Millisecond))
	if err := installedScripts(filepath.Join(consumer, "node_modules", "@catalogd", "sdk", "package.json")); err != nil {
		return err
	}
	if err := doc.writeExamples(filepath.Join(consumer, "src", "readme")); err != nil {
		return err
	}
	if err := writeWebhookSources(sdk, filepath.Join(consumer, "src", "webhooks")); err != nil {
		return err
	}
	if err := writeSources(filepath.Join(consumer, "src", "transfers"), filepath.Join("transfers", "transfers.test.ts")); err != nil {
		return err
	}
	r, err = command(consumer, nil, 5*time.Minute, filepath.Join(consumer, "node_modules", ".bin", "tsc"), "-p", "tsconfig.json", "--pretty", "false")
	if err != nil {
		return fmt.Errorf("tsc --strict rejects the code that uses the SDK (src/*.ts, and src/readme/*.ts from README.md's "+
			"examples): %v\n%s%s", err, r.Stdout, r.Stderr)
	}
	t.Logf("consumer: tsc --strict: %s", r.Took.Round(time.Millisecond))
	// The page script for the browser. --platform=browser: a Node module anywhere in what the SDK's web
	// entry imports is a bundling error.
	r, err = command(consumer, nil, 2*time.Minute, filepath.Join(consumer, "node_modules", ".bin", "esbuild"),
		filepath.Join("dist", "page.js"), "--bundle", "--platform=browser", "--format=esm", "--target=es2022",
		"--outfile="+filepath.Join("dist", "page.bundle.js"), "--log-level=warning")
	if err != nil {
		return fmt.Errorf("esbuild cannot bundle the page that imports @catalogd/sdk/web for a browser: %v\n%s%s", err, r.Stdout, r.Stderr)
	}
	t.Logf("consumer: esbuild page bundle: %s", r.Took.Round(time.Millisecond))
	return nil
}

// pack runs `npm pack` in the SDK (its prepack script is the build that just ran) and returns the
// tarball's path.
func pack(t *testing.T, sdk, packDir string) (string, error) {
	r, err := command(sdk, nil, 2*time.Minute, "npm", "pack", "--ignore-scripts", "--json", "--loglevel=error", "--pack-destination", packDir)
	if err != nil {
		return "", fmt.Errorf("npm pack in %s: %v\n%s%s", sdk, err, r.Stdout, r.Stderr)
	}
	var packed []struct {
		Filename string `json:"filename"`
		Files    []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &packed); err != nil || len(packed) != 1 {
		return "", fmt.Errorf("npm pack --json printed no package (%v):\n%s", err, r.Stdout)
	}
	// What the package's exports point at must be in it, and nothing of the build's inputs besides src.
	have := map[string]bool{}
	for _, f := range packed[0].Files {
		have[f.Path] = true
	}
	for _, want := range []string{"package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/node.js", "dist/node.d.ts",
		"dist/web.js", "dist/web.d.ts", "dist/webhooks.js", "dist/webhooks.d.ts", "dist/gen/index.js", "dist/gen/google/rpc/error_details_pb.js"} {
		if !have[want] {
			return "", fmt.Errorf("the packed SDK has no %s", want)
		}
	}
	for p := range have {
		if strings.HasPrefix(p, "node_modules/") || strings.HasPrefix(p, "scripts/") || strings.HasSuffix(p, ".tgz") {
			return "", fmt.Errorf("the packed SDK contains %s", p)
		}
	}
	path := filepath.Join(packDir, packed[0].Filename)
	t.Logf("SDK: npm pack: %s, %d files", packed[0].Filename, len(packed[0].Files))
	return path, nil
}

// installedScripts checks the installed SDK's manifest for scripts npm runs (or, from npm 11 on, asks
// to approve) when a project installs the tarball: the package is built before it is packed, and an
// installed SDK has neither its sources' tsconfig nor the compiler to build with.
func installedScripts(manifest string) error {
	b, err := os.ReadFile(manifest)
	if err != nil {
		return err
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return fmt.Errorf("%s: %v", manifest, err)
	}
	for _, name := range []string{"preinstall", "install", "postinstall", "prepare"} {
		if s, ok := pkg.Scripts[name]; ok {
			return fmt.Errorf("the packed SDK has an install script, %q: %q (build in prepack instead)", name, s)
		}
	}
	return nil
}

// command runs an npm, tsc, esbuild or node command (apptest.Command) with the machine's environment
// plus extraEnv.
func command(dir string, extraEnv []string, limit time.Duration, name string, args ...string) (apptest.Result, error) {
	return apptest.Command(dir, append(os.Environ(), append([]string{"npm_config_update_notifier=false"}, extraEnv...)...), limit, name, args...)
}

// nodeEnv is the environment of a Node program against e: both ports, and tokens of a fresh tenant
// (every scope, and read-only; the mock takes apptest's tokens as it takes any well-formed one).
func nodeEnv(e *apptest.Env) []string {
	tenant := "sdkts-" + apptest.RandomHex(6)
	return []string{
		"CATALOGD_GRPC_URL=http://" + e.Server.GRPCAddr(),
		"CATALOGD_URL=" + e.BaseURL,
		"CATALOGD_TOKEN=" + apptest.Token(tenant),
		"CATALOGD_READONLY_TOKEN=" + apptest.Token(tenant, "catalog:read"),
	}
}
