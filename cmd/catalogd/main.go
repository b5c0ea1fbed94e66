// Command catalogd is the product catalog service.
//
//	catalogd [serve]   run the service (default)
//	catalogd migrate   apply the database migrations and exit
//	catalogd token     mint a development token (HS256)
//
// Every setting is an environment variable and also a flag; `catalogd <command> -h` lists them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/pgembed"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/webhooks"
)

func main() {
	cmd := "serve"
	args := os.Args[1:]
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(args)
	case "migrate":
		err = migrate(args)
	case "token":
		err = token(args)
	default:
		err = fmt.Errorf("unknown command %q: use serve, migrate or token", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogd:", err)
		os.Exit(1)
	}
}

func env(k, def string) string {
	if v, ok := os.LookupEnv(k); ok {
		return v
	}
	return def
}

// configFlags declares the configuration of DESIGN.md, each variable also a flag.
func configFlags(fs *flag.FlagSet) *app.Config {
	c := &app.Config{}
	fs.StringVar(&c.HTTPAddr, "http-addr", env("CATALOG_HTTP_ADDR", "127.0.0.1:8080"), "REST gateway and operational endpoints (CATALOG_HTTP_ADDR)")
	fs.StringVar(&c.GRPCAddr, "grpc-addr", env("CATALOG_GRPC_ADDR", "127.0.0.1:9090"), "gRPC server (CATALOG_GRPC_ADDR)")
	fs.StringVar(&c.DatabaseURL, "database-url", env("DATABASE_URL", ""), "PostgreSQL URL; empty runs an embedded PostgreSQL in the data dir (DATABASE_URL)")
	fs.StringVar(&c.DataDir, "data-dir", env("CATALOG_DATA_DIR", "./.data"), "embedded database, dev secrets and local blobs (CATALOG_DATA_DIR)")
	fs.StringVar(&c.JWTHS256Secret, "jwt-hs256-secret", env("CATALOG_JWT_HS256_SECRET", ""), "accept HS256 tokens signed with this secret (CATALOG_JWT_HS256_SECRET)")
	fs.StringVar(&c.JWKSURL, "jwks-url", env("CATALOG_JWKS_URL", ""), "accept RS256/ES256 tokens whose keys this JWKS serves (CATALOG_JWKS_URL)")
	fs.StringVar(&c.JWTIssuer, "jwt-issuer", env("CATALOG_JWT_ISSUER", "catalogd-dev"), "required iss claim (CATALOG_JWT_ISSUER)")
	fs.StringVar(&c.JWTAudience, "jwt-audience", env("CATALOG_JWT_AUDIENCE", "catalog"), "required aud claim (CATALOG_JWT_AUDIENCE)")
	fs.BoolVar(&c.WebhookAllowPrivate, "webhook-allow-private-targets", env("CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS", "false") == "true",
		"allow webhook targets on loopback/private addresses, for local development and tests only (CATALOG_WEBHOOK_ALLOW_PRIVATE_TARGETS)")
	fs.Func("webhook-retry-schedule", "delays between attempts after the first (CATALOG_WEBHOOK_RETRY_SCHEDULE, default 5s,5m,30m,2h,5h,10h,14h,20h,24h)",
		func(s string) error { return parseSchedule(s, &c.WebhookPolicy) })
	if err := parseSchedule(env("CATALOG_WEBHOOK_RETRY_SCHEDULE", "5s,5m,30m,2h,5h,10h,14h,20h,24h"), &c.WebhookPolicy); err != nil {
		fmt.Fprintln(os.Stderr, "catalogd: CATALOG_WEBHOOK_RETRY_SCHEDULE:", err)
		os.Exit(2)
	}
	suspendN, _ := strconv.Atoi(env("CATALOG_WEBHOOK_SUSPEND_AFTER_FAILURES", "20"))
	fs.IntVar(&c.WebhookPolicy.SuspendAfterFailures, "webhook-suspend-after-failures", suspendN,
		"consecutive failed attempts before a subscription may be suspended (CATALOG_WEBHOOK_SUSPEND_AFTER_FAILURES)")
	suspendAfter, err := time.ParseDuration(env("CATALOG_WEBHOOK_SUSPEND_AFTER", "120h"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogd: CATALOG_WEBHOOK_SUSPEND_AFTER:", err)
		os.Exit(2)
	}
	fs.DurationVar(&c.WebhookPolicy.SuspendAfter, "webhook-suspend-after", suspendAfter,
		"time without a successful attempt before a failing subscription is suspended (CATALOG_WEBHOOK_SUSPEND_AFTER)")
	workers, _ := strconv.Atoi(env("CATALOG_WEBHOOK_WORKERS", "8"))
	fs.IntVar(&c.WebhookWorkers, "webhook-workers", workers, "concurrent webhook deliveries per process (CATALOG_WEBHOOK_WORKERS)")
	schedEvery, err := time.ParseDuration(env("CATALOG_SCHEDULER_INTERVAL", "1s"))
	if err != nil || schedEvery <= 0 {
		fmt.Fprintln(os.Stderr, "catalogd: CATALOG_SCHEDULER_INTERVAL: must be a positive duration")
		os.Exit(2)
	}
	fs.DurationVar(&c.SchedulerInterval, "scheduler-interval", schedEvery,
		"time between two runs of the publication scheduler over due schedules (CATALOG_SCHEDULER_INTERVAL)")
	fs.StringVar(&c.SecretKey, "secret-key", env("CATALOG_SECRET_KEY", ""), "base64 of 32 bytes encrypting webhook secrets; empty: generated into the data dir (CATALOG_SECRET_KEY)")
	return c
}

// parseSchedule reads a comma-separated list of durations.
func parseSchedule(s string, p *webhooks.Policy) error {
	out := []time.Duration{}
	for _, part := range strings.Split(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d <= 0 {
			return fmt.Errorf("%q is not a positive duration", part)
		}
		out = append(out, d)
	}
	p.Schedule = out
	return nil
}

// logOut batches the log lines of serve; the other commands write straight through.
var logOut io.Writer = os.Stderr

func logger() *slog.Logger {
	lvl := slog.LevelInfo
	if strings.EqualFold(os.Getenv("CATALOG_LOG_LEVEL"), "debug") {
		lvl = slog.LevelDebug
	}
	return app.NewLogger(logOut, lvl)
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	cfg := configFlags(fs)
	_ = fs.Parse(args)
	buffered := app.NewBufferedWriter(os.Stderr, 100*time.Millisecond)
	defer buffered.Close()
	logOut = buffered
	log := logger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := app.Start(ctx, *cfg, log)
	buffered.Flush() // the start-up lines (the dev token among them) go out at once
	if err != nil {
		return err
	}
	<-ctx.Done()
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv.Stop(sctx)
	log.Info("stopped")
	return nil
}

func migrate(args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ExitOnError)
	cfg := configFlags(fs)
	_ = fs.Parse(args)
	log := logger()
	ctx := context.Background()
	url := cfg.DatabaseURL
	if url == "" {
		c, err := pgembed.Start(ctx, filepath.Join(cfg.DataDir, "pg"), log)
		if err != nil {
			return err
		}
		defer c.Stop() //nolint:errcheck
		url = c.URL()
	}
	d, err := store.Open(ctx, url)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := app.Migrate(ctx, d, log); err != nil {
		return err
	}
	log.Info("database is up to date")
	return nil
}

func token(args []string) error {
	fs := flag.NewFlagSet("token", flag.ExitOnError)
	cfg := configFlags(fs)
	tenant := fs.String("tenant", "dev", "tenant_id claim")
	subject := fs.String("subject", "dev", "sub claim")
	scopes := fs.String("scopes", strings.Join(app.DevScopes, " "), "space-separated scopes")
	ttl := fs.Duration("ttl", 24*time.Hour, "lifetime")
	_ = fs.Parse(args)
	secret := cfg.JWTHS256Secret
	if secret == "" {
		var err error
		if secret, err = app.DevSecret(cfg.DataDir); err != nil {
			return err
		}
	}
	if secret == "" {
		return errors.New("no HS256 secret: set CATALOG_JWT_HS256_SECRET")
	}
	tok, err := auth.MintHS256(secret, cfg.JWTIssuer, cfg.JWTAudience, *tenant, *subject, strings.Fields(*scopes), *ttl)
	if err != nil {
		return err
	}
	fmt.Println(tok)
	return nil
}
