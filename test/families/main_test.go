// Package families tests families and their five links (attributes, input types, categories,
// product asset types, product relation types) end to end over REST and gRPC on a real PostgreSQL.
package families

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/apptest"
)

var (
	env  *apptest.Env
	pool *pgxpool.Pool
)

func TestMain(m *testing.M) {
	var err error
	if env, err = apptest.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "start catalogd:", err)
		os.Exit(1)
	}
	if pool, err = pgxpool.New(context.Background(), env.DBURL); err != nil {
		fmt.Fprintln(os.Stderr, "connect to the test database:", err)
		env.Stop()
		os.Exit(1)
	}
	code := m.Run()
	pool.Close()
	env.Stop()
	os.Exit(code)
}
