package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// CategoryServer implements catalog.v1.CategoryService.
type CategoryServer struct {
	pb.UnimplementedCategoryServiceServer
	*Service
}

// CategoryContentServer implements catalog.v1.CategoryContentService on the shared contents.
type CategoryContentServer struct {
	pb.UnimplementedCategoryContentServiceServer
	*Service
}

// kindCategory is the parent kind of category contents.
const kindCategory = "category"

// CategoryList is the list spec of GET /v1/categories.
var CategoryList = nodeList("categories")

var categoryTable = &nodeTable{
	name:       "categories",
	get:        (*db.Queries).GetCategory,
	lock:       (*db.Queries).LockCategories,
	lockTree:   (*db.Queries).LockCategoryTree,
	insert:     (*db.Queries).InsertCategories,
	update:     (*db.Queries).UpdateCategory,
	wouldCycle: (*db.Queries).CategoryWouldCycle,
	setStatus:  (*db.Queries).SetCategoryStatus,
	deleteOne:  (*db.Queries).DeleteCategory,
}

func categoryToPB(n node) *pb.Category { return nodeToPB(&pb.Category{}, n, "CATEGORY_STATUS_") }

// categories is the category family.
var categories = nodeFamily[*pb.Category, *pb.CategoryCreate, *pb.CategoryUpdate]("category", "category", "categoryUuid", categoryTable, categoryToPB)

// ListCategories lists categories with the filters of API.md.
func (s *CategoryServer) ListCategories(ctx context.Context, req *pb.ListCategoriesRequest) (*pb.ListCategoriesResponse, error) {
	tenant := reqctx.Tenant(ctx)
	rows, page, err := list.Run[node](ctx, s.DB, CategoryList, tenant, req)
	if err != nil {
		return nil, err
	}
	out := mapSlice(rows, categoryToPB)
	if err := s.hydrateCategories(ctx, tenant, out, mapSlice(rows, categories.ID), req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.ListCategoriesResponse{Items: out, Pagination: page}, nil
}

// hydrateCategories fills contentUuids / contents when asked for.
func (s *CategoryServer) hydrateCategories(ctx context.Context, tenant string, out []*pb.Category, ids []uuid.UUID, inc, exp *pb.CategoryInclude) error {
	return hydrateContents(ctx, s.DB.Q, tenant, kindCategory, out, ids, inc.GetContents(), exp.GetContents(),
		func(c *pb.Category, u *pb.UuidList) { c.ContentUuids = u },
		func(c *pb.Category, cs []db.Content) {
			c.Contents = &pb.CategoryContentList{Items: mapSlice(cs, categoryContentToPB)}
		})
}

// GetCategory returns one category.
func (s *CategoryServer) GetCategory(ctx context.Context, req *pb.GetCategoryRequest) (*pb.GetCategoryResponse, error) {
	c, err := categories.Get(ctx, s.DB, crud.Scope{}, req.CategoryUuid)
	if err != nil {
		return nil, err
	}
	out := []*pb.Category{categoryToPB(c)}
	if err := s.hydrateCategories(ctx, c.TenantID, out, []uuid.UUID{c.Uuid}, req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.GetCategoryResponse{Category: out[0]}, nil
}

// CreateCategory creates one category in status draft.
func (s *CategoryServer) CreateCategory(ctx context.Context, req *pb.CreateCategoryRequest) (*pb.CreateCategoryResponse, error) {
	m, err := categories.CreateOne(ctx, s.DB, crud.Scope{}, req.Category)
	return &pb.CreateCategoryResponse{Category: m}, err
}

// BulkCreateCategories creates 1 to 100 categories atomically.
func (s *CategoryServer) BulkCreateCategories(ctx context.Context, req *pb.BulkCreateCategoriesRequest) (*pb.BulkCreateCategoriesResponse, error) {
	out, err := categories.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateCategoriesResponse{Items: out}, err
}

// UpdateCategory changes the fields given of one category; parentUuid null makes it a root.
func (s *CategoryServer) UpdateCategory(ctx context.Context, req *pb.UpdateCategoryRequest) (*pb.UpdateCategoryResponse, error) {
	m, err := categories.UpdateAt(ctx, s.DB, crud.Scope{}, req.CategoryUuid, req.Category)
	return &pb.UpdateCategoryResponse{Category: m}, err
}

// BulkUpdateCategories changes 1 to 100 categories atomically.
func (s *CategoryServer) BulkUpdateCategories(ctx context.Context, req *pb.BulkUpdateCategoriesRequest) (*pb.BulkUpdateCategoriesResponse, error) {
	out, err := categories.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateCategoriesResponse{Items: out}, err
}

// DeleteCategory deletes a category permanently, with its contents; one with children is refused.
func (s *CategoryServer) DeleteCategory(ctx context.Context, req *pb.DeleteCategoryRequest) (*pb.DeleteCategoryResponse, error) {
	return &pb.DeleteCategoryResponse{}, categories.Delete(ctx, s.DB, crud.Scope{}, req.CategoryUuid)
}

// TransitionCategory moves one category through its lifecycle.
func (s *CategoryServer) TransitionCategory(ctx context.Context, req *pb.TransitionCategoryRequest) (*pb.TransitionCategoryResponse, error) {
	m, err := categories.TransitionAt(ctx, s.DB, crud.Scope{}, req.CategoryUuid, req.Transition)
	return &pb.TransitionCategoryResponse{Category: m}, err
}

// BulkTransitionCategories moves 1 to 100 categories atomically.
func (s *CategoryServer) BulkTransitionCategories(ctx context.Context, req *pb.BulkTransitionCategoriesRequest) (*pb.BulkTransitionCategoriesResponse, error) {
	out, err := categories.TransitionMany(ctx, s.DB, crud.Scope{}, req.Transition, req.Uuids)
	return &pb.BulkTransitionCategoriesResponse{Items: out}, err
}

// Category contents.

func categoryContentToPB(c db.Content) *pb.CategoryContent {
	return &pb.CategoryContent{Uuid: c.Uuid.String(), CreatedAt: timestamppb.New(c.CreatedAt), UpdatedAt: timestamppb.New(c.UpdatedAt),
		CategoryUuid: c.ParentUuid.String(), LocaleUuid: c.LocaleUuid.String(), DisplayName: c.DisplayName, Description: c.Description}
}

var categoryContents = contentFamily[*pb.CategoryContent, *pb.CategoryContentCreate, *pb.CategoryContentUpdate](
	kindCategory, "category.content", "categoryContentUuid", categoryContentToPB)

// categoryScope resolves the categoryUuid path parameter to the scope of its contents.
func (s *Service) categoryScope(ctx context.Context, raw string) crud.Scope {
	return parentScope(ctx, s, categories, raw)
}

func (s *CategoryContentServer) ListCategoryContents(ctx context.Context, req *pb.ListCategoryContentsRequest) (*pb.ListCategoryContentsResponse, error) {
	out, page, err := listContentsAs(ctx, s.Service, kindCategory, s.categoryScope(ctx, req.CategoryUuid), req, categoryContentToPB)
	return &pb.ListCategoryContentsResponse{Items: out, Pagination: page}, err
}

func (s *CategoryContentServer) GetCategoryContent(ctx context.Context, req *pb.GetCategoryContentRequest) (*pb.GetCategoryContentResponse, error) {
	m, err := categoryContents.GetAt(ctx, s.DB, s.categoryScope(ctx, req.CategoryUuid), req.CategoryContentUuid)
	return &pb.GetCategoryContentResponse{CategoryContent: m}, err
}

func (s *CategoryContentServer) CreateCategoryContent(ctx context.Context, req *pb.CreateCategoryContentRequest) (*pb.CreateCategoryContentResponse, error) {
	m, err := categoryContents.CreateOne(ctx, s.DB, s.categoryScope(ctx, req.CategoryUuid), req.CategoryContent)
	return &pb.CreateCategoryContentResponse{CategoryContent: m}, err
}

func (s *CategoryContentServer) BulkCreateCategoryContents(ctx context.Context, req *pb.BulkCreateCategoryContentsRequest) (*pb.BulkCreateCategoryContentsResponse, error) {
	out, err := categoryContents.CreateMany(ctx, s.DB, s.categoryScope(ctx, req.CategoryUuid), req.Items)
	return &pb.BulkCreateCategoryContentsResponse{Items: out}, err
}

func (s *CategoryContentServer) UpdateCategoryContent(ctx context.Context, req *pb.UpdateCategoryContentRequest) (*pb.UpdateCategoryContentResponse, error) {
	m, err := categoryContents.UpdateAt(ctx, s.DB, s.categoryScope(ctx, req.CategoryUuid), req.CategoryContentUuid, req.CategoryContent)
	return &pb.UpdateCategoryContentResponse{CategoryContent: m}, err
}

func (s *CategoryContentServer) BulkUpdateCategoryContents(ctx context.Context, req *pb.BulkUpdateCategoryContentsRequest) (*pb.BulkUpdateCategoryContentsResponse, error) {
	out, err := categoryContents.UpdateMany(ctx, s.DB, s.categoryScope(ctx, req.CategoryUuid), req.Items)
	return &pb.BulkUpdateCategoryContentsResponse{Items: out}, err
}

func (s *CategoryContentServer) DeleteCategoryContent(ctx context.Context, req *pb.DeleteCategoryContentRequest) (*pb.DeleteCategoryContentResponse, error) {
	return &pb.DeleteCategoryContentResponse{}, categoryContents.Delete(ctx, s.DB, s.categoryScope(ctx, req.CategoryUuid), req.CategoryContentUuid)
}
