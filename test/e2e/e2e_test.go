// Package e2e boots the real catalogd binary, as a user would, and talks to it over REST and gRPC.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/apptest"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "catalogd-e2e-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "catalogd")
	out, err := exec.Command("go", "build", "-o", binary, "github.com/catalogd/catalogd/cmd/catalogd").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// proc is a running catalogd with its captured log.
type proc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs bytes.Buffer
	done chan error
}

func (p *proc) log() string { p.mu.Lock(); defer p.mu.Unlock(); return p.logs.String() }

// launch starts cmd with its output collected in the proc's log and its end sent on done.
func launch(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{cmd: cmd, done: make(chan error, 1)}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.logs.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
		}
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- cmd.Wait(); pw.Close() }()
	return p
}

func start(t *testing.T, env ...string) (*proc, string, string) {
	httpAddr, grpcAddr := freePort(t), freePort(t)
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), append(env, "CATALOG_HTTP_ADDR="+httpAddr, "CATALOG_GRPC_ADDR="+grpcAddr)...)
	p := launch(t, cmd)
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
			}
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := http.Get("http://" + httpAddr + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return p, httpAddr, grpcAddr
			}
		}
		select {
		case err := <-p.done:
			t.Fatalf("catalogd exited at start: %v\n%s", err, p.log())
		case <-time.After(200 * time.Millisecond):
		}
	}
	t.Fatalf("catalogd not ready in 60s\n%s", p.log())
	return nil, "", ""
}

// stop sends SIGTERM and expects a clean exit.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, p.log())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no exit 30s after SIGTERM\n%s", p.log())
	}
}

func do(t *testing.T, method, url, token, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	return res.StatusCode, res.Header, m
}

func TestBinaryWithExternalDatabase(t *testing.T) {
	dbURL, drop, err := apptest.CreateDatabase(context.Background(), "catalogd_e2e")
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	data := t.TempDir()
	secret := "e2e-secret-0123456789abcdef0123456789"
	cfg := []string{"DATABASE_URL=" + dbURL, "CATALOG_DATA_DIR=" + data, "CATALOG_JWT_HS256_SECRET=" + secret,
		"CATALOG_JWT_ISSUER=e2e", "CATALOG_JWT_AUDIENCE=catalog", "CATALOG_SCHEDULER_INTERVAL=200ms"}
	p, httpAddr, grpcAddr := start(t, cfg...)
	base := "http://" + httpAddr

	// `catalogd token` mints a token the server accepts.
	cmd := exec.Command(binary, "token", "-tenant", "acme")
	cmd.Env = append(os.Environ(), cfg...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	tok := strings.TrimSpace(string(out))

	st, h, m := do(t, "POST", base+"/v1/attributes", tok, `{"code":"color","displayName":"Color"}`)
	if st != 201 || m["code"] != "color" || h.Get("Location") != "/v1/attributes/"+m["uuid"].(string) {
		t.Fatalf("create: %d %v %v", st, h, m)
	}
	id := m["uuid"].(string)
	if h.Get("X-Request-Id") == "" {
		t.Errorf("no X-Request-Id on the response")
	}
	if st, _, _ := do(t, "GET", base+"/v1/attributes", "", ""); st != 401 {
		t.Errorf("list without a token: %d", st)
	}

	// The same attribute over gRPC.
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+tok)
	got, err := pb.NewAttributeServiceClient(conn).GetAttribute(ctx, &pb.GetAttributeRequest{AttributeUuid: id})
	if err != nil || got.Attribute.Code != "color" || got.Attribute.Status != pb.AttributeStatus_ATTRIBUTE_STATUS_DRAFT {
		t.Fatalf("gRPC get: %v %v", got, err)
	}
	hc, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || hc.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("gRPC health: %v %v", hc, err)
	}

	// Operational endpoints.
	if st, _, m := do(t, "GET", base+"/healthz", "", ""); st != 200 || m["status"] != "ok" {
		t.Errorf("healthz %d %v", st, m)
	}
	st, _, doc := do(t, "GET", base+"/openapi.json", "", "")
	if st != 200 || doc["paths"] == nil {
		t.Errorf("openapi.json %d", st)
	}
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(metrics), `catalogd_rpc_requests_total{code="OK",method="/catalog.v1.AttributeService/CreateAttribute"} 1`) {
		t.Errorf("metrics lack the create RPC:\n%.2000s", metrics)
	}

	// The binary's scheduler (CATALOG_SCHEDULER_INTERVAL) publishes a product at its scheduledAt.
	_, _, prod := do(t, "POST", base+"/v1/products", tok, `{"code":"SKU-1","kind":"simple"}`)
	pid, _ := prod["uuid"].(string)
	if st, _, _ := do(t, "PATCH", base+"/v1/products/"+pid+"/actions/lifecycle", tok, `{"transition":"activate"}`); st != 200 {
		t.Fatalf("activate: %d", st)
	}
	_, _, ch := do(t, "POST", base+"/v1/channels", tok, `{"code":"web"}`)
	_, _, pub := do(t, "POST", base+"/v1/products/"+pid+"/publications", tok, `{"channelUuid":"`+fmt.Sprint(ch["uuid"])+`"}`)
	pubPath := base + "/v1/products/" + pid + "/publications/" + fmt.Sprint(pub["uuid"])
	at := time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano)
	st, _, sch := do(t, "POST", pubPath+"/schedules", tok, `{"transition":"publish","scheduledAt":"`+at+`"}`)
	if st != 201 {
		t.Fatalf("schedule: %d %v", st, sch)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, _, got := do(t, "GET", pubPath+"/schedules/"+fmt.Sprint(sch["uuid"]), tok, "")
		if got["status"] == "executed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("schedule not executed by the binary: %v", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, _, got := do(t, "GET", pubPath, tok, ""); got["status"] != "published" || got["publishedAt"] == nil {
		t.Errorf("publication after the schedule: %v", got)
	}

	p.stop(t)
	// JSON logs, each RPC line with a request id.
	sawRPC := false
	for _, line := range strings.Split(strings.TrimSpace(p.log()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("log line is not JSON: %s", line)
			continue
		}
		if rec["msg"] == "rpc" {
			sawRPC = true
			if rec["request_id"] == nil || rec["request_id"] == "" {
				t.Errorf("rpc log line without request_id: %s", line)
			}
		}
	}
	if !sawRPC {
		t.Errorf("no rpc log lines")
	}
}

// With no DATABASE_URL and no JWT settings, the binary runs its own PostgreSQL and prints a dev token
// on a line of its own (never in the JSON log); `catalogd token` with the same data dir signs with
// the same secret.
func TestBinaryEmbeddedDatabaseAndDevToken(t *testing.T) {
	parent, err := os.MkdirTemp("", "catalogd-e2e-data-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(parent)
	_ = os.Chmod(parent, 0o755) // like a checkout: others may traverse it
	// The data dir does not exist yet, as on a fresh clone: the service creates it, and the
	// embedded cluster (run as the postgres user when we are root) must be able to reach it.
	data := filepath.Join(parent, ".data")
	env := []string{"DATABASE_URL=", "CATALOG_DATA_DIR=" + data, "CATALOG_JWT_HS256_SECRET=", "CATALOG_JWKS_URL="}
	p, httpAddr, _ := start(t, env...)
	var tok string
	for end := time.Now().Add(5 * time.Second); tok == "" && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		lines := strings.Split(p.log(), "\n")
		for i, line := range lines {
			if strings.HasPrefix(line, "Development token (tenant dev, every scope; valid 24 h):") && i+1 < len(lines) {
				tok = lines[i+1]
			}
		}
	}
	if tok == "" || strings.ContainsAny(tok, " {") {
		t.Fatalf("no development token on a line of its own: %q\n%s", tok, p.log())
	}
	if !strings.Contains(p.log(), `curl -H "Authorization: Bearer `+tok+`" http://`+httpAddr+`/v1/locales`) {
		t.Errorf("no curl hint with the HTTP address %s:\n%s", httpAddr, p.log())
	}
	for _, line := range strings.Split(p.log(), "\n") {
		if strings.HasPrefix(line, "{") && strings.Contains(line, tok) {
			t.Errorf("the token is in the JSON log: %s", line)
		}
	}
	base := "http://" + httpAddr
	if st, _, m := do(t, "POST", base+"/v1/locales", tok, `{"code":"en-US"}`); st != 201 || m["isDefault"] != true {
		t.Fatalf("create locale with the dev token: %d %v", st, m)
	}
	// `catalogd token`, run elsewhere with the service's data dir, mints a token the service takes.
	cmd := exec.Command(binary, "token", "-tenant", "dev", "-scopes", "catalog:read")
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("catalogd token: %v", err)
	}
	if st, _, m := do(t, "GET", base+"/v1/locales", strings.TrimSuffix(string(out), "\n"), ""); st != 200 || len(m["items"].([]any)) != 1 {
		t.Fatalf("list locales with the token of `catalogd token`: %d %v", st, m)
	}
	p.stop(t)
	if _, err := os.Stat(filepath.Join(data, "pg", "data", "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("embedded PostgreSQL still running after shutdown (postmaster.pid: %v)", err)
	}
	// A second start on the same data dir finds the data again.
	p2, httpAddr2, _ := start(t, env...)
	st, _, m := do(t, "GET", "http://"+httpAddr2+"/v1/locales", tok, "")
	if st != 200 || len(m["items"].([]any)) != 1 {
		t.Fatalf("after restart: %d %v", st, m)
	}
	p2.stop(t)
}

// The real binary's exit codes: a value that does not parse stops it with 2 before anything starts,
// naming the variable; `catalogd token` without a secret to sign with says why and exits 1.
func TestBinaryRefusesBadConfiguration(t *testing.T) {
	data := t.TempDir()
	cmd := exec.Command(binary, "serve")
	cmd.Env = append(os.Environ(), "CATALOG_DATA_DIR="+data, "CATALOG_WEBHOOK_WORKERS=abc",
		"CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=yes", "CATALOG_LOG_LEVEL=verbose")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("serve with bad values: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{
		`catalogd: CATALOG_WEBHOOK_WORKERS="abc" is not valid (not a whole number): accepts a whole number from 1 to 1024`,
		`catalogd: CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS="yes" is not valid: accepts true or false`,
		`catalogd: CATALOG_LOG_LEVEL="verbose" is not valid: accepts debug, info, warn or error`,
	} {
		if !strings.Contains(stderr.String(), want+"\n") {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if entries, _ := os.ReadDir(data); len(entries) != 0 {
		t.Errorf("serve wrote into the data dir before refusing its configuration: %v", entries)
	}

	cmd = exec.Command(binary, "token")
	cmd.Env = append(os.Environ(), "CATALOG_DATA_DIR="+data, "CATALOG_JWT_HS256_SECRET=", "CATALOG_JWKS_URL=")
	stderr.Reset()
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || len(out) != 0 ||
		!strings.HasPrefix(stderr.String(), "catalogd token: no development secret in "+data+" ") {
		t.Errorf("token without a secret: %v %q\n%s", err, out, stderr.String())
	}
}
