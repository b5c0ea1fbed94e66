package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// structureBasicServices registers brands, tags (with contents), product asset types, product relation types.
// Their services are served from the generated descriptions by their families (no per-family RPC
// methods), so the implementation passed is the catalog service itself.
func structureBasicServices(c *catalog.Service) []Service {
	brand, brandContent := catalog.BrandServices(c)
	tag, tagContent := catalog.TagServices(c)
	return []Service{
		{brand, c, pb.RegisterBrandServiceHandler},
		{brandContent, c, pb.RegisterBrandContentServiceHandler},
		{tag, c, pb.RegisterTagServiceHandler},
		{tagContent, c, pb.RegisterTagContentServiceHandler},
		{catalog.ProductAssetTypeService(c), c, pb.RegisterProductAssetTypeServiceHandler},
		{catalog.ProductRelationTypeService(c), c, pb.RegisterProductRelationTypeServiceHandler},
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
