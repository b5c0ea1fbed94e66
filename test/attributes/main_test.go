// Package attributes tests the attribute family end to end over REST and gRPC on a real PostgreSQL.
package attributes

import (
	"fmt"
	"os"
	"testing"

	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) {
	var err error
	if env, err = apptest.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "start catalogd:", err)
		os.Exit(1)
	}
	code := m.Run()
	env.Stop()
	os.Exit(code)
}
