package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

func inode(t *testing.T, path string) (uint64, uint64) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return st.Ino, uint64(st.Nlink)
}

// A commit puts the previous revision in backups/ by linking the file
// that held it, not by copying its bytes: the backup is that file, and
// after the rename the scene is a file of one link again.
func TestBackupIsTheReplacedFileLinked(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	scene := scenePathOf(s, "a")
	was, _ := inode(t, scene)
	mustSave(t, s, "a", 2, doc(3, "three"))
	backup := filepath.Join(filepath.Dir(scene), metaDir, backupsDir, backupFile("a", 2, true))
	ino, links := inode(t, backup)
	if ino != was || links != 1 {
		t.Fatalf("backup inode %d (%d links), the replaced file's was %d", ino, links, was)
	}
	if got := readFile(t, backup); !bytes.Equal(got, doc(2, "two")) {
		t.Fatalf("backup holds %q", got)
	}
	if _, n := inode(t, scene); n != 1 {
		t.Fatalf("the scene has %d links after the commit", n)
	}
}

// A file that changed since the store read it is copied, not linked:
// the backup holds what the store read and checked.
func TestBackupOfAChangedFileIsACopy(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	scene := scenePathOf(s, "a")
	ffs.set(func(op, p string) error {
		if op == "link" && strings.Contains(p, backupsDir) {
			ffs.set(nil)
			f, _ := os.OpenFile(scene, os.O_WRONLY, 0) // a hand edit as the commit links
			f.WriteAt([]byte("X"), 0)
			f.Close()
		}
		return nil
	})
	mustSave(t, s, "a", 2, doc(3, "three"))
	backup := filepath.Join(filepath.Dir(scene), metaDir, backupsDir, backupFile("a", 2, true))
	if got := readFile(t, backup); !bytes.Equal(got, doc(2, "two")) {
		t.Fatalf("backup holds %q, want the bytes the store read", got)
	}
}

// A commit that fails before its rename takes its link back: the scene
// keeps one link and no backup names it.
func TestFailedCommitTakesItsBackupLinkBack(t *testing.T) {
	s, ffs := faultStore(t)
	ffs.set(failOnce("write", isSceneTemp("a")))
	if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent}); err == nil {
		t.Fatal("the save succeeded")
	}
	scene := scenePathOf(s, "a")
	if _, n := inode(t, scene); n != 1 {
		t.Fatalf("the scene has %d links after a failed commit", n)
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(scene), metaDir, backupsDir, backupFile("a", 2, true))); err == nil {
		t.Fatal("the failed commit left its backup link")
	}
}

// A commit that died between its link and its rename leaves the scene
// with two links, the second its own backup: reads and the next write
// take it as it is. A second link from anywhere else is still refused.
func TestSceneLinkedFromItsOwnBackupIsRead(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	scene := scenePathOf(s, "a")
	backup := filepath.Join(filepath.Dir(scene), metaDir, backupsDir, backupFile("a", 2, true))
	if err := os.Link(scene, backup); err != nil {
		t.Fatal(err)
	}
	fresh := testStore(t, func(o *Options) { o.Dir = filepath.Dir(scene) }) // a restarted server
	if sc, err := fresh.Read(bg, "a"); err != nil || !bytes.Equal(sc.Data, doc(2, "two")) {
		t.Fatalf("read after the crash: %v", err)
	}
	mustSave(t, fresh, "a", 2, doc(3, "three"))
	if got := readFile(t, backup); !bytes.Equal(got, doc(2, "two")) {
		t.Fatalf("backup holds %q", got)
	}

	other := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Link(scene, other); err == nil {
		if _, err := fresh.Read(bg, "a"); err == nil || !strings.Contains(err.Error(), "hard links") {
			t.Fatalf("a link from outside was read: %v", err)
		}
	}
}

// A scene read while a commit has linked it as its backup (between the
// link and the rename) is told from a foreign hard link by the one backup
// its sidecar's revision names: no read or listing walks the backups
// directory, which every scene's backups share and which grows with every
// commit (under 100 agents' writes that walk was most of the host's CPU).
func TestSceneMidCommitReadWithoutListingBackups(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "b", 1, "other")
	for rev := int64(1); rev <= 5; rev++ {
		mustSave(t, s, "b", rev, doc(int(rev)+1, "other"))
	}
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	scene := scenePathOf(s, "a")
	backups := filepath.Join(filepath.Dir(scene), metaDir, backupsDir)
	if err := os.Link(scene, filepath.Join(backups, backupFile("a", 2, true))); err != nil {
		t.Fatal(err)
	}
	var listed atomic.Int32
	ffs.set(func(op, p string) error {
		if op == "readdir" && filepath.Base(p) == backupsDir {
			listed.Add(1)
		}
		return nil
	})
	if sc, err := s.Read(bg, "a"); err != nil || !bytes.Equal(sc.Data, doc(2, "two")) {
		t.Fatalf("read mid-commit: %v", err)
	}
	rows, err := s.List(bg)
	if err != nil || len(rows) != 2 || !rows[0].Valid || rows[0].Revision != 2 {
		t.Fatalf("list mid-commit: %+v, %v", rows, err)
	}
	if n := listed.Load(); n != 0 {
		t.Fatalf("a read and a list walked the backups directory %d times", n)
	}
}
