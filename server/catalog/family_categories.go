package catalog

import (
	"context"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// familyCategories are the links of families to categories, with autoPopulate (events
// family.category.linked/updated/unlinked). A category linked to a family cannot be deleted (409 IN_USE).
var familyCategories = newLinkFamily[*pb.FamilyCategory, *pb.FamilyCategoryCreate, *pb.FamilyCategoryUpdate]("category", "familyCategoryUuid", "category_uuid", "categories")

// FamilyCategoryServer implements catalog.v1.FamilyCategoryService.
type FamilyCategoryServer struct {
	pb.UnimplementedFamilyCategoryServiceServer
	*Service
}

func (s *FamilyCategoryServer) ListFamilyCategories(ctx context.Context, req *pb.ListFamilyCategoriesRequest) (*pb.ListFamilyCategoriesResponse, error) {
	out, page, err := familyCategories.list(ctx, s.Service, req.FamilyUuid, req)
	return &pb.ListFamilyCategoriesResponse{Items: out, Pagination: page}, err
}

// CreateFamilyCategory links a category to the family.
func (s *FamilyCategoryServer) CreateFamilyCategory(ctx context.Context, req *pb.CreateFamilyCategoryRequest) (*pb.CreateFamilyCategoryResponse, error) {
	m, err := familyCategories.CreateOne(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyCategory)
	return &pb.CreateFamilyCategoryResponse{FamilyCategory: m}, err
}

func (s *FamilyCategoryServer) BulkCreateFamilyCategories(ctx context.Context, req *pb.BulkCreateFamilyCategoriesRequest) (*pb.BulkCreateFamilyCategoriesResponse, error) {
	out, err := familyCategories.CreateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkCreateFamilyCategoriesResponse{Items: out}, err
}

func (s *FamilyCategoryServer) GetFamilyCategory(ctx context.Context, req *pb.GetFamilyCategoryRequest) (*pb.GetFamilyCategoryResponse, error) {
	m, err := familyCategories.GetAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyCategoryUuid)
	return &pb.GetFamilyCategoryResponse{FamilyCategory: m}, err
}

func (s *FamilyCategoryServer) UpdateFamilyCategory(ctx context.Context, req *pb.UpdateFamilyCategoryRequest) (*pb.UpdateFamilyCategoryResponse, error) {
	m, err := familyCategories.UpdateAt(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyCategoryUuid, req.FamilyCategory)
	return &pb.UpdateFamilyCategoryResponse{FamilyCategory: m}, err
}

func (s *FamilyCategoryServer) BulkUpdateFamilyCategories(ctx context.Context, req *pb.BulkUpdateFamilyCategoriesRequest) (*pb.BulkUpdateFamilyCategoriesResponse, error) {
	out, err := familyCategories.UpdateMany(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.Items)
	return &pb.BulkUpdateFamilyCategoriesResponse{Items: out}, err
}

// DeleteFamilyCategory unlinks a category from the family (the category stays).
func (s *FamilyCategoryServer) DeleteFamilyCategory(ctx context.Context, req *pb.DeleteFamilyCategoryRequest) (*pb.DeleteFamilyCategoryResponse, error) {
	return &pb.DeleteFamilyCategoryResponse{}, familyCategories.Delete(ctx, s.DB, s.familyScope(ctx, req.FamilyUuid), req.FamilyCategoryUuid)
}
