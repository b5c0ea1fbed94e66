package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/grpc"
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
	CheckCreate: func(v apierr.Validator, c *pb.ProductAssetTypeCreate) string {
		return checkCodeName(v, c)
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductAssetTypeCreate) ([]db.ProductAssetType, error) {
		return t.Q.InsertProductAssetTypes(ctx, db.InsertProductAssetTypesParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.ProductAssetTypeCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.ProductAssetTypeCreate]),
			IsFeaturedSources: mapSlice(items, (*pb.ProductAssetTypeCreate).GetIsFeaturedSource)})
	},
	UpdateID: (*pb.ProductAssetTypeUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.ProductAssetTypeUpdate) {
		checkCodeNameUpdate(v, u)
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ProductAssetTypeUpdate) (db.ProductAssetType, error) {
		return t.Q.UpdateProductAssetType(ctx, db.UpdateProductAssetTypeParams{TenantID: t.Tenant, Uuid: id, Now: t.Now,
			Code: optString(u, "code"), DisplayName: optString(u, "display_name"), IsFeaturedSource: u.IsFeaturedSource})
	},
	GetOne:    getByKey((*db.Queries).GetProductAssetType),
	DeleteOne: deleteByKey((*db.Queries).DeleteProductAssetType),
}

// ProductAssetTypeService is catalog.v1.ProductAssetTypeService, served by the family.
func ProductAssetTypeService(s *Service) *grpc.ServiceDesc {
	return topLevelService(s, productAssetTypes, ProductAssetTypeList, &pb.ProductAssetTypeService_ServiceDesc, "product_asset_type")
}
