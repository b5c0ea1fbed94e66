package catalog

import (
	"context"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// familyAssetTypes are the links of families to product asset types, with requirementLevel, minCount, maxCount and appliesTo (events
// family.asset_type.linked/updated/unlinked). A product asset type linked to a family cannot be deleted (409 IN_USE).
var familyAssetTypes = newLinkFamily[*pb.FamilyAssetType, *pb.FamilyAssetTypeCreate, *pb.FamilyAssetTypeUpdate]("asset_type", "familyAssetTypeUuid", "product_asset_type_uuid", "product_asset_types")

// FamilyAssetTypeServer implements catalog.v1.FamilyAssetTypeService.
type FamilyAssetTypeServer struct {
	pb.UnimplementedFamilyAssetTypeServiceServer
	*Service
}

func (s *FamilyAssetTypeServer) ListFamilyAssetTypes(ctx context.Context, req *pb.ListFamilyAssetTypesRequest) (*pb.ListFamilyAssetTypesResponse, error) {
	out, page, err := familyAssetTypes.list(ctx, s.Service, req.FamilyUuid, req)
	return &pb.ListFamilyAssetTypesResponse{Items: out, Pagination: page}, err
}

// CreateFamilyAssetType links a product asset type to the family.
func (s *FamilyAssetTypeServer) CreateFamilyAssetType(ctx context.Context, req *pb.CreateFamilyAssetTypeRequest) (*pb.CreateFamilyAssetTypeResponse, error) {
	m, err := familyAssetTypes.CreateOne(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAssetType)
	return &pb.CreateFamilyAssetTypeResponse{FamilyAssetType: m}, err
}

func (s *FamilyAssetTypeServer) BulkCreateFamilyAssetTypes(ctx context.Context, req *pb.BulkCreateFamilyAssetTypesRequest) (*pb.BulkCreateFamilyAssetTypesResponse, error) {
	out, err := familyAssetTypes.CreateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkCreateFamilyAssetTypesResponse{Items: out}, err
}

func (s *FamilyAssetTypeServer) GetFamilyAssetType(ctx context.Context, req *pb.GetFamilyAssetTypeRequest) (*pb.GetFamilyAssetTypeResponse, error) {
	m, err := familyAssetTypes.GetAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAssetTypeUuid)
	return &pb.GetFamilyAssetTypeResponse{FamilyAssetType: m}, err
}

func (s *FamilyAssetTypeServer) UpdateFamilyAssetType(ctx context.Context, req *pb.UpdateFamilyAssetTypeRequest) (*pb.UpdateFamilyAssetTypeResponse, error) {
	m, err := familyAssetTypes.UpdateAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAssetTypeUuid, req.FamilyAssetType)
	return &pb.UpdateFamilyAssetTypeResponse{FamilyAssetType: m}, err
}

func (s *FamilyAssetTypeServer) BulkUpdateFamilyAssetTypes(ctx context.Context, req *pb.BulkUpdateFamilyAssetTypesRequest) (*pb.BulkUpdateFamilyAssetTypesResponse, error) {
	out, err := familyAssetTypes.UpdateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkUpdateFamilyAssetTypesResponse{Items: out}, err
}

// DeleteFamilyAssetType unlinks a product asset type from the family (the product asset type stays).
func (s *FamilyAssetTypeServer) DeleteFamilyAssetType(ctx context.Context, req *pb.DeleteFamilyAssetTypeRequest) (*pb.DeleteFamilyAssetTypeResponse, error) {
	return &pb.DeleteFamilyAssetTypeResponse{}, familyAssetTypes.Delete(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAssetTypeUuid)
}
