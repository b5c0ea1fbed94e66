package openapits

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogd/catalogd/server/apptest"
)

// The steps src/client-flow.ts reports, in order, once each.
var flowSteps = []string{
	"create-locale", "create-attributes", "create-content", "transition", "list-filtered",
	"get-include-expand", "publish", "remove", "invalid-transition", "validation-error",
	"unauthenticated", "delete",
}

// A TypeScript client generated from the served document type-checks under `tsc --strict` and runs
// the attribute flow against this catalogd: every response is checked by the program itself, which
// exits non-zero on the first mismatch.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	dir := setup(t)
	doc := fetchDocument(t)

	// The generated types and the compiled program are rebuilt on every run: stale output must never
	// stand in for a failed step.
	schema := filepath.Join(dir, "src", "schema.d.ts")
	dist := filepath.Join(dir, "dist")
	for _, p := range []string{schema, dist} {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}

	gen := run(t, dir, nil, 3*time.Minute, filepath.Join(dir, "node_modules", ".bin", "openapi-typescript"), doc, "-o", schema)
	if gen.Code != 0 {
		t.Fatalf("openapi-typescript failed (exit %d):\n%s%s", gen.Code, gen.Stdout, gen.Stderr)
	}
	types, err := os.ReadFile(schema)
	if err != nil {
		t.Fatalf("openapi-typescript wrote no %s: %v", schema, err)
	}
	if !strings.Contains(string(types), `"/v1/attributes/{attributeUuid}/actions/lifecycle"`) {
		t.Fatalf("the generated %s has no attribute lifecycle path", schema)
	}
	t.Logf("openapi-typescript: %d bytes of types in %s", len(types), gen.Took.Round(time.Millisecond))

	tsc := run(t, dir, nil, 5*time.Minute, filepath.Join(dir, "node_modules", ".bin", "tsc"), "-p", "tsconfig.json", "--pretty", "false")
	if tsc.Code != 0 {
		t.Fatalf("tsc --strict rejects the client written against the generated types (exit %d); "+
			"an error in src/client-flow.ts's TypeChecks names a field the document types differently from the wire:\n%s%s",
			tsc.Code, tsc.Stdout, tsc.Stderr)
	}
	t.Logf("tsc --strict: %s", tsc.Took.Round(time.Millisecond))

	token := apptest.Token("ts-" + apptest.RandomHex(6))
	flow := run(t, dir, []string{"CATALOGD_BASE_URL=" + env.BaseURL, "CATALOGD_TOKEN=" + token}, 2*time.Minute,
		"node", filepath.Join("dist", "client-flow.js"))
	t.Logf("client flow (%s):\n%s", flow.Took.Round(time.Millisecond), flow.Stdout)
	if flow.Code != 0 {
		t.Fatalf("the client flow failed (exit %d):\n%s", flow.Code, flow.Stderr)
	}
	if strings.TrimSpace(flow.Stderr) != "" {
		t.Errorf("the client flow wrote to stderr:\n%s", flow.Stderr)
	}

	// Every step, in order, once; then the summary line.
	var seen []string
	for _, line := range strings.Split(strings.TrimSpace(flow.Stdout), "\n") {
		if name, _, ok := strings.Cut(strings.TrimPrefix(line, "ok "), ":"); ok && strings.HasPrefix(line, "ok ") {
			seen = append(seen, name)
		}
	}
	if strings.Join(seen, ",") != strings.Join(flowSteps, ",") {
		t.Errorf("steps reported: %v\nwant: %v", seen, flowSteps)
	}
	lines := strings.Split(strings.TrimSpace(flow.Stdout), "\n")
	if last, want := lines[len(lines)-1], fmt.Sprintf("client-flow: %d steps passed", len(flowSteps)); last != want {
		t.Errorf("last line %q, want %q", last, want)
	}
	// Spot checks of what the steps printed: the query went out with repeated bracketed parameters,
	// and the error cases read the problem document.
	for _, want := range []string{
		"statuses[eq]=draft&statuses[eq]=published",
		"code[contains]=COLOR",
		"→ 2 of 2",
		"ok validation-error: VALIDATION_FAILED: code ",
		"ok invalid-transition: INVALID_TRANSITION",
		"ok delete: ",
		"204, then GET 404 NOT_FOUND",
	} {
		if !strings.Contains(flow.Stdout, want) {
			t.Errorf("the flow's output lacks %q", want)
		}
	}
}
