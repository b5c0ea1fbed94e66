package pgembed

import (
	"context"
	"errors"
	"net"
	"os"
	"strconv"
	"testing"
	"time"
)

// A bouncer listens on its port once StartBouncer returns; Stop ends the process and removes its
// directory (PgBouncer connects to the server lazily, so no server is needed here).
func TestBouncerStartsAndStops(t *testing.T) {
	if _, err := FindBouncer(); err != nil {
		t.Fatal(err) // `go run ./cmd/testpg -install` installs it
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := StartBouncer(ctx, "postgres://someone:secret@127.0.0.1:1/somedb", BouncerOptions{Mode: "session", PoolSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(b.Port()))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("bouncer on %s: %v", addr, err)
	}
	_ = c.Close()
	u, err := b.URL("postgres://someone:secret@127.0.0.1:1/somedb?sslmode=disable")
	if want := "postgres://someone:secret@" + addr + "/somedb?sslmode=disable"; err != nil || u != want {
		t.Errorf("URL: %q, %v; want %q", u, err, want)
	}
	if err := b.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(b.root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s after Stop: %v", b.root, err)
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		_ = c.Close()
		t.Errorf("%s still accepts connections after Stop", addr)
	}
	if _, err := StartBouncer(ctx, "postgres://someone:secret@127.0.0.1:1/somedb", BouncerOptions{Mode: "statement"}); err == nil {
		t.Error("pool mode statement: no error")
	}
}
