package app

import (
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// productAttributeServices registers this group's services.
func productAttributeServices(c *catalog.Service) []Service {
	return []Service{}
}

// productAttributeListSpecs pairs its list requests with their specs.
func productAttributeListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{}
}
