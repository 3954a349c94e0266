package store

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckSceneFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "plain"), nil)
	writeFile(t, filepath.Join(dir, "linked"), nil)
	os.Link(filepath.Join(dir, "linked"), filepath.Join(dir, "other"))
	os.Symlink("plain", filepath.Join(dir, "sym"))
	for name, ok := range map[string]bool{"plain": true, "linked": false, "sym": false, ".": false} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := (&Store{}).checkSceneFile(name, fi); (err == nil) != ok {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A consistent scene loads from its sidecar without being parsed: the codec
// is only consulted when the hash does not match.
func TestLoadTrustsMatchingSidecar(t *testing.T) {
	calls := 0
	s := testStore(t, func(o *Options) {
		o.Codec = codecFunc(func(b []byte) (int, error) { calls++; return jsonCodec{}.Inspect(b) })
	})
	mustCreate(t, s, "a", 1, "one")
	calls = 0
	if _, err := s.Read(bg, "a"); err != nil || calls != 0 {
		t.Fatalf("codec called %d times, %v", calls, err)
	}
	writeFile(t, scenePathOf(s, "a"), doc(2, "edit"))
	if _, err := s.Read(bg, "a"); err != nil || calls != 1 {
		t.Fatalf("codec called %d times, %v", calls, err)
	}
}
