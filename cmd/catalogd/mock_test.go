package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mockRun is one `catalogd mock` process.
type mockRun struct {
	cmd      *exec.Cmd
	httpURL  string
	token    string
	dataDir  string
	finished chan error
}

var (
	mockListen  = regexp.MustCompile(`REST, Connect, gRPC-Web: (http://\S+)\s+gRPC: (\S+)`)
	mockDataDir = regexp.MustCompile(`"msg":"catalogd mock: a throwaway database and data directory","dir":"([^"]+)"`)
)

// startMock runs the binary and reads its output until the banner (URLs and token) is out.
func startMock(t *testing.T, bin string) *mockRun {
	t.Helper()
	cmd := exec.Command(bin, "mock", "-http-addr", "127.0.0.1:0", "-grpc-addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m := &mockRun{cmd: cmd, finished: make(chan error, 1)}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		m.finished <- cmd.Wait()
	}()
	deadline := time.After(2 * time.Minute)
	var log []string
	for m.token == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("catalogd mock exited before its banner:\n%s", strings.Join(log, "\n"))
			}
			log = append(log, l)
			if g := mockDataDir.FindStringSubmatch(l); g != nil {
				m.dataDir = g[1]
			}
			if g := mockListen.FindStringSubmatch(l); g != nil {
				m.httpURL = g[1]
			}
			if m.httpURL != "" && strings.HasPrefix(l, "eyJ") {
				m.token = l
			}
		case <-deadline:
			t.Fatalf("no banner from catalogd mock within 2 minutes:\n%s", strings.Join(log, "\n"))
		}
	}
	go func() {
		for range lines { // keep reading so the process never blocks on its output
		}
	}()
	if m.dataDir == "" {
		t.Fatalf("catalogd mock did not log its embedded database's directory:\n%s", strings.Join(log, "\n"))
	}
	return m
}

func (m *mockRun) do(t *testing.T, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), method, m.httpURL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+m.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func (m *mockRun) stop(t *testing.T) {
	t.Helper()
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-m.finished:
		if err != nil {
			t.Fatalf("catalogd mock exited with %v after SIGTERM", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("catalogd mock did not stop within a minute of SIGTERM")
	}
}

// `catalogd mock` starts on a fresh database with the demo catalog every time, serves the printed
// token, and deletes its database at exit: on SIGTERM, and on SIGKILL too (pgembed's watchdog).
func TestMockCommandStartsCleanEachTime(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "catalogd")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var dirs []string
	for run := 1; run <= 2; run++ {
		m := startMock(t, bin)
		dirs = append(dirs, m.dataDir)
		status, body := m.do(t, "GET", "/v1/locales", "")
		items, _ := body["items"].([]any)
		if status != 200 || len(items) != 3 {
			t.Fatalf("run %d: GET /v1/locales with the banner's token: %d, %d locales (want the demo catalog's 3): %v", run, status, len(items), body)
		}
		// A change of this run, which the next must not see.
		if status, body := m.do(t, "POST", "/v1/locales", `{"code":"it-IT"}`); status != 201 {
			t.Fatalf("run %d: create a locale: %d %v", run, status, body)
		}
		if run == 1 {
			readmeMockExample(t, m)
		}
		m.stop(t)
		if _, err := os.Stat(m.dataDir); !os.IsNotExist(err) {
			t.Errorf("run %d: the mock's database directory %s is still there after exit (%v)", run, m.dataDir, err)
		}
	}
	if dirs[0] == dirs[1] {
		t.Errorf("both runs used %s", dirs[0])
	}

	m := startMock(t, bin)
	_ = m.cmd.Process.Kill()
	<-m.finished
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(m.dataDir); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still there a minute after SIGKILL", m.dataDir)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// readmeMockExample runs the README's mock example (the sh block of "## The mock server" that makes
// a token) against m: it must answer the demo catalog's jacket to a token that names a new tenant.
func readmeMockExample(t *testing.T, m *mockRun) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## The mock server")
	if !ok {
		t.Fatal(`README.md has no "## The mock server" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var script string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(sec, -1) {
		if strings.Contains(block[1], "TOKEN=") {
			script = block[1]
		}
	}
	if script == "" {
		t.Fatal("the mock section of README.md has no sh example that makes a token")
	}
	script = strings.ReplaceAll(script, "http://127.0.0.1:8080", m.httpURL)
	out, err := exec.Command("bash", "-euo", "pipefail", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("README's mock example: %v\n%s", err, out)
	}
	var page struct {
		Items []struct {
			Code string `json:"code"`
		} `json:"items"`
	}
	if err := json.Unmarshal(out, &page); err != nil || len(page.Items) != 1 || page.Items[0].Code != "alpine-shell-jacket" {
		t.Fatalf("README's mock example printed %s (%v), want the page with alpine-shell-jacket", out, err)
	}
}
