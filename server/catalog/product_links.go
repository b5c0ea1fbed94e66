package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/list"
)

// Product categories and product tags are one shape: a target fixed after creation, unique per
// product, and no other field. They share one table (product_links, by kind) and the definition
// below. A link has nothing to update, so these families have no update operations: to change the
// target, unlink and link again.

// Kinds of product link (the kind column).
const (
	linkCategory = "category"
	linkTag      = "tag"
)

// ProductLinkList is the list spec of /v1/products/{productUuid}/categories and …/tags.
var ProductLinkList = &list.Spec{
	Table: "product_links",
	Filters: map[string]list.Field{
		"uuids":         {Column: "uuid", Type: list.UUID},
		"categoryUuids": {Column: "target_uuid", Type: list.UUID},
		"tagUuids":      {Column: "target_uuid", Type: list.UUID},
		"createdAt":     {Column: "created_at", Type: list.Time},
		"updatedAt":     {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at"},
}

// newProductLinkFamily declares the links of kind to rows of table; targetJSON names the target
// field ("categoryUuid").
func newProductLinkFamily[M any, C any](kind, event, idKey, targetJSON, table string, target func(C) string, toPB func(db.ProductLink) M) *crud.Family[db.ProductLink, M, C, C] {
	return &crud.Family[db.ProductLink, M, C, C]{
		Kind: "product " + kind, Event: event, IDKey: idKey, Unique: targetJSON,
		CreatedVerb: "linked", DeletedVerb: "unlinked", Across: true,
		References: map[string]string{"product_links_" + kind + "_fkey": targetJSON},
		ID:         func(l db.ProductLink) uuid.UUID { return l.Uuid },
		ToPB:       toPB,
		CheckCreate: func(_ apierr.Validator, c C) string {
			return target(c)
		},
		Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []C) ([]db.ProductLink, error) {
			p := db.InsertProductLinksParams{TenantID: t.Tenant, Kind: kind, Now: t.Now, Uuids: ids,
				ProductUuids: make([]uuid.UUID, len(items))}
			for i := range items {
				p.ProductUuids[i] = t.ItemScope(i).Parent
			}
			var err error
			if p.TargetUuids, err = crud.RequireRefs(ctx, t, table, targetJSON, items, target); err != nil {
				return nil, err
			}
			return t.Q.InsertProductLinks(ctx, p)
		},
		GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ProductLink, error) {
			return q.GetProductLink(ctx, db.GetProductLinkParams{TenantID: tenant, ProductUuid: s.Parent, Kind: kind, Uuid: id})
		},
		DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
			return t.Q.DeleteProductLink(ctx, db.DeleteProductLinkParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Kind: kind, Uuid: id})
		},
	}
}

func productCategoryToPB(l db.ProductLink) *pb.ProductCategory {
	return &pb.ProductCategory{Uuid: l.Uuid.String(), CreatedAt: timestamppb.New(l.CreatedAt), UpdatedAt: timestamppb.New(l.UpdatedAt),
		ProductUuid: l.ProductUuid.String(), CategoryUuid: l.TargetUuid.String()}
}

func productTagToPB(l db.ProductLink) *pb.ProductTag {
	return &pb.ProductTag{Uuid: l.Uuid.String(), CreatedAt: timestamppb.New(l.CreatedAt), UpdatedAt: timestamppb.New(l.UpdatedAt),
		ProductUuid: l.ProductUuid.String(), TagUuid: l.TargetUuid.String()}
}

// productCategories links products to categories (events product.category.linked/unlinked); a
// category linked to a product cannot be deleted (409 IN_USE).
var productCategories = newProductLinkFamily[*pb.ProductCategory, *pb.ProductCategoryCreate](linkCategory, "product.category",
	"productCategoryUuid", "categoryUuid", "categories", (*pb.ProductCategoryCreate).GetCategoryUuid, productCategoryToPB)

// productTags links products to tags (events product.tag.linked/unlinked); a tag linked to a
// product cannot be deleted (409 IN_USE).
var productTags = newProductLinkFamily[*pb.ProductTag, *pb.ProductTagCreate](linkTag, "product.tag",
	"productTagUuid", "tagUuid", "tags", (*pb.ProductTagCreate).GetTagUuid, productTagToPB)

// ProductCategoryServer implements catalog.v1.ProductCategoryService.
type ProductCategoryServer struct {
	pb.UnimplementedProductCategoryServiceServer
	*Service
}

func (s *ProductCategoryServer) ListProductCategories(ctx context.Context, req *pb.ListProductCategoriesRequest) (*pb.ListProductCategoriesResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, ProductLinkList, req, productCategoryToPB, list.Eq("product_uuid", sc.Parent), list.Eq("kind", linkCategory))
	return &pb.ListProductCategoriesResponse{Items: out, Pagination: page}, err
}

// CreateProductCategory links a category to the product.
func (s *ProductCategoryServer) CreateProductCategory(ctx context.Context, req *pb.CreateProductCategoryRequest) (*pb.CreateProductCategoryResponse, error) {
	m, err := productCategories.CreateOne(ctx, s.DB, s.productScope(ctx, req.ProductUuid), orNew(req.ProductCategory))
	return &pb.CreateProductCategoryResponse{ProductCategory: m}, err
}

func (s *ProductCategoryServer) BulkCreateProductCategories(ctx context.Context, req *pb.BulkCreateProductCategoriesRequest) (*pb.BulkCreateProductCategoriesResponse, error) {
	out, err := productCategories.CreateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkCreateProductCategoriesResponse{Items: out}, err
}

func (s *ProductCategoryServer) GetProductCategory(ctx context.Context, req *pb.GetProductCategoryRequest) (*pb.GetProductCategoryResponse, error) {
	m, err := productCategories.GetAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductCategoryUuid)
	return &pb.GetProductCategoryResponse{ProductCategory: m}, err
}

// DeleteProductCategory unlinks a category from the product (the category stays).
func (s *ProductCategoryServer) DeleteProductCategory(ctx context.Context, req *pb.DeleteProductCategoryRequest) (*pb.DeleteProductCategoryResponse, error) {
	return &pb.DeleteProductCategoryResponse{}, productCategories.Delete(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductCategoryUuid)
}

// ProductTagServer implements catalog.v1.ProductTagService.
type ProductTagServer struct {
	pb.UnimplementedProductTagServiceServer
	*Service
}

func (s *ProductTagServer) ListProductTags(ctx context.Context, req *pb.ListProductTagsRequest) (*pb.ListProductTagsResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, ProductLinkList, req, productTagToPB, list.Eq("product_uuid", sc.Parent), list.Eq("kind", linkTag))
	return &pb.ListProductTagsResponse{Items: out, Pagination: page}, err
}

// CreateProductTag links a tag to the product.
func (s *ProductTagServer) CreateProductTag(ctx context.Context, req *pb.CreateProductTagRequest) (*pb.CreateProductTagResponse, error) {
	m, err := productTags.CreateOne(ctx, s.DB, s.productScope(ctx, req.ProductUuid), orNew(req.ProductTag))
	return &pb.CreateProductTagResponse{ProductTag: m}, err
}

func (s *ProductTagServer) BulkCreateProductTags(ctx context.Context, req *pb.BulkCreateProductTagsRequest) (*pb.BulkCreateProductTagsResponse, error) {
	out, err := productTags.CreateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkCreateProductTagsResponse{Items: out}, err
}

func (s *ProductTagServer) GetProductTag(ctx context.Context, req *pb.GetProductTagRequest) (*pb.GetProductTagResponse, error) {
	m, err := productTags.GetAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductTagUuid)
	return &pb.GetProductTagResponse{ProductTag: m}, err
}

// DeleteProductTag unlinks a tag from the product (the tag stays).
func (s *ProductTagServer) DeleteProductTag(ctx context.Context, req *pb.DeleteProductTagRequest) (*pb.DeleteProductTagResponse, error) {
	return &pb.DeleteProductTagResponse{}, productTags.Delete(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductTagUuid)
}
