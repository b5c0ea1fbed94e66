package webhooks

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func wantCode(t *testing.T, what string, err error, code codes.Code) {
	t.Helper()
	if st, _ := status.FromError(err); err == nil || st.Code() != code {
		t.Errorf("%s: error %v, want %s", what, err, code)
	}
}

func TestWebhooksOverGRPC(t *testing.T) {
	t.Parallel()
	tenant := "g-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	cli := catalogv1.NewWebhookSubscriptionServiceClient(env.GRPC)
	types := catalogv1.NewWebhookEventTypeServiceClient(env.GRPC)
	rc := newReceiver(t, nil)

	created, err := cli.CreateWebhookSubscription(ctx, &catalogv1.CreateWebhookSubscriptionRequest{
		WebhookSubscription: &catalogv1.WebhookSubscriptionCreate{DisplayName: "grpc", TargetUrl: rc.URL}})
	if err != nil {
		t.Fatal(err)
	}
	sub := created.GetWebhookSubscription()
	if sub.GetStatus() != catalogv1.WebhookSubscriptionStatus_WEBHOOK_SUBSCRIPTION_STATUS_ACTIVE || sub.GetRequestTimeoutMs() != 15000 ||
		!secretRe.MatchString(sub.GetSecret()) || !UUIDRe.MatchString(sub.GetUuid()) || sub.GetTargetUrl() != rc.URL {
		t.Fatalf("created over gRPC: %v", sub)
	}
	got, err := cli.GetWebhookSubscription(ctx, &catalogv1.GetWebhookSubscriptionRequest{Uuid: sub.GetUuid()})
	if err != nil || got.GetWebhookSubscription().Secret != nil {
		t.Errorf("get over gRPC: %v, %v (secret must be unset)", got, err)
	}

	et, err := types.ListWebhookEventTypes(GRPCContext(t, tenant, "unrelated:scope"), &catalogv1.ListWebhookEventTypesRequest{
		Names: &catalogv1.StringsFilter{Eq: []string{"attribute.created"}}})
	if err != nil || len(et.GetItems()) != 1 {
		t.Fatalf("event types over gRPC: %v, %v", et, err)
	}
	if _, err := cli.CreateWebhookSubscriptionEventType(ctx, &catalogv1.CreateWebhookSubscriptionEventTypeRequest{Uuid: sub.GetUuid(),
		SubscriptionEventType: &catalogv1.WebhookSubscriptionEventTypeCreate{WebhookEventTypeUuid: et.GetItems()[0].GetUuid()}}); err != nil {
		t.Fatal(err)
	}
	attr := mkAttr(t, clientFor(t, env, tenant), "via-rest")

	var d *catalogv1.WebhookDelivery
	WaitFor(t, 15*time.Second, "a delivered delivery listed over gRPC", func() bool {
		res, err := cli.ListWebhookDeliveries(ctx, &catalogv1.ListWebhookDeliveriesRequest{Uuid: sub.GetUuid()})
		if err != nil {
			t.Fatalf("ListWebhookDeliveries: %v", err)
		}
		if len(res.GetItems()) == 1 && res.GetItems()[0].GetStatus() == catalogv1.WebhookDeliveryStatus_WEBHOOK_DELIVERY_STATUS_DELIVERED {
			d = res.GetItems()[0]
			if res.GetPagination().GetTotalItems() != 1 {
				t.Errorf("pagination %v", res.GetPagination())
			}
			return true
		}
		return false
	})
	if d.GetAttempts() != 1 || d.LastStatusCode == nil || d.GetLastStatusCode() != 200 || d.GetScheduledAt() != nil ||
		d.GetEventType() != "attribute.created" || d.GetSubscriptionUuid() != sub.GetUuid() ||
		d.GetPayload().GetFields()["attributeUuid"].GetStringValue() != attr {
		t.Errorf("delivery over gRPC: %v", d)
	}
	hs := rc.hooks()
	if len(hs) != 1 || hs[0].id() != d.GetUuid() {
		t.Fatalf("receiver got %d requests (want 1 with webhook-id %s)", len(hs), d.GetUuid())
	}
	verify(t, "delivery", hs[0], sub.GetSecret())

	// Errors carry the matching status codes.
	_, err = cli.CreateWebhookSubscription(ctx, &catalogv1.CreateWebhookSubscriptionRequest{WebhookSubscription: &catalogv1.WebhookSubscriptionCreate{
		DisplayName: "x", TargetUrl: rc.URL, RequestTimeoutMs: proto.Int32(999)}})
	wantCode(t, "requestTimeoutMs 999", err, codes.InvalidArgument)
	_, err = cli.CreateWebhookSubscription(ctx, &catalogv1.CreateWebhookSubscriptionRequest{WebhookSubscription: &catalogv1.WebhookSubscriptionCreate{
		DisplayName: "x", TargetUrl: "http://169.254.169.254/"}})
	wantCode(t, "metadata target", err, codes.InvalidArgument)
	_, err = cli.CreateWebhookSubscription(GRPCContext(t, tenant, "webhooks:read"), &catalogv1.CreateWebhookSubscriptionRequest{
		WebhookSubscription: &catalogv1.WebhookSubscriptionCreate{DisplayName: "x", TargetUrl: rc.URL}})
	wantCode(t, "create with webhooks:read", err, codes.PermissionDenied)
	_, err = cli.ListWebhookDeliveries(GRPCContext(t, tenant, "catalog:read", "catalog:write"), &catalogv1.ListWebhookDeliveriesRequest{Uuid: sub.GetUuid()})
	wantCode(t, "list deliveries with catalog scopes", err, codes.PermissionDenied)
	_, err = cli.ListWebhookDeliveries(GRPCContext(t, "g-"+RandomHex(8)), &catalogv1.ListWebhookDeliveriesRequest{Uuid: sub.GetUuid()})
	wantCode(t, "list deliveries of another tenant's subscription", err, codes.NotFound)
	_, err = cli.ListWebhookDeliveries(ctx, &catalogv1.ListWebhookDeliveriesRequest{Uuid: RandomUUID()})
	wantCode(t, "list deliveries of an unknown subscription", err, codes.NotFound)
	_, err = cli.ListWebhookDeliveries(context.Background(), &catalogv1.ListWebhookDeliveriesRequest{Uuid: sub.GetUuid()})
	wantCode(t, "no token", err, codes.Unauthenticated)
}
