package sdkts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// writeWebhookSources puts the webhooks' unit tests (webhooks/*.ts beside this file) and the SDK's
// receiver example (sdk/typescript/examples/webhook-receiver.ts) into the consumer project's dir
// (src/webhooks, rebuilt), where tsc --strict compiles them against the packed SDK like the rest.
func writeWebhookSources(sdk, dir string) error {
	return writeSources(dir, filepath.Join("webhooks", "webhooks.test.ts"), filepath.Join(sdk, "examples", "webhook-receiver.ts"))
}

// writeSources copies files into the consumer project's dir (rebuilt), where tsc --strict compiles
// them against the packed SDK like the rest.
func writeSources(dir string, files ...string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// @catalogd/sdk/webhooks, as installed from the packed SDK: its unit tests (node --test: the Verifier
// on the Standard Webhooks example, the Coalescer on timers the test fires), then the SDK's receiver
// example against the live catalogd (apptest.CheckReceiver).
func TestTypeScriptWebhooks(t *testing.T) {
	t.Parallel()
	dir := setup(t)
	r, err := command(dir, nil, 2*time.Minute, "node", "--test", filepath.Join("dist", "webhooks", "webhooks.test.js"))
	if err != nil || !strings.Contains(r.Stdout, "# fail 0") {
		t.Fatalf("node --test dist/webhooks/webhooks.test.js: %v\n%s%s", err, r.Stdout, r.Stderr)
	}
	t.Logf("node --test dist/webhooks/webhooks.test.js:\n%s", r.Stdout)

	apptest.CheckReceiver(t, env, func(extra []string) *exec.Cmd {
		cmd := exec.Command("node", filepath.Join(dir, "dist", "webhooks", "webhook-receiver.js"))
		cmd.Env = append(os.Environ(), extra...)
		cmd.Dir = dir
		return cmd
	})
}
