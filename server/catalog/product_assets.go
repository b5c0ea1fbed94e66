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

// Product assets link a product to assets: one per product and asset (the asset fixed after
// creation), each with a product asset type and a displayPriority (default 0, lower first).
//
// isFeatured is computed on every read by product_assets_view (db/migrations/0012_assets.sql):
// the product's featured asset is, among its product assets whose type has isFeaturedSource, the
// one with the lowest displayPriority, then the oldest, then the lowest uuid; at most one per
// product. Nothing stores it, so it follows at once every change of priorities, of links and of a
// type's isFeaturedSource. Only the rows written emit events: when a write moves the featured
// flag to another product asset, that one gets no event of its own (its stored fields did not
// change; isFeatured is derived).
//
// Every write re-reads its rows through the view at the end of the transaction, so a bulk's
// response shows the isFeatured that results from the whole bulk.

// ProductAssetList is the list spec of /v1/products/{productUuid}/assets (the view, for isFeatured).
var ProductAssetList = &list.Spec{
	Table: "product_assets_view",
	Filters: map[string]list.Field{
		"uuids":                 {Column: "uuid", Type: list.UUID},
		"assetUuids":            {Column: "asset_uuid", Type: list.UUID},
		"productAssetTypeUuids": {Column: "product_asset_type_uuid", Type: list.UUID},
		"displayPriority":       {Column: "display_priority", Type: list.Int},
		"isFeatured":            {Column: "is_featured", Type: list.Bool},
		"createdAt":             {Column: "created_at", Type: list.Time},
		"updatedAt":             {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"displayPriority": "display_priority", "createdAt": "created_at", "updatedAt": "updated_at"},
	// Display order unless asked otherwise.
	DefaultOrder: []string{"display_priority", "created_at"},
}

// ProductAssetToPB converts a product asset row (exported for the product's include/expand: the
// rows of db.Queries.ListProductAssetsOfProducts).
func ProductAssetToPB(a db.ProductAssetsView) *pb.ProductAsset {
	return &pb.ProductAsset{Uuid: a.Uuid.String(), CreatedAt: timestamppb.New(a.CreatedAt), UpdatedAt: timestamppb.New(a.UpdatedAt),
		ProductUuid: a.ProductUuid.String(), AssetUuid: a.AssetUuid.String(), ProductAssetTypeUuid: a.ProductAssetTypeUuid.String(),
		DisplayPriority: a.DisplayPriority, IsFeatured: a.IsFeatured}
}

// readProductAssets re-reads product assets of the scope's product through the view.
func readProductAssets(ctx context.Context, t *crud.Tx, ids []uuid.UUID) ([]db.ProductAssetsView, error) {
	return t.Q.ListProductAssetsByUuids(ctx, db.ListProductAssetsByUuidsParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuids: ids})
}

// productAssets links products to assets (events product.asset.linked/updated/unlinked).
var productAssets = &crud.Family[db.ProductAssetsView, *pb.ProductAsset, *pb.ProductAssetCreate, *pb.ProductAssetUpdate]{
	Kind: "product asset", Event: "product.asset", IDKey: "productAssetUuid", Unique: "assetUuid",
	CreatedVerb: "linked", DeletedVerb: "unlinked",
	References: map[string]string{
		"product_assets_asset_fkey":              "assetUuid",
		"product_assets_product_asset_type_fkey": "productAssetTypeUuid",
	},
	ID:   func(a db.ProductAssetsView) uuid.UUID { return a.Uuid },
	ToPB: ProductAssetToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.ProductAssetCreate) string {
		return c.GetAssetUuid()
	},
	// Every asset and type must be the tenant's (404 naming the item's field); an asset already
	// linked inserts nothing and the engine reports it.
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.ProductAssetCreate) ([]db.ProductAssetsView, error) {
		p := db.InsertProductAssetsParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Now: t.Now, Uuids: ids,
			DisplayPriorities: mapSlice(items, (*pb.ProductAssetCreate).GetDisplayPriority)}
		var err error
		if p.AssetUuids, err = crud.RequireRefs(ctx, t, "assets", "assetUuid", items, (*pb.ProductAssetCreate).GetAssetUuid); err != nil {
			return nil, err
		}
		if p.ProductAssetTypeUuids, err = crud.RequireRefs(ctx, t, "product_asset_types", "productAssetTypeUuid", items,
			(*pb.ProductAssetCreate).GetProductAssetTypeUuid); err != nil {
			return nil, err
		}
		inserted, err := t.Q.InsertProductAssets(ctx, p)
		if err != nil || len(inserted) == 0 {
			return nil, err
		}
		return readProductAssets(ctx, t, inserted)
	},
	UpdateID: (*pb.ProductAssetUpdate).GetUuid,
	// A product asset type that is not the tenant's fails the foreign key: 404 naming the field.
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.ProductAssetUpdate) (db.ProductAssetsView, error) {
		var typ *uuid.UUID
		if u.ProductAssetTypeUuid != nil {
			x := uuid.MustParse(*u.ProductAssetTypeUuid)
			typ = &x
		}
		if _, err := t.Q.UpdateProductAsset(ctx, db.UpdateProductAssetParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id,
			Now: t.Now, ProductAssetTypeUuid: typ, DisplayPriority: u.DisplayPriority}); err != nil {
			return db.ProductAssetsView{}, err
		}
		return t.Q.GetProductAsset(ctx, db.GetProductAssetParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id})
	},
	// The asset may only be repeated.
	AfterUpdate: func(ctx context.Context, t *crud.Tx, a db.ProductAssetsView, u *pb.ProductAssetUpdate, field func(string) string) (db.ProductAssetsView, error) {
		if u.AssetUuid != nil && uuid.MustParse(*u.AssetUuid) != a.AssetUuid {
			v := apierr.NewValidator()
			v.Add(field("assetUuid"), "is fixed after creation (this product asset is of asset %s): unlink it and link the other asset instead", a.AssetUuid)
			return a, v.Err()
		}
		return a, nil
	},
	// One item's priority or type changes the others' isFeatured: re-read them all at the end.
	Refresh: readProductAssets,
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.ProductAssetsView, error) {
		return q.GetProductAsset(ctx, db.GetProductAssetParams{TenantID: tenant, ProductUuid: s.Parent, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteProductAsset(ctx, db.DeleteProductAssetParams{TenantID: t.Tenant, ProductUuid: t.Scope.Parent, Uuid: id})
	},
}

// ProductAssetServer implements catalog.v1.ProductAssetService.
type ProductAssetServer struct {
	pb.UnimplementedProductAssetServiceServer
	*Service
}

func (s *ProductAssetServer) ListProductAssets(ctx context.Context, req *pb.ListProductAssetsRequest) (*pb.ListProductAssetsResponse, error) {
	sc := s.productScope(ctx, req.ProductUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, ProductAssetList, req, ProductAssetToPB, list.Eq("product_uuid", sc.Parent))
	return &pb.ListProductAssetsResponse{Items: out, Pagination: page}, err
}

// CreateProductAsset links an asset to the product.
func (s *ProductAssetServer) CreateProductAsset(ctx context.Context, req *pb.CreateProductAssetRequest) (*pb.CreateProductAssetResponse, error) {
	m, err := productAssets.CreateOne(ctx, s.DB, s.productScope(ctx, req.ProductUuid), orNew(req.ProductAsset))
	return &pb.CreateProductAssetResponse{ProductAsset: m}, err
}

func (s *ProductAssetServer) BulkCreateProductAssets(ctx context.Context, req *pb.BulkCreateProductAssetsRequest) (*pb.BulkCreateProductAssetsResponse, error) {
	out, err := productAssets.CreateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkCreateProductAssetsResponse{Items: out}, err
}

func (s *ProductAssetServer) GetProductAsset(ctx context.Context, req *pb.GetProductAssetRequest) (*pb.GetProductAssetResponse, error) {
	m, err := productAssets.GetAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductAssetUuid)
	return &pb.GetProductAssetResponse{ProductAsset: m}, err
}

func (s *ProductAssetServer) UpdateProductAsset(ctx context.Context, req *pb.UpdateProductAssetRequest) (*pb.UpdateProductAssetResponse, error) {
	m, err := productAssets.UpdateAt(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductAssetUuid, orNew(req.ProductAsset))
	return &pb.UpdateProductAssetResponse{ProductAsset: m}, err
}

func (s *ProductAssetServer) BulkUpdateProductAssets(ctx context.Context, req *pb.BulkUpdateProductAssetsRequest) (*pb.BulkUpdateProductAssetsResponse, error) {
	out, err := productAssets.UpdateMany(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.Items)
	return &pb.BulkUpdateProductAssetsResponse{Items: out}, err
}

// DeleteProductAsset unlinks an asset from the product (the asset stays).
func (s *ProductAssetServer) DeleteProductAsset(ctx context.Context, req *pb.DeleteProductAssetRequest) (*pb.DeleteProductAssetResponse, error) {
	return &pb.DeleteProductAssetResponse{}, productAssets.Delete(ctx, s.DB, s.productScope(ctx, req.ProductUuid), req.ProductAssetUuid)
}
