package store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"testing"
	"time"
)

// dirFiles is every file Snapshot would take from s's directory, as it
// is now.
func dirFiles(t *testing.T, s *Store) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(s.dir, p)
		rel = filepath.ToSlash(rel)
		if SceneFile(rel) && filepath.Ext(rel) != lockExt && filepath.Base(rel)[0] != '.' {
			out[rel] = readFile(t, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// copyMoment is what m's Copy hands over, by path.
func copyMoment(t *testing.T, m *Moment) map[string][]byte {
	t.Helper()
	got := map[string][]byte{}
	_, err := m.Copy(context.Background(), func(rel string, size int64, _ time.Time, r io.Reader) error {
		b, err := io.ReadAll(r)
		if int64(len(b)) != size {
			t.Errorf("%s: %d bytes, said %d", rel, len(b), size)
		}
		got[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func sameFiles(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	for rel, b := range want {
		if !bytes.Equal(got[rel], b) {
			t.Errorf("%s: %d bytes, the moment had %d", rel, len(got[rel]), len(b))
		}
	}
	for rel := range got {
		if _, ok := want[rel]; !ok {
			t.Errorf("%s is not of the moment", rel)
		}
	}
}

// Freeze holds every scene's writers (another store's write waits, then
// is scene_busy) until Release; what Copy hands over afterwards is the
// directory as it was at the moment, although scenes were saved (their
// files replaced, journals appended, kept revisions added and pruned)
// and created since.
func TestFreezeIsOneMoment(t *testing.T) {
	s := testStore(t, func(o *Options) { o.KeepBackups = 2 })
	mustCreate(t, s, "plan", 2, "a")
	mustSave(t, s, "plan", 1, doc(3, "b"))
	mustSave(t, s, "plan", 2, doc(4, "c"))
	mustCreate(t, s, "notes", 1, "a")
	other := testStore(t, func(o *Options) { o.Dir = s.dir; o.LockTimeout = 50 * time.Millisecond })

	m, err := s.Freeze(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !m.Whole() || m.Scenes() != 2 {
		t.Fatalf("a moment of %d scenes, whole %v", m.Scenes(), m.Whole())
	}
	want := dirFiles(t, s)
	_, err = other.Save(bg, SaveRequest{Name: "notes", ExpectedRevision: 1, Data: doc(2, "held"), Actor: ActorAgent})
	if code := CodeOf(err); code != CodeSceneBusy {
		t.Fatalf("a save while the moment holds: %v", err)
	}
	m.Release()
	mustSave(t, other, "plan", 3, doc(5, "d"))
	mustSave(t, other, "plan", 4, doc(6, "e"))
	mustSave(t, other, "notes", 1, doc(2, "f"))
	mustCreate(t, other, "late", 1, "a")
	if bytes.Equal(dirFiles(t, s)["plan.excalidraw"], want["plan.excalidraw"]) {
		t.Fatal("the saves changed nothing")
	}
	sameFiles(t, copyMoment(t, m), want)
}

// Without descriptors for the kept revisions they are opened by name
// during the copy (those pruned since are left out); without enough for
// the scenes, Copy takes each scene under its own locks (Snapshot).
func TestFreezeWithFewDescriptors(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "plan", 2, "a")
	mustSave(t, s, "plan", 1, doc(3, "b"))
	mustSave(t, s, "plan", 2, doc(4, "c"))
	mustCreate(t, s, "notes", 1, "a")
	want := dirFiles(t, s)
	defer func(f func() int) { fdBudget = f }(fdBudget)
	for _, c := range []struct {
		budget int
		whole  bool
	}{{4*2 + 8, true}, {4*2 + 7, false}} {
		fdBudget = func() int { return c.budget }
		m, err := s.Freeze(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if m.Whole() != c.whole {
			t.Errorf("budget %d: whole %v", c.budget, m.Whole())
		}
		if c.whole {
			var byName int
			for _, f := range m.files {
				if f.f == nil {
					byName++
				}
			}
			if byName != 2 {
				t.Errorf("budget %d: %d files left to open by name, want the 2 kept revisions", c.budget, byName)
			}
		}
		sameFiles(t, copyMoment(t, m), want)
		m.Close()
	}
}

// A moment's lock that stays taken is scene_busy, and Freeze holds
// nothing after it.
func TestFreezeBusy(t *testing.T) {
	s := testStore(t, func(o *Options) { o.LockTimeout = 50 * time.Millisecond })
	mustCreate(t, s, "a", 1, "a")
	mustCreate(t, s, "b", 1, "a")
	other := testStore(t, func(o *Options) { o.Dir = s.dir })
	held, err := other.begin(bg, "b")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Freeze(context.Background())
	held.end()
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeSceneBusy {
		t.Fatalf("Freeze with b held: %v", err)
	}
	mustSave(t, other, "a", 1, doc(2, "free")) // a's lock was let go
}
