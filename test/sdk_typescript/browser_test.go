package sdkts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// The steps src/page.ts reports, per protocol, in order.
var pageSteps = []string{"create", "list", "transition", "get-error"}

// pageResult is what the page POSTs to /result.
type pageResult struct {
	Steps []string `json:"steps"`
	Error string   `json:"error"`
}

const pageHTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>catalogd SDK in a browser</title></head>
<body><p>catalogd SDK test page</p><script type="module" src="/page.js"></script></body></html>
`

// The packed SDK's browser entry in headless Chromium: src/page.ts, bundled by esbuild, is served from
// this test's own origin (pageOrigin, the only one catalogd's CORS configuration allows), so every
// call is cross-origin; it runs the attribute flow (create, filtered list, transition, errors with
// their details, and the README's browser example) over Connect and over gRPC-Web and POSTs its
// result back here.
func TestBrowser(t *testing.T) {
	t.Parallel()
	dir := setup(t)
	bundle, err := os.ReadFile(filepath.Join(dir, "dist", "page.bundle.js"))
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`from\s*"node:[a-z0-9]+"|require\("node:`).Find(bundle); m != nil {
		t.Fatalf("the page bundle imports a Node module: %s", m)
	}

	results := make(chan pageResult, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, pageHTML)
	})
	mux.HandleFunc("GET /page.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write(bundle)
	})
	mux.HandleFunc("POST /result", func(w http.ResponseWriter, r *http.Request) {
		var res pageResult
		if err := json.NewDecoder(r.Body).Decode(&res); err != nil {
			res.Error = "the page posted no JSON result: " + err.Error()
		}
		select {
		case results <- res:
		default:
		}
		w.WriteHeader(http.StatusNoContent)
	})
	srv := &httptest.Server{Listener: pageListener, Config: &http.Server{Handler: mux}}
	srv.Start()
	defer srv.Close()

	q := url.Values{"base": {env.BaseURL}, "token": {apptest.Token("sdkts-web-" + apptest.RandomHex(6))}}
	page := pageOrigin + "/?" + q.Encode()
	browser := startChromium(t, page)
	var res pageResult
	select {
	case res = <-results:
	case <-browser.exited:
		t.Fatalf("chromium exited before the page reported: %v\n%s", browser.err, browser.log())
	case <-time.After(2 * time.Minute):
		t.Fatalf("the page reported nothing within 2 minutes\n%s", browser.log())
	}
	browser.stop()

	for _, s := range res.Steps {
		t.Log(s)
	}
	if res.Error != "" {
		t.Fatalf("the page failed: %s\n%s", res.Error, browser.log())
	}
	var want, seen []string
	for _, protocol := range []string{"connect", "grpc-web"} {
		for _, s := range pageSteps {
			want = append(want, protocol+" "+s)
		}
	}
	for _, s := range res.Steps {
		if name, _, ok := strings.Cut(strings.TrimPrefix(s, "ok "), ":"); ok && strings.HasPrefix(s, "ok ") {
			seen = append(seen, name)
		}
	}
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Errorf("steps reported: %v\nwant: %v", seen, want)
	}
}

// chromium is a running headless Chromium in a process group of its own (its renderer and helper
// processes go with it on stop).
type chromium struct {
	cmd     *exec.Cmd
	profile string
	exited  chan struct{}
	err     error
	mu      sync.Mutex
	stderr  bytes.Buffer
	once    sync.Once
}

// startChromium opens url in headless Chromium, logging the page's console to stderr. The browser
// keeps running until stop: the page says itself when it is done (POST /result), so no timing of
// --dump-dom is relied on.
func startChromium(t *testing.T, url string) *chromium {
	t.Helper()
	bin := apptest.Chromium(t)
	profile, err := os.MkdirTemp("", "catalogd-chromium-profile-")
	if err != nil {
		t.Fatal(err)
	}
	c := &chromium{profile: profile, exited: make(chan struct{})}
	args := append(apptest.HeadlessFlags(profile), "--enable-logging=stderr", "--v=0", url)
	c.cmd = exec.Command(bin, args...)
	c.cmd.Env = append(os.Environ(), "HOME="+profile)
	c.cmd.Stdout = io.Discard
	c.cmd.Stderr = writerFunc(func(p []byte) (int, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.stderr.Write(p)
	})
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.cmd.Start(); err != nil {
		os.RemoveAll(profile)
		t.Fatalf("start chromium: %v", err)
	}
	go func() {
		c.err = c.cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(c.stop)
	return c
}

// stop kills the browser's process group, waits for it and removes its profile.
func (c *chromium) stop() {
	c.once.Do(func() {
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-c.exited:
		case <-time.After(30 * time.Second):
		}
		_ = os.RemoveAll(c.profile)
	})
}

var consoleRE = regexp.MustCompile(`:CONSOLE[^\]]*\] (.*)`)

// log is what the page wrote to the console, or the tail of Chromium's stderr when it wrote nothing.
func (c *chromium) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var lines []string
	for _, m := range consoleRE.FindAllStringSubmatch(c.stderr.String(), -1) {
		lines = append(lines, m[1])
	}
	if len(lines) > 0 {
		return "page console:\n" + strings.Join(lines, "\n")
	}
	s := c.stderr.String()
	if len(s) > 4000 {
		s = s[len(s)-4000:]
	}
	return fmt.Sprintf("chromium stderr (tail):\n%s", s)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
