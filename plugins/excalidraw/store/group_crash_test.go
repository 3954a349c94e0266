package store

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// groupWriters is how many goroutines of the groupwriters helper commit
// groups to scene "gw" at once.
const groupWriters = 2

// helperGroupWriters runs groupWriters goroutines that each commit, in a
// loop, groups of 1-4 writes to scene "gw" (UpdateGroup), write k of a
// group turning the scene into journalDoc of its tag
// r<round>-g<goroutine>-<n>-<k> with the tag as its note, and prints a
// journalAck line (the tag as its request id) for each write as soon as
// its group returns. It prints "ready" first and runs until killed.
func helperGroupWriters(s *Store, round string) int {
	var mu sync.Mutex
	emit := func(a journalAck) {
		line, _ := json.Marshal(a)
		mu.Lock()
		defer mu.Unlock()
		os.Stdout.Write(append(line, '\n'))
	}
	fmt.Println("ready")
	for g := range groupWriters {
		go func() {
			for n := 0; ; n++ {
				ws := make([]GroupWrite, 1+n%4)
				tags := make([]string, len(ws))
				for k := range ws {
					tag := fmt.Sprintf("r%s-g%d-%d-%d", round, g, n, k)
					tags[k] = tag
					ws[k] = GroupWrite{Actor: ActorAgent, Attribution: Attribution{Via: "group-crash-test", Note: tag},
						Mutate: func(*Scene) ([]byte, error) { return journalDoc(tag), nil }}
				}
				out, err := s.UpdateGroup(context.Background(), "gw", ws)
				for k, o := range out {
					switch {
					case err != nil || o.Err != nil:
						emit(journalAck{Scene: "gw", RequestID: tags[k], Error: fmt.Sprint(err, o.Err)})
						return
					case o.Result.Unchanged:
						emit(journalAck{Scene: "gw", RequestID: tags[k], Error: "unchanged"})
						return
					}
					emit(journalAck{Scene: "gw", Revision: o.Result.Revision, SHA256: o.Result.SHA256, RequestID: tags[k]})
				}
			}
		}()
	}
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// kill -9 at random points while groups of writes commit (a helper
// process, many rounds on one directory): afterwards the scene reads at a
// revision its writers made (rolled forward if the kill came between the
// file's rename and the sidecar's, never recovery's), and its journal is
// exactly one entry per revision from the current one down to 1, chained
// (previous revision, sequence), each the write its note names (its
// document's hash, the before-image of "base" the write before it's);
// the newest entry describes the file; every acknowledged write has its
// entry at its revision, and earlier rounds' entries are unchanged. So a
// group's entries are all kept when its file was renamed and all
// discarded when it was not, and no acknowledged write is lost.
func TestGroupCommitSurvivesKillNine(t *testing.T) {
	rounds := 16
	if testing.Short() {
		rounds = 4
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x67726f7570))
	dir := filepath.Join(t.TempDir(), "drawings")
	s, _ := openCrashStore(t, dir)
	res, err := s.Create(bg, CreateRequest{Name: "gw", Data: journalDoc("init"), Actor: ActorAgent,
		Attribution: Attribution{Note: "init"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	acked := map[int64]journalAck{res.Revision: {Scene: "gw", Revision: res.Revision, SHA256: res.SHA256, RequestID: "init"}}
	kept := map[int64]string{} // revision → commit id of entries a round has seen
	var total int
	for round := range rounds {
		acks := runKilled(t, "groupwriters", dir, round, time.Duration(5+rng.IntN(150))*time.Millisecond)
		for _, a := range acks {
			if a.Error != "" {
				t.Fatalf("round %d: write %s failed: %s", round, a.RequestID, a.Error)
			}
			if a.SHA256 != sha256Hex(journalDoc(a.RequestID)) {
				t.Fatalf("round %d: write %s acknowledged another document's hash", round, a.RequestID)
			}
			if prev, dup := acked[a.Revision]; dup {
				t.Fatalf("round %d: revision %d acknowledged to %s and %s", round, a.Revision, prev.RequestID, a.RequestID)
			}
			acked[a.Revision] = a
		}
		total += len(acks)
		s, _ := openCrashStore(t, dir)
		sc, err := s.Read(bg, "gw")
		if err != nil {
			t.Fatalf("round %d: read: %v", round, err)
		}
		if sc.UpdatedBy != ActorAgent {
			t.Fatalf("round %d: the scene reads as %s's revision %d", round, sc.UpdatedBy, sc.Revision)
		}
		entries := allEntries(t, s, LogQuery{Name: "gw"})
		if len(entries) != int(sc.Revision) {
			t.Fatalf("round %d: %d journal entries at revision %d", round, len(entries), sc.Revision)
		}
		for i, e := range entries { // newest first
			rev := sc.Revision - int64(i)
			if e.Revision != rev || e.PreviousRevision != rev-1 || e.Seq != rev || e.SHA256 != sha256Hex(journalDoc(e.Note)) {
				t.Fatalf("round %d: entry %d: %+v", round, i, e)
			}
			if a, ok := acked[rev]; ok && a.RequestID != e.Note {
				t.Fatalf("round %d: revision %d was acknowledged to %s, its entry is %s's", round, rev, a.RequestID, e.Note)
			}
			if id, ok := kept[rev]; ok && id != e.Commit {
				t.Fatalf("round %d: revision %d's entry changed from commit %s to %s", round, rev, id, e.Commit)
			}
			kept[rev] = e.Commit
			if i+1 < len(entries) && (i < 6 || rng.IntN(8) == 0) {
				_, im, err := s.Commit(bg, "gw", e.Commit)
				if err != nil {
					t.Fatal(err)
				}
				base, ok := im.BeforeOf("base")
				var el struct{ Tag string }
				if !ok || json.Unmarshal(base.Element, &el) != nil || el.Tag != entries[i+1].Note {
					t.Fatalf("round %d: revision %d's before-image of base is %s, want %s's", round, rev, base.Element, entries[i+1].Note)
				}
			}
		}
		if entries[0].SHA256 != sc.SHA256 {
			t.Fatalf("round %d: the newest entry (revision %d) does not describe the file", round, entries[0].Revision)
		}
		for rev := range acked {
			if rev > sc.Revision {
				t.Fatalf("round %d: acknowledged revision %d is above the scene's %d", round, rev, sc.Revision)
			}
		}
		for rev := range kept {
			if rev > sc.Revision {
				t.Fatalf("round %d: revision %d, read in an earlier round, is gone (the scene is at %d)", round, rev, sc.Revision)
			}
		}
		s.Close()
		t.Logf("round %d: %d writes acknowledged; the scene at revision %d", round, len(acks), sc.Revision)
	}
	if total == 0 {
		t.Fatal("no write was ever acknowledged: the test tested nothing")
	}
}
