package events_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/store"
)

// Record wakes the dispatchers exactly when it made deliveries, on commit, from the statement that
// writes the events: a write no subscription listens to notifies no one.
func TestRecordNotifiesOnlyWithDeliveries(t *testing.T) {
	ctx := context.Background()
	url, drop, err := apptest.CreateDatabase(ctx, "events_test")
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	d, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := app.Migrate(ctx, d, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	now := store.Now()
	sub := uuid.New()
	for _, q := range []string{
		`INSERT INTO webhook_subscriptions (tenant_id, uuid, display_name, target_url, secret_sealed, created_at, updated_at)
		 VALUES ('subscribed', $1, 'hook', 'https://example.com/hook', '\x00', $2, $2)`,
		`INSERT INTO webhook_subscription_event_types (tenant_id, subscription_uuid, uuid, name, created_at)
		 SELECT 'subscribed', $1, uuid, name, $2 FROM webhook_event_types WHERE name = 'attribute.created'`,
	} {
		if _, err := d.Pool.Exec(ctx, q, sub, now); err != nil {
			t.Fatal(err)
		}
	}
	listener, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close(ctx)
	if _, err := listener.Exec(ctx, "LISTEN "+events.Channel); err != nil {
		t.Fatal(err)
	}
	record := func(tenant string) {
		t.Helper()
		err := d.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
			return events.Record(ctx, q, tenant, now, []events.Event{
				events.New("attribute.created", "attributeUuid", uuid.NewString()),
				events.New("attribute.updated", "attributeUuid", uuid.NewString()),
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// next is the payload of the next notification; a marker sent after each write tells, without
	// waiting for a silence, whether the write notified (notifications arrive in commit order).
	next := func() string {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		n, err := listener.WaitForNotification(wctx)
		if err != nil {
			t.Fatal(err)
		}
		return n.Payload
	}
	marker := func(m string) {
		t.Helper()
		if _, err := d.Pool.Exec(ctx, "SELECT pg_notify($1, $2)", events.Channel, m); err != nil {
			t.Fatal(err)
		}
	}

	record("unsubscribed")
	marker("after unsubscribed")
	if got := next(); got != "after unsubscribed" {
		t.Errorf("a write without deliveries notified the dispatchers (%q)", got)
	}
	record("subscribed")
	marker("after subscribed")
	if got := next(); got != "" {
		t.Errorf("a write with a delivery did not notify the dispatchers first (%q)", got)
	}
	if got := next(); got != "after subscribed" {
		t.Errorf("one write notified twice (%q)", got)
	}
	var deliveries int
	if err := d.Pool.QueryRow(ctx, "SELECT count(*) FROM webhook_deliveries WHERE tenant_id = 'subscribed'").Scan(&deliveries); err != nil || deliveries != 1 {
		t.Errorf("deliveries: %d, %v; want the one of attribute.created", deliveries, err)
	}
}
