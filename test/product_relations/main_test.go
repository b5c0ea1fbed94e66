// Package product_relations tests product relations (one-way and two-way, with their inverse
// relations) end to end over REST and gRPC on a real PostgreSQL.
package product_relations

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
