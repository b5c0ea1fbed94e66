package webhooks

import (
	"github.com/catalogd/catalogd/server/apptest"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/app"
	"github.com/catalogd/catalogd/server/webhooks"
)

// scrape reads s's /metrics (apptest.Env.Metrics).
func scrape(t *testing.T, s *site) map[string]float64 {
	t.Helper()
	return s.env.Metrics(t)
}

// The webhook figures on /metrics move with the deliveries: attempts by outcome, finished
// deliveries by outcome, the delivery latency, the attempts in flight and the sampled backlog —
// with no tenant or subscription label.
func TestWebhookMetrics(t *testing.T) {
	t.Parallel()
	s := startSite(t, func(c *app.Config) { c.WebhookWorkers = 4; c.WebhookLease = time.Minute })
	m := scrape(t, s)
	for _, k := range []string{`catalogd_webhook_deliveries_total{outcome="delivered"}`, `catalogd_webhook_deliveries_total{outcome="failed"}`,
		`catalogd_webhook_attempts_total{outcome="success"}`, `catalogd_webhook_attempts_total{outcome="timeout"}`,
		`catalogd_webhook_delivery_latency_seconds_count`, `catalogd_webhook_attempts_in_flight`,
		`catalogd_webhook_pending_deliveries`, `catalogd_webhook_oldest_due_seconds`} {
		if v, ok := m[k]; !ok || v != 0 {
			t.Errorf("fresh service: %s = %v (present %v), want 0", k, v, ok)
		}
	}

	c, _ := s.tenantClient(t)
	hang := newHangingReceiver(t)
	newSub(t, c, newReceiver(t, nil).URL, "attribute.created")
	newSub(t, c, newReceiver(t, respondWith(500, "no")).URL, "attribute.created")
	createSub(t, c, hang.URL, map[string]any{"requestTimeoutMs": webhooks.MaxTimeoutMs}, "attribute.created")
	for _, code := range []string{"a", "b", "c"} {
		mkAttr(t, c, code)
	}
	// The healthy subscription's 3 deliveries, and the failing one's 3 after 5 attempts each.
	apptest.WaitFor(t, 60*time.Second, "3 delivered and 3 failed deliveries on /metrics", func() bool {
		m = scrape(t, s)
		return m[`catalogd_webhook_deliveries_total{outcome="delivered"}`] == 3 && m[`catalogd_webhook_deliveries_total{outcome="failed"}`] == 3
	})
	// The backlog is a sample (at most one query a second): it catches up.
	apptest.WaitFor(t, 10*time.Second, "the sampled backlog to show the hanging subscription's 3 pending deliveries", func() bool {
		m = scrape(t, s)
		return m[`catalogd_webhook_pending_deliveries`] == 3
	})
	want := map[string]float64{
		`catalogd_webhook_attempts_total{outcome="success"}`:    3,
		`catalogd_webhook_attempts_total{outcome="http_error"}`: 15,
		`catalogd_webhook_delivery_latency_seconds_count`:       3,
		// The hanging subscription: one attempt open (its cap), its other two deliveries due.
		`catalogd_webhook_attempts_in_flight`: 1,
		`catalogd_webhook_pending_deliveries`: 3,
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if v := m[`catalogd_webhook_oldest_due_seconds`]; v <= 0 {
		t.Errorf("catalogd_webhook_oldest_due_seconds = %v with two deliveries due and waiting", v)
	}
	if v := m[`catalogd_webhook_attempt_duration_seconds_count`]; v != 18 {
		t.Errorf("catalogd_webhook_attempt_duration_seconds_count = %v, want 18 finished attempts", v)
	}
	for k := range m {
		if strings.HasPrefix(k, "catalogd_webhook_") && (strings.Contains(k, "tenant") || strings.Contains(k, "subscription")) {
			t.Errorf("%s: a webhook metric with a tenant or subscription label", k)
		}
	}
}
