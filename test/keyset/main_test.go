// Package keyset tests keyset pages (cursor and pagination.nextCursor) end to end over REST and
// gRPC on a real PostgreSQL: walks equal to the offset listing in any order and filter, inserts
// during a walk, and the cursors catalogd refuses.
package keyset

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
