package sdkpython

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// catalogd.transfers on the installed SDK against the live catalogd as a fresh tenant
// (transfers_flow.py checks every answer itself): import_file with a failed line and a dry run,
// export_to downloaded to a file and imported again, a CSV export.
func TestPythonTransfers(t *testing.T) {
	root := repoRoot(t)
	requireTools(t, root)
	py := install(t, root)
	r := run(t, t.TempDir(), []string{
		"CATALOGD_GRPC_TARGET=" + env.Server.GRPCAddr(),
		"CATALOGD_TOKEN=" + apptest.Token("pytransfer-"+apptest.RandomHex(6)),
	}, 3*time.Minute, py, filepath.Join(root, "test", "sdk_python", "transfers_flow.py"))
	t.Logf("transfers_flow.py (%s):\n%s", r.Took.Round(time.Millisecond), r.Stdout)
	if r.Code != 0 || !strings.HasSuffix(r.Stdout, "transfers: 5 steps passed\n") || strings.TrimSpace(r.Stderr) != "" {
		t.Fatalf("transfers_flow.py (exit %d):\n%s", r.Code, r.Stderr)
	}
}
