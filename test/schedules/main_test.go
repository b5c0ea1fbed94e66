// Package schedules tests publication schedules end to end over REST and gRPC on a real
// PostgreSQL: CRUD, filters, the cancel lifecycle, tenant isolation, cascades and events; and the
// scheduler: runs driven directly with an injected clock (publish, unpublish, same-state, failed
// runs, cancelled ones, a database error, exactly once with concurrent schedulers) and one run by
// the service's own scheduler.
//
// Scheduler tests that inject a clock run sequentially (before the parallel ones) and schedule
// within the next days; the other tests schedule ten years ahead, out of their reach.
package schedules

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
