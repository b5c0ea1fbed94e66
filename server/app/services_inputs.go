package app

import (
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// inputServices registers type groups, input types, channels and channel input types.
func inputServices(c *catalog.Service) []Service {
	return []Service{}
}

// inputListSpecs pairs their list requests with their specs.
func inputListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{}
}
