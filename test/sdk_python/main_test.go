// Package sdkpython tests the Python SDK (sdk/python) against a live catalogd and `catalogd mock`: the
// package installs with pip from the repository without a package index, then flow.py (every step
// checked by the program itself; the real catalogd only) and the examples of sdk/python/README.md (both
// servers, each as a fresh tenant; a block marked only=mock on the mock only) run with Debian's
// /usr/bin/python3.
//
// What it needs, from Debian's packages: python3-grpcio and python3-protobuf (the SDK's runtime;
// scripts/install-sdk-tools.sh installs them when missing), and python3-venv (a virtual environment
// with pip and setuptools) and python3-wheel (setuptools 66 builds wheels with it) for the install. A
// missing one fails the test with the command that installs it; nothing is skipped.
package sdkpython

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

// env is a real catalogd (tokens signed with apptest's secret), mockEnv a `catalogd mock`, whose
// tenants start with the demo catalog.
var env, mockEnv *apptest.Env

// TestMain starts two catalogd: a real one and a mock (the README's examples run against both).
func TestMain(m *testing.M) {
	// The real one allows loopback webhook targets: webhooks_test.go's receiver listens on 127.0.0.1.
	apptest.MainServers(m, apptest.Server{Env: &env, Options: []func(*app.Config){func(c *app.Config) { c.WebhookAllowPrivate = true }}}, apptest.Server{Env: &mockEnv, Options: []func(*app.Config){func(c *app.Config) { c.Mock = true }}})
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

// python is Debian's interpreter: a pyenv or conda python3 earlier on PATH does not see Debian's
// python3-grpcio and python3-protobuf.
const python = "/usr/bin/python3"

// repoRoot is the repository's root directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "sdk", "python", "pyproject.toml")); err != nil {
		t.Fatalf("no Python SDK at %s: %v", root, err)
	}
	return root
}

// requireTools installs what scripts/install-sdk-tools.sh installs when it is missing, then checks
// for what the install needs besides.
func requireTools(t *testing.T, root string) {
	t.Helper()
	res := run(t, root, nil, 10*time.Minute, "bash", filepath.Join(root, "scripts", "install-sdk-tools.sh"))
	if res.Code != 0 {
		t.Fatalf("scripts/install-sdk-tools.sh failed (exit %d): install protoc, grpc_python_plugin and Debian's "+
			"python3-grpcio and python3-protobuf (apt-get install protobuf-compiler protobuf-compiler-grpc python3-grpcio "+
			"python3-protobuf):\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s is missing: install Debian's python3 (apt-get install python3)", python)
	}
	for _, c := range []struct{ module, pkg string }{
		{"grpc", "python3-grpcio"},
		{"google.protobuf", "python3-protobuf"},
		{"ensurepip", "python3-venv"},
		{"wheel", "python3-wheel"},
	} {
		if r := run(t, root, nil, time.Minute, python, "-c", "import "+c.module); r.Code != 0 {
			t.Fatalf("%s cannot import %s: install it with `apt-get install %s`\n%s", python, c.module, c.pkg, r.Stderr)
		}
	}
}

// install puts the SDK into a new virtual environment, the way sdk/python/README.md says, and returns
// its interpreter. The environment sees Debian's packages (--system-site-packages), so pip must find
// the dependencies there: --no-index lets it download nothing. pip builds in the source tree (build/,
// *.egg-info), so it builds a copy: the repository stays clean.
func install(t *testing.T, root string) string {
	t.Helper()
	tmp := t.TempDir()
	src := filepath.Join(tmp, "sdk-python")
	copyTree(t, filepath.Join(root, "sdk", "python"), src)
	venv := filepath.Join(tmp, "venv")
	if r := run(t, tmp, nil, 5*time.Minute, python, "-m", "venv", "--system-site-packages", venv); r.Code != 0 {
		t.Fatalf("python3 -m venv failed (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	py := filepath.Join(venv, "bin", "python")
	start := time.Now()
	r := run(t, tmp, nil, 5*time.Minute, py, "-m", "pip", "install", "--no-build-isolation", "--no-index",
		"--disable-pip-version-check", "--no-input", src)
	if r.Code != 0 {
		t.Fatalf("pip install --no-build-isolation --no-index sdk/python failed (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "Successfully installed catalogd-sdk-1.0.0") {
		t.Fatalf("pip did not install catalogd-sdk 1.0.0:\n%s", r.Stdout)
	}
	t.Logf("pip install: %s", time.Since(start).Round(time.Millisecond))

	// The modules come from the environment (not the source tree), with their type information;
	// grpcio and protobuf are Debian's, accepted by pip as the declared dependencies.
	r = run(t, tmp, nil, time.Minute, py, "-c", `
import importlib.util, os, sys
import catalogd, catalog.v1.attributes_pb2 as a, catalog.v1.attributes_pb2_grpc as g, google.rpc.status_pb2 as s
import google.api.annotations_pb2, grpc, google.protobuf
for m in (catalogd, a, g, s):
    print("module", os.path.relpath(m.__file__, sys.prefix))
for f in ("catalogd/py.typed", "catalog/v1/attributes_pb2.pyi", "google/rpc/error_details_pb2.pyi"):
    print("file", f, os.path.exists(os.path.join(os.path.dirname(os.path.dirname(catalogd.__file__)), f)))
print("runtime", grpc.__file__.startswith("/usr/lib/python3/"), google.protobuf.__file__.startswith("/usr/lib/python3/"))
`)
	if r.Code != 0 {
		t.Fatalf("the installed SDK does not import (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{
		"module lib/python3", "site-packages/catalogd/__init__.py", "site-packages/catalog/v1/attributes_pb2_grpc.py",
		"file catalogd/py.typed True", "file catalog/v1/attributes_pb2.pyi True", "file google/rpc/error_details_pb2.pyi True",
		"runtime True True",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the installed SDK: %q missing from\n%s", want, r.Stdout)
		}
	}
	// The SDK's own requirements, each satisfied by what the environment has. Not `pip check`: it
	// judges every package the environment sees, Debian's too (python3-gi's pygobject declares
	// pycairo, which Debian does not register as installed), which is no concern of the SDK's.
	if r := run(t, tmp, nil, time.Minute, py, "-c", `
from importlib.metadata import PackageNotFoundError, requires, version
from pip._vendor.packaging.requirements import Requirement
reqs = [Requirement(r) for r in requires("catalogd-sdk") or []]
assert reqs, "catalogd-sdk declares no requirements"
for r in reqs:
    try:
        v = version(r.name)
    except PackageNotFoundError:
        raise SystemExit("%s: not installed" % r)
    if not r.specifier.contains(v, prereleases=True):
        raise SystemExit("%s: %s is installed" % (r, v))
    print("requirement", r.name, "ok")
`); r.Code != 0 || !strings.Contains(r.Stdout, "requirement grpcio ok") || !strings.Contains(r.Stdout, "requirement protobuf ok") {
		t.Errorf("the SDK's requirements are not satisfied in the environment (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	return py
}

// copyTree copies the SDK's sources, without what builds and runs leave in them.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		name := d.Name()
		if d.IsDir() && (name == "build" || name == ".venv" || name == "__pycache__" || strings.HasSuffix(name, ".egg-info")) {
			return filepath.SkipDir
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatalf("copy %s: %v", from, err)
	}
}

// pythonEnv is the environment of every Python process: none of the caller's PYTHON* variables (a
// PYTHONPATH or PYTHONHOME of the developer's must not change what is imported) nor pip settings (a
// find-links directory or a configured index must not supply what the install is to find installed),
// no user site directory, no bytecode written (the source tree is imported by the PYTHONPATH run).
func pythonEnv(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PYTHON") && !strings.HasPrefix(kv, "PIP_") {
			out = append(out, kv)
		}
	}
	out = append(out, "PYTHONNOUSERSITE=1", "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1", "PIP_CONFIG_FILE="+os.DevNull)
	return append(out, extra...)
}

// result is a finished command.
// run runs a command in dir (apptest.RunCommand) with extra environment and a time limit; a command
// that cannot start or is killed by the limit fails the test, a non-zero exit is returned.
func run(t *testing.T, dir string, extraEnv []string, limit time.Duration, name string, args ...string) apptest.Result {
	t.Helper()
	return apptest.RunCommand(t, dir, pythonEnv(extraEnv...), limit, name, args...)
}

// readmeDoc is what the tests take from sdk/python/README.md.
type readmeDoc struct {
	// program is the ```python blocks joined, in order: one program for any server; output is the
	// block after the `<!-- sdk_python:output` marker, what it prints.
	program, output string
	blocks          int
	// mockProgram and mockOutput are the same for the ```python only=mock blocks (the demo catalog of
	// `catalogd mock`) and the `<!-- sdk_python:output only=mock` marker.
	mockProgram, mockOutput string
	mockBlocks              int
	// mockToken is the ```sh mock-token block: a script that exports CATALOGD_TOKEN for the mock.
	mockToken string
}

// parseReadme reads the README's blocks. A ```python block with anything else after "python" is an
// error: no example escapes the tests by a typo.
func parseReadme(readme string) (*readmeDoc, error) {
	lines := strings.Split(readme, "\n")
	doc := &readmeDoc{}
	var prog, mockProg []string
	haveOutput, haveMockOutput := false, false
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		switch {
		case line == "```python" || line == "```python only=mock" || line == "```sh mock-token":
			end := fence(lines, i+1)
			if end < 0 {
				return nil, fmt.Errorf("line %d: the %s block is not closed", i+1, strings.TrimPrefix(line, "```"))
			}
			body := lines[i+1 : end]
			switch line {
			case "```python":
				prog = append(append(prog, body...), "")
				doc.blocks++
			case "```python only=mock":
				mockProg = append(append(mockProg, body...), "")
				doc.mockBlocks++
			default:
				if doc.mockToken != "" {
					return nil, fmt.Errorf("line %d: a second sh mock-token block", i+1)
				}
				doc.mockToken = strings.Join(body, "\n") + "\n"
			}
			i = end
		case strings.HasPrefix(line, "```python"):
			return nil, fmt.Errorf("line %d: %q: a python block is ```python (any server) or ```python only=mock", i+1, line)
		case strings.HasPrefix(line, "<!-- sdk_python:output"):
			mock := strings.HasPrefix(line, "<!-- sdk_python:output only=mock")
			if (mock && haveMockOutput) || (!mock && haveOutput) {
				return nil, fmt.Errorf("line %d: a second output marker", i+1)
			}
			if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "```text" {
				return nil, fmt.Errorf("line %d: the output marker is not followed by a ```text block", i+1)
			}
			end := fence(lines, i+2)
			if end < 0 {
				return nil, fmt.Errorf("line %d: the output block is not closed", i+2)
			}
			out := strings.Join(lines[i+2:end], "\n") + "\n"
			if mock {
				doc.mockOutput, haveMockOutput = out, true
			} else {
				doc.output, haveOutput = out, true
			}
			i = end
		}
	}
	if doc.blocks == 0 || !haveOutput {
		return nil, fmt.Errorf("no python blocks (%d) or no output block (%v)", doc.blocks, haveOutput)
	}
	if (doc.mockBlocks > 0) != haveMockOutput {
		return nil, fmt.Errorf("%d python only=mock blocks, and an output block for them: %v", doc.mockBlocks, haveMockOutput)
	}
	if doc.mockToken == "" {
		return nil, fmt.Errorf("no ```sh mock-token block (how to make a token for catalogd mock)")
	}
	doc.program, doc.mockProgram = strings.Join(prog, "\n"), strings.Join(mockProg, "\n")
	return doc, nil
}

// fence is the index of the closing ``` at or after line from, or -1.
func fence(lines []string, from int) int {
	for j := from; j < len(lines); j++ {
		if strings.TrimRight(lines[j], " \t\r") == "```" {
			return j
		}
	}
	return -1
}
