package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// productRelationServices registers this group's services.
func productRelationServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.ProductRelationService_ServiceDesc, &catalog.ProductRelationServer{Service: c}, gateway(pb.RegisterProductRelationServiceHandlerClient, pb.NewProductRelationServiceClient)},
	}
}

// productRelationListSpecs pairs its list requests with their specs.
func productRelationListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListProductRelationsRequest{}: catalog.ProductRelationList,
	}
}
