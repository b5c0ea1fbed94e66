// Package openapi embeds the OpenAPI document protoc-gen-openapiv2 generates (catalog.swagger.json);
// the server post-processes it into the spec's query syntax and serves it at /openapi.json.
package openapi

import _ "embed"

// Swagger is the generated OpenAPI v2 document.
//
//go:embed catalog.swagger.json
var Swagger []byte
