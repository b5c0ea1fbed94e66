// Package openapifuzz is a property-based pass over the served OpenAPI document: requests generated
// from the document's own schemas, valid and invalid, sent to a live catalogd, every answer checked
// against the document (see TestPropertyBasedPass).
package openapifuzz

import (
	"testing"

	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) { apptest.Main(m, &env, nil) }
