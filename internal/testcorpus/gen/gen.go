// Package gen builds dsh's own corpus of test scenes: .excalidraw files
// made procedurally from fixed seeds, covering what real drawings hold
// (every element type, legacy members, bindings, frames, groups, images,
// pen strokes, many scripts and fonts, a 2,000-element scene). The
// files are committed under internal/testcorpus/testdata; run
// `go generate ./internal/testcorpus/...` after changing this package.
package gen

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces the .excalidraw files in dir with the generated ones.
func Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.excalidraw"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	for _, s := range Scenes() {
		if err := os.WriteFile(filepath.Join(dir, s.Name), s.Data, 0o644); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
	}
	return nil
}
