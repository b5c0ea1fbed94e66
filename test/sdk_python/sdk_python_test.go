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

// The SDK installs with pip from the repository; flow.py then runs on it against the real catalogd,
// the README's examples against the real catalogd and the mock, and what they did is read back over
// REST.
func TestPythonSDK(t *testing.T) {
	root := repoRoot(t)
	requireTools(t, root)
	py := install(t, root)

	t.Run("flow", func(t *testing.T) {
		t.Parallel()
		testFlow(t, root, py)
	})
	for _, s := range servers() {
		t.Run("readme/"+s.name, func(t *testing.T) {
			t.Parallel()
			testReadme(t, root, py, nil, s)
		})
		// The same examples with the sources on PYTHONPATH instead of installed: the README's other way.
		t.Run("readme-pythonpath/"+s.name, func(t *testing.T) {
			t.Parallel()
			testReadme(t, root, python, []string{"PYTHONPATH=" + filepath.Join(root, "sdk", "python", "src")}, s)
		})
	}
}

// The README's recipe of a mock token (```sh mock-token), run by bash, exports a CATALOGD_TOKEN that
// the mock takes (its tenant holds the demo catalog) and a real catalogd refuses (it is unsigned).
func TestReadmeMockToken(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "sdk", "python", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parseReadme(string(readme))
	if err != nil {
		t.Fatalf("sdk/python/README.md: %v", err)
	}
	r := run(t, t.TempDir(), nil, time.Minute, "bash", "-euo", "pipefail", "-c", doc.mockToken+`printf '%s' "$CATALOGD_TOKEN"`)
	if r.Code != 0 {
		t.Fatalf("sdk/python/README.md's mock-token recipe failed (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	tok := r.Stdout
	if strings.Count(tok, ".") != 2 || strings.ContainsAny(tok, " \n") {
		t.Fatalf("sdk/python/README.md's mock-token recipe exports CATALOGD_TOKEN=%q, not a JWT", tok)
	}
	c := mockEnv.ClientFor(t, "unused")
	c.Token = tok
	if locales := apptest.Want(t, c.Get("/v1/locales?codes[eq]=de-DE"), 200).Items(); len(locales) != 1 {
		t.Errorf("the mock's tenant of the README's token has no demo locale de-DE: %v", locales)
	}
	onReal := env.ClientFor(t, "unused")
	onReal.Token = tok
	apptest.WantProblem(t, onReal.Get("/v1/locales"), 401, "UNAUTHENTICATED")
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

// The README's examples run, in order, as one program against s (the same variables the README tells
// its readers to set), as a fresh tenant, and print exactly what the README says they print; on the
// mock, its only=mock program too.
func testReadme(t *testing.T, root, py string, extraEnv []string, s server) {
	readme, err := os.ReadFile(filepath.Join(root, "sdk", "python", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parseReadme(string(readme))
	if err != nil {
		t.Fatalf("sdk/python/README.md: %v", err)
	}
	tenant := "pyreadme-" + apptest.RandomHex(6)
	runExample(t, py, extraEnv, s, tenant, doc.program, doc.output, fmt.Sprintf("%d python blocks", doc.blocks))

	// They left the tenant as they found it but for an en-US locale, made when it had none (the
	// example deletes the attribute it made): on the real catalogd that locale alone, on the mock the
	// demo catalog's locales and attributes.
	wantLocales, wantAttributes := "en-US", ""
	if s.mock {
		wantLocales, wantAttributes = "de-DE,en-US,fr-FR", "color,gender,material,shoe_size,size"
	}
	c := s.env.ClientFor(t, tenant)
	if got := codesOf(t, c, "/v1/locales?code[order]=asc&size=100"); got != wantLocales {
		t.Errorf("the tenant's locales after the examples: %s, want %s", got, wantLocales)
	}
	if got := codesOf(t, c, "/v1/attributes?code[order]=asc&size=100"); got != wantAttributes {
		t.Errorf("the tenant's attributes after the examples: %q, want %q", got, wantAttributes)
	}

	if s.mock {
		if doc.mockBlocks == 0 {
			t.Fatal("sdk/python/README.md has no python only=mock block: it shows the demo catalog of catalogd mock")
		}
		runExample(t, py, extraEnv, s, "pydemo-"+apptest.RandomHex(6), doc.mockProgram, doc.mockOutput,
			fmt.Sprintf("%d python only=mock blocks", doc.mockBlocks))
	}
}

// runExample runs program against s as tenant and compares what it prints with want.
func runExample(t *testing.T, py string, extraEnv []string, s server, tenant, program, want, what string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "readme_examples.py")
	if err := os.WriteFile(file, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	res := run(t, t.TempDir(), append([]string{
		"CATALOGD_GRPC_TARGET=" + s.env.Server.GRPCAddr(),
		"CATALOGD_TOKEN=" + apptest.Token(tenant),
	}, extraEnv...), 2*time.Minute, py, file)
	t.Logf("%s of sdk/python/README.md against %s (%s):\n%s", what, s.name, res.Took.Round(time.Millisecond), res.Stdout)
	if res.Code != 0 {
		t.Fatalf("the README's %s failed against %s (exit %d):\n%s", what, s.name, res.Code, res.Stderr)
	}
	if strings.TrimSpace(res.Stderr) != "" {
		t.Errorf("the README's %s wrote to stderr:\n%s", what, res.Stderr)
	}
	if res.Stdout != want {
		t.Errorf("the README's %s printed, against %s,\n%s\nbut the README says they print\n%s", what, s.name, res.Stdout, want)
	}
}

// codesOf is the codes of a list's items, comma-separated.
func codesOf(t *testing.T, c *apptest.Client, path string) string {
	t.Helper()
	var codes []string
	for _, it := range apptest.Want(t, c.Get(path), 200).Items() {
		codes = append(codes, fmt.Sprint(it["code"]))
	}
	return strings.Join(codes, ",")
}
