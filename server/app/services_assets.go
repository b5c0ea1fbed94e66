package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// assetServices registers assets, asset files, asset collections and product assets.
func assetServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.AssetService_ServiceDesc, &catalog.AssetServer{Service: c}, gateway(pb.RegisterAssetServiceHandlerClient, pb.NewAssetServiceClient)},
		{&pb.AssetFileService_ServiceDesc, &catalog.AssetFileServer{Service: c}, gateway(pb.RegisterAssetFileServiceHandlerClient, pb.NewAssetFileServiceClient)},
		{&pb.AssetCollectionService_ServiceDesc, &catalog.AssetCollectionServer{Service: c}, gateway(pb.RegisterAssetCollectionServiceHandlerClient, pb.NewAssetCollectionServiceClient)},
		{&pb.ProductAssetService_ServiceDesc, &catalog.ProductAssetServer{Service: c}, gateway(pb.RegisterProductAssetServiceHandlerClient, pb.NewProductAssetServiceClient)},
	}
}

// assetListSpecs pairs their list requests with their specs.
func assetListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListAssetsRequest{}:           catalog.AssetList,
		&pb.ListAssetFilesRequest{}:       catalog.AssetFileList,
		&pb.ListAssetCollectionsRequest{}: catalog.AssetCollectionList,
		&pb.ListProductAssetsRequest{}:    catalog.ProductAssetList,
	}
}
