package apptest

import (
	"fmt"
	"os/exec"
	"path/filepath"
)

// BuildCatalogd builds cmd/catalogd into dir and returns the binary's path, for tests that run
// catalogd's commands as a user does.
func BuildCatalogd(dir string) (string, error) {
	bin := filepath.Join(dir, "catalogd")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/catalogd/catalogd/cmd/catalogd").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/catalogd: %v\n%s", err, out)
	}
	return bin, nil
}
