package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/cli"
)

// TestDebugCommand: with no host running `dsh debug` says so; against a
// running host it writes a goroutine dump and a CPU profile into --out,
// or into a new dsh-debug-<time> folder, and names what it wrote.
func TestDebugCommand(t *testing.T) {
	cfg := writeConfig(t)
	_, err := run(t, context.Background(), "debug", "--seconds", "1", "--config", cfg)
	if !errors.Is(err, cli.ErrNoHost) || !strings.Contains(err.Error(), "dsh serve --config "+cfg) {
		t.Fatalf("dsh debug with no host: %v", err)
	}

	serve(t, cfg)
	out := filepath.Join(t.TempDir(), "dbg")
	printed, err := run(t, context.Background(), "debug", "--seconds", "1", "--out", out, "--config", cfg)
	if err != nil {
		t.Fatalf("dsh debug: %v\n%s", err, printed)
	}
	checkDebugFolder(t, out, printed)

	t.Chdir(t.TempDir())
	printed, err = run(t, context.Background(), "debug", "--seconds", "1", "--config", cfg)
	if err != nil {
		t.Fatalf("dsh debug without --out: %v\n%s", err, printed)
	}
	made, _ := filepath.Glob("dsh-debug-*")
	if len(made) != 1 {
		t.Fatalf("dsh debug without --out made %v", made)
	}
	checkDebugFolder(t, made[0], printed)

	if _, err := run(t, context.Background(), "debug", "--seconds", "0", "--config", cfg); err == nil || !strings.Contains(err.Error(), "--seconds") {
		t.Fatalf("--seconds 0: %v", err)
	}
}

// checkDebugFolder wants dir to hold a goroutine dump of the host and a
// gzipped profile, both named in printed.
func checkDebugFolder(t *testing.T, dir, printed string) {
	t.Helper()
	stacks, err := os.ReadFile(filepath.Join(dir, cli.DebugGoroutinesFile))
	if err != nil || !bytes.Contains(stacks, []byte("goroutine ")) || !bytes.Contains(stacks, []byte("net/http.(*Server).Serve")) {
		t.Fatalf("goroutine dump: %v %.200s", err, stacks)
	}
	prof, err := os.ReadFile(filepath.Join(dir, cli.DebugCPUFile))
	if err != nil || !bytes.HasPrefix(prof, []byte{0x1f, 0x8b}) {
		t.Fatalf("CPU profile: %v %.20q", err, prof)
	}
	for _, f := range []string{cli.DebugGoroutinesFile, cli.DebugCPUFile} {
		if !strings.Contains(printed, filepath.Join(dir, f)) {
			t.Errorf("the output does not name %s:\n%s", f, printed)
		}
	}
}
