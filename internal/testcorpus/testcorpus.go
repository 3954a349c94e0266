// Package testcorpus gives tests the .excalidraw scenes they run against:
// by default the generated corpus committed in testdata (see package
// gen), or, when DSH_CORPUS names a folder, that folder's real drawings
// (make test-corpus points it at ../shared/corpus).
package testcorpus

//go:generate go run ./gen/gencorpus -out testdata

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// Env is the variable that points the tests at another corpus.
const Env = "DSH_CORPUS"

var generated = sync.OnceValues(func() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	// Tests run in their package's folder: the module root is the
	// nearest folder above with this repository's go.mod.
	for d := wd; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && isModule(b) {
			return filepath.Join(d, "internal", "testcorpus", "testdata"), nil
		}
		if filepath.Dir(d) == d {
			return "", os.ErrNotExist
		}
	}
})

func isModule(gomod []byte) bool {
	const want = "module github.com/dshgo/dsh\n"
	return len(gomod) >= len(want) && string(gomod[:len(want)]) == want
}

// Generated returns the folder of the generated corpus.
func Generated(tb testing.TB) string {
	tb.Helper()
	dir, err := generated()
	if err != nil {
		tb.Fatalf("testcorpus: cannot find the module root above the working directory: %v", err)
	}
	return dir
}

// Shared returns the folder DSH_CORPUS names, or "" when it is not set.
func Shared() string { return os.Getenv(Env) }

// Dir returns the folder Files lists: DSH_CORPUS's when set, the
// generated corpus's otherwise.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := Shared(); d != "" {
		if !filepath.IsAbs(d) {
			// each test runs in its own package's folder
			tb.Fatalf("testcorpus: %s=%s must be an absolute path", Env, d)
		}
		return d
	}
	return Generated(tb)
}

// Files lists the .excalidraw files of Dir, sorted. A folder without any
// fails the test: the generated corpus is part of the repository, and a
// DSH_CORPUS that names nothing is a mistake.
func Files(tb testing.TB) []string {
	tb.Helper()
	return list(tb, Dir(tb))
}

// Seeds lists the files fuzz targets start from: the generated corpus,
// plus DSH_CORPUS's files when it is set.
func Seeds(tb testing.TB) []string {
	tb.Helper()
	files := list(tb, Generated(tb))
	if Shared() != "" {
		files = append(files, list(tb, Dir(tb))...)
	}
	return files
}

func list(tb testing.TB, dir string) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.excalidraw"))
	if err != nil || len(files) == 0 {
		if dir != Shared() {
			tb.Fatalf("testcorpus: no .excalidraw files in %s: run go generate ./internal/testcorpus/...", dir)
		}
		tb.Fatalf("testcorpus: %s=%s holds no .excalidraw files", Env, dir)
	}
	sort.Strings(files)
	return files
}

// Read returns one generated scene by name ("flow-excalifont.excalidraw").
// Tests that need a particular drawing pick it from the generated corpus,
// whatever DSH_CORPUS says.
func Read(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(Generated(tb), name))
	if err != nil {
		tb.Fatalf("testcorpus: %v", err)
	}
	return b
}
