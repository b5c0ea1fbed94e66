package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// publicationServices registers product channel publications.
func publicationServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.ProductPublicationService_ServiceDesc, &catalog.ProductPublicationServer{Service: c}, gateway(pb.RegisterProductPublicationServiceHandlerClient, pb.NewProductPublicationServiceClient)},
	}
}

// publicationListSpecs pairs their list requests with their specs.
func publicationListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListProductPublicationsRequest{}: catalog.ProductPublicationList,
	}
}
