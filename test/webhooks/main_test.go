// Package webhooks tests webhook subscriptions, the event type catalog and signed delivery end to
// end: a real catalogd (gRPC, gateway, dispatcher) on a real PostgreSQL, httptest receivers, and
// the official Standard Webhooks library as the verifier.
package webhooks

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/webhooks"
)

// secretKey encrypts webhook secrets at rest; every env and replica of this package shares it.
const secretKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=" // base64 of the bytes 0..31

// retryDelay is the delay between attempts of the main env; schedule has four of them, so a
// delivery that never succeeds makes 1 + len(schedule) attempts.
const retryDelay = 300 * time.Millisecond

var schedule = []time.Duration{retryDelay, retryDelay, retryDelay, retryDelay}

var (
	env  *apptest.Env
	pool *pgxpool.Pool
)

// mainOptions is the configuration of the main env; other envs start from it and change fields.
func mainOptions(c *app.Config) {
	c.WebhookAllowPrivate = true
	c.WebhookPolicy = webhooks.Policy{Schedule: schedule, SuspendAfterFailures: 1000, SuspendAfter: time.Hour}
	c.WebhookLease = 3 * time.Second
	// Several tests hold a worker for seconds (slow receivers): enough workers that they never
	// delay the deliveries of the others.
	c.WebhookWorkers = 16
	c.SecretKey = secretKey
}

func TestMain(m *testing.M) { apptest.Main(m, &env, &pool, mainOptions) }
