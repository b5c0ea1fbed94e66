package openapi

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The interface spec, on the attribute: "The list operation returns items of the shape above (type
// name AttributeHydratedResponse, including contentUuids and contents). Create, bulk and lifecycle
// responses return the attribute without contentUuids and contents; get returns them when
// requested." The REST answers of those RPCs leave the two keys out (server/app writes them with
// jsonpb.Without), and the document describes them by the resource's schema without them,
// <Resource>Response (AttributeResponse). The update of one attribute answers like get.
var answerOmits = map[protoreflect.FullName][]protoreflect.Name{
	"catalog.v1.AttributeService.CreateAttribute":          {"content_uuids", "contents"},
	"catalog.v1.AttributeService.BulkCreateAttributes":     {"content_uuids", "contents"},
	"catalog.v1.AttributeService.BulkUpdateAttributes":     {"content_uuids", "contents"},
	"catalog.v1.AttributeService.TransitionAttribute":      {"content_uuids", "contents"},
	"catalog.v1.AttributeService.BulkTransitionAttributes": {"content_uuids", "contents"},
}

// AnswerOmits returns the fields of the answered resource (or of each resource of a list answer)
// that the REST answer of the RPC leaves out, as a set; nil for none.
func AnswerOmits(method protoreflect.FullName) map[protoreflect.Name]bool {
	names := answerOmits[method]
	if len(names) == 0 {
		return nil
	}
	set := make(map[protoreflect.Name]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}
