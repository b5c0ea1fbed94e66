package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// structureBasicServices registers brands, tags (with contents), product asset types, product relation types.
func structureBasicServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.BrandService_ServiceDesc, &catalog.BrandServer{Service: c}, gateway(pb.RegisterBrandServiceHandlerClient, pb.NewBrandServiceClient)},
		{&pb.BrandContentService_ServiceDesc, &catalog.BrandContentServer{Service: c}, gateway(pb.RegisterBrandContentServiceHandlerClient, pb.NewBrandContentServiceClient)},
		{&pb.TagService_ServiceDesc, &catalog.TagServer{Service: c}, gateway(pb.RegisterTagServiceHandlerClient, pb.NewTagServiceClient)},
		{&pb.TagContentService_ServiceDesc, &catalog.TagContentServer{Service: c}, gateway(pb.RegisterTagContentServiceHandlerClient, pb.NewTagContentServiceClient)},
		{&pb.ProductAssetTypeService_ServiceDesc, &catalog.ProductAssetTypeServer{Service: c}, gateway(pb.RegisterProductAssetTypeServiceHandlerClient, pb.NewProductAssetTypeServiceClient)},
		{&pb.ProductRelationTypeService_ServiceDesc, &catalog.ProductRelationTypeServer{Service: c}, gateway(pb.RegisterProductRelationTypeServiceHandlerClient, pb.NewProductRelationTypeServiceClient)},
	}
}

// structureBasicListSpecs pairs their list requests with their specs.
func structureBasicListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListBrandsRequest{}:               catalog.BrandList,
		&pb.ListBrandContentsRequest{}:        catalog.ContentList,
		&pb.ListTagsRequest{}:                 catalog.TagList,
		&pb.ListTagContentsRequest{}:          catalog.ContentList,
		&pb.ListProductAssetTypesRequest{}:    catalog.ProductAssetTypeList,
		&pb.ListProductRelationTypesRequest{}: catalog.ProductRelationTypeList,
	}
}
