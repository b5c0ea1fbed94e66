// Package hierarchy tests categories (with their contents) and collections end to end over REST
// and gRPC on a real PostgreSQL: both are trees of nodes with the draft/active/inactive/removed
// lifecycle, so most tests run once per family.
package hierarchy

import (
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/apptest"
)

var (
	env  *apptest.Env
	pool *pgxpool.Pool
)

func TestMain(m *testing.M) { apptest.Main(m, &env, &pool) }
