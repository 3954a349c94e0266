package dshtest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestTree(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := Tree(t, dir)
	if got := before[filepath.Join("sub", "f")]; got != "-rw------- data" {
		t.Fatalf("the file is %q", got)
	}
	if got := before["sub"]; got != "drwx------" {
		t.Fatalf("the directory is %q", got)
	}
	if _, ok := before["."]; !ok || len(before) != 3 {
		t.Fatalf("tree %v", before)
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink("sub/f", filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
		if got := Tree(t, dir)["link"]; !strings.HasPrefix(got, "L") || !strings.HasSuffix(got, " -> sub/f") {
			t.Fatalf("the symlink is %q", got)
		}
		if err := os.Remove(filepath.Join(dir, "link")); err != nil {
			t.Fatal(err)
		}
	}
	SameTree(t, "the directory", before, Tree(t, dir))
}
