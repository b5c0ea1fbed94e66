// Package s3test runs a real S3-compatible server for tests: versitygw
// (github.com/versity/versitygw), pinned in tools/versitygw/go.mod, with a POSIX backend in a
// temporary directory.
//
// The binary is built from the module proxy the first time (about five minutes on a cold Go build
// cache, seconds on a warm one) and kept under os.UserCacheDir()/catalogd/, named by version, OS,
// architecture and a digest of tools/versitygw/go.{mod,sum}, so other test packages and later
// runs start it at once. Nothing global changes: no environment variable, no fixed port, no
// directory outside the test's own, that cache and the Go build cache.
package s3test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Package is the versitygw command that Start builds.
const Package = "github.com/versity/versitygw/cmd/versitygw"

// Server is a running versitygw with one empty bucket.
type Server struct {
	// Endpoint is the server's base URL, "http://127.0.0.1:<port>".
	Endpoint string
	Region   string
	Bucket   string
	// AccessKey and SecretKey are the root user's keys: pass them to blobstore.Config's
	// AccessKeyID and SecretAccessKey (or set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY).
	AccessKey, SecretKey string
	// BlobURL is the CATALOG_BLOB_URL of the bucket: s3://<bucket>?endpoint=…&region=…&use_path_style=true.
	BlobURL string
}

// Client returns an S3 client for the server, with the root keys (for tests that look behind a
// store's back).
func (s Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       s.Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	})
}

// startAttempts is how often Start tries a fresh port when versitygw exits before it is ready
// (another process may take the port between our probe and versitygw's bind).
const startAttempts = 3

// Start builds versitygw if needed, starts it on a free loopback port with a POSIX backend in
// t.TempDir(), waits until it answers, creates a bucket, and stops it when t's cleanup runs.
func Start(t testing.TB) Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o750); err != nil {
		t.Fatal(err)
	}
	srv := Server{Region: "us-east-1", Bucket: "catalogd-test", AccessKey: "catalogd-test-root", SecretKey: randomHex(t, 20)}
	var lastErr error
	for range startAttempts {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		srv.Endpoint = "http://127.0.0.1:" + port
		var stop func()
		stop, lastErr = launch(t, bin, dir, data, port, srv)
		if lastErr == nil {
			t.Cleanup(stop)
			break
		}
	}
	if lastErr != nil {
		t.Fatalf("s3test: %v", lastErr)
	}
	srv.BlobURL = "s3://" + srv.Bucket + "?" + url.Values{
		"endpoint": {srv.Endpoint}, "region": {srv.Region}, "use_path_style": {"true"},
	}.Encode()
	return srv
}

// launch starts one versitygw process and waits until it has created the bucket. On failure the
// process is gone and the error carries its output.
func launch(t testing.TB, bin, dir, data, port string, srv Server) (stop func(), err error) {
	out := &syncBuffer{}
	cmd := exec.Command(bin,
		"--access", srv.AccessKey, "--secret", srv.SecretKey, "--region", srv.Region,
		"--port", "127.0.0.1:"+port, "--quiet",
		"posix", data)
	// A clean environment: versitygw reads ROOT_*, VGW_* and more from it.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop = func() {
		_ = terminate(cmd.Process)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("versitygw output:\n%s", out.tail(4096))
		}
	}

	client := srv.Client()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err = client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(srv.Bucket)},
			func(o *s3.Options) { o.RetryMaxAttempts = 1 })
		cancel()
		if err == nil {
			return stop, nil
		}
		select {
		case <-exited:
			return nil, fmt.Errorf("versitygw exited before it was ready: %v\n%s", err, out.tail(4096))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("versitygw not ready after 30s: %v\n%s", err, out.tail(4096))
		}
	}
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// Binary returns the path of the versitygw binary, building it on first use (see the package
// comment). A build failure fails t with the go command's output.
func Binary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() { binPath, binErr = build() })
	if binErr != nil {
		t.Fatalf("s3test: %v", binErr)
	}
	return binPath
}

func build() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	modFile := filepath.Join(root, "tools", "versitygw", "go.mod")
	mod, err := os.ReadFile(modFile)
	if err != nil {
		return "", fmt.Errorf("versitygw is pinned in %s: %w", modFile, err)
	}
	sum, err := os.ReadFile(strings.TrimSuffix(modFile, ".mod") + ".sum")
	if err != nil {
		return "", err
	}
	version := requiredVersion(mod, "github.com/versity/versitygw")
	if version == "" {
		return "", fmt.Errorf("%s does not require github.com/versity/versitygw", modFile)
	}
	digest := sha256.Sum256(append(append([]byte{}, mod...), sum...))
	name := fmt.Sprintf("versitygw-%s-%s-%s-%x", version, runtime.GOOS, runtime.GOARCH, digest[:6])

	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir() // no home directory: the temp dir is the next best shared place
	}
	cacheDir := filepath.Join(base, "catalogd")
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(cacheDir, name)
	if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o100 != 0 {
		return bin, nil
	}

	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("the go command is needed to build versitygw: %w", err)
	}
	tmp, err := os.CreateTemp(cacheDir, "."+name+".tmp-*")
	if err != nil {
		return "", err
	}
	_ = tmp.Close()
	defer os.Remove(tmp.Name())
	// -ldflags=-s -w: no symbol table or DWARF, a faster link and a third smaller binary.
	cmd := exec.Command(goCmd, "build", "-modfile="+modFile, "-buildvcs=false", "-ldflags=-s -w",
		"-o", tmp.Name(), Package)
	cmd.Dir = root
	// GOWORK=off: a go.work around the checkout must not change what gets built; GOFLAGS is
	// reset so the caller's (say -mod=vendor) cannot either.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building versitygw %s: %v\n%s", version, err, out.String())
	}
	// Concurrent test processes may both get here; rename is atomic, and either binary is good.
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return "", err
	}
	return bin, nil
}

// moduleRoot finds catalogd's module root: `go env GOMOD` from the working directory (a test
// runs in its package's directory), else the nearest parent holding go.mod.
func moduleRoot() (string, error) {
	if out, err := exec.Command("go", "env", "GOMOD").Output(); err == nil {
		if gomod := strings.TrimSpace(string(out)); gomod != "" && gomod != os.DevNull {
			return filepath.Dir(gomod), nil
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// requiredVersion finds path's version in a go.mod's require lines.
func requiredVersion(mod []byte, path string) string {
	sc := bufio.NewScanner(bytes.NewReader(mod))
	for sc.Scan() {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	return ""
}

// syncBuffer collects a process's output from its two pipes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) tail(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.b.Bytes()
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
