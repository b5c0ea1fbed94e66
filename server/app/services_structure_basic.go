package app

import (
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// structureBasicServices registers brands, tags (with contents), product asset types, product relation types.
func structureBasicServices(c *catalog.Service) []Service {
	return []Service{}
}

// structureBasicListSpecs pairs their list requests with their specs.
func structureBasicListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{}
}
