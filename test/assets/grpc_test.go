package assets

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

func TestGRPC(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	ctx := GRPCContext(t, tenant)
	col := mkCollection(t, c)
	log := NewEventLog(pool, tenant).Skip(t)

	ac := pb.NewAssetServiceClient(env.GRPC)
	created, err := ac.CreateAsset(ctx, &pb.CreateAssetRequest{Asset: &pb.AssetCreate{Code: "g", Category: pb.AssetCategory_ASSET_CATEGORY_VIDEO,
		Metadata: map[string]string{"fps": "30"}}})
	if err != nil {
		t.Fatal(err)
	}
	a := created.Asset
	if a.Code != "g" || a.DisplayName != "g" || a.Category != pb.AssetCategory_ASSET_CATEGORY_VIDEO || a.Metadata["fps"] != "30" ||
		a.StorageLocation != "assets/"+a.Uuid+"/" || a.Description != nil {
		t.Errorf("create: %v", a)
	}
	log.Expect(t, "create", assetEv("created", a.Uuid))
	_, err = ac.CreateAsset(ctx, &pb.CreateAssetRequest{Asset: &pb.AssetCreate{Code: "h"}})
	WantGRPC(t, "missing category", err, codes.InvalidArgument, "VALIDATION_FAILED", "category")
	_, err = ac.CreateAsset(ctx, &pb.CreateAssetRequest{Asset: &pb.AssetCreate{Code: "h", Category: pb.AssetCategory(42)}})
	WantGRPC(t, "unknown category", err, codes.InvalidArgument, "VALIDATION_FAILED", "category")

	// Without a mask an empty map leaves metadata; a mask naming it clears it.
	up, err := ac.UpdateAsset(ctx, &pb.UpdateAssetRequest{AssetUuid: a.Uuid, Asset: &pb.AssetUpdate{}})
	if err != nil || up.Asset.Metadata["fps"] != "30" {
		t.Errorf("update without mask: %v %v", up, err)
	}
	up, err = ac.UpdateAsset(ctx, &pb.UpdateAssetRequest{AssetUuid: a.Uuid, Asset: &pb.AssetUpdate{UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"metadata"}}}})
	if err != nil || len(up.Asset.Metadata) != 0 {
		t.Errorf("update clearing metadata: %v %v", up, err)
	}
	log.Expect(t, "updates", assetEv("updated", a.Uuid)) // the update without a mask changed nothing
	list, err := ac.ListAssets(ctx, &pb.ListAssetsRequest{Categories: &pb.StringsFilter{Eq: []string{"video"}}})
	if err != nil || len(list.Items) != 1 || list.Items[0].Uuid != a.Uuid {
		t.Errorf("list: %v %v", list, err)
	}

	acc := pb.NewAssetCollectionServiceClient(env.GRPC)
	link, err := acc.CreateAssetCollection(ctx, &pb.CreateAssetCollectionRequest{AssetUuid: a.Uuid, AssetCollection: &pb.AssetCollectionCreate{CollectionUuid: col}})
	if err != nil || link.AssetCollection.CollectionUuid != col || link.AssetCollection.AssetUuid != a.Uuid {
		t.Fatalf("link: %v %v", link, err)
	}
	log.Expect(t, "link", acEv("linked", a.Uuid, link.AssetCollection.Uuid))
	_, err = acc.CreateAssetCollection(ctx, &pb.CreateAssetCollectionRequest{AssetUuid: a.Uuid, AssetCollection: &pb.AssetCollectionCreate{CollectionUuid: col}})
	WantGRPC(t, "duplicate", err, codes.AlreadyExists, "ALREADY_EXISTS", "collectionUuid")
	links, err := acc.ListAssetCollections(ctx, &pb.ListAssetCollectionsRequest{AssetUuid: a.Uuid})
	if err != nil || len(links.Items) != 1 {
		t.Errorf("list links: %v %v", links, err)
	}
	if _, err := acc.DeleteAssetCollection(ctx, &pb.DeleteAssetCollectionRequest{AssetUuid: a.Uuid, AssetCollectionUuid: link.AssetCollection.Uuid}); err != nil {
		t.Fatal(err)
	}
	if _, err := ac.DeleteAsset(ctx, &pb.DeleteAssetRequest{AssetUuid: a.Uuid}); err != nil {
		t.Fatal(err)
	}
	log.Expect(t, "deletes", acEv("unlinked", a.Uuid, link.AssetCollection.Uuid), assetEv("deleted", a.Uuid))
	_, err = ac.GetAsset(ctx, &pb.GetAssetRequest{AssetUuid: a.Uuid})
	WantGRPC(t, "get deleted", err, codes.NotFound, "NOT_FOUND")
}
