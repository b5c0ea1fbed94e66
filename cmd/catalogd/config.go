package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/webhooks"
)

// settings is everything a command reads from its environment and flags.
type settings struct {
	app      app.Config
	logLevel slog.Level
	// token's own flags.
	tenant, subject string
	scopes          []string
	ttl             time.Duration
	// import's and export's (transfer.go).
	jobs jobSettings
	// The command's operands (import's FILE), when it takes some (command.operands).
	operands []string
}

// cmdSet says which commands read a variable.
type cmdSet uint8

const (
	cmdServe cmdSet = 1 << iota
	cmdMigrate
	cmdToken
	cmdMock
	cmdImport
	cmdExport
)

// variable is one setting: an environment variable (empty for a flag of one command only) and the
// flag that overrides it. The help output, the README check and the loader all read this table.
type variable struct {
	env     string
	flag    string
	def     string // the default, as it would be written in the variable
	accepts string // what a value may be (help text and error messages)
	help    string
	secret  bool // its value is never printed
	boolean bool // a flag that may be given without a value (-flag means -flag=true)
	cmds    cmdSet
	// set parses v into s; an error is the reason v is refused (may be empty: accepts says it all).
	set func(s *settings, v string) error
}

// variables is the configuration of DESIGN.md "Running it", in the order help prints it.
var variables = []variable{
	{env: "CATALOG_HTTP_ADDR", flag: "http-addr", def: "127.0.0.1:8080", accepts: "host:port (port 0-65535; 0 picks a free one)",
		help: "REST gateway and /healthz, /readyz, /openapi.json, /docs, /metrics", cmds: cmdServe | cmdMock,
		set: func(s *settings, v string) error { s.app.HTTPAddr = v; return parseAddr(v) }},
	{env: "CATALOG_GRPC_ADDR", flag: "grpc-addr", def: "127.0.0.1:9090", accepts: "host:port (port 0-65535; 0 picks a free one)",
		help: "gRPC server (with health and reflection)", cmds: cmdServe | cmdMock,
		set: func(s *settings, v string) error { s.app.GRPCAddr = v; return parseAddr(v) }},
	{env: "DATABASE_URL", flag: "database-url", def: "", accepts: "empty, or a PostgreSQL URL (postgres://…) or key=value connection string",
		help: "PostgreSQL; empty runs an embedded PostgreSQL in CATALOG_DATA_DIR/pg", secret: true, cmds: cmdServe | cmdMigrate,
		set: func(s *settings, v string) error { s.app.DatabaseURL = v; return parseDatabaseURL(v) }},
	{env: "CATALOG_DATABASE_POOLER", flag: "database-pooler", def: "none", accepts: "none, transaction or session",
		help: "what DATABASE_URL reaches: PostgreSQL itself, or a connection pooler (PgBouncer) in transaction or session mode; transaction: no prepared statement, lock or setting outlives a transaction", cmds: cmdServe | cmdMigrate,
		set: func(s *settings, v string) (err error) { s.app.DatabasePooler, err = store.ParsePooler(v); return err }},
	{env: "CATALOG_DATABASE_DIRECT_URL", flag: "database-direct-url", def: "", accepts: "empty, or a PostgreSQL URL (postgres://…) or key=value connection string",
		help: "with CATALOG_DATABASE_POOLER=transaction: the same primary without the pooler, for LISTEN (webhook wake-ups); empty: the dispatcher polls every second", secret: true, cmds: cmdServe,
		set: func(s *settings, v string) error { s.app.DatabaseDirectURL = v; return parseDatabaseURL(v) }},
	{env: "DATABASE_READ_URL", flag: "database-read-url", def: "", accepts: "empty, or one or more PostgreSQL URLs (postgres://…) separated by commas",
		help: "read replicas (streaming standbys of the primary) for GET requests: each read sees every write made before it (the replica must have replayed the primary's position within CATALOG_READ_MAX_WAIT, else the primary answers); a replica that is down or behind costs no error", secret: true, cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			s.app.DatabaseReadURLs = nil
			if v != "" {
				s.app.DatabaseReadURLs, err = store.ParseReadURLs(v)
			}
			return err
		}},
	{env: "CATALOG_READ_MAX_WAIT", flag: "read-max-wait", def: "100ms", accepts: "a Go duration from 1ms to 10s (e.g. 100ms)",
		help: "with DATABASE_READ_URL: how long a read waits for a replica to replay the primary's position before the primary answers it", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			s.app.ReadMaxWait, err = parseDurationIn(v, time.Millisecond, 10*time.Second)
			return err
		}},
	{env: "CATALOG_READ_MAX_LAG", flag: "read-max-lag", def: "2s", accepts: "a Go duration from 10ms to 1h (e.g. 2s)",
		help: "with DATABASE_READ_URL: a replica further behind serves no read; below it, it serves reads sent with Catalog-Consistency: eventual without asking the primary", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			s.app.ReadMaxLag, err = parseDurationIn(v, 10*time.Millisecond, time.Hour)
			return err
		}},
	{env: "CATALOG_DATA_DIR", flag: "data-dir", def: "./.data", accepts: "a directory path (created when missing)",
		help: "embedded database, development JWT secret, generated webhook secret key, local asset file blobs", cmds: cmdServe | cmdMigrate | cmdToken,
		set: func(s *settings, v string) error { s.app.DataDir = v; return nonEmpty(v) }},
	{env: "CATALOG_JWT_HS256_SECRET", flag: "jwt-hs256-secret", def: "",
		accepts: fmt.Sprintf("empty, or a secret of at least %d bytes", auth.MinHS256SecretLen),
		help:    "accept HS256 tokens signed with this secret (token signs with it); see also CATALOG_DATA_DIR",
		secret:  true, cmds: cmdServe | cmdToken,
		set: func(s *settings, v string) error { s.app.JWTHS256Secret = v; return parseHS256Secret(v) }},
	{env: "CATALOG_JWKS_URL", flag: "jwks-url", def: "", accepts: "empty, or an absolute http(s) URL",
		help: "accept RS256/ES256 tokens whose keys this JWKS serves (production)", cmds: cmdServe | cmdToken,
		set: func(s *settings, v string) error { s.app.JWKSURL = v; return parseHTTPURL(v) }},
	{env: "CATALOG_JWT_ISSUER", flag: "jwt-issuer", def: "catalogd-dev", accepts: "a non-empty string",
		help: "required iss claim", cmds: cmdServe | cmdToken,
		set: func(s *settings, v string) error { s.app.JWTIssuer = v; return nonEmpty(v) }},
	{env: "CATALOG_JWT_AUDIENCE", flag: "jwt-audience", def: "catalog", accepts: "a non-empty string",
		help: "required aud claim", cmds: cmdServe | cmdToken,
		set: func(s *settings, v string) error { s.app.JWTAudience = v; return nonEmpty(v) }},
	{env: "CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS", flag: "webhook-allow-private-targets", def: "false", accepts: "true or false",
		help: "allow webhook targets on loopback/private addresses (local development and tests only)", cmds: cmdServe, boolean: true,
		set: func(s *settings, v string) (err error) { s.app.WebhookAllowPrivate, err = parseBool(v); return err }},
	{env: "CATALOG_WEBHOOK_RETRY_SCHEDULE", flag: "webhook-retry-schedule", def: "5s,5m,30m,2h,5h,10h,14h,20h,24h",
		accepts: "one or more positive Go durations separated by commas (e.g. 5s,5m,1h)",
		help:    "delays between webhook delivery attempts after the first, immediate one", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			s.app.WebhookPolicy.Schedule, err = parseSchedule(v)
			return err
		}},
	{env: "CATALOG_WEBHOOK_SUSPEND_AFTER_FAILURES", flag: "webhook-suspend-after-failures", def: "20",
		accepts: "a whole number from 1 to 1000000",
		help:    "consecutive failed attempts before a failing subscription may be suspended", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			s.app.WebhookPolicy.SuspendAfterFailures, err = parseInt(v, 1, 1_000_000)
			return err
		}},
	{env: "CATALOG_WEBHOOK_SUSPEND_AFTER", flag: "webhook-suspend-after", def: "120h", accepts: "a positive Go duration (e.g. 90m, 120h)",
		help: "time without a successful attempt before a failing subscription is suspended", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			s.app.WebhookPolicy.SuspendAfter, err = parseDuration(v)
			return err
		}},
	{env: "CATALOG_WEBHOOK_WORKERS", flag: "webhook-workers", def: "64", accepts: "a whole number from 1 to 1024",
		help: "webhook attempts in flight per process (replicas share the work; a subscription gets at most a quarter, 16 at most, a tenant half)", cmds: cmdServe,
		set: func(s *settings, v string) (err error) { s.app.WebhookWorkers, err = parseInt(v, 1, 1024); return err }},
	{env: "CATALOG_SHUTDOWN_GRACE", flag: "shutdown-grace", def: "10s", accepts: "a positive Go duration of at most 5m (e.g. 10s, 30s)",
		help: "on SIGTERM/SIGINT, how long webhook attempts in flight may finish; later ones are cut and sent again by the next server", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			s.app.ShutdownGrace, err = parseDuration(v)
			if err == nil && s.app.ShutdownGrace > 5*time.Minute {
				err = errors.New("too long")
			}
			return err
		}},
	{env: "CATALOG_WEBHOOK_LEASE", flag: "webhook-lease", def: "60s", accepts: "a Go duration from 1s to 1h (e.g. 60s)",
		help: "how long a claimed delivery stays invisible to other dispatchers: after a crash, its attempt is made again once this has passed; keep it above the longest webhook request time-out (30 s)", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			if s.app.WebhookLease, err = parseDuration(v); err == nil && (s.app.WebhookLease < time.Second || s.app.WebhookLease > time.Hour) {
				err = errInvalid
			}
			return err
		}},
	{env: "CATALOG_SECRET_KEY", flag: "secret-key", def: "",
		accepts: fmt.Sprintf("empty, or base64 of exactly %d bytes", webhooks.KeySize),
		help:    "encrypts webhook secrets at rest; empty: generated into CATALOG_DATA_DIR (replicas must share it)",
		secret:  true, cmds: cmdServe,
		set: func(s *settings, v string) error { s.app.SecretKey = v; return parseSecretKey(v) }},
	{env: "CATALOG_SCHEDULER_INTERVAL", flag: "scheduler-interval", def: "1s", accepts: "a positive Go duration (e.g. 200ms, 1s)",
		help: "time between two runs of the publication scheduler over due schedules", cmds: cmdServe,
		set: func(s *settings, v string) (err error) { s.app.SchedulerInterval, err = parseDuration(v); return err }},
	{env: "CATALOG_RATE_LIMIT_RPS", flag: "rate-limit-rps", def: "200", accepts: "a number from 0 to 1000000 (0 turns the per-tenant limits off)",
		help: "per-tenant requests per second (token bucket, per replica); a tenant also holds at most half the database pool", cmds: cmdServe | cmdMock,
		set: func(s *settings, v string) (err error) { s.app.RateLimitRPS, err = parseRate(v); return err }},
	{env: "CATALOG_RATE_LIMIT_BURST", flag: "rate-limit-burst", def: "400", accepts: "a whole number from 1 to 1000000",
		help: "per-tenant burst: requests a tenant may make at once (the bucket's size)", cmds: cmdServe | cmdMock,
		set: func(s *settings, v string) (err error) {
			s.app.RateLimitBurst, err = parseInt(v, 1, 1_000_000)
			return err
		}},
	{env: "CATALOG_RETENTION", flag: "retention", def: "720h", accepts: "0 (keep forever) or a positive Go duration (e.g. 720h, 30s)",
		help: "events, finished webhook deliveries and their attempts older than this are deleted (pending deliveries never)", cmds: cmdServe,
		set: func(s *settings, v string) (err error) { s.app.Retention, err = parseRetention(v); return err }},
	{env: "CATALOG_HISTORY_RETENTION", flag: "history-retention", def: "8760h", accepts: "0 (keep forever) or a positive Go duration (e.g. 8760h, 30s)",
		help: "history entries (GET /v1/history) older than this are deleted, apart from CATALOG_RETENTION", cmds: cmdServe,
		set: func(s *settings, v string) (err error) { s.app.HistoryRetention, err = parseRetention(v); return err }},
	{env: "CATALOG_PUBLIC_URL", flag: "public-url", def: "", accepts: "empty, or an http(s) origin: scheme, host and port only (e.g. https://catalog.example.com)",
		help: "the URL clients reach the HTTP port at; catalogd's own signed upload and download URLs start with it (empty: http://<CATALOG_HTTP_ADDR>)", cmds: cmdServe | cmdMock,
		set: func(s *settings, v string) error { s.app.PublicURL = v; return parsePublicURL(v) }},
	{env: "CATALOG_BLOB_URL", flag: "blob-url", def: "",
		accepts: "empty, file:///absolute/dir, or s3://bucket?region=…[&endpoint=…&use_path_style=true] (credentials from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)",
		help:    "blob storage for asset files; empty: the directory CATALOG_DATA_DIR/blobs, with URLs signed and served by catalogd", cmds: cmdServe,
		set: func(s *settings, v string) error { s.app.BlobURL = v; return parseBlobURL(v) }},
	{env: "CATALOG_MAX_UPLOAD_BYTES", flag: "max-upload-bytes", def: "1073741824", accepts: "a whole number of bytes from 1 to 5497558138880 (5 TiB)",
		help: "largest asset file an upload may declare", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 || n > 5<<40 {
				return errInvalid
			}
			s.app.MaxUploadBytes = n
			return nil
		}},
	{env: "CATALOG_UPLOAD_URL_TTL", flag: "upload-url-ttl", def: "1h", accepts: "a Go duration from 1s to 168h (e.g. 15m, 1h)",
		help: "how long an upload URL works; a pending file not completed by then is failed", cmds: cmdServe,
		set: func(s *settings, v string) (err error) { s.app.UploadURLTTL, err = parseURLTTL(v); return err }},
	{env: "CATALOG_DOWNLOAD_URL_TTL", flag: "download-url-ttl", def: "15m", accepts: "a Go duration from 1s to 168h (e.g. 15m, 1h)",
		help: "how long the downloadUrl of an asset file's get works", cmds: cmdServe,
		set: func(s *settings, v string) (err error) { s.app.DownloadURLTTL, err = parseURLTTL(v); return err }},
	{env: "CATALOG_RENDITION_LEASE", flag: "rendition-lease", def: "60s", accepts: "a Go duration from 1s to 1h (e.g. 60s)",
		help: "how long a claimed rendition job stays invisible to other replicas: after a crash mid-rendition, another replica makes it once this has passed", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			if s.app.RenditionLease, err = parseDuration(v); err == nil && (s.app.RenditionLease < time.Second || s.app.RenditionLease > time.Hour) {
				err = errInvalid
			}
			return err
		}},
	{env: "CATALOG_MAX_IMPORT_BYTES", flag: "max-import-bytes", def: "1073741824", accepts: "a whole number of bytes from 1 to 5497558138880 (5 TiB)",
		help: "largest import file an upload may declare (at most CATALOG_MAX_UPLOAD_BYTES applies too)", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 || n > 5<<40 {
				return errInvalid
			}
			s.app.MaxImportBytes = n
			return nil
		}},
	{env: "CATALOG_JOB_LEASE", flag: "job-lease", def: "30s", accepts: "a Go duration from 1s to 1h (e.g. 30s)",
		help: "how long a claimed import or export stays with its worker without news: after a crash, another replica goes on with it once this has passed", cmds: cmdServe,
		set: func(s *settings, v string) (err error) {
			if s.app.JobLease, err = parseDuration(v); err == nil && (s.app.JobLease < time.Second || s.app.JobLease > time.Hour) {
				err = errInvalid
			}
			return err
		}},
	{env: "CATALOG_CORS_ALLOWED_ORIGINS", flag: "cors-allowed-origins", def: "",
		accepts: "empty, * (any origin), or origins separated by commas: scheme://host[:port] (e.g. https://admin.example.com)",
		help:    "web pages of these origins may call the API from a browser (REST, Connect, gRPC-Web); empty: none (mock: any)", cmds: cmdServe | cmdMock,
		set: func(s *settings, v string) (err error) { s.app.CORSAllowedOrigins, err = parseOrigins(v); return err }},
	{env: "CATALOG_MOCK_ALLOW_PUBLIC", flag: "mock-allow-public", def: "false", accepts: "true or false",
		help: "let catalogd mock listen on an address other than loopback (it accepts any token: anyone who reaches it acts as any tenant)", cmds: cmdMock, boolean: true,
		set: func(s *settings, v string) (err error) { s.app.MockAllowPublic, err = parseBool(v); return err }},
	{env: "CATALOG_LOG_LEVEL", flag: "log-level", def: "info", accepts: "debug, info, warn or error",
		help: "least severe log level written", cmds: cmdServe | cmdMigrate | cmdMock,
		set: func(s *settings, v string) (err error) { s.logLevel, err = parseLogLevel(v); return err }},

	// token's own flags (no environment variable).
	{flag: "tenant", def: "dev", accepts: "a non-empty string", help: "tenant_id claim", cmds: cmdToken,
		set: func(s *settings, v string) error { s.tenant = v; return nonEmpty(v) }},
	{flag: "subject", def: "dev", accepts: "a string", help: "sub claim", cmds: cmdToken,
		set: func(s *settings, v string) error { s.subject = v; return nil }},
	{flag: "scopes", def: strings.Join(app.DevScopes, " "), accepts: "scopes separated by spaces (may be empty)",
		help: "scope claim", cmds: cmdToken,
		set: func(s *settings, v string) error { s.scopes = strings.Fields(v); return nil }},
	{flag: "ttl", def: "24h", accepts: "a positive Go duration (e.g. 1h, 24h)", help: "lifetime of the token", cmds: cmdToken,
		set: func(s *settings, v string) (err error) { s.ttl, err = parseDuration(v); return err }},

	// import's and export's: the server they talk to, and their own flags.
	{env: "CATALOG_TOKEN", flag: "token", def: "", accepts: "empty, or a bearer token (a JWT, no whitespace)",
		help: "import and export: the bearer token sent to the server", secret: true, cmds: cmdImport | cmdExport,
		set: func(s *settings, v string) error { s.jobs.token = v; return parseBearer(v) }},
	{flag: "url", def: "http://localhost:8080", accepts: "the server's URL: http(s)://host[:port][/path], or host:port (http)",
		help: "the catalogd server (its HTTP port)", cmds: cmdImport | cmdExport,
		set: func(s *settings, v string) (err error) { s.jobs.url, err = parseServerURL(v); return err }},
	{flag: "format", def: "", accepts: "empty, ndjson or csv",
		help: "the file's format; empty: import reads it from the file's extension (.ndjson, .jsonl, .csv), export writes ndjson", cmds: cmdImport | cmdExport,
		set: func(s *settings, v string) error { s.jobs.format = v; return oneOf(v, "", "ndjson", "csv") }},
	{flag: "dry-run", def: "false", accepts: "true or false", boolean: true,
		help: "check and count every line, write nothing", cmds: cmdImport,
		set: func(s *settings, v string) (err error) { s.jobs.dryRun, err = parseBool(v); return err }},
	{flag: "wait", def: "false", accepts: "true or false", boolean: true,
		help: "wait for the import to finish, showing its progress, then print the summary and the failed lines (exit status 1 when any line failed)", cmds: cmdImport,
		set: func(s *settings, v string) (err error) { s.jobs.wait, err = parseBool(v); return err }},
	{flag: "types", def: "", accepts: "empty (every type), or line types separated by commas (locale, attribute, …, product)",
		help: "the line types to export", cmds: cmdExport,
		set: func(s *settings, v string) error { s.jobs.types = splitList(v); return nil }},
	{flag: "filter", def: "", accepts: `empty, or a JSON object of the product list's filters (e.g. {"statuses":["active"]})`,
		help: "which products to export", cmds: cmdExport,
		set: func(s *settings, v string) (err error) { s.jobs.filter, err = parseJSONObject(v); return err }},
	{flag: "gzip", def: "false", accepts: "true or false", boolean: true,
		help: "gzip the file (the bytes written are gzip)", cmds: cmdExport,
		set: func(s *settings, v string) (err error) { s.jobs.gzip, err = parseBool(v); return err }},
	{flag: "out", def: "", accepts: "empty (standard output), or a file path",
		help: "where the exported file goes (written whole, then checked against the export's size and SHA-256)", cmds: cmdExport,
		set: func(s *settings, v string) error { s.jobs.out = v; return nil }},
}

// errInvalid is a refusal whose reason is all in the variable's accepts text.
var errInvalid = errors.New("")

func nonEmpty(v string) error {
	if v == "" {
		return errors.New("empty")
	}
	return nil
}

func parseBool(v string) (bool, error) {
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errInvalid
}

func parseInt(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, errors.New("not a whole number")
	}
	if n < lo || n > hi {
		return 0, errors.New("out of range")
	}
	return n, nil
}

// parseRate reads a rate limit: a decimal number from 0 to 1000000.
func parseRate(v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) {
		return 0, errors.New("not a number")
	}
	if f < 0 || f > 1_000_000 {
		return 0, errors.New("out of range")
	}
	return f, nil
}

func parseDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, errors.New("not a duration")
	}
	if d <= 0 {
		return 0, errors.New("not positive")
	}
	return d, nil
}

// parseDurationIn is a duration from lo to hi.
func parseDurationIn(v string, lo, hi time.Duration) (time.Duration, error) {
	d, err := parseDuration(v)
	if err == nil && (d < lo || d > hi) {
		err = errors.New("out of range")
	}
	return d, err
}

// parsePublicURL is an origin: catalogd serves its signed URLs at /blobs/ of its HTTP port, so a
// path (a proxy's prefix) would name URLs that do not exist.
func parsePublicURL(v string) error {
	if err := parseHTTPURL(v); err != nil || v == "" {
		return err
	}
	u, _ := url.Parse(v)
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return errors.New("not an origin (no path, query, fragment or user)")
	}
	return nil
}

// parseURLTTL is a signed URL's lifetime: 1 s to 7 days (S3's own ceiling for pre-signed URLs).
func parseURLTTL(v string) (time.Duration, error) {
	d, err := parseDuration(v)
	if err == nil && (d < time.Second || d > 7*24*time.Hour) {
		err = errors.New("out of range")
	}
	return d, err
}

// parseBlobURL checks CATALOG_BLOB_URL's form; whether the store answers is checked at start-up.
func parseBlobURL(v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil {
		return errors.New("not a URL")
	}
	switch {
	case u.Scheme == "file" && strings.HasPrefix(u.Path, "/") && u.Host == "":
		return nil
	case u.Scheme == "s3" && u.Host != "":
		return nil
	}
	return errors.New("not file:///dir or s3://bucket")
}

// parseRetention is a duration where 0 is a value of its own (keep forever).
func parseRetention(v string) (time.Duration, error) {
	if v == "0" {
		return 0, nil
	}
	return parseDuration(v)
}

func parseSchedule(v string) ([]time.Duration, error) {
	parts := strings.Split(v, ",")
	out := make([]time.Duration, 0, len(parts))
	for i, p := range parts {
		d, err := parseDuration(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("item %d %q: %v", i+1, p, err)
		}
		out = append(out, d)
	}
	return out, nil
}

func parseAddr(v string) error {
	_, port, err := net.SplitHostPort(v)
	if err != nil {
		return errors.New("not host:port")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return errors.New("bad port")
	}
	return nil
}

func parseDatabaseURL(v string) error {
	if v == "" {
		return nil
	}
	if _, err := pgxpool.ParseConfig(v); err != nil {
		// pgx quotes the connection string (password masked) before the reason; keep the reason.
		msg := err.Error()
		if i := strings.LastIndex(msg, "`: "); i >= 0 {
			msg = msg[i+3:]
		}
		return errors.New(msg)
	}
	return nil
}

func parseHTTPURL(v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errInvalid
	}
	return nil
}

// parseOrigins reads a list of browser origins: "*" alone, or origins (scheme://host[:port], no
// path) separated by commas.
func parseOrigins(v string) ([]string, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	var out []string
	for _, o := range strings.Split(v, ",") {
		o = strings.TrimSuffix(strings.TrimSpace(o), "/")
		if o == "*" {
			out = append(out, o)
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
			return nil, fmt.Errorf("%q is not an origin", o)
		}
		out = append(out, o)
	}
	if len(out) > 1 && slices.Contains(out, "*") {
		return nil, errors.New("* allows every origin: give it alone")
	}
	return out, nil
}

func parseHS256Secret(v string) error {
	if v != "" && len(v) < auth.MinHS256SecretLen {
		return fmt.Errorf("%d bytes", len(v))
	}
	return nil
}

func parseSecretKey(v string) error {
	if v == "" {
		return nil
	}
	if _, err := webhooks.LoadKey(v, ""); err != nil {
		// "webhooks: CATALOG_SECRET_KEY: <reason>" (never key material): keep the reason.
		msg := err.Error()
		return errors.New(msg[strings.LastIndex(msg, ": ")+2:])
	}
	return nil
}

func parseLogLevel(v string) (slog.Level, error) {
	switch strings.ToLower(v) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, errInvalid
}

func oneOf(v string, allowed ...string) error {
	if !slices.Contains(allowed, v) {
		return errInvalid
	}
	return nil
}

// splitList reads values separated by commas, spaces around them dropped, empty ones ignored.
func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// parseBearer is a token as an Authorization header carries it: no whitespace (a token pasted with
// its line break would be refused by the server as malformed; say so here).
func parseBearer(v string) error {
	if strings.ContainsFunc(v, unicode.IsSpace) {
		return errors.New("contains whitespace")
	}
	return nil
}

// parseServerURL is the server's origin, without a trailing slash; host:port alone is http.
func parseServerURL(v string) (string, error) {
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", errInvalid
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// parseJSONObject is empty or a JSON object, kept as its text.
func parseJSONObject(v string) (json.RawMessage, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		return nil, errors.New("not a JSON object")
	}
	return json.RawMessage(v), nil
}

// configError is a value refused: it names the variable (and the flag when the value came from
// it) and says what the variable accepts.
type configError struct {
	v        *variable
	fromFlag bool
	value    string
	reason   string
}

func (e *configError) Error() string {
	var b strings.Builder
	if e.fromFlag {
		fmt.Fprintf(&b, "flag -%s", e.v.flag)
	} else {
		b.WriteString(e.v.env)
	}
	if e.v.secret {
		b.WriteString(" is not valid (value not shown")
		if e.reason != "" {
			b.WriteString(": " + e.reason)
		}
		b.WriteString(")")
	} else {
		fmt.Fprintf(&b, "=%q is not valid", e.value)
		if e.reason != "" {
			b.WriteString(" (" + e.reason + ")")
		}
	}
	b.WriteString(": ")
	if e.fromFlag && e.v.env != "" {
		b.WriteString(e.v.env + " ")
	}
	b.WriteString("accepts " + e.v.accepts)
	return b.String()
}

// rawValue keeps a flag's text; the loader parses it with the variable's parser.
type rawValue struct {
	s      string
	isBool bool
}

func (r *rawValue) String() string     { return r.s }
func (r *rawValue) Set(s string) error { r.s = s; return nil }
func (r *rawValue) IsBoolFlag() bool   { return r.isBool }

// errHelp is load's answer to -h: print the command's usage and exit 0.
var errHelp = flag.ErrHelp

// usageError is a command line that does not parse (an unknown flag, a stray argument).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// load reads the settings of command name: each variable's default, replaced by its environment
// variable when set, replaced by its flag when given. Every value refused is reported (all of
// them, joined), never replaced by the default.
func load(name string, cmd cmdSet, args []string, lookupEnv func(string) (string, bool)) (*settings, error) {
	var operands []string // the names of the command's operands
	if c := findCommand(name); c != nil {
		operands = c.operands
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	raw := map[string]*rawValue{}
	for i := range variables {
		v := &variables[i]
		if v.cmds&cmd == 0 {
			continue
		}
		r := &rawValue{isBool: v.boolean}
		raw[v.flag] = r
		fs.Var(r, v.flag, v.help)
	}
	// Operands may come before, between or after the flags (catalogd import FILE -wait); "--" ends
	// the flags.
	var ops []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, &usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		rest := fs.Args()
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			ops = append(ops, rest...)
			break
		}
		ops, args = append(ops, rest[0]), rest[1:]
	}
	if len(ops) > len(operands) {
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", ops[len(operands)])}
	}
	if len(ops) < len(operands) {
		return nil, &usageError{"missing " + operands[len(ops)]}
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	s := &settings{operands: ops}
	var errs []error
	for i := range variables {
		v := &variables[i]
		if v.cmds&cmd == 0 {
			continue
		}
		val, fromFlag := v.def, false
		if v.env != "" {
			if e, ok := lookupEnv(v.env); ok {
				val = e
			}
		}
		if given[v.flag] {
			val, fromFlag = raw[v.flag].s, true
		}
		if err := v.set(s, val); err != nil {
			errs = append(errs, &configError{v: v, fromFlag: fromFlag, value: val, reason: err.Error()})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}
