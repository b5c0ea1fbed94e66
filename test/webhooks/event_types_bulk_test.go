package webhooks

import (
	"context"
	"testing"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// POST /v1/webhook-subscriptions/{uuid}/event-types/bulk (API.md): every event type in one request,
// all or nothing, 201 with the array in the request's order.
func TestBulkSubscribeToEveryEventType(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(6)
	c := clientFor(t, env, tenant)
	sub := Str(createSub(t, c, "https://hooks.example.com/x", nil), "uuid")
	all := allEventTypes(t, c)
	if len(all) < 100 {
		t.Fatalf("only %d event types", len(all))
	}
	body := make([]map[string]any, len(all))
	for i, et := range all {
		body[i] = map[string]any{"webhookEventTypeUuid": et["uuid"]}
	}
	items := Want(t, c.Post(subs+"/"+sub+"/event-types/bulk", body), 201).Objs()
	if len(items) != len(all) {
		t.Fatalf("%d items answered for %d event types", len(items), len(all))
	}
	for i, it := range items {
		WantKeys(t, "subscribed event type", it, "uuid", "createdAt", "webhookSubscriptionUuid", "webhookEventTypeUuid", "name")
		if it["webhookEventTypeUuid"] != all[i]["uuid"] || it["name"] != all[i]["name"] || it["webhookSubscriptionUuid"] != sub {
			t.Fatalf("item %d is %v, want event type %v", i, it, all[i])
		}
	}
	wantSubscribed(t, c, sub, len(all))

	// Again: every item is taken, each named; nothing changes.
	p := WantProblem(t, c.Post(subs+"/"+sub+"/event-types/bulk", body[:3]), 409, "ALREADY_EXISTS",
		"[0].webhookEventTypeUuid", "[1].webhookEventTypeUuid", "[2].webhookEventTypeUuid")
	if n := len(p["errors"].([]any)); n != 3 {
		t.Errorf("%d errors for 3 subscribed items: %v", n, p)
	}
	wantSubscribed(t, c, sub, len(all))
}

func TestBulkSubscribeIsAllOrNothing(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(6)
	c := clientFor(t, env, tenant)
	sub := Str(createSub(t, c, "https://hooks.example.com/x", nil, "attribute.created"), "uuid")
	a, b, taken := eventTypeUUID(t, c, "attribute.updated"), eventTypeUUID(t, c, "attribute.deleted"), eventTypeUUID(t, c, "attribute.created")
	path := subs + "/" + sub + "/event-types/bulk"
	item := func(id any) map[string]any { return map[string]any{"webhookEventTypeUuid": id} }
	wantOnlyTheFirst := func(step string) {
		t.Helper()
		if got := Want(t, c.Get(subs+"/"+sub+"/event-types"), 200).Items(); len(got) != 1 || got[0]["webhookEventTypeUuid"] != taken {
			t.Fatalf("%s: the subscription receives %v", step, got)
		}
	}

	// One item already subscribed: 409 naming it, and the others are not subscribed either.
	WantProblem(t, c.Post(path, []any{item(a), item(taken), item(b)}), 409, "ALREADY_EXISTS", "[1].webhookEventTypeUuid")
	wantOnlyTheFirst("conflict")
	// An unknown event type: 404 naming it.
	WantProblem(t, c.Post(path, []any{item(a), item(RandomUUID())}), 404, "NOT_FOUND", "[1].webhookEventTypeUuid")
	wantOnlyTheFirst("unknown event type")
	// The same event type twice in one request: 400 naming the second.
	WantProblem(t, c.Post(path, []any{item(a), item(b), item(a)}), 400, "VALIDATION_FAILED", "[2].webhookEventTypeUuid")
	wantOnlyTheFirst("duplicate")
	// Request rules: not a uuid, missing, empty array, more than 200 items, not an array.
	WantProblem(t, c.Post(path, []any{item("nope")}), 400, "VALIDATION_FAILED", "[0].webhookEventTypeUuid")
	WantProblem(t, c.Post(path, []any{map[string]any{}}), 400, "VALIDATION_FAILED", "[0].webhookEventTypeUuid")
	WantProblem(t, c.Post(path, []any{}), 400, "VALIDATION_FAILED")
	many := make([]any, 201)
	for i := range many {
		many[i] = item(RandomUUID())
	}
	WantProblem(t, c.Post(path, many), 400, "VALIDATION_FAILED")
	WantProblem(t, c.Post(path, item(a)), 400, "MALFORMED_REQUEST")
	wantOnlyTheFirst("bad requests")

	// Another tenant's subscription is not found; a token without webhooks:write may not.
	other := clientFor(t, env, "t-"+RandomHex(6))
	WantProblem(t, other.Post(path, []any{item(a)}), 404, "NOT_FOUND")
	ro := clientFor(t, env, tenant, "webhooks:read")
	WantProblem(t, ro.Post(path, []any{item(a)}), 403, "FORBIDDEN")

	// Then the valid pair goes in, in the request's order.
	got := Want(t, c.Post(path, []any{item(b), item(a)}), 201).Objs()
	if len(got) != 2 || got[0]["webhookEventTypeUuid"] != b || got[1]["webhookEventTypeUuid"] != a {
		t.Fatalf("answered %v", got)
	}
	wantSubscribed(t, c, sub, 3)
}

// wantSubscribed fails unless the subscription receives n event types.
func wantSubscribed(t *testing.T, c *Client, sub string, n int) {
	t.Helper()
	r := Want(t, c.Get(subs+"/"+sub+"/event-types"+Q("size", "1")), 200)
	WantPagination(t, "event types of "+sub, r, 1, 1, n, n)
}

// Over gRPC the same method answers with the message.
func TestBulkSubscribeOverGRPC(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(6)
	c := clientFor(t, env, tenant)
	sub := Str(createSub(t, c, "https://hooks.example.com/x", nil), "uuid")
	ids := []string{eventTypeUUID(t, c, "product.created"), eventTypeUUID(t, c, "product.updated")}
	var body []map[string]any
	for _, id := range ids {
		body = append(body, map[string]any{"webhookEventTypeUuid": id})
	}
	out := grpcBulkSubscribe(t, GRPCContext(t, tenant), sub, ids)
	if len(out) != 2 || out[0] != "product.created" || out[1] != "product.updated" {
		t.Fatalf("gRPC answered %v", out)
	}
	WantProblem(t, c.Post(subs+"/"+sub+"/event-types/bulk", body), 409, "ALREADY_EXISTS", "[0].webhookEventTypeUuid", "[1].webhookEventTypeUuid")
}

// grpcBulkSubscribe subscribes over gRPC and returns the names answered, in order.
func grpcBulkSubscribe(t *testing.T, ctx context.Context, sub string, ids []string) []string {
	t.Helper()
	req := &pb.BulkCreateWebhookSubscriptionEventTypesRequest{Uuid: sub}
	for _, id := range ids {
		req.Items = append(req.Items, &pb.WebhookSubscriptionEventTypeCreate{WebhookEventTypeUuid: id})
	}
	res, err := pb.NewWebhookSubscriptionServiceClient(env.GRPC).BulkCreateWebhookSubscriptionEventTypes(ctx, req)
	if err != nil {
		t.Fatalf("gRPC bulk subscribe: %v", err)
	}
	var names []string
	for _, it := range res.GetItems() {
		if it.GetWebhookSubscriptionUuid() != sub {
			t.Errorf("item %v is of another subscription", it)
		}
		names = append(names, it.GetName())
	}
	return names
}
