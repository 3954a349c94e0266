package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

func TestOSFSRefusesSymlinks(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "real"), []byte("x"), 0o600)
	os.Symlink("real", filepath.Join(dir, "link"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	os.Symlink("sub", filepath.Join(dir, "sublink"))
	fsys := OSFS()
	d, err := fsys.OpenDir(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := fsys.OpenFile(d, "link", os.O_RDONLY, 0); !errors.Is(err, unix.ELOOP) {
		t.Fatalf("OpenFile through symlink: %v", err)
	}
	if _, _, err := fsys.ReadFile(d, "link", 10); !errors.Is(err, unix.ELOOP) {
		t.Fatalf("ReadFile through symlink: %v", err)
	}
	if _, err := fsys.OpenDir(d, "sublink"); err == nil || fsError("x", err).Code != CodePermissionDenied {
		t.Fatalf("OpenDir through symlink: %v", err)
	}
	info, err := fsys.Lstat(d, "link")
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("Lstat: %v %v", info, err)
	}
	if _, _, _, ok := fileID(info); !ok {
		t.Fatal("fileID of Lstat result")
	}
}

func TestOSFSReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("0123456789"), 0o600)
	fsys := OSFS()
	d, _ := fsys.OpenDir(nil, dir)
	defer d.Close()
	data, info, err := fsys.ReadFile(d, "f", 100)
	if err != nil || string(data) != "0123456789" || info.Size() != 10 {
		t.Fatalf("%q %v", data, err)
	}
	data, info, err = fsys.ReadFile(d, "f", 5)
	if err != nil || len(data) > 6 || info.Size() != 10 {
		t.Fatalf("over limit: %q %v", data, err)
	}
}

func TestOSFSRenameNoReplace(t *testing.T) {
	dir := t.TempDir()
	fsys := OSFS()
	d, _ := fsys.OpenDir(nil, dir)
	defer d.Close()
	os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o600)
	os.WriteFile(filepath.Join(dir, "b"), []byte("b"), 0o600)
	if err := fsys.Rename(d, "a", "b", true); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("noReplace over existing: %v", err)
	}
	if err := fsys.Rename(d, "a", "c", true); err != nil {
		t.Fatal(err)
	}
	if err := fsys.Rename(d, "c", "b", false); err != nil {
		t.Fatal(err)
	}
	names, _ := fsys.ReadDir(d)
	if len(names) != 1 || names[0] != "b" {
		t.Fatal(names)
	}
}

func TestCompareFile(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	big := bytes.Repeat([]byte("0123456789abcdef"), 3*compareChunk/16+7)
	for name, c := range map[string]struct {
		file, want []byte
		same       bool
	}{
		"equal":             {big, big, true},
		"empty":             {nil, []byte{}, true},
		"last byte differs": {big, append(append([]byte{}, big[:len(big)-1]...), 'x'), false},
		"first differs":     {append([]byte("X"), big[1:]...), big, false},
		"file longer":       {append(append([]byte{}, big...), 'z'), big, false},
		"file shorter":      {big[:len(big)-1], big, false},
		"chunk boundary":    {big[:compareChunk], big[:compareChunk], true},
	} {
		if err := os.WriteFile(filepath.Join(dir, "f"), c.file, 0o600); err != nil {
			t.Fatal(err)
		}
		_, same, err := osFS{}.CompareFile(d, "f", c.want)
		if err != nil || same != c.same {
			t.Errorf("%s: same %v (%v), want %v", name, same, err, c.same)
		}
	}
	if _, same, _ := (osFS{}).CompareFile(d, ".", nil); same {
		t.Error("a directory compared equal")
	}
}
