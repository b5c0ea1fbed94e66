// Package openapi embeds the descriptor image `buf build` makes of proto/ (catalog.binpb, with the
// proto comments, which the generated Go code does not keep). server/openapi builds the served
// OpenAPI document from it.
package openapi

import _ "embed"

// Image is a google.protobuf.FileDescriptorSet of proto/catalog/v1 with source info.
//
//go:embed catalog.binpb
var Image []byte
