// Package events tests GET /v1/events (API.md "Finding products and keeping in sync"): the tenant's
// recorded events, oldest first, with their thin payloads, filters, offset and cursor pages, and
// the link from a webhook delivery to its event.
package events

import (
	"slices"
	"testing"
	"time"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

var env *Env

func TestMain(m *testing.M) {
	Main(m, &env, nil, func(c *app.Config) { c.DisableDispatcher = true }) // deliveries stay pending: their records are read
}

// events lists every event of the client's tenant with the query's parameters (name, value, …),
// following nextCursor.
func events(t *testing.T, c *Client, kv ...string) []map[string]any {
	t.Helper()
	var out []map[string]any
	path := "/v1/events" + Q(kv...)
	for {
		r := Want(t, c.Get(path), 200)
		out = append(out, r.Items()...)
		next, _ := r.Obj()["pagination"].(map[string]any)["nextCursor"].(string)
		if next == "" {
			return out
		}
		path = "/v1/events" + Q(append(slices.Clone(kv), "cursor", next)...)
	}
}

func typesOf(evs []map[string]any) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = Str(e, "type")
	}
	return out
}

func TestEventLog(t *testing.T) {
	c, _ := env.TenantClient(t)
	start := time.Now().UTC().Add(-time.Second)
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "color")), 201).Obj(), "uuid")
	Want(t, c.Patch("/v1/attributes/"+attr, Body("displayName", "Colour")), 200)
	loc := Str(Want(t, c.Post("/v1/locales", Body("code", "de-DE")), 201).Obj(), "uuid")
	Want(t, c.Delete("/v1/attributes/"+attr), 204)

	all := events(t, c)
	if got, want := typesOf(all), []string{"attribute.created", "attribute.updated", "locale.created", "attribute.deleted"}; !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for _, e := range all {
		WantKeys(t, "event", e, "uuid", "createdAt", "type", "payload")
		if ts := TS(t, e["createdAt"]); ts.Before(start) || ts.After(time.Now().Add(time.Second)) {
			t.Errorf("createdAt %v", ts)
		}
	}
	if p := all[0]["payload"].(map[string]any); len(p) != 1 || p["attributeUuid"] != attr {
		t.Errorf("attribute.created payload %v, want the thin {attributeUuid}", p)
	}
	if p := all[2]["payload"].(map[string]any); p["localeUuid"] != loc {
		t.Errorf("locale.created payload %v", p)
	}

	// Filters: types (OR of values), uuids, createdAt; a type that does not exist is 400.
	if got := typesOf(events(t, c, "types[eq]", "attribute.created", "types[eq]", "attribute.deleted")); !slices.Equal(got, []string{"attribute.created", "attribute.deleted"}) {
		t.Errorf("types[eq]: %v", got)
	}
	if got := events(t, c, "uuids[eq]", Str(all[2], "uuid")); len(got) != 1 || Str(got[0], "type") != "locale.created" {
		t.Errorf("uuids[eq]: %v", got)
	}
	if got := events(t, c, "createdAt[min]", Str(all[3], "createdAt")); len(got) == 0 || Str(got[len(got)-1], "type") != "attribute.deleted" {
		t.Errorf("createdAt[min]: %v", got)
	}
	if got := events(t, c, "createdAt[max]", start.Format(time.RFC3339Nano)); len(got) != 0 {
		t.Errorf("createdAt[max] before everything: %v", got)
	}
	WantProblem(t, c.Get("/v1/events"+Q("types[eq]", "attribute.exploded")), 400, "VALIDATION_FAILED", "types[eq]")
	WantProblem(t, c.Get("/v1/events"+Q("uuids[eq]", "nope")), 400, "VALIDATION_FAILED", "uuids[eq]")

	// Newest first on request; cursor pages of 1 walk the same events.
	desc := Want(t, c.Get("/v1/events"+Q("createdAt[order]", "desc")), 200).Items()
	if Str(desc[0], "type") != "attribute.deleted" {
		t.Errorf("createdAt[order]=desc starts with %v", desc[0])
	}
	var walked []string
	path := "/v1/events" + Q("size", "1")
	for {
		r := Want(t, c.Get(path), 200)
		for _, e := range r.Items() {
			walked = append(walked, Str(e, "uuid"))
		}
		next, _ := r.Obj()["pagination"].(map[string]any)["nextCursor"].(string)
		if next == "" {
			break
		}
		path = "/v1/events" + Q("size", "1", "cursor", next)
	}
	if !slices.Equal(walked, UUIDsOf(all)) {
		t.Errorf("cursor walk %v, want %v", walked, UUIDsOf(all))
	}

	// Another tenant sees none of them; a token without catalog:read may not read the log.
	other, _ := env.TenantClient(t)
	if got := Want(t, other.Get("/v1/events"), 200).Items(); len(got) != 0 {
		t.Errorf("another tenant sees %v", got)
	}
	_, tenant := env.TenantClient(t)
	WantProblem(t, env.ClientFor(t, tenant, "webhooks:read").Get("/v1/events"), 403, "FORBIDDEN")
}

// A webhook delivery names its event: the delivery record's eventUuid is the event's uuid.
func TestDeliveryNamesItsEvent(t *testing.T) {
	c, _ := env.TenantClient(t)
	sub := Str(Want(t, c.Post("/v1/webhook-subscriptions", Body("displayName", "erp", "targetUrl", "https://erp.example.com/hooks")), 201).Obj(), "uuid")
	et := Str(Want(t, c.Get("/v1/webhook-event-types"+Q("names[eq]", "brand.created")), 200).Items()[0], "uuid")
	Want(t, c.Post("/v1/webhook-subscriptions/"+sub+"/event-types", Body("webhookEventTypeUuid", et)), 201)
	Want(t, c.Post("/v1/brands", Body("code", "acme")), 201)
	ev := events(t, c, "types[eq]", "brand.created")
	deliveries := Want(t, c.Get("/v1/webhook-subscriptions/"+sub+"/deliveries"), 200).Items()
	if len(ev) != 1 || len(deliveries) != 1 || deliveries[0]["eventUuid"] != ev[0]["uuid"] {
		t.Fatalf("event %v, deliveries %v: the delivery must name the event's uuid", ev, deliveries)
	}
}

func TestEventLogOverGRPC(t *testing.T) {
	c, tenant := env.TenantClient(t)
	Want(t, c.Post("/v1/tags", Body("code", "sale")), 201)
	res, err := pb.NewEventServiceClient(env.GRPC).ListEvents(GRPCContext(t, tenant), &pb.ListEventsRequest{
		Types: &pb.StringsFilter{Eq: []string{"tag.created"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.GetItems()) != 1 || res.GetItems()[0].GetPayload()["tagUuid"] == "" || res.GetPagination().GetNextCursor() != "" {
		t.Fatalf("gRPC: %v", res)
	}
}
