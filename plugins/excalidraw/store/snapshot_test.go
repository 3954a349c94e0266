package store

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"path/filepath"
	"testing"
	"time"
)

// Snapshot hands over exactly the scene files a directory holds (file,
// sidecar, journal, every kept revision, a scene's orphaned backups
// too) byte for byte, and SceneFile claims those, the locks and the temp
// files, and nothing else.
func TestSnapshotTakesEverySceneFile(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "plan", 2, "a")
	mustSave(t, s, "plan", 1, doc(3, "b"))
	mustSave(t, s, "plan", 2, doc(4, "c"))
	mustCreate(t, s, "notes.v2", 1, "a")
	writeFile(t, filepath.Join(s.dir, metaDir, backupsDir, "gone.7.excalidraw"), doc(1, "old"))
	writeFile(t, filepath.Join(s.dir, metaDir, "boards.json"), []byte("{}"))
	writeFile(t, filepath.Join(s.dir, ".plan.excalidraw.tmp-0123456789abcdef"), []byte("half"))

	got := map[string][]byte{}
	n, err := s.Snapshot(context.Background(), func(rel string, size int64, _ time.Time, r io.Reader) error {
		b, err := io.ReadAll(r)
		if int64(len(b)) != size {
			t.Errorf("%s: %d bytes, said %d", rel, len(b), size)
		}
		got[rel] = b
		return err
	})
	if err != nil || n != 3 {
		t.Fatalf("Snapshot: %d scenes, %v", n, err)
	}
	want := map[string][]byte{}
	err = filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(s.dir, p)
		rel = filepath.ToSlash(rel)
		isLock := filepath.Ext(rel) == lockExt
		switch taken := SceneFile(rel); {
		case rel == metaDir+"/boards.json":
			if taken {
				t.Errorf("SceneFile claims %s", rel)
			}
		case !taken:
			t.Errorf("SceneFile does not claim %s", rel)
		case !isLock && filepath.Base(rel)[0] != '.':
			want[rel] = readFile(t, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"plan.excalidraw", metaDir + "/plan.meta.json", metaDir + "/journal/plan.journal",
		metaDir + "/backups/plan.1.excalidraw", metaDir + "/backups/plan.2.excalidraw", metaDir + "/backups/gone.7.excalidraw"} {
		if want[rel] == nil {
			t.Errorf("the directory has no %s", rel)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Snapshot took %d files, the directory holds %d: %v", len(got), len(want), keys(got))
	}
	for rel, b := range want {
		if !bytes.Equal(got[rel], b) {
			t.Errorf("%s differs from the file", rel)
		}
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
