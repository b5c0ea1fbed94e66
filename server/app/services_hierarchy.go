package app

import (
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// hierarchyServices registers categories (with contents) and collections.
func hierarchyServices(c *catalog.Service) []Service {
	return []Service{}
}

// hierarchyListSpecs pairs their list requests with their specs.
func hierarchyListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{}
}
