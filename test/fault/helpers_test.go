package fault

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/server/apptest"
)

// newDatabase creates a fresh database on the package's cluster and returns its URL.
func newDatabase(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, cluster.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := "catalogd_fault_" + apptest.RandomHex(6)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	return strings.Replace(cluster.AdminURL(), "/postgres?", "/"+name+"?", 1)
}

// proc is a catalogd child process.
type proc struct {
	cmd  *exec.Cmd
	base string // http://host:port of its HTTP port
	done chan struct{}
	log  *apptest.LockedBuffer
}

// startCatalogd runs `catalogd serve` on dbURL with the data dir dataDir (kept across restarts:
// the webhook secret key lives there) and waits until it serves.
func startCatalogd(t *testing.T, dbURL, dataDir string) *proc {
	t.Helper()
	cmd := exec.Command(binary, "serve")
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CATALOG_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env,
		"DATABASE_URL="+dbURL,
		"CATALOG_HTTP_ADDR=127.0.0.1:0",
		"CATALOG_GRPC_ADDR=127.0.0.1:0",
		"CATALOG_DATA_DIR="+dataDir,
		"CATALOG_JWT_HS256_SECRET="+apptest.Secret,
		"CATALOG_JWT_ISSUER="+apptest.Issuer,
		"CATALOG_JWT_AUDIENCE="+apptest.Audience,
		"CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS=true",
		"CATALOG_WEBHOOK_RETRY_SCHEDULE=1s,1s,1s,1s,1s,1s,1s,1s,1s,1s",
		// A killed process's claimed deliveries are attempted again once their lease has run out.
		"CATALOG_WEBHOOK_LEASE=3s",
		// So are its claimed rendition jobs.
		"CATALOG_RENDITION_LEASE=3s",
		// And its running import, which another process takes over after the last committed line.
		"CATALOG_JOB_LEASE=3s",
		"CATALOG_RATE_LIMIT_RPS=0",
		"CATALOG_RETENTION=720h",
	)
	p := &proc{cmd: cmd, done: make(chan struct{}), log: &apptest.LockedBuffer{}}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = p.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	serving := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			_, _ = p.log.Write([]byte(line + "\n"))
			var rec struct {
				Msg  string `json:"msg"`
				HTTP string `json:"http"`
			}
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "catalogd serving" {
				select {
				case serving <- rec.HTTP:
				default:
				}
			}
		}
	}()
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.kill(syscall.SIGKILL)
		if t.Failed() {
			t.Logf("catalogd (pid %d) log:\n%s", cmd.Process.Pid, tailLines(p.log.String(), 60))
		}
	})
	select {
	case addr := <-serving:
		p.base = "http://" + addr
	case <-p.done:
		t.Fatalf("catalogd exited at start:\n%s", p.log.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("catalogd not serving after 60 s:\n%s", p.log.String())
	}
	return p
}

// kill sends sig and waits for the process to end.
func (p *proc) kill(sig syscall.Signal) {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// client is a small REST client for one tenant; the base URL may change (a restarted catalogd).
type client struct {
	base  atomic.Pointer[string]
	token string
	http  *http.Client
}

func newClient(base string) *client {
	c := &client{token: apptest.Token("fault-"+apptest.RandomHex(4), apptest.AllScopes...),
		http: &http.Client{Timeout: 10 * time.Second}}
	c.setBase(base)
	return c
}

func (c *client) setBase(b string) { c.base.Store(&b) }

// resp is an answer: the status, headers and the decoded JSON body (nil when none).
type resp struct {
	status int
	header http.Header
	body   map[string]any
	items  []any
	raw    string
}

// do sends a request; a transport error (catalogd down) is returned as err.
func (c *client) do(method, path string, body any) (resp, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, *c.base.Load()+path, rd)
	if err != nil {
		return resp{}, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return resp{}, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, header: res.Header, raw: string(raw)}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		switch x := v.(type) {
		case map[string]any:
			r.body = x
		case []any:
			r.items = x
		}
	}
	return r, nil
}

// must sends a request that has to succeed with want.
func (c *client) must(t *testing.T, want int, method, path string, body any) resp {
	t.Helper()
	r, err := c.do(method, path, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if r.status != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, r.status, r.raw, want)
	}
	return r
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// subscribe makes a subscription of the client's tenant to attribute.created at target.
func (c *client) subscribe(t *testing.T, target string) {
	t.Helper()
	sub := c.must(t, 201, "POST", "/v1/webhook-subscriptions",
		map[string]any{"displayName": "fault", "targetUrl": target, "requestTimeoutMs": 5000}).body
	types := c.must(t, 200, "GET", "/v1/webhook-event-types?names%5Beq%5D=attribute.created", nil)
	items, _ := types.body["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("event type attribute.created: %s", types.raw)
	}
	et := str(items[0].(map[string]any), "uuid")
	c.must(t, 201, "POST", "/v1/webhook-subscriptions/"+str(sub, "uuid")+"/event-types", map[string]any{"webhookEventTypeUuid": et})
}

// receiver is a webhook target that records every delivery it receives and answers 200 after
// delay.
type receiver struct {
	srv      *httptest.Server
	delay    atomic.Int64 // nanoseconds
	inFlight atomic.Int32
	mu       sync.Mutex
	bodies   map[string]string // webhook-id → body
	requests int
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{bodies: map[string]string{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.inFlight.Add(1)
		defer r.inFlight.Add(-1)
		b, _ := io.ReadAll(req.Body)
		if d := time.Duration(r.delay.Load()); d > 0 {
			time.Sleep(d)
		}
		r.mu.Lock()
		r.bodies[req.Header.Get("webhook-id")] = string(b)
		r.requests++
		r.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// missing returns the uuids of ids no received delivery mentions.
func (r *receiver) missing(ids []string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var all strings.Builder
	for _, b := range r.bodies {
		all.WriteString(b)
	}
	s := all.String()
	var out []string
	for _, id := range ids {
		if !strings.Contains(s, id) {
			out = append(out, id)
		}
	}
	return out
}

// waitDelivered waits up to limit until every id has been delivered.
func (r *receiver) waitDelivered(t *testing.T, ids []string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		miss := r.missing(ids)
		if len(miss) == 0 {
			return
		}
		if time.Now().After(deadline) {
			r.mu.Lock()
			n := r.requests
			r.mu.Unlock()
			t.Fatalf("%d of %d acknowledged writes have no delivery after %s (%d requests received), e.g. %v",
				len(miss), len(ids), limit, n, miss[:min(5, len(miss))])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// writers post attributes from n goroutines until stop is closed, and record every answer.
type writers struct {
	mu       sync.Mutex
	acked    []string       // uuids of 201 answers
	statuses map[int]int    // status → count (0: transport error)
	bad      []string       // answers that break the outage contract
	unavail  int            // 503s
	seen     map[string]int // error code → count
	wg       sync.WaitGroup
	stop     chan struct{}
}

func startWriters(c *client, n int, pause time.Duration) *writers {
	w := &writers{statuses: map[int]int{}, seen: map[string]int{}, stop: make(chan struct{})}
	for i := range n {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for k := 0; ; k++ {
				select {
				case <-w.stop:
					return
				default:
				}
				r, err := c.do("POST", "/v1/attributes", map[string]any{"code": fmt.Sprintf("w%d-%d-%s", i, k, apptest.RandomHex(3))})
				w.record(r, err)
				if err != nil || r.status >= 500 {
					time.Sleep(50 * time.Millisecond) // catalogd or the database is down: do not spin
				}
				time.Sleep(pause)
			}
		}()
	}
	return w
}

func (w *writers) record(r resp, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.statuses[0]++
		return
	}
	w.statuses[r.status]++
	if r.status >= 300 {
		w.seen[str(r.body, "code")]++
	}
	switch {
	case r.status == 201:
		w.acked = append(w.acked, str(r.body, "uuid"))
	case r.status == 503:
		w.unavail++
		if r.header.Get("Retry-After") == "" || str(r.body, "code") != "UNAVAILABLE" ||
			!strings.HasPrefix(r.header.Get("Content-Type"), "application/problem+json") {
			w.bad = append(w.bad, fmt.Sprintf("503 without Retry-After or UNAVAILABLE problem: %v %s", r.header, r.raw))
		}
	case r.status >= 500:
		w.bad = append(w.bad, fmt.Sprintf("%d %s", r.status, r.raw))
	case r.status == 429:
	default:
		w.bad = append(w.bad, fmt.Sprintf("%d %s", r.status, r.raw))
	}
}

func (w *writers) halt() {
	close(w.stop)
	w.wg.Wait()
}

// ackedCount is the number of acknowledged writes so far.
func (w *writers) ackedCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.acked)
}

// readyz returns the status of GET /readyz (0 when catalogd does not answer).
func readyz(base string) int {
	c := http.Client{Timeout: 5 * time.Second}
	r, err := c.Get(base + "/readyz")
	if err != nil {
		return 0
	}
	_ = r.Body.Close()
	return r.StatusCode
}
