package structure_basic

import (
	"context"
	"slices"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func freshTenant() string { return "g-" + RandomHex(8) }

// wantStatus checks a gRPC error's code and its google.rpc.ErrorInfo reason, and returns the
// BadRequest field names.
func wantStatus(t *testing.T, err error, code codes.Code, reason string) []string {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	st, ok := status.FromError(err)
	if !ok || st.Code() != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
	var fields []string
	found := false
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			found = d.Reason == reason && d.Domain == "catalogd"
		case *errdetails.BadRequest:
			for _, v := range d.FieldViolations {
				fields = append(fields, v.Field)
			}
		}
	}
	if !found {
		t.Errorf("status %v carries no ErrorInfo with reason %s", st.Details(), reason)
	}
	return fields
}

func must[T any](t *testing.T, what string) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

func TestGRPCBrandsAndContents(t *testing.T) {
	t.Parallel()
	tenant := freshTenant()
	ctx := GRPCContext(t, tenant)
	cl := pb.NewBrandServiceClient(env.GRPC)
	ccl := pb.NewBrandContentServiceClient(env.GRPC)
	locales := pb.NewLocaleServiceClient(env.GRPC)
	en := must[*pb.CreateLocaleResponse](t, "locale")(locales.CreateLocale(ctx, &pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: "en-US"}})).Locale.Uuid
	log := NewEventLog(pool, tenant)
	log.Skip(t)

	b := must[*pb.CreateBrandResponse](t, "create")(cl.CreateBrand(ctx, &pb.CreateBrandRequest{Brand: &pb.BrandCreate{Code: "acme"}})).Brand
	if !UUIDRe.MatchString(b.Uuid) || b.Code != "acme" || b.DisplayName != "acme" || b.CreatedAt == nil || b.ContentUuids != nil || b.Contents != nil {
		t.Errorf("created %v", b)
	}
	log.Expect(t, "create", brandsF.ev("created", b.Uuid))
	g := must[*pb.GetBrandResponse](t, "get")(cl.GetBrand(ctx, &pb.GetBrandRequest{BrandUuid: b.Uuid})).Brand
	if !proto.Equal(g, b) {
		t.Errorf("get %v, want %v", g, b)
	}

	// Contents over gRPC, with description cleared through the update mask.
	bc := must[*pb.CreateBrandContentResponse](t, "create content")(ccl.CreateBrandContent(ctx, &pb.CreateBrandContentRequest{BrandUuid: b.Uuid,
		BrandContent: &pb.BrandContentCreate{LocaleUuid: en, DisplayName: "Acme", Description: proto.String("Makers")}})).BrandContent
	if bc.BrandUuid != b.Uuid || bc.LocaleUuid != en || bc.GetDescription() != "Makers" {
		t.Errorf("created content %v", bc)
	}
	log.Expect(t, "create content", brandsF.contentEv("created", b.Uuid, bc.Uuid))
	u := must[*pb.UpdateBrandContentResponse](t, "update content")(ccl.UpdateBrandContent(ctx, &pb.UpdateBrandContentRequest{BrandUuid: b.Uuid, BrandContentUuid: bc.Uuid,
		BrandContent: &pb.BrandContentUpdate{UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}}}})).BrandContent
	if u.Description != nil || u.DisplayName != "Acme" {
		t.Errorf("cleared description: %v", u)
	}
	gc := must[*pb.GetBrandContentResponse](t, "get content")(ccl.GetBrandContent(ctx, &pb.GetBrandContentRequest{BrandUuid: b.Uuid, BrandContentUuid: bc.Uuid})).BrandContent
	if !proto.Equal(gc, u) {
		t.Errorf("get content %v, want %v", gc, u)
	}
	lc := must[*pb.ListBrandContentsResponse](t, "list contents")(ccl.ListBrandContents(ctx, &pb.ListBrandContentsRequest{BrandUuid: b.Uuid,
		LocaleUuids: &pb.StringsFilter{Eq: []string{en}}}))
	if len(lc.Items) != 1 || !proto.Equal(lc.Items[0], u) || lc.Pagination.TotalItems != 1 {
		t.Errorf("list contents %v", lc)
	}
	_, err := ccl.CreateBrandContent(ctx, &pb.CreateBrandContentRequest{BrandUuid: b.Uuid, BrandContent: &pb.BrandContentCreate{LocaleUuid: en, DisplayName: "again"}})
	if f := wantStatus(t, err, codes.AlreadyExists, "ALREADY_EXISTS"); !slices.Equal(f, []string{"localeUuid"}) {
		t.Errorf("duplicate locale names %v", f)
	}
	_, err = ccl.ListBrandContents(ctx, &pb.ListBrandContentsRequest{BrandUuid: randomUUID()})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	_, err = ccl.BulkCreateBrandContents(ctx, &pb.BulkCreateBrandContentsRequest{BrandUuid: b.Uuid, Items: []*pb.BrandContentCreate{{LocaleUuid: randomUUID(), DisplayName: "x"}}})
	if f := wantStatus(t, err, codes.NotFound, "NOT_FOUND"); !slices.Equal(f, []string{"[0].localeUuid"}) {
		t.Errorf("unknown locale names %v", f)
	}

	// Hydrated get and list.
	g = must[*pb.GetBrandResponse](t, "get hydrated")(cl.GetBrand(ctx, &pb.GetBrandRequest{BrandUuid: b.Uuid,
		Include: &pb.BrandInclude{Contents: true}, Expand: &pb.BrandInclude{Contents: true}})).Brand
	if !slices.Equal(g.ContentUuids.GetValues(), []string{bc.Uuid}) || len(g.Contents.GetItems()) != 1 || !proto.Equal(g.Contents.Items[0], u) {
		t.Errorf("hydrated get %v", g)
	}
	bulk := must[*pb.BulkCreateBrandsResponse](t, "bulk create")(cl.BulkCreateBrands(ctx, &pb.BulkCreateBrandsRequest{Items: []*pb.BrandCreate{
		{Code: "globex", DisplayName: proto.String("Globex")}, {Code: "initech"}}}))
	if len(bulk.Items) != 2 || bulk.Items[0].DisplayName != "Globex" || bulk.Items[1].Code != "initech" {
		t.Fatalf("bulk create %v", bulk.Items)
	}
	l := must[*pb.ListBrandsResponse](t, "list")(cl.ListBrands(ctx, &pb.ListBrandsRequest{Include: &pb.BrandInclude{Contents: true},
		OrderBy: []*pb.OrderBy{{Field: "code", Direction: pb.SortDirection_SORT_DIRECTION_DESC}}, Size: proto.Int32(2)}))
	if len(l.Items) != 2 || l.Items[0].Code != "initech" || l.Items[1].Code != "globex" || l.Items[0].ContentUuids == nil ||
		len(l.Items[0].ContentUuids.Values) != 0 || l.Items[0].Contents != nil || l.Pagination.TotalItems != 3 || l.Pagination.TotalPages != 2 {
		t.Errorf("list %v", l)
	}

	// Update with and without a mask; bulk update; errors with field names.
	ub := must[*pb.UpdateBrandResponse](t, "update")(cl.UpdateBrand(ctx, &pb.UpdateBrandRequest{BrandUuid: b.Uuid,
		Brand: &pb.BrandUpdate{DisplayName: proto.String("ACME"), UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"display_name"}}}})).Brand
	if ub.Code != "acme" || ub.DisplayName != "ACME" || !ub.UpdatedAt.AsTime().After(b.UpdatedAt.AsTime()) {
		t.Errorf("updated %v", ub)
	}
	bu := must[*pb.BulkUpdateBrandsResponse](t, "bulk update")(cl.BulkUpdateBrands(ctx, &pb.BulkUpdateBrandsRequest{Items: []*pb.BrandUpdate{
		{Uuid: bulk.Items[1].Uuid, Code: proto.String("initech-2")}}}))
	if len(bu.Items) != 1 || bu.Items[0].Code != "initech-2" {
		t.Errorf("bulk updated %v", bu.Items)
	}
	_, err = cl.UpdateBrand(ctx, &pb.UpdateBrandRequest{BrandUuid: b.Uuid, Brand: &pb.BrandUpdate{Code: proto.String("globex")}})
	if f := wantStatus(t, err, codes.AlreadyExists, "ALREADY_EXISTS"); !slices.Equal(f, []string{"code"}) {
		t.Errorf("conflict names %v", f)
	}
	_, err = cl.BulkCreateBrands(ctx, &pb.BulkCreateBrandsRequest{Items: []*pb.BrandCreate{{Code: "ok"}, {}}})
	if f := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Equal(f, []string{"[1].code"}) {
		t.Errorf("missing code names %v", f)
	}
	_, err = cl.GetBrand(ctx, &pb.GetBrandRequest{BrandUuid: "nope"})
	if f := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Equal(f, []string{"brandUuid"}) {
		t.Errorf("bad uuid names %v", f)
	}
	_, err = cl.GetBrand(GRPCContext(t, freshTenant()), &pb.GetBrandRequest{BrandUuid: b.Uuid})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	_, err = cl.CreateBrand(GRPCContext(t, tenant, "catalog:read"), &pb.CreateBrandRequest{Brand: &pb.BrandCreate{Code: "x"}})
	wantStatus(t, err, codes.PermissionDenied, "FORBIDDEN")
	_, err = cl.ListBrands(context.Background(), &pb.ListBrandsRequest{})
	wantStatus(t, err, codes.Unauthenticated, "UNAUTHENTICATED")

	// Delete the content, then the brand.
	log.Skip(t)
	must[*pb.DeleteBrandContentResponse](t, "delete content")(ccl.DeleteBrandContent(ctx, &pb.DeleteBrandContentRequest{BrandUuid: b.Uuid, BrandContentUuid: bc.Uuid}))
	must[*pb.DeleteBrandResponse](t, "delete")(cl.DeleteBrand(ctx, &pb.DeleteBrandRequest{BrandUuid: b.Uuid}))
	_, err = cl.DeleteBrand(ctx, &pb.DeleteBrandRequest{BrandUuid: b.Uuid})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	log.Expect(t, "deletes", brandsF.contentEv("deleted", b.Uuid, bc.Uuid), brandsF.ev("deleted", b.Uuid))
}

func TestGRPCTagsAndContents(t *testing.T) {
	t.Parallel()
	tenant := freshTenant()
	ctx := GRPCContext(t, tenant)
	cl := pb.NewTagServiceClient(env.GRPC)
	ccl := pb.NewTagContentServiceClient(env.GRPC)
	en := must[*pb.CreateLocaleResponse](t, "locale")(pb.NewLocaleServiceClient(env.GRPC).CreateLocale(ctx, &pb.CreateLocaleRequest{Locale: &pb.LocaleCreate{Code: "en-US"}})).Locale.Uuid

	tg := must[*pb.CreateTagResponse](t, "create")(cl.CreateTag(ctx, &pb.CreateTagRequest{Tag: &pb.TagCreate{Code: "sale", DisplayName: proto.String("Sale")}})).Tag
	tc := must[*pb.BulkCreateTagContentsResponse](t, "bulk create contents")(ccl.BulkCreateTagContents(ctx, &pb.BulkCreateTagContentsRequest{TagUuid: tg.Uuid,
		Items: []*pb.TagContentCreate{{LocaleUuid: en, DisplayName: "On sale"}}})).Items
	if len(tc) != 1 || tc[0].TagUuid != tg.Uuid || tc[0].Description != nil {
		t.Fatalf("contents %v", tc)
	}
	up := must[*pb.BulkUpdateTagContentsResponse](t, "bulk update contents")(ccl.BulkUpdateTagContents(ctx, &pb.BulkUpdateTagContentsRequest{TagUuid: tg.Uuid,
		Items: []*pb.TagContentUpdate{{Uuid: tc[0].Uuid, Description: proto.String("Reduced")}}})).Items
	if len(up) != 1 || up[0].GetDescription() != "Reduced" || up[0].DisplayName != "On sale" {
		t.Errorf("updated contents %v", up)
	}
	l := must[*pb.ListTagsResponse](t, "list")(cl.ListTags(ctx, &pb.ListTagsRequest{Code: &pb.StringFilter{Starts: proto.String("SA")},
		Expand: &pb.TagInclude{Contents: true}}))
	if len(l.Items) != 1 || l.Items[0].DisplayName != "Sale" || len(l.Items[0].Contents.GetItems()) != 1 || !proto.Equal(l.Items[0].Contents.Items[0], up[0]) || l.Items[0].ContentUuids != nil {
		t.Errorf("list %v", l.Items)
	}
	_, err := ccl.GetTagContent(ctx, &pb.GetTagContentRequest{TagUuid: tg.Uuid, TagContentUuid: randomUUID()})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
	must[*pb.DeleteTagResponse](t, "delete")(cl.DeleteTag(ctx, &pb.DeleteTagRequest{TagUuid: tg.Uuid}))
	if n := CountRows(t, pool, "contents", tenant); n != 0 {
		t.Errorf("%d contents after deleting their tag", n)
	}
	_, err = ccl.ListTagContents(ctx, &pb.ListTagContentsRequest{TagUuid: tg.Uuid})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
}

func TestGRPCProductAssetTypes(t *testing.T) {
	t.Parallel()
	ctx := GRPCContext(t, freshTenant())
	cl := pb.NewProductAssetTypeServiceClient(env.GRPC)
	hero := must[*pb.CreateProductAssetTypeResponse](t, "create")(cl.CreateProductAssetType(ctx, &pb.CreateProductAssetTypeRequest{
		ProductAssetType: &pb.ProductAssetTypeCreate{Code: "hero", IsFeaturedSource: proto.Bool(true)}})).ProductAssetType
	if !hero.IsFeaturedSource || hero.Code != "hero" || hero.DisplayName != "hero" {
		t.Errorf("created %v", hero)
	}
	bulk := must[*pb.BulkCreateProductAssetTypesResponse](t, "bulk create")(cl.BulkCreateProductAssetTypes(ctx, &pb.BulkCreateProductAssetTypesRequest{
		Items: []*pb.ProductAssetTypeCreate{{Code: "gallery"}, {Code: "packshot", IsFeaturedSource: proto.Bool(true)}}})).Items
	if len(bulk) != 2 || bulk[0].IsFeaturedSource || !bulk[1].IsFeaturedSource {
		t.Errorf("bulk created %v", bulk)
	}
	l := must[*pb.ListProductAssetTypesResponse](t, "list")(cl.ListProductAssetTypes(ctx, &pb.ListProductAssetTypesRequest{
		IsFeaturedSource: &pb.BoolFilter{Eq: proto.Bool(true)}, OrderBy: []*pb.OrderBy{{Field: "code", Direction: pb.SortDirection_SORT_DIRECTION_ASC}}}))
	if len(l.Items) != 2 || l.Items[0].Code != "hero" || l.Items[1].Code != "packshot" {
		t.Errorf("featured list %v", l.Items)
	}
	u := must[*pb.UpdateProductAssetTypeResponse](t, "update")(cl.UpdateProductAssetType(ctx, &pb.UpdateProductAssetTypeRequest{ProductAssetTypeUuid: hero.Uuid,
		ProductAssetType: &pb.ProductAssetTypeUpdate{IsFeaturedSource: proto.Bool(false)}})).ProductAssetType
	if u.IsFeaturedSource || u.Code != "hero" {
		t.Errorf("updated %v", u)
	}
	g := must[*pb.GetProductAssetTypeResponse](t, "get")(cl.GetProductAssetType(ctx, &pb.GetProductAssetTypeRequest{ProductAssetTypeUuid: hero.Uuid})).ProductAssetType
	if !proto.Equal(g, u) {
		t.Errorf("get %v, want %v", g, u)
	}
	_, err := cl.BulkUpdateProductAssetTypes(ctx, &pb.BulkUpdateProductAssetTypesRequest{Items: []*pb.ProductAssetTypeUpdate{
		{Uuid: hero.Uuid, DisplayName: proto.String("")}}})
	if f := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Equal(f, []string{"[0].displayName"}) {
		t.Errorf("empty displayName names %v", f)
	}
	must[*pb.DeleteProductAssetTypeResponse](t, "delete")(cl.DeleteProductAssetType(ctx, &pb.DeleteProductAssetTypeRequest{ProductAssetTypeUuid: hero.Uuid}))
	_, err = cl.GetProductAssetType(ctx, &pb.GetProductAssetTypeRequest{ProductAssetTypeUuid: hero.Uuid})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
}

func TestGRPCProductRelationTypes(t *testing.T) {
	t.Parallel()
	ctx := GRPCContext(t, freshTenant())
	cl := pb.NewProductRelationTypeServiceClient(env.GRPC)
	_, err := cl.CreateProductRelationType(ctx, &pb.CreateProductRelationTypeRequest{ProductRelationType: &pb.ProductRelationTypeCreate{Code: "related"}})
	if f := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Equal(f, []string{"direction"}) {
		t.Errorf("missing direction names %v", f)
	}
	two := must[*pb.CreateProductRelationTypeResponse](t, "create")(cl.CreateProductRelationType(ctx, &pb.CreateProductRelationTypeRequest{
		ProductRelationType: &pb.ProductRelationTypeCreate{Code: "related", Direction: pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_TWO_WAY}})).ProductRelationType
	if two.Direction != pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_TWO_WAY {
		t.Errorf("created %v", two)
	}
	must[*pb.BulkCreateProductRelationTypesResponse](t, "bulk create")(cl.BulkCreateProductRelationTypes(ctx, &pb.BulkCreateProductRelationTypesRequest{
		Items: []*pb.ProductRelationTypeCreate{{Code: "upsell", Direction: pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_ONE_WAY}}}))
	l := must[*pb.ListProductRelationTypesResponse](t, "list")(cl.ListProductRelationTypes(ctx, &pb.ListProductRelationTypesRequest{
		Directions: &pb.StringsFilter{Eq: []string{"one_way"}}}))
	if len(l.Items) != 1 || l.Items[0].Code != "upsell" || l.Items[0].Direction != pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_ONE_WAY {
		t.Errorf("one-way list %v", l.Items)
	}
	_, err = cl.UpdateProductRelationType(ctx, &pb.UpdateProductRelationTypeRequest{ProductRelationTypeUuid: two.Uuid,
		ProductRelationType: &pb.ProductRelationTypeUpdate{Direction: pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_ONE_WAY.Enum()}})
	if f := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Equal(f, []string{"direction"}) {
		t.Errorf("direction change names %v", f)
	}
	_, err = cl.UpdateProductRelationType(ctx, &pb.UpdateProductRelationTypeRequest{ProductRelationTypeUuid: two.Uuid,
		ProductRelationType: &pb.ProductRelationTypeUpdate{Direction: pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_UNSPECIFIED.Enum()}})
	if f := wantStatus(t, err, codes.InvalidArgument, "VALIDATION_FAILED"); !slices.Equal(f, []string{"direction"}) {
		t.Errorf("unspecified direction names %v", f)
	}
	u := must[*pb.UpdateProductRelationTypeResponse](t, "update")(cl.UpdateProductRelationType(ctx, &pb.UpdateProductRelationTypeRequest{ProductRelationTypeUuid: two.Uuid,
		ProductRelationType: &pb.ProductRelationTypeUpdate{DisplayName: proto.String("Related products"),
			Direction: pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_TWO_WAY.Enum()}})).ProductRelationType
	if u.DisplayName != "Related products" || u.Direction != pb.ProductRelationDirection_PRODUCT_RELATION_DIRECTION_TWO_WAY {
		t.Errorf("updated %v", u)
	}
	must[*pb.DeleteProductRelationTypeResponse](t, "delete")(cl.DeleteProductRelationType(ctx, &pb.DeleteProductRelationTypeRequest{ProductRelationTypeUuid: two.Uuid}))
	_, err = cl.DeleteProductRelationType(ctx, &pb.DeleteProductRelationTypeRequest{ProductRelationTypeUuid: two.Uuid})
	wantStatus(t, err, codes.NotFound, "NOT_FOUND")
}
