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
		{&pb.FamilyService_ServiceDesc, &catalog.FamilyServer{Service: c}, pb.RegisterFamilyServiceHandler},
		{&pb.FamilyAttributeService_ServiceDesc, &catalog.FamilyAttributeServer{Service: c}, pb.RegisterFamilyAttributeServiceHandler},
		{&pb.FamilyInputTypeService_ServiceDesc, &catalog.FamilyInputTypeServer{Service: c}, pb.RegisterFamilyInputTypeServiceHandler},
		{&pb.FamilyCategoryService_ServiceDesc, &catalog.FamilyCategoryServer{Service: c}, pb.RegisterFamilyCategoryServiceHandler},
		{&pb.FamilyAssetTypeService_ServiceDesc, &catalog.FamilyAssetTypeServer{Service: c}, pb.RegisterFamilyAssetTypeServiceHandler},
		{&pb.FamilyRelationTypeService_ServiceDesc, &catalog.FamilyRelationTypeServer{Service: c}, pb.RegisterFamilyRelationTypeServiceHandler},
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
