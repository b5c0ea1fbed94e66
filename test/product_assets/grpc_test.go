package product_assets

import (
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPC(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	ctx := GRPCContext(t, tenant)
	p, a, b := mkProduct(t, c), mkAsset(t, c), mkAsset(t, c)
	gallery, hero := mkType(t, c, false), mkType(t, c, true)
	log := NewEventLog(pool, tenant).Skip(t)

	pac := pb.NewProductAssetServiceClient(env.GRPC)
	created, err := pac.CreateProductAsset(ctx, &pb.CreateProductAssetRequest{ProductUuid: p, ProductAsset: &pb.ProductAssetCreate{AssetUuid: a, ProductAssetTypeUuid: hero}})
	if err != nil {
		t.Fatal(err)
	}
	pa := created.ProductAsset
	if pa.AssetUuid != a || pa.ProductAssetTypeUuid != hero || pa.DisplayPriority != 0 || !pa.IsFeatured || pa.ProductUuid != p {
		t.Errorf("create: %v", pa)
	}
	log.Expect(t, "create", paEv("linked", p, pa.Uuid))
	_, err = pac.CreateProductAsset(ctx, &pb.CreateProductAssetRequest{ProductUuid: p, ProductAsset: &pb.ProductAssetCreate{AssetUuid: a, ProductAssetTypeUuid: gallery}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "assetUuid")
	_, err = pac.CreateProductAsset(ctx, &pb.CreateProductAssetRequest{ProductUuid: p, ProductAsset: &pb.ProductAssetCreate{AssetUuid: b, ProductAssetTypeUuid: UnknownUUID}})
	WantGRPC(t, "unknown type", err, codes.NotFound, "NOT_FOUND", "productAssetTypeUuid")

	bulk, err := pac.BulkCreateProductAssets(ctx, &pb.BulkCreateProductAssetsRequest{ProductUuid: p, Items: []*pb.ProductAssetCreate{{AssetUuid: b, ProductAssetTypeUuid: hero, DisplayPriority: ptr(int32(-1))}}})
	if err != nil || len(bulk.Items) != 1 || !bulk.Items[0].IsFeatured || bulk.Items[0].DisplayPriority != -1 {
		t.Fatalf("bulk: %v %v", bulk, err)
	}
	pb2 := bulk.Items[0].Uuid
	log.Expect(t, "bulk", paEv("linked", p, pb2))
	up, err := pac.UpdateProductAsset(ctx, &pb.UpdateProductAssetRequest{ProductUuid: p, ProductAssetUuid: pb2, ProductAsset: &pb.ProductAssetUpdate{ProductAssetTypeUuid: &gallery}})
	if err != nil || up.ProductAsset.ProductAssetTypeUuid != gallery || up.ProductAsset.IsFeatured || up.ProductAsset.DisplayPriority != -1 {
		t.Errorf("update: %v %v", up, err)
	}
	log.Expect(t, "update", paEv("updated", p, pb2))
	list, err := pac.ListProductAssets(ctx, &pb.ListProductAssetsRequest{ProductUuid: p, IsFeatured: &pb.BoolFilter{Eq: ptr(true)}})
	if err != nil || len(list.Items) != 1 || list.Items[0].Uuid != pa.Uuid {
		t.Errorf("list: %v %v", list, err)
	}
	got, err := pac.GetProductAsset(ctx, &pb.GetProductAssetRequest{ProductUuid: p, ProductAssetUuid: pa.Uuid})
	if err != nil || !got.ProductAsset.IsFeatured {
		t.Errorf("get: %v %v", got, err)
	}
	if _, err := pac.DeleteProductAsset(ctx, &pb.DeleteProductAssetRequest{ProductUuid: p, ProductAssetUuid: pa.Uuid}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "delete", paEv("unlinked", p, pa.Uuid))
	_, err = pac.GetProductAsset(ctx, &pb.GetProductAssetRequest{ProductUuid: p, ProductAssetUuid: pa.Uuid})
	WantGRPC(t, "get deleted", err, codes.NotFound, "NOT_FOUND")
}

func ptr[T any](v T) *T { return &v }
