package app

import (
	"google.golang.org/protobuf/proto"

	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
)

// publicationServices registers product channel publications.
func publicationServices(c *catalog.Service) []Service {
	return []Service{}
}

// publicationListSpecs pairs their list requests with their specs.
func publicationListSpecs() map[proto.Message]*list.Spec {
	return map[proto.Message]*list.Spec{}
}
