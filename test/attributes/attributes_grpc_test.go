package attributes

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func grpcClient() catalogv1.AttributeServiceClient {
	return catalogv1.NewAttributeServiceClient(env.GRPC)
}

func freshTenant() string { return "g-" + RandomHex(8) }

// wantStatus checks a gRPC error's code and its google.rpc.ErrorInfo reason; it returns the
// BadRequest field names (if any) and the ErrorInfo metadata.
func wantStatus(t *testing.T, err error, code codes.Code, reason string) ([]string, map[string]string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	st, ok := status.FromError(err)
	if !ok {
		t.Fatalf("not a gRPC status: %v", err)
	}
	if st.Code() != code {
		t.Fatalf("code %s (%s), want %s", st.Code(), st.Message(), code)
	}
	var fields []string
	var meta map[string]string
	foundInfo := false
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			foundInfo = true
			if d.Reason != reason || d.Domain != "catalogd" {
				t.Errorf("ErrorInfo reason/domain %s/%s, want %s/catalogd", d.Reason, d.Domain, reason)
			}
			meta = d.Metadata
		case *errdetails.BadRequest:
			for _, v := range d.FieldViolations {
				fields = append(fields, v.Field)
			}
		}
	}
	if !foundInfo {
		t.Errorf("status %s carries no ErrorInfo: %v", st.Code(), st.Details())
	}
	return fields, meta
}

func TestGRPCCreateGetList(t *testing.T) {
	t.Parallel()
	cl := grpcClient()
	ctx := GRPCContext(t, freshTenant())

	cr, err := cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "color"}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	a := cr.Attribute
	if !UUIDRe.MatchString(a.Uuid) || a.Code != "color" || a.DisplayName != "color" ||
		a.Status != catalogv1.AttributeStatus_ATTRIBUTE_STATUS_DRAFT || a.RemovedAt != nil || a.CreatedAt == nil || a.UpdatedAt == nil {
		t.Errorf("created %v", a)
	}
	if a.ContentUuids != nil || a.Contents != nil {
		t.Errorf("create fills contents: %v", a)
	}

	g, err := cl.GetAttribute(ctx, &catalogv1.GetAttributeRequest{AttributeUuid: a.Uuid})
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	if !proto.Equal(g.Attribute, a) {
		t.Errorf("get %v, want %v", g.Attribute, a)
	}
	g, err = cl.GetAttribute(ctx, &catalogv1.GetAttributeRequest{AttributeUuid: a.Uuid,
		Include: &catalogv1.AttributeInclude{Contents: true}, Expand: &catalogv1.AttributeInclude{Contents: true}})
	if err != nil {
		t.Fatalf("get with include: %v", err)
	}
	if g.Attribute.ContentUuids == nil || len(g.Attribute.ContentUuids.Values) != 0 || g.Attribute.Contents == nil {
		t.Errorf("get with include/expand and no contents: %v", g.Attribute)
	}

	// The REST view of the same tenant agrees.
	bulk, err := cl.BulkCreateAttributes(ctx, &catalogv1.BulkCreateAttributesRequest{Items: []*catalogv1.AttributeCreate{
		{Code: "size", DisplayName: proto.String("Size")}, {Code: "shirt-size"}, {Code: "material"},
	}})
	if err != nil {
		t.Fatalf("bulk create: %v", err)
	}
	if len(bulk.Items) != 3 || bulk.Items[0].Code != "size" || bulk.Items[2].Code != "material" {
		t.Fatalf("bulk create: %v", bulk.Items)
	}
	if _, err := cl.TransitionAttribute(ctx, &catalogv1.TransitionAttributeRequest{AttributeUuid: bulk.Items[1].Uuid,
		Transition: catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH}); err != nil {
		t.Fatalf("publish: %v", err)
	}
	if _, err := cl.TransitionAttribute(ctx, &catalogv1.TransitionAttributeRequest{AttributeUuid: bulk.Items[2].Uuid,
		Transition: catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_REMOVE}); err != nil {
		t.Fatalf("remove: %v", err)
	}

	codesOfPB := func(items []*catalogv1.Attribute) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.Code)
		}
		return out
	}
	run := func(what string, req *catalogv1.ListAttributesRequest, want ...string) *catalogv1.ListAttributesResponse {
		t.Helper()
		res, err := cl.ListAttributes(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := codesOfPB(res.Items); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", what, got, want)
		}
		return res
	}
	res := run("all (default order, removed left out)", &catalogv1.ListAttributesRequest{}, "color", "size", "shirt-size")
	if p := res.Pagination; p.Page != 1 || p.Size != 20 || p.TotalItems != 3 || p.TotalPages != 1 {
		t.Errorf("pagination %v", p)
	}
	run("codes eq", &catalogv1.ListAttributesRequest{Codes: &catalogv1.StringsFilter{Eq: []string{"size", "material", "color"}}}, "color", "size")
	run("code contains (case-insensitive)", &catalogv1.ListAttributesRequest{Code: &catalogv1.StringFilter{Contains: proto.String("SIZE")},
		OrderBy: []*catalogv1.OrderBy{{Field: "code", Direction: catalogv1.SortDirection_SORT_DIRECTION_ASC}}}, "shirt-size", "size")
	run("code starts", &catalogv1.ListAttributesRequest{Code: &catalogv1.StringFilter{Starts: proto.String("s")},
		OrderBy: []*catalogv1.OrderBy{{Field: "code", Direction: catalogv1.SortDirection_SORT_DIRECTION_DESC}}}, "size", "shirt-size")
	run("displayNames eq", &catalogv1.ListAttributesRequest{DisplayNames: &catalogv1.StringsFilter{Eq: []string{"Size"}}}, "size")
	run("statuses", &catalogv1.ListAttributesRequest{Statuses: &catalogv1.StringsFilter{Eq: []string{"published", "removed"}},
		OrderBy: []*catalogv1.OrderBy{{Field: "status", Direction: catalogv1.SortDirection_SORT_DIRECTION_ASC}}}, "shirt-size", "material")
	run("isRemoved", &catalogv1.ListAttributesRequest{IsRemoved: &catalogv1.BoolFilter{Eq: proto.Bool(true)}}, "material")
	run("uuids", &catalogv1.ListAttributesRequest{Uuids: &catalogv1.StringsFilter{Eq: []string{a.Uuid, bulk.Items[1].Uuid}}}, "color", "shirt-size")
	run("createdAt eq", &catalogv1.ListAttributesRequest{CreatedAt: &catalogv1.TimeFilter{Eq: a.CreatedAt}}, "color")
	run("createdAt min", &catalogv1.ListAttributesRequest{CreatedAt: &catalogv1.TimeFilter{Min: bulk.Items[0].CreatedAt}}, "size", "shirt-size")
	run("createdAt max", &catalogv1.ListAttributesRequest{CreatedAt: &catalogv1.TimeFilter{Max: a.CreatedAt}}, "color")
	res = run("page 2 of size 2", &catalogv1.ListAttributesRequest{Page: proto.Int32(2), Size: proto.Int32(2)}, "shirt-size")
	if p := res.Pagination; p.Page != 2 || p.Size != 2 || p.TotalItems != 3 || p.TotalPages != 2 {
		t.Errorf("pagination %v", p)
	}
	_, err = cl.ListAttributes(ctx, &catalogv1.ListAttributesRequest{Size: proto.Int32(101)})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "size") {
		t.Errorf("size 101: fields %v", fields)
	}
}

func TestGRPCUpdateWithMask(t *testing.T) {
	t.Parallel()
	cl := grpcClient()
	ctx := GRPCContext(t, freshTenant())
	cr, err := cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "color", DisplayName: proto.String("Color")}})
	if err != nil {
		t.Fatal(err)
	}
	id := cr.Attribute.Uuid

	// Mask naming display_name, only display_name set.
	u, err := cl.UpdateAttribute(ctx, &catalogv1.UpdateAttributeRequest{AttributeUuid: id, Attribute: &catalogv1.AttributeUpdate{
		DisplayName: proto.String("Colour"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"display_name"}}}})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if u.Attribute.Code != "color" || u.Attribute.DisplayName != "Colour" {
		t.Errorf("after display_name update: %v", u.Attribute)
	}
	if !u.Attribute.UpdatedAt.AsTime().After(cr.Attribute.UpdatedAt.AsTime()) || !proto.Equal(u.Attribute.CreatedAt, cr.Attribute.CreatedAt) {
		t.Errorf("timestamps: %v", u.Attribute)
	}

	// Mask naming code, only code set.
	u, err = cl.UpdateAttribute(ctx, &catalogv1.UpdateAttributeRequest{AttributeUuid: id, Attribute: &catalogv1.AttributeUpdate{
		Code: proto.String("hue"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"code"}}}})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if u.Attribute.Code != "hue" || u.Attribute.DisplayName != "Colour" {
		t.Errorf("after code update: %v", u.Attribute)
	}

	// No mask: the fields present change.
	u, err = cl.UpdateAttribute(ctx, &catalogv1.UpdateAttributeRequest{AttributeUuid: id, Attribute: &catalogv1.AttributeUpdate{Code: proto.String("shade")}})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if u.Attribute.Code != "shade" {
		t.Errorf("presence update: %v", u.Attribute)
	}
	g, err := cl.GetAttribute(ctx, &catalogv1.GetAttributeRequest{AttributeUuid: id})
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(g.Attribute, u.Attribute) {
		t.Errorf("get after updates %v, want %v", g.Attribute, u.Attribute)
	}

	// Validation over gRPC.
	_, err = cl.UpdateAttribute(ctx, &catalogv1.UpdateAttributeRequest{AttributeUuid: id, Attribute: &catalogv1.AttributeUpdate{Code: proto.String("")}})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "code") {
		t.Errorf("empty code: fields %v", fields)
	}
}

// TestGRPCUpdateMaskLimitsFields: attributes.proto documents update_mask as "Over gRPC: the fields
// to change" (AIP-134): a field set in the message but not named by the mask must not change.
func TestGRPCUpdateMaskLimitsFields(t *testing.T) {
	t.Parallel()
	cl := grpcClient()
	ctx := GRPCContext(t, freshTenant())
	cr, err := cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "color", DisplayName: proto.String("Color")}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := cl.UpdateAttribute(ctx, &catalogv1.UpdateAttributeRequest{AttributeUuid: cr.Attribute.Uuid, Attribute: &catalogv1.AttributeUpdate{
		Code: proto.String("hue"), DisplayName: proto.String("ignored"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"code"}}}})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if u.Attribute.Code != "hue" || u.Attribute.DisplayName != "Color" {
		t.Errorf("update_mask [code] with display_name also set: got code %q displayName %q, want hue / Color (display_name not in the mask)",
			u.Attribute.Code, u.Attribute.DisplayName)
	}
}

func TestGRPCBulkUpdateAndTransition(t *testing.T) {
	t.Parallel()
	cl := grpcClient()
	ctx := GRPCContext(t, freshTenant())
	bulk, err := cl.BulkCreateAttributes(ctx, &catalogv1.BulkCreateAttributesRequest{Items: []*catalogv1.AttributeCreate{
		{Code: "a", DisplayName: proto.String("A")}, {Code: "b", DisplayName: proto.String("B")}}})
	if err != nil {
		t.Fatal(err)
	}
	a, b := bulk.Items[0], bulk.Items[1]
	up, err := cl.BulkUpdateAttributes(ctx, &catalogv1.BulkUpdateAttributesRequest{Items: []*catalogv1.AttributeUpdate{
		{Uuid: b.Uuid, DisplayName: proto.String("B2")},
		{Uuid: a.Uuid, Code: proto.String("a2")},
	}})
	if err != nil {
		t.Fatalf("bulk update: %v", err)
	}
	if len(up.Items) != 2 || up.Items[0].Uuid != b.Uuid || up.Items[0].Code != "b" || up.Items[0].DisplayName != "B2" ||
		up.Items[1].Uuid != a.Uuid || up.Items[1].Code != "a2" || up.Items[1].DisplayName != "A" {
		t.Errorf("bulk update: %v", up.Items)
	}
	_, err = cl.BulkUpdateAttributes(ctx, &catalogv1.BulkUpdateAttributesRequest{Items: []*catalogv1.AttributeUpdate{
		{Uuid: a.Uuid, DisplayName: proto.String("never")}, {Uuid: b.Uuid, Code: proto.String("a2")}}})
	if fields, _ := wantStatus(t, err, codes.AlreadyExists, "ALREADY_EXISTS"); !slices.Contains(fields, "[1].code") {
		t.Errorf("bulk update conflict: fields %v", fields)
	}
	g, _ := cl.GetAttribute(ctx, &catalogv1.GetAttributeRequest{AttributeUuid: a.Uuid})
	if g.GetAttribute().GetDisplayName() != "A" {
		t.Errorf("a failed bulk update changed item 0: %v", g.GetAttribute())
	}

	tr, err := cl.BulkTransitionAttributes(ctx, &catalogv1.BulkTransitionAttributesRequest{
		Transition: catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_REMOVE, Uuids: []string{b.Uuid, a.Uuid}})
	if err != nil {
		t.Fatalf("bulk remove: %v", err)
	}
	if len(tr.Items) != 2 || tr.Items[0].Uuid != b.Uuid || tr.Items[1].Uuid != a.Uuid {
		t.Fatalf("bulk remove order: %v", tr.Items)
	}
	for _, it := range tr.Items {
		if it.Status != catalogv1.AttributeStatus_ATTRIBUTE_STATUS_REMOVED || it.RemovedAt == nil {
			t.Errorf("bulk remove item %v", it)
		}
	}
	_, err = cl.TransitionAttribute(ctx, &catalogv1.TransitionAttributeRequest{AttributeUuid: a.Uuid,
		Transition: catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH})
	// ErrorInfo metadata: strings, an array as its JSON text (AIP-193); typed in the Struct detail.
	_, meta := wantStatus(t, err, codes.FailedPrecondition, "INVALID_TRANSITION")
	if meta["currentStatus"] != "removed" || meta["allowedTransitions"] != `["restore"]` {
		t.Errorf("invalid transition metadata %v", meta)
	}
	WantTransitionMeta(t, "gRPC publish a removed attribute", GRPCMeta(err), "removed", "restore")
	_, err = cl.TransitionAttribute(ctx, &catalogv1.TransitionAttributeRequest{AttributeUuid: a.Uuid})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "transition") {
		t.Errorf("missing transition: fields %v", fields)
	}
}

func TestGRPCNotFound(t *testing.T) {
	t.Parallel()
	cl := grpcClient()
	tenant := freshTenant()
	ctx := GRPCContext(t, tenant)
	missing := RandomUUID()
	_, err := cl.GetAttribute(ctx, &catalogv1.GetAttributeRequest{AttributeUuid: missing})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	_, err = cl.UpdateAttribute(ctx, &catalogv1.UpdateAttributeRequest{AttributeUuid: missing, Attribute: &catalogv1.AttributeUpdate{DisplayName: proto.String("x")}})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	_, err = cl.DeleteAttribute(ctx, &catalogv1.DeleteAttributeRequest{AttributeUuid: missing})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	_, err = cl.TransitionAttribute(ctx, &catalogv1.TransitionAttributeRequest{AttributeUuid: missing,
		Transition: catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")

	// Another tenant's attribute is not found either.
	cr, err := cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "mine"}})
	if err != nil {
		t.Fatal(err)
	}
	other := GRPCContext(t, freshTenant())
	_, err = cl.GetAttribute(other, &catalogv1.GetAttributeRequest{AttributeUuid: cr.Attribute.Uuid})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	_, err = cl.BulkTransitionAttributes(other, &catalogv1.BulkTransitionAttributesRequest{
		Transition: catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH, Uuids: []string{cr.Attribute.Uuid}})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	lr, err := cl.ListAttributes(other, &catalogv1.ListAttributesRequest{})
	if err != nil || len(lr.Items) != 0 {
		t.Errorf("other tenant lists %v (%v)", lr.GetItems(), err)
	}
}

func TestGRPCInvalidArgument(t *testing.T) {
	t.Parallel()
	cl := grpcClient()
	ctx := GRPCContext(t, freshTenant())
	_, err := cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: ""}})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "code") {
		t.Errorf("empty code: BadRequest fields %v, want code", fields)
	}
	_, err = cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "x", DisplayName: proto.String(strings.Repeat("x", 101))}})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "displayName") {
		t.Errorf("long displayName: BadRequest fields %v", fields)
	}
	_, err = cl.BulkCreateAttributes(ctx, &catalogv1.BulkCreateAttributesRequest{Items: []*catalogv1.AttributeCreate{{Code: "ok"}, {Code: ""}}})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "[1].code") {
		t.Errorf("bulk: BadRequest fields %v, want [1].code", fields)
	}
	_, err = cl.BulkCreateAttributes(ctx, &catalogv1.BulkCreateAttributesRequest{})
	wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED")
	_, err = cl.GetAttribute(ctx, &catalogv1.GetAttributeRequest{AttributeUuid: "nope"})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "attributeUuid") {
		t.Errorf("bad uuid: BadRequest fields %v", fields)
	}
	_, err = cl.ListAttributes(ctx, &catalogv1.ListAttributesRequest{Statuses: &catalogv1.StringsFilter{Eq: []string{"archived"}}})
	if fields, _ := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Contains(fields, "statuses[eq]") {
		t.Errorf("bad status filter: fields %v", fields)
	}
	_, err = cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "dup"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = cl.CreateAttribute(ctx, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "dup"}})
	if fields, _ := wantStatus(t, err, codes.AlreadyExists, "ALREADY_EXISTS"); !slices.Contains(fields, "code") {
		t.Errorf("duplicate: fields %v", fields)
	}
}

func TestGRPCUnauthenticatedAndPermissionDenied(t *testing.T) {
	t.Parallel()
	cl := grpcClient()
	tenant := freshTenant()
	cr, err := cl.CreateAttribute(GRPCContext(t, tenant), &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	id := cr.Attribute.Uuid

	bare, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = cl.ListAttributes(bare, &catalogv1.ListAttributesRequest{})
	wantStatus(t, err, codes.Unauthenticated, "UNAUTHENTICATED")
	_, err = cl.CreateAttribute(bare, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "b"}})
	wantStatus(t, err, codes.Unauthenticated, "UNAUTHENTICATED")
	bad := metadata.AppendToOutgoingContext(bare, "authorization", "Bearer "+rawJWT("another-secret-0123456789abcdef0123456789", validClaims(tenant)))
	_, err = cl.GetAttribute(bad, &catalogv1.GetAttributeRequest{AttributeUuid: id})
	wantStatus(t, err, codes.Unauthenticated, "UNAUTHENTICATED")
	noTenant := validClaims(tenant)
	delete(noTenant, "tenant_id")
	_, err = cl.GetAttribute(metadata.AppendToOutgoingContext(bare, "authorization", "Bearer "+rawJWT(Secret, noTenant)),
		&catalogv1.GetAttributeRequest{AttributeUuid: id})
	wantStatus(t, err, codes.Unauthenticated, "UNAUTHENTICATED")

	ro := GRPCContext(t, tenant, "catalog:read")
	if _, err := cl.GetAttribute(ro, &catalogv1.GetAttributeRequest{AttributeUuid: id}); err != nil {
		t.Errorf("read-only get: %v", err)
	}
	_, err = cl.CreateAttribute(ro, &catalogv1.CreateAttributeRequest{Attribute: &catalogv1.AttributeCreate{Code: "b"}})
	wantStatus(t, err, codes.PermissionDenied, "FORBIDDEN")
	_, err = cl.UpdateAttribute(ro, &catalogv1.UpdateAttributeRequest{AttributeUuid: id, Attribute: &catalogv1.AttributeUpdate{DisplayName: proto.String("x")}})
	wantStatus(t, err, codes.PermissionDenied, "FORBIDDEN")
	_, err = cl.TransitionAttribute(ro, &catalogv1.TransitionAttributeRequest{AttributeUuid: id, Transition: catalogv1.AttributeTransition_ATTRIBUTE_TRANSITION_PUBLISH})
	wantStatus(t, err, codes.PermissionDenied, "FORBIDDEN")
	_, err = cl.DeleteAttribute(ro, &catalogv1.DeleteAttributeRequest{AttributeUuid: id})
	wantStatus(t, err, codes.PermissionDenied, "FORBIDDEN")

	wo := GRPCContext(t, tenant, "catalog:write")
	_, err = cl.ListAttributes(wo, &catalogv1.ListAttributesRequest{})
	wantStatus(t, err, codes.PermissionDenied, "FORBIDDEN")
	_, err = cl.GetAttribute(wo, &catalogv1.GetAttributeRequest{AttributeUuid: id})
	wantStatus(t, err, codes.PermissionDenied, "FORBIDDEN")

	g, err := cl.GetAttribute(GRPCContext(t, tenant), &catalogv1.GetAttributeRequest{AttributeUuid: id})
	if err != nil || !proto.Equal(g.Attribute, cr.Attribute) {
		t.Errorf("refused calls changed the attribute: %v (%v)", g.GetAttribute(), err)
	}
}
