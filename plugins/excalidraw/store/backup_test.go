package store

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNewestValidBackupSkipsBadOnesAndRespectsLimit(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	bdir := filepath.Join(s.dir, metaDir, backupsDir)
	writeFile(t, filepath.Join(bdir, "a.1.excalidraw"), doc(1, "r1"))
	writeFile(t, filepath.Join(bdir, "a.2.excalidraw"), doc(2, "r2"))
	writeFile(t, filepath.Join(bdir, "a.3.excalidraw"), []byte("bad"))
	writeFile(t, filepath.Join(bdir, "a.4.corrupt"), doc(4, "never picked"))
	writeFile(t, filepath.Join(bdir, "a.9.excalidraw"), doc(9, "from a previous life"))
	os.Symlink(filepath.Join(bdir, "a.1.excalidraw"), filepath.Join(bdir, "a.5.excalidraw"))

	tx, err := s.begin(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer tx.end()
	data, rev, count, ok, err := tx.newestValidBackup(8)
	if err != nil || !ok || rev != 2 || count != 2 || string(data) != string(doc(2, "r2")) {
		t.Fatalf("rev %d count %d ok %v err %v", rev, count, ok, err)
	}
	if _, _, _, ok, _ := tx.newestValidBackup(0); ok {
		t.Fatal("found a backup at or below revision 0")
	}
	last, err := tx.lastRevision(sidecarState{})
	if err != nil || last != 10 {
		t.Fatalf("lastRevision without sidecar = %d, %v", last, err)
	}
}
