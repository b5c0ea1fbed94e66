package families

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func ptr[T any](v T) *T { return &v }

func TestGRPCFamilies(t *testing.T) {
	t.Parallel()
	tenant := "t-" + RandomHex(8)
	ctx := GRPCContext(t, tenant)
	fc := pb.NewFamilyServiceClient(env.GRPC)
	log := NewEventLog(pool, tenant).Skip(t)

	created, err := fc.CreateFamily(ctx, &pb.CreateFamilyRequest{Family: &pb.FamilyCreate{Code: "shirts"}})
	if err != nil {
		t.Fatal(err)
	}
	f := created.Family
	if f.Code != "shirts" || f.DisplayName != "shirts" || !UUIDRe.MatchString(f.Uuid) || f.CreatedAt == nil {
		t.Errorf("created %v", f)
	}
	log.Expect(t, "create", Ev("family.created", "familyUuid", f.Uuid))
	bulk, err := fc.BulkCreateFamilies(ctx, &pb.BulkCreateFamiliesRequest{Items: []*pb.FamilyCreate{{Code: "shoes"}, {Code: "hats", DisplayName: ptr("Hats")}}})
	if err != nil || len(bulk.Items) != 2 || bulk.Items[1].DisplayName != "Hats" {
		t.Fatalf("bulk create: %v %v", bulk, err)
	}
	_, err = fc.CreateFamily(ctx, &pb.CreateFamilyRequest{Family: &pb.FamilyCreate{Code: "shirts"}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "code")
	// update_mask is authoritative: display_name is named without a value, so it stays.
	up, err := fc.UpdateFamily(ctx, &pb.UpdateFamilyRequest{FamilyUuid: f.Uuid, Family: &pb.FamilyUpdate{Code: ptr("tshirts"), DisplayName: ptr("ignored"),
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"code"}}}})
	if err != nil || up.Family.Code != "tshirts" || up.Family.DisplayName != "shirts" {
		t.Errorf("update: %v %v", up, err)
	}
	got, err := fc.GetFamily(ctx, &pb.GetFamilyRequest{FamilyUuid: f.Uuid})
	if err != nil || got.Family.Code != "tshirts" {
		t.Errorf("get: %v %v", got, err)
	}
	page, err := fc.ListFamilies(ctx, &pb.ListFamiliesRequest{Codes: &pb.StringsFilter{Eq: []string{"tshirts", "hats"}},
		OrderBy: []*pb.OrderBy{{Field: "code", Direction: pb.SortDirection_SORT_DIRECTION_DESC}}})
	if err != nil || len(page.Items) != 2 || page.Items[0].Code != "tshirts" || page.Items[1].Code != "hats" || page.Pagination.TotalItems != 2 {
		t.Errorf("list: %v %v", page, err)
	}
	bu, err := fc.BulkUpdateFamilies(ctx, &pb.BulkUpdateFamiliesRequest{Items: []*pb.FamilyUpdate{{Uuid: bulk.Items[0].Uuid, DisplayName: ptr("Shoes")}}})
	if err != nil || bu.Items[0].DisplayName != "Shoes" {
		t.Errorf("bulk update: %v %v", bu, err)
	}
	if _, err := fc.DeleteFamily(ctx, &pb.DeleteFamilyRequest{FamilyUuid: bulk.Items[1].Uuid}); err != nil {
		t.Errorf("delete: %v", err)
	}
	_, err = fc.GetFamily(ctx, &pb.GetFamilyRequest{FamilyUuid: bulk.Items[1].Uuid})
	WantGRPC(t, "get deleted", err, codes.NotFound, "NOT_FOUND")
	_, err = fc.CreateFamily(GRPCContext(t, tenant, "catalog:read"), &pb.CreateFamilyRequest{Family: &pb.FamilyCreate{Code: "x"}})
	WantGRPC(t, "read-only token", err, codes.PermissionDenied, "FORBIDDEN")
}

func TestGRPCFamilyLinks(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	ctx := GRPCContext(t, tenant)
	fam := mkFamily(t, c, "shirts")
	attr, it, cat, at, rt := mkAttribute(t, c), mkInputType(t, c), mkCategory(t, c), mkAssetType(t, c), mkRelationType(t, c)
	log := NewEventLog(pool, tenant).Skip(t)

	// Attributes: enums, the variant axis rule with its field, the unknown family.
	ac := pb.NewFamilyAttributeServiceClient(env.GRPC)
	a, err := ac.CreateFamilyAttribute(ctx, &pb.CreateFamilyAttributeRequest{FamilyUuid: fam, FamilyAttribute: &pb.FamilyAttributeCreate{AttributeUuid: attr,
		RequirementLevel: ptr(pb.FamilyRequirementLevel_FAMILY_REQUIREMENT_LEVEL_REQUIRED), IsVariantAxis: ptr(true)}})
	if err != nil {
		t.Fatal(err)
	}
	fa := a.FamilyAttribute
	if fa.FamilyUuid != fam || fa.AttributeUuid != attr || fa.RequirementLevel != pb.FamilyRequirementLevel_FAMILY_REQUIREMENT_LEVEL_REQUIRED ||
		fa.AppliesTo != pb.FamilyAppliesTo_FAMILY_APPLIES_TO_BOTH || !fa.IsVariantAxis {
		t.Errorf("created %v", fa)
	}
	_, err = ac.UpdateFamilyAttribute(ctx, &pb.UpdateFamilyAttributeRequest{FamilyUuid: fam, FamilyAttributeUuid: fa.Uuid,
		FamilyAttribute: &pb.FamilyAttributeUpdate{AppliesTo: ptr(pb.FamilyAppliesTo_FAMILY_APPLIES_TO_PARENT)}})
	WantGRPC(t, "axis on the parent", err, codes.InvalidArgument, "VALIDATION_FAILED", "appliesTo")
	_, err = ac.UpdateFamilyAttribute(ctx, &pb.UpdateFamilyAttributeRequest{FamilyUuid: fam, FamilyAttributeUuid: fa.Uuid,
		FamilyAttribute: &pb.FamilyAttributeUpdate{RequirementLevel: ptr(pb.FamilyRequirementLevel_FAMILY_REQUIREMENT_LEVEL_UNSPECIFIED)}})
	WantGRPC(t, "unspecified level", err, codes.InvalidArgument, "VALIDATION_FAILED", "requirementLevel")
	_, err = ac.ListFamilyAttributes(ctx, &pb.ListFamilyAttributesRequest{FamilyUuid: UnknownUUID})
	WantGRPC(t, "unknown family", err, codes.NotFound, "NOT_FOUND")
	la, err := ac.ListFamilyAttributes(ctx, &pb.ListFamilyAttributesRequest{FamilyUuid: fam, IsVariantAxis: &pb.BoolFilter{Eq: ptr(true)}})
	if err != nil || len(la.Items) != 1 || la.Items[0].Uuid != fa.Uuid {
		t.Errorf("list attributes: %v %v", la, err)
	}
	// The attribute is in use.
	_, err = pb.NewAttributeServiceClient(env.GRPC).DeleteAttribute(ctx, &pb.DeleteAttributeRequest{AttributeUuid: attr})
	WantGRPC(t, "delete a linked attribute", err, codes.FailedPrecondition, "IN_USE")

	// Input types: the target must exist.
	ic := pb.NewFamilyInputTypeServiceClient(env.GRPC)
	_, err = ic.CreateFamilyInputType(ctx, &pb.CreateFamilyInputTypeRequest{FamilyUuid: fam, FamilyInputType: &pb.FamilyInputTypeCreate{InputTypeUuid: UnknownUUID}})
	WantGRPC(t, "unknown input type", err, codes.NotFound, "NOT_FOUND", "inputTypeUuid")
	fi, err := ic.CreateFamilyInputType(ctx, &pb.CreateFamilyInputTypeRequest{FamilyUuid: fam, FamilyInputType: &pb.FamilyInputTypeCreate{InputTypeUuid: it,
		AppliesTo: ptr(pb.FamilyAppliesTo_FAMILY_APPLIES_TO_VARIANT)}})
	if err != nil || fi.FamilyInputType.AppliesTo != pb.FamilyAppliesTo_FAMILY_APPLIES_TO_VARIANT ||
		fi.FamilyInputType.RequirementLevel != pb.FamilyRequirementLevel_FAMILY_REQUIREMENT_LEVEL_OPTIONAL {
		t.Fatalf("create input type link: %v %v", fi, err)
	}
	gi, err := ic.GetFamilyInputType(ctx, &pb.GetFamilyInputTypeRequest{FamilyUuid: fam, FamilyInputTypeUuid: fi.FamilyInputType.Uuid})
	if err != nil || gi.FamilyInputType.InputTypeUuid != it {
		t.Errorf("get input type link: %v %v", gi, err)
	}

	// Categories: a second link is a conflict naming the target.
	cc := pb.NewFamilyCategoryServiceClient(env.GRPC)
	fcat, err := cc.CreateFamilyCategory(ctx, &pb.CreateFamilyCategoryRequest{FamilyUuid: fam, FamilyCategory: &pb.FamilyCategoryCreate{CategoryUuid: cat, AutoPopulate: ptr(true)}})
	if err != nil || !fcat.FamilyCategory.AutoPopulate {
		t.Fatalf("create category link: %v %v", fcat, err)
	}
	_, err = cc.BulkCreateFamilyCategories(ctx, &pb.BulkCreateFamilyCategoriesRequest{FamilyUuid: fam, Items: []*pb.FamilyCategoryCreate{{CategoryUuid: cat}}})
	WantGRPC(t, "second category link", err, codes.AlreadyExists, "ALREADY_EXISTS", "[0].categoryUuid")
	if _, err := cc.DeleteFamilyCategory(ctx, &pb.DeleteFamilyCategoryRequest{FamilyUuid: fam, FamilyCategoryUuid: fcat.FamilyCategory.Uuid}); err != nil {
		t.Errorf("unlink category: %v", err)
	}

	// Asset types: update_mask naming max_count without a value clears the maximum.
	atc := pb.NewFamilyAssetTypeServiceClient(env.GRPC)
	fat, err := atc.CreateFamilyAssetType(ctx, &pb.CreateFamilyAssetTypeRequest{FamilyUuid: fam, FamilyAssetType: &pb.FamilyAssetTypeCreate{ProductAssetTypeUuid: at,
		MinCount: ptr(int32(1)), MaxCount: ptr(int32(4))}})
	if err != nil || fat.FamilyAssetType.MinCount != 1 || fat.FamilyAssetType.MaxCount == nil || *fat.FamilyAssetType.MaxCount != 4 {
		t.Fatalf("create asset type link: %v %v", fat, err)
	}
	uat, err := atc.UpdateFamilyAssetType(ctx, &pb.UpdateFamilyAssetTypeRequest{FamilyUuid: fam, FamilyAssetTypeUuid: fat.FamilyAssetType.Uuid,
		FamilyAssetType: &pb.FamilyAssetTypeUpdate{UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"max_count"}}}})
	if err != nil || uat.FamilyAssetType.MaxCount != nil || uat.FamilyAssetType.MinCount != 1 {
		t.Errorf("clear max over gRPC: %v %v", uat, err)
	}
	// Without a mask, an unset max_count leaves the maximum alone.
	uat, err = atc.UpdateFamilyAssetType(ctx, &pb.UpdateFamilyAssetTypeRequest{FamilyUuid: fam, FamilyAssetTypeUuid: fat.FamilyAssetType.Uuid,
		FamilyAssetType: &pb.FamilyAssetTypeUpdate{MaxCount: ptr(int32(2))}})
	if err == nil {
		uat, err = atc.UpdateFamilyAssetType(ctx, &pb.UpdateFamilyAssetTypeRequest{FamilyUuid: fam, FamilyAssetTypeUuid: fat.FamilyAssetType.Uuid,
			FamilyAssetType: &pb.FamilyAssetTypeUpdate{MinCount: ptr(int32(2))}})
	}
	if err != nil || uat.FamilyAssetType.MaxCount == nil || *uat.FamilyAssetType.MaxCount != 2 || uat.FamilyAssetType.MinCount != 2 {
		t.Errorf("update counts over gRPC: %v %v", uat, err)
	}
	lat, err := atc.ListFamilyAssetTypes(ctx, &pb.ListFamilyAssetTypesRequest{FamilyUuid: fam, MaxCount: &pb.IntFilter{Min: ptr(int32(2))}})
	if err != nil || len(lat.Items) != 1 {
		t.Errorf("list asset type links: %v %v", lat, err)
	}

	// Relation types: bulk create and bulk update; the target is fixed.
	rtc := pb.NewFamilyRelationTypeServiceClient(env.GRPC)
	frt, err := rtc.BulkCreateFamilyRelationTypes(ctx, &pb.BulkCreateFamilyRelationTypesRequest{FamilyUuid: fam, Items: []*pb.FamilyRelationTypeCreate{{ProductRelationTypeUuid: rt,
		RequirementLevel: ptr(pb.FamilyRequirementLevel_FAMILY_REQUIREMENT_LEVEL_RECOMMENDED)}}})
	if err != nil || len(frt.Items) != 1 || frt.Items[0].RequirementLevel != pb.FamilyRequirementLevel_FAMILY_REQUIREMENT_LEVEL_RECOMMENDED || frt.Items[0].MaxCount != nil {
		t.Fatalf("bulk create relation type links: %v %v", frt, err)
	}
	_, err = rtc.BulkUpdateFamilyRelationTypes(ctx, &pb.BulkUpdateFamilyRelationTypesRequest{FamilyUuid: fam, Items: []*pb.FamilyRelationTypeUpdate{{Uuid: frt.Items[0].Uuid,
		ProductRelationTypeUuid: ptr(mkRelationType(t, c))}}})
	WantGRPC(t, "change the relation type", err, codes.InvalidArgument, "VALIDATION_FAILED", "[0].productRelationTypeUuid")
	brt, err := rtc.BulkUpdateFamilyRelationTypes(ctx, &pb.BulkUpdateFamilyRelationTypesRequest{FamilyUuid: fam, Items: []*pb.FamilyRelationTypeUpdate{{Uuid: frt.Items[0].Uuid,
		MinCount: ptr(int32(1))}}})
	if err != nil || brt.Items[0].MinCount != 1 || brt.Items[0].RequirementLevel != pb.FamilyRequirementLevel_FAMILY_REQUIREMENT_LEVEL_RECOMMENDED {
		t.Errorf("bulk update relation type links: %v %v", brt, err)
	}

	log.Expect(t, "events of the gRPC calls",
		Ev("family.attribute.linked", "familyUuid", fam, "familyAttributeUuid", fa.Uuid),
		Ev("family.input_type.linked", "familyUuid", fam, "familyInputTypeUuid", fi.FamilyInputType.Uuid),
		Ev("family.category.linked", "familyUuid", fam, "familyCategoryUuid", fcat.FamilyCategory.Uuid),
		Ev("family.category.unlinked", "familyUuid", fam, "familyCategoryUuid", fcat.FamilyCategory.Uuid),
		Ev("family.asset_type.linked", "familyUuid", fam, "familyAssetTypeUuid", fat.FamilyAssetType.Uuid),
		Ev("family.asset_type.updated", "familyUuid", fam, "familyAssetTypeUuid", fat.FamilyAssetType.Uuid),
		Ev("family.asset_type.updated", "familyUuid", fam, "familyAssetTypeUuid", fat.FamilyAssetType.Uuid),
		Ev("family.asset_type.updated", "familyUuid", fam, "familyAssetTypeUuid", fat.FamilyAssetType.Uuid),
		Ev("family.relation_type.linked", "familyUuid", fam, "familyRelationTypeUuid", frt.Items[0].Uuid),
		Ev("product_relation_type.created", "productRelationTypeUuid", Str(Want(t, c.Get("/v1/product-relation-types"+Q("code[starts]", "rt_", "createdAt[order]", "desc")), 200).Items()[0], "uuid")),
		Ev("family.relation_type.updated", "familyUuid", fam, "familyRelationTypeUuid", frt.Items[0].Uuid),
	)
}
