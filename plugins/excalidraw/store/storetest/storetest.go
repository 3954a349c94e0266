// Package storetest is the conformance suite of scene stores: the
// promises every store.Backend keeps, run against a backend the caller
// opens. Each is a named subtest:
//
//   - writes: exact bytes, the revision fence with exactly one winner
//     (also among Creates of one new name), request-id replay (the last
//     32 ids), unchanged writes, MaxSceneBytes, the commit id each
//     write's Result names;
//   - all or nothing: a commit that fails leaves neither a revision nor
//     a journal entry, and the scene's revision and its journal always
//     agree;
//   - the journal: an entry per commit with its attribution; with a
//     Differ, the elements it changed and their before-images (skipped
//     over MaxImageBytes); retention by MaxEntries and MaxAge;
//   - Log: every filter of store.LogQuery, the limit rules and cursor
//     paging, also across page boundaries with filters.
package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// Config is what a subtest asks of the backend it opens. Zero fields
// are the backend's defaults, except Codec, which is always set.
type Config struct {
	// Codec is Codec{} or DiffCodec{}.
	Codec store.Codec
	// MaxSceneBytes bounds documents (0: the backend's default).
	MaxSceneBytes int64
	// Journal configures the journal (retention, the image cap).
	Journal store.JournalOptions
	// Now is the backend's clock (nil: time.Now).
	Now func() time.Time
}

// Opener makes a fresh, empty backend configured by c for one subtest,
// and closes it when t ends.
type Opener func(t *testing.T, c Config) store.Backend

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func code(err error) string {
	var e *store.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

var ctx = context.Background()

// Run runs the suite; open makes a fresh, empty backend for each subtest.
func Run(t *testing.T, open Opener) {
	plain := func(t *testing.T) store.Backend { return open(t, Config{Codec: Codec{}}) }
	t.Run("ExactBytes", func(t *testing.T) { exactBytes(t, plain(t)) })
	t.Run("History", func(t *testing.T) { history(t, plain(t)) })
	t.Run("Fence", func(t *testing.T) { fence(t, plain(t)) })
	t.Run("OneWinner", func(t *testing.T) { oneWinner(t, plain(t)) })
	t.Run("CreateRace", func(t *testing.T) { createRace(t, plain(t)) })
	t.Run("RequestReplay", func(t *testing.T) { requestReplay(t, plain(t)) })
	t.Run("CommitIDs", func(t *testing.T) { commitIDs(t, plain(t)) })
	t.Run("RequestReplayRace", func(t *testing.T) { requestReplayRace(t, plain(t)) })
	t.Run("RequestReplayKeepsTheLast32", func(t *testing.T) { requestReplayKeeps32(t, plain(t)) })
	t.Run("Unchanged", func(t *testing.T) { unchanged(t, plain(t)) })
	t.Run("RefusesNUL", func(t *testing.T) { refusesNUL(t, plain(t)) })
	t.Run("MaxSceneBytes", func(t *testing.T) { maxSceneBytes(t, open(t, Config{Codec: Codec{}, MaxSceneBytes: 4096})) })
	t.Run("AllOrNothing", func(t *testing.T) { allOrNothing(t, open(t, Config{Codec: DiffCodec{}, MaxSceneBytes: 4096})) })
	t.Run("CommittedHere", func(t *testing.T) { committedHere(t, plain(t)) })
	t.Run("Journal", func(t *testing.T) { journalEntries(t, plain(t)) })
	t.Run("JournalWithoutDiffer", func(t *testing.T) { withoutDiffer(t, plain(t)) })
	t.Run("CommitImages", func(t *testing.T) { commitImages(t, open(t, Config{Codec: DiffCodec{}})) })
	t.Run("CommitImagesSkipped", func(t *testing.T) {
		imagesSkipped(t, open(t, Config{Codec: DiffCodec{}, Journal: store.JournalOptions{MaxImageBytes: 64}}))
	})
	t.Run("RetentionMaxEntries", func(t *testing.T) {
		retentionEntries(t, open(t, Config{Codec: Codec{}, Journal: store.JournalOptions{MaxEntries: 3}}))
	})
	t.Run("RetentionMaxAge", func(t *testing.T) {
		c := newClock()
		retentionAge(t, open(t, Config{Codec: Codec{}, Now: c.Now, Journal: store.JournalOptions{MaxAge: 48 * time.Hour}}), c)
	})
	t.Run("LogFilters", func(t *testing.T) {
		c := newClock()
		logFilters(t, open(t, Config{Codec: DiffCodec{}, Now: c.Now}), c)
	})
	t.Run("LogLimit", func(t *testing.T) { logLimit(t, plain(t)) })
	t.Run("LogBadCursor", func(t *testing.T) { logBadCursor(t, plain(t)) })
	t.Run("LogPaging", func(t *testing.T) { logPaging(t, plain(t)) })
	t.Run("LogPagingWithFilters", func(t *testing.T) {
		c := newClock()
		logPagingFiltered(t, open(t, Config{Codec: DiffCodec{}, Now: c.Now}), c)
	})
}

// refusesNUL: a note or name with U+0000 is invalid_request on every
// backend, before anything is written.
func refusesNUL(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "a"))
	for _, attr := range []store.Attribution{{Note: "a\x00b"}, {Name: "bot\x00"}} {
		_, err := b.Save(ctx, store.SaveRequest{Name: "plan", Data: Doc(2, "b"), ExpectedRevision: 1, Actor: store.ActorAgent, Attribution: attr})
		if code(err) != store.CodeInvalidRequest {
			t.Fatalf("save with %+v: %v, want invalid_request", attr, err)
		}
	}
	_, err := b.Create(ctx, store.CreateRequest{Name: "other", Data: Doc(1, "a"), Actor: store.ActorAgent, Attribution: store.Attribution{Via: "x\x00"}})
	if code(err) != store.CodeInvalidRequest {
		t.Fatalf("create with U+0000 in via: %v", err)
	}
	if _, err := b.Head(ctx, "other"); code(err) != store.CodeNotFound {
		t.Fatalf("the refused create made a scene: %v", err)
	}
	agree(t, b, "plan")
	if h, _ := b.Head(ctx, "plan"); h.Revision != 1 {
		t.Fatalf("a refused save committed: revision %d", h.Revision)
	}
}

// clock is a settable clock for the backend (Config.Now).
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// mustCreate creates a scene or ends the test.
func mustCreate(t *testing.T, b store.Backend, name string, data []byte) *store.Result {
	t.Helper()
	res, err := b.Create(ctx, store.CreateRequest{Name: name, Data: data, Actor: store.ActorAgent})
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	return res
}

// mustSave saves over the expected revision or ends the test.
func mustSave(t *testing.T, b store.Backend, r store.SaveRequest) *store.Result {
	t.Helper()
	if r.Actor == "" {
		r.Actor = store.ActorUI
	}
	res, err := b.Save(ctx, r)
	if err != nil {
		t.Fatalf("save %s over %d: %v", r.Name, r.ExpectedRevision, err)
	}
	return res
}

// entries pages through the whole log q selects.
func entries(t *testing.T, b store.Backend, q store.LogQuery) []journal.Entry {
	t.Helper()
	var out []journal.Entry
	for range 1000 {
		page, err := b.Log(ctx, q)
		if err != nil {
			t.Fatalf("log %+v: %v", q, err)
		}
		out = append(out, page.Entries...)
		if page.Next == "" {
			return out
		}
		q.Cursor = page.Next
	}
	t.Fatal("log: the cursor never ends")
	return nil
}

func revisionsOf(es []journal.Entry) []int64 {
	out := []int64{}
	for _, e := range es {
		out = append(out, e.Revision)
	}
	return out
}

// agree checks that the scene's revision is its newest journal entry's.
func agree(t *testing.T, b store.Backend, name string) {
	t.Helper()
	head, err := b.Head(ctx, name)
	if err != nil {
		t.Fatalf("head %s: %v", name, err)
	}
	page, err := b.Log(ctx, store.LogQuery{Name: name, Limit: 1})
	if err != nil {
		t.Fatalf("log %s: %v", name, err)
	}
	if page.Revision != head.Revision || len(page.Entries) != 1 || page.Entries[0].Revision != head.Revision ||
		page.Entries[0].SHA256 != head.SHA256 {
		t.Fatalf("scene %s at revision %d (%s), its journal at %d: %+v", name, head.Revision, head.SHA256, page.Revision, page.Entries)
	}
}

func exactBytes(t *testing.T, b store.Backend) {
	data := Doc(3, "a")
	res, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: data, Actor: store.ActorAgent, RequestID: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Revision != 1 || res.SHA256 != sum(data) || !res.Verified || res.ElementCount != 3 || res.ByteLength != int64(len(data)) {
		t.Fatalf("create: %+v", res.Meta)
	}
	sc, err := b.Read(ctx, "plan")
	if err != nil || string(sc.Data) != string(data) || sc.SHA256 != sum(data) || sc.Revision != 1 {
		t.Fatalf("read back: %v %+v", err, sc)
	}
	head, err := b.Head(ctx, "plan")
	if err != nil || head.Revision != 1 || head.SHA256 != sum(data) || head.ByteLength != int64(len(data)) {
		t.Fatalf("head: %v %+v", err, head)
	}
	rows, err := b.List(ctx)
	if err != nil || len(rows) != 1 || rows[0].Name != "plan" || !rows[0].Valid || rows[0].Revision != 1 {
		t.Fatalf("list: %v %+v", err, rows)
	}
	if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: data, Actor: store.ActorAgent}); code(err) != store.CodeAlreadyExists {
		t.Fatalf("create twice: %v", err)
	}
	if _, err := b.Read(ctx, "nothing"); code(err) != store.CodeNotFound {
		t.Fatalf("read a missing scene: %v", err)
	}
	if _, err := b.Head(ctx, "nothing"); code(err) != store.CodeNotFound {
		t.Fatalf("head of a missing scene: %v", err)
	}
	if _, err := b.Read(ctx, "../etc"); code(err) != store.CodeInvalidName {
		t.Fatalf("a bad name: %v", err)
	}
	if _, err := b.Save(ctx, store.SaveRequest{Name: "nothing", Data: data, Actor: store.ActorUI, Force: true}); code(err) != store.CodeNotFound {
		t.Fatalf("save of a missing scene: %v", err)
	}
	if _, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: data, Actor: "robot"}); code(err) != store.CodeInvalidRequest {
		t.Fatalf("an unknown actor: %v", err)
	}
	if _, err := b.Create(ctx, store.CreateRequest{Name: "bad", Data: []byte(`{"nope":1}`), Actor: store.ActorAgent}); code(err) != store.CodeInvalidScene {
		t.Fatalf("a document the codec refuses: %v", err)
	}
	if _, err := b.ReadRevision(ctx, "plan", 99); code(err) != store.CodeNotFound {
		t.Fatalf("a revision that never was: %v", err)
	}
}

func fence(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "a"))
	res, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), Actor: store.ActorUI})
	if err != nil || res.Revision != 2 || res.PreviousRevision != 1 || res.PreviousSHA256 != sum(Doc(1, "a")) {
		t.Fatalf("save over 1: %v %+v", err, res)
	}
	_, err = b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "c"), Actor: store.ActorUI})
	var e *store.Error
	if !errors.As(err, &e) || e.Code != store.CodeRevisionConflict || e.Details["currentRevision"] != int64(2) ||
		e.Details["currentSha256"] != res.SHA256 || e.Details["expectedRevision"] != int64(1) || e.Details["updatedBy"] != "ui" {
		t.Fatalf("a stale save: %v %+v", err, e)
	}
	if sc, _ := b.Read(ctx, "plan"); string(sc.Data) != string(Doc(1, "b")) {
		t.Fatal("a refused save changed the scene")
	}
	if _, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 1, Actor: store.ActorAgent,
		Mutate: func(*store.Scene) ([]byte, error) { return Doc(1, "u"), nil }}); code(err) != store.CodeRevisionConflict {
		t.Fatalf("a stale update: %v", err)
	}
	forced, err := b.Save(ctx, store.SaveRequest{Name: "plan", Force: true, Data: Doc(1, "d"), Actor: store.ActorUI})
	if err != nil || forced.Revision != 3 {
		t.Fatalf("a forced save: %v %+v", err, forced)
	}
	anyRev, err := b.Update(ctx, store.UpdateRequest{Name: "plan", AnyRevision: true, Actor: store.ActorAgent,
		Mutate: func(cur *store.Scene) ([]byte, error) {
			if cur.Revision != 3 || string(cur.Data) != string(Doc(1, "d")) {
				return nil, fmt.Errorf("mutate saw revision %d", cur.Revision)
			}
			return Doc(1, "e"), nil
		}})
	if err != nil || anyRev.Revision != 4 {
		t.Fatalf("an update over any revision: %v %+v", err, anyRev)
	}
	es := entries(t, b, store.LogQuery{Name: "plan"})
	if len(es) != 4 || !es[1].Forced || es[0].Forced || es[2].Forced {
		t.Fatalf("forced is the save that skipped the fence: %+v", es)
	}
	agree(t, b, "plan")
}

func oneWinner(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "a"))
	for round := int64(1); round <= 5; round++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		won, lost := 0, 0
		for w := range 8 {
			wg.Go(func() {
				_, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: round, Actor: store.ActorAgent,
					Mutate: func(*store.Scene) ([]byte, error) { return Doc(1, fmt.Sprintf("r%d-w%d", round, w)), nil }})
				mu.Lock()
				defer mu.Unlock()
				switch code(err) {
				case "":
					won++
				case store.CodeRevisionConflict:
					lost++
				default:
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		if won != 1 || lost != 7 {
			t.Fatalf("round %d: %d winners, %d conflicts", round, won, lost)
		}
	}
	if es := entries(t, b, store.LogQuery{Name: "plan"}); len(es) != 6 {
		t.Fatalf("%d journal entries for 6 commits", len(es))
	}
	agree(t, b, "plan")
}

// createRace: Creates of one new name at once: one wins, every other is
// already_exists, and the scene is the winner's.
func createRace(t *testing.T, b store.Backend) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var winner []byte
	lost := 0
	for w := range 8 {
		wg.Go(func() {
			data := Doc(1, fmt.Sprintf("w%d", w))
			_, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: data, Actor: store.ActorAgent})
			mu.Lock()
			defer mu.Unlock()
			switch code(err) {
			case "":
				if winner != nil {
					t.Errorf("two creates of one name succeeded")
				}
				winner = data
			case store.CodeAlreadyExists:
				lost++
			default:
				t.Errorf("create: %v", err)
			}
		})
	}
	wg.Wait()
	if winner == nil || lost != 7 {
		t.Fatalf("%d losers, winner %q", lost, winner)
	}
	sc, err := b.Read(ctx, "plan")
	if err != nil || string(sc.Data) != string(winner) || sc.Revision != 1 {
		t.Fatalf("read: %v %+v", err, sc)
	}
	if es := entries(t, b, store.LogQuery{Name: "plan"}); len(es) != 1 || es[0].Seq != 1 {
		t.Fatalf("journal: %+v", es)
	}
	agree(t, b, "plan")
}

func requestReplay(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "a"))
	first := mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), RequestID: "tab:1"})
	again, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), Actor: store.ActorUI, RequestID: "tab:1"})
	if err != nil || !again.Duplicate || again.Revision != first.Revision || again.SHA256 != first.SHA256 {
		t.Fatalf("a retried save: %v %+v", err, again)
	}
	called := false
	upd, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 1, Actor: store.ActorAgent, RequestID: "tab:1",
		Mutate: func(*store.Scene) ([]byte, error) { called = true; return Doc(1, "z"), nil }})
	if err != nil || !upd.Duplicate || upd.Revision != 2 || called {
		t.Fatalf("an update retrying the save's id: %v %+v (mutate called: %v)", err, upd, called)
	}
	if head, _ := b.Head(ctx, "plan"); head.Revision != 2 {
		t.Fatalf("the retry committed again: revision %d", head.Revision)
	}
	if es := entries(t, b, store.LogQuery{Name: "plan"}); len(es) != 2 {
		t.Fatalf("a replay is journaled: %+v", es)
	}
	// Create is no replay: the name is its identity.
	if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: Doc(1, "b"), Actor: store.ActorAgent, RequestID: "tab:1"}); code(err) != store.CodeAlreadyExists {
		t.Fatalf("a create with a remembered id: %v", err)
	}
}

// requestReplayRace: retries of one request racing each other (and the
// original) commit once; every other is its duplicate.
func requestReplayRace(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "a"))
	var wg sync.WaitGroup
	var mu sync.Mutex
	committed, dup := 0, 0
	for w := range 8 {
		wg.Go(func() {
			res, err := b.Update(ctx, store.UpdateRequest{Name: "plan", AnyRevision: true, Actor: store.ActorAgent, RequestID: "once",
				Mutate: func(*store.Scene) ([]byte, error) { return Doc(1, fmt.Sprint("w", w)), nil }})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				t.Errorf("update: %v", err)
			case res.Duplicate:
				dup++
			default:
				committed++
			}
		})
	}
	wg.Wait()
	if committed != 1 || dup != 7 {
		t.Fatalf("%d commits and %d duplicates of one request", committed, dup)
	}
	if head, _ := b.Head(ctx, "plan"); head.Revision != 2 {
		t.Fatalf("revision %d", head.Revision)
	}
	agree(t, b, "plan")
}

// requestReplayKeeps32: the last 32 request ids are remembered; the
// 33rd newest is forgotten (its retry is a new write, here stale).
func requestReplayKeeps32(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "start"))
	results := make([]*store.Result, 33)
	docs := make([][]byte, 33)
	for i := range 33 {
		docs[i] = Doc(1+i%3, fmt.Sprint("r", i))
		results[i] = mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: int64(i + 1), Data: docs[i], RequestID: fmt.Sprint("r", i)})
	}
	retry := func(i int) (*store.Result, error) {
		return b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: int64(i + 1), Data: docs[i], Actor: store.ActorUI, RequestID: fmt.Sprint("r", i)})
	}
	if res, err := retry(0); code(err) != store.CodeRevisionConflict {
		t.Fatalf("the 33rd newest id is forgotten: its retry is stale, got %v %+v", err, res)
	}
	for _, i := range []int{1, 16, 32} {
		res, err := retry(i)
		want := results[i]
		if err != nil || !res.Duplicate || res.Revision != want.Revision || res.SHA256 != want.SHA256 ||
			res.ByteLength != want.ByteLength || res.ElementCount != want.ElementCount {
			t.Fatalf("retry of r%d: %v %+v, want %+v", i, err, res, want)
		}
	}
	if head, _ := b.Head(ctx, "plan"); head.Revision != 34 {
		t.Fatalf("revision %d after 34 commits", head.Revision)
	}
}

func unchanged(t *testing.T, b store.Backend) {
	data := Doc(2, "a")
	mustCreate(t, b, "plan", data)
	res, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: data, Actor: store.ActorUI})
	if err != nil || !res.Unchanged || res.Revision != 1 {
		t.Fatalf("saving the same bytes: %v %+v", err, res)
	}
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(2, "b")})
	// The current bytes on a stale base: nothing can be lost.
	res, err = b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(2, "b"), Actor: store.ActorUI, RequestID: "again"})
	if err != nil || !res.Unchanged || res.Revision != 2 {
		t.Fatalf("the current bytes over a stale revision: %v %+v", err, res)
	}
	res, err = b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 2, Actor: store.ActorAgent,
		Mutate: func(cur *store.Scene) ([]byte, error) { return cur.Data, nil }})
	if err != nil || !res.Unchanged || res.Revision != 2 {
		t.Fatalf("an update that changes nothing: %v %+v", err, res)
	}
	boom := errors.New("no")
	if _, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 2, Actor: store.ActorAgent,
		Mutate: func(*store.Scene) ([]byte, error) { return nil, boom }}); !errors.Is(err, boom) {
		t.Fatalf("a failed mutation: %v", err)
	}
	if head, _ := b.Head(ctx, "plan"); head.Revision != 2 {
		t.Fatalf("nothing was to be written: revision %d", head.Revision)
	}
	if es := entries(t, b, store.LogQuery{Name: "plan"}); len(es) != 2 {
		t.Fatalf("unchanged writes are journaled: %+v", es)
	}
	agree(t, b, "plan")
}

// maxSceneBytes: a document over the bound is too_large with the limit's
// details, and changes nothing.
func maxSceneBytes(t *testing.T, b store.Backend) {
	big := Doc(100, "big")
	if len(big) <= 4096 {
		t.Fatalf("the big document has only %d bytes", len(big))
	}
	isTooLarge := func(what string, err error) {
		t.Helper()
		var e *store.Error
		if !errors.As(err, &e) || e.Code != store.CodeTooLarge || e.Details["limit"] != "maxSceneBytes" ||
			e.Details["max"] != int64(4096) || e.Details["actual"] != int64(len(big)) {
			t.Fatalf("%s: %v %+v", what, err, e)
		}
	}
	_, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: big, Actor: store.ActorAgent})
	isTooLarge("create", err)
	if _, err := b.Read(ctx, "plan"); code(err) != store.CodeNotFound {
		t.Fatalf("a refused create left a scene: %v", err)
	}
	if rows, err := b.List(ctx); err != nil || len(rows) != 0 {
		t.Fatalf("list: %v %+v", err, rows)
	}
	mustCreate(t, b, "plan", Doc(1, "a"))
	_, err = b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: big, Actor: store.ActorUI})
	isTooLarge("save", err)
	_, err = b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 1, Actor: store.ActorAgent,
		Mutate: func(*store.Scene) ([]byte, error) { return big, nil }})
	isTooLarge("update", err)
	if sc, err := b.Read(ctx, "plan"); err != nil || sc.Revision != 1 || string(sc.Data) != string(Doc(1, "a")) {
		t.Fatalf("a refused write changed the scene: %v %+v", err, sc)
	}
	if es := entries(t, b, store.LogQuery{Name: "plan"}); len(es) != 1 {
		t.Fatalf("a refused write was journaled: %+v", es)
	}
}

// allOrNothing: a commit that fails leaves neither its revision nor its
// journal entry; one cut short by its caller leaves both or neither.
func allOrNothing(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(2, "a"))
	update := func(ctx context.Context, data []byte) error {
		_, err := b.Update(ctx, store.UpdateRequest{Name: "plan", AnyRevision: true, Actor: store.ActorAgent,
			Mutate: func(*store.Scene) ([]byte, error) { return data, nil }})
		return err
	}
	if err := update(ctx, []byte(`{"elements":`)); code(err) != store.CodeInvalidScene {
		t.Fatalf("a mutation to a broken document: %v", err)
	}
	if err := update(ctx, Doc(100, "big")); code(err) != store.CodeTooLarge {
		t.Fatalf("a mutation past MaxSceneBytes: %v", err)
	}
	if head, _ := b.Head(ctx, "plan"); head.Revision != 1 {
		t.Fatalf("failed commits moved the scene to %d", head.Revision)
	}
	agree(t, b, "plan")
	// Cancelled while it commits: whichever way it went, the scene and
	// its journal say the same.
	cctx, cancel := context.WithCancel(ctx)
	_, err := b.Update(cctx, store.UpdateRequest{Name: "plan", AnyRevision: true, Actor: store.ActorAgent,
		Mutate: func(*store.Scene) ([]byte, error) { cancel(); return Doc(2, "cancelled"), nil }})
	cancel()
	head, _ := b.Head(ctx, "plan")
	if (err == nil) != (head.Revision == 2) {
		t.Fatalf("a cancelled commit: %v, revision %d", err, head.Revision)
	}
	agree(t, b, "plan")
	res := mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: head.Revision, Data: Doc(2, "after")})
	es := entries(t, b, store.LogQuery{Name: "plan"})
	if res.Revision != head.Revision+1 || len(es) != int(res.Revision) || es[0].Seq != res.Revision {
		t.Fatalf("the next commit after failed ones: %+v, journal %+v", res.Meta, es)
	}
	agree(t, b, "plan")
}

func committedHere(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "a"))
	if !b.CommittedHere(ctx, "plan") {
		t.Fatal("this backend's own commit is not CommittedHere")
	}
	if b.CommittedHere(ctx, "nothing") {
		t.Fatal("a missing scene is CommittedHere")
	}
}

func journalEntries(t *testing.T, b store.Backend) {
	attr := store.Attribution{Name: "claude", Bot: "claude", Person: "erin", Via: "batch_create", Note: "add a box"}
	if _, err := b.Create(ctx, store.CreateRequest{Name: "plan", Data: Doc(1, "a"), Actor: store.ActorAgent, Attribution: attr}); err != nil {
		t.Fatal(err)
	}
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(2, "b"), RequestID: "tab:7",
		Attribution: store.Attribution{Undoes: "01ABC", Mode: "revert"}})
	page, err := b.Log(ctx, store.LogQuery{Name: "plan"})
	if err != nil || len(page.Entries) != 2 || page.Revision != 2 || page.Next != "" {
		t.Fatalf("log: %v %+v", err, page)
	}
	newest, oldest := page.Entries[0], page.Entries[1]
	if newest.Revision != 2 || newest.Actor != "ui" || newest.RequestID != "tab:7" || newest.PreviousRevision != 1 ||
		newest.Seq != 2 || newest.Scene != "plan" || newest.SHA256 != sum(Doc(2, "b")) || newest.ElementCount != 2 ||
		newest.ByteLength != int64(len(Doc(2, "b"))) || newest.Undoes != "01ABC" || newest.Mode != "revert" {
		t.Fatalf("the save's entry: %+v", newest)
	}
	if oldest.Revision != 1 || oldest.Seq != 1 || oldest.PreviousRevision != 0 || oldest.Actor != "agent" || oldest.Name != "claude" ||
		oldest.Bot != "claude" || oldest.Person != "erin" || oldest.Via != "batch_create" || oldest.Note != "add a box" {
		t.Fatalf("the create's entry: %+v", oldest)
	}
	if len(newest.Commit) != 26 || newest.Commit <= oldest.Commit {
		t.Fatalf("commit ids are ULIDs in time order: %q after %q", newest.Commit, oldest.Commit)
	}
	if _, err := time.Parse(time.RFC3339Nano, newest.At); err != nil {
		t.Fatalf("at %q: %v", newest.At, err)
	}
	e, _, err := b.Commit(ctx, "plan", newest.Commit)
	if err != nil || e.Revision != 2 || e.Commit != newest.Commit {
		t.Fatalf("commit %s: %v %+v", newest.Commit, err, e)
	}
	if _, _, err := b.Commit(ctx, "plan", "01NOSUCHCOMMIT0000000000000"); code(err) != store.CodeNotFound {
		t.Fatalf("an unknown commit: %v", err)
	}
	if _, _, err := b.Commit(ctx, "nothing", newest.Commit); code(err) != store.CodeNotFound {
		t.Fatalf("a commit of a missing scene: %v", err)
	}
	if data, err := b.ReadRevision(ctx, "plan", 1); err != nil || string(data) != string(Doc(1, "a")) {
		t.Fatalf("revision 1: %v %q", err, data)
	}
	if _, err := b.Log(ctx, store.LogQuery{Name: "nothing"}); code(err) != store.CodeNotFound {
		t.Fatalf("the log of a missing scene: %v", err)
	}
	agree(t, b, "plan")
}

// withoutDiffer: a codec that cannot tell what changed still gets an
// entry per commit, saying its images are unavailable, and no images.
func withoutDiffer(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "a"))
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(2, "b")})
	es := entries(t, b, store.LogQuery{Name: "plan"})
	if len(es) != 2 || es[0].Images != journal.ImagesUnavailable || len(es[0].Affected()) != 0 {
		t.Fatalf("entries: %+v", es)
	}
	_, im, err := b.Commit(ctx, "plan", es[0].Commit)
	if err != nil || im != nil {
		t.Fatalf("images without a differ: %v %+v", err, im)
	}
}

// commitImages: with a Differ, an entry says which elements the commit
// created, updated (moved), deleted and revived and which other members
// it changed, and Commit gives their before-images and after-states.
func commitImages(t *testing.T, b store.Backend) {
	e0, e1 := El("e0", 0, "a"), El("e1", 10, "a")
	mustCreate(t, b, "plan", DocOf(e0, e1))
	e0b, e2 := El("e0", 0, "b"), El("e2", 20, "a")
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: DocOf(e0b, e2)})
	e0moved := El("e0", 5, "b")
	e2gone := `{"id":"e2","type":"rectangle","x":20,"tag":"a","isDeleted":true}`
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 2, Data: DocOf(e0moved, e2gone)})
	revived := []byte(`{"type":"excalidraw","version":2,"appState":{"grid":1},"elements":[` + e0moved + "," + e2 + "]}\n")
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 3, Data: revived})

	es := entries(t, b, store.LogQuery{Name: "plan"})
	if len(es) != 4 {
		t.Fatalf("entries: %+v", es)
	}
	same := func(what string, got []string, want ...string) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}
	c4, c3, c2, c1 := es[0], es[1], es[2], es[3]
	same("created by the create", c1.Created, "e0", "e1")
	same("created", c2.Created, "e2")
	same("updated", c2.Updated, "e0")
	same("deleted by leaving", c2.Deleted, "e1")
	same("moved", c3.Moved, "e0")
	same("updated by a move", c3.Updated, "e0")
	same("deleted by isDeleted", c3.Deleted, "e2")
	same("revived", c4.Revived, "e2")
	same("members", c4.Members, "appState")
	for _, e := range es {
		if e.Images != journal.ImagesStored {
			t.Fatalf("entry %d: images %q", e.Revision, e.Images)
		}
	}
	entry, im, err := b.Commit(ctx, "plan", c2.Commit)
	if err != nil || entry.Commit != c2.Commit || im == nil {
		t.Fatalf("commit: %v %+v %+v", err, entry, im)
	}
	before := func(id string) string {
		t.Helper()
		x, ok := im.BeforeOf(id)
		if !ok {
			t.Fatalf("no before-image of %s: %+v", id, im)
		}
		return string(x.Element)
	}
	if before("e0") != e0 || before("e1") != e1 || (before("e2") != "" && before("e2") != "null") {
		t.Fatalf("before-images: %+v", im.Before)
	}
	if st, ok := im.AfterOf("e1"); !ok || !st.Absent {
		t.Fatalf("e1 after: %+v", st)
	}
	if st, ok := im.AfterOf("e0"); !ok || st.Hash != journal.Fingerprint([]byte(e0b)) || st.Absent {
		t.Fatalf("e0 after: %+v", st)
	}
	if _, im, err := b.Commit(ctx, "plan", c3.Commit); err != nil || im == nil || len(im.After) != 2 {
		t.Fatalf("images of the move: %v %+v", err, im)
	} else if st, _ := im.AfterOf("e2"); !st.Deleted {
		t.Fatalf("e2 after its deletion: %+v", st)
	}
}

// imagesSkipped: before-images over MaxImageBytes are not kept (the
// entry says so), while the ids and after-states still are.
func imagesSkipped(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "x"))
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(20, "y")})
	es := entries(t, b, store.LogQuery{Name: "plan"})
	if len(es) != 2 || es[0].Images != journal.ImagesSkipped || len(es[0].Updated) != 1 || len(es[0].Created) != 19 {
		t.Fatalf("entries: %+v", es)
	}
	if es[1].Images != journal.ImagesStored {
		t.Fatalf("the create's small images: %q", es[1].Images)
	}
	_, im, err := b.Commit(ctx, "plan", es[0].Commit)
	if err != nil || im == nil || len(im.Before) != 0 || len(im.After) != 20 {
		t.Fatalf("images: %v %+v", err, im)
	}
}

// retentionEntries: a journal keeps about MaxEntries entries (the file
// store drops them in batches: up to a tenth, at least one, more), the
// newest always.
func retentionEntries(t *testing.T, b store.Backend) {
	mustCreate(t, b, "plan", Doc(1, "r1"))
	first := entries(t, b, store.LogQuery{Name: "plan"})[0]
	for rev := int64(1); rev < 10; rev++ {
		mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: rev, Data: Doc(1, fmt.Sprint("r", rev+1))})
	}
	es := entries(t, b, store.LogQuery{Name: "plan"})
	if len(es) < 3 || len(es) > 4 {
		t.Fatalf("kept %v of 10 with MaxEntries 3", revisionsOf(es))
	}
	for i, e := range es {
		if e.Revision != 10-int64(i) || e.Seq != e.Revision {
			t.Fatalf("kept %v: the newest, in order", revisionsOf(es))
		}
	}
	if _, _, err := b.Commit(ctx, "plan", first.Commit); code(err) != store.CodeNotFound {
		t.Fatalf("a dropped commit: %v", err)
	}
	agree(t, b, "plan")
}

// retentionAge: entries older than MaxAge are dropped, the newest kept.
func retentionAge(t *testing.T, b store.Backend, c *clock) {
	mustCreate(t, b, "plan", Doc(1, "t0"))
	for i := int64(1); i < 10; i++ {
		c.Add(24 * time.Hour)
		mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: i, Data: Doc(1, fmt.Sprint("t", i))})
	}
	if got := revisionsOf(entries(t, b, store.LogQuery{Name: "plan"})); fmt.Sprint(got) != "[10 9 8]" {
		t.Fatalf("kept %v, want the last two days' and today's", got)
	}
	c.Add(30 * 24 * time.Hour)
	mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 10, Data: Doc(1, "late")})
	if got := revisionsOf(entries(t, b, store.LogQuery{Name: "plan"})); fmt.Sprint(got) != "[11]" {
		t.Fatalf("kept %v, want only the newest", got)
	}
	agree(t, b, "plan")
}
