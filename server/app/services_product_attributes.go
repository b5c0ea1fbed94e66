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
		{&pb.ProductAttributeService_ServiceDesc, &catalog.ProductAttributeServer{Service: c}, pb.RegisterProductAttributeServiceHandler},
		{&pb.ProductTermService_ServiceDesc, &catalog.ProductTermServer{Service: c}, pb.RegisterProductTermServiceHandler},
	}
}

// productAttributeListSpecs pairs their list requests with their specs.
func productAttributeListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListProductAttributesRequest{}: catalog.ProductAttributeList,
		&pb.ListProductTermsRequest{}:      catalog.ProductTermList,
	}
}
