package store

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEnsureDirCreatesAndRefuses(t *testing.T) {
	s := testStore(t)
	d, err := s.ensureDir(s.root, "sub")
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if fi, err := os.Lstat(filepath.Join(s.dir, "sub")); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("%v %v", fi, err)
	}
	d, err = s.ensureDir(s.root, "sub") // existing: just opened
	if err != nil {
		t.Fatal(err)
	}
	d.Close()

	writeFile(t, filepath.Join(s.dir, "file"), nil)
	_, err = s.ensureDir(s.root, "file")
	wantCode(t, err, CodePermissionDenied)
	os.Symlink(t.TempDir(), filepath.Join(s.dir, "link"))
	_, err = s.ensureDir(s.root, "link")
	wantCode(t, err, CodePermissionDenied)
}

// A metadata directory removed while the store is open is recreated.
func TestMetaDirsAreRecreated(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	os.RemoveAll(filepath.Join(s.dir, metaDir))
	if sc, err := s.Read(bg, "a"); err != nil || sc.Revision != 1 || sc.UpdatedBy != ActorRecovery {
		t.Fatalf("%+v %v", sc, err)
	}
}
