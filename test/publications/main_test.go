// Package publications tests product channel publications end to end over REST and gRPC on a real
// PostgreSQL: CRUD, filters, the publish/unpublish lifecycle, publishedAt, the readiness gate,
// IN_USE, tenant isolation and events.
package publications

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
