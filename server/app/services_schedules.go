package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// scheduleServices registers publication schedules (run by server/scheduler).
func scheduleServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.PublicationScheduleService_ServiceDesc, &catalog.PublicationScheduleServer{Service: c}, gateway(pb.RegisterPublicationScheduleServiceHandlerClient, pb.NewPublicationScheduleServiceClient)},
	}
}

// scheduleListSpecs pairs their list requests with their specs.
func scheduleListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListPublicationSchedulesRequest{}: catalog.PublicationScheduleList,
	}
}
