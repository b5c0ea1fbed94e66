// Package families tests families and their five links (attributes, input types, categories,
// product asset types, product relation types) end to end over REST and gRPC on a real PostgreSQL.
package families

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
