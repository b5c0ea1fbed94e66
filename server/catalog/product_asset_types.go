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

// ProductAssetTypeList is the list spec of GET /v1/product-asset-types.
var ProductAssetTypeList = &list.Spec{
	Table:   "product_asset_types",
	Filters: list.CodeNameFilters(map[string]list.Field{"isFeaturedSource": {Column: "is_featured_source", Type: list.Bool}}),
	Order:   list.CodeNameOrder(map[string]string{"isFeaturedSource": "is_featured_source"}),
}

func productAssetTypeToPB(r db.ProductAssetType) *pb.ProductAssetType {
	return &pb.ProductAssetType{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), UpdatedAt: timestamppb.New(r.UpdatedAt),
		Code: r.Code, DisplayName: r.DisplayName, IsFeaturedSource: r.IsFeaturedSource}
}

// productAssetTypes is the product asset type family: code, displayName and isFeaturedSource
// (default false). Product assets and family asset types reference it (deleting one in use is 409).
var productAssetTypes = &crud.Family[db.ProductAssetType, *pb.ProductAssetType, *pb.ProductAssetTypeCreate, *pb.ProductAssetTypeUpdate]{
	Kind: "product asset type", Event: "product_asset_type", IDKey: "productAssetTypeUuid", Unique: "code",
	ID:   func(r db.ProductAssetType) uuid.UUID { return r.Uuid },
	ToPB: productAssetTypeToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.ProductAssetTypeCreate) string {
		return codeOf(c)
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductAssetTypeCreate) ([]db.ProductAssetType, error) {
		return t.Q.InsertProductAssetTypes(ctx, db.InsertProductAssetTypesParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.ProductAssetTypeCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.ProductAssetTypeCreate]),
			IsFeaturedSources: mapSlice(items, (*pb.ProductAssetTypeCreate).GetIsFeaturedSource)})
	},
	UpdateID: (*pb.ProductAssetTypeUpdate).GetUuid,
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ProductAssetTypeUpdate) (db.ProductAssetType, error) {
		return t.Q.UpdateProductAssetType(ctx, db.UpdateProductAssetTypeParams{TenantID: t.Tenant, Uuid: id, Now: t.Now,
			Code: optString(u, "code"), DisplayName: optString(u, "display_name"), IsFeaturedSource: u.IsFeaturedSource})
	},
	GetOne:    getByKey((*db.Queries).GetProductAssetType),
	DeleteOne: deleteByKey((*db.Queries).DeleteProductAssetType),
}

// ProductAssetTypeServer implements catalog.v1.ProductAssetTypeService.
type ProductAssetTypeServer struct {
	pb.UnimplementedProductAssetTypeServiceServer
	*Service
}

func (s *ProductAssetTypeServer) ListProductAssetTypes(ctx context.Context, req *pb.ListProductAssetTypesRequest) (*pb.ListProductAssetTypesResponse, error) {
	out, page, err := listAs(ctx, s.Service, ProductAssetTypeList, req, productAssetTypes.ToPB)
	return &pb.ListProductAssetTypesResponse{Items: out, Pagination: page}, err
}

func (s *ProductAssetTypeServer) CreateProductAssetType(ctx context.Context, req *pb.CreateProductAssetTypeRequest) (*pb.CreateProductAssetTypeResponse, error) {
	m, err := productAssetTypes.CreateOne(ctx, s.DB, crud.Scope{}, req.ProductAssetType)
	return &pb.CreateProductAssetTypeResponse{ProductAssetType: m}, err
}

func (s *ProductAssetTypeServer) BulkCreateProductAssetTypes(ctx context.Context, req *pb.BulkCreateProductAssetTypesRequest) (*pb.BulkCreateProductAssetTypesResponse, error) {
	out, err := productAssetTypes.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateProductAssetTypesResponse{Items: out}, err
}

func (s *ProductAssetTypeServer) GetProductAssetType(ctx context.Context, req *pb.GetProductAssetTypeRequest) (*pb.GetProductAssetTypeResponse, error) {
	m, err := productAssetTypes.GetAt(ctx, s.DB, crud.Scope{}, req.ProductAssetTypeUuid)
	return &pb.GetProductAssetTypeResponse{ProductAssetType: m}, err
}

func (s *ProductAssetTypeServer) UpdateProductAssetType(ctx context.Context, req *pb.UpdateProductAssetTypeRequest) (*pb.UpdateProductAssetTypeResponse, error) {
	m, err := productAssetTypes.UpdateAt(ctx, s.DB, crud.Scope{}, req.ProductAssetTypeUuid, req.ProductAssetType)
	return &pb.UpdateProductAssetTypeResponse{ProductAssetType: m}, err
}

func (s *ProductAssetTypeServer) BulkUpdateProductAssetTypes(ctx context.Context, req *pb.BulkUpdateProductAssetTypesRequest) (*pb.BulkUpdateProductAssetTypesResponse, error) {
	out, err := productAssetTypes.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateProductAssetTypesResponse{Items: out}, err
}

func (s *ProductAssetTypeServer) DeleteProductAssetType(ctx context.Context, req *pb.DeleteProductAssetTypeRequest) (*pb.DeleteProductAssetTypeResponse, error) {
	return &pb.DeleteProductAssetTypeResponse{}, productAssetTypes.Delete(ctx, s.DB, crud.Scope{}, req.ProductAssetTypeUuid)
}
