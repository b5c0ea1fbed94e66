package sdkts

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// readmeDoc is what the tests take from sdk/typescript/README.md: its text, its TypeScript examples
// (```ts example=<file>, with only=mock when it shows the demo catalog of `catalogd mock`), what each
// Node example prints (```text output=<file>), the recipe of a mock token (```sh mock-token) and how
// to make a project that runs the examples (```sh project, ```json tsconfig.json, ```sh run).
type readmeDoc struct {
	text      string
	examples  map[string]string // file name -> source
	outputs   map[string]string // file name -> expected stdout
	mockOnly  map[string]bool   // file names of the examples that run against the mock only
	mockToken string            // the shell script that exports CATALOGD_TOKEN for the mock
	project   string            // the shell commands that make a project for the examples
	tsconfig  string            // that project's tsconfig.json
	run       string            // the shell commands that run an example there and type-check the project
}

var (
	fenceRE   = regexp.MustCompile("^```([A-Za-z0-9_+-]*)(?:\\s+(.*))?$")
	exampleRE = regexp.MustCompile(`^example=([a-z0-9-]+\.ts)(\s+only=mock)?$`)
	outputRE  = regexp.MustCompile(`^output=([a-z0-9-]+\.ts)$`)
)

// browserExample is the README's browser example: a module the test page (src/page.ts) imports and
// calls in Chromium. Every other example is a Node program and must have an output block.
const browserExample = "browser.ts"

// parseReadme reads the fenced blocks. Every TypeScript block must name its file, so that none escapes
// the compiler; every named file appears once.
func parseReadme(path string) (*readmeDoc, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc := &readmeDoc{text: string(b), examples: map[string]string{}, outputs: map[string]string{}, mockOnly: map[string]bool{}}
	var (
		open    bool
		lang    string
		info    string
		start   int
		body    []string
		lineNum int
	)
	sc := bufio.NewScanner(strings.NewReader(doc.text))
	for sc.Scan() {
		lineNum++
		line := sc.Text()
		m := fenceRE.FindStringSubmatch(line)
		if !open {
			if m != nil {
				open, lang, info, start, body = true, m[1], strings.TrimSpace(m[2]), lineNum, nil
			}
			continue
		}
		if line != "```" {
			body = append(body, line)
			continue
		}
		open = false
		text := strings.Join(body, "\n") + "\n"
		switch {
		case lang == "ts" || lang == "typescript" || lang == "tsx" || lang == "js" || lang == "javascript":
			e := exampleRE.FindStringSubmatch(info)
			if e == nil || lang != "ts" {
				return nil, fmt.Errorf("README.md:%d: a %s block without \"ts example=<file>.ts\" (and optionally \" only=mock\"): "+
					"every code block is compiled and run by the tests, so it must name its file", start, lang)
			}
			if _, dup := doc.examples[e[1]]; dup {
				return nil, fmt.Errorf("README.md:%d: a second example named %s", start, e[1])
			}
			doc.examples[e[1]] = text
			doc.mockOnly[e[1]] = e[2] != ""
		case lang == "sh" && info == "mock-token":
			if doc.mockToken != "" {
				return nil, fmt.Errorf("README.md:%d: a second sh mock-token block", start)
			}
			doc.mockToken = text
		case lang == "sh" && (info == "project" || info == "run"), lang == "json" && info == "tsconfig.json":
			field := map[string]*string{"project": &doc.project, "run": &doc.run, "tsconfig.json": &doc.tsconfig}[info]
			if *field != "" {
				return nil, fmt.Errorf("README.md:%d: a second %s %s block", start, lang, info)
			}
			*field = text
		case outputRE.MatchString(info):
			name := outputRE.FindStringSubmatch(info)[1]
			if _, dup := doc.outputs[name]; dup {
				return nil, fmt.Errorf("README.md:%d: a second output of %s", start, name)
			}
			doc.outputs[name] = text
		}
	}
	if open {
		return nil, fmt.Errorf("README.md:%d: the code block is never closed", start)
	}
	if len(doc.examples) == 0 {
		return nil, fmt.Errorf("README.md has no ```ts example=<file> block")
	}
	if _, ok := doc.examples[browserExample]; !ok || doc.mockOnly[browserExample] {
		return nil, fmt.Errorf("README.md has no %s example for any server (the browser test page imports it)", browserExample)
	}
	if doc.mockToken == "" {
		return nil, fmt.Errorf("README.md has no ```sh mock-token block (how to make a token for catalogd mock)")
	}
	if doc.project == "" || doc.tsconfig == "" || doc.run == "" {
		return nil, fmt.Errorf("README.md lacks a ```sh project, ```json tsconfig.json or ```sh run block (how to run its examples)")
	}
	for name := range doc.outputs {
		if _, ok := doc.examples[name]; !ok {
			return nil, fmt.Errorf("README.md has the output of %s but no example of that name", name)
		}
	}
	for name := range doc.examples {
		if _, ok := doc.outputs[name]; !ok && name != browserExample {
			return nil, fmt.Errorf("README.md's example %s has no ```text output=%s block: a Node example must say what it prints", name, name)
		}
	}
	return doc, nil
}

// writeExamples writes the examples into dir (replacing what was there).
func (d *readmeDoc) writeExamples(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, src := range d.examples {
		head := "// Written by go test ./test/sdk_typescript from sdk/typescript/README.md; edit the README.\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(head+src), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// nodeExamples are the README's Node programs, sorted.
func (d *readmeDoc) nodeExamples() []string {
	var names []string
	for name := range d.outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Each Node example of the README, compiled by setup with tsc --strict, runs as a fresh tenant against
// a real catalogd and against `catalogd mock` (where the tenant holds the demo catalog), and prints
// exactly what the README says it prints on both; an example marked only=mock runs on the mock only.
func TestReadmeExamples(t *testing.T) {
	t.Parallel()
	dir := setup(t)
	names := readme.nodeExamples()
	var everywhere []string
	for _, name := range names {
		if !readme.mockOnly[name] {
			everywhere = append(everywhere, name)
		}
	}
	if len(everywhere) < 3 {
		t.Fatalf("README.md has %d Node examples for any server (%v); it shows gRPC, Connect and error handling", len(everywhere), everywhere)
	}
	for _, s := range servers() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			for _, name := range names {
				if readme.mockOnly[name] && !s.mock {
					continue
				}
				t.Run(strings.TrimSuffix(name, ".ts"), func(t *testing.T) {
					t.Parallel()
					js := filepath.Join("dist", "readme", strings.TrimSuffix(name, ".ts")+".js")
					r, err := command(dir, nodeEnv(s.env), 2*time.Minute, "node", js)
					if err != nil {
						t.Fatalf("node %s (README.md's %s) against %s: %v\nstdout:\n%s\nstderr:\n%s", js, name, s.name, err, r.Stdout, r.Stderr)
					}
					if r.Stdout != readme.outputs[name] {
						t.Errorf("README.md's %s prints, against %s,\n%s\nbut its output block says\n%s", name, s.name, r.Stdout, readme.outputs[name])
					}
					if e := strings.TrimSpace(r.Stderr); e != "" {
						t.Errorf("README.md's %s wrote to stderr against %s:\n%s", name, s.name, e)
					}
				})
			}
		})
	}
}

// The README's recipe of a mock token (```sh mock-token), run by bash, exports a CATALOGD_TOKEN that
// the mock takes (its tenant holds the demo catalog) and a real catalogd refuses (it is unsigned).
func TestReadmeMockToken(t *testing.T) {
	t.Parallel()
	doc, err := parseReadme(filepath.Join(sdkDir(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "-euo", "pipefail", "-c", doc.mockToken+`printf '%s' "$CATALOGD_TOKEN"`).CombinedOutput()
	if err != nil {
		t.Fatalf("README.md's mock-token recipe: %v\n%s", err, out)
	}
	tok := string(out)
	if strings.Count(tok, ".") != 2 || strings.ContainsAny(tok, " \n") {
		t.Fatalf("README.md's mock-token recipe exports CATALOGD_TOKEN=%q, not a JWT", tok)
	}
	c := mockEnv.ClientFor(t, "unused")
	c.Token = tok
	locales := apptest.Want(t, c.Get("/v1/locales?codes[eq]=de-DE"), 200).Items()
	if len(locales) != 1 {
		t.Errorf("the mock's tenant of the README's token has no demo locale de-DE: %v", locales)
	}
	onReal := env.ClientFor(t, "unused")
	onReal.Token = tok
	apptest.WantProblem(t, onReal.Get("/v1/locales"), 401, "UNAUTHENTICATED")
}
