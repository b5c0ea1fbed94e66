package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// import and export read their command lines strictly, before any request (the calls to a server
// are tested in test/cli).
func TestImportExportCommandLines(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "catalog.txt")
	if err := os.WriteFile(data, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env    map[string]string
		args   []string
		code   int
		stderr string
	}{
		{args: []string{"import"}, code: 2, stderr: "catalogd import: missing FILE\nRun 'catalogd import -h' for its flags.\n"},
		{args: []string{"import", "a.ndjson", "b.ndjson"}, code: 2, stderr: "catalogd import: unexpected argument \"b.ndjson\"\n"},
		{args: []string{"export", "out.ndjson"}, code: 2, stderr: "catalogd export: unexpected argument \"out.ndjson\"\n"},
		{args: []string{"import", data, "-format", "xml"}, code: 2, stderr: `flag -format="xml" is not valid: accepts empty, ndjson or csv`},
		{args: []string{"export", "-filter", "[1]"}, code: 2, stderr: `flag -filter="[1]" is not valid (not a JSON object)`},
		{args: []string{"import", data, "-url", "ftp://x"}, code: 2, stderr: `flag -url="ftp://x" is not valid`},
		{env: map[string]string{"CATALOG_TOKEN": "a b"}, args: []string{"export"}, code: 2,
			stderr: "CATALOG_TOKEN is not valid (value not shown: contains whitespace)"},
		// Flags after the file, and the format from the extension.
		{env: map[string]string{"CATALOG_TOKEN": "t"}, args: []string{"import", data, "-wait"}, code: 1,
			stderr: "cannot tell the format from the file's extension (.ndjson, .jsonl or .csv): give -format ndjson or -format csv"},
		{args: []string{"import", "-wait", "-format=csv", "--", data}, code: 1, stderr: "catalogd import: no token: set CATALOG_TOKEN (or give -token)"},
		{args: []string{"export"}, code: 1, stderr: "catalogd export: no token: set CATALOG_TOKEN (or give -token)"},
		{env: map[string]string{"CATALOG_TOKEN": "t"}, args: []string{"import", filepath.Join(dir, "none.csv")}, code: 1,
			stderr: "none.csv: no such file or directory"},
		{env: map[string]string{"CATALOG_TOKEN": "t"}, args: []string{"import", dir, "-format=ndjson"}, code: 1,
			stderr: "is not a regular file"},
	} {
		code, stdout, stderr := cli(t, c.env, c.args...)
		if code != c.code || stdout != "" || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stderr with %q", c.args, code, stdout, stderr, c.code, c.stderr)
		}
	}
}

func TestParseServerURL(t *testing.T) {
	for in, want := range map[string]string{
		"localhost:8080":              "http://localhost:8080",
		"http://127.0.0.1:8080/":      "http://127.0.0.1:8080",
		"https://catalog.example.com": "https://catalog.example.com",
		"https://example.com/catalog": "https://example.com/catalog",
	} {
		if got, err := parseServerURL(in); err != nil || got != want {
			t.Errorf("parseServerURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ftp://x", "http://", "http://h/?q=1", "http://u@h"} {
		if got, err := parseServerURL(in); err == nil {
			t.Errorf("parseServerURL(%q) = %q, want an error", in, got)
		}
	}
}

func TestProgressLines(t *testing.T) {
	for _, c := range []struct {
		frac float64
		want string
	}{{-1, ""}, {0, "[------------------------]   0%  "}, {0.5, "[############------------]  50%  "}, {1.7, "[########################] 100%  "}} {
		if got := bar(c.frac); got != c.want {
			t.Errorf("bar(%v) = %q, want %q", c.frac, got, c.want)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB", 5 << 40: "5120.0 GiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
	// Not a terminal: a line per status, the same status again only when its text changed (and
	// plainEvery passed: here it has not).
	var b strings.Builder
	p := newProgress(&b)
	p.show("1 items", "queued", -1)
	p.show("1 items", "queued", -1)
	p.show("2 items", "queued", -1)
	p.show("5 items", "running", -1)
	p.show("9 items", "completed", -1)
	p.done()
	if want := "queued: 1 items\nrunning: 5 items\ncompleted: 9 items\n"; b.String() != want {
		t.Errorf("plain progress:\n%s\nwant\n%s", b.String(), want)
	}
}
