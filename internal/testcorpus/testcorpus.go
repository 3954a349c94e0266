// Package testcorpus finds the shared corpus of real .excalidraw files
// that tests run against. It lives in ../shared/corpus beside the
// repository (as on developers' machines and in CI); DSH_CORPUS overrides.
package testcorpus

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Dir returns the corpus directory, or "" if it cannot be found.
func Dir() string {
	if d := os.Getenv("DSH_CORPUS"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		for _, c := range []string{filepath.Join(d, "shared", "corpus"), filepath.Join(d, "..", "shared", "corpus")} {
			if st, err := os.Stat(c); err == nil && st.IsDir() {
				return c
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Files lists the corpus's .excalidraw files, sorted. In CI (CI=true) a
// missing corpus fails the test; elsewhere it skips.
func Files(tb testing.TB) []string {
	tb.Helper()
	dir := Dir()
	files, _ := filepath.Glob(filepath.Join(dir, "*.excalidraw"))
	if dir == "" || len(files) == 0 {
		if os.Getenv("CI") != "" {
			tb.Fatal("shared corpus not found beside the repository")
		}
		tb.Skip("shared corpus not found")
	}
	sort.Strings(files)
	return files
}

// Read returns one corpus file by base name.
func Read(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(), name))
	if err != nil {
		tb.Skipf("corpus file %s: %v", name, err)
	}
	return b
}
