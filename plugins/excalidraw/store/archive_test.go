package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// historyStore is a store whose scene "plan" went through every kind of
// commit: created, saved, updated, force-saved (all with before-images,
// journalCodec being a Differ), edited by hand and recorded by recovery,
// made corrupt and restored from its backup by recovery (so a .corrupt
// backup is kept), and saved again; most with request ids. Scene "other"
// is there too.
func historyStore(t *testing.T) *Store {
	t.Helper()
	s := testStore(t, func(o *Options) { o.Codec = journalCodec{} })
	if _, err := s.Create(bg, CreateRequest{Name: "plan", Data: doc(2, "one"), Actor: ActorAgent, RequestID: "c1",
		Attribution: Attribution{Name: "claude", Bot: "bot-1", Via: "batch_create", Note: "first <draft> & more"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(bg, SaveRequest{Name: "plan", ExpectedRevision: 1, Data: doc(3, "two"), Actor: ActorUI, RequestID: "s2",
		Attribution: Attribution{Name: "ann", Person: "ann@example.com", Via: "PUT scene"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(bg, UpdateRequest{Name: "plan", AnyRevision: true, Actor: ActorAgent, RequestID: "u3",
		Mutate: func(*Scene) ([]byte, error) { return doc(1, "three"), nil }}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(bg, SaveRequest{Name: "plan", ExpectedRevision: 1, Force: true, Data: doc(2, "four"), Actor: ActorUI}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, scenePathOf(s, "plan"), doc(2, "by hand"))
	if sc, err := s.Read(bg, "plan"); err != nil || sc.UpdatedBy != ActorRecovery {
		t.Fatalf("hand edit not recorded: %+v %v", sc, err)
	}
	writeFile(t, scenePathOf(s, "plan"), []byte("garbage"))
	if sc, err := s.Read(bg, "plan"); err != nil || sc.UpdatedBy != ActorRecovery {
		t.Fatalf("corrupt file not restored: %+v %v", sc, err)
	}
	head, err := s.Head(bg, "plan")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(bg, SaveRequest{Name: "plan", ExpectedRevision: head.Revision, Data: doc(4, "last"), Actor: ActorAgent,
		RequestID: "s7", Attribution: Attribution{Name: "claude", Undoes: "01ABC", Mode: "revert"}}); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "other", 1, "other")
	return s
}

// emptyStore is a second store for restoring into.
func emptyStore(t *testing.T, mod ...func(*Options)) *Store {
	t.Helper()
	return testStore(t, append([]func(*Options){func(o *Options) { o.Codec = journalCodec{} }}, mod...)...)
}

func mustArchive(t *testing.T, s *Store, name string) *SceneArchive {
	t.Helper()
	a, err := s.Archive(bg, name)
	if err != nil {
		t.Fatalf("Archive %s: %v", name, err)
	}
	return a
}

// sceneFiles is the part of a store's Tree that is scene name's: its
// file, sidecar, journal and backups.
func sceneFiles(t *testing.T, s *Store, name string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for path, v := range dshtest.Tree(t, s.dir) {
		base := filepath.Base(path)
		if base == sceneFile(name) || base == sidecarFile(name) || base == journalFile(name) {
			out[path] = v
		} else if _, _, ok := parseBackup(name, base); ok && filepath.Dir(path) == filepath.Join(metaDir, backupsDir) {
			out[path] = v
		}
	}
	return out
}

// allLog reads a scene's whole journal, page by page of limit entries.
func allLog(t *testing.T, s *Store, name string, limit int) [][]journal.Entry {
	t.Helper()
	var pages [][]journal.Entry
	cursor := ""
	for {
		p, err := s.Log(bg, LogQuery{Name: name, Cursor: cursor, Limit: limit})
		if err != nil {
			t.Fatalf("Log %s: %v", name, err)
		}
		pages = append(pages, p.Entries)
		if p.Next == "" {
			return pages
		}
		cursor = p.Next
	}
}

// The archive of a scene is everything the store serves of it: the record,
// the bytes, the request ids, the journal with its images, the backups.
// Archiving a settled scene writes nothing.
func TestArchiveIsWhatTheStoreServes(t *testing.T) {
	src := historyStore(t)
	before := dshtest.Tree(t, src.dir)
	a := mustArchive(t, src, "plan")
	dshtest.SameTree(t, "source", before, dshtest.Tree(t, src.dir))

	sc, err := src.Read(bg, "plan")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Meta, sc.Meta) || !bytes.Equal(a.Data, sc.Data) {
		t.Fatalf("archived %+v, read %+v", a.Meta, sc.Meta)
	}
	if ids := requestIDs(a); !slices.Equal(ids, []string{"c1", "s2", "u3", "s7"}) {
		t.Fatalf("requests %v", ids)
	}
	if len(a.Journal) != int(a.Meta.Revision) {
		t.Fatalf("%d commits for revision %d", len(a.Journal), a.Meta.Revision)
	}
	var flat []journal.Entry
	for _, p := range allLog(t, src, "plan", MaxLogLimit) {
		flat = append(flat, p...)
	}
	slices.Reverse(flat)
	withImages := 0
	for i, c := range a.Journal {
		if !reflect.DeepEqual(c.Entry, flat[i]) {
			t.Fatalf("commit %d: %+v, log %+v", i, c.Entry, flat[i])
		}
		e, im, err := src.Commit(bg, "plan", c.Entry.Commit)
		if err != nil || !reflect.DeepEqual(*e, c.Entry) || !reflect.DeepEqual(im, c.Images) {
			t.Fatalf("commit %s: %+v %+v %v", c.Entry.Commit, e, im, err)
		}
		if c.Images != nil {
			withImages++
		}
	}
	if withImages < 4 || withImages == len(a.Journal) {
		t.Fatalf("%d of %d commits kept images: want both kinds", withImages, len(a.Journal))
	}
	// Backups of 1, 2 and 3; 4 was edited away by hand and 5, the hand
	// edit, made corrupt (its copy kept as such); 6 superseded by 7.
	var kept []string
	for _, r := range a.Revisions {
		kept = append(kept, fmt.Sprint(r.Revision, map[bool]string{true: "c"}[r.Corrupt]))
		if r.Corrupt {
			if string(r.Data) != "garbage" {
				t.Fatalf("corrupt copy %q", r.Data)
			}
			wantCode(t, err2(src.ReadRevision(bg, "plan", r.Revision)), CodeNotFound)
			continue
		}
		got, err := src.ReadRevision(bg, "plan", r.Revision)
		if err != nil || !bytes.Equal(got, r.Data) {
			t.Fatalf("revision %d: %v", r.Revision, err)
		}
	}
	if !slices.Equal(kept, []string{"1", "2", "3", "5c", "6"}) {
		t.Fatalf("kept revisions %v", kept)
	}

	wantCode(t, err2(src.Archive(bg, "missing")), CodeNotFound)
	wantCode(t, err2(src.Archive(bg, "../plan")), CodeInvalidName)
}

func requestIDs(a *SceneArchive) []string {
	var ids []string
	for _, r := range a.Requests {
		ids = append(ids, r.ID)
	}
	return ids
}

// A scene whose sidecar does not describe its file is archived as a Read
// would return it: recorded first, by recovery.
func TestArchiveRecordsAnUnrecordedFileFirst(t *testing.T) {
	s := emptyStore(t)
	mustCreate(t, s, "a", 1, "one")
	writeFile(t, scenePathOf(s, "a"), doc(3, "by hand"))
	a := mustArchive(t, s, "a")
	if a.Meta.Revision != 2 || a.Meta.UpdatedBy != ActorRecovery || !bytes.Equal(a.Data, doc(3, "by hand")) ||
		len(a.Journal) != 2 || a.Journal[1].Entry.Actor != string(ActorRecovery) {
		t.Fatalf("archived %+v, %d commits", a.Meta, len(a.Journal))
	}
	sc, err := s.Read(bg, "a")
	if err != nil || !reflect.DeepEqual(sc.Meta, a.Meta) {
		t.Fatalf("read %+v %v", sc, err)
	}
}

// A restored scene is the archived one, byte for byte: its files are the
// source's, and every read gives back what the source gives; its request
// ids replay as duplicates, it was not committed here, and it takes new
// commits from where it was.
func TestRestoreIsTheArchivedScene(t *testing.T) {
	src := historyStore(t)
	a := mustArchive(t, src, "plan")
	dst := emptyStore(t)
	out, err := dst.Restore(bg, a)
	if err != nil || out != RestoreWritten {
		t.Fatalf("Restore: %q %v", out, err)
	}

	// The same files, byte for byte, and only this scene's.
	if got, want := sceneFiles(t, dst, "plan"), sceneFiles(t, src, "plan"); !maps.Equal(got, want) {
		t.Fatalf("restored files differ:\n%v\nwant\n%v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	if _, err := os.Lstat(scenePathOf(dst, "other")); !os.IsNotExist(err) {
		t.Fatalf("other scene restored too: %v", err)
	}

	sc, err := dst.Read(bg, "plan")
	if err != nil || !reflect.DeepEqual(sc.Meta, a.Meta) || !bytes.Equal(sc.Data, a.Data) {
		t.Fatalf("read %+v %v", sc, err)
	}
	if m, err := dst.Head(bg, "plan"); err != nil || !reflect.DeepEqual(m, a.Meta) {
		t.Fatalf("head %+v %v", m, err)
	}
	list, err := dst.List(bg)
	if err != nil || len(list) != 1 || !list[0].Valid || !reflect.DeepEqual(list[0].Meta, a.Meta) {
		t.Fatalf("list %+v %v", list, err)
	}
	if got, want := allLog(t, dst, "plan", 2), allLog(t, src, "plan", 2); !reflect.DeepEqual(got, want) {
		t.Fatalf("log pages differ:\n%+v\nwant\n%+v", got, want)
	}
	for _, c := range a.Journal {
		e, im, err := dst.Commit(bg, "plan", c.Entry.Commit)
		if err != nil || !reflect.DeepEqual(*e, c.Entry) || !reflect.DeepEqual(im, c.Images) {
			t.Fatalf("commit %s: %+v %+v %v", c.Entry.Commit, e, im, err)
		}
	}
	for _, r := range a.Revisions {
		got, err := dst.ReadRevision(bg, "plan", r.Revision)
		if r.Corrupt {
			continue // served by neither store
		}
		if err != nil || !bytes.Equal(got, r.Data) {
			t.Fatalf("revision %d: %v", r.Revision, err)
		}
	}
	if again := mustArchive(t, dst, "plan"); !reflect.DeepEqual(again, a) {
		t.Fatalf("archive of the restored scene differs:\n%+v\nwant\n%+v", again, a)
	}
	if dst.CommittedHere(bg, "plan") {
		t.Fatal("a restored revision counts as committed here")
	}

	// Every remembered request id is a duplicate: its original commit, nothing written.
	for _, r := range a.Requests {
		res, err := dst.Save(bg, SaveRequest{Name: "plan", ExpectedRevision: 1, Data: doc(9, "retry"), Actor: ActorAgent, RequestID: r.ID})
		if err != nil || !res.Duplicate || res.Revision != r.Revision || res.SHA256 != r.SHA256 || !res.SavedAt.Equal(r.At) {
			t.Fatalf("retry of %s: %+v %v", r.ID, res, err)
		}
	}
	if m, _ := dst.Head(bg, "plan"); m.Revision != a.Meta.Revision {
		t.Fatalf("a retry committed: %+v", m)
	}

	// The next commit follows the archived one.
	res := mustSave(t, dst, "plan", a.Meta.Revision, doc(5, "next"))
	if res.Revision != a.Meta.Revision+1 || res.PreviousRevision != a.Meta.Revision || res.PreviousSHA256 != a.Meta.SHA256 {
		t.Fatalf("next commit %+v", res.Meta)
	}
	if got, err := dst.ReadRevision(bg, "plan", a.Meta.Revision); err != nil || !bytes.Equal(got, a.Data) {
		t.Fatalf("backup of the restored revision: %v", err)
	}
	p, err := dst.Log(bg, LogQuery{Name: "plan", Limit: 1})
	last := a.Journal[len(a.Journal)-1].Entry
	if err != nil || p.Entries[0].Seq != last.Seq+1 || p.Entries[0].PreviousRevision != a.Meta.Revision {
		t.Fatalf("next entry %+v %v", p.Entries, err)
	}
}

// A Restore run again over the scene it wrote writes nothing.
func TestRestoreAgainIsUnchanged(t *testing.T) {
	a := mustArchive(t, historyStore(t), "plan")
	dst := emptyStore(t)
	if out, err := dst.Restore(bg, a); err != nil || out != RestoreWritten {
		t.Fatalf("Restore: %q %v", out, err)
	}
	before := dshtest.Tree(t, dst.dir)
	for range 2 {
		if out, err := dst.Restore(bg, a); err != nil || out != RestoreUnchanged {
			t.Fatalf("Restore again: %q %v", out, err)
		}
	}
	dshtest.SameTree(t, "target", before, dshtest.Tree(t, dst.dir))
}

// A Restore over a scene of the same name that is not the archived one is
// already_exists, saying what differs, and changes nothing: not even the
// repair a read would make of a file its sidecar does not describe.
func TestRestoreOverAnotherSceneIsRefused(t *testing.T) {
	a := mustArchive(t, historyStore(t), "plan")
	otherJournal := *a
	otherJournal.Journal = a.Journal[1:]
	otherRequests := *a
	otherRequests.Requests = a.Requests[1:]
	otherMeta := *a
	otherMeta.Meta.UpdatedByName = "someone else"

	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, dst *Store)
		archive *SceneArchive
		differs []string
	}{
		{"another scene", func(t *testing.T, dst *Store) { mustCreate(t, dst, "plan", 1, "mine") }, a,
			[]string{"revision", "sha256", "meta", "requests", "journal", "revisions"}},
		{"a later revision", func(t *testing.T, dst *Store) {
			restore(t, dst, a)
			mustSave(t, dst, "plan", a.Meta.Revision, doc(1, "later"))
		}, a, []string{"revision", "sha256", "meta", "journal", "revisions"}},
		{"another journal", func(t *testing.T, dst *Store) { restore(t, dst, a) }, &otherJournal, []string{"journal"}},
		{"other request ids", func(t *testing.T, dst *Store) { restore(t, dst, a) }, &otherRequests, []string{"requests"}},
		{"another record", func(t *testing.T, dst *Store) { restore(t, dst, a) }, &otherMeta, []string{"meta"}},
		{"an unrecorded file", func(t *testing.T, dst *Store) {
			restore(t, dst, a)
			writeFile(t, scenePathOf(dst, "plan"), doc(1, "by hand"))
		}, a, []string{"unrecorded"}},
		{"a corrupt file", func(t *testing.T, dst *Store) {
			restore(t, dst, a)
			writeFile(t, scenePathOf(dst, "plan"), []byte("garbage"))
		}, a, []string{"unrecorded"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := emptyStore(t)
			tc.prepare(t, dst)
			before := dshtest.Tree(t, dst.dir)
			out, err := dst.Restore(bg, tc.archive)
			e := wantCode(t, err, CodeAlreadyExists)
			if out != "" || !reflect.DeepEqual(e.Details["differs"], tc.differs) || e.Details["name"] != "plan" ||
				e.Details["archivedRevision"] != a.Meta.Revision || e.Details["archivedSha256"] != a.Meta.SHA256 {
				t.Fatalf("%q %v %v", out, err, e.Details)
			}
			dshtest.SameTree(t, "target", before, dshtest.Tree(t, dst.dir))
		})
	}
}

func restore(t *testing.T, s *Store, a *SceneArchive) {
	t.Helper()
	if out, err := s.Restore(bg, a); err != nil || out != RestoreWritten {
		t.Fatalf("Restore: %q %v", out, err)
	}
}

// Files a scene deleted outside the store left behind under its name are
// not the archive's: Restore refuses to write over them.
func TestRestoreOverLeftoversOfAnotherSceneIsRefused(t *testing.T) {
	a := mustArchive(t, historyStore(t), "plan")
	for _, tc := range []struct {
		name     string
		leftover []string
		prepare  func(t *testing.T, dst *Store)
	}{
		{"a deleted scene", []string{"sidecar", "journal", "backups"}, func(t *testing.T, dst *Store) {
			mustCreate(t, dst, "plan", 1, "mine")
			mustSave(t, dst, "plan", 1, doc(1, "mine too"))
		}},
		{"its backups", []string{"backups"}, func(t *testing.T, dst *Store) {
			restore(t, dst, a)
			writeFile(t, backupPathOf(dst, "plan", 99), doc(1, "old"))
		}},
		{"its journal", []string{"journal"}, func(t *testing.T, dst *Store) {
			restore(t, dst, a)
			path := filepath.Join(dst.dir, metaDir, journalDir, journalFile("plan"))
			data := readFile(t, path)
			writeFile(t, path, data[:journalOffset(t, a, 2)])
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := emptyStore(t)
			tc.prepare(t, dst)
			if err := os.Remove(scenePathOf(dst, "plan")); err != nil {
				t.Fatal(err)
			}
			before := dshtest.Tree(t, dst.dir)
			_, err := dst.Restore(bg, a)
			if e := wantCode(t, err, CodeAlreadyExists); !reflect.DeepEqual(e.Details["leftover"], tc.leftover) {
				t.Fatalf("details %v", e.Details)
			}
			dshtest.SameTree(t, "target", before, dshtest.Tree(t, dst.dir))
		})
	}
	// An empty journal (any locked operation on a missing scene makes
	// one) holds nothing.
	dst := emptyStore(t)
	wantCode(t, err2(dst.Save(bg, SaveRequest{Name: "plan", ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent})), CodeNotFound)
	if info, err := os.Stat(filepath.Join(dst.dir, metaDir, journalDir, journalFile("plan"))); err != nil || info.Size() != 0 {
		t.Fatalf("no empty journal: %v", err)
	}
	restore(t, dst, a)
}

// journalOffset is where the frame of a's n-th commit ends in its journal.
func journalOffset(t *testing.T, a *SceneArchive, n int) int {
	t.Helper()
	end := 0
	for _, c := range a.Journal[:n] {
		f, err := journal.Encode(&c.Entry, c.Images)
		if err != nil {
			t.Fatal(err)
		}
		end += len(f)
	}
	return end
}

// An archive that a store could not hold as it is is refused before
// anything is written, inside the drawings directory or outside it.
func TestRestoreRefusesBadArchivesBeforeWriting(t *testing.T) {
	good := mustArchive(t, historyStore(t), "plan")
	edit := func(f func(a *SceneArchive)) *SceneArchive {
		a := *good
		a.Journal = slices.Clone(good.Journal)
		a.Requests = slices.Clone(good.Requests)
		a.Revisions = slices.Clone(good.Revisions)
		f(&a)
		return &a
	}
	named := func(name string) *SceneArchive { return edit(func(a *SceneArchive) { a.Meta.Name = name }) }
	for _, tc := range []struct {
		name string
		a    *SceneArchive
		code string
	}{
		{"no archive", nil, CodeInvalidRequest},
		{"empty name", named(""), CodeInvalidName},
		{"path name", named("../plan"), CodeInvalidName},
		{"slash name", named("a/b"), CodeInvalidName},
		{"upper name", named("Plan"), CodeInvalidName},
		{"dot name", named(".plan"), CodeInvalidName},
		{"not a document", edit(func(a *SceneArchive) { a.Data = []byte("garbage") }), CodeInvalidScene},
		{"other bytes", edit(func(a *SceneArchive) { a.Data = doc(4, "other") }), CodeInvalidRequest},
		{"other count", edit(func(a *SceneArchive) { a.Meta.ElementCount++ }), CodeInvalidRequest},
		{"revision 0", edit(func(a *SceneArchive) { a.Meta.Revision = 0 }), CodeInvalidRequest},
		{"unknown actor", edit(func(a *SceneArchive) { a.Meta.UpdatedBy = "robot" }), CodeInvalidRequest},
		{"bad previous sha", edit(func(a *SceneArchive) { a.Meta.PreviousSHA256 = "xyz" }), CodeInvalidRequest},
		{"repeated request", edit(func(a *SceneArchive) { a.Requests = append(a.Requests, a.Requests[0]) }), CodeInvalidRequest},
		{"too many requests", edit(func(a *SceneArchive) {
			for i := range MaxRecentRequests {
				a.Requests = append(a.Requests, RequestRecord{ID: fmt.Sprint("r", i), Revision: 1, SHA256: a.Meta.SHA256})
			}
		}), CodeInvalidRequest},
		{"commit of another scene", edit(func(a *SceneArchive) { a.Journal[0].Entry.Scene = "other" }), CodeInvalidRequest},
		{"commit after the revision", edit(func(a *SceneArchive) { a.Journal[0].Entry.Revision = a.Meta.Revision + 1 }), CodeInvalidRequest},
		{"commits out of order", edit(func(a *SceneArchive) { a.Journal[0], a.Journal[1] = a.Journal[1], a.Journal[0] }), CodeInvalidRequest},
		{"repeated commit id", edit(func(a *SceneArchive) { a.Journal[1].Entry.Commit = a.Journal[0].Entry.Commit }), CodeInvalidRequest},
		{"repeated revision", edit(func(a *SceneArchive) { a.Revisions = append(a.Revisions, a.Revisions[0]) }), CodeInvalidRequest},
		{"negative revision", edit(func(a *SceneArchive) { a.Revisions[0].Revision = -1 }), CodeInvalidRequest},
		{"revision too large", edit(func(a *SceneArchive) { a.Revisions[0].Data = make([]byte, 1<<20+1) }), CodeTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := emptyStore(t, func(o *Options) { o.MaxSceneBytes = 1 << 20 })
			parent := filepath.Dir(dst.dir)
			before := dshtest.Tree(t, parent)
			out, err := dst.Restore(bg, tc.a)
			if wantCode(t, err, tc.code); out != "" {
				t.Fatalf("outcome %q", out)
			}
			dshtest.SameTree(t, "drawings' parent", before, dshtest.Tree(t, parent))
		})
	}
}

// Restore works inside the drawings directory only: a symlink in place of
// the scene or a metadata directory is permission_denied, and what it
// points to is not touched.
func TestRestoreTouchesNothingOutside(t *testing.T) {
	a := mustArchive(t, historyStore(t), "plan")
	for _, tc := range []struct {
		name string
		link string // relative to the drawings directory; "" for none
		code string
	}{
		{"no symlink", "", ""},
		{"scene file", sceneFile("plan"), CodePermissionDenied},
		{"backups", filepath.Join(metaDir, backupsDir), CodePermissionDenied},
		{"journal", filepath.Join(metaDir, journalDir), CodePermissionDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := emptyStore(t)
			outside := t.TempDir()
			writeFile(t, filepath.Join(outside, sceneFile("plan")), doc(1, "victim"))
			if err := os.Mkdir(filepath.Join(outside, "dir"), 0o700); err != nil {
				t.Fatal(err)
			}
			if tc.link != "" {
				target := filepath.Join(outside, sceneFile("plan"))
				if tc.link != sceneFile("plan") {
					target = filepath.Join(outside, "dir")
					if err := os.Remove(filepath.Join(dst.dir, tc.link)); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.Symlink(target, filepath.Join(dst.dir, tc.link)); err != nil {
					t.Fatal(err)
				}
			}
			before := dshtest.Tree(t, outside)
			_, err := dst.Restore(bg, a)
			if tc.code == "" && err != nil {
				t.Fatal(err)
			} else if tc.code != "" {
				wantCode(t, err, tc.code)
			}
			dshtest.SameTree(t, "outside", before, dshtest.Tree(t, outside))
			for path := range dshtest.Tree(t, filepath.Dir(dst.dir)) {
				if path != "." && path != "drawings" && !strings.HasPrefix(path, "drawings"+string(filepath.Separator)) {
					t.Fatalf("wrote %s beside the drawings directory", path)
				}
			}
		})
	}
}

// A Restore that fails at any write removes what it created; one cut
// short (its removals failing too, as after a crash) leaves no scene, for
// this store and a fresh one, and a second Restore of the same archive
// completes it.
func TestRestoreCutShortLeavesNoScene(t *testing.T) {
	a := mustArchive(t, historyStore(t), "plan")
	stages := []string{journalFile("plan")}
	for _, r := range a.Revisions {
		stages = append(stages, backupFile("plan", r.Revision, !r.Corrupt))
	}
	stages = append(stages, sidecarFile("plan"), sceneFile("plan"), "verify")
	for _, crash := range []bool{false, true} {
		for _, stage := range stages {
			if crash && stage == "verify" {
				continue // a crash after the scene's rename leaves the whole scene
			}
			t.Run(fmt.Sprintf("%s/crash=%v", stage, crash), func(t *testing.T) {
				ff := newFaultFS()
				dst := emptyStore(t, func(o *Options) { o.FS = ff })
				before := dshtest.Tree(t, dst.dir)
				ff.set(func(op, path string) error {
					switch {
					case op == "rename" && filepath.Base(path) == stage:
						return fmt.Errorf("injected rename failure on %s: %w", path, errInjected)
					case crash && op == "remove" && filepath.Base(filepath.Dir(path)) != locksDir:
						return fmt.Errorf("injected remove failure on %s: %w", path, errInjected)
					}
					return nil
				})
				if stage == "verify" {
					ff.setRead(func(path string, data []byte) []byte {
						if filepath.Base(path) == sceneFile("plan") {
							return doc(1, "not what was written")
						}
						return data
					})
				}
				if _, err := dst.Restore(bg, a); CodeOf(err) != CodeIOError {
					t.Fatalf("Restore: %v", err)
				}
				ff.set(nil)
				ff.setRead(nil)
				if !crash {
					dshtest.SameTree(t, "target", before, dshtest.Tree(t, dst.dir))
				}
				fresh := emptyStore(t, func(o *Options) { o.Dir = dst.dir })
				for _, s := range []*Store{dst, fresh} {
					wantCode(t, err2(s.Read(bg, "plan")), CodeNotFound)
					wantCode(t, err2(s.Head(bg, "plan")), CodeNotFound)
					wantCode(t, err2(s.Save(bg, SaveRequest{Name: "plan", ExpectedRevision: a.Meta.Revision, Data: doc(1, "x"), Actor: ActorAgent})), CodeNotFound)
					if list, err := s.List(bg); err != nil || len(list) != 0 {
						t.Fatalf("list %+v %v", list, err)
					}
				}
				if _, err := os.Lstat(scenePathOf(dst, "plan")); !os.IsNotExist(err) {
					t.Fatalf("scene file left: %v", err)
				}
				restore(t, fresh, a)
				if again := mustArchive(t, fresh, "plan"); !reflect.DeepEqual(again, a) {
					t.Fatalf("archive after the second Restore differs")
				}
				noTemps(t, fresh)
			})
		}
	}
}

// Times are kept at the store's precision, so an archive whose times are
// finer (another backend's) is restored once and is then unchanged.
func TestRestoreOfFinerTimesIsStable(t *testing.T) {
	a := mustArchive(t, historyStore(t), "plan")
	a.Meta.UpdatedAt = a.Meta.UpdatedAt.Add(123456)
	a.Requests[0].At = a.Requests[0].At.Add(789)
	dst := emptyStore(t)
	restore(t, dst, a)
	if out, err := dst.Restore(bg, a); err != nil || out != RestoreUnchanged {
		t.Fatalf("Restore again: %q %v", out, err)
	}
	got := mustArchive(t, dst, "plan")
	if !got.Meta.UpdatedAt.Equal(a.Meta.UpdatedAt.Truncate(1e6)) {
		t.Fatalf("updatedAt %v, want %v", got.Meta.UpdatedAt, a.Meta.UpdatedAt)
	}
}

// An archive survives being encoded as JSON (how a migration may carry
// it): the restored scene is the source's.
func TestArchiveThroughJSON(t *testing.T) {
	src := historyStore(t)
	a := mustArchive(t, src, "plan")
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var b SceneArchive
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	dst := emptyStore(t)
	restore(t, dst, &b)
	if got, want := sceneFiles(t, dst, "plan"), sceneFiles(t, src, "plan"); !maps.Equal(got, want) {
		t.Fatal("restored files differ")
	}
}
