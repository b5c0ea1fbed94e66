// Package badinput posts bad strings into every write and every list filter of the API, generated
// from the registered services and their HTTP routes (not from a hand-made list), and checks that
// each is a 400 naming the field: U+0000 in any string (bodies, JSON values, filters), invalid
// UTF-8 in a raw JSON body or a gRPC message, control and bidirectional characters in codes;
// and the bounded-work limits of input values and patterns.
package badinput

import (
	"testing"

	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) { apptest.Main(m, &env, nil) }
