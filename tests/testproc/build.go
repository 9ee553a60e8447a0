package testproc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Binary builds cmd/strata once per test binary and returns its path.
// STRATA_BIN, when set, names a binary to use instead.
func Binary() (string, error) {
	buildOnce.Do(func() {
		if bin := os.Getenv("STRATA_BIN"); bin != "" {
			binPath = bin
			return
		}
		root, err := moduleRoot()
		if err != nil {
			buildErr = err
			return
		}
		dir, err := os.MkdirTemp("", "strata-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "strata")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/strata")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/strata: %v\n%s", err, out)
		}
	})
	return binPath, buildErr
}

// moduleRoot finds the directory holding go.mod, from this source file.
func moduleRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("testproc: cannot locate source")
	}
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("testproc: go.mod not found above %s", file)
		}
		dir = parent
	}
}
