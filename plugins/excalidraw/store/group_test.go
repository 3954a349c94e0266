package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"testing"
)

// groupWrite is a GroupWrite by writer who, turning the scene into
// journalDoc(tag) (a Mutate that checks it sees the document the write
// before it left, want, when want is not empty).
func groupWrite(t *testing.T, who, tag, want string) GroupWrite {
	return GroupWrite{Actor: ActorAgent, Attribution: Attribution{Name: who, Via: "group-test", Note: "by " + who},
		Mutate: func(cur *Scene) ([]byte, error) {
			if want != "" && !bytes.Equal(cur.Data, journalDoc(want)) {
				t.Errorf("%s saw %s, want %s's document", who, cur.Data, want)
			}
			return journalDoc(tag), nil
		}}
}

// UpdateGroup: each write runs on what the one before left and gets a
// revision of its own, in order, with its own journal entry, which its
// Result names (writer, note, before-images of the step before it,
// chained revisions and sequence numbers); a failing write and one that changes nothing take
// no revision and leave the others alone; the file holds the last
// write's document, its sidecar names the revision before it; one
// journal fsync carries all the entries.
func TestUpdateGroupCommitsEachWriteAsItsRevision(t *testing.T) {
	ffs := newFaultFS()
	s := journalStore(t, func(o *Options) { o.FS = ffs })
	if _, err := s.Create(bg, CreateRequest{Name: "g", Data: journalDoc("v1"), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	syncs := map[string]int{}
	ffs.set(func(op, p string) error {
		if op == "sync" {
			mu.Lock()
			syncs[filepath.Base(p)]++
			mu.Unlock()
		}
		return nil
	})
	refused := errors.New("refused by its plan")
	ws := []GroupWrite{
		groupWrite(t, "ann", "v2", "v1"),
		{Actor: ActorAgent, Attribution: Attribution{Name: "bob"}, Mutate: func(*Scene) ([]byte, error) { return nil, refused }},
		groupWrite(t, "cy", "v3", "v2"),
		{Actor: ActorAgent, Attribution: Attribution{Name: "dee"}, Mutate: func(cur *Scene) ([]byte, error) { return cur.Data, nil }},
		groupWrite(t, "eve", "v4", "v3"),
	}
	out, err := s.UpdateGroup(bg, "g", ws)
	if err != nil {
		t.Fatal(err)
	}
	ffs.set(nil)
	mu.Lock()
	if n := syncs[journalFile("g")]; n != 1 {
		t.Errorf("the group's three entries took %d journal fsyncs, want 1 (all fsyncs: %v)", n, syncs)
	}
	mu.Unlock()
	if !errors.Is(out[1].Err, refused) || out[1].Result != nil {
		t.Fatalf("bob's write: %+v", out[1])
	}
	if r := out[3].Result; out[3].Err != nil || r == nil || !r.Unchanged || r.Revision != 3 || r.SHA256 != sha256Hex(journalDoc("v3")) {
		t.Fatalf("dee's unchanged write answers %+v %v, want revision 3 as cy left it", r, out[3].Err)
	}
	for i, want := range map[int]struct {
		rev int64
		tag string
	}{0: {2, "v2"}, 2: {3, "v3"}, 4: {4, "v4"}} {
		r := out[i].Result
		if out[i].Err != nil || r == nil || r.Unchanged || r.Revision != want.rev || r.SHA256 != sha256Hex(journalDoc(want.tag)) ||
			r.PreviousRevision != want.rev-1 || r.ByteLength != int64(len(journalDoc(want.tag))) {
			t.Fatalf("write %d: %+v %v, want revision %d of %s", i, r, out[i].Err, want.rev, want.tag)
		}
	}
	if out[2].Result.PreviousSHA256 != out[0].Result.SHA256 {
		t.Fatalf("cy's previous hash %s is not ann's %s", out[2].Result.PreviousSHA256, out[0].Result.SHA256)
	}
	sc, err := s.Read(bg, "g")
	if err != nil || sc.Revision != 4 || !bytes.Equal(sc.Data, journalDoc("v4")) || sc.PreviousRevision != 3 ||
		sc.PreviousSHA256 != sha256Hex(journalDoc("v3")) || sc.UpdatedByName != "eve" {
		t.Fatalf("read after the group: %+v %v", sc, err)
	}
	page, err := s.Log(bg, LogQuery{Name: "g"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 4 {
		t.Fatalf("log has %d entries, want 4: %+v", len(page.Entries), page.Entries)
	}
	for k, want := range []struct {
		rev        int64
		name, prev string
	}{{4, "eve", "v3"}, {3, "cy", "v2"}, {2, "ann", "v1"}} {
		e := page.Entries[k]
		if e.Revision != want.rev || e.PreviousRevision != want.rev-1 || e.Seq != want.rev || e.Name != want.name ||
			e.Note != "by "+want.name || e.Via != "group-test" || e.SHA256 != sha256Hex(journalDoc("v"+string(rune('0'+want.rev)))) {
			t.Fatalf("entry %d: %+v", k, e)
		}
		if c := out[2*(3-k)-2].Result.Commit; c != e.Commit {
			t.Fatalf("revision %d's result names commit %q, its entry is %q", want.rev, c, e.Commit)
		}
		_, im, err := s.Commit(bg, "g", e.Commit)
		if err != nil {
			t.Fatal(err)
		}
		base, ok := im.BeforeOf("base")
		var el struct{ Tag string }
		if !ok || json.Unmarshal(base.Element, &el) != nil || el.Tag != want.prev {
			t.Fatalf("revision %d's before-image of base is %s, want %s's", want.rev, base.Element, want.prev)
		}
	}
	if page.Entries[0].Commit <= page.Entries[1].Commit || page.Entries[1].Commit <= page.Entries[2].Commit {
		t.Fatalf("commit ids out of order: %s %s %s", page.Entries[0].Commit, page.Entries[1].Commit, page.Entries[2].Commit)
	}
	// The next write, alone, goes on from the group's last revision.
	if res := updateWithDoc(t, s, "g", "v5"); res.Revision != 5 || res.PreviousRevision != 4 {
		t.Fatalf("the write after the group: %+v", res)
	}
}

// A group whose last write brings back the very bytes the group started
// from still commits every write: each changed the scene.
func TestUpdateGroupThatEndsWhereItBegan(t *testing.T) {
	s := journalStore(t)
	if _, err := s.Create(bg, CreateRequest{Name: "g", Data: journalDoc("v1"), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
	out, err := s.UpdateGroup(bg, "g", []GroupWrite{groupWrite(t, "ann", "v2", "v1"), groupWrite(t, "bob", "v1", "v2")})
	if err != nil || out[0].Err != nil || out[1].Err != nil {
		t.Fatalf("group: %+v %v", out, err)
	}
	if out[0].Result.Revision != 2 || out[1].Result.Revision != 3 || out[1].Result.Unchanged {
		t.Fatalf("revisions %+v and %+v, want 2 and 3", out[0].Result.Meta, out[1].Result.Meta)
	}
	sc, err := s.Read(bg, "g")
	if err != nil || sc.Revision != 3 || !bytes.Equal(sc.Data, journalDoc("v1")) {
		t.Fatalf("read: %+v %v", sc, err)
	}
	if page, err := s.Log(bg, LogQuery{Name: "g"}); err != nil || len(page.Entries) != 3 || page.Entries[0].Revision != 3 {
		t.Fatalf("log: %+v %v", page, err)
	}
}

// A group of writes that all fail or change nothing commits nothing.
func TestUpdateGroupWithNothingToCommit(t *testing.T) {
	s := journalStore(t)
	if _, err := s.Create(bg, CreateRequest{Name: "g", Data: journalDoc("v1"), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
	out, err := s.UpdateGroup(bg, "g", []GroupWrite{
		{Actor: ActorAgent, Mutate: func(cur *Scene) ([]byte, error) { return cur.Data, nil }},
		{Actor: ActorAgent},
		{Actor: ActorAgent, Mutate: func(*Scene) ([]byte, error) { return []byte("not a scene"), nil }},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !out[0].Result.Unchanged || out[1].Err == nil || out[2].Err == nil {
		t.Fatalf("results: %+v", out)
	}
	if h, err := s.Head(bg, "g"); err != nil || h.Revision != 1 {
		t.Fatalf("head %+v %v", h, err)
	}
	if _, err := s.UpdateGroup(bg, "missing", []GroupWrite{groupWrite(t, "ann", "v2", "")}); err == nil {
		t.Fatal("a group on a missing scene committed")
	}
}

// After a power loss in a group's commit: if the file's rename was lost,
// the next load discards every entry of the group (none of its revisions
// reached a file); if only the sidecar's was, it rolls forward through
// all of them to the last, kept as its writer's, not recovery's.
func TestUpdateGroupRecovers(t *testing.T) {
	for _, lost := range []string{"file", "sidecar"} {
		t.Run(lost, func(t *testing.T) {
			s := journalStore(t)
			if _, err := s.Create(bg, CreateRequest{Name: "g", Data: journalDoc("v1"), Actor: ActorAgent}); err != nil {
				t.Fatal(err)
			}
			file, side := readFile(t, scenePathOf(s, "g")), readFile(t, sidecarPathOf(s, "g"))
			out, err := s.UpdateGroup(bg, "g", []GroupWrite{
				groupWrite(t, "ann", "v2", ""), groupWrite(t, "bob", "v3", ""), groupWrite(t, "cy", "v4", "")})
			if err != nil || out[2].Result == nil || out[2].Result.Revision != 4 {
				t.Fatalf("group: %+v %v", out, err)
			}
			s.Close()
			writeFile(t, sidecarPathOf(s, "g"), side)
			if lost == "file" {
				writeFile(t, scenePathOf(s, "g"), file)
			}
			s2, err := Open(Options{Dir: s.dir, Codec: journalCodec{}})
			if err != nil {
				t.Fatal(err)
			}
			defer s2.Close()
			sc, err := s2.Read(bg, "g")
			if err != nil {
				t.Fatal(err)
			}
			want, tag, by := int64(4), "v4", "cy"
			if lost == "file" {
				want, tag, by = 1, "v1", ""
			}
			if sc.Revision != want || !bytes.Equal(sc.Data, journalDoc(tag)) || sc.UpdatedBy != ActorAgent || sc.UpdatedByName != by {
				t.Fatalf("after losing the %s's rename: %+v", lost, sc.Meta)
			}
			// A write (which cleans the journal up) goes on from there.
			res := updateWithDoc(t, s2, "g", "next")
			page, err := s2.Log(bg, LogQuery{Name: "g"})
			if err != nil {
				t.Fatal(err)
			}
			var revs []int64
			for _, e := range page.Entries {
				revs = append(revs, e.Revision)
			}
			if res.Revision != want+1 || len(revs) != int(want+1) || revs[0] != want+1 || revs[len(revs)-1] != 1 {
				t.Fatalf("after losing the %s's rename and one more write (revision %d): log revisions %v", lost, res.Revision, revs)
			}
		})
	}
}
