package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// inputServices registers type groups, input types, channels and channel input types.
func inputServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.TypeGroupService_ServiceDesc, &catalog.TypeGroupServer{Service: c}, gateway(pb.RegisterTypeGroupServiceHandlerClient, pb.NewTypeGroupServiceClient)},
		{&pb.InputTypeService_ServiceDesc, &catalog.InputTypeServer{Service: c}, gateway(pb.RegisterInputTypeServiceHandlerClient, pb.NewInputTypeServiceClient)},
		{&pb.ChannelService_ServiceDesc, &catalog.ChannelServer{Service: c}, gateway(pb.RegisterChannelServiceHandlerClient, pb.NewChannelServiceClient)},
		{&pb.ChannelInputTypeService_ServiceDesc, &catalog.ChannelInputTypeServer{Service: c}, gateway(pb.RegisterChannelInputTypeServiceHandlerClient, pb.NewChannelInputTypeServiceClient)},
	}
}

// inputListSpecs pairs their list requests with their specs.
func inputListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListTypeGroupsRequest{}:        catalog.TypeGroupList,
		&pb.ListInputTypesRequest{}:        catalog.InputTypeList,
		&pb.ListChannelsRequest{}:          catalog.ChannelList,
		&pb.ListChannelInputTypesRequest{}: catalog.ChannelInputTypeList,
	}
}
