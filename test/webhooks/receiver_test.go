package webhooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	. "github.com/catalogd/catalogd/server/apptest"
)

// The Go SDK's receiver (sdk/go/webhook, run as examples/webhook-receiver) against the main env:
// signatures verified, refusals, one fetch per burst in the last state (apptest.CheckReceiver).
func TestGoReceiver(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "webhook-receiver")
	if r := RunCommand(t, filepath.Join("..", ".."), os.Environ(), 5*time.Minute, "go", "build", "-o", bin, "./examples/webhook-receiver"); r.Code != 0 {
		t.Fatalf("go build ./examples/webhook-receiver (exit %d):\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	CheckReceiver(t, env, func(extra []string) *exec.Cmd {
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), extra...)
		return cmd
	})
}
