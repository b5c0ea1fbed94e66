// Command catalogd is the product catalog service.
//
//	catalogd [serve]   run the service (default)
//	catalogd mock      run the spec's mock server (demo catalog, any well-formed token)
//	catalogd migrate   apply the database migrations and exit
//	catalogd token     print a development token that serve accepts
//	catalogd import    import a file into a server's catalog (transfer.go)
//	catalogd export    export a server's catalog to a file (transfer.go)
//	catalogd version   print the version
//	catalogd help      the overview; `catalogd <command> -h` lists a command's flags
//
// Every setting is an environment variable and also a flag (config.go's table, which the help is
// printed from). A value that does not parse stops catalogd with exit code 2.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/auth"
	"github.com/catalogd/catalogd/server/openapi"
	"github.com/catalogd/catalogd/server/pgembed"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.LookupEnv))
}

// stdio is where a command writes.
type stdio struct{ out, err io.Writer }

// command is one of catalogd's commands; vars says which variables of the table it reads.
type command struct {
	name    string
	summary string // one line, for the overview
	about   string // a paragraph, for `catalogd <command> -h`
	vars    cmdSet
	// operands names the arguments it takes besides flags (import's FILE), in order, all required.
	operands []string
	run      func(std stdio, s *settings) error
}

var commands = []command{
	{name: "serve", summary: "run the service (the default command)", vars: cmdServe, run: serve,
		about: "Runs the service: gRPC and the REST gateway, the webhook dispatcher and the publication\n" +
			"scheduler. Migrations run at start-up. With DATABASE_URL empty it runs an embedded PostgreSQL in\n" +
			"the data directory; with no JWT setting it makes a development secret there and prints a token."},
	{name: "mock", summary: "run the spec's mock server: a demo catalog, any well-formed token", vars: cmdMock, run: mockServer,
		about: "Runs the spec's mock server: the same paths and ports as serve, on an embedded PostgreSQL of its\n" +
			"own that starts empty at each start and is deleted at exit. Every tenant starts with the demo\n" +
			"catalog (docs/mock-catalog.md). Any well-formed bearer token is accepted, signed or not: the\n" +
			"tenant is its tenant_id claim (else \"mock\"), its scopes its scope claim (else every scope).\n" +
			"It listens on loopback only (unless CATALOG_MOCK_ALLOW_PUBLIC=true), sends webhooks to loopback\n" +
			"targets only, keeps the per-tenant rate limit and takes uploads of at most 100 MiB;\n" +
			"CATALOG_CORS_ALLOWED_ORIGINS empty means any origin."},
	{name: "migrate", summary: "apply the database migrations and exit", vars: cmdMigrate, run: migrate,
		about: "Applies the database migrations (serve does too at start-up) and exits."},
	{name: "token", summary: "print a development token (HS256) that serve accepts", vars: cmdToken, run: token,
		about: "Prints a token signed with the HS256 secret serve uses, and nothing else on stdout:\n" +
			"TOKEN=$(catalogd token). The secret is CATALOG_JWT_HS256_SECRET when set, otherwise the development\n" +
			"secret serve made in the data directory; token never makes one."},
	{name: "import", summary: "import a file (NDJSON or CSV of products) into a server's catalog", vars: cmdImport, run: importCommand,
		operands: []string{"FILE"},
		about: "Imports FILE into the tenant of the token: creates an import with the file's size and SHA-256,\n" +
			"uploads the file to the URL the server signs, and starts the import (API.md \"Import and export\n" +
			"(jobs)\"). With -wait it follows the import to its end (a progress bar on a terminal, a progress\n" +
			"line now and then otherwise), prints the summary and every failed line (line, type, code, then\n" +
			"each error's field, code and message), and exits with status 1 when the import failed or any\n" +
			"line did; without -wait it prints the import's uuid and exits once it is queued."},
	{name: "export", summary: "export a server's catalog (NDJSON, or CSV of products) to a file", vars: cmdExport, run: exportCommand,
		about: "Exports the tenant of the token: creates an export (the line types of -types, the products of\n" +
			"-filter), waits for it with its progress, downloads the file from the URL the server signs to\n" +
			"-out (standard output when empty) and checks its size and SHA-256. The report goes to standard\n" +
			"output, or to standard error when the file does. Exit status 1 when the export failed."},
	{name: "version", summary: "print the version", run: version,
		about: "Prints catalogd's version, the git commit it was built from (stamped by `make build` and `make run`),\n" +
			"the interface version (the OpenAPI document's) and the Go version."},
	{name: "help", summary: "print this overview (catalogd help <command>: that command's flags)"},
}

func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// run is catalogd with its arguments (without the program name); it returns the exit code: 0, 1 when
// the command failed, 2 when the command line or the configuration is wrong.
func run(args []string, stdout, stderr io.Writer, lookupEnv func(string) (string, bool)) int {
	name := "serve"
	if len(args) > 0 {
		switch {
		case isHelpFlag(args[0]):
			overview(stdout)
			return 0
		case args[0] == "-version" || args[0] == "--version":
			args[0] = "version"
		case args[0] == "help":
			if len(args) == 1 || (len(args) == 2 && isHelpFlag(args[1])) {
				overview(stdout)
				return 0
			}
			if c := findCommand(args[1]); c != nil && c.name != "help" && len(args) == 2 {
				commandUsage(stdout, c)
				return 0
			}
			fmt.Fprintf(stderr, "catalogd: help %s: no such command\n\n", strings.Join(args[1:], " "))
			overview(stderr)
			return 2
		}
		if !strings.HasPrefix(args[0], "-") {
			name, args = args[0], args[1:]
		}
	}
	c := findCommand(name)
	if c == nil || c.run == nil {
		fmt.Fprintf(stderr, "catalogd: unknown command %q\n\n", name)
		overview(stderr)
		return 2
	}
	s, err := load(c.name, c.vars, args, lookupEnv)
	var ue *usageError
	switch {
	case errors.Is(err, errHelp):
		commandUsage(stdout, c)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "catalogd %s: %s\nRun 'catalogd %s -h' for its flags.\n", c.name, ue.msg, c.name)
		return 2
	case err != nil:
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(stderr, "catalogd: %s\n", line)
		}
		fmt.Fprintf(stderr, "catalogd: run 'catalogd %s -h' for every setting and what it accepts\n", c.name)
		return 2
	}
	if err := c.run(stdio{stdout, stderr}, s); err != nil {
		fmt.Fprintf(stderr, "catalogd %s: %v\n", c.name, err)
		return 1
	}
	return 0
}

func isHelpFlag(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// overview is `catalogd help`.
func overview(w io.Writer) {
	fmt.Fprint(w, `catalogd is a product catalog service: locales, attributes, categories, brands, families, assets,
products and their publications per sales channel, served over gRPC and a JSON REST API (/v1),
stored in PostgreSQL, with signed webhooks for every change.

Usage:
  catalogd [command] [flags]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'catalogd <command> -h' for its flags.

Environment (each variable is also a flag of the commands that read it; a flag wins over its
variable; a value that does not parse stops catalogd with exit code 2):
`)
	for _, v := range variables {
		if v.env == "" {
			continue
		}
		fmt.Fprintf(w, "  %s (default %s)\n        %s\n", v.env, shownDefault(v), v.help)
	}
}

// commandUsage is `catalogd <command> -h`: the command's own flags, from the table.
func commandUsage(w io.Writer, c *command) {
	fmt.Fprintf(w, "Usage: catalogd %s", c.name)
	for _, o := range c.operands {
		fmt.Fprint(w, " "+o)
	}
	if c.vars != 0 {
		fmt.Fprint(w, " [flags]")
	}
	fmt.Fprintf(w, "\n\n%s\n", c.about)
	if c.vars == 0 {
		return
	}
	fmt.Fprint(w, "\nFlags (a flag wins over its environment variable):\n")
	for _, v := range variables {
		if v.cmds&c.vars == 0 {
			continue
		}
		fmt.Fprintf(w, "  -%s", v.flag)
		if v.env != "" {
			fmt.Fprintf(w, "  $%s", v.env)
		}
		fmt.Fprintf(w, " (default %s)\n        %s\n        accepts %s\n", shownDefault(v), v.help, v.accepts)
	}
}

func shownDefault(v variable) string {
	if v.def == "" {
		return "empty"
	}
	return v.def
}

// version is `catalogd version`.
func version(std stdio, _ *settings) error {
	_, err := fmt.Fprint(std.out, versionText())
	return err
}

func versionText() string {
	bi, ok := debug.ReadBuildInfo()
	return fmt.Sprintf("catalogd %s\ncommit %s\ninterface %s\n%s %s/%s\n", moduleVersion(bi, ok), buildCommit(commit, bi, ok),
		openapi.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// commit is the git commit the binary was built from, as the Makefile stamps it
// (-ldflags "-X main.commit=<hash>", with "-modified" when the work tree had changes); empty in a
// plain `go build` or `go run`.
var commit string

// buildCommit is the commit `catalogd version` prints: the stamped one, else the go command's own
// (vcs.revision, written when building with -buildvcs in a checkout; "-modified" added as above),
// else "unknown".
func buildCommit(stamped string, bi *debug.BuildInfo, ok bool) string {
	if stamped != "" {
		return stamped
	}
	if ok {
		rev, modified := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" {
			if modified {
				rev += "-modified"
			}
			return rev
		}
	}
	return "unknown"
}

// moduleVersion is the main module's version stamped by the go command (a tag, or a pseudo-version
// when built from a module proxy), else "dev".
func moduleVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return "dev"
	}
	return bi.Main.Version
}

// devSecretFile is the file of the data directory app.DevSecret keeps the development secret in.
const devSecretFile = "dev-jwt-secret"

// devTokenTTL is the lifetime of the token serve prints.
const devTokenTTL = 24 * time.Hour

// hs256Secret is the HS256 secret serve accepts tokens signed with, decided alike for serve and
// token: CATALOG_JWT_HS256_SECRET when set; none when only CATALOG_JWKS_URL is set; otherwise the
// development secret in the data directory, which serve makes on first use (create) and token only
// reads. devFile is that secret's file when it is the one used.
func hs256Secret(cfg app.Config, create bool) (secret, devFile string, err error) {
	if cfg.JWTHS256Secret != "" {
		return cfg.JWTHS256Secret, "", nil
	}
	if cfg.JWKSURL != "" {
		if create {
			return "", "", nil
		}
		return "", "", fmt.Errorf("no HS256 secret to sign with: CATALOG_JWKS_URL is set and CATALOG_JWT_HS256_SECRET is not, "+
			"so the service accepts only tokens whose keys %s serves; get a token from that identity provider, "+
			"or set CATALOG_JWT_HS256_SECRET for both serve and token", cfg.JWKSURL)
	}
	dir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return "", "", err
	}
	devFile = filepath.Join(dir, devSecretFile)
	if create {
		secret, err = app.DevSecret(dir)
		return secret, devFile, err
	}
	b, err := os.ReadFile(devFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("no development secret in %s (CATALOG_DATA_DIR=%s): run `catalogd serve` once with this data "+
			"directory (it makes the secret), or set CATALOG_DATA_DIR to the running service's data directory, "+
			"or CATALOG_JWT_HS256_SECRET to its secret", dir, cfg.DataDir)
	}
	if err != nil {
		return "", "", err
	}
	secret = strings.TrimSpace(string(b))
	if len(secret) < auth.MinHS256SecretLen {
		return "", "", fmt.Errorf("%s is not a development secret (shorter than %d bytes): `catalogd serve` replaces it "+
			"with a new one", devFile, auth.MinHS256SecretLen)
	}
	return secret, devFile, nil
}

// serve is `catalogd serve`.
func serve(std stdio, s *settings) error {
	buffered := app.NewBufferedWriter(std.err, 100*time.Millisecond)
	defer buffered.Close()
	log := app.NewLogger(buffered, s.logLevel)
	cfg := s.app
	secret, devFile, err := hs256Secret(cfg, true)
	if err != nil {
		return err
	}
	cfg.JWTHS256Secret = secret
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Tracing (the OTEL_* variables; off when none asks for it) is on before the pools open.
	protocol, shutdownTracing, err := tracing.FromEnv(ctx, moduleVersion(debug.ReadBuildInfo()))
	if err != nil {
		return err
	}
	defer func() { // the spans still buffered go out before exit
		tctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := shutdownTracing(tctx); err != nil {
			log.Warn("trace export at shutdown", "error", err.Error())
		}
	}()
	if protocol != "" {
		log.Info("tracing on: spans exported by OTLP", "protocol", protocol)
	}
	srv, err := app.Start(ctx, cfg, log)
	if err != nil {
		buffered.Flush()
		return err
	}
	if devFile != "" {
		tok, err := auth.MintHS256(secret, cfg.JWTIssuer, cfg.JWTAudience, "dev", "dev", app.DevScopes, devTokenTTL)
		if err != nil {
			srv.Stop(context.Background())
			return err
		}
		// The token goes on the human banner only, never into the JSON log.
		log.Warn("no JWT configuration: accepting HS256 tokens signed with a development secret; do not use in production",
			"secret_file", devFile, "tenant", "dev")
		writeDevBanner(buffered, tok, srv.HTTPAddr(), selfCommand(os.Args[0]))
	}
	buffered.Flush() // the start-up lines (and the banner) go out at once
	<-ctx.Done()
	log.Info("shutting down")
	// The webhook attempts in flight get CATALOG_SHUTDOWN_GRACE, the rest of the shutdown 10 s more.
	sctx, cancel := context.WithTimeout(context.Background(), max(cfg.ShutdownGrace, 10*time.Second)+10*time.Second)
	defer cancel()
	srv.Stop(sctx)
	log.Info("stopped")
	return nil
}

// mockServer is `catalogd mock`.
func mockServer(std stdio, s *settings) error {
	buffered := app.NewBufferedWriter(std.err, 100*time.Millisecond)
	defer buffered.Close()
	log := app.NewLogger(buffered, s.logLevel)
	cfg := s.app
	cfg.Mock, cfg.DatabaseURL = true, "" // a throwaway database and data directory (app.Config.Mock)
	if len(cfg.CORSAllowedOrigins) == 0 {
		cfg.CORSAllowedOrigins = []string{"*"}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := app.Start(ctx, cfg, log)
	if err != nil {
		buffered.Flush()
		return err
	}
	writeMockBanner(buffered, srv.HTTPAddr(), srv.GRPCAddr())
	buffered.Flush()
	<-ctx.Done()
	log.Info("shutting down: the mock's database is deleted")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv.Stop(sctx)
	return nil
}

// mockBannerTitle starts the mock's banner.
const mockBannerTitle = "catalogd mock"

// writeMockBanner tells a person where the mock is and gives a token to copy.
func writeMockBanner(w io.Writer, httpAddr, grpcAddr string) {
	fmt.Fprintf(w, "\n%s: the spec's mock server, with the demo catalog (docs/mock-catalog.md)\n", mockBannerTitle)
	fmt.Fprintf(w, "  REST, Connect, gRPC-Web: http://%s   gRPC: %s\n", reachable(httpAddr), reachable(grpcAddr))
	fmt.Fprintf(w, "  any well-formed bearer token works (tenant: its tenant_id claim, else %q), e.g.\n%s\n\n", app.MockTenant, app.MockToken(app.MockTenant))
	fmt.Fprintf(w, "  curl -H \"Authorization: Bearer %s\" http://%s/v1/products\n\n", app.MockToken(app.MockTenant), reachable(httpAddr))
}

// reachable is a listen address as a client on this machine dials it.
func reachable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// devBannerTitle starts the banner; the token is the line after it.
const devBannerTitle = "Development token"

// writeDevBanner prints the development token on a line of its own, for a person to copy, and how
// to get another one: self is the command that runs this binary from the working directory
// (selfCommand).
func writeDevBanner(w io.Writer, tok, httpAddr, self string) {
	httpAddr = reachable(httpAddr)
	fmt.Fprintf(w, "\n%s (tenant dev, every scope; valid %g h):\n%s\n\n", devBannerTitle, devTokenTTL.Hours(), tok)
	fmt.Fprintf(w, "  curl -H \"Authorization: Bearer %s\" http://%s/v1/locales\n\n", tok, httpAddr)
	fmt.Fprintf(w, "Another one at any time: TOKEN=$(%s token)   (from this directory, or with the same CATALOG_DATA_DIR)\n\n", self)
}

// selfCommand is how a shell in the working directory runs this binary again, from os.Args[0]: a
// binary `go run` built (…/go-build…/…/exe/catalogd, deleted when it exits) is `go run ./cmd/catalogd`;
// one run by a path (`make run` runs ./bin/catalogd) is that path, ./-prefixed when relative so that
// the shell does not look it up on PATH; one found on PATH is its name.
func selfCommand(arg0 string) string {
	if dir := filepath.ToSlash(filepath.Dir(arg0)); strings.Contains(dir, "/go-build") && strings.HasSuffix(dir, "/exe") {
		return "go run ./cmd/catalogd"
	}
	if !strings.ContainsRune(arg0, filepath.Separator) {
		return arg0
	}
	if !filepath.IsAbs(arg0) && !strings.HasPrefix(arg0, "./") && !strings.HasPrefix(arg0, "../") {
		arg0 = "./" + arg0
	}
	if strings.ContainsFunc(arg0, func(r rune) bool {
		return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+-", r)
	}) {
		return "'" + strings.ReplaceAll(arg0, "'", `'\''`) + "'"
	}
	return arg0
}

// migrate is `catalogd migrate`.
func migrate(std stdio, s *settings) error {
	log := app.NewLogger(std.err, s.logLevel)
	ctx := context.Background()
	url := s.app.DatabaseURL
	if url == "" {
		c, err := pgembed.Start(ctx, filepath.Join(s.app.DataDir, "pg"), log)
		if err != nil {
			return err
		}
		defer c.Stop() //nolint:errcheck
		url = c.URL()
	}
	var topo store.Topology
	if s.app.DatabaseURL != "" {
		topo.Pooler = s.app.DatabasePooler
	}
	d, err := store.OpenWith(ctx, url, store.Options{Topology: topo})
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

// token is `catalogd token`: the token alone on stdout.
func token(std stdio, s *settings) error {
	secret, _, err := hs256Secret(s.app, false)
	if err != nil {
		return err
	}
	tok, err := auth.MintHS256(secret, s.app.JWTIssuer, s.app.JWTAudience, s.tenant, s.subject, s.scopes, s.ttl)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(std.out, tok)
	return err
}
