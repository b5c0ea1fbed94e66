package webhooks

import (
	"context"
	"net/http"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Deliveries of a deprecated event type carry Deprecation and Sunset as HTTP-dates.
func TestDeprecatedEventTypeHeaders(t *testing.T) {
	t.Parallel()
	deprecated := time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)
	sunset := time.Date(2031, 6, 30, 12, 0, 0, 0, time.UTC)
	// A dedicated database: the change is not seen by other tests; the dispatcher caches
	// deprecations, so it starts (in a replica) only after the change.
	api := startSite(t, noDispatcher)
	if _, err := api.pool.Exec(context.Background(),
		`UPDATE webhook_event_types SET deprecated_at = $1, sunset_at = $2 WHERE name = 'attribute.updated'`, deprecated, sunset); err != nil {
		t.Fatal(err)
	}
	startReplica(t, api)
	c, _ := api.tenantClient(t)

	items := Want(t, c.Get("/v1/webhook-event-types"+Q("isDeprecated[eq]", "true")), 200).Items()
	if len(items) != 1 || Str(items[0], "name") != "attribute.updated" ||
		Str(items[0], "deprecatedAt") != "2025-01-15T00:00:00.000000Z" || Str(items[0], "sunsetAt") != "2031-06-30T12:00:00.000000Z" {
		t.Errorf("isDeprecated[eq]=true: %v", items)
	}

	rc := newReceiver(t, nil)
	id, secret := newSub(t, c, rc.URL, "attribute.created", "attribute.updated")
	a := mkAttr(t, c, "a")
	Want(t, c.Patch("/v1/attributes/"+a, map[string]any{"displayName": "A"}), 200)
	WaitFor(t, 15*time.Second, "two deliveries", func() bool { return rc.count() >= 2 })
	hs := rc.hooks()
	if len(hs) != 2 {
		t.Fatalf("receiver got %d requests, want 2", len(hs))
	}
	for _, h := range hs {
		verify(t, h.Header.Get("X-Webhook-Event-Type"), h, secret)
		switch h.Header.Get("X-Webhook-Event-Type") {
		case "attribute.updated":
			for name, want := range map[string]time.Time{"Deprecation": deprecated, "Sunset": sunset} {
				v := h.Header.Get(name)
				if v != want.Format(http.TimeFormat) {
					t.Errorf("%s header %q, want the HTTP-date %q", name, v, want.Format(http.TimeFormat))
				}
				if got, err := http.ParseTime(v); err != nil || !got.Equal(want) {
					t.Errorf("%s header %q does not parse as an HTTP-date of %s: %v", name, v, want, err)
				}
			}
		case "attribute.created":
			if v := h.Header.Values("Deprecation"); len(v) != 0 {
				t.Errorf("attribute.created (not deprecated) carries Deprecation %q", v)
			}
			if v := h.Header.Values("Sunset"); len(v) != 0 {
				t.Errorf("attribute.created (not deprecated) carries Sunset %q", v)
			}
		default:
			t.Errorf("unexpected event type %q", h.Header.Get("X-Webhook-Event-Type"))
		}
	}
	WaitFor(t, 15*time.Second, "both deliveries recorded", func() bool {
		n := 0
		for _, d := range deliveries(t, c, id) {
			if Str(d, "status") == "delivered" {
				n++
			}
		}
		return n == 2
	})
}
