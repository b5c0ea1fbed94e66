package attributes

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// problemErrors lists a problem document's errors as "field: message".
func problemErrors(p map[string]any) []string {
	var out []string
	errs, _ := p["errors"].([]any)
	for _, e := range errs {
		m, _ := e.(map[string]any)
		out = append(out, fmt.Sprintf("%v: %v", m["field"], m["message"]))
	}
	return out
}

// grpcViolations lists a gRPC status's BadRequest violations as "field: message".
func grpcViolations(t *testing.T, err error) []string {
	t.Helper()
	st, _ := status.FromError(err)
	if st.Code() != codes.InvalidArgument {
		t.Fatalf("code %s (%v), want InvalidArgument", st.Code(), err)
	}
	var out []string
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, v := range br.FieldViolations {
				out = append(out, v.Field+": "+v.Description)
			}
		}
	}
	return out
}

func wantViolations(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: violations %q, want %q", what, got, want)
	}
}

// The request rules declared in proto are enforced the same way over REST and gRPC, for the crud
// families and for the other services alike, with the field names a REST client sees.
func TestRequestRulesOverRESTAndGRPC(t *testing.T) {
	t.Parallel()
	tenant := freshTenant()
	c := env.ClientFor(t, tenant)
	ctx := GRPCContext(t, tenant)
	long := strings.Repeat("c", 101)

	p := WantProblem(t, c.Post("/v1/attributes", Body("code", long)), 400, "VALIDATION_FAILED", "code")
	wantViolations(t, "REST create", problemErrors(p), "code: must be 1 to 100 characters")
	_, err := grpcClient().CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: long}})
	wantViolations(t, "gRPC create", grpcViolations(t, err), "code: must be 1 to 100 characters")

	// Code points, not bytes: 100 four-byte characters are fine.
	Want(t, c.Post("/v1/attributes", Body("code", strings.Repeat("😀", 100))), 201)

	// A bulk names each bad item; the array itself is `body`.
	p = WantProblem(t, c.Post("/v1/attributes/bulk", []any{Body("code", "ok"), Body("code", long), Body("code", "x", "displayName", "")}),
		400, "VALIDATION_FAILED")
	wantViolations(t, "REST bulk", problemErrors(p), "[1].code: must be 1 to 100 characters", "[2].displayName: is required")
	_, err = grpcClient().BulkCreateAttributes(ctx, &catalogv1.BulkCreateAttributesRequest{Items: []*catalogv1.AttributeCreate{{Code: "ok"}, {Code: long}}})
	wantViolations(t, "gRPC bulk", grpcViolations(t, err), "[1].code: must be 1 to 100 characters")
	p = WantProblem(t, c.Post("/v1/attributes/bulk", []any{}), 400, "VALIDATION_FAILED", "body")
	wantViolations(t, "empty bulk", problemErrors(p), "body: must be an array of 1 to 100 items")

	// A list (query parameters) and a bulk transition (body "*").
	p = WantProblem(t, c.Get("/v1/attributes?page=0"), 400, "VALIDATION_FAILED", "page")
	wantViolations(t, "REST page", problemErrors(p), "page: must be 1 or more")
	_, err = grpcClient().ListAttributes(ctx, &catalogv1.ListAttributesRequest{Size: proto.Int32(0)})
	wantViolations(t, "gRPC size", grpcViolations(t, err), "size: must be 1 to 100")
	p = WantProblem(t, c.Patch("/v1/attributes/bulk/actions/lifecycle", Body("uuids", []string{"nope"})), 400, "VALIDATION_FAILED")
	wantViolations(t, "REST bulk transition", problemErrors(p),
		"transition: is required: one of publish, unpublish, remove, restore", "uuids[0]: must be a uuid")

	// Services outside the crud engine: webhook subscriptions.
	p = WantProblem(t, c.Post("/v1/webhook-subscriptions", Body("displayName", long, "targetUrl", "https://example.com/hook", "requestTimeoutMs", 999)),
		400, "VALIDATION_FAILED")
	wantViolations(t, "REST webhook", problemErrors(p), "displayName: must be 1 to 100 characters", "requestTimeoutMs: must be 1000 to 30000")
	_, err = catalogv1.NewWebhookSubscriptionServiceClient(env.GRPC).CreateWebhookSubscription(ctx, &catalogv1.CreateWebhookSubscriptionRequest{
		WebhookSubscription: &catalogv1.WebhookSubscriptionCreate{DisplayName: long}})
	wantViolations(t, "gRPC webhook", grpcViolations(t, err), "displayName: must be 1 to 100 characters", "targetUrl: is required")

	if n := len(listCodes(t, c, "")); n != 1 {
		t.Errorf("%d attributes after refused requests, want the one valid create", n)
	}
}
