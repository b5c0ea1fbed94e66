package app

import (
	"context"
	"os"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestDumpOpenAPI(t *testing.T) {
	b, err := BuildOpenAPI(Services(Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	if p := os.Getenv("OPENAPI_OUT"); p != "" {
		_ = os.WriteFile(p, b, 0o644)
	}
}

// The document is valid OpenAPI 3.1 and every example in it matches its schema (kin-openapi checks
// examples while validating).
func TestOpenAPIDocumentIsValid(t *testing.T) {
	b, err := BuildOpenAPI(Services(Deps{}))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatal(err)
	}
}
