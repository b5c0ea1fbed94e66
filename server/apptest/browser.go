package apptest

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ChromiumPath is where Debian's chromium package installs the browser.
const ChromiumPath = "/usr/bin/chromium"

var chromiumOnce struct {
	sync.Mutex
	path string
}

// Chromium returns the path of a headless-capable Chromium. When it is missing it installs Debian's
// package (apt-get as root); when that is impossible the test fails with what to do, it never skips.
// Test processes that install at once are serialised by a lock file, so two packages never race
// on dpkg.
func Chromium(t testing.TB) string {
	t.Helper()
	chromiumOnce.Lock()
	defer chromiumOnce.Unlock()
	if chromiumOnce.path != "" {
		return chromiumOnce.path
	}
	if err := ensureChromium(t); err != nil {
		t.Fatalf("headless Chromium is required for this test and could not be installed: %v\n"+
			"install it with: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium", err)
	}
	chromiumOnce.path = ChromiumPath
	return ChromiumPath
}

func ensureChromium(t testing.TB) error {
	if usable(ChromiumPath) {
		return nil
	}
	unlock, err := LockFile(filepath.Join(os.TempDir(), "catalogd-chromium-install.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	if usable(ChromiumPath) { // another test process installed it while we waited
		return nil
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("%s is missing and installing it needs root (running as uid %d)", ChromiumPath, os.Geteuid())
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return fmt.Errorf("%s is missing and apt-get is not available: %w", ChromiumPath, err)
	}
	t.Logf("installing chromium with apt-get (once per machine)")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	for _, args := range [][]string{
		{"-o", "DPkg::Lock::Timeout=300", "update"},
		{"-o", "DPkg::Lock::Timeout=300", "install", "-y", "chromium"},
	} {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("apt-get %v: %w\n%s", args, err, tail(out, 3000))
		}
	}
	if !usable(ChromiumPath) {
		return fmt.Errorf("apt-get installed chromium but %s does not run", ChromiumPath)
	}
	return nil
}

func usable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// HeadlessFlags are the flags every headless run uses: no sandbox (tests run as root), no GPU, and
// nothing that reaches the network on the browser's own account (QUIC, background networking,
// component updates, sync), with a fresh profile directory.
func HeadlessFlags(profileDir string) []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + profileDir}
}

// RunChromium runs headless Chromium with HeadlessFlags plus args on url and returns its stdout and
// stderr; it fails the test when the browser fails or takes more than three minutes.
func RunChromium(t testing.TB, url string, args ...string) (stdout, stderr []byte) {
	t.Helper()
	bin := Chromium(t)
	profile, err := os.MkdirTemp("", "catalogd-chromium-profile-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(profile)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	all := append(HeadlessFlags(profile), args...)
	cmd := exec.CommandContext(ctx, bin, append(all, url)...)
	cmd.Env = append(os.Environ(), "HOME="+profile)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v %s: %v\nstderr: %s", args, url, err, tail(errOut.Bytes(), 4000))
	}
	return out.Bytes(), errOut.Bytes()
}

// Page is what headless Chromium made of a page: the DOM after the page's scripts ran, and what the
// page wrote to the console (Content-Security-Policy violations are reported there too).
type Page struct {
	DOM     string
	Console []string
}

var consoleRe = regexp.MustCompile(`:INFO:CONSOLE[^\]]*\] (.*)`)

// LoadPage loads url in headless Chromium and returns its DOM (--dump-dom) and console messages.
func LoadPage(t testing.TB, url string) Page {
	t.Helper()
	out, errOut := RunChromium(t, url, "--dump-dom", "--enable-logging=stderr", "--v=0")
	p := Page{DOM: string(out)}
	for _, m := range consoleRe.FindAllStringSubmatch(string(errOut), -1) {
		p.Console = append(p.Console, m[1])
	}
	return p
}

// Screenshot loads url in a width×height window and writes a PNG of it to file.
func Screenshot(t testing.TB, url, file string, width, height int) {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(abs)
	RunChromium(t, url, "--screenshot="+abs, "--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height),
		"--hide-scrollbars")
	if fi, err := os.Stat(abs); err != nil || fi.Size() == 0 {
		t.Fatalf("chromium wrote no screenshot to %s: %v", abs, err)
	}
}

// Node is an element of a parsed HTML document.
type Node struct {
	Tag      string
	Attr     map[string]string
	Parent   *Node
	Children []*Node
	parts    []any // text (string) and child elements (*Node) in document order
}

var scriptStyleRe = regexp.MustCompile(`(?is)<(script|style)\b[^>]*>.*?</(script|style)>`)

// ParseHTML reads serialized HTML such as Chromium's --dump-dom output into a tree of elements
// (script and style contents are dropped). It is lenient the way HTML is: void elements close
// themselves and a stray end tag closes what it must.
func ParseHTML(src string) (*Node, error) {
	src = scriptStyleRe.ReplaceAllString(src, "")
	d := xml.NewDecoder(strings.NewReader(src))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	root := &Node{Tag: "#document", Attr: map[string]string{}}
	cur := root
	for {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return root, nil
			}
			return nil, err
		}
		switch x := tok.(type) {
		case xml.StartElement:
			n := &Node{Tag: strings.ToLower(x.Name.Local), Attr: map[string]string{}, Parent: cur}
			for _, a := range x.Attr {
				n.Attr[strings.ToLower(a.Name.Local)] = a.Value
			}
			cur.Children = append(cur.Children, n)
			cur.parts = append(cur.parts, n)
			cur = n
		case xml.EndElement:
			if cur.Parent != nil {
				cur = cur.Parent
			}
		case xml.CharData:
			cur.parts = append(cur.parts, string(x))
		}
	}
}

// Text is the text of n and its descendants, spaces collapsed.
func (n *Node) Text() string {
	var b strings.Builder
	var walk func(*Node)
	walk = func(m *Node) {
		for _, p := range m.parts {
			switch x := p.(type) {
			case string:
				b.WriteString(x)
			case *Node:
				walk(x)
			}
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// HasClass reports whether n's class attribute names c.
func (n *Node) HasClass(c string) bool {
	for _, x := range strings.Fields(n.Attr["class"]) {
		if x == c {
			return true
		}
	}
	return false
}

// FindAll returns the elements under n (n included) for which match is true, in document order.
func (n *Node) FindAll(match func(*Node) bool) []*Node {
	var out []*Node
	var walk func(*Node)
	walk = func(m *Node) {
		if match(m) {
			out = append(out, m)
		}
		for _, c := range m.Children {
			walk(c)
		}
	}
	walk(n)
	return out
}

// Closest is the nearest of n and its ancestors for which match is true, or nil.
func (n *Node) Closest(match func(*Node) bool) *Node {
	for m := n; m != nil; m = m.Parent {
		if match(m) {
			return m
		}
	}
	return nil
}

// HiddenBy names the first of n and its ancestors that hides it from view by markup: the hidden
// attribute, aria-hidden, an inline display:none or visibility:hidden, a closed <details> (all but
// its <summary>), <template>, <noscript>, <head>. It is "" when the markup shows n. (Styles from a
// stylesheet are not seen here; a screenshot shows those.)
func (n *Node) HiddenBy() string {
	for m := n; m != nil; m = m.Parent {
		style := strings.ReplaceAll(strings.ToLower(m.Attr["style"]), " ", "")
		switch {
		case hasAttr(m, "hidden"):
			return "<" + m.Tag + " hidden>"
		case m.Attr["aria-hidden"] == "true":
			return "<" + m.Tag + " aria-hidden=true>"
		case strings.Contains(style, "display:none"), strings.Contains(style, "visibility:hidden"):
			return "<" + m.Tag + " style=" + m.Attr["style"] + ">"
		case m.Tag == "template", m.Tag == "noscript", m.Tag == "head":
			return "<" + m.Tag + ">"
		case m.Tag == "details" && !hasAttr(m, "open") && m != n:
			inSummary := false
			for c := n; c != m; c = c.Parent {
				if c.Tag == "summary" && c.Parent == m {
					inSummary = true
				}
			}
			if !inSummary {
				return "<details> (closed)"
			}
		}
	}
	return ""
}

func hasAttr(n *Node, k string) bool { _, ok := n.Attr[k]; return ok }
