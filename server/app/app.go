// Package app wires catalogd together: configuration, database (embedded or external), the gRPC
// server with its interceptors, the REST gateway, and the operational HTTP endpoints.
package app

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"

	"github.com/catalogd/catalogd/db"
	"github.com/catalogd/catalogd/server/assetfiles"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/blobstore"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/docs"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/pgembed"
	"github.com/catalogd/catalogd/server/retention"
	"github.com/catalogd/catalogd/server/scheduler"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/transfer"
	"github.com/catalogd/catalogd/server/webhooks"
)

// Config is the service's configuration (DESIGN.md "Running it").
type Config struct {
	HTTPAddr    string
	GRPCAddr    string
	DatabaseURL string
	// DatabasePooler is what DatabaseURL reaches (CATALOG_DATABASE_POOLER; "" is none) and
	// DatabaseDirectURL the primary without the pooler (CATALOG_DATABASE_DIRECT_URL), for the
	// sessions a transaction pooler cannot keep (DESIGN.md "Production topology").
	DatabasePooler    store.Pooler
	DatabaseDirectURL string
	// DatabaseReadURLs are the read replicas (DATABASE_READ_URL: streaming standbys of the
	// primary) that serve GET requests; ReadMaxWait and ReadMaxLag tune the routing
	// (CATALOG_READ_MAX_WAIT, CATALOG_READ_MAX_LAG; 0: store.DefaultReadMaxWait and
	// store.DefaultReadMaxLag). DESIGN.md "Production topology", server/store/replicas.go.
	DatabaseReadURLs        []string
	ReadMaxWait, ReadMaxLag time.Duration
	DataDir                 string
	JWTHS256Secret          string
	JWKSURL                 string
	JWTIssuer               string
	JWTAudience             string
	// Webhooks (DESIGN.md "Events and webhooks").
	WebhookAllowPrivate bool
	WebhookPolicy       webhooks.Policy
	WebhookWorkers      int
	// WebhookLease overrides the dispatcher's claim lease (tests); 0 is the default (60 s).
	WebhookLease time.Duration
	// SecretKey is base64 of 32 bytes encrypting webhook secrets; empty: generated into DataDir.
	SecretKey string
	// DisableDispatcher runs no webhook dispatcher in this process (API-only replicas, tests).
	DisableDispatcher bool
	// DisableScheduler runs no publication scheduler in this process (tests).
	DisableScheduler bool
	// SchedulerInterval is the time between the scheduler's ticks; 0 is 1 s.
	SchedulerInterval time.Duration
	// RateLimitRPS and RateLimitBurst are the per-tenant token bucket (CATALOG_RATE_LIMIT_RPS,
	// CATALOG_RATE_LIMIT_BURST); RPS 0 turns rate limiting off (the zero Config: tests).
	RateLimitRPS   float64
	RateLimitBurst int
	// Retention is how long events, finished deliveries and their attempts are kept
	// (CATALOG_RETENTION); 0 keeps them forever (the zero Config: tests).
	Retention time.Duration
	// HistoryRetention is how long history entries are kept (CATALOG_HISTORY_RETENTION); 0 keeps
	// them forever (the zero Config: tests).
	HistoryRetention time.Duration
	// ShutdownGrace is how long Stop lets in-flight webhook attempts finish; 0 is 10 s.
	ShutdownGrace time.Duration
	// Asset files (API.md "Assets"). BlobURL is CATALOG_BLOB_URL ("": a directory under DataDir);
	// MaxUploadBytes CATALOG_MAX_UPLOAD_BYTES (0: 1 GiB); UploadURLTTL and DownloadURLTTL how long
	// signed URLs work (0: 1 h and 15 min); PublicURL the base URL clients reach the HTTP port at,
	// which catalogd's own signed URLs start with ("": http://<the HTTP listen address>).
	BlobURL                      string
	MaxUploadBytes               int64
	UploadURLTTL, DownloadURLTTL time.Duration
	PublicURL                    string
	// RenditionLease is how long a claimed rendition job stays invisible to other replicas
	// (CATALOG_RENDITION_LEASE; 0: 60 s). DisableFileWorker runs no asset-file worker
	// (renditions, upload expiry, blob collection) in this process (tests).
	RenditionLease    time.Duration
	DisableFileWorker bool
	// Import and export jobs (API.md "Import and export (jobs)"): MaxImportBytes is
	// CATALOG_MAX_IMPORT_BYTES (0: 1 GiB); JobLease how long a claimed job stays with a worker that
	// stopped renewing it (0: 30 s); JobPoll how often an idle worker looks for a queued job (0:
	// 1 s; a job queued through this process's own API is taken at once); DisableTransferWorker
	// runs no import/export worker here (tests).
	MaxImportBytes        int64
	JobLease              time.Duration
	JobPoll               time.Duration
	DisableTransferWorker bool
	// CORSAllowedOrigins are the origins browsers may call the API from (REST, Connect and gRPC-Web;
	// CATALOG_CORS_ALLOWED_ORIGINS): exact origins such as https://admin.example.com, or "*" for any.
	// Empty: no cross-origin calls (same-origin pages and non-browser clients are unaffected).
	CORSAllowedOrigins []string
	// Mock makes this the spec's mock server (`catalogd mock`, mock.go): any well-formed bearer token
	// is accepted, every tenant starts with the demo catalog, private webhook targets are allowed.
	// With no DatabaseURL its database and DataDir are a throwaway temporary directory. It listens on
	// loopback addresses only unless MockAllowPublic (CATALOG_MOCK_ALLOW_PUBLIC): anyone who reaches
	// it is any tenant. Its webhook targets are loopback addresses only, and its uploads at most
	// MockMaxUploadBytes.
	Mock            bool
	MockAllowPublic bool
}

// MockMaxUploadBytes is the largest asset file an upload to catalogd mock may declare (its blobs are
// in a temporary directory).
const MockMaxUploadBytes = 100 << 20

// checkMockAddrs refuses a mock whose ports would listen on an address other than loopback (an
// empty host or 0.0.0.0 is every address), unless MockAllowPublic: a mock accepts any token.
func checkMockAddrs(ctx context.Context, cfg Config) error {
	if !cfg.Mock || cfg.MockAllowPublic {
		return nil
	}
	for _, addr := range []string{cfg.HTTPAddr, cfg.GRPCAddr} {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return fmt.Errorf("listen address %q: %w", addr, err)
		}
		loopback := host != ""
		if ip, err := netip.ParseAddr(host); err == nil {
			loopback = ip.IsLoopback()
		} else if host != "" {
			ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			loopback = err == nil && len(ips) > 0
			for _, ip := range ips {
				loopback = loopback && ip.IsLoopback()
			}
		}
		if !loopback {
			return fmt.Errorf("catalogd mock accepts any token, and %s is not a loopback address: listen on 127.0.0.1 or localhost, "+
				"or set CATALOG_MOCK_ALLOW_PUBLIC=true (-mock-allow-public) to let anyone who reaches it act as any tenant", addr)
		}
	}
	return nil
}

// DevScopes are the scopes of the development token.
var DevScopes = []string{"catalog:read", "catalog:write", "webhooks:read", "webhooks:write"}

// Server is a running catalogd.
type Server struct {
	Log      *slog.Logger
	DB       *store.DB
	httpSrv  *http.Server
	grpcSrv  *grpc.Server
	httpLis  net.Listener
	grpcLis  net.Listener
	embedded *pgembed.Cluster
	// dispatchDB is the webhook dispatcher's own pool (nil without a dispatcher).
	dispatchDB *store.DB
	// ops is a tiny pool of its own for /readyz, which API load cannot fill (store.DB.Ready).
	ops *store.DB
	// blobs is the asset files' blob store.
	blobs *blobstore.Store
	// Pools exposes every database pool's figures on /metrics (pool="api", "ops", "dispatcher").
	Pools *store.PoolCollector
	done  chan struct{}
	// workers are the background loops (webhook dispatcher, publication scheduler).
	workers []worker
}

// HTTPAddr is the address the REST gateway listens on.
func (s *Server) HTTPAddr() string { return s.httpLis.Addr().String() }

// GRPCAddr is the address the gRPC server listens on.
func (s *Server) GRPCAddr() string { return s.grpcLis.Addr().String() }

// Blobs is the blob store of the asset files and the import and export files (for tests that
// check what the collector deleted).
func (s *Server) Blobs() *blobstore.Store { return s.blobs }

// Start opens the database (starting an embedded one when no URL is set), migrates it, and starts
// serving. Stop shuts everything down.
func Start(ctx context.Context, cfg Config, log *slog.Logger) (_ *Server, err error) {
	if err := checkMockAddrs(ctx, cfg); err != nil {
		return nil, err
	}
	if cfg.Mock {
		if cfg.MockAllowPublic {
			log.Warn("catalogd mock listens beyond loopback (CATALOG_MOCK_ALLOW_PUBLIC): anyone who reaches it acts as any tenant")
		}
		if cfg.MaxUploadBytes == 0 || cfg.MaxUploadBytes > MockMaxUploadBytes {
			cfg.MaxUploadBytes = MockMaxUploadBytes
		}
	}
	if len(cfg.DatabaseReadURLs) > 0 && cfg.DatabaseURL == "" {
		return nil, errors.New("DATABASE_READ_URL needs DATABASE_URL: the embedded PostgreSQL has no replicas")
	}
	s := &Server{Log: log, done: make(chan struct{})}
	defer func() {
		if err != nil {
			s.Stop(context.Background())
		}
	}()
	url := cfg.DatabaseURL
	switch {
	case url == "" && cfg.Mock:
		// The mock's database and files are throwaway: a temporary directory that a watchdog process
		// deletes, with its server, however catalogd ends (SIGKILL included).
		if s.embedded, err = pgembed.StartTemp(ctx, log, pgembed.Options{Throwaway: true}); err != nil {
			return nil, err
		}
		cfg.DataDir = filepath.Join(s.embedded.TempRoot(), "data")
		log.Info("catalogd mock: a throwaway database and data directory", "dir", s.embedded.TempRoot())
		url = s.embedded.URL()
	case url == "":
		log.Info("DATABASE_URL is empty: starting an embedded PostgreSQL", "dir", filepath.Join(cfg.DataDir, "pg"))
		if s.embedded, err = pgembed.Start(ctx, filepath.Join(cfg.DataDir, "pg"), log); err != nil {
			return nil, err
		}
		url = s.embedded.URL()
	}
	topo, err := cfg.topology(s.embedded != nil)
	if err != nil {
		return nil, err
	}
	if s.DB, err = store.OpenWith(ctx, url, store.Options{Topology: topo}); err != nil {
		return nil, err
	}
	var replicas *store.Replicas
	if len(cfg.DatabaseReadURLs) > 0 {
		if replicas, err = store.OpenReplicas(cfg.DatabaseReadURLs, s.DB, store.ReadOptions{MaxWait: cfg.ReadMaxWait,
			MaxLag: cfg.ReadMaxLag, Pooler: topo.Pooler, Log: log}); err != nil {
			return nil, err
		}
		s.DB.UseReplicas(replicas) // closed with s.DB
	}
	// The "ops" pool: /readyz's checks and the retention run's lock, which API load cannot take.
	if s.ops, err = store.OpenWith(ctx, url, store.Options{MaxConns: 3, MinConns: 1, Name: "ops", Topology: topo}); err != nil {
		return nil, err
	}
	s.Pools = store.NewPoolCollector()
	s.Pools.Add("api", s.DB)
	s.Pools.Add("ops", s.ops)
	if !cfg.DisableDispatcher {
		// The dispatcher has connections of its own, which API load cannot take (DESIGN.md "Limits
		// and fairness"). Opened before anything serves: once /readyz answers, start-up cannot fail.
		if s.dispatchDB, err = store.OpenWith(ctx, url, store.Options{MaxConns: webhooks.DispatcherConns, Name: "dispatcher", Topology: topo}); err != nil {
			return nil, err
		}
		s.Pools.Add("dispatcher", s.dispatchDB)
	}
	if err := Migrate(ctx, s.DB, log); err != nil {
		return nil, err
	}
	var verifier tokenVerifier = mockVerifier{}
	if cfg.Mock {
		cfg.WebhookAllowPrivate = true
	} else if verifier, err = newVerifier(ctx, &cfg, log); err != nil {
		return nil, err
	}
	key, err := webhooks.LoadKey(cfg.SecretKey, cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("CATALOG_SECRET_KEY: %w", err)
	}
	box, err := webhooks.NewBox(key)
	if err != nil {
		return nil, fmt.Errorf("CATALOG_SECRET_KEY: %w", err)
	}
	guard := webhooks.Guard{AllowPrivate: cfg.WebhookAllowPrivate, LoopbackOnly: cfg.Mock}
	// The HTTP listener comes first: catalogd's own signed blob URLs need the address it got.
	if s.httpLis, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
		return nil, fmt.Errorf("listen HTTP: %w", err)
	}
	if s.blobs, err = openBlobs(ctx, cfg, key, s.httpLis.Addr(), log); err != nil {
		return nil, err
	}
	files := catalog.FileStorage{Store: s.blobs, UploadTTL: cfg.UploadURLTTL, DownloadTTL: cfg.DownloadURLTTL}
	jobs := newJobs(s.DB, s.blobs, cfg)
	services := Services(Deps{DB: s.DB, Box: box, Guard: guard, Files: files, Jobs: jobs})
	scopes, err := MethodScopes(services)
	if err != nil {
		return nil, err
	}
	rules, err := MethodRules(services, OwnChecks(Deps{Guard: guard}))
	if err != nil {
		return nil, err
	}
	if err := CheckListSpecs(); err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), s.Pools)
	if replicas != nil {
		reg.MustRegister(replicas)
	}
	reads, err := ReadMethods(services)
	if err != nil {
		return nil, err
	}
	idem, err := newIdempotency(s.DB, services)
	if err != nil {
		return nil, err
	}
	ic := &interceptors{log: log, verifier: verifier, scopes: scopes, rules: rules, reads: reads, metrics: newMetrics(reg),
		limits: newLimiter(cfg, s.DB, reg), idem: idem}
	s.grpcSrv = ic.newServer(services, fields.ServerCodec{}) // undecodable requests: 400 MALFORMED_REQUEST, not INTERNAL
	hs := health.NewServer()
	healthpb.RegisterHealthServer(s.grpcSrv, hs)
	reflection.Register(s.grpcSrv)

	if s.grpcLis, err = net.Listen("tcp", cfg.GRPCAddr); err != nil {
		return nil, fmt.Errorf("listen gRPC: %w", err)
	}
	go func() { _ = s.grpcSrv.Serve(s.grpcLis) }()
	// The gateway calls the services in process, through the gRPC server's own chain (localConn):
	// every interceptor runs for REST calls, without encoding the messages.
	local := newLocalConn(services, ic.chain)
	gw, err := newRESTGateway(ctx, services, local, ic) // with the front door (front.go)
	if err != nil {
		return nil, err
	}
	var demo *demoSeeder
	if cfg.Mock {
		demo = newDemoSeeder(local, log)
		ic.onTenant = demo.ensure
	}
	spec, err := BuildOpenAPI(services)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	docsPage, err := docs.Handler(spec, docs.Options{SpecURL: "/openapi.json"})
	if err != nil {
		return nil, fmt.Errorf("docs: %w", err)
	}
	rpcWeb, rpcPaths, err := newRPCWeb(s.grpcSrv, services, ic)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	parts := httpParts{gw: gw, rpcWeb: rpcWeb, rpcPath: rpcPaths, ops: s.ops, reg: reg, openapi: spec, docs: docsPage,
		blobs: s.blobs.Handler(), cors: newCORS(cfg.CORSAllowedOrigins)}
	s.httpSrv = &http.Server{Handler: httpHandler(log, parts), ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes: MaxHeaderBytes, IdleTimeout: 2 * time.Minute}
	go func() { _ = s.httpSrv.Serve(s.httpLis) }()
	if !cfg.DisableDispatcher {
		policy := cfg.WebhookPolicy
		if policy.Schedule == nil {
			policy.Schedule = webhooks.DefaultSchedule
		}
		if policy.SuspendAfterFailures == 0 {
			policy.SuspendAfterFailures = 20
		}
		disp := &webhooks.Dispatcher{DB: s.dispatchDB, Box: box, Sender: webhooks.NewSender(guard), Policy: policy, Log: log,
			Workers: cfg.WebhookWorkers, Lease: cfg.WebhookLease, Grace: cfg.ShutdownGrace,
			Metrics: webhooks.NewMetrics(reg, s.dispatchDB)}
		s.startWorker(ctx, disp.Run)
	} else {
		webhooks.NewMetrics(reg, s.DB) // the backlog figures are the database's: any replica shows them
	}
	if !cfg.DisableScheduler {
		s.startWorker(ctx, (&scheduler.Runner{DB: s.DB, Interval: cfg.SchedulerInterval, Log: log}).Run)
	}
	if !cfg.DisableFileWorker { // every replica makes renditions, expires uploads, collects blobs
		s.startWorker(ctx, (&assetfiles.Worker{DB: s.DB, Store: s.blobs, Log: log, Lease: cfg.RenditionLease,
			Metrics: assetfiles.NewMetrics(reg)}).Run)
	}
	if !cfg.DisableTransferWorker { // every replica runs import and export jobs
		s.startWorker(ctx, (&transfer.Worker{Jobs: jobs, Log: log, Lease: cfg.JobLease, Interval: cfg.JobPoll}).Run)
	}
	// Every replica runs a pruner; one at a time prunes (server/retention). Idempotency keys are
	// pruned after 24 h even when CATALOG_RETENTION keeps events forever.
	s.startWorker(ctx, (&retention.Pruner{DB: s.DB, LockDB: s.ops, Retention: cfg.Retention, HistoryRetention: cfg.HistoryRetention, IdempotencyTTL: IdempotencyTTL, Log: log,
		Metrics: retention.NewMetrics(reg)}).Run)
	if demo != nil { // the default tenant's catalog is there before catalogd says it serves
		if err := demo.ensure(ctx, MockTenant); err != nil {
			return nil, err
		}
	}
	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	log.Info("catalogd serving", "http", s.HTTPAddr(), "grpc", s.GRPCAddr())
	return s, nil
}

// topology is how the pools reach PostgreSQL: the configured pooler and direct URL, none of which
// applies to an embedded database.
func (cfg Config) topology(embedded bool) (store.Topology, error) {
	topo := store.Topology{Pooler: cfg.DatabasePooler, DirectURL: cfg.DatabaseDirectURL}
	if topo.Pooler == "" || embedded {
		topo.Pooler = store.PoolerNone
	}
	if embedded {
		topo.DirectURL = ""
	}
	if topo.DirectURL != "" && topo.Pooler != store.PoolerTransaction {
		return topo, errors.New("CATALOG_DATABASE_DIRECT_URL is for CATALOG_DATABASE_POOLER=transaction " +
			"(the sessions a transaction pooler cannot keep); with pooler " + string(topo.Pooler) + " DATABASE_URL keeps sessions itself")
	}
	return topo, nil
}

// Stop shuts down gracefully: no new requests, in-flight ones finish (up to ctx's deadline), then
// the database (and an embedded cluster) stop.
func (s *Server) Stop(ctx context.Context) {
	// The background loops stop taking work at once; the dispatcher lets its attempts in flight
	// finish for up to Config.ShutdownGrace while the servers drain (waited for below).
	for _, w := range s.workers {
		w.stop()
	}
	if s.httpSrv != nil {
		// Requests still running when ctx ends are cancelled (closing their connections cancels
		// their contexts), so that their database connections are back before the pool closes.
		if err := s.httpSrv.Shutdown(ctx); err != nil {
			_ = s.httpSrv.Close()
		}
	}
	if s.grpcSrv != nil {
		stopped := make(chan struct{})
		go func() { s.grpcSrv.GracefulStop(); close(stopped) }()
		select {
		case <-stopped:
		case <-ctx.Done():
			s.grpcSrv.Stop()
		}
	}
	for _, w := range s.workers {
		w.stop()
		select {
		case <-w.done:
		case <-ctx.Done():
		}
	}
	if s.DB != nil {
		s.DB.Close()
	}
	if s.dispatchDB != nil {
		s.dispatchDB.Close()
	}
	if s.ops != nil {
		s.ops.Close()
	}
	if s.blobs != nil {
		_ = s.blobs.Close()
	}
	if s.embedded != nil {
		stop := s.embedded.Stop
		if s.embedded.TempRoot() != "" { // the mock's: stopped and deleted
			stop = s.embedded.Remove
		}
		if err := stop(); err != nil {
			s.Log.Error("stop embedded PostgreSQL", "error", err.Error())
		}
	}
}

// worker is a background loop of the server: stop cancels it, done closes when it has returned.
type worker struct {
	stop context.CancelFunc
	done chan struct{}
}

// startWorker runs run in the background until Stop (not tied to the start-up context's
// cancellation).
func (s *Server) startWorker(ctx context.Context, run func(context.Context)) {
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	w := worker{stop: cancel, done: make(chan struct{})}
	s.workers = append(s.workers, w)
	go func() { defer close(w.done); run(wctx) }()
}

// blobPath is where catalogd serves its own signed blob URLs (the local store's uploads and
// downloads), beside /v1 on the HTTP port.
const blobPath = "/blobs"

// openBlobs opens the asset files' blob store. Its URL-signing key is derived from the secret key
// (HMAC with a purpose label), so replicas sharing CATALOG_SECRET_KEY accept each other's URLs and
// the webhook secrets' encryption key is never used for anything else.
func openBlobs(ctx context.Context, cfg Config, secret []byte, httpAddr net.Addr, log *slog.Logger) (*blobstore.Store, error) {
	public := strings.TrimSuffix(cfg.PublicURL, "/")
	if public == "" {
		host, port, _ := net.SplitHostPort(httpAddr.String())
		if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
			log.Warn("CATALOG_PUBLIC_URL is empty and the HTTP port listens on every address: signed upload and download URLs name localhost; set CATALOG_PUBLIC_URL to the URL clients use")
			host = "localhost"
		}
		public = "http://" + net.JoinHostPort(host, port)
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("catalogd/blob-url-signing/v1"))
	st, err := blobstore.Open(ctx, blobstore.Config{URL: cfg.BlobURL, DataDir: cfg.DataDir, Key: mac.Sum(nil),
		BaseURL: public + blobPath, MaxUploadBytes: cfg.MaxUploadBytes})
	if err != nil {
		return nil, fmt.Errorf("CATALOG_BLOB_URL: %w", err)
	}
	return st, nil
}

// Migrate applies the schema migrations and seeds the event type catalog.
func Migrate(ctx context.Context, d *store.DB, log *slog.Logger) error {
	applied, err := db.Migrate(ctx, d.Pool)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if len(applied) > 0 {
		log.Info("migrations applied", "versions", strings.Join(applied, ","))
	}
	return events.SeedCatalog(ctx, d)
}

// newVerifier builds the token verifier; with no JWT configuration at all it makes a development
// secret (kept in the data dir). The token is printed by the command line, never logged.
func newVerifier(ctx context.Context, cfg *Config, log *slog.Logger) (*auth.Verifier, error) {
	if cfg.JWTHS256Secret == "" && cfg.JWKSURL == "" {
		secret, err := DevSecret(cfg.DataDir)
		if err != nil {
			return nil, err
		}
		cfg.JWTHS256Secret = secret
		log.Warn("no JWT configuration: accepting HS256 tokens signed with a development secret; do not use in production",
			"secret_file", filepath.Join(cfg.DataDir, "dev-jwt-secret"), "tenant", "dev")
	}
	return auth.New(ctx, auth.Config{HS256Secret: cfg.JWTHS256Secret, JWKSURL: cfg.JWKSURL, Issuer: cfg.JWTIssuer, Audience: cfg.JWTAudience})
}

// DevSecret returns the development HS256 secret of a data dir, creating it on first use.
func DevSecret(dataDir string) (string, error) {
	p := filepath.Join(dataDir, "dev-jwt-secret")
	if b, err := os.ReadFile(p); err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	secret := base64.RawURLEncoding.EncodeToString(buf)
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return "", err
	}
	return secret, os.WriteFile(p, []byte(secret+"\n"), 0o600)
}
