// Package events tests GET /v1/events (API.md "Finding products and keeping in sync"): the tenant's
// recorded events, oldest first, with their thin payloads, filters, offset and cursor pages, and
// the link from a webhook delivery to its event.
package events

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/app"
	. "github.com/catalogd/catalogd/server/apptest"
)

var (
	env  *Env
	pool *pgxpool.Pool
)

func TestMain(m *testing.M) {
	Main(m, &env, &pool, func(c *app.Config) { c.DisableDispatcher = true }) // deliveries stay pending: their records are read
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

// settled lists the events like events once at least n are visible. An event shows once every
// transaction that began before its own has ended (the log's commit order), which in a test run
// sharing its PostgreSQL with other packages can take a moment after the write answered.
func settled(t *testing.T, c *Client, n int, kv ...string) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := events(t, c, kv...)
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
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

	all := settled(t, c, 4)
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
	ev := settled(t, c, 1, "types[eq]", "brand.created")
	deliveries := Want(t, c.Get("/v1/webhook-subscriptions/"+sub+"/deliveries"), 200).Items()
	if len(ev) != 1 || len(deliveries) != 1 || deliveries[0]["eventUuid"] != ev[0]["uuid"] {
		t.Fatalf("event %v, deliveries %v: the delivery must name the event's uuid", ev, deliveries)
	}
}

func TestEventLogOverGRPC(t *testing.T) {
	c, tenant := env.TenantClient(t)
	Want(t, c.Post("/v1/tags", Body("code", "sale")), 201)
	settled(t, c, 1)
	res, err := pb.NewEventServiceClient(env.GRPC).ListEvents(GRPCContext(t, tenant), &pb.ListEventsRequest{
		Types: &pb.StringsFilter{Eq: []string{"tag.created"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.GetItems()) != 1 || res.GetItems()[0].GetPayload()["tagUuid"] == "" || res.GetPagination().GetNextCursor() != "" {
		t.Fatalf("gRPC: %v", res)
	}
}

// TestEventLogCommitOrder: an event of a transaction still open holds back the events of later
// transactions, so a poller following nextCursor at the tail never passes over an event that
// commits after its page; once it commits, the poller's next page starts with it.
func TestEventLogCommitOrder(t *testing.T) {
	c, tenant := env.TenantClient(t)
	Want(t, c.Post("/v1/tags", Body("code", "first")), 201)
	page := settled(t, c, 1)
	ctx := context.Background()
	// A slow write: its transaction records an event and stays open.
	slow, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Rollback(ctx) //nolint:errcheck
	slowID := RandomUUID()
	if _, err := slow.Exec(ctx, `INSERT INTO events (tenant_id, uuid, type, payload, created_at) VALUES ($1, $2, 'tag.created', '{"tagUuid":"x"}', now())`,
		tenant, slowID); err != nil {
		t.Fatal(err)
	}
	// A later write commits first; the poller reads the tail with the cursor of its last page.
	Want(t, c.Post("/v1/tags", Body("code", "second")), 201)
	r := Want(t, c.Get("/v1/events"+Q("size", "1")), 200)
	cursor, _ := r.Obj()["pagination"].(map[string]any)["nextCursor"].(string)
	if len(page) != 1 || cursor != "" {
		t.Fatalf("while the slow transaction is open, the log shows %v (nextCursor %q), want only the first event", r.Items(), cursor)
	}
	for i := 0; i < 3; i++ { // as long as the slow transaction is open, the later event stays hidden
		if got := events(t, c); len(got) != 1 {
			t.Fatalf("an event committed after an open transaction's is shown before it: %v", typesOf(got))
		}
	}
	if err := slow.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	all := settled(t, c, 3)
	if len(all) != 3 || all[1]["uuid"] != slowID || Str(all[2], "type") != "tag.created" {
		t.Fatalf("after the commit: %v, want first, the slow transaction's event, then the later one", all)
	}
	// The poller that had read the first event continues from there and gets both, in that order.
	first := Want(t, c.Get("/v1/events"+Q("size", "1")), 200)
	next := first.Obj()["pagination"].(map[string]any)["nextCursor"].(string)
	var rest []map[string]any
	for next != "" {
		r := Want(t, c.Get("/v1/events"+Q("size", "1", "cursor", next)), 200)
		rest = append(rest, r.Items()...)
		next, _ = r.Obj()["pagination"].(map[string]any)["nextCursor"].(string)
	}
	if len(rest) != 2 || rest[0]["uuid"] != slowID {
		t.Fatalf("the poller's next pages: %v", rest)
	}
}

// TestEventLogIgnoresOtherDatabases: a transaction open in another database of the same PostgreSQL
// server cannot write this database's events, so it holds none of them back (the snapshot's xmin,
// counted over the whole server, did: one long transaction of another application or another
// catalogd's database kept every tenant's new events out of the log until it ended).
func TestEventLogIgnoresOtherDatabases(t *testing.T) {
	c, _ := env.TenantClient(t)
	ctx := context.Background()
	admin, err := AdminURL()
	if err != nil {
		t.Fatal(err)
	}
	other, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	var otherDB, ours string
	if err := other.QueryRow(ctx, "SELECT current_database()").Scan(&otherDB); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT current_database()").Scan(&ours); err != nil || ours == otherDB {
		t.Fatalf("the other database %q is this test's %q (%v)", otherDB, ours, err)
	}
	long, err := other.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer long.Rollback(ctx) //nolint:errcheck
	var xid int64
	if err := long.QueryRow(ctx, "SELECT pg_current_xact_id()::text::bigint").Scan(&xid); err != nil {
		t.Fatal(err)
	}
	Want(t, c.Post("/v1/tags", Body("code", "while-another-database-writes")), 201)
	got := settled(t, c, 1)
	if len(got) != 1 || Str(got[0], "type") != "tag.created" {
		t.Fatalf("with transaction %d open in database %s, the log shows %v, want the tag.created", xid, otherDB, typesOf(got))
	}
	var open bool // the other transaction is still in progress: it was ignored, not waited for
	if err := pool.QueryRow(ctx, "SELECT pg_xact_status($1::bigint::text::xid8) = 'in progress'", xid).Scan(&open); err != nil || !open {
		t.Fatalf("transaction %d should still be open (%v, %v)", xid, open, err)
	}
}
