// Package product_values tests product input values end to end over REST and gRPC on a real
// PostgreSQL: typed values, channel and locale scoping, uniqueness, references, variant inheritance.
package product_values

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
