package app

import (
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// productServices registers products and their associations.
func productServices(c *catalog.Service) []Service {
	return []Service{}
}

// productListSpecs pairs their list requests with their specs.
func productListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{}
}
