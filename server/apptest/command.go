package apptest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Result is a finished command: what it wrote, its exit code and how long it took.
type Result struct {
	Stdout, Stderr string
	Code           int
	Took           time.Duration
}

// Command runs name with args in dir, with env as its whole environment, for at most limit. err is
// nil when it exited 0; an *exec.ExitError (Code tells which) when it exited otherwise; a message
// naming the command when it could not start or the limit killed it.
func Command(dir string, env []string, limit time.Duration, name string, args ...string) (Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := Result{Stdout: stdout.String(), Stderr: stderr.String(), Took: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return r, fmt.Errorf("%s %s: no answer within %s", name, strings.Join(args, " "), limit)
	case errors.As(err, &exit):
		r.Code = exit.ExitCode()
		return r, err
	case err != nil:
		return r, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return r, nil
}

// RunCommand is Command in a test: a command that cannot start or that the limit kills fails the
// test (with its output); a non-zero exit is returned in Code for the test to judge.
func RunCommand(t testing.TB, dir string, env []string, limit time.Duration, name string, args ...string) Result {
	t.Helper()
	r, err := Command(dir, env, limit, name, args...)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, r.Stdout, r.Stderr)
	}
	return r
}
