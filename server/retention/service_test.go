package retention_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/apptest"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/webhooks"
)

// The service runs the pruner with CATALOG_RETENTION (here 1 s, so it runs every second): a
// delivered delivery, its attempt and the event go once they are older than that; a pending
// delivery with its attempt stays; the catalog and the subscriptions are untouched; /metrics counts
// what went.
func TestServiceRunsThePruner(t *testing.T) {
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer ok.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
	defer failing.Close()
	env, err := apptest.Start(func(c *app.Config) {
		c.Retention = time.Second
		c.WebhookAllowPrivate = true
		// After the first failed attempt, the next is an hour away: the delivery stays pending.
		c.WebhookPolicy = webhooks.Policy{Schedule: []time.Duration{time.Hour}, SuspendAfterFailures: 1000, SuspendAfter: time.Hour}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Stop()
	pool, err := pgxpool.New(context.Background(), env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	c := env.Client(t)
	et := events.TypeUUID("attribute.created").String()
	for _, target := range []string{ok.URL, failing.URL} {
		sub := apptest.Want(t, c.Post("/v1/webhook-subscriptions", map[string]any{"displayName": "s", "targetUrl": target}), 201).Obj()
		apptest.Want(t, c.Post("/v1/webhook-subscriptions/"+sub["uuid"].(string)+"/event-types", map[string]any{"webhookEventTypeUuid": et}), 201)
	}
	attr := apptest.Want(t, c.Post("/v1/attributes", map[string]any{"code": "color"}), 201).Obj()

	// Both attempts recorded: one delivery delivered, the other pending for an hour.
	waitFor(t, "both attempts", func() bool {
		return count(t, pool, `SELECT count(*) FROM webhook_delivery_attempts`) == 2
	})
	before := otherTables(t, pool)
	waitFor(t, "the delivered delivery, its attempt and the event pruned", func() bool {
		return count(t, pool, `SELECT count(*) FROM webhook_deliveries`) == 1 && count(t, pool, `SELECT count(*) FROM events`) == 0
	})
	if n := count(t, pool, `SELECT count(*) FROM webhook_deliveries d JOIN webhook_delivery_attempts a
		ON a.tenant_id = d.tenant_id AND a.delivery_uuid = d.uuid WHERE d.status = 'pending'`); n != 1 {
		t.Errorf("the pending delivery with its attempt: %d rows, want 1", n)
	}
	if n := count(t, pool, `SELECT count(*) FROM webhook_delivery_attempts`); n != 1 {
		t.Errorf("%d attempts left, want the pending delivery's 1", n)
	}
	if after := otherTables(t, pool); after != before {
		t.Errorf("other tables changed:\n%s\nthen\n%s", before, after)
	}
	apptest.Want(t, c.Get("/v1/attributes/"+attr["uuid"].(string)), 200)

	res, err := http.Get(env.BaseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{`catalogd_retention_deleted_total{kind="deliveries"} 1`, `catalogd_retention_deleted_total{kind="attempts"} 1`,
		`catalogd_retention_deleted_total{kind="events"} 1`} {
		if !strings.Contains(string(body), want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// otherTables is a digest of every table but the three retention prunes: row counts and an md5 of
// their rows.
func otherTables(t *testing.T, p *pgxpool.Pool) string {
	t.Helper()
	rows, err := p.Query(context.Background(), `SELECT table_name FROM information_schema.tables
		WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
		  AND table_name NOT IN ('events', 'webhook_deliveries', 'webhook_delivery_attempts') ORDER BY table_name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tb := range tables {
		var n int
		var sum *string
		if err := p.QueryRow(context.Background(), `SELECT count(*), md5(string_agg(x::text, ',' ORDER BY x::text)) FROM `+tb+` x`).Scan(&n, &sum); err != nil {
			t.Fatal(err)
		}
		s := ""
		if sum != nil {
			s = *sum
		}
		fmt.Fprintf(&b, "%s %d %s\n", tb, n, s)
	}
	return b.String()
}

// waitFor polls cond until it holds, failing after a minute (the pruner runs every second).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
