package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// productAttributeServices registers product attributes and product terms.
func productAttributeServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.ProductAttributeService_ServiceDesc, &catalog.ProductAttributeServer{Service: c}, gateway(pb.RegisterProductAttributeServiceHandlerClient, pb.NewProductAttributeServiceClient)},
		{&pb.ProductTermService_ServiceDesc, &catalog.ProductTermServer{Service: c}, gateway(pb.RegisterProductTermServiceHandlerClient, pb.NewProductTermServiceClient)},
	}
}

// productAttributeListSpecs pairs their list requests with their specs.
func productAttributeListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListProductAttributesRequest{}: catalog.ProductAttributeList,
		&pb.ListProductTermsRequest{}:      catalog.ProductTermList,
	}
}
