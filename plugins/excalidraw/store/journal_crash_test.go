package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// These tests are about the commit journal surviving crashes: a writer
// killed with SIGKILL at any point of a commit leaves a journal that, once
// the scene is next loaded under its lock, has exactly one entry per
// revision the scene went through, and none for a write that never reached
// the file.

// journalCodec is jsonCodec with a Differ: elements are told apart by
// "id", so entries written with it name the elements a commit changed and
// keep their before-images.
type journalCodec struct{ jsonCodec }

func (journalCodec) Diff(before, after []byte) (journal.Changes, error) {
	var c journal.Changes
	b, err := elementsByID(before)
	if err != nil {
		return c, err
	}
	a, err := elementsByID(after)
	if err != nil {
		return c, err
	}
	var affected []string
	for _, id := range a.ids {
		if old, ok := b.byID[id]; !ok {
			c.Created = append(c.Created, id)
			affected = append(affected, id)
		} else if !bytes.Equal(old, a.byID[id]) {
			c.Updated = append(c.Updated, id)
			affected = append(affected, id)
		}
	}
	for _, id := range b.ids {
		if _, ok := a.byID[id]; !ok {
			c.Deleted = append(c.Deleted, id)
			affected = append(affected, id)
		}
	}
	for _, id := range affected {
		img := journal.Image{ID: id, Element: json.RawMessage("null")}
		if old, ok := b.byID[id]; ok {
			img.Element = old
		}
		c.Images.Before = append(c.Images.Before, img)
		st := journal.State{ID: id, Absent: true}
		if now, ok := a.byID[id]; ok {
			st = journal.State{ID: id, Hash: journal.Fingerprint(now)}
		}
		c.Images.After = append(c.Images.After, st)
	}
	return c, nil
}

type elementSet struct {
	ids  []string
	byID map[string]json.RawMessage
}

func elementsByID(data []byte) (elementSet, error) {
	set := elementSet{byID: map[string]json.RawMessage{}}
	if data == nil {
		return set, nil
	}
	var d struct {
		Elements []json.RawMessage `json:"elements"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return set, err
	}
	for _, raw := range d.Elements {
		var el struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(raw, &el); err != nil {
			return set, err
		}
		set.ids = append(set.ids, el.ID)
		set.byID[el.ID] = raw
	}
	return set, nil
}

// journalDoc is the document a write with request id req writes: element
// "base", tagged with req (updated by every write), and an element whose
// id is req (created by it, deleted by the next). So its bytes, and the
// entry it gets, follow from the request id alone.
func journalDoc(req string) []byte {
	return fmt.Appendf(nil, `{"type":"excalidraw","elements":[{"id":"base","tag":%q},{"id":%q}]}`+"\n", req, req)
}

// The crash test's scenes and writers: writer w commits to
// journalScenes[w%len(journalScenes)].
var journalScenes = []string{"j0", "j1"}

const journalWriters = 8

// journalAck is a commit the journalwriters helper was told succeeded
// (or, with Error, a write that failed: the test fails on it).
type journalAck struct {
	Scene     string `json:"scene"`
	Revision  int64  `json:"revision"`
	SHA256    string `json:"sha256"`
	RequestID string `json:"requestId"`
	Error     string `json:"error,omitempty"`
}

// helperJournalWriters runs journalWriters goroutines that Update their
// scene (any revision) in a loop with request ids r<round>-w<writer>-<n>,
// n from 0, each writing journalDoc of its request id, and prints a
// journalAck line as soon as each call returns. It prints "ready" first and
// runs until killed (or its stdin is closed).
func helperJournalWriters(s *Store, round string) int {
	var mu sync.Mutex
	emit := func(a journalAck) {
		line, _ := json.Marshal(a)
		mu.Lock()
		defer mu.Unlock()
		os.Stdout.Write(append(line, '\n')) // one write: a line is whole or absent
	}
	fmt.Println("ready")
	for w := range journalWriters {
		scene := journalScenes[w%len(journalScenes)]
		go func() {
			for n := 0; ; n++ {
				req := fmt.Sprintf("r%s-w%d-%d", round, w, n)
				res, err := s.Update(context.Background(), UpdateRequest{Name: scene, AnyRevision: true,
					Actor: ActorAgent, RequestID: req, Attribution: Attribution{Via: "crash-test"},
					Mutate: func(*Scene) ([]byte, error) { return journalDoc(req), nil }})
				switch {
				case err != nil:
					emit(journalAck{Scene: scene, RequestID: req, Error: err.Error()})
					return
				case res.Unchanged || res.Duplicate:
					emit(journalAck{Scene: scene, RequestID: req, Error: fmt.Sprintf("unexpected result %+v", res)})
					return
				}
				emit(journalAck{Scene: scene, Revision: res.Revision, SHA256: res.SHA256, RequestID: req})
			}
		}()
	}
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// crashHistory is what the crash test knows across rounds.
type crashHistory struct {
	// acked are the acknowledged commits by scene and revision.
	acked map[string]map[int64]journalAck
	// acks counts each round's writer's acknowledgements ("r-w").
	acks map[string]int
	// seen are each scene's journal entries as the last round read them,
	// oldest first: history that later rounds must keep unchanged.
	seen map[string][]journal.Entry
}

func (h *crashHistory) ack(t *testing.T, a journalAck) {
	t.Helper()
	if a.Error != "" {
		t.Fatalf("write %s of %s failed: %s", a.RequestID, a.Scene, a.Error)
	}
	if a.SHA256 != sha256Hex(journalDoc(a.RequestID)) {
		t.Fatalf("write %s acknowledged sha256 %s, not its document's", a.RequestID, a.SHA256)
	}
	if prev, ok := h.acked[a.Scene][a.Revision]; ok {
		t.Fatalf("revision %d of %s acknowledged twice: %s and %s", a.Revision, a.Scene, prev.RequestID, a.RequestID)
	}
	if h.acked[a.Scene] == nil {
		h.acked[a.Scene] = map[int64]journalAck{}
	}
	h.acked[a.Scene][a.Revision] = a
	if round, w, n, ok := parseWriterRequest(a.RequestID); ok {
		key := fmt.Sprint(round, "-", w)
		if n != h.acks[key] {
			t.Fatalf("writer %s acknowledged write %d after %d others", key, n, h.acks[key])
		}
		h.acks[key]++
	}
}

// parseWriterRequest splits a helper's request id r<round>-w<writer>-<n>.
func parseWriterRequest(req string) (round, w, n int, ok bool) {
	_, err := fmt.Sscanf(req, "r%d-w%d-%d", &round, &w, &n)
	return round, w, n, err == nil && req == fmt.Sprintf("r%d-w%d-%d", round, w, n)
}

// crashStats counts the states the kills left, to show what was exercised.
type crashStats struct {
	acks, rollForward, above, torn, discarded, cut, unacked int
}

// kill -9 at random points while 8 writers commit (a helper process, many
// rounds on the same directory): afterwards every acknowledged revision
// has its journal entry, no entry exists for an unacknowledged write that
// did not reach the file, and every scene and journal reads back.
//
// Each round starts the journalwriters helper, kills it with SIGKILL after
// a random 1-80 ms, and then, in this process, with a fresh store:
//
//   - Log (lock-free, before any repair) shows the sidecar's revision as
//     its newest entry, whatever the kill left past it;
//   - Read succeeds (rolling forward a commit killed between its two
//     renames) at a revision written by an agent, never by recovery;
//   - Log, page by page, lists exactly one entry per revision from the
//     current one down to 1, chained (previous revision, seq, the element
//     the previous write created deleted); each entry is the write its
//     request id names, with that document's hash, and that hash is what
//     the scene file (current revision) or the backup of its revision
//     (earlier ones) holds, so no entry is of a write that did not reach
//     the file; every acknowledged commit is there with its hash and
//     request id; an entry nobody acknowledged is of the write its writer
//     had in flight when it was killed; earlier rounds' entries are all
//     still there, unchanged;
//   - Commit reads back a sample of entries, with before-images that are
//     the previous revision's elements;
//   - on two rounds in three and the last, one more Update per scene: the
//     journal file then has no torn tail and no entry above the sidecar
//     (journal.Scan ends at its size, one frame per revision). On the
//     others, the next helper's first writes have to clean up after the
//     kill.
//
// DSH_JOURNAL_CRASH_SEED replays a seed (logged at the start).
func TestJournalSurvivesKillNineDuringConcurrentCommits(t *testing.T) {
	rounds := 30
	if testing.Short() {
		rounds = 6
	}
	seed := time.Now().UnixNano()
	if v := os.Getenv("DSH_JOURNAL_CRASH_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseInt(v, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("seed %d (DSH_JOURNAL_CRASH_SEED=%d replays it)", seed, seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6a6f75726e616c))

	dir := filepath.Join(t.TempDir(), "drawings")
	hist := &crashHistory{acked: map[string]map[int64]journalAck{}, acks: map[string]int{}, seen: map[string][]journal.Entry{}}
	s, _ := openCrashStore(t, dir)
	for _, name := range journalScenes {
		req := "init-" + name
		res, err := s.Create(bg, CreateRequest{Name: name, Data: journalDoc(req), Actor: ActorAgent, RequestID: req})
		if err != nil {
			t.Fatal(err)
		}
		hist.ack(t, journalAck{Scene: name, Revision: res.Revision, SHA256: res.SHA256, RequestID: req})
	}
	s.Close()

	var total crashStats
	start := time.Now()
	for round := range rounds {
		delay := time.Duration(1+rng.IntN(80)) * time.Millisecond
		acks := runJournalWriters(t, dir, round, delay)
		for _, a := range acks {
			hist.ack(t, a)
		}
		st := checkCrashRound(t, dir, round, hist, rng, round%3 != 2 || round == rounds-1)
		st.acks = len(acks)
		t.Logf("round %d: killed after %v: %d acknowledged; to roll forward %d, to discard %d, torn tails %d; cleaned up: discarded %d, cut %d; new unacknowledged entries %d",
			round, delay, st.acks, st.rollForward, st.above, st.torn, st.discarded, st.cut, st.unacked)
		total.acks += st.acks
		total.rollForward += st.rollForward
		total.above += st.above
		total.torn += st.torn
		total.discarded += st.discarded
		total.cut += st.cut
		total.unacked += st.unacked
	}
	t.Logf("%d rounds in %v: %d acknowledged commits (and %d committed but not acknowledged); kills left %d commits to roll forward, %d entries to discard, %d torn tails",
		rounds, time.Since(start).Round(time.Millisecond), total.acks, total.unacked, total.rollForward, total.above, total.torn)
	if total.acks == 0 {
		t.Fatal("no write was ever acknowledged: the test tested nothing")
	}
}

// openCrashStore opens a store on dir as the helper does, logging to an
// observer.
func openCrashStore(t *testing.T, dir string) (*Store, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zapcore.InfoLevel)
	s, err := Open(Options{Dir: dir, Codec: journalCodec{}, KeepBackups: -1, Logger: zap.New(core),
		LockTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, logs
}

// runJournalWriters runs the journalwriters helper for one round: it waits
// for "ready", lets it write for delay, kills it with SIGKILL and returns
// the commits it acknowledged (only whole lines: a line is written at
// once, so the kill can only leave lines out).
func runJournalWriters(t *testing.T, dir string, round int, delay time.Duration) []journalAck {
	t.Helper()
	return runKilled(t, "journalwriters", dir, round, delay)
}

// runKilled runs a helper that prints "ready" and then journalAck lines
// (journalwriters, groupwriters) for one round, kills it with SIGKILL
// after delay and returns the whole lines it printed.
func runKilled(t *testing.T, mode, dir string, round int, delay time.Duration) []journalAck {
	t.Helper()
	h := startHelper(t, mode, dir, "", strconv.Itoa(round))
	h.expect(t, "ready")
	time.Sleep(delay)
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(h.out) // all of it before Wait, which closes the pipe
	if err != nil {
		t.Fatal(err)
	}
	h.cmd.Wait()
	if ws, ok := h.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("helper was not killed but ended: %v", h.cmd.ProcessState)
	}
	lines := bytes.Split(rest, []byte("\n"))
	lines = lines[:len(lines)-1] // after the last newline: empty, or a line the kill cut short
	acks := make([]journalAck, 0, len(lines))
	for _, line := range lines {
		var a journalAck
		if err := json.Unmarshal(line, &a); err != nil {
			t.Fatalf("helper line %q: %v", line, err)
		}
		acks = append(acks, a)
	}
	return acks
}

// checkCrashRound checks every scene after a round's kill (see the test's
// comment) and, if write, commits one more revision of each.
func checkCrashRound(t *testing.T, dir string, round int, hist *crashHistory, rng *rand.Rand, write bool) crashStats {
	t.Helper()
	var st crashStats
	// What the kill left, as found on disk before anything repairs it.
	for _, name := range journalScenes {
		side, err := parseSidecar(name, readFile(t, filepath.Join(dir, metaDir, sidecarFile(name))))
		if err != nil {
			t.Fatalf("round %d: sidecar of %s: %v", round, name, err)
		}
		moved := sha256Hex(readFile(t, filepath.Join(dir, sceneFile(name)))) != side.SHA256
		if moved {
			st.rollForward++
		}
		frames, valid, size := scanJournalFile(t, dir, name)
		if valid != size {
			st.torn++
		}
		if n := len(frames); n > 0 && frames[n-1].Entry.Revision > side.Revision && !moved {
			st.above++
		}
	}

	s, logs := openCrashStore(t, dir)
	defer s.Close()
	for _, name := range journalScenes {
		// Lock-free, before any repair: the newest entry shown is the
		// sidecar's revision.
		pre, head := walkLogPages(t, s, name, 200)
		if side := readSidecarFile(t, s, name); head != side.Revision || len(pre) == 0 || pre[0].Revision != head {
			t.Fatalf("round %d: %s: before repair, Log at revision %d (sidecar %d) shows newest %v",
				round, name, head, side.Revision, revisionsOf(pre[:min(len(pre), 1)]))
		}

		sc, err := s.Read(bg, name)
		if err != nil {
			t.Fatalf("round %d: read %s: %v", round, name, err)
		}
		if sc.UpdatedBy != ActorAgent || sc.SHA256 != sha256Hex(sc.Data) || sc.ByteLength != int64(len(sc.Data)) {
			t.Fatalf("round %d: read %s: %+v", round, name, sc.Meta)
		}

		limit := 1 + rng.IntN(MaxLogLimit)
		entries, head := walkLogPages(t, s, name, limit)
		if head != sc.Revision {
			t.Fatalf("round %d: %s: Log read at revision %d, Read says %d", round, name, head, sc.Revision)
		}
		st.unacked += checkCrashEntries(t, round, dir, name, sc, entries, hist)
		checkRecentRequests(t, round, readSidecarFile(t, s, name), entries)
		checkCommits(t, s, round, name, entries, rng)
		hist.seen[name] = reversedCopy(entries)
	}

	if write {
		for _, name := range journalScenes {
			req := fmt.Sprintf("t%d-%s", round, name)
			res, err := s.Update(bg, UpdateRequest{Name: name, AnyRevision: true, Actor: ActorAgent, RequestID: req,
				Mutate: func(*Scene) ([]byte, error) { return journalDoc(req), nil }})
			if err != nil {
				t.Fatalf("round %d: update %s: %v", round, name, err)
			}
			hist.ack(t, journalAck{Scene: name, Revision: res.Revision, SHA256: res.SHA256, RequestID: req})
			frames, valid, size := scanJournalFile(t, dir, name)
			if valid != size {
				t.Fatalf("round %d: %s: after a write the journal still has a torn tail: valid to %d of %d bytes",
					round, name, valid, size)
			}
			if got := revisionsOf(frames); !slices.Equal(got, revisionsUpTo(res.Revision)) {
				t.Fatalf("round %d: %s: after writing revision %d the journal holds revisions %v", round, name, res.Revision, got)
			}
			if last := frames[len(frames)-1].Entry; last.RequestID != req || last.SHA256 != res.SHA256 {
				t.Fatalf("round %d: %s: newest entry %+v, want the write %s", round, name, last, req)
			}
		}
	}

	for _, e := range logs.All() {
		switch {
		case strings.HasPrefix(e.Message, "completed an interrupted commit"):
		case strings.HasPrefix(e.Message, "discarding journal entry"):
			st.discarded++
		case strings.HasPrefix(e.Message, "journal has a torn tail"):
			st.cut++
		case strings.HasPrefix(e.Message, "removing leftover temp file"),
			strings.HasPrefix(e.Message, "reclaimed stale scene lock"):
		default:
			t.Errorf("round %d: unexpected log %s: %q %v", round, e.Level, e.Message, e.ContextMap())
		}
	}
	return st
}

// checkCrashEntries checks a scene's entries, newest first, as Log listed
// them after Read returned sc. It returns how many of the entries new
// since the last round nobody acknowledged.
func checkCrashEntries(t *testing.T, round int, dir, name string, sc *Scene, entries []journal.Entry, hist *crashHistory) (unacked int) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("round %d: %s: "+format, append([]any{round, name}, args...)...)
	}
	if got := revisionsOf(entries); !slices.Equal(got, reversedCopy(revisionsUpTo(sc.Revision))) {
		fail("revision %d, but Log lists revisions %v", sc.Revision, got)
	}
	if entries[0].SHA256 != sc.SHA256 {
		fail("newest entry has sha256 %s, the scene %s", entries[0].SHA256, sc.SHA256)
	}
	requests := map[string]int64{}
	for i, e := range entries {
		data := journalDoc(e.RequestID)
		switch {
		case e.Scene != name || e.Seq != e.Revision || e.PreviousRevision != e.Revision-1:
			fail("entry %+v does not follow on from revision %d", e, e.Revision-1)
		case e.Actor != string(ActorAgent) || e.RequestID == "":
			fail("entry of revision %d is not an agent's write: %+v", e.Revision, e)
		case e.SHA256 != sha256Hex(data) || e.ByteLength != int64(len(data)) || e.ElementCount != 2:
			fail("entry of revision %d does not describe write %s's document: %+v", e.Revision, e.RequestID, e)
		case e.Images != journal.ImagesStored:
			fail("entry of revision %d kept no images: %+v", e.Revision, e)
		}
		if prev, dup := requests[e.RequestID]; dup {
			fail("write %s has entries at revisions %d and %d", e.RequestID, prev, e.Revision)
		}
		requests[e.RequestID] = e.Revision
		if i+1 < len(entries) {
			before := entries[i+1].RequestID
			if !slices.Equal(e.Created, []string{e.RequestID}) || !slices.Equal(e.Updated, []string{"base"}) ||
				!slices.Equal(e.Deleted, []string{before}) {
				fail("entry of revision %d: created %v updated %v deleted %v, want [%s] [base] [%s]",
					e.Revision, e.Created, e.Updated, e.Deleted, e.RequestID, before)
			}
		}

		// The entry's bytes were on disk as its revision: the scene file
		// for the current one, the backup of its revision for the others
		// (every backup is kept).
		path := filepath.Join(dir, sceneFile(name))
		if e.Revision != sc.Revision {
			path = filepath.Join(dir, metaDir, backupsDir, backupFile(name, e.Revision, true))
		}
		if got := sha256Hex(readFile(t, path)); got != e.SHA256 {
			fail("entry of revision %d has sha256 %s, but %s has %s", e.Revision, e.SHA256, path, got)
		}

		if a, ok := hist.acked[name][e.Revision]; ok {
			if a.RequestID != e.RequestID || a.SHA256 != e.SHA256 {
				fail("revision %d was acknowledged to %s with %s, but its entry is %s with %s",
					e.Revision, a.RequestID, a.SHA256, e.RequestID, e.SHA256)
			}
			continue
		}
		// Not acknowledged: the write its writer had in flight when the
		// helper was killed (it then got as far as the file).
		r, w, n, ok := parseWriterRequest(e.RequestID)
		if !ok || journalScenes[w%len(journalScenes)] != name || w >= journalWriters {
			fail("entry of revision %d is of write %q, which nobody acknowledged", e.Revision, e.RequestID)
		}
		if acked := hist.acks[fmt.Sprint(r, "-", w)]; n != acked {
			fail("entry of revision %d is of write %s, but that writer had %d writes acknowledged", e.Revision, e.RequestID, acked)
		}
		if e.Revision > int64(len(hist.seen[name])) {
			unacked++
		}
	}
	for rev, a := range hist.acked[name] {
		if rev > sc.Revision {
			fail("acknowledged revision %d (%s) is above the scene's %d", rev, a.RequestID, sc.Revision)
		}
	}
	// History already read stays as it was.
	now := reversedCopy(entries)
	for i, old := range hist.seen[name] {
		if i >= len(now) || !reflect.DeepEqual(old, now[i]) {
			fail("entry of revision %d changed since the last round:\n%+v\nnow\n%+v", old.Revision, old, now[min(i, len(now)-1)])
		}
	}
	return unacked
}

// checkRecentRequests checks that the sidecar remembers the request ids
// of the newest entries (newest first), acknowledged or rolled forward,
// and no others: a retry of any of them is a duplicate.
func checkRecentRequests(t *testing.T, round int, side *sidecar, entries []journal.Entry) {
	t.Helper()
	var want, got []string
	for _, e := range entries[:min(len(entries), MaxRecentRequests)] {
		want = append(want, fmt.Sprint(e.RequestID, "@", e.Revision, "=", e.SHA256))
	}
	for _, r := range reversedCopy(side.RecentRequests) {
		got = append(got, fmt.Sprint(r.ID, "@", r.Revision, "=", r.SHA256))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("round %d: %s: the sidecar remembers requests\n%v\nthe journal's newest are\n%v", round, side.Name, got, want)
	}
}

// checkCommits reads a sample of entries back with Commit: the newest,
// the oldest and a few at random. The before-image of "base" is the
// previous revision's, tagged with the request id that wrote it.
func checkCommits(t *testing.T, s *Store, round int, name string, entries []journal.Entry, rng *rand.Rand) {
	t.Helper()
	sample := []int{0, len(entries) - 1}
	for range 4 {
		sample = append(sample, rng.IntN(len(entries)))
	}
	for _, i := range sample {
		want := entries[i]
		e, im, err := s.Commit(bg, name, want.Commit)
		if err != nil {
			t.Fatalf("round %d: %s: commit %s (revision %d): %v", round, name, want.Commit, want.Revision, err)
		}
		if !reflect.DeepEqual(*e, want) {
			t.Fatalf("round %d: %s: Commit gives\n%+v\nLog gave\n%+v", round, name, *e, want)
		}
		if im == nil {
			t.Fatalf("round %d: %s: commit of revision %d has no images", round, name, want.Revision)
		}
		base, ok := im.BeforeOf("base")
		if i == len(entries)-1 {
			if !ok || string(base.Element) != "null" {
				t.Fatalf("round %d: %s: the first commit's base before-image is %s", round, name, base.Element)
			}
			continue
		}
		var el struct{ Tag string }
		if !ok || json.Unmarshal(base.Element, &el) != nil || el.Tag != entries[i+1].RequestID {
			t.Fatalf("round %d: %s: revision %d's before-image of base is %s, want revision %d's (%s)",
				round, name, want.Revision, base.Element, want.Revision-1, entries[i+1].RequestID)
		}
		if after, ok := im.AfterOf(want.RequestID); !ok || after.Hash == "" {
			t.Fatalf("round %d: %s: revision %d has no after-state of its element: %+v", round, name, want.Revision, im.After)
		}
	}
}

// walkLogPages walks all of a scene's Log pages (limit entries each) and
// returns the entries, newest first, and the revision they were read at.
func walkLogPages(t *testing.T, s *Store, name string, limit int) ([]journal.Entry, int64) {
	t.Helper()
	var entries []journal.Entry
	var head int64
	cursor := ""
	for page := 0; ; page++ {
		p, err := s.Log(bg, LogQuery{Name: name, Limit: limit, Cursor: cursor})
		if err != nil {
			t.Fatalf("log %s page %d (limit %d): %v", name, page, limit, err)
		}
		if page == 0 {
			head = p.Revision
		} else if p.Revision != head {
			t.Fatalf("log %s page %d at revision %d, the first at %d", name, page, p.Revision, head)
		}
		if len(p.Entries) > limit || p.Next != "" && len(p.Entries) != limit {
			t.Fatalf("log %s page %d: %d entries (limit %d), next %q", name, page, len(p.Entries), limit, p.Next)
		}
		entries = append(entries, p.Entries...)
		if p.Next == "" {
			return entries, head
		}
		if page > 100_000 {
			t.Fatalf("log %s does not end", name)
		}
		cursor = p.Next
	}
}

// scanJournalFile reads a scene's journal file: its valid frames, oldest
// first, where they end and the file's size.
func scanJournalFile(t testing.TB, dir, name string) (frames []*journal.Frame, valid, size int64) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, metaDir, journalDir, journalFile(name)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	valid, _, err = journal.Scan(f, info.Size(), func(fr *journal.Frame) bool {
		frames = append(frames, fr)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return frames, valid, info.Size()
}

func revisionsOf[E journal.Entry | *journal.Frame](list []E) []int64 {
	out := make([]int64, len(list))
	for i, x := range list {
		switch x := any(x).(type) {
		case journal.Entry:
			out[i] = x.Revision
		case *journal.Frame:
			out[i] = x.Entry.Revision
		}
	}
	return out
}

// revisionsUpTo is 1, 2, ..., n.
func revisionsUpTo(n int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i) + 1
	}
	return out
}

// reversedCopy is a reversed copy of list.
func reversedCopy[T any](list []T) []T {
	out := slices.Clone(list)
	slices.Reverse(out)
	return out
}

// A journal whose tail does not check out (an append cut short by a
// crash, or garbage) is readable at once, without a lock: Log lists the
// entries before the tail. The next write cuts the tail off and appends
// its own entry after the last valid one, keeping every earlier entry.
func TestJournalTornTailIsCutOffByTheNextWrite(t *testing.T) {
	frame, err := journal.Encode(&journal.Entry{Commit: "01TORNTORNTORNTORNTORNTORN", Seq: 4, Scene: "a", Revision: 4,
		PreviousRevision: 3, SHA256: sha256Hex(journalDoc("torn")), Actor: "agent", Images: journal.ImagesStored},
		&journal.Images{Before: []journal.Image{{ID: "base", Element: json.RawMessage(`{"id":"base"}`)}}})
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(frame)
	flipped[len(flipped)/2] ^= 0x20
	tails := map[string]func(journalBytes []byte) []byte{
		"half a frame":          func([]byte) []byte { return frame[:len(frame)/2] },
		"all but its last byte": func([]byte) []byte { return frame[:len(frame)-1] },
		"header only":           func([]byte) []byte { return frame[:20] },
		"bad checksum":          func([]byte) []byte { return flipped },
		"zeros":                 func([]byte) []byte { return make([]byte, 4096) },
		"stale trailer":         func(j []byte) []byte { return bytes.Clone(j[len(j)-8:]) },
		// A whole entry of a commit that never reached the file (above
		// the sidecar), then a torn one.
		"entry above and torn": func([]byte) []byte { return append(bytes.Clone(frame), frame[:len(frame)/3]...) },
	}
	for kind, tail := range tails {
		t.Run(kind, func(t *testing.T) {
			s := testStore(t, func(o *Options) { o.Codec = journalCodec{} })
			if _, err := s.Create(bg, CreateRequest{Name: "a", Data: journalDoc("c"), Actor: ActorAgent}); err != nil {
				t.Fatal(err)
			}
			for _, req := range []string{"u2", "u3"} {
				updateWithDoc(t, s, "a", req)
			}
			before, _ := walkLogPages(t, s, "a", 2)
			path := filepath.Join(s.dir, metaDir, journalDir, journalFile("a"))
			old := readFile(t, path)
			torn := append(bytes.Clone(old), tail(old)...)
			writeFile(t, path, torn)
			if _, valid, size := scanJournalFile(t, s.dir, "a"); valid == size {
				t.Fatalf("the tail checks out: valid to %d of %d", valid, size)
			}

			// Lock-free reads see the valid entries, and nothing above the
			// sidecar's revision.
			if got, head := walkLogPages(t, s, "a", 2); head != 3 || !reflect.DeepEqual(got, before) {
				t.Fatalf("with the torn tail Log at %d lists %v, want %v", head, revisionsOf(got), revisionsOf(before))
			}
			if _, _, err := s.Commit(bg, "a", "01TORNTORNTORNTORNTORNTORN"); CodeOf(err) != CodeNotFound {
				t.Fatalf("the torn entry reads back: %v", err)
			}
			sc, err := s.Read(bg, "a")
			if err != nil || sc.Revision != 3 || sc.UpdatedBy != ActorAgent {
				t.Fatalf("read with the torn tail: %+v %v", sc, err)
			}
			if got := readFile(t, path); !bytes.Equal(got, torn) {
				t.Fatal("a lock-free read changed the journal")
			}

			res := updateWithDoc(t, s, "a", "u4")
			frames, valid, size := scanJournalFile(t, s.dir, "a")
			if valid != size || size != int64(len(old))+frames[len(frames)-1].Length {
				t.Fatalf("after the write the journal is valid to %d of %d bytes (was %d valid bytes before the tail)", valid, size, len(old))
			}
			if got := readFile(t, path); !bytes.Equal(got[:len(old)], old) {
				t.Fatal("the write changed the entries before the torn tail")
			}
			if !slices.Equal(revisionsOf(frames), []int64{1, 2, 3, 4}) {
				t.Fatalf("journal holds revisions %v", revisionsOf(frames))
			}
			after, head := walkLogPages(t, s, "a", 3)
			if head != 4 || len(after) != 4 || !reflect.DeepEqual(after[1:], before) {
				t.Fatalf("Log after the write at %d: %v, want 4 then %v", head, revisionsOf(after), revisionsOf(before))
			}
			if e := after[0]; e.RequestID != "u4" || e.SHA256 != res.SHA256 || e.Seq != 4 || e.Commit == "01TORNTORNTORNTORNTORNTORN" ||
				!slices.Equal(e.Deleted, []string{"u3"}) {
				t.Fatalf("the new entry: %+v", e)
			}
			for _, e := range after {
				if got, _, err := s.Commit(bg, "a", e.Commit); err != nil || !reflect.DeepEqual(*got, e) {
					t.Fatalf("commit %d reads back %+v %v", e.Revision, got, err)
				}
			}
		})
	}
}

// updateWithDoc commits journalDoc(req) over whatever name holds.
func updateWithDoc(t *testing.T, s *Store, name, req string) *Result {
	t.Helper()
	res, err := s.Update(bg, UpdateRequest{Name: name, AnyRevision: true, Actor: ActorAgent, RequestID: req,
		Mutate: func(*Scene) ([]byte, error) { return journalDoc(req), nil }})
	if err != nil {
		t.Fatalf("update %s to %s: %v", name, req, err)
	}
	return res
}

// A writer killed after renaming revision 2's file into place and before
// renaming its sidecar (blockwrite at "sidecar") had appended its journal
// entry before the first rename. The next locked load (here: the repair
// of a Read, the lock being free) completes the commit from that entry:
// revision 2 by the agent that wrote it, not by recovery, with its request
// id remembered (so its retry is a duplicate) and the same entry, not a
// new one, in the Log.
func TestJournalRollForwardAfterKillBetweenRenames(t *testing.T) {
	s := testStore(t, patientLocks)
	createRev1(t, s, "a")
	h := startHelper(t, "blockwrite", s.dir, "a", "sidecar")
	h.expect(t, "blocked")
	h.kill(t)

	frames, valid, size := scanJournalFile(t, s.dir, "a")
	if valid != size || !slices.Equal(revisionsOf(frames), []int64{1, 2}) || frames[1].Entry.RequestID != blockwriteRequestID {
		t.Fatalf("the killed writer left the journal %v (valid to %d of %d)", revisionsOf(frames), valid, size)
	}
	killed := frames[1].Entry
	if side := readSidecarFile(t, s, "a"); side.Revision != 1 || !bytes.Equal(readFile(t, scenePathOf(s, "a")), revDoc(2)) {
		t.Fatalf("the writer was not killed between its renames: sidecar at %d", side.Revision)
	}
	// Lock-free, before the repair: the sidecar's revision is the newest.
	if got, head := walkLogPages(t, s, "a", 10); head != 1 || !slices.Equal(revisionsOf(got), []int64{1}) {
		t.Fatalf("before the repair Log at %d lists %v", head, revisionsOf(got))
	}

	ctx := deadline(t)
	sc, err := s.Read(ctx, "a")
	wantRevision(t, sc, err, 2)
	if sc.UpdatedBy != ActorAgent || sc.PreviousRevision != 1 || sc.PreviousSHA256 != sha256Hex(revDoc(1)) {
		t.Fatalf("rolled forward as %+v", sc.Meta)
	}
	side := readSidecarFile(t, s, "a")
	if rec := side.findRequest(blockwriteRequestID); rec == nil || rec.Revision != 2 || rec.SHA256 != sha256Hex(revDoc(2)) {
		t.Fatalf("the sidecar does not remember the killed write's request: %+v", side.RecentRequests)
	}
	got, head := walkLogPages(t, s, "a", 1)
	if head != 2 || !slices.Equal(revisionsOf(got), []int64{2, 1}) || !reflect.DeepEqual(got[0], killed) {
		t.Fatalf("Log at %d lists %v, newest %+v; want the killed write's entry %+v", head, revisionsOf(got), got[0], killed)
	}
	if got[0].Actor != string(ActorAgent) || got[0].RequestID != blockwriteRequestID || got[0].SHA256 != sha256Hex(revDoc(2)) {
		t.Fatalf("newest entry %+v", got[0])
	}

	res, err := s.Save(ctx, SaveRequest{Name: "a", ExpectedRevision: 1, Data: revDoc(2), Actor: ActorAgent,
		RequestID: blockwriteRequestID})
	if err != nil || !res.Duplicate || res.Revision != 2 {
		t.Fatalf("retry of the rolled-forward write: %+v %v", res, err)
	}
	if res := mustSave(t, s, "a", 2, revDoc(3)); res.Revision != 3 {
		t.Fatalf("next save: %+v", res)
	}
	if frames, valid, size := scanJournalFile(t, s.dir, "a"); valid != size || !slices.Equal(revisionsOf(frames), []int64{1, 2, 3}) {
		t.Fatalf("journal %v, valid to %d of %d", revisionsOf(frames), valid, size)
	}
}

// A writer killed before renaming revision 2's file into place
// (blockwrite at "scene") leaves a journal entry for a revision that never
// reached the file. Lock-free reads do not show it; the next locked load
// discards it; a retry of the same request is then a new commit (nothing
// was committed), whose entry replaces the discarded one.
func TestJournalDiscardsEntryOfWriteKilledBeforeItsFile(t *testing.T) {
	s := testStore(t, patientLocks)
	createRev1(t, s, "a")
	h := startHelper(t, "blockwrite", s.dir, "a", "scene")
	h.expect(t, "blocked")
	h.kill(t)

	frames, _, _ := scanJournalFile(t, s.dir, "a")
	if !slices.Equal(revisionsOf(frames), []int64{1, 2}) || frames[1].Entry.RequestID != blockwriteRequestID {
		t.Fatalf("the killed writer left the journal %v", revisionsOf(frames))
	}
	killed := frames[1].Entry
	ctx := deadline(t)
	if got, head := walkLogPages(t, s, "a", 10); head != 1 || !slices.Equal(revisionsOf(got), []int64{1}) {
		t.Fatalf("Log at %d lists %v", head, revisionsOf(got))
	}
	if _, _, err := s.Commit(ctx, "a", killed.Commit); CodeOf(err) != CodeNotFound {
		t.Fatalf("the killed write's commit reads back: %v", err)
	}
	sc, err := s.Read(ctx, "a")
	wantRevision(t, sc, err, 1)

	res, err := s.Save(ctx, SaveRequest{Name: "a", ExpectedRevision: 1, Data: revDoc(2), Actor: ActorAgent,
		RequestID: blockwriteRequestID})
	if err != nil || res.Duplicate || res.Revision != 2 {
		t.Fatalf("retry of the killed write: %+v %v", res, err)
	}
	frames, valid, size := scanJournalFile(t, s.dir, "a")
	if valid != size || !slices.Equal(revisionsOf(frames), []int64{1, 2}) {
		t.Fatalf("journal %v, valid to %d of %d", revisionsOf(frames), valid, size)
	}
	if e := frames[1].Entry; e.Commit == killed.Commit || e.Seq != 2 || e.RequestID != blockwriteRequestID || e.SHA256 != res.SHA256 {
		t.Fatalf("revision 2's entry %+v (the discarded one was %s)", e, killed.Commit)
	}
}

// A file changed outside the store gets a revision by recovery, and its
// entry says so; an entry left above the sidecar by a commit that never
// reached the file is discarded first, not taken for the edit's.
func TestJournalRecordsAnExternalEditAsRecovery(t *testing.T) {
	s := testStore(t, func(o *Options) { o.Codec = journalCodec{} })
	if _, err := s.Create(bg, CreateRequest{Name: "a", Data: journalDoc("c"), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
	updateWithDoc(t, s, "a", "u2")
	// The entry of a revision 3 that never reached the file.
	stray, err := journal.Encode(&journal.Entry{Commit: "01STRAYSTRAYSTRAYSTRAYSTRA", Seq: 3, Scene: "a", Revision: 3,
		PreviousRevision: 2, SHA256: sha256Hex(journalDoc("never")), Actor: "agent", Images: journal.ImagesUnavailable}, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.dir, metaDir, journalDir, journalFile("a"))
	writeFile(t, path, append(readFile(t, path), stray...))
	edited := journalDoc("by-hand")
	writeFile(t, scenePathOf(s, "a"), edited)

	sc, err := s.Read(bg, "a")
	if err != nil || sc.Revision != 3 || sc.UpdatedBy != ActorRecovery || !bytes.Equal(sc.Data, edited) {
		t.Fatalf("read of the edited file: %+v %v", sc, err)
	}
	got, head := walkLogPages(t, s, "a", 10)
	if head != 3 || !slices.Equal(revisionsOf(got), []int64{3, 2, 1}) {
		t.Fatalf("Log at %d lists %v", head, revisionsOf(got))
	}
	e := got[0]
	if e.Commit == "01STRAYSTRAYSTRAYSTRAYSTRA" || e.Actor != string(ActorRecovery) || e.SHA256 != sha256Hex(edited) ||
		e.Seq != 3 || e.PreviousRevision != 2 || e.Images != journal.ImagesUnavailable || e.RequestID != "" {
		t.Fatalf("the edit's entry: %+v", e)
	}
	if frames, valid, size := scanJournalFile(t, s.dir, "a"); valid != size || !slices.Equal(revisionsOf(frames), []int64{1, 2, 3}) {
		t.Fatalf("journal %v, valid to %d of %d", revisionsOf(frames), valid, size)
	}
}
