package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/store"
)

// lookup is an environment made of m only.
func lookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// cli runs catalogd in-process with the environment m.
func cli(t *testing.T, m map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e, lookup(m))
	return code, o.String(), e.String()
}

func TestEachBadValueStopsWithTheVariableAndWhatItAccepts(t *testing.T) {
	cases := []struct {
		env  map[string]string
		args []string // command and flags; serve when empty
		want string   // the whole error line
		hide string   // must not appear anywhere (secrets)
	}{
		{env: map[string]string{"CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS": "yes"},
			want: `CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS="yes" is not valid: accepts true or false`},
		{env: map[string]string{"CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS": "1"},
			want: `CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS="1" is not valid: accepts true or false`},
		{env: map[string]string{"CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS": "TRUE"},
			want: `CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS="TRUE" is not valid: accepts true or false`},
		{env: map[string]string{"CATALOG_LOG_LEVEL": "verbose"},
			want: `CATALOG_LOG_LEVEL="verbose" is not valid: accepts debug, info, warn or error`},
		{env: map[string]string{"CATALOG_LOG_LEVEL": ""},
			want: `CATALOG_LOG_LEVEL="" is not valid: accepts debug, info, warn or error`},
		{env: map[string]string{"CATALOG_WEBHOOK_WORKERS": "abc"},
			want: `CATALOG_WEBHOOK_WORKERS="abc" is not valid (not a whole number): accepts a whole number from 1 to 1024`},
		{env: map[string]string{"CATALOG_WEBHOOK_WORKERS": "0"},
			want: `CATALOG_WEBHOOK_WORKERS="0" is not valid (out of range): accepts a whole number from 1 to 1024`},
		{env: map[string]string{"CATALOG_WEBHOOK_WORKERS": "1025"},
			want: `CATALOG_WEBHOOK_WORKERS="1025" is not valid (out of range): accepts a whole number from 1 to 1024`},
		{env: map[string]string{"CATALOG_SHUTDOWN_GRACE": "6m"},
			want: `CATALOG_SHUTDOWN_GRACE="6m" is not valid (too long): accepts a positive Go duration of at most 5m (e.g. 10s, 30s)`},
		{env: map[string]string{"CATALOG_SHUTDOWN_GRACE": "0s"},
			want: `CATALOG_SHUTDOWN_GRACE="0s" is not valid (not positive): accepts a positive Go duration of at most 5m (e.g. 10s, 30s)`},
		{env: map[string]string{"CATALOG_WEBHOOK_SUSPEND_AFTER_FAILURES": "1.5"},
			want: `CATALOG_WEBHOOK_SUSPEND_AFTER_FAILURES="1.5" is not valid (not a whole number): accepts a whole number from 1 to 1000000`},
		{env: map[string]string{"CATALOG_WEBHOOK_SUSPEND_AFTER_FAILURES": "0"},
			want: `CATALOG_WEBHOOK_SUSPEND_AFTER_FAILURES="0" is not valid (out of range): accepts a whole number from 1 to 1000000`},
		{env: map[string]string{"CATALOG_WEBHOOK_SUSPEND_AFTER": "120"},
			want: `CATALOG_WEBHOOK_SUSPEND_AFTER="120" is not valid (not a duration): accepts a positive Go duration (e.g. 90m, 120h)`},
		{env: map[string]string{"CATALOG_WEBHOOK_SUSPEND_AFTER": "-1h"},
			want: `CATALOG_WEBHOOK_SUSPEND_AFTER="-1h" is not valid (not positive): accepts a positive Go duration (e.g. 90m, 120h)`},
		{env: map[string]string{"CATALOG_SCHEDULER_INTERVAL": "0s"},
			want: `CATALOG_SCHEDULER_INTERVAL="0s" is not valid (not positive): accepts a positive Go duration (e.g. 200ms, 1s)`},
		{env: map[string]string{"CATALOG_SCHEDULER_INTERVAL": "fast"},
			want: `CATALOG_SCHEDULER_INTERVAL="fast" is not valid (not a duration): accepts a positive Go duration (e.g. 200ms, 1s)`},
		{env: map[string]string{"CATALOG_WEBHOOK_RETRY_SCHEDULE": "5s,,5m"},
			want: `CATALOG_WEBHOOK_RETRY_SCHEDULE="5s,,5m" is not valid (item 2 "": not a duration): accepts one or more positive Go durations separated by commas (e.g. 5s,5m,1h)`},
		{env: map[string]string{"CATALOG_WEBHOOK_RETRY_SCHEDULE": "5s,-5m"},
			want: `CATALOG_WEBHOOK_RETRY_SCHEDULE="5s,-5m" is not valid (item 2 "-5m": not positive): accepts one or more positive Go durations separated by commas (e.g. 5s,5m,1h)`},
		{env: map[string]string{"CATALOG_WEBHOOK_RETRY_SCHEDULE": ""},
			want: `CATALOG_WEBHOOK_RETRY_SCHEDULE="" is not valid (item 1 "": not a duration): accepts one or more positive Go durations separated by commas (e.g. 5s,5m,1h)`},
		{env: map[string]string{"CATALOG_HTTP_ADDR": "8080"},
			want: `CATALOG_HTTP_ADDR="8080" is not valid (not host:port): accepts host:port (port 0-65535; 0 picks a free one)`},
		{env: map[string]string{"CATALOG_HTTP_ADDR": "127.0.0.1:70000"},
			want: `CATALOG_HTTP_ADDR="127.0.0.1:70000" is not valid (bad port): accepts host:port (port 0-65535; 0 picks a free one)`},
		{env: map[string]string{"CATALOG_GRPC_ADDR": ""},
			want: `CATALOG_GRPC_ADDR="" is not valid (not host:port): accepts host:port (port 0-65535; 0 picks a free one)`},
		{env: map[string]string{"DATABASE_URL": "postgres://app:hunter2hunter2@db:99999/catalog"},
			want: `DATABASE_URL is not valid (value not shown: invalid port): accepts empty, or a PostgreSQL URL (postgres://…) or key=value connection string`,
			hide: "hunter2"},
		{env: map[string]string{"DATABASE_URL": "mysql://db/catalog"},
			want: `DATABASE_URL is not valid (value not shown: failed to parse as keyword/value (invalid keyword/value)): accepts empty, or a PostgreSQL URL (postgres://…) or key=value connection string`},
		{env: map[string]string{"CATALOG_JWKS_URL": "ftp://idp.example/jwks"},
			want: `CATALOG_JWKS_URL="ftp://idp.example/jwks" is not valid: accepts empty, or an absolute http(s) URL`},
		{env: map[string]string{"CATALOG_JWKS_URL": "/.well-known/jwks.json"},
			want: `CATALOG_JWKS_URL="/.well-known/jwks.json" is not valid: accepts empty, or an absolute http(s) URL`},
		{env: map[string]string{"CATALOG_PUBLIC_URL": "https://proxy.example/catalog"},
			want: `CATALOG_PUBLIC_URL="https://proxy.example/catalog" is not valid (not an origin (no path, query, fragment or user)): accepts empty, or an http(s) origin: scheme, host and port only (e.g. https://catalog.example.com)`},
		{env: map[string]string{"CATALOG_CORS_ALLOWED_ORIGINS": "https://admin.example.com/app"},
			want: `CATALOG_CORS_ALLOWED_ORIGINS="https://admin.example.com/app" is not valid ("https://admin.example.com/app" is not an origin): accepts empty, * (any origin), or origins separated by commas: scheme://host[:port] (e.g. https://admin.example.com)`},
		{env: map[string]string{"CATALOG_CORS_ALLOWED_ORIGINS": "https://a.example,*"},
			want: `CATALOG_CORS_ALLOWED_ORIGINS="https://a.example,*" is not valid (* allows every origin: give it alone): accepts empty, * (any origin), or origins separated by commas: scheme://host[:port] (e.g. https://admin.example.com)`},
		{env: map[string]string{"CATALOG_BLOB_URL": "gs://bucket"},
			want: `CATALOG_BLOB_URL="gs://bucket" is not valid (not file:///dir or s3://bucket): accepts empty, file:///absolute/dir, or s3://bucket?region=…[&endpoint=…&use_path_style=true] (credentials from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)`},
		{env: map[string]string{"CATALOG_JWT_HS256_SECRET": "too-short-secret"},
			want: `CATALOG_JWT_HS256_SECRET is not valid (value not shown: 16 bytes): accepts empty, or a secret of at least 32 bytes`,
			hide: "too-short-secret"},
		{env: map[string]string{"CATALOG_SECRET_KEY": "not base64!"},
			want: `CATALOG_SECRET_KEY is not valid (value not shown: not valid base64): accepts empty, or base64 of exactly 32 bytes`,
			hide: "not base64!"},
		{env: map[string]string{"CATALOG_SECRET_KEY": base64.StdEncoding.EncodeToString(make([]byte, 16))},
			want: `CATALOG_SECRET_KEY is not valid (value not shown: must be base64 of 32 bytes, got 16 bytes): accepts empty, or base64 of exactly 32 bytes`},
		{env: map[string]string{"CATALOG_JWT_ISSUER": ""},
			want: `CATALOG_JWT_ISSUER="" is not valid (empty): accepts a non-empty string`},
		{env: map[string]string{"CATALOG_JWT_AUDIENCE": ""},
			want: `CATALOG_JWT_AUDIENCE="" is not valid (empty): accepts a non-empty string`},
		{env: map[string]string{"CATALOG_DATABASE_POOLER": "pgbouncer"},
			want: `CATALOG_DATABASE_POOLER="pgbouncer" is not valid (not a pooler mode): accepts none, transaction or session`},
		{env: map[string]string{"CATALOG_DATABASE_POOLER": ""},
			want: `CATALOG_DATABASE_POOLER="" is not valid (not a pooler mode): accepts none, transaction or session`},
		{env: map[string]string{"DATABASE_READ_URL": "standby:5432"},
			want: `DATABASE_READ_URL is not valid (value not shown: URL 1 is not a postgres:// URL with a host): accepts empty, or one or more PostgreSQL URLs (postgres://…) separated by commas`,
			hide: "standby:5432"},
		{env: map[string]string{"DATABASE_READ_URL": "postgres://u:pw@a/db,postgres://u:pw@b/db?pool_max_conns=many"},
			want: `DATABASE_READ_URL is not valid (value not shown: URL 2: cannot parse pool_max_conns (strconv.ParseInt: parsing "many": invalid syntax)): accepts empty, or one or more PostgreSQL URLs (postgres://…) separated by commas`,
			hide: "pw"},
		{env: map[string]string{"CATALOG_READ_MAX_WAIT": "0s"},
			want: `CATALOG_READ_MAX_WAIT="0s" is not valid (not positive): accepts a Go duration from 1ms to 10s (e.g. 100ms)`},
		{env: map[string]string{"CATALOG_READ_MAX_LAG": "2h"},
			want: `CATALOG_READ_MAX_LAG="2h" is not valid (out of range): accepts a Go duration from 10ms to 1h (e.g. 2s)`},
		{env: map[string]string{"CATALOG_DATA_DIR": ""},
			want: `CATALOG_DATA_DIR="" is not valid (empty): accepts a directory path (created when missing)`},
		// Flags name the flag and the variable it stands for.
		{args: []string{"serve", "-webhook-workers=abc"},
			want: `flag -webhook-workers="abc" is not valid (not a whole number): CATALOG_WEBHOOK_WORKERS accepts a whole number from 1 to 1024`},
		{args: []string{"-webhook-allow-private-targets=yes"},
			want: `flag -webhook-allow-private-targets="yes" is not valid: CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS accepts true or false`},
		{args: []string{"serve", "-jwt-hs256-secret", "0123456789"},
			want: `flag -jwt-hs256-secret is not valid (value not shown: 10 bytes): CATALOG_JWT_HS256_SECRET accepts empty, or a secret of at least 32 bytes`,
			hide: "0123456789"},
		// Every command reads its variables strictly.
		{env: map[string]string{"CATALOG_LOG_LEVEL": "loud"}, args: []string{"migrate"},
			want: `CATALOG_LOG_LEVEL="loud" is not valid: accepts debug, info, warn or error`},
		{env: map[string]string{"DATABASE_URL": "mysql://db"}, args: []string{"migrate"},
			want: `DATABASE_URL is not valid (value not shown: failed to parse as keyword/value (invalid keyword/value)): accepts empty, or a PostgreSQL URL (postgres://…) or key=value connection string`},
		{env: map[string]string{"CATALOG_JWT_HS256_SECRET": "short"}, args: []string{"token"},
			want: `CATALOG_JWT_HS256_SECRET is not valid (value not shown: 5 bytes): accepts empty, or a secret of at least 32 bytes`},
		{args: []string{"token", "-ttl", "0s"},
			want: `flag -ttl="0s" is not valid (not positive): accepts a positive Go duration (e.g. 1h, 24h)`},
		{args: []string{"token", "-ttl", "1 day"},
			want: `flag -ttl="1 day" is not valid (not a duration): accepts a positive Go duration (e.g. 1h, 24h)`},
		{args: []string{"token", "-tenant="},
			want: `flag -tenant="" is not valid (empty): accepts a non-empty string`},
	}
	for _, c := range cases {
		name := strings.Join(c.args, " ")
		for k, v := range c.env {
			name += " " + k + "=" + v
		}
		t.Run(name, func(t *testing.T) {
			// The data dir of a temporary directory: nothing may start or be created anyway.
			env := map[string]string{"CATALOG_DATA_DIR": t.TempDir()}
			for k, v := range c.env {
				env[k] = v
			}
			code, stdout, stderr := cli(t, env, c.args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout: %q", stdout)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			cmd := "serve"
			if len(c.args) > 0 && !strings.HasPrefix(c.args[0], "-") {
				cmd = c.args[0]
			}
			want := []string{"catalogd: " + c.want, "catalogd: run 'catalogd " + cmd + " -h' for every setting and what it accepts"}
			if !reflect.DeepEqual(lines, want) {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, strings.Join(want, "\n"))
			}
			if c.hide != "" && strings.Contains(stderr, c.hide) {
				t.Errorf("the secret value is printed: %s", stderr)
			}
			if strings.Contains(stderr, "HS256Secret") {
				t.Errorf("an error names a Go field: %s", stderr)
			}
		})
	}
}

func TestEveryBadValueIsReportedAtOnce(t *testing.T) {
	env := map[string]string{"CATALOG_WEBHOOK_WORKERS": "abc", "CATALOG_LOG_LEVEL": "verbose",
		"CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS": "yes"}
	code, _, stderr := cli(t, env, "serve")
	if code != 2 {
		t.Fatalf("exit code %d", code)
	}
	for k := range env {
		if !strings.Contains(stderr, "catalogd: "+k+"=") {
			t.Errorf("%s not reported:\n%s", k, stderr)
		}
	}
}

func TestDefaults(t *testing.T) {
	s, err := load("serve", cmdServe, nil, lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := app.Config{HTTPAddr: "127.0.0.1:8080", GRPCAddr: "127.0.0.1:9090", DataDir: "./.data",
		JWTIssuer: "catalogd-dev", JWTAudience: "catalog", WebhookWorkers: 64, SchedulerInterval: time.Second,
		ShutdownGrace: 10 * time.Second}
	want.WebhookPolicy.Schedule = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
		5 * time.Hour, 10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}
	want.WebhookPolicy.SuspendAfterFailures = 20
	want.WebhookPolicy.SuspendAfter = 120 * time.Hour
	want.RateLimitRPS, want.RateLimitBurst = 200, 400
	want.Retention = 720 * time.Hour
	want.HistoryRetention = 8760 * time.Hour
	want.WebhookLease = time.Minute
	want.MaxUploadBytes, want.UploadURLTTL, want.DownloadURLTTL = 1<<30, time.Hour, 15*time.Minute
	want.RenditionLease = time.Minute
	want.MaxImportBytes, want.JobLease = 1<<30, 30*time.Second
	want.DatabasePooler = store.PoolerNone
	want.ReadMaxWait, want.ReadMaxLag = store.DefaultReadMaxWait, store.DefaultReadMaxLag
	if !reflect.DeepEqual(s.app, want) {
		t.Errorf("defaults:\n%+v\nwant\n%+v", s.app, want)
	}
	if s.logLevel != slog.LevelInfo {
		t.Errorf("log level %v", s.logLevel)
	}
	tok, err := load("token", cmdToken, nil, lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if tok.tenant != "dev" || tok.subject != "dev" || tok.ttl != 24*time.Hour || !slices.Equal(tok.scopes, app.DevScopes) {
		t.Errorf("token defaults: %+v", tok)
	}
}

// catalogd mock keeps the per-tenant rate limit (the serve defaults) and listens on loopback unless
// CATALOG_MOCK_ALLOW_PUBLIC (or -mock-allow-public) says otherwise (app.Start refuses the rest).
func TestMockDefaults(t *testing.T) {
	s, err := load("mock", cmdMock, nil, lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if s.app.RateLimitRPS != 200 || s.app.RateLimitBurst != 400 || s.app.MockAllowPublic ||
		s.app.HTTPAddr != "127.0.0.1:8080" || s.app.GRPCAddr != "127.0.0.1:9090" {
		t.Errorf("mock defaults: %+v", s.app)
	}
	for _, c := range []struct {
		env  map[string]string
		args []string
	}{
		{map[string]string{"CATALOG_MOCK_ALLOW_PUBLIC": "true"}, nil},
		{nil, []string{"-mock-allow-public"}},
	} {
		if s, err := load("mock", cmdMock, c.args, lookup(c.env)); err != nil || !s.app.MockAllowPublic {
			t.Errorf("%v %v: %v", c.env, c.args, err)
		}
	}
}

func TestFlagWinsOverVariableWinsOverDefault(t *testing.T) {
	env := map[string]string{"CATALOG_WEBHOOK_WORKERS": "3", "CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
		"CATALOG_LOG_LEVEL": "DEBUG", "CATALOG_WEBHOOK_RETRY_SCHEDULE": "1s, 2m"}
	s, err := load("serve", cmdServe, nil, lookup(env))
	if err != nil {
		t.Fatal(err)
	}
	if s.app.WebhookWorkers != 3 || !s.app.WebhookAllowPrivate || s.logLevel != slog.LevelDebug ||
		!slices.Equal(s.app.WebhookPolicy.Schedule, []time.Duration{time.Second, 2 * time.Minute}) {
		t.Errorf("from the environment: %+v %v", s.app, s.logLevel)
	}
	s, err = load("serve", cmdServe, []string{"-webhook-workers", "5", "-webhook-allow-private-targets=false", "-log-level=error"}, lookup(env))
	if err != nil {
		t.Fatal(err)
	}
	if s.app.WebhookWorkers != 5 || s.app.WebhookAllowPrivate || s.logLevel != slog.LevelError {
		t.Errorf("flags over the environment: %+v %v", s.app, s.logLevel)
	}
	// A bool flag alone means true.
	s, err = load("serve", cmdServe, []string{"-webhook-allow-private-targets"}, lookup(nil))
	if err != nil || !s.app.WebhookAllowPrivate {
		t.Errorf("-webhook-allow-private-targets alone: %v %v", s, err)
	}
}

func TestHelp(t *testing.T) {
	var first string
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}, {"help", "-h"}} {
		code, stdout, stderr := cli(t, nil, args...)
		if code != 0 || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if first == "" {
			first = stdout
		} else if stdout != first {
			t.Errorf("%v prints another text than help", args)
		}
	}
	if !strings.HasPrefix(first, "catalogd is a product catalog service") {
		t.Errorf("help does not say what catalogd is:\n%s", first)
	}
	var listed []string
	cmds := first[strings.Index(first, "\nCommands:\n"):]
	cmds = cmds[:strings.Index(cmds, "\n\n")]
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+) +\S`).FindAllStringSubmatch(cmds, -1) {
		listed = append(listed, m[1])
	}
	if want := []string{"serve", "mock", "migrate", "token", "import", "export", "version", "help"}; !slices.Equal(listed, want) {
		t.Errorf("commands listed: %v, want %v", listed, want)
	}
	if !strings.Contains(first, "  serve     run the service (the default command)\n") {
		t.Errorf("serve is not shown as the default:\n%s", first)
	}
	if !strings.Contains(first, "  mock      run the spec's mock server") {
		t.Errorf("help does not list mock:\n%s", first)
	}
	if !strings.Contains(first, "Run 'catalogd <command> -h' for its flags.") {
		t.Errorf("help does not point at the commands' flags")
	}
	for _, v := range variables {
		if v.env != "" && !strings.Contains(first, "\n  "+v.env+" (default "+shownDefault(v)+")\n") {
			t.Errorf("help does not list %s with its default", v.env)
		}
	}
}

func TestEachCommandsHelpListsItsOwnFlags(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)(?:  \$([A-Z0-9_]+))? \(default (.*)\)$`)
	for _, c := range []struct {
		name string
		set  cmdSet
		some []string // flags it must have
		none []string // flags of other commands
	}{
		{"serve", cmdServe, []string{"http-addr", "webhook-workers", "log-level", "jwt-hs256-secret"}, []string{"tenant", "ttl"}},
		{"migrate", cmdMigrate, []string{"database-url", "data-dir", "log-level"}, []string{"http-addr", "jwt-issuer", "tenant"}},
		{"token", cmdToken, []string{"tenant", "subject", "scopes", "ttl", "data-dir", "jwt-hs256-secret"},
			[]string{"http-addr", "webhook-workers", "database-url", "log-level"}},
		{"import", cmdImport, []string{"url", "token", "format", "dry-run", "wait"}, []string{"http-addr", "out", "types", "tenant"}},
		{"export", cmdExport, []string{"url", "token", "format", "types", "filter", "gzip", "out"}, []string{"http-addr", "wait", "dry-run"}},
		{"version", 0, nil, []string{"http-addr"}},
	} {
		for _, args := range [][]string{{c.name, "-h"}, {c.name, "--help"}, {"help", c.name}} {
			code, stdout, stderr := cli(t, nil, args...)
			if code != 0 || stderr != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			}
			if !strings.HasPrefix(stdout, "Usage: catalogd "+c.name) {
				t.Errorf("%v:\n%s", args, stdout)
			}
			var got []string
			for _, m := range flagLine.FindAllStringSubmatch(stdout, -1) {
				got = append(got, m[1])
				v := findVariable(m[1])
				if v == nil {
					t.Errorf("%v lists an unknown flag -%s", args, m[1])
					continue
				}
				if m[2] != v.env || m[3] != shownDefault(*v) {
					t.Errorf("%v: -%s shows $%s default %q, want $%s default %q", args, m[1], m[2], m[3], v.env, shownDefault(*v))
				}
			}
			var want []string
			for _, v := range variables {
				if v.cmds&c.set != 0 {
					want = append(want, v.flag)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%v lists %v, want %v", args, got, want)
			}
			for _, f := range c.some {
				if !slices.Contains(got, f) {
					t.Errorf("%v lacks -%s", args, f)
				}
			}
			for _, f := range c.none {
				if slices.Contains(got, f) {
					t.Errorf("%v lists -%s, another command's flag", args, f)
				}
			}
		}
	}
}

func findVariable(flag string) *variable {
	for i := range variables {
		if variables[i].flag == flag {
			return &variables[i]
		}
	}
	return nil
}

func TestEveryDefaultParses(t *testing.T) {
	for _, v := range variables {
		if err := v.set(&settings{}, v.def); err != nil {
			t.Errorf("-%s: default %q: %v", v.flag, v.def, err)
		}
		if v.flag == "" || v.accepts == "" || v.help == "" || v.cmds == 0 {
			t.Errorf("incomplete entry %+v", v)
		}
	}
}

func TestVersion(t *testing.T) {
	code, stdout, stderr := cli(t, nil, "version")
	bi, ok := debug.ReadBuildInfo()
	want := "catalogd " + moduleVersion(bi, ok) + "\ncommit " + buildCommit(commit, bi, ok) + "\ninterface 1.1.0\n" +
		runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if code != 0 || stderr != "" || stdout != want {
		t.Errorf("version: %d %q %q, want %q", code, stdout, stderr, want)
	}
	if _, out2, _ := cli(t, nil, "--version"); out2 != stdout {
		t.Errorf("--version: %q", out2)
	}
	for _, c := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "dev"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "dev"},
		{&debug.BuildInfo{Main: debug.Module{Version: ""}}, true, "dev"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, true, "v1.4.0"},
	} {
		if got := moduleVersion(c.bi, c.ok); got != c.want {
			t.Errorf("moduleVersion(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
}

// The commit: the Makefile's stamp (-X main.commit) wins, then the go command's vcs.revision (with
// -buildvcs), marked when the tree was modified; else "unknown". test/e2e checks a stamped binary.
func TestBuildCommit(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	for _, c := range []struct {
		stamped string
		bi      *debug.BuildInfo
		ok      bool
		want    string
	}{
		{"", nil, false, "unknown"},
		{"", vcs(), true, "unknown"},
		{"", vcs("vcs.revision", rev, "vcs.modified", "false"), true, rev},
		{"", vcs("vcs.revision", rev, "vcs.modified", "true"), true, rev + "-modified"},
		{"feedface-modified", vcs("vcs.revision", rev), true, "feedface-modified"},
		{"feedface", nil, false, "feedface"},
	} {
		if got := buildCommit(c.stamped, c.bi, c.ok); got != c.want {
			t.Errorf("buildCommit(%q, %+v) = %q, want %q", c.stamped, c.bi, got, c.want)
		}
	}
}

func TestUnknownCommandOrArgument(t *testing.T) {
	code, stdout, stderr := cli(t, nil, "frobnicate")
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "catalogd: unknown command \"frobnicate\"\n\ncatalogd is a product catalog service") ||
		!strings.Contains(stderr, "Commands:") {
		t.Errorf("unknown command: %d %q\n%s", code, stdout, stderr)
	}
	code, _, stderr = cli(t, nil, "help", "frobnicate")
	if code != 2 || !strings.HasPrefix(stderr, "catalogd: help frobnicate: no such command\n") {
		t.Errorf("help frobnicate: %d\n%s", code, stderr)
	}
	code, _, stderr = cli(t, nil, "serve", "-no-such-flag")
	if code != 2 || stderr != "catalogd serve: flag provided but not defined: -no-such-flag\nRun 'catalogd serve -h' for its flags.\n" {
		t.Errorf("unknown flag: %d %q", code, stderr)
	}
	code, _, stderr = cli(t, nil, "token", "acme")
	if code != 2 || stderr != "catalogd token: unexpected argument \"acme\"\nRun 'catalogd token -h' for its flags.\n" {
		t.Errorf("stray argument: %d %q", code, stderr)
	}
}

func TestTokenWithoutASecretSaysWhy(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := cli(t, map[string]string{"CATALOG_DATA_DIR": dir}, "token")
	want := "catalogd token: no development secret in " + dir + " (CATALOG_DATA_DIR=" + dir + "): run `catalogd serve` once " +
		"with this data directory (it makes the secret), or set CATALOG_DATA_DIR to the running service's data directory, " +
		"or CATALOG_JWT_HS256_SECRET to its secret\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Errorf("got %d %q\n%s\nwant\n%s", code, stdout, stderr, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("token made files: %v", entries)
	}

	// The default data dir is ./.data, resolved like serve resolves it; the message shows both.
	t.Chdir(dir)
	code, _, stderr = cli(t, nil, "token")
	abs, _ := filepath.Abs(".data")
	if code != 1 || !strings.HasPrefix(stderr, "catalogd token: no development secret in "+abs+" (CATALOG_DATA_DIR=./.data): ") {
		t.Errorf("default data dir: %d %s", code, stderr)
	}
	if _, err := os.Stat(".data"); !os.IsNotExist(err) {
		t.Errorf("token made the data dir: %v", err)
	}

	// Only a JWKS: serve accepts no HS256 token at all.
	code, _, stderr = cli(t, map[string]string{"CATALOG_DATA_DIR": dir, "CATALOG_JWKS_URL": "https://idp.example/jwks.json"}, "token")
	want = "catalogd token: no HS256 secret to sign with: CATALOG_JWKS_URL is set and CATALOG_JWT_HS256_SECRET is not, " +
		"so the service accepts only tokens whose keys https://idp.example/jwks.json serves; get a token from that " +
		"identity provider, or set CATALOG_JWT_HS256_SECRET for both serve and token\n"
	if code != 1 || stderr != want {
		t.Errorf("JWKS: %d\n%s\nwant\n%s", code, stderr, want)
	}

	// A damaged secret file is named.
	if err := os.WriteFile(filepath.Join(dir, devSecretFile), []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = cli(t, map[string]string{"CATALOG_DATA_DIR": dir}, "token")
	if code != 1 || stderr != "catalogd token: "+filepath.Join(dir, devSecretFile)+" is not a development secret (shorter than 32 bytes): `catalogd serve` replaces it with a new one\n" {
		t.Errorf("short secret file: %d %q", code, stderr)
	}
}

// verify checks tok the way a server configured like s checks it.
func verify(t *testing.T, secret string, s *settings, tok string) *auth.Principal {
	t.Helper()
	v, err := auth.New(context.Background(), auth.Config{HS256Secret: secret, Issuer: s.app.JWTIssuer, Audience: s.app.JWTAudience})
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Verify(context.Background(), tok)
	if err != nil {
		t.Fatalf("the server refuses the token: %v", err)
	}
	return p
}

func TestTokenSignsWithTheSecretServeMade(t *testing.T) {
	t.Chdir(t.TempDir())
	// What serve does at start-up with no JWT setting, in this directory with the default data dir.
	served, err := load("serve", cmdServe, nil, lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	secret, devFile, err := hs256Secret(served.app, true)
	if err != nil || devFile == "" {
		t.Fatalf("serve's secret: %q %v", devFile, err)
	}
	if b, _ := os.ReadFile(filepath.Join(".data", "dev-jwt-secret")); strings.TrimSpace(string(b)) != secret {
		t.Fatalf("serve's secret is not the data dir's dev-jwt-secret")
	}

	code, stdout, stderr := cli(t, nil, "token")
	if code != 0 || stderr != "" {
		t.Fatalf("token: %d %s", code, stderr)
	}
	tok := strings.TrimSuffix(stdout, "\n")
	if strings.ContainsAny(tok, " \n\t") || tok == "" {
		t.Fatalf("stdout is not one token: %q", stdout)
	}
	p := verify(t, secret, served, tok)
	if p.Tenant != "dev" || p.Subject != "dev" || !slices.Equal(p.Scopes, app.DevScopes) {
		t.Errorf("principal %+v", p)
	}

	code, stdout, _ = cli(t, nil, "token", "-tenant", "acme", "-subject", "ci", "-scopes", "catalog:read", "-ttl", "1h")
	if code != 0 {
		t.Fatalf("token with flags: %d", code)
	}
	p = verify(t, secret, served, strings.TrimSpace(stdout))
	if p.Tenant != "acme" || p.Subject != "ci" || !slices.Equal(p.Scopes, []string{"catalog:read"}) {
		t.Errorf("principal %+v", p)
	}

	// A second start of serve keeps the secret: earlier tokens stay valid.
	again, _, err := hs256Secret(served.app, true)
	if err != nil || again != secret {
		t.Errorf("serve's second start changed the secret: %v", err)
	}

	// CATALOG_JWT_HS256_SECRET wins over the development secret, for serve and token alike.
	env := map[string]string{"CATALOG_JWT_HS256_SECRET": "an-explicit-secret-of-more-than-32-bytes",
		"CATALOG_JWT_ISSUER": "acme-idp", "CATALOG_JWT_AUDIENCE": "acme"}
	configured, err := load("serve", cmdServe, nil, lookup(env))
	if err != nil {
		t.Fatal(err)
	}
	if s, devFile, _ := hs256Secret(configured.app, true); s != env["CATALOG_JWT_HS256_SECRET"] || devFile != "" {
		t.Errorf("serve with a configured secret uses %q (dev file %q)", s, devFile)
	}
	_, stdout, _ = cli(t, env, "token")
	verify(t, env["CATALOG_JWT_HS256_SECRET"], configured, strings.TrimSpace(stdout))
}

func TestDevBanner(t *testing.T) {
	for addr, url := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/v1/locales",
		"[::]:18080":     "http://127.0.0.1:18080/v1/locales",
		"0.0.0.0:80":     "http://127.0.0.1:80/v1/locales",
		"[::1]:8080":     "http://[::1]:8080/v1/locales",
	} {
		var b bytes.Buffer
		writeDevBanner(&b, "aaa.bbb.ccc", addr, "./bin/catalogd")
		lines := strings.Split(b.String(), "\n")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, devBannerTitle) })
		if i < 0 || lines[i] != "Development token (tenant dev, every scope; valid 24 h):" || lines[i+1] != "aaa.bbb.ccc" {
			t.Fatalf("banner:\n%s", b.String())
		}
		if !strings.Contains(b.String(), "\n  curl -H \"Authorization: Bearer aaa.bbb.ccc\" "+url+"\n") {
			t.Errorf("%s: no curl line for %s:\n%s", addr, url, b.String())
		}
		if !strings.Contains(b.String(), "\nAnother one at any time: TOKEN=$(./bin/catalogd token)   (from this directory, or with the same CATALOG_DATA_DIR)\n") {
			t.Errorf("no TOKEN=$(./bin/catalogd token) line:\n%s", b.String())
		}
	}
}

// The banner's `TOKEN=$(… token)` names a command that runs this binary from the working directory
// (test/e2e runs the one `make run` prints).
func TestSelfCommand(t *testing.T) {
	for arg0, want := range map[string]string{
		"bin/catalogd":                              "./bin/catalogd",
		"./bin/catalogd":                            "./bin/catalogd",
		"../bin/catalogd":                           "../bin/catalogd",
		"/usr/local/bin/catalogd":                   "/usr/local/bin/catalogd",
		"catalogd":                                  "catalogd",
		"/tmp/go-build1234/b001/exe/catalogd":       "go run ./cmd/catalogd",
		"/home/me/tmp/go-build99/b001/exe/catalogd": "go run ./cmd/catalogd",
		"/opt/my apps/catalogd":                     "'/opt/my apps/catalogd'",
		"/opt/it's/catalogd":                        `'/opt/it'\''s/catalogd'`,
	} {
		if got := selfCommand(arg0); got != want {
			t.Errorf("selfCommand(%q) = %q, want %q", arg0, got, want)
		}
	}
}

// TestReadmeListsEveryVariable keeps README.md's configuration table in step with the table the
// loader and the help are made from: one row per variable, its default, what it accepts.
func TestReadmeListsEveryVariable(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	start := strings.Index(text, "\n## Configuration\n")
	if start < 0 {
		t.Fatal("README.md has no Configuration section")
	}
	section := text[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	rows := map[string][]string{}
	var order []string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		name := strings.Trim(cells[0], "`")
		rows[name] = cells
		order = append(order, name)
	}
	var want []string
	for _, v := range variables {
		if v.env == "" {
			continue
		}
		want = append(want, v.env)
		cells, ok := rows[v.env]
		if !ok {
			t.Errorf("README.md's configuration table lacks %s", v.env)
			continue
		}
		if len(cells) != 4 {
			t.Errorf("README row of %s: want 4 cells (variable, default, accepts, meaning), got %q", v.env, cells)
			continue
		}
		def := "empty"
		if v.def != "" {
			def = "`" + v.def + "`"
		}
		if cells[1] != def {
			t.Errorf("README gives %s the default %s, the code %s", v.env, cells[1], def)
		}
		if got := strings.ReplaceAll(cells[2], "`", ""); got != v.accepts {
			t.Errorf("README says %s accepts %q, the code %q", v.env, got, v.accepts)
		}
	}
	if !slices.Equal(order, want) {
		t.Errorf("README's variables %v, the code's %v (same set, same order)", order, want)
	}
}

// The rate limit: a decimal rate, 0 turns it off; anything else is refused naming the variable.
func TestRateLimitVariables(t *testing.T) {
	s, err := load("serve", cmdServe, nil, lookup(map[string]string{"CATALOG_RATE_LIMIT_RPS": "0.5", "CATALOG_RATE_LIMIT_BURST": "3"}))
	if err != nil || s.app.RateLimitRPS != 0.5 || s.app.RateLimitBurst != 3 {
		t.Fatalf("%v %+v", err, s)
	}
	if s, err = load("serve", cmdServe, nil, lookup(map[string]string{"CATALOG_RATE_LIMIT_RPS": "0"})); err != nil || s.app.RateLimitRPS != 0 {
		t.Fatalf("off: %v", err)
	}
	for env, v := range map[string]string{"CATALOG_RATE_LIMIT_RPS": "-1", "CATALOG_RATE_LIMIT_BURST": "0"} {
		if _, err := load("serve", cmdServe, nil, lookup(map[string]string{env: v})); err == nil || !strings.Contains(err.Error(), env) {
			t.Errorf("%s=%s: %v", env, v, err)
		}
	}
	for _, v := range []string{"NaN", "fast", "2e6"} {
		if _, err := load("serve", cmdServe, nil, lookup(map[string]string{"CATALOG_RATE_LIMIT_RPS": v})); err == nil {
			t.Errorf("CATALOG_RATE_LIMIT_RPS=%s accepted", v)
		}
	}
}

// Retention: 0 keeps everything (no pruner); a negative or malformed value is refused naming the
// variable.
func TestRetentionVariable(t *testing.T) {
	for v, want := range map[string]time.Duration{"0": 0, "30s": 30 * time.Second, "2160h": 2160 * time.Hour} {
		s, err := load("serve", cmdServe, nil, lookup(map[string]string{"CATALOG_RETENTION": v}))
		if err != nil || s.app.Retention != want {
			t.Errorf("CATALOG_RETENTION=%s: %v %v, want %v", v, err, s.app.Retention, want)
		}
	}
	for _, v := range []string{"-1h", "0s0x", "forever", "", "30"} {
		if _, err := load("serve", cmdServe, nil, lookup(map[string]string{"CATALOG_RETENTION": v})); err == nil ||
			!strings.Contains(err.Error(), "CATALOG_RETENTION") {
			t.Errorf("CATALOG_RETENTION=%q: %v, want refused", v, err)
		}
	}
}
