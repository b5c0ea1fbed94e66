package app

import (
	"google.golang.org/protobuf/proto"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// familyServices registers families and their five associations.
func familyServices(c *catalog.Service) []Service {
	return []Service{
		{&pb.FamilyService_ServiceDesc, &catalog.FamilyServer{Service: c}, gateway(pb.RegisterFamilyServiceHandlerClient, pb.NewFamilyServiceClient)},
		{&pb.FamilyAttributeService_ServiceDesc, &catalog.FamilyAttributeServer{Service: c}, gateway(pb.RegisterFamilyAttributeServiceHandlerClient, pb.NewFamilyAttributeServiceClient)},
		{&pb.FamilyInputTypeService_ServiceDesc, &catalog.FamilyInputTypeServer{Service: c}, gateway(pb.RegisterFamilyInputTypeServiceHandlerClient, pb.NewFamilyInputTypeServiceClient)},
		{&pb.FamilyCategoryService_ServiceDesc, &catalog.FamilyCategoryServer{Service: c}, gateway(pb.RegisterFamilyCategoryServiceHandlerClient, pb.NewFamilyCategoryServiceClient)},
		{&pb.FamilyAssetTypeService_ServiceDesc, &catalog.FamilyAssetTypeServer{Service: c}, gateway(pb.RegisterFamilyAssetTypeServiceHandlerClient, pb.NewFamilyAssetTypeServiceClient)},
		{&pb.FamilyRelationTypeService_ServiceDesc, &catalog.FamilyRelationTypeServer{Service: c}, gateway(pb.RegisterFamilyRelationTypeServiceHandlerClient, pb.NewFamilyRelationTypeServiceClient)},
	}
}

// familyListSpecs pairs their list requests with their specs; the five associations share one.
func familyListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{
		&pb.ListFamiliesRequest{}:            catalog.FamilyList,
		&pb.ListFamilyAttributesRequest{}:    catalog.FamilyLinkList,
		&pb.ListFamilyInputTypesRequest{}:    catalog.FamilyLinkList,
		&pb.ListFamilyCategoriesRequest{}:    catalog.FamilyLinkList,
		&pb.ListFamilyAssetTypesRequest{}:    catalog.FamilyLinkList,
		&pb.ListFamilyRelationTypesRequest{}: catalog.FamilyLinkList,
	}
}
