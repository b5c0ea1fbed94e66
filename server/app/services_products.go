package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// productServices registers products and their associations.
func productServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.ProductService_ServiceDesc, &catalog.ProductServer{Service: c}, gateway(pb.RegisterProductServiceHandlerClient, pb.NewProductServiceClient)},
		{&pb.ProductCategoryService_ServiceDesc, &catalog.ProductCategoryServer{Service: c}, gateway(pb.RegisterProductCategoryServiceHandlerClient, pb.NewProductCategoryServiceClient)},
		{&pb.ProductTagService_ServiceDesc, &catalog.ProductTagServer{Service: c}, gateway(pb.RegisterProductTagServiceHandlerClient, pb.NewProductTagServiceClient)},
	}
}

// productListSpecs pairs their list requests with their specs; the links share one.
func productListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListProductsRequest{}:          catalog.ProductList,
		&pb.ListProductCategoriesRequest{}: catalog.ProductLinkList,
		&pb.ListProductTagsRequest{}:       catalog.ProductLinkList,
	}
}
