package catalog

import (
	"context"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// familyAttributes are the links of families to attributes, with requirementLevel, appliesTo and isVariantAxis (events
// family.attribute.linked/updated/unlinked). A attribute linked to a family cannot be deleted (409 IN_USE).
var familyAttributes = newLinkFamily[*pb.FamilyAttribute, *pb.FamilyAttributeCreate, *pb.FamilyAttributeUpdate]("attribute", "familyAttributeUuid", "attribute_uuid", "attributes")

// FamilyAttributeServer implements catalog.v1.FamilyAttributeService.
type FamilyAttributeServer struct {
	pb.UnimplementedFamilyAttributeServiceServer
	*Service
}

func (s *FamilyAttributeServer) ListFamilyAttributes(ctx context.Context, req *pb.ListFamilyAttributesRequest) (*pb.ListFamilyAttributesResponse, error) {
	out, page, err := familyAttributes.list(ctx, s.Service, req.FamilyUuid, req)
	return &pb.ListFamilyAttributesResponse{Items: out, Pagination: page}, err
}

// CreateFamilyAttribute links a attribute to the family.
func (s *FamilyAttributeServer) CreateFamilyAttribute(ctx context.Context, req *pb.CreateFamilyAttributeRequest) (*pb.CreateFamilyAttributeResponse, error) {
	m, err := familyAttributes.CreateOne(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAttribute)
	return &pb.CreateFamilyAttributeResponse{FamilyAttribute: m}, err
}

func (s *FamilyAttributeServer) BulkCreateFamilyAttributes(ctx context.Context, req *pb.BulkCreateFamilyAttributesRequest) (*pb.BulkCreateFamilyAttributesResponse, error) {
	out, err := familyAttributes.CreateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkCreateFamilyAttributesResponse{Items: out}, err
}

func (s *FamilyAttributeServer) GetFamilyAttribute(ctx context.Context, req *pb.GetFamilyAttributeRequest) (*pb.GetFamilyAttributeResponse, error) {
	m, err := familyAttributes.GetAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAttributeUuid)
	return &pb.GetFamilyAttributeResponse{FamilyAttribute: m}, err
}

func (s *FamilyAttributeServer) UpdateFamilyAttribute(ctx context.Context, req *pb.UpdateFamilyAttributeRequest) (*pb.UpdateFamilyAttributeResponse, error) {
	m, err := familyAttributes.UpdateAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAttributeUuid, req.FamilyAttribute)
	return &pb.UpdateFamilyAttributeResponse{FamilyAttribute: m}, err
}

func (s *FamilyAttributeServer) BulkUpdateFamilyAttributes(ctx context.Context, req *pb.BulkUpdateFamilyAttributesRequest) (*pb.BulkUpdateFamilyAttributesResponse, error) {
	out, err := familyAttributes.UpdateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkUpdateFamilyAttributesResponse{Items: out}, err
}

// DeleteFamilyAttribute unlinks a attribute from the family (the attribute stays).
func (s *FamilyAttributeServer) DeleteFamilyAttribute(ctx context.Context, req *pb.DeleteFamilyAttributeRequest) (*pb.DeleteFamilyAttributeResponse, error) {
	return &pb.DeleteFamilyAttributeResponse{}, familyAttributes.Delete(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyAttributeUuid)
}
