// Package docs tests the API reference page (/docs) of a running catalogd: served over HTTP, and
// rendered by a real browser (headless Chromium).
package docs

import (
	"testing"

	"github.com/catalogd/catalogd/server/apptest"
)

var env *apptest.Env

func TestMain(m *testing.M) { apptest.Main(m, &env, nil) }
