// Package history tests the audit trail (API.md "History (who changed what)"): GET /v1/history and
// GET /v1/products/{productUuid}/history, and that every write records exactly what it changed.
// The check of a scenario is generic: for every event the tenant's writes recorded there is one
// history entry; each resource's entries replay into a chain whose every before is the previous
// after; and the replayed state of each resource that still exists equals what its GET answers,
// field by field, the GET route found among the registered services by the event's payload keys
// (so a new family is covered by itself once a scenario writes it).
package history

import (
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

var (
	env  *Env
	pool *pgxpool.Pool
)

func TestMain(m *testing.M) {
	Main(m, &env, &pool, func(c *app.Config) { c.DisableDispatcher = true })
}
