package sdkts

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// @catalogd/sdk/transfers, as installed from the packed SDK, against the live catalogd as a fresh
// tenant (transfers/transfers.test.ts): importFile with a failed line and a dry run, exportTo
// downloaded to a file and imported again.
func TestTypeScriptTransfers(t *testing.T) {
	t.Parallel()
	dir := setup(t)
	r, err := command(dir, nodeEnv(env), 3*time.Minute, "node", "--test", filepath.Join("dist", "transfers", "transfers.test.js"))
	t.Logf("node --test dist/transfers/transfers.test.js (%s):\n%s", r.Took.Round(time.Millisecond), r.Stdout)
	if err != nil || !strings.Contains(r.Stdout, "# fail 0") || !strings.Contains(r.Stdout, "# pass 4") {
		t.Fatalf("node --test dist/transfers/transfers.test.js: %v\n%s", err, r.Stderr)
	}
}
