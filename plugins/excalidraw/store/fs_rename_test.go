package store

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func TestRenameNoReplaceFallback(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fd := int(d.Fd())
	writeFile(t, filepath.Join(dir, "a"), []byte("a"))
	os.Symlink("nowhere", filepath.Join(dir, "dangling"))
	if err := renameNoReplaceFallback(fd, "a", "dangling"); err != unix.EEXIST {
		t.Fatalf("over a dangling symlink: %v", err)
	}
	if err := renameNoReplaceFallback(fd, "a", "b"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "b")); string(got) != "a" {
		t.Fatal(string(got))
	}
}
