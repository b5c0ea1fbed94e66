package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// hierarchyServices registers categories (with contents) and collections.
func hierarchyServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.CategoryService_ServiceDesc, &catalog.CategoryServer{Service: c}, gateway(pb.RegisterCategoryServiceHandlerClient, pb.NewCategoryServiceClient)},
		{&pb.CategoryContentService_ServiceDesc, &catalog.CategoryContentServer{Service: c}, gateway(pb.RegisterCategoryContentServiceHandlerClient, pb.NewCategoryContentServiceClient)},
		{&pb.CollectionService_ServiceDesc, &catalog.CollectionServer{Service: c}, gateway(pb.RegisterCollectionServiceHandlerClient, pb.NewCollectionServiceClient)},
	}
}

// hierarchyListSpecs pairs their list requests with their specs.
func hierarchyListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListCategoriesRequest{}:       catalog.CategoryList,
		&pb.ListCategoryContentsRequest{}: catalog.ContentList,
		&pb.ListCollectionsRequest{}:      catalog.CollectionList,
	}
}
