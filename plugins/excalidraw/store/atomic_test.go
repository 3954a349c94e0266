package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTempNamesAreRecognised(t *testing.T) {
	tmp := tempName("a.excalidraw")
	if !strings.HasPrefix(tmp, ".a.excalidraw.tmp-") || len(tmp) != len(".a.excalidraw.tmp-")+16 {
		t.Fatal(tmp)
	}
	if target, ok := splitTemp(tmp); !ok || target != "a.excalidraw" {
		t.Fatalf("%q %v", target, ok)
	}
	// The temp of scene "a.excalidraw.tmp-x" is not a temp of scene "a".
	other := tempName("a.excalidraw.tmp-x.excalidraw")
	if target, _ := splitTemp(other); target == "a.excalidraw" {
		t.Fatal("ambiguous temp name")
	}
	for _, s := range []string{"a.excalidraw", ".a.tmp-xyz", ".a.excalidraw.tmp-0123456789abcdeg", ".tmp-0123456789abcdef"} {
		if _, ok := splitTemp(s); ok {
			t.Errorf("%q taken for a temp file", s)
		}
	}
}

func TestWriteAtomicReplacesAndCleansUp(t *testing.T) {
	s := testStore(t)
	if err := s.writeAtomic(s.root, "f", []byte("one"), 0o600, false); err != nil {
		t.Fatal(err)
	}
	if err := s.writeAtomic(s.root, "f", []byte("two"), 0o600, false); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(s.dir, "f")); !bytes.Equal(got, []byte("two")) {
		t.Fatal(string(got))
	}
	err := s.writeAtomic(s.root, "f", []byte("three"), 0o600, true)
	wantCode(t, err, CodeAlreadyExists)
	noTemps(t, s)
}

// Writing through the atomic path replaces a symlink instead of following it.
func TestWriteAtomicReplacesSymlinkNotTarget(t *testing.T) {
	s := testStore(t)
	victim := filepath.Join(t.TempDir(), "victim")
	writeFile(t, victim, []byte("keep"))
	os.Symlink(victim, filepath.Join(s.dir, "f"))
	if err := s.writeAtomic(s.root, "f", []byte("new"), 0o600, false); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, victim); string(got) != "keep" {
		t.Fatal("followed the symlink")
	}
}
