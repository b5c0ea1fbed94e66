package sdkpython

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// The steps flow.py reports, in order, once each.
var flowSteps = []string{
	"create-locale", "create-attribute", "bulk-create", "list-filtered", "transition", "invalid-transition",
	"validation-error", "unauthenticated", "token-source", "delete", "transport-error",
}

// The SDK installs with pip from the repository; flow.py and the README's examples then run on it
// against this catalogd, and what they did is read back over REST.
func TestPythonSDK(t *testing.T) {
	root := repoRoot(t)
	requireTools(t, root)
	py := install(t, root)

	t.Run("flow", func(t *testing.T) {
		t.Parallel()
		testFlow(t, root, py)
	})
	t.Run("readme", func(t *testing.T) {
		t.Parallel()
		testReadme(t, root, py, nil)
	})
	// The same examples with the sources on PYTHONPATH instead of installed: the README's other way.
	t.Run("readme-pythonpath", func(t *testing.T) {
		t.Parallel()
		testReadme(t, root, python, []string{"PYTHONPATH=" + filepath.Join(root, "sdk", "python", "src")})
	})
}

var (
	transitionRE = regexp.MustCompile(`(?m)^ok transition: ([0-9a-f-]{36}) ATTRIBUTE_STATUS_PUBLISHED$`)
	deleteRE     = regexp.MustCompile(`(?m)^ok delete: ([0-9a-f-]{36}), then get NOT_FOUND$`)
)

// flow.py checks every answer itself and exits non-zero on the first mismatch; here its report is
// checked, and its effects are read back over REST, so that a program which checked nothing (or
// talked to another server) cannot pass.
func testFlow(t *testing.T, root, py string) {
	tenant := "py-" + apptest.RandomHex(6)
	res := run(t, filepath.Join(root, "test", "sdk_python"), []string{
		"CATALOGD_GRPC_TARGET=" + env.Server.GRPCAddr(),
		"CATALOGD_TOKEN=" + apptest.Token(tenant),
		"CATALOGD_READONLY_TOKEN=" + apptest.Token(tenant, "catalog:read"),
	}, 3*time.Minute, py, "flow.py")
	t.Logf("flow.py (%s):\n%s", res.Took.Round(time.Millisecond), res.Stdout)
	if res.Code != 0 {
		t.Fatalf("flow.py failed (exit %d):\n%s", res.Code, res.Stderr)
	}
	if strings.TrimSpace(res.Stderr) != "" {
		t.Errorf("flow.py wrote to stderr:\n%s", res.Stderr)
	}

	var seen []string
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	for _, line := range lines {
		if name, _, ok := strings.Cut(strings.TrimPrefix(line, "ok "), ":"); ok && strings.HasPrefix(line, "ok ") {
			seen = append(seen, name)
		}
	}
	if strings.Join(seen, ",") != strings.Join(flowSteps, ",") {
		t.Errorf("steps reported: %v\nwant: %v", seen, flowSteps)
	}
	if last, want := lines[len(lines)-1], fmt.Sprintf("flow: %d steps passed", len(flowSteps)); last != want {
		t.Errorf("last line %q, want %q", last, want)
	}
	// What the error steps decoded: the reasons, a field violation and the typed meta.
	for _, want := range []string{
		"ok invalid-transition: INVALID_TRANSITION currentStatus=published allowed=['remove', 'unpublish']",
		"ok validation-error: VALIDATION_FAILED: code: ",
		"bulk ['[1].code']; duplicate ALREADY_EXISTS",
		"ok unauthenticated: UNAUTHENTICATED: ",
		"read-only write FORBIDDEN",
		"ok transport-error: UNAVAILABLE reason='' status=503",
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("flow.py's output lacks %q", want)
		}
	}

	// The effects, over REST: the transitioned attribute is published with its content, the deleted
	// one is gone, and the tenant holds exactly what the flow left.
	m := transitionRE.FindStringSubmatch(res.Stdout)
	d := deleteRE.FindStringSubmatch(res.Stdout)
	if m == nil || d == nil {
		t.Fatalf("flow.py did not report the transitioned and the deleted attribute:\n%s", res.Stdout)
	}
	c := env.ClientFor(t, tenant)
	a := apptest.Want(t, c.Get("/v1/attributes/"+m[1]+"?expand[contents]=true"), 200).Obj()
	if a["status"] != "published" || a["code"] != "py_color" || a["displayName"] != "Color" {
		t.Errorf("GET the transitioned attribute: %v", a)
	}
	contents, _ := a["contents"].([]any)
	if len(contents) != 1 || contents[0].(map[string]any)["displayName"] != "Colour" ||
		contents[0].(map[string]any)["description"] != "Main colour of the product" {
		t.Errorf("its contents: %v", a["contents"])
	}
	apptest.WantProblem(t, c.Get("/v1/attributes/"+d[1]), 404, "NOT_FOUND")
	var codes []string
	for _, it := range apptest.Want(t, c.Get("/v1/attributes?code[order]=asc"), 200).Items() {
		codes = append(codes, fmt.Sprintf("%v:%v", it["code"], it["status"]))
	}
	if got := strings.Join(codes, ","); got != "py_color:published,py_material:draft" {
		t.Errorf("the tenant's attributes after the flow: %s", got)
	}
}

// The README's examples run, in order, as one program against this catalogd (the same variables
// the README tells its readers to set), and print exactly what the README says they print.
func testReadme(t *testing.T, root, py string, extraEnv []string) {
	readme, err := os.ReadFile(filepath.Join(root, "sdk", "python", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	program, want, blocks, err := readmeExamples(string(readme))
	if err != nil {
		t.Fatalf("sdk/python/README.md: %v", err)
	}
	file := filepath.Join(t.TempDir(), "readme_examples.py")
	if err := os.WriteFile(file, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	tenant := "pyreadme-" + apptest.RandomHex(6)
	res := run(t, t.TempDir(), append([]string{
		"CATALOGD_GRPC_TARGET=" + env.Server.GRPCAddr(),
		"CATALOGD_TOKEN=" + apptest.Token(tenant),
	}, extraEnv...), 2*time.Minute, py, file)
	t.Logf("%d python blocks of sdk/python/README.md (%s):\n%s", blocks, res.Took.Round(time.Millisecond), res.Stdout)
	if res.Code != 0 {
		t.Fatalf("the README's examples failed (exit %d):\n%s", res.Code, res.Stderr)
	}
	if strings.TrimSpace(res.Stderr) != "" {
		t.Errorf("the README's examples wrote to stderr:\n%s", res.Stderr)
	}
	if res.Stdout != want {
		t.Errorf("the README's examples printed\n%s\nbut the README says they print\n%s", res.Stdout, want)
	}

	// They left a locale and no attribute behind (the example deletes what it made).
	c := env.ClientFor(t, tenant)
	locales := apptest.Want(t, c.Get("/v1/locales"), 200).Items()
	if len(locales) != 1 || locales[0]["code"] != "en-US" {
		t.Errorf("the tenant's locales after the examples: %v", locales)
	}
	if items := apptest.Want(t, c.Get("/v1/attributes"), 200).Items(); len(items) != 0 {
		t.Errorf("the examples left attributes behind: %v", items)
	}
}
