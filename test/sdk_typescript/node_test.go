package sdkts

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The steps src/flow.ts reports, in order, once each.
var flowSteps = []string{
	"create-locale", "create-attribute", "create-content", "get-with-contents", "list-filtered", "transition",
	"invalid-transition", "validation-error", "already-exists", "auth-errors", "delete", "token-function",
}

// The packed SDK, from Node, against this catalogd: the attribute flow of src/flow.ts over gRPC (the
// gRPC port) and over Connect (the HTTP port), each as a fresh tenant. The program checks every answer
// and exits non-zero on the first mismatch.
func TestNodeFlow(t *testing.T) {
	t.Parallel()
	dir := setup(t)
	for _, protocol := range []string{"grpc", "connect"} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			r, err := command(dir, nodeEnv(env), 2*time.Minute, "node", filepath.Join("dist", "flow.js"), protocol)
			t.Logf("node dist/flow.js %s (%s):\n%s", protocol, r.Took.Round(time.Millisecond), r.Stdout)
			if err != nil {
				t.Fatalf("the flow over %s failed: %v\nstderr:\n%s", protocol, err, r.Stderr)
			}
			if s := strings.TrimSpace(r.Stderr); s != "" {
				t.Errorf("the flow wrote to stderr:\n%s", s)
			}
			var seen []string
			lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
			for _, line := range lines {
				if name, _, ok := strings.Cut(strings.TrimPrefix(line, "ok "), ":"); ok && strings.HasPrefix(line, "ok ") {
					seen = append(seen, name)
				}
			}
			if strings.Join(seen, ",") != strings.Join(flowSteps, ",") {
				t.Errorf("steps reported: %v\nwant: %v", seen, flowSteps)
			}
			if last := lines[len(lines)-1]; last != "all steps passed over "+protocol {
				t.Errorf("last line %q", last)
			}
		})
	}
}
