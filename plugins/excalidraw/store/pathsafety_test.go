package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// allOps runs every operation on name and returns their errors by op.
func allOps(s *Store, name string) map[string]error {
	return map[string]error{
		"read":   err2(s.Read(bg, name)),
		"head":   err2(s.Head(bg, name)),
		"stale":  err2(s.Save(bg, SaveRequest{Name: name, ExpectedRevision: 99, Data: doc(1, "x"), Actor: ActorAgent})),
		"save":   err2(s.Save(bg, SaveRequest{Name: name, ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent})),
		"force":  err2(s.Save(bg, SaveRequest{Name: name, Force: true, Data: doc(1, "x"), Actor: ActorAgent})),
		"create": err2(s.Create(bg, CreateRequest{Name: name, Data: doc(1, "x"), Actor: ActorAgent})),
		"update": err2(s.Update(bg, UpdateRequest{Name: name, AnyRevision: true, Actor: ActorAgent,
			Mutate: func(*Scene) ([]byte, error) { return doc(1, "x"), nil }})),
	}
}

func TestBadNamesAreRejectedByEveryOperation(t *testing.T) {
	s := testStore(t)
	for _, name := range []string{
		"", "..", "a..b", "a/b", "/etc/passwd", "../x", "A", "Arch", "x\x00y", "ñame", "名前", "a b",
		".hidden", "-flag", "_x", strings.Repeat("a", 65), "a\\b", "a\n",
	} {
		for op, err := range allOps(s, name) {
			if CodeOf(err) != CodeInvalidName {
				t.Errorf("%s(%q): %v", op, name, err)
			}
		}
	}
	if entries, _ := os.ReadDir(s.dir); len(entries) != 1 { // only .dsh-excalidraw
		t.Fatalf("bad names created files: %v", entries)
	}
}

// A scene file that is a symlink is refused, whether it points inside or
// outside the drawings directory, and its target is never touched.
func TestSymlinkedSceneIsPermissionDenied(t *testing.T) {
	for _, where := range []string{"inside", "outside"} {
		t.Run(where, func(t *testing.T) {
			s := testStore(t)
			mustCreate(t, s, "real", 1, "real")
			target := scenePathOf(s, "real")
			if where == "outside" {
				target = filepath.Join(t.TempDir(), "victim.excalidraw")
				writeFile(t, target, doc(1, "victim"))
			}
			before := readFile(t, target)
			if err := os.Symlink(target, scenePathOf(s, "link")); err != nil {
				t.Fatal(err)
			}
			for op, err := range allOps(s, "link") {
				if CodeOf(err) != CodePermissionDenied {
					t.Errorf("%s: %v", op, err)
				}
			}
			if got := readFile(t, target); !bytes.Equal(got, before) {
				t.Fatal("symlink target changed")
			}
			if fi, err := os.Lstat(scenePathOf(s, "link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatal("symlink replaced")
			}
			list, _ := s.List(bg)
			for _, sum := range list {
				if sum.Name == "link" && (sum.Valid || !strings.Contains(sum.Problem, CodePermissionDenied)) {
					t.Fatalf("listed %+v", sum)
				}
			}
		})
	}
}

func TestSymlinkedDrawingsRootIsPermissionDenied(t *testing.T) {
	real := filepath.Join(t.TempDir(), "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(t.TempDir(), "drawings")
	os.Symlink(real, link)
	_, err := Open(Options{Dir: link, Codec: jsonCodec{}})
	wantCode(t, err, CodePermissionDenied)
	if entries, _ := os.ReadDir(real); len(entries) != 0 {
		t.Fatalf("wrote through the symlink: %v", entries)
	}
}

// The root is checked with lstat, then opened with O_NOFOLLOW: a symlink
// swapped in after the check is still refused.
func TestDrawingsRootSwappedAfterCheckIsRefused(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "drawings")
	os.Mkdir(dir, 0o700)
	ffs := newFaultFS()
	ffs.set(func(op, p string) error {
		if op == "opendir" && p == dir {
			os.Rename(dir, dir+".moved")
			os.Symlink(dir+".moved", dir)
		}
		return nil
	})
	_, err := Open(Options{Dir: dir, Codec: jsonCodec{}, FS: ffs})
	wantCode(t, err, CodePermissionDenied)
}

// The handle taken at Open keeps the store in its directory even if the path
// is later pointed elsewhere.
func TestStoreStaysInOpenedDirectory(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	os.Mkdir(elsewhere, 0o700)
	os.Rename(s.dir, s.dir+".moved")
	os.Symlink(elsewhere, s.dir)
	mustSave(t, s, "a", 1, doc(1, "two"))
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Fatalf("wrote into the new target: %v", entries)
	}
	if got := readFile(t, filepath.Join(s.dir+".moved", "a.excalidraw")); !bytes.Equal(got, doc(1, "two")) {
		t.Fatal("save did not land in the opened directory")
	}
}

// A symlink swapped in for the scene between the lstat check and the open
// is refused by O_NOFOLLOW.
func TestSceneSwappedToSymlinkBetweenCheckAndUse(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "one")
	victim := filepath.Join(t.TempDir(), "victim.excalidraw")
	writeFile(t, victim, doc(7, "secret"))
	scene := scenePathOf(s, "a")
	ffs.set(func(op, p string) error {
		if op == "read" && p == scene {
			ffs.set(nil)
			os.Remove(scene)
			os.Symlink(victim, scene)
		}
		return nil
	})
	_, err := s.Read(bg, "a")
	wantCode(t, err, CodePermissionDenied)
	if got := readFile(t, victim); !bytes.Equal(got, doc(7, "secret")) {
		t.Fatal("victim changed")
	}
}

// The same swap on the save path: the save is refused and the symlink target
// is not written. The swap comes as the save first looks at the file (a
// store that committed the file itself only stats it before writing).
func TestSceneSwappedToSymlinkDuringSave(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "one")
	victim := filepath.Join(t.TempDir(), "victim.excalidraw")
	writeFile(t, victim, doc(7, "secret"))
	scene := scenePathOf(s, "a")
	ffs.set(func(op, p string) error {
		if (op == "read" || op == "lstat") && p == scene {
			ffs.set(nil)
			os.Remove(scene)
			os.Symlink(victim, scene)
		}
		return nil
	})
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent})
	wantCode(t, err, CodePermissionDenied)
	if got := readFile(t, victim); !bytes.Equal(got, doc(7, "secret")) {
		t.Fatal("victim changed")
	}
}

// A swap after the rename, as the save reads its file back: the save
// fails (and rolls back) and the symlink target is not written.
func TestSceneSwappedToSymlinkDuringReadBack(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "one")
	victim := filepath.Join(t.TempDir(), "victim.excalidraw")
	writeFile(t, victim, doc(7, "secret"))
	scene := scenePathOf(s, "a")
	renamed := false
	ffs.set(func(op, p string) error {
		if op == "rename" && p == scene {
			renamed = true
		}
		if op == "read" && p == scene && renamed {
			ffs.set(nil)
			os.Remove(scene)
			os.Symlink(victim, scene)
		}
		return nil
	})
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent})
	if err == nil {
		t.Fatal("a save whose read-back met a symlink succeeded")
	}
	if got := readFile(t, victim); !bytes.Equal(got, doc(7, "secret")) {
		t.Fatal("victim changed")
	}
}

// .dsh-excalidraw, backups and locks being symlinks are refused, at Open and
// when swapped in while the store is open; the sidecar file too.
func TestSymlinkedMetadataIsRefused(t *testing.T) {
	for _, rel := range []string{metaDir, filepath.Join(metaDir, backupsDir), filepath.Join(metaDir, locksDir),
		filepath.Join(metaDir, sidecarFile("a"))} {
		t.Run(rel, func(t *testing.T) {
			s := testStore(t)
			mustCreate(t, s, "a", 1, "one")
			p := filepath.Join(s.dir, rel)
			outside := filepath.Join(t.TempDir(), "outside")
			if err := os.Rename(p, outside); err != nil {
				t.Fatal(err)
			}
			os.Symlink(outside, p)
			for op, err := range allOps(s, "a") {
				if op == "create" {
					continue // already_exists is checked before the sidecar
				}
				if CodeOf(err) != CodePermissionDenied {
					t.Errorf("%s: %v", op, err)
				}
			}
			if rel != filepath.Join(metaDir, sidecarFile("a")) {
				_, err := Open(Options{Dir: s.dir, Codec: jsonCodec{}})
				wantCode(t, err, CodePermissionDenied)
			}
		})
	}
}

// Other non-regular files and hard links are refused too; a FIFO must not
// block the read.
func TestNonRegularSceneFilesAreRefused(t *testing.T) {
	s := testStore(t)
	if err := syscall.Mkfifo(scenePathOf(s, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(scenePathOf(s, "dir"), 0o700)
	outside := filepath.Join(t.TempDir(), "hard.excalidraw")
	writeFile(t, outside, doc(1, "x"))
	if err := os.Link(outside, scenePathOf(s, "hard")); err != nil {
		t.Skip("hard links unsupported here:", err)
	}
	for _, name := range []string{"fifo", "dir", "hard"} {
		wantCode(t, err2(s.Read(bg, name)), CodePermissionDenied)
	}
	list, err := s.List(bg)
	if err != nil || len(list) != 3 {
		t.Fatalf("%+v %v", list, err)
	}
	for _, sum := range list {
		if sum.Valid {
			t.Fatalf("listed as valid: %+v", sum)
		}
	}
}
