package app

import (
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/openapi"
)

// BuildOpenAPI builds the served /openapi.json from the registered services and list specs.
func BuildOpenAPI(services []Service) ([]byte, error) {
	in := openapi.Input{Lists: map[protoreflect.FullName]*list.Spec{}, MaxBodyBytes: MaxBodyBytes}
	for _, s := range services {
		in.Services = append(in.Services, protoreflect.FullName(s.Desc.ServiceName))
	}
	for req, spec := range ListSpecs() {
		in.Lists[req.ProtoReflect().Descriptor().FullName()] = spec
	}
	return openapi.Build(in)
}
