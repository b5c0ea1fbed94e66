// Package cli runs `catalogd import` and `catalogd export`, built as users build them, against a live
// catalogd, each test as a fresh tenant, and reads what they did back over REST. Their output goes to
// pipes, so they print plain progress lines (never a terminal's redrawn bar).
package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

var (
	env *apptest.Env
	bin string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "catalogd-cli-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if bin, err = apptest.BuildCatalogd(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	apptest.Main(m, &env, nil)
}

// catalogd runs the binary with the tenant's token in CATALOG_TOKEN and the server's URL.
func catalogd(t *testing.T, tenant string, args ...string) apptest.Result {
	t.Helper()
	environ := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	if tenant != "" {
		environ = append(environ, "CATALOG_TOKEN="+apptest.Token(tenant))
	}
	r := apptest.RunCommand(t, t.TempDir(), environ, 2*time.Minute, bin, append(args, "--url", env.BaseURL)...)
	t.Logf("catalogd %s: exit %d (%s)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.Code, r.Took.Round(time.Millisecond), r.Stdout, r.Stderr)
	if strings.Contains(r.Stdout+r.Stderr, "\r") || strings.Contains(r.Stdout+r.Stderr, "\x1b[") {
		t.Errorf("not on a terminal, yet the output redraws a line")
	}
	return r
}

// file writes lines into a file of the test's named name and returns its path.
func file(t *testing.T, name string, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// catalog is a small catalog of lines: a locale, a category tree, a brand, a product of them.
var catalog = []string{
	`{"type":"locale","code":"en-US"}`,
	`{"type":"category","code":"shoes"}`,
	`{"type":"category","code":"boots","parent":"shoes","position":2}`,
	`{"type":"brand","code":"acme"}`,
	`{"type":"product","code":"BOOT-1","kind":"simple","brand":"acme","categories":["boots"]}`,
}

func codes(t *testing.T, c *apptest.Client, path string) string {
	t.Helper()
	var out []string
	for _, it := range apptest.Want(t, c.Get(path), 200).Items() {
		out = append(out, apptest.Str(it, "code"))
	}
	return strings.Join(out, ",")
}

var uuidRE = `[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`

// An import whose lines partly fail: the others are applied, the summary counts them, every failed
// line is listed with its field, code and message, and the exit status is 1.
func TestImportWithFailedLines(t *testing.T) {
	t.Parallel()
	tenant := "cli-" + apptest.RandomHex(6)
	path := file(t, "catalog.ndjson", append(catalog,
		`{"type":"product","code":"BOOT-2","kind":"simple","categories":["nowhere"]}`,
		`{"type":"category","code":"socks","position":"first"}`,
		`not json`)...)
	r := catalogd(t, tenant, "import", path, "--wait")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1 (lines failed)", r.Code)
	}
	out := r.Stdout
	for _, re := range []string{
		// plain progress: the upload, then the job's status, the last one completed with every byte read
		`(?m)\Auploading: \d+ B/\d+ B\n`,
		`(?m)^completed: (\d+) B/(\d+) B, 8 lines: 5 created, 0 updated, 0 unchanged, 3 failed$`,
		`(?m)^import ` + uuidRE + ` completed: 8 lines: 5 created, 0 updated, 0 unchanged, 3 failed$`,
		`(?m)^failed lines:\n  LINE +TYPE +CODE +FIELD +ERROR +MESSAGE\n`,
		`(?m)^  6 +product +BOOT-2 +categories\[0\] +UNRESOLVED_REFERENCE +no category with code "nowhere"$`,
		`(?m)^  7 +category +socks +position +MALFORMED_REQUEST +must be an integer, not a string$`,
		`(?m)^  8 +- +- +- +MALFORMED_REQUEST +a line is one JSON object$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("stdout does not match %s", re)
		}
	}
	if !regexp.MustCompile(`\Acatalogd import: import ` + uuidRE + `: 3 of 8 lines failed\n\z`).MatchString(r.Stderr) {
		t.Errorf("stderr: %q", r.Stderr)
	}
	c := env.ClientFor(t, tenant)
	if got := codes(t, c, "/v1/products?code[order]=asc"); got != "BOOT-1" {
		t.Errorf("products after the import: %s, want BOOT-1", got)
	}
	if got := codes(t, c, "/v1/categories?code[order]=asc"); got != "boots,shoes" {
		t.Errorf("categories after the import: %s", got)
	}

	// The same file again: the applied lines are unchanged, the failed ones fail again.
	r = catalogd(t, tenant, "import", path, "--wait")
	if r.Code != 1 || !strings.Contains(r.Stdout, " completed: 8 lines: 0 created, 0 updated, 5 unchanged, 3 failed\n") {
		t.Errorf("the second import: exit %d\n%s", r.Code, r.Stdout)
	}
}

// A dry run checks and counts, writes nothing; a clean file exits 0.
func TestImportDryRun(t *testing.T) {
	t.Parallel()
	tenant := "cli-" + apptest.RandomHex(6)
	r := catalogd(t, tenant, "import", "--dry-run", "--wait", file(t, "catalog.jsonl", catalog...))
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.Code, r.Stderr)
	}
	if !regexp.MustCompile(`(?m)^import ` + uuidRE + ` completed \(dry run: nothing was written\): 5 lines: 5 created, 0 updated, 0 unchanged, 0 failed$`).MatchString(r.Stdout) {
		t.Errorf("the summary of the dry run:\n%s", r.Stdout)
	}
	if strings.Contains(r.Stdout, "failed lines:") {
		t.Errorf("a clean file listed failed lines")
	}
	c := env.ClientFor(t, tenant)
	if got := codes(t, c, "/v1/products") + codes(t, c, "/v1/categories") + codes(t, c, "/v1/locales"); got != "" {
		t.Errorf("the dry run wrote %q", got)
	}
}

// Without --wait the import is uploaded and started, its uuid printed; it then runs to its end.
func TestImportWithoutWait(t *testing.T) {
	t.Parallel()
	tenant := "cli-" + apptest.RandomHex(6)
	r := catalogd(t, tenant, "import", file(t, "catalog.ndjson", catalog...))
	m := regexp.MustCompile(`(?m)^import (` + uuidRE + `) (queued|running|completed): .*catalog\.ndjson, \d+ B \(follow it: GET /v1/imports/`).FindStringSubmatch(r.Stdout)
	if r.Code != 0 || m == nil {
		t.Fatalf("exit %d:\n%s", r.Code, r.Stdout)
	}
	c := env.ClientFor(t, tenant)
	for i := 0; ; i++ {
		imp := apptest.Want(t, c.Get("/v1/imports/"+m[1]), 200).Obj()
		if imp["status"] == "completed" {
			if imp["fileName"] != "catalog.ndjson" {
				t.Errorf("the import's fileName: %v", imp["fileName"])
			}
			break
		}
		if i == 600 {
			t.Fatalf("the import is still %v", imp["status"])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// An export to a file, then that file imported into a fresh tenant (everything created) and into
// the same one (everything unchanged); and an export to standard output, its report on stderr.
func TestExportThenImport(t *testing.T) {
	t.Parallel()
	tenant := "cli-" + apptest.RandomHex(6)
	if r := catalogd(t, tenant, "import", "--wait", file(t, "catalog.ndjson", catalog...)); r.Code != 0 {
		t.Fatalf("import: exit %d", r.Code)
	}
	out := filepath.Join(t.TempDir(), "export.ndjson")
	r := catalogd(t, tenant, "export", "--out", out)
	m := regexp.MustCompile(`(?m)^export ` + uuidRE + ` completed: (\d+) items, .*, sha256 ([0-9a-f]{64}), written to ` + regexp.QuoteMeta(out) + ` \(size and checksum checked\)$`).FindStringSubmatch(r.Stdout)
	if r.Code != 0 || r.Stderr != "" || m == nil {
		t.Fatalf("export --out: exit %d", r.Code)
	}
	if !regexp.MustCompile(`(?m)^completed: \d+ items$`).MatchString(r.Stdout) {
		t.Errorf("no plain progress line of the export's status")
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if fmt.Sprint(len(lines)) != m[1] {
		t.Errorf("%d lines in the file, the export says %s items", len(lines), m[1])
	}
	for _, code := range []string{`"BOOT-1"`, `"boots"`, `"shoes"`, `"acme"`, `"en-US"`} {
		if !strings.Contains(string(data), code) {
			t.Errorf("the export lacks %s:\n%s", code, data)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("the export left %d files beside it (a .part?)", len(entries))
	}

	other := "cli-" + apptest.RandomHex(6)
	r = catalogd(t, other, "import", "--wait", out)
	if r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprintf(" completed: %s lines: %s created, 0 updated, 0 unchanged, 0 failed\n", m[1], m[1])) {
		t.Errorf("the export into a fresh tenant: exit %d", r.Code)
	}
	if got := codes(t, env.ClientFor(t, other), "/v1/products"); got != "BOOT-1" {
		t.Errorf("the fresh tenant's products: %s", got)
	}
	r = catalogd(t, tenant, "import", "--wait", out)
	if r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprintf(" completed: %s lines: 0 created, 0 updated, %s unchanged, 0 failed\n", m[1], m[1])) {
		t.Errorf("the export into its own tenant: exit %d", r.Code)
	}

	// To standard output: the file alone there, the report on stderr.
	r = catalogd(t, tenant, "export", "--types", "product")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) == "" || !strings.Contains(r.Stderr, "written to standard output (size and checksum checked)") {
		t.Fatalf("export to stdout: exit %d", r.Code)
	}
	for _, l := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		if !strings.HasPrefix(l, `{"type":"product"`) && !strings.Contains(l, `"type":"product"`) {
			t.Errorf("--types product exported %s", l)
		}
	}
}

// Errors say what went wrong: a refused token, an unknown line type in -types.
func TestErrors(t *testing.T) {
	t.Parallel()
	r := apptest.RunCommand(t, t.TempDir(), []string{"CATALOG_TOKEN=not-a-token"}, time.Minute, bin,
		"import", "--wait", "--url", env.BaseURL, file(t, "catalog.ndjson", catalog...))
	if r.Code != 1 || !strings.Contains(r.Stderr, "POST /v1/imports: HTTP 401 UNAUTHENTICATED: ") {
		t.Errorf("a refused token: exit %d, stderr %q", r.Code, r.Stderr)
	}
	r = catalogd(t, "cli-"+apptest.RandomHex(6), "export", "--types", "nonsense", "--out", filepath.Join(t.TempDir(), "x"))
	if r.Code != 1 || !strings.Contains(r.Stderr, "POST /v1/exports: HTTP 400 ") {
		t.Errorf("an unknown type: exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// On a terminal (a pseudo-terminal made by util-linux's script) the progress is one line redrawn in
// place, with a bar that ends full.
func TestProgressBarOnATerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("script"); err != nil {
		t.Fatalf("this test needs script (util-linux, apt-get install bsdutils): %v", err)
	}
	path := file(t, "catalog.ndjson", catalog...)
	line := strings.Join([]string{bin, "import", "--wait", "--url", env.BaseURL, path}, " ")
	r := apptest.RunCommand(t, t.TempDir(), []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm",
		"CATALOG_TOKEN=" + apptest.Token("cli-"+apptest.RandomHex(6))}, 2*time.Minute, "script", "-qec", line, "/dev/null")
	t.Logf("on a terminal: exit %d\n%q", r.Code, r.Stdout)
	if r.Code != 0 {
		t.Fatalf("exit %d", r.Code)
	}
	for _, want := range []string{"\r\x1b[Kuploading ", "\r\x1b[Kcompleted   [########################] 100%  ",
		"5 lines: 5 created, 0 updated, 0 unchanged, 0 failed\r\nimport "} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the terminal's output lacks %q", want)
		}
	}
}

// A spreadsheet: products as CSV rows (the format from the extension); a row that fails is named by
// its line and column.
func TestImportCSV(t *testing.T) {
	t.Parallel()
	tenant := "cli-" + apptest.RandomHex(6)
	if r := catalogd(t, tenant, "import", "--wait", file(t, "structure.ndjson", catalog...)); r.Code != 0 {
		t.Fatalf("the structure: exit %d", r.Code)
	}
	r := catalogd(t, tenant, "import", "--wait", file(t, "products.csv",
		"code,kind,brand,categories",
		"BOOT-3,simple,acme,boots|shoes",
		`BOOT-4,simple,acme,"boots|nowhere"`))
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1 (a row failed)", r.Code)
	}
	for _, re := range []string{
		`(?m)^import ` + uuidRE + ` completed: 3 lines: 1 created, 0 updated, 0 unchanged, 1 failed$`,
		`(?m)^  3 +product +BOOT-4 +categories\[1\] +UNRESOLVED_REFERENCE +no category with code "nowhere"$`,
	} {
		if !regexp.MustCompile(re).MatchString(r.Stdout) {
			t.Errorf("stdout does not match %s", re)
		}
	}
	if got := codes(t, env.ClientFor(t, tenant), "/v1/products?code[order]=asc"); got != "BOOT-1,BOOT-3" {
		t.Errorf("products after the CSV: %s", got)
	}
}
