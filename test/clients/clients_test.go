//go:build clients

package clients

import (
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

// The steps testdata/flow/main.go reports, in order, once each.
var flowSteps = []string{
	"oapi-codegen create", "oapi-codegen list", "oapi-codegen get", "oapi-codegen transition", "oapi-codegen delete", "oapi-codegen gone",
	"ogen create", "ogen list", "ogen get", "ogen transition", "ogen delete", "ogen gone",
}

// Both generators accept the served document, their clients compile, and each runs the flow: the
// flow program checks every answer (ogen's client also decodes each answer strictly against its
// schema: a required property missing, or null where the schema says otherwise, is an error).
func TestGeneratedGoClients(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.CopyFS(work, os.DirFS(filepath.Join("testdata", "flow"))); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(work, "openapi.json")
	fetchDocument(t, doc)

	goEnv := append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=-buildvcs=false")
	tool := func(limit time.Duration, args ...string) {
		t.Helper()
		r := apptest.RunCommand(t, repo, goEnv, limit, "go", append([]string{"tool", "-modfile=tools/go.mod"}, args...)...)
		if r.Code != 0 {
			t.Fatalf("go tool %s failed (exit %d), took %s:\n%s%s", args[0], r.Code, r.Took, r.Stdout, tail(r.Stderr))
		}
		t.Logf("%s: %s", args[0], r.Took.Round(time.Millisecond))
	}
	// oapi-codegen writes one file to stdout (-o).
	if err := os.MkdirAll(filepath.Join(work, "oc"), 0o755); err != nil {
		t.Fatal(err)
	}
	tool(5*time.Minute, "oapi-codegen", "-generate", "types,client", "-package", "oc", "-o", filepath.Join(work, "oc", "client.go"), doc)
	// ogen: the client alone (ogen.yml), without the server, OpenTelemetry and the rest.
	tool(5*time.Minute, "ogen", "-config", filepath.Join(work, "ogen.yml"), "-target", filepath.Join(work, "og"), "-package", "og", "-clean", doc)

	bin := filepath.Join(work, "flow")
	build := apptest.RunCommand(t, work, goEnv, 40*time.Minute, "go", "build", "-o", bin, ".")
	if build.Code != 0 {
		t.Fatalf("the generated clients do not compile (exit %d):\n%s%s", build.Code, build.Stdout, tail(build.Stderr))
	}
	t.Logf("go build: %s", build.Took.Round(time.Second))

	token := apptest.Token("clients-" + apptest.RandomHex(6))
	flow := apptest.RunCommand(t, work, append(os.Environ(), "CATALOGD_BASE_URL="+env.BaseURL, "CATALOGD_TOKEN="+token),
		2*time.Minute, bin)
	t.Logf("flow:\n%s", flow.Stdout)
	if flow.Code != 0 {
		t.Fatalf("the flow failed (exit %d):\n%s", flow.Code, flow.Stderr)
	}
	var seen []string
	for _, line := range strings.Split(strings.TrimSpace(flow.Stdout), "\n") {
		if s, ok := strings.CutPrefix(line, "ok "); ok {
			seen = append(seen, s)
		}
	}
	if strings.Join(seen, ",") != strings.Join(flowSteps, ",") {
		t.Errorf("steps reported: %v\nwant: %v", seen, flowSteps)
	}
	if !strings.HasSuffix(strings.TrimSpace(flow.Stdout), "flow complete") {
		t.Error("the flow did not report completion")
	}
}

// fetchDocument saves the served /openapi.json to path.
func fetchDocument(t *testing.T, path string) {
	t.Helper()
	res, err := http.Get(env.BaseURL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /openapi.json: %d %v", res.StatusCode, err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// tail is the end of a long output (a compiler's errors come last).
func tail(s string) string {
	if len(s) > 8000 {
		return "…" + s[len(s)-8000:]
	}
	return s
}
