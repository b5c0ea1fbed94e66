package catalog

import (
	"context"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// familyRelationTypes are the links of families to product relation types, with requirementLevel, minCount and maxCount (events
// family.relation_type.linked/updated/unlinked). A product relation type linked to a family cannot be deleted (409 IN_USE).
var familyRelationTypes = newLinkFamily[*pb.FamilyRelationType, *pb.FamilyRelationTypeCreate, *pb.FamilyRelationTypeUpdate]("relation_type", "familyRelationTypeUuid", "product_relation_type_uuid", "product_relation_types")

// FamilyRelationTypeServer implements catalog.v1.FamilyRelationTypeService.
type FamilyRelationTypeServer struct {
	pb.UnimplementedFamilyRelationTypeServiceServer
	*Service
}

func (s *FamilyRelationTypeServer) ListFamilyRelationTypes(ctx context.Context, req *pb.ListFamilyRelationTypesRequest) (*pb.ListFamilyRelationTypesResponse, error) {
	out, page, err := familyRelationTypes.list(ctx, s.Service, req.FamilyUuid, req)
	return &pb.ListFamilyRelationTypesResponse{Items: out, Pagination: page}, err
}

// CreateFamilyRelationType links a product relation type to the family.
func (s *FamilyRelationTypeServer) CreateFamilyRelationType(ctx context.Context, req *pb.CreateFamilyRelationTypeRequest) (*pb.CreateFamilyRelationTypeResponse, error) {
	m, err := familyRelationTypes.CreateOne(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyRelationType)
	return &pb.CreateFamilyRelationTypeResponse{FamilyRelationType: m}, err
}

func (s *FamilyRelationTypeServer) BulkCreateFamilyRelationTypes(ctx context.Context, req *pb.BulkCreateFamilyRelationTypesRequest) (*pb.BulkCreateFamilyRelationTypesResponse, error) {
	out, err := familyRelationTypes.CreateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkCreateFamilyRelationTypesResponse{Items: out}, err
}

func (s *FamilyRelationTypeServer) GetFamilyRelationType(ctx context.Context, req *pb.GetFamilyRelationTypeRequest) (*pb.GetFamilyRelationTypeResponse, error) {
	m, err := familyRelationTypes.GetAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyRelationTypeUuid)
	return &pb.GetFamilyRelationTypeResponse{FamilyRelationType: m}, err
}

func (s *FamilyRelationTypeServer) UpdateFamilyRelationType(ctx context.Context, req *pb.UpdateFamilyRelationTypeRequest) (*pb.UpdateFamilyRelationTypeResponse, error) {
	m, err := familyRelationTypes.UpdateAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyRelationTypeUuid, req.FamilyRelationType)
	return &pb.UpdateFamilyRelationTypeResponse{FamilyRelationType: m}, err
}

func (s *FamilyRelationTypeServer) BulkUpdateFamilyRelationTypes(ctx context.Context, req *pb.BulkUpdateFamilyRelationTypesRequest) (*pb.BulkUpdateFamilyRelationTypesResponse, error) {
	out, err := familyRelationTypes.UpdateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkUpdateFamilyRelationTypesResponse{Items: out}, err
}

// DeleteFamilyRelationType unlinks a product relation type from the family (the product relation type stays).
func (s *FamilyRelationTypeServer) DeleteFamilyRelationType(ctx context.Context, req *pb.DeleteFamilyRelationTypeRequest) (*pb.DeleteFamilyRelationTypeResponse, error) {
	return &pb.DeleteFamilyRelationTypeResponse{}, familyRelationTypes.Delete(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyRelationTypeUuid)
}
