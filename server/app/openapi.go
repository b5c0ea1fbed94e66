package app

import (
	"sort"

	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/server/catalog"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/openapi"
)

// BuildOpenAPI builds the served /openapi.json from the registered services and list specs.
func BuildOpenAPI(services []Service) ([]byte, error) {
	in := openapi.Input{Lists: map[protoreflect.FullName]*list.Spec{}, MaxBodyBytes: MaxBodyBytes,
		StringEnums: map[protoreflect.FullName][]string{"catalog.v1.ExportCreate.types": lineTypes()}}
	products := (&pb.ListProductsRequest{}).ProtoReflect().Descriptor().FullName()
	for _, s := range services {
		in.Services = append(in.Services, protoreflect.FullName(s.Desc.ServiceName))
	}
	for req, spec := range ListSpecs() {
		name := req.ProtoReflect().Descriptor().FullName()
		in.Lists[name] = spec
		if name == products {
			// An export's ProductFilter takes the [eq] values of GET /v1/products's filters: its
			// enum filters' values are its fields' enums.
			pf := (&pb.ProductFilter{}).ProtoReflect().Descriptor().Fields()
			for i := 0; i < pf.Len(); i++ {
				if lf, ok := spec.Filters[pf.Get(i).JSONName()]; ok && lf.Type == list.Enum && len(lf.Values) > 0 {
					in.StringEnums[pf.Get(i).FullName()] = lf.Values
				}
			}
		}
	}
	return openapi.Build(in)
}

// lineTypes are the line types of imports and exports (what transfer.Importer.Types answers: the
// kinds the services register), sorted.
func lineTypes() []string {
	var out []string
	for _, k := range catalog.TransferKinds() {
		out = append(out, k.Type)
	}
	sort.Strings(out)
	return out
}
