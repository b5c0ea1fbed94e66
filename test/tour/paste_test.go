package tour

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// The README's "Using it" section: from its heading to the next one.
const (
	sectionStart = "## Using it"
	passes       = 2
)

// section is the README's "Using it" section: its set-up block (TOKEN=, BASE=, GRPC=) and the lines
// of every other sh block after it, in order.
func section(t *testing.T) (setup []line, blocks []line) {
	t.Helper()
	lines := readLines(t, readmePath)
	start := -1
	for i, l := range lines {
		if l == sectionStart {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s: no %q heading", readmePath, sectionStart)
	}
	nblocks := 0
	for i := start + 1; i < len(lines) && !strings.HasPrefix(lines[i], "## "); i++ {
		if lines[i] != "```sh" {
			continue
		}
		nblocks++
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			l := line{no: i + 1, text: lines[i]}
			if nblocks == 1 {
				setup = append(setup, l)
			} else {
				blocks = append(blocks, l)
			}
		}
	}
	if nblocks < 5 {
		t.Fatalf("%s: only %d sh blocks under %q", readmePath, nblocks, sectionStart)
	}
	return setup, blocks
}

// promised is the status a curl command of the README promises: its trailing comment's (`# 412`),
// else 201 for a POST and 200 for any other.
func promised(c command) int {
	if m := trailingStatus.FindStringSubmatch(c.text); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if c.method == "POST" {
		return 201
	}
	return 200
}

var trailingStatus = regexp.MustCompile(`\s#\s*([1-5][0-9]{2})\b[^'"]*$`)

// call is one curl request the pasted README made: its status, method and path (uuids written {},
// a signed blob URL signedPath) and its answer as curl printed it.
type call struct {
	status int
	method string
	path   string
	url    string
	answer string
}

// TestReadmePasted pastes the README's "Using it" section as a reader does: every sh block after
// the set-up, in order, into one bash at the root of the repository, and then all of them again in
// the same shell and tenant. Every curl command answers the status it promises, in both passes (a
// command after `||` runs only when the look-up before it found nothing: the locale, created by the
// first pass and found by the second); bash writes nothing to its standard error (no "no uuid in",
// no unset variable: the script runs with set -u); and the answers say what the prose says.
func TestReadmePasted(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	for _, tool := range []string{"bash", "curl", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README's examples need %s: %v", tool, err)
		}
	}
	setup, blocks := section(t)
	var setupText []string
	for _, l := range setup {
		setupText = append(setupText, l.text)
	}
	// The set-up the test replaces with this package's service: the lines a reader pastes first.
	if want := []string{
		"TOKEN=$(./bin/catalogd token)        # make run built it; or copy the token from the start-up log",
		"BASE=localhost:8080",
		"GRPC=localhost:9090",
	}; strings.Join(setupText, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: the set-up block of %q is\n%s\nwant\n%s", readmePath, sectionStart, strings.Join(setupText, "\n"), strings.Join(want, "\n"))
	}
	cmds := commands(t, blocks)
	if len(cmds) < 40 {
		t.Fatalf("only %d curl commands in %q", len(cmds), sectionStart)
	}

	// catalogd's own commands (import, export) as `make run` builds them into ./bin.
	bin, err := apptest.BuildCatalogd(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tenant := "paste-" + apptest.RandomHex(4)
	answers := t.TempDir()
	var script strings.Builder
	script.WriteString("set -u\n")
	// curl as the reader's, plus a line on the standard error per request: status, method, the file
	// holding a copy of the answer, URL.
	script.WriteString(`curl() {
  local f; f=$(mktemp "$ANSWERS/XXXXXXXX")
  command curl -w "%{stderr}call %{http_code} %{method} $f %{url_effective}\n" "$@" | tee "$f"
}
`)
	script.WriteString("./bin/catalogd() { \"$CATALOGD\" \"$@\"; }\n")
	for pass := 1; pass <= passes; pass++ {
		fmt.Fprintf(&script, "echo 'pass %d' >&2; echo; echo 'pass %d'\n", pass, pass)
		for _, l := range blocks {
			script.WriteString(l.text + "\n")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = root // "in another terminal at the root of the repository"
	cmd.Env = append(os.Environ(), "BASE="+env.BaseURL, "TOKEN="+apptest.Token(tenant), "GRPC="+env.Server.GRPCAddr(), "ANSWERS="+answers, "CATALOGD="+bin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	t.Logf("the README pasted twice (%s):\n%s", time.Since(start).Round(time.Millisecond), stdout.String())
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, stderr.String())
	}

	// The calls of each pass.
	var byPass [][]call
	for _, l := range strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n") {
		if p, ok := strings.CutPrefix(l, "pass "); ok {
			if n, _ := strconv.Atoi(p); n != len(byPass)+1 {
				t.Fatalf("pass %q out of order", p)
			}
			byPass = append(byPass, nil)
			continue
		}
		f := strings.Fields(l)
		if len(f) != 5 || f[0] != "call" || len(byPass) == 0 {
			t.Errorf("the pasted README wrote to its standard error: %s", l)
			continue
		}
		c := call{method: f[2], url: f[4]}
		c.status, _ = strconv.Atoi(f[1])
		answer, err := os.ReadFile(f[3])
		if err != nil {
			t.Fatal(err)
		}
		c.answer = string(answer)
		_, rest, ok := strings.Cut(c.url, env.BaseURL)
		if !ok {
			t.Fatalf("a request to %s, not to BASE", c.url)
		}
		if rest, _, _ = strings.Cut(rest, "?"); strings.HasPrefix(rest, "/blobs/") {
			c.path = signedPath
		} else {
			c.path = uuidRE.ReplaceAllString(rest, "{}")
		}
		byPass[len(byPass)-1] = append(byPass[len(byPass)-1], c)
	}
	if len(byPass) != passes {
		t.Fatalf("%d passes ran, want %d", len(byPass), passes)
	}
	outs := strings.Split(stdout.String(), "\npass ")
	for p, calls := range byPass {
		answered := align(t, p+1, cmds, calls)
		check(t, p+1, cmds, answered, outs[min(p+1, len(outs)-1)])
	}

	// The tenant after two passes: one locale (the second pass found it), everything else twice.
	c := env.ClientFor(t, tenant)
	if locales := apptest.Want(t, c.Get("/v1/locales"), 200).Items(); len(locales) != 1 || locales[0]["code"] != "en-US" {
		t.Errorf("locales after two passes: %v, want en-US once", locales)
	}
	products := apptest.Want(t, c.Get("/v1/products?size=100"), 200).Items()
	if len(products) != 3*passes+3 {
		t.Errorf("%d products after two passes, want %d (TSHIRT-, TSHIRT-RED-, RUNNER- each time, JACKET-1 to 3 imported once)", len(products), 3*passes+3)
	}
	jackets := apptest.Want(t, c.Get("/v1/products?codes[eq]=JACKET-1&codes[eq]=JACKET-2&codes[eq]=JACKET-3&code[order]=asc"), 200).Items()
	var got []string
	for _, p := range jackets {
		got = append(got, fmt.Sprintf("%v:%v", p["code"], p["status"]))
	}
	if strings.Join(got, ",") != "JACKET-1:active,JACKET-2:active,JACKET-3:active" {
		t.Errorf("the imported products: %v", got)
	}
}

// align matches the calls of a pass with the commands in order: each call is the next command of
// its method and path; only an optional command (after ||) may be skipped. It returns the call of
// each command that ran, by the command's index.
func align(t *testing.T, pass int, cmds []command, calls []call) map[int]call {
	t.Helper()
	out := map[int]call{}
	i := 0
	for _, c := range calls {
		for i < len(cmds) && (cmds[i].method != c.method || cmds[i].path != c.path) {
			if !cmds[i].optional {
				t.Fatalf("pass %d: %s:%d did not run (%s %s); the next request was %s %s", pass, readmePath, cmds[i].no, cmds[i].method, cmds[i].path, c.method, c.url)
			}
			i++
		}
		if i == len(cmds) {
			t.Fatalf("pass %d: a request no command of the README makes, or out of order: %s %s", pass, c.method, c.url)
		}
		if want := promised(cmds[i]); c.status != want {
			t.Errorf("pass %d: %s:%d answered %d, it promises %d:\n%s\n%s", pass, readmePath, cmds[i].no, c.status, want, cmds[i].text, c.answer)
		}
		out[i] = c
		i++
	}
	for ; i < len(cmds); i++ {
		if !cmds[i].optional {
			t.Fatalf("pass %d: %s:%d did not run: %s", pass, readmePath, cmds[i].no, cmds[i].text)
		}
	}
	return out
}

// check reads what a pass's answers say against the README's prose; out is the pass's standard
// output (where the gRPC example prints).
func check(t *testing.T, pass int, cmds []command, answered map[int]call, out string) {
	t.Helper()
	// find is the answer of the one command whose text has all of parts.
	find := func(parts ...string) (int, call) {
		t.Helper()
		at := -1
		for i, c := range cmds {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(c.text, p)
			}
			if all {
				if at >= 0 {
					t.Fatalf("two commands of the README have %q", parts)
				}
				at = i
			}
		}
		if at < 0 {
			t.Fatalf("no command of the README has %q", parts)
		}
		return at, answered[at]
	}
	obj := func(c call) map[string]any {
		t.Helper()
		var m map[string]any
		if err := json.Unmarshal([]byte(c.answer), &m); err != nil {
			t.Fatalf("pass %d: %s %s: not a JSON object: %v\n%s", pass, c.method, c.url, err, c.answer)
		}
		return m
	}

	// The locale: looked up, and created only when the look-up found nothing (the first pass).
	i, _ := find(`-d '{"code":"en-US"}'`)
	if _, ran := answered[i]; ran != (pass == 1) || !cmds[i].optional {
		t.Errorf("pass %d: the locale's create ran: %v (optional %v), want only in the first pass", pass, ran, cmds[i].optional)
	}

	// The webhook's delivery names its event, which the event log lists.
	_, events := find("/v1/events?uuids[eq]=$EVENT")
	if items, _ := obj(events)["items"].([]any); len(items) != 1 || items[0].(map[string]any)["type"] != "attribute.created" {
		t.Errorf("pass %d: the delivery's event: %s, want one attribute.created", pass, events.answer)
	}

	// gRPC: created and listed by the Go SDK.
	if !regexp.MustCompile(`(?m)created grpc-[0-9]+ \(ATTRIBUTE_STATUS_DRAFT\) \S+\nlisted grpc-[0-9]+ \(ATTRIBUTE_STATUS_DRAFT\) \S+$`).MatchString(out) {
		t.Errorf("pass %d: the gRPC example did not print its attribute created and listed:\n%s", pass, out)
	}

	// catalogd import and export: the catalog and the spreadsheet created by the first pass, unchanged
	// in the second; the export imported again (a dry run) changes nothing.
	counts := func(lines, created, unchanged int) string {
		return fmt.Sprintf("%d lines: %d created, 0 updated, %d unchanged, 0 failed", lines, created, unchanged)
	}
	// The locale en-US was there: unchanged. A CSV's lines count its header.
	catalog, csv := counts(11, 10, 1), counts(3, 2, 0)
	if pass > 1 {
		catalog, csv = counts(11, 0, 11), counts(3, 0, 2)
	}
	uuid := `[0-9a-f-]{36}`
	dry := regexp.QuoteMeta(" (dry run: nothing was written)")
	for _, re := range []string{
		`(?m)^import ` + uuid + ` completed: ` + catalog + `$`,
		`(?m)^import ` + uuid + ` completed` + dry + `: ` + csv + `$`,
		`(?m)^import ` + uuid + ` completed: ` + csv + `$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("pass %d: catalogd import printed no line matching %s", pass, re)
		}
	}
	m := regexp.MustCompile(`(?m)^export ` + uuid + ` completed: (\d+) items, .*, written to /tmp/catalog-export\.ndjson \(size and checksum checked\)$`).FindStringSubmatch(out)
	if m == nil {
		t.Errorf("pass %d: catalogd export did not report its file", pass)
	} else if n, _ := strconv.Atoi(m[1]); !regexp.MustCompile(`(?m)^import ` + uuid + ` completed` + dry + `: ` + counts(n, 0, n) + `$`).MatchString(out) {
		t.Errorf("pass %d: the export (%d items) imported again is not all unchanged", pass, n)
	}

	// The search: the red running shoe, alone.
	_, search := find("notReadyChannelUuids[eq]=$WEB")
	items, _ := obj(search)["items"].([]any)
	if len(items) != 1 || !strings.HasPrefix(fmt.Sprint(items[0].(map[string]any)["code"]), "RUNNER-") {
		t.Errorf("pass %d: the search answered %s, want the RUNNER- product alone", pass, search.answer)
	}

	// Idempotency: the retry is the first answer again, replayed.
	var idem []call
	for i, c := range cmds {
		if strings.Contains(c.text, "Idempotency-Key: $KEY") {
			idem = append(idem, answered[i])
		}
	}
	if len(idem) != 2 {
		t.Fatalf("%d idempotent requests in the README, want 2", len(idem))
	}
	body := func(c call) string { _, b, _ := strings.Cut(c.answer, "\r\n\r\n"); return b }
	if strings.Contains(strings.ToLower(idem[0].answer), "idempotency-replayed") ||
		!strings.Contains(strings.ToLower(idem[1].answer), "\nidempotency-replayed: true") ||
		body(idem[0]) == "" || body(idem[0]) != body(idem[1]) {
		t.Errorf("pass %d: the idempotent retry is not the first answer replayed:\n%s\n%s", pass, idem[0].answer, idem[1].answer)
	}

	// ETags: the update with the tag, then the stale tag refused.
	_, updated := find(`"displayName":"Finish"`)
	_, stale := find(`"displayName":"Matt"`)
	if obj(updated)["displayName"] != "Finish" || obj(stale)["code"] != "PRECONDITION_FAILED" {
		t.Errorf("pass %d: the ETag example answered\n%s\n%s", pass, updated.answer, stale.answer)
	}
}
