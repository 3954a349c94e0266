package dshtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Tree is every entry below dir, by its path relative to dir ("." for
// dir itself): its mode and, for a file, its contents, for a symlink its
// target. Two trees are equal when nothing below dir was added, removed
// or changed, byte for byte (SameTree says so). An error reading dir
// fails the test.
func Tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		v := info.Mode().String()
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			v += " -> " + target
		case info.Mode().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			v += " " + string(data)
		}
		rel, _ := filepath.Rel(dir, path)
		out[rel] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// SameTree fails the test unless after (a Tree) is before: what names
// the directory in the failure.
func SameTree(t testing.TB, what string, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		paths := make([]string, 0, len(after))
		for k := range after {
			paths = append(paths, k)
		}
		slices.Sort(paths)
		t.Fatalf("%s changed: %d entries, now %d: %v", what, len(before), len(after), paths)
	}
	for k, v := range before {
		if after[k] != v {
			t.Fatalf("%s changed at %s", what, k)
		}
	}
}
