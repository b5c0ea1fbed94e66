// Package structure_basic tests brands and tags (with their contents), product asset types and
// product relation types end to end over REST and gRPC on a real PostgreSQL.
package structure_basic

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
