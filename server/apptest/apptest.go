// Package apptest starts a real catalogd (gRPC, gateway, PostgreSQL) for integration tests and gives
// them REST and gRPC clients with tokens for fresh tenants.
package apptest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/pgembed"
)

// Secret, Issuer and Audience of the test tokens.
const (
	Secret   = "test-secret-0123456789abcdef0123456789"
	Issuer   = "catalogd-test"
	Audience = "catalog"
)

// AllScopes are the scopes of a full-access token.
var AllScopes = []string{"catalog:read", "catalog:write", "webhooks:read", "webhooks:write"}

// Env is a running service on its own database.
type Env struct {
	Server  *app.Server
	BaseURL string
	DBURL   string
	GRPC    *grpc.ClientConn
	drop    func()

	contractOnce sync.Once
	contract     *Contract
	contractErr  error
}

// Contract is the served OpenAPI document every REST exchange of the env's clients is validated
// against (loaded on first use).
func (e *Env) Contract(t testing.TB) *Contract {
	t.Helper()
	e.contractOnce.Do(func() { e.contract, e.contractErr = LoadContract(e.BaseURL) })
	if e.contractErr != nil {
		t.Fatalf("openapi: %v", e.contractErr)
	}
	return e.contract
}

// AdminURL is the server database the tests create their databases in: TEST_DATABASE_URL when it
// is set (`make test` sets it to the private cluster it runs `go test` on; a developer may point it at
// a server of their own), otherwise the "postgres" database of this test process's own private
// cluster, started on first use (privateCluster). Never the host's PostgreSQL by default.
func AdminURL() (string, error) {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u, nil
	}
	return privateCluster()
}

// private is this process's own PostgreSQL cluster, for `go test` run without TEST_DATABASE_URL.
var private struct {
	once    sync.Once
	cluster *pgembed.Cluster
	err     error
}

// privateCluster starts, once per process, a throwaway PostgreSQL cluster in a temporary directory
// with the project's embedded-PostgreSQL code (pgembed.StartTemp, pgembed.ForTests: fsync off, a
// port below 32768) and returns the URL of its "postgres" database. Nothing stops it explicitly:
// pgembed's watchdog stops the server and deletes the directory when the test process ends.
func privateCluster() (string, error) {
	private.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		level := slog.LevelWarn
		if os.Getenv("TEST_LOG") != "" {
			level = slog.LevelDebug
		}
		private.cluster, private.err = pgembed.StartTemp(ctx, slog.New(slog.NewTextHandler(os.Stderr,
			&slog.HandlerOptions{Level: level})), pgembed.ForTests())
		if private.err != nil {
			private.err = fmt.Errorf("TEST_DATABASE_URL is not set and the tests' private PostgreSQL "+
				"cluster did not start (install PostgreSQL's server binaries, e.g. `apt-get install postgresql`, "+
				"or set TEST_DATABASE_URL to a server the tests may create databases on): %w", private.err)
		}
	})
	if private.err != nil {
		return "", private.err
	}
	return private.cluster.AdminURL(), nil
}

// CreateDatabase makes a fresh database and returns its URL and a function that drops it.
func CreateDatabase(ctx context.Context, prefix string) (string, func(), error) {
	adminURL, err := AdminURL()
	if err != nil {
		return "", nil, err
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("TEST_DATABASE_URL: %w", err)
	}
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("connect to the test database server %s: %w", u.Redacted(), err)
	}
	name := prefix + "_" + RandomHex(6)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close(ctx)
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		_, _ = admin.Exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)")
		admin.Close(context.Background())
	}, nil
}

// Start runs catalogd on a fresh database; call Stop when done (TestMain).
func Start(extra ...func(*app.Config)) (*Env, error) {
	dbURL, drop, err := CreateDatabase(context.Background(), "catalogd_test")
	if err != nil {
		return nil, err
	}
	return StartOn(dbURL, drop, extra...)
}

// StartOn runs another catalogd on an existing database (a second replica); drop, when not nil,
// runs at Stop. Replicas share the webhook secret key when the options give the same SecretKey.
func StartOn(dbURL string, drop func(), extra ...func(*app.Config)) (*Env, error) {
	ctx := context.Background()
	if drop == nil {
		drop = func() {}
	}
	dir, _ := os.MkdirTemp("", "catalogd-test-")
	cfg := app.Config{HTTPAddr: "127.0.0.1:0", GRPCAddr: "127.0.0.1:0", DatabaseURL: dbURL, DataDir: dir,
		JWTHS256Secret: Secret, JWTIssuer: Issuer, JWTAudience: Audience}
	reads, err := readReplicaFromEnv()
	if err != nil {
		drop()
		return nil, err
	}
	if reads != nil { // TEST_READ_REPLICA: before the pooler's option, which changes DatabaseURL
		reads(&cfg)
	}
	pooled, err := poolerFromEnv()
	if err != nil {
		drop()
		return nil, err
	}
	if pooled != nil { // TEST_POOLER: first, so that a test's own options may say otherwise
		pooled(&cfg)
	}
	for _, f := range extra {
		f(&cfg)
	}
	level := slog.LevelWarn
	if os.Getenv("TEST_LOG") != "" {
		level = slog.LevelDebug
	}
	srv, err := app.Start(ctx, cfg, app.NewLogger(os.Stderr, level))
	if err != nil {
		drop()
		return nil, err
	}
	conn, err := grpc.NewClient(srv.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	return &Env{Server: srv, BaseURL: "http://" + srv.HTTPAddr(), DBURL: dbURL, GRPC: conn, drop: func() {
		_ = conn.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(sctx)
		drop()
		_ = os.RemoveAll(dir)
	}}, nil
}

// Stop shuts the service down and drops its database.
func (e *Env) Stop() { e.drop() }

// RandomHex is n random bytes in hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Token mints a token for tenant with scopes (all scopes when none are given).
func Token(tenant string, scopes ...string) string {
	if len(scopes) == 0 {
		scopes = AllScopes
	}
	t, err := auth.MintHS256(Secret, Issuer, Audience, tenant, "tester", scopes, time.Hour)
	if err != nil {
		panic(err)
	}
	return t
}

// Client is a REST client bound to one token.
type Client struct {
	t     testing.TB
	env   *Env
	base  string
	Token string
	HTTP  *http.Client
	// Header is sent with every request (e.g. Catalog-Consistency).
	Header http.Header
}

// Client returns a REST client for a fresh tenant with every scope.
func (e *Env) Client(t testing.TB) *Client {
	return e.ClientFor(t, "t-"+RandomHex(6))
}

// ClientFor returns a REST client for tenant with the given scopes (all when none).
func (e *Env) ClientFor(t testing.TB, tenant string, scopes ...string) *Client {
	return &Client{t: t, env: e, base: e.BaseURL, Token: Token(tenant, scopes...), HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// Resp is a decoded response.
type Resp struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   any
}

// Obj is the body as an object (nil when it is not one).
func (r Resp) Obj() map[string]any { m, _ := r.Body.(map[string]any); return m }

// Arr is the body as an array.
func (r Resp) Arr() []any { a, _ := r.Body.([]any); return a }

// Items is the items of a page body.
func (r Resp) Items() []map[string]any {
	var out []map[string]any
	for _, x := range r.Obj()["items"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// Objs is an array body as objects.
func (r Resp) Objs() []map[string]any {
	var out []map[string]any
	for _, x := range r.Arr() {
		out = append(out, x.(map[string]any))
	}
	return out
}

// Do sends a request; body may be nil, a string (sent raw) or anything JSON-encodable.
func (c *Client) Do(method, path string, body any) Resp {
	c.t.Helper()
	var payload []byte
	switch b := body.(type) {
	case nil:
	case string:
		payload = []byte(b)
	case []byte:
		payload = b
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatalf("marshal: %v", err)
		}
		payload = j
	}
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(payload)
	}
	req, err := http.NewRequest(method, c.base+path, rdr)
	if err != nil {
		c.t.Fatalf("request: %v", err)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	for k, vs := range c.Header {
		req.Header[k] = vs
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	r := c.exchange(req)
	if c.env != nil {
		c.env.Contract(c.t).Check(c.t, req, payload, r)
	}
	return r
}

// exchange sends req and reads the answer, decoding its JSON body when it has one.
func (c *Client) exchange(req *http.Request) Resp {
	c.t.Helper()
	res, err := c.HTTP.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := Resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			c.t.Fatalf("%s %s: response is not JSON: %s", req.Method, req.URL.Path, raw)
		}
	}
	return r
}

func (c *Client) Get(path string) Resp          { c.t.Helper(); return c.Do("GET", path, nil) }
func (c *Client) Post(path string, b any) Resp  { c.t.Helper(); return c.Do("POST", path, b) }
func (c *Client) Patch(path string, b any) Resp { c.t.Helper(); return c.Do("PATCH", path, b) }
func (c *Client) Delete(path string) Resp       { c.t.Helper(); return c.Do("DELETE", path, nil) }

// Want fails the test unless the status is code; returns r for chaining.
func Want(t testing.TB, r Resp, code int) Resp {
	t.Helper()
	if r.Status != code {
		t.Fatalf("status %d, want %d; body: %.800s", r.Status, code, r.Raw)
	}
	return r
}

// WantProblem checks an RFC 9457 error: status, code, and (when given) the first field named.
func WantProblem(t testing.TB, r Resp, status int, code string, field ...string) map[string]any {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body: %.800s", r.Status, status, r.Raw)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("content-type %q, want application/problem+json", ct)
	}
	m := r.Obj()
	if m["code"] != code {
		t.Fatalf("code %v, want %s; body: %s", m["code"], code, r.Raw)
	}
	if int(m["status"].(float64)) != status || m["title"] == "" || m["detail"] == "" || m["type"] == "" {
		t.Errorf("incomplete problem body: %s", r.Raw)
	}
	if len(field) > 0 {
		errs, _ := m["errors"].([]any)
		found := false
		for _, e := range errs {
			if e.(map[string]any)["field"] == field[0] {
				found = true
			}
		}
		if !found {
			t.Errorf("no error names field %q: %s", field[0], r.Raw)
		}
	}
	return m
}

// Main is the TestMain of an integration test package: it starts catalogd on a fresh database,
// sets *env and *pool (a pool on that database, for reading what the API does not show), runs
// the tests, stops everything and exits with the tests' code. pool may be nil.
func Main(m *testing.M, env **Env, pool **pgxpool.Pool, opts ...func(*app.Config)) {
	os.Exit(run(m, pool, Server{Env: env, Options: opts}))
}

// Server is one catalogd of MainServers: where its Env goes and its configuration.
type Server struct {
	Env     **Env
	Options []func(*app.Config)
}

// MainServers is Main for a package whose tests need several catalogd (e.g. a real one and a mock),
// each on a fresh database of its own.
func MainServers(m *testing.M, servers ...Server) { os.Exit(run(m, nil, servers...)) }

// run starts the servers (pool: a pool on the first one's database), runs the tests, reports each
// server's OpenAPI contract check and stops everything; it returns the exit code.
func run(m *testing.M, pool **pgxpool.Pool, servers ...Server) int {
	var started []*Env
	defer func() {
		for _, e := range started {
			e.contract.Report()
			e.Stop()
		}
	}()
	for _, s := range servers {
		e, err := Start(s.Options...)
		if err != nil {
			fmt.Fprintln(os.Stderr, "start catalogd:", err)
			return 1
		}
		started = append(started, e)
		*s.Env = e
	}
	if pool != nil {
		p, err := pgxpool.New(context.Background(), started[0].DBURL)
		if err != nil {
			fmt.Fprintln(os.Stderr, "connect to the test database:", err)
			return 1
		}
		defer p.Close()
		*pool = p
	}
	return m.Run()
}
