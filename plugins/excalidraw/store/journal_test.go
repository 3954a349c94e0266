package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

func journalStore(t testing.TB, mod ...func(*Options)) *Store {
	t.Helper()
	return testStore(t, append([]func(*Options){func(o *Options) { o.Codec = journalCodec{} }}, mod...)...)
}

// allEntries pages through a scene's whole log.
func allEntries(t testing.TB, s *Store, q LogQuery) []journal.Entry {
	t.Helper()
	var out []journal.Entry
	for {
		page, err := s.Log(bg, q)
		if err != nil {
			t.Fatalf("Log: %v", err)
		}
		out = append(out, page.Entries...)
		if page.Next == "" {
			return out
		}
		q.Cursor = page.Next
	}
}

func save(t testing.TB, s *Store, name string, rev int64, data []byte, attr Attribution) *Result {
	t.Helper()
	res, err := s.Save(bg, SaveRequest{Name: name, ExpectedRevision: rev, Data: data, Actor: ActorAgent, Attribution: attr})
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	return res
}

func TestJournalHasOneEntryPerCommit(t *testing.T) {
	s := journalStore(t)
	if _, err := s.Create(bg, CreateRequest{Name: "a", Data: doc(2, "one"), Actor: ActorAgent,
		Attribution: Attribution{Name: "claude", Via: "create"}}); err != nil {
		t.Fatal(err)
	}
	save(t, s, "a", 1, doc(3, "one"), Attribution{Name: "claude", Via: "apply", Note: "add e2"})
	save(t, s, "a", 2, doc(3, "one"), Attribution{}) // unchanged: no entry
	if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Force: true, Data: doc(3, "two"), Actor: ActorUI,
		RequestID: "tab:1", Attribution: Attribution{Via: "editor"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Force: true, Data: doc(3, "two"), Actor: ActorUI,
		RequestID: "tab:1"}); err != nil { // a retry: duplicate, no entry
		t.Fatal(err)
	}
	es := allEntries(t, s, LogQuery{Name: "a"})
	if len(es) != 3 {
		t.Fatalf("%d entries: %+v", len(es), es)
	}
	forced, apply, create := es[0], es[1], es[2]
	if create.Revision != 1 || create.PreviousRevision != 0 || !slices.Equal(create.Created, []string{"e0", "e1"}) || create.Name != "claude" || create.Via != "create" {
		t.Errorf("create entry = %+v", create)
	}
	if apply.Revision != 2 || apply.PreviousRevision != 1 || !slices.Equal(apply.Created, []string{"e2"}) || apply.Note != "add e2" || apply.Actor != "agent" {
		t.Errorf("apply entry = %+v", apply)
	}
	if forced.Revision != 3 || !forced.Forced || forced.Actor != "ui" || forced.RequestID != "tab:1" || len(forced.Updated) != 3 {
		t.Errorf("forced entry = %+v", forced)
	}
	sc, err := s.Read(bg, "a")
	if err != nil || forced.SHA256 != sc.SHA256 || apply.Seq != 2 {
		t.Fatalf("entry sha %s, scene %v (%v); seq %d", forced.SHA256, sc, err, apply.Seq)
	}
	e, im, err := s.Commit(bg, "a", apply.Commit)
	if err != nil || e.Revision != 2 || im == nil || len(im.Before) != 1 || string(im.Before[0].Element) != "null" {
		t.Fatalf("Commit = %+v %+v %v", e, im, err)
	}
	_, im, _ = s.Commit(bg, "a", forced.Commit)
	if b, ok := im.BeforeOf("e0"); !ok || !strings.Contains(string(b.Element), `"one"`) {
		t.Fatalf("forced entry's image of e0 = %s", b.Element)
	}
	if m, _ := s.Read(bg, "a"); m.UpdatedByName != "" {
		t.Errorf("the editor's save has a name: %q", m.UpdatedByName)
	}
}

func TestJournalNameReachesTheSidecar(t *testing.T) {
	s := journalStore(t)
	mustCreate(t, s, "a", 1, "x")
	save(t, s, "a", 1, doc(1, "y"), Attribution{Name: "claude-desktop"})
	sc, err := s.Read(bg, "a")
	if err != nil || sc.UpdatedByName != "claude-desktop" {
		t.Fatalf("read = %+v, %v", sc, err)
	}
	list, _ := s.List(bg)
	if len(list) != 1 || list[0].UpdatedByName != "claude-desktop" {
		t.Fatalf("list = %+v", list)
	}
	_, err = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "z"), Actor: ActorUI})
	var se *Error
	if !errors.As(err, &se) || se.Details["updatedByName"] != "claude-desktop" || se.Details["updatedBy"] != "agent" {
		t.Fatalf("conflict = %v", err)
	}
}

// A commit that fails after its entry was appended takes the entry back:
// the journal never lists a revision that is not on disk, and the next
// commit's entry has the reused number once.
func TestFailedCommitLeavesNoEntry(t *testing.T) {
	for _, stage := range []string{"sidecar", "journal"} {
		t.Run(stage, func(t *testing.T) {
			ffs := newFaultFS()
			s := journalStore(t, func(o *Options) { o.FS = ffs })
			mustCreate(t, s, "a", 1, "x")
			match := isSidecarTemp("a")
			if stage == "journal" {
				match = func(p string) bool { return strings.HasSuffix(p, "a.journal") }
			}
			ffs.set(failOnce("write", match))
			_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "y"), Actor: ActorAgent})
			if CodeOf(err) != CodeIOError {
				t.Fatalf("save: %v", err)
			}
			if es := allEntries(t, s, LogQuery{Name: "a"}); len(es) != 1 {
				t.Fatalf("after the failure: %+v", es)
			}
			ffs.set(nil)
			save(t, s, "a", 1, doc(1, "z"), Attribution{})
			es := allEntries(t, s, LogQuery{Name: "a"})
			if len(es) != 2 || es[0].Revision != 2 || es[1].Revision != 1 {
				t.Fatalf("entries %+v", es)
			}
			checkJournalIntact(t, s, "a")
		})
	}
}

// checkJournalIntact: the journal file is whole frames to its end.
func checkJournalIntact(t testing.TB, s *Store, name string) {
	t.Helper()
	f, err := os.Open(filepath.Join(s.Dir(), MetaDir, journalDir, journalFile(name)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	end, _, err := journal.Scan(f, info.Size(), nil)
	if err != nil || end != info.Size() {
		t.Fatalf("journal valid to %d of %d bytes (%v)", end, info.Size(), err)
	}
}

func TestLogPagesAndFilters(t *testing.T) {
	s := journalStore(t)
	mustCreate(t, s, "a", 1, "t0")
	for i := 1; i < 25; i++ {
		name := "alice"
		if i%2 == 0 {
			name = "bob"
		}
		save(t, s, "a", int64(i), doc(1+i%3, fmt.Sprint("t", i)), Attribution{Name: name})
	}
	var revs []int64
	q := LogQuery{Name: "a", Limit: 10}
	pages := 0
	for {
		page, err := s.Log(bg, q)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, e := range page.Entries {
			revs = append(revs, e.Revision)
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	if pages != 3 || len(revs) != 25 || revs[0] != 25 || revs[24] != 1 || !slices.IsSortedFunc(revs, func(a, b int64) int { return int(b - a) }) {
		t.Fatalf("%d pages, revisions %v", pages, revs)
	}
	bob := allEntries(t, s, LogQuery{Name: "a", Actor: "bob", MinRevision: 10, MaxRevision: 20})
	// bob wrote the even rounds i, which committed revisions i+1
	if !slices.Equal(revisionsOf(bob), []int64{19, 17, 15, 13, 11}) {
		t.Fatalf("bob in 10..20: %+v", revisionsOf(bob))
	}
	withE2 := allEntries(t, s, LogQuery{Name: "a", Element: "e2"})
	for _, e := range withE2 {
		if !e.Touches("e2") {
			t.Fatalf("entry %d does not touch e2", e.Revision)
		}
	}
	if len(withE2) == 0 {
		t.Fatal("no entry touches e2")
	}
	if _, err := s.Log(bg, LogQuery{Name: "a", Cursor: "zz"}); CodeOf(err) != CodeInvalidRequest {
		t.Fatalf("bad cursor: %v", err)
	}
	if _, err := s.Log(bg, LogQuery{Name: "nope"}); CodeOf(err) != CodeNotFound {
		t.Fatalf("unknown scene: %v", err)
	}
	if _, _, err := s.Commit(bg, "a", "01NOPE"); CodeOf(err) != CodeNotFound {
		t.Fatalf("unknown commit: %v", err)
	}
}

func TestJournalRetention(t *testing.T) {
	t.Run("count", func(t *testing.T) {
		s := journalStore(t, func(o *Options) { o.Journal.MaxEntries = 10 })
		mustCreate(t, s, "a", 1, "t0")
		for i := 1; i < 40; i++ {
			save(t, s, "a", int64(i), doc(1, fmt.Sprint("t", i)), Attribution{})
		}
		es := allEntries(t, s, LogQuery{Name: "a"})
		if len(es) < 10 || len(es) > 11 || es[0].Revision != 40 {
			t.Fatalf("kept %v", revisionsOf(es))
		}
		checkJournalIntact(t, s, "a")
	})
	t.Run("age", func(t *testing.T) {
		var mu sync.Mutex
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		s := journalStore(t, func(o *Options) { o.Journal.MaxAge = 48 * time.Hour; o.Now = clock })
		mustCreate(t, s, "a", 1, "t0")
		for i := 1; i < 10; i++ {
			mu.Lock()
			now = now.Add(24 * time.Hour)
			mu.Unlock()
			save(t, s, "a", int64(i), doc(1, fmt.Sprint("t", i)), Attribution{})
		}
		es := allEntries(t, s, LogQuery{Name: "a"})
		if got := revisionsOf(es); !slices.Equal(got, []int64{10, 9, 8}) {
			t.Fatalf("kept %v, want the last two days' and today's", got)
		}
	})
}

func TestJournalSkipsImagesOverTheCap(t *testing.T) {
	s := journalStore(t, func(o *Options) { o.Journal.MaxImageBytes = 64 })
	mustCreate(t, s, "a", 1, "x")
	save(t, s, "a", 1, doc(20, "y"), Attribution{})
	es := allEntries(t, s, LogQuery{Name: "a"})
	if es[0].Images != journal.ImagesSkipped || len(es[0].Updated) != 1 || len(es[0].Created) != 19 {
		t.Fatalf("entry = %+v", es[0])
	}
	_, im, err := s.Commit(bg, "a", es[0].Commit)
	if err != nil || im == nil || len(im.Before) != 0 || len(im.After) != 20 {
		t.Fatalf("images = %+v, %v", im, err)
	}
}

func TestHandEditIsJournaledByRecovery(t *testing.T) {
	s := journalStore(t)
	mustCreate(t, s, "a", 1, "x")
	if err := os.WriteFile(filepath.Join(s.Dir(), "a.excalidraw"), doc(2, "by hand"), 0o600); err != nil {
		t.Fatal(err)
	}
	sc, err := s.Read(bg, "a")
	if err != nil || sc.Revision != 2 || sc.UpdatedBy != ActorRecovery {
		t.Fatalf("read = %+v, %v", sc, err)
	}
	es := allEntries(t, s, LogQuery{Name: "a"})
	if len(es) != 2 || es[0].Actor != "recovery" || es[0].Revision != 2 || es[0].Images != journal.ImagesUnavailable || es[0].Note == "" {
		t.Fatalf("entries = %+v", es)
	}
}

func TestRecreatedSceneStartsANewJournal(t *testing.T) {
	s := journalStore(t)
	mustCreate(t, s, "a", 1, "x")
	save(t, s, "a", 1, doc(1, "y"), Attribution{})
	if err := os.Remove(filepath.Join(s.Dir(), "a.excalidraw")); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "a", 2, "new")
	es := allEntries(t, s, LogQuery{Name: "a"})
	if len(es) != 1 || es[0].Revision != 1 || len(es[0].Created) != 2 {
		t.Fatalf("entries = %+v", es)
	}
}

func TestJournalDisabled(t *testing.T) {
	s := journalStore(t, func(o *Options) { o.Journal.Disabled = true })
	mustCreate(t, s, "a", 1, "x")
	save(t, s, "a", 1, doc(1, "y"), Attribution{})
	if es := allEntries(t, s, LogQuery{Name: "a"}); len(es) != 0 {
		t.Fatalf("a disabled journal has %d entries", len(es))
	}
}

// TestCreateCutShortShowsNoEntry: a scene deleted by hand leaves its
// sidecar (revision 2); a Create of the name that dies after appending
// its entry but before its rename (a kill, simulated by a panic that
// unwinds without any cleanup) must not leave readers a history entry
// for a write that never happened.
func TestCreateCutShortShowsNoEntry(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	s := journalStore(t, func(o *Options) { o.Dir = dir })
	mustCreate(t, s, "a", 1, "x")
	save(t, s, "a", 1, doc(1, "y"), Attribution{})
	if err := os.Remove(filepath.Join(dir, "a.excalidraw")); err != nil {
		t.Fatal(err)
	}
	ffs := newFaultFS()
	killed, err := Open(Options{Dir: dir, Codec: journalCodec{}, FS: ffs}) // never closed: its create never ends
	if err != nil {
		t.Fatal(err)
	}
	ffs.set(func(op, path string) error {
		if op == "rename" && filepath.Base(path) == "a.excalidraw" {
			panic("killed")
		}
		return nil
	})
	func() {
		defer func() { _ = recover() }()
		_, _ = killed.Create(bg, CreateRequest{Name: "a", Data: doc(3, "never"), Actor: ActorUI, RequestID: "never"})
		t.Fatal("the create was not cut short")
	}()
	page, err := s.Log(bg, LogQuery{Name: "a"})
	if err == nil && len(page.Entries) > 0 {
		t.Fatalf("history of a scene that does not exist: %+v", page.Entries)
	}
}

// TestStaleRevisionIsRefusedBeforeTheSceneIsRead: a writer that lost the
// race learns it from the sidecar alone; the scene file is not read (a
// read of it here fails, and the answer is still the conflict, with the
// usual details). A retry of a remembered request id is still a duplicate.
func TestStaleRevisionIsRefusedBeforeTheSceneIsRead(t *testing.T) {
	ffs := newFaultFS()
	s := journalStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "x")
	if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "y"), Actor: ActorAgent, RequestID: "r2"}); err != nil {
		t.Fatal(err)
	}
	ffs.set(func(op, path string) error {
		if op == "read" && filepath.Base(path) == "a.excalidraw" {
			return errInjected
		}
		return nil
	})
	for _, write := range []func() error{
		func() error {
			_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "z"), Actor: ActorAgent})
			return err
		},
		func() error {
			_, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
				Mutate: func(*Scene) ([]byte, error) { return doc(1, "z"), nil }})
			return err
		},
	} {
		err := write()
		var se *Error
		if !errors.As(err, &se) || se.Code != CodeRevisionConflict || se.Details["currentRevision"] != int64(2) {
			t.Fatalf("stale write: %v", err)
		}
	}
	if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(1, "w"), Actor: ActorAgent}); CodeOf(err) != CodeIOError {
		t.Fatalf("a fresh write reads the scene (and fails here): %v", err)
	}
	ffs.set(nil)
	if res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "y"), Actor: ActorAgent, RequestID: "r2"}); err != nil || !res.Duplicate {
		t.Fatalf("retry: %+v, %v", res, err)
	}
}
