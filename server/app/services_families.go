package app

import (
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// familyServices registers families and their five associations.
func familyServices(c *catalog.Service) []Service {
	return []Service{}
}

// familyListSpecs pairs their list requests with their specs.
func familyListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{}
}
