package sdkpython

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// catalogd.webhooks: its unit tests (webhooks_unit.py: the Verifier on the Standard Webhooks
// example, the Coalescer on a timer the test fires), then the SDK's receiver example
// (sdk/python/examples/webhook_receiver.py) against the live catalogd (apptest.CheckReceiver), all
// on the installed SDK.
func TestPythonWebhooks(t *testing.T) {
	root := repoRoot(t)
	requireTools(t, root)
	py := install(t, root)

	r := run(t, t.TempDir(), nil, 2*time.Minute, py, filepath.Join(root, "test", "sdk_python", "webhooks_unit.py"), "-v")
	if r.Code != 0 || !strings.Contains(r.Stderr, "\nOK") {
		t.Fatalf("webhooks_unit.py (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	t.Logf("webhooks_unit.py:\n%s", r.Stderr)

	apptest.CheckReceiver(t, env, func(extra []string) *exec.Cmd {
		cmd := exec.Command(py, filepath.Join(root, "sdk", "python", "examples", "webhook_receiver.py"))
		cmd.Env = pythonEnv(extra...)
		cmd.Dir = t.TempDir()
		return cmd
	})
}
