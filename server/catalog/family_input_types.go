package catalog

import (
	"context"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// familyInputTypes are the links of families to input types, with requirementLevel and appliesTo (events
// family.input_type.linked/updated/unlinked). A input type linked to a family cannot be deleted (409 IN_USE).
var familyInputTypes = newLinkFamily[*pb.FamilyInputType, *pb.FamilyInputTypeCreate, *pb.FamilyInputTypeUpdate]("input_type", "familyInputTypeUuid", "input_type_uuid", "input_types")

// FamilyInputTypeServer implements catalog.v1.FamilyInputTypeService.
type FamilyInputTypeServer struct {
	pb.UnimplementedFamilyInputTypeServiceServer
	*Service
}

func (s *FamilyInputTypeServer) ListFamilyInputTypes(ctx context.Context, req *pb.ListFamilyInputTypesRequest) (*pb.ListFamilyInputTypesResponse, error) {
	out, page, err := familyInputTypes.list(ctx, s.Service, req.FamilyUuid, req)
	return &pb.ListFamilyInputTypesResponse{Items: out, Pagination: page}, err
}

// CreateFamilyInputType links a input type to the family.
func (s *FamilyInputTypeServer) CreateFamilyInputType(ctx context.Context, req *pb.CreateFamilyInputTypeRequest) (*pb.CreateFamilyInputTypeResponse, error) {
	m, err := familyInputTypes.CreateOne(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyInputType)
	return &pb.CreateFamilyInputTypeResponse{FamilyInputType: m}, err
}

func (s *FamilyInputTypeServer) BulkCreateFamilyInputTypes(ctx context.Context, req *pb.BulkCreateFamilyInputTypesRequest) (*pb.BulkCreateFamilyInputTypesResponse, error) {
	out, err := familyInputTypes.CreateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkCreateFamilyInputTypesResponse{Items: out}, err
}

func (s *FamilyInputTypeServer) GetFamilyInputType(ctx context.Context, req *pb.GetFamilyInputTypeRequest) (*pb.GetFamilyInputTypeResponse, error) {
	m, err := familyInputTypes.GetAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyInputTypeUuid)
	return &pb.GetFamilyInputTypeResponse{FamilyInputType: m}, err
}

func (s *FamilyInputTypeServer) UpdateFamilyInputType(ctx context.Context, req *pb.UpdateFamilyInputTypeRequest) (*pb.UpdateFamilyInputTypeResponse, error) {
	m, err := familyInputTypes.UpdateAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyInputTypeUuid, req.FamilyInputType)
	return &pb.UpdateFamilyInputTypeResponse{FamilyInputType: m}, err
}

func (s *FamilyInputTypeServer) BulkUpdateFamilyInputTypes(ctx context.Context, req *pb.BulkUpdateFamilyInputTypesRequest) (*pb.BulkUpdateFamilyInputTypesResponse, error) {
	out, err := familyInputTypes.UpdateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkUpdateFamilyInputTypesResponse{Items: out}, err
}

// DeleteFamilyInputType unlinks a input type from the family (the input type stays).
func (s *FamilyInputTypeServer) DeleteFamilyInputType(ctx context.Context, req *pb.DeleteFamilyInputTypeRequest) (*pb.DeleteFamilyInputTypeResponse, error) {
	return &pb.DeleteFamilyInputTypeResponse{}, familyInputTypes.Delete(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyInputTypeUuid)
}
