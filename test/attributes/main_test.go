// Package attributes tests the attribute family end to end over REST and gRPC on a real PostgreSQL.
package attributes

import (
	"testing"

	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) { apptest.Main(m, &env, nil) }
