// Package openapits checks the served /openapi.json from the outside, with tools that know nothing
// of how it was made: a TypeScript client generated from it by openapi-typescript must type-check
// with `tsc --strict` and run a client flow (openapi-fetch) against a live catalogd, and
// `@redocly/cli lint` must find no error in it. The npm project is this folder (exact versions in
// its package.json and package-lock.json); `npm ci` runs (apptest.NpmCI) when its node_modules is
// missing or was installed from another lockfile. Node.js and npm are required: a missing tool is a failure,
// never a skip.
package openapits

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) { apptest.Main(m, &env, nil) }

// projectDir is the npm project: package.json, package-lock.json, tsconfig.json, redocly.yaml, src/.
func projectDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
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

// setup makes sure node and npm are there and node_modules matches the lockfile (apptest.NpmCI:
// once per run; the Node.js version is package.json's engines.node, which the pinned @redocly/cli and
// openapi-fetch need: ">=20.19.0 <21 || >=22.12.0").
func setup(t *testing.T) string {
	t.Helper()
	dir := projectDir(t)
	apptest.NpmCI(t, dir)
	return dir
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
// run runs a command in dir (apptest.RunCommand) with extra environment and a time limit; a command
// that cannot start or is killed by the limit fails the test, a non-zero exit is returned.
func run(t *testing.T, dir string, extraEnv []string, limit time.Duration, name string, args ...string) apptest.Result {
	t.Helper()
	return apptest.RunCommand(t, dir, append(os.Environ(), extraEnv...), limit, name, args...)
}
