// Package restorecheck runs Excalidraw 0.18.1's own restoreElements (the
// Node harness in plugins/excalidraw/scene/build/testdata/restore) for
// tests that prove what we write needs no repair.
package restorecheck

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// Dir is the harness directory.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "plugins", "excalidraw", "scene", "build", "testdata", "restore")
}

// Require returns the node binary. It skips the test when Node or the
// pinned packages are missing, and fails it instead where everything must
// run (testenv.Strict: make test installs them, and CI).
func Require(t testing.TB) string {
	t.Helper()
	missing := func(why string) {
		msg := why + "; install with: bash " + filepath.Join(Dir(), "setup.sh") + " (npm ci), or run make test"
		testenv.Missing(t, msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	for _, pkg := range []string{"@excalidraw/excalidraw", "esbuild", "jsdom"} {
		if _, err := os.Stat(filepath.Join(Dir(), "node_modules", pkg, "package.json")); err != nil {
			missing(pkg + " is not installed in " + Dir())
		}
	}
	return node
}

// Run runs one of the harness's scripts with input on stdin and returns
// its stdout.
func Run(t testing.TB, node, script string, input []byte, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	cmd.Dir = Dir()
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tail := stderr.Bytes()
		if len(tail) > 4000 {
			tail = tail[len(tail)-4000:]
		}
		t.Fatalf("%s: %v\n%s", script, err, tail)
	}
	return out
}
