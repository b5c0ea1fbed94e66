package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// productValueServices registers this group's services.
func productValueServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.ProductInputValueService_ServiceDesc, &catalog.ProductInputValueServer{Service: c}, gateway(pb.RegisterProductInputValueServiceHandlerClient, pb.NewProductInputValueServiceClient)},
	}
}

// productValueListSpecs pairs its list requests with their specs.
func productValueListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListProductInputValuesRequest{}: catalog.ProductInputValueList,
	}
}
