package sdkts

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeTarballDir is where the README's project block installs the package from: the path the Install
// section's `npm pack` writes it to, in a checkout at /path/to/catalogd.
const readmeTarballDir = "/path/to/catalogd/sdk/typescript/"

// TestReadmeProject follows the README's "Running the examples" as a reader does, in a new
// directory: the ```sh project block run by bash (npm init -y, type=module, the SDK's tarball, tsx,
// typescript and @types/node from the registry), its ```json tsconfig.json written as
// tsconfig.json, every Node example of the README saved there under its name; then the ```sh run
// block, against the live catalogd: the example it runs with tsx prints what the README says, and
// `tsc --noEmit` accepts every example.
func TestReadmeProject(t *testing.T) {
	t.Parallel()
	setup(t) // builds the SDK's dist/ and reads the README (readme)
	tarball, err := pack(t, sdkDir(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	shown := readmeTarballDir + filepath.Base(tarball)
	if !strings.Contains(readme.project, shown) {
		t.Fatalf("README.md's project block does not install %s (what npm pack writes):\n%s", shown, readme.project)
	}
	work := t.TempDir()
	quiet := []string{"npm_config_fund=false", "npm_config_audit=false"}
	r, err := command(work, quiet, 10*time.Minute, "bash", "-euo", "pipefail", "-c", strings.ReplaceAll(readme.project, shown, tarball))
	if err != nil {
		t.Fatalf("README.md's project block: %v\n%s%s", err, r.Stdout, r.Stderr)
	}
	t.Logf("README.md's project block (%s)", r.Took.Round(time.Millisecond))
	// The block made one directory and went into it.
	entries, err := os.ReadDir(work)
	if err != nil || len(entries) != 1 || !entries[0].IsDir() {
		t.Fatalf("README.md's project block should make one directory in %s: %v %v", work, entries, err)
	}
	project := filepath.Join(work, entries[0].Name())
	if err := os.WriteFile(filepath.Join(project, "tsconfig.json"), []byte(readme.tsconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range readme.nodeExamples() {
		if err := os.WriteFile(filepath.Join(project, name), []byte(readme.examples[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	m := regexp.MustCompile(`(?m)^npx tsx ([a-z0-9-]+\.ts)\b`).FindStringSubmatch(readme.run)
	if m == nil || !strings.Contains(readme.run, "npx tsc --noEmit") {
		t.Fatalf("README.md's run block should run an example with `npx tsx <file>.ts` and type-check with `npx tsc --noEmit`:\n%s", readme.run)
	}
	want, ok := readme.outputs[m[1]]
	if !ok || readme.mockOnly[m[1]] {
		t.Fatalf("README.md's run block runs %s, which is no Node example for any server", m[1])
	}
	r, err = command(project, append(quiet, nodeEnv(env)...), 5*time.Minute, "bash", "-euo", "pipefail", "-c", readme.run)
	if err != nil {
		t.Fatalf("README.md's run block in the project: %v\nstdout:\n%s\nstderr:\n%s", err, r.Stdout, r.Stderr)
	}
	if r.Stdout != want {
		t.Errorf("README.md's run block printed\n%s\nwant %s's output block\n%s", r.Stdout, m[1], want)
	}
	if e := strings.TrimSpace(r.Stderr); e != "" {
		t.Errorf("README.md's run block wrote to stderr:\n%s", e)
	}
}
