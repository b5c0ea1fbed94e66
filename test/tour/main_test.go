// Package tour keeps the README's walk-through alive: scripts/tour.sh runs every example of it in
// order against a fresh catalogd (TestTour), and the README shows the script's walk-through line for
// line (TestReadmeShowsTheTour), so an example that stops working, or a README that drifts from the
// script, fails the suite.
//
// The scheme: the script's lines between "# tour:begin" and "# tour:end" are the walk-through; the
// README holds the same lines in the ```sh blocks between "<!-- tour:begin" and "<!-- tour:end -->"
// (split into as many blocks as the prose wants; blank lines do not count).
package tour

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) {
	// No webhook dispatcher: the walk-through's subscription targets https://erp.example.com, which a
	// test must not call. Deliveries are still made when events happen; only the sending is off.
	apptest.Main(m, &env, nil, func(c *app.Config) { c.DisableDispatcher = true })
}

const (
	scriptPath = "scripts/tour.sh"
	readmePath = "README.md"

	scriptBegin = "# tour:begin"
	scriptEnd   = "# tour:end"
	readmeBegin = "<!-- tour:begin"
	readmeEnd   = "<!-- tour:end -->"
)

// repoRoot is the repository's root directory (this package is test/tour).
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}

// line is a line of a file with its 1-based number.
type line struct {
	no   int
	text string
}

func readLines(t *testing.T, rel string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
}

// markerIndex is the index of the one line of lines that begins with marker (after trimming).
func markerIndex(t *testing.T, file string, lines []string, marker string) int {
	t.Helper()
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), marker) {
			if at >= 0 {
				t.Fatalf("%s: %q twice (lines %d and %d)", file, marker, at+1, i+1)
			}
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("%s: no line begins with %q", file, marker)
	}
	return at
}

// scriptWalk is the walk-through in the script: its non-blank lines between the markers, and the
// lines before the first marker.
func scriptWalk(t *testing.T) (walk []line, before []string) {
	t.Helper()
	lines := readLines(t, scriptPath)
	b, e := markerIndex(t, scriptPath, lines, scriptBegin), markerIndex(t, scriptPath, lines, scriptEnd)
	if e < b {
		t.Fatalf("%s: %q before %q", scriptPath, scriptEnd, scriptBegin)
	}
	for i := b + 1; i < e; i++ {
		if text := strings.TrimRight(lines[i], " \t"); text != "" {
			walk = append(walk, line{i + 1, text})
		}
	}
	return walk, lines[:b]
}

// readmeWalk is the walk-through in the README: the non-blank lines of the fenced blocks between the
// markers (each a ```sh block), and the lines before the first marker.
func readmeWalk(t *testing.T) (walk []line, before []string) {
	t.Helper()
	lines := readLines(t, readmePath)
	b, e := markerIndex(t, readmePath, lines, readmeBegin), markerIndex(t, readmePath, lines, readmeEnd)
	if e < b {
		t.Fatalf("%s: %q before %q", readmePath, readmeEnd, readmeBegin)
	}
	inBlock := false
	for i := b + 1; i < e; i++ {
		text := strings.TrimRight(lines[i], " \t")
		if strings.HasPrefix(text, "```") {
			if !inBlock && text != "```sh" {
				t.Errorf("%s:%d: a block of the walk-through opens with %q, want ```sh", readmePath, i+1, text)
			}
			inBlock = !inBlock
			continue
		}
		if inBlock && text != "" {
			walk = append(walk, line{i + 1, text})
		}
	}
	if inBlock {
		t.Errorf("%s: a block of the walk-through is still open at %q (line %d)", readmePath, readmeEnd, e+1)
	}
	return walk, lines[:b]
}

// signedPath stands for the path of a signed blob URL (catalogd's /blobs/…) in commands and steps.
const signedPath = "/blobs/{signed}"

// command is one curl command of the walk-through: the method and the path, each variable of the
// path written {}.
type command struct {
	no     int // line of the script where it starts
	method string
	path   string
	text   string // the whole command, its continued lines joined
	// optional: the command runs only when the one before fails (the line before ends with ||, as
	// in "look it up || create it").
	optional bool
}

var (
	curlRE   = regexp.MustCompile(`(^|[\s(])curl\s`)
	methodRE = regexp.MustCompile(`\s-X\s+([A-Z]+)`)
	headRE   = regexp.MustCompile(`\s-I\s`) // curl -I: a HEAD request
	basePath = regexp.MustCompile(`\$BASE(/[^\s"'?]*)`)
	shellVar = regexp.MustCompile(`\$\{?[A-Za-z_][A-Za-z0-9_]*\}?`)
)

// commands reads the curl commands of the walk-through, joining lines continued with a backslash.
func commands(t *testing.T, walk []line) []command {
	t.Helper()
	var out []command
	cur, start, afterOr := "", 0, false
	for _, l := range walk {
		if cur == "" {
			if strings.HasPrefix(strings.TrimSpace(l.text), "#") {
				continue
			}
			start = l.no
		}
		if strings.HasSuffix(l.text, `\`) {
			cur += strings.TrimSuffix(l.text, `\`)
			continue
		}
		cur += l.text
		if curlRE.MatchString(cur) {
			c := command{no: start, method: "GET", text: cur, optional: afterOr}
			if strings.Contains(cur, `"$UPLOAD_URL"`) {
				// The transfer of an upload: to the URL initiate signed, not under $BASE/v1.
				c.path = signedPath
			} else if m := basePath.FindStringSubmatch(cur); m != nil {
				c.path = shellVar.ReplaceAllString(m[1], "{}")
			} else {
				t.Fatalf("%s:%d: a curl command without $BASE/…: %s", scriptPath, start, cur)
			}
			if mm := methodRE.FindStringSubmatch(cur); mm != nil {
				c.method = mm[1]
			} else if headRE.MatchString(cur) {
				c.method = "HEAD"
			}
			out = append(out, c)
		}
		afterOr = strings.HasSuffix(strings.TrimSpace(cur), "||")
		cur = ""
	}
	return out
}
