package service

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// recordOnly is a store that tells a head by its record alone, as the
// database's does: no HeldScene.
type recordOnly struct{ store.Backend }

// deltaStores runs test over a file store, and over one without
// HeldScene (the head's bytes found by their hash), on the directory dir.
func deltaStores(t *testing.T, test func(t *testing.T, open func(dir string) *Service)) {
	t.Run("file", func(t *testing.T) {
		test(t, func(dir string) *Service { return openAt(t, dir, scene.DefaultLimits()) })
	})
	t.Run("record-only", func(t *testing.T) {
		test(t, func(dir string) *Service {
			s, err := New(Config{DrawingsDir: dir, Limits: scene.DefaultLimits(), OpenStore: func(p StoreParams) (store.Backend, error) {
				st, err := store.Open(store.Options{Dir: dir, Codec: p.Codec, MaxSceneBytes: p.MaxSceneBytes, Journal: p.Journal, Now: p.Now})
				return recordOnly{st}, err
			}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		})
	})
}

// TestDeltaSharedAmongStreams: the streams of a board asking for the
// same commit's delta at once get one delta (one computation, encoded
// once), and that delta is the one a lone stream gets.
func TestDeltaSharedAmongStreams(t *testing.T) {
	deltaStores(t, testDeltaShared)
}

func testDeltaShared(t *testing.T, open func(dir string) *Service) {
	s := open(filepath.Join(t.TempDir(), "drawings"))
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(rects(300)...)}); err != nil {
		t.Fatal(err)
	}
	apply(t, s, "d", 1, `{"op":"update","id":"r7","patch":{"x":5}}`)
	const streams = 8
	got := make([]*Delta, streams)
	var wg sync.WaitGroup
	for i := range streams {
		wg.Go(func() {
			d, err := s.Delta(ctx, "d", 1)
			if err != nil {
				t.Error(err)
			}
			got[i] = d
		})
	}
	wg.Wait()
	for _, d := range got[1:] {
		if d != got[0] {
			t.Fatal("the streams computed their own deltas of one commit")
		}
	}
	ids, els := deltaIDs(t, got[0])
	if got[0].Resync || got[0].Revision != 2 || !slices.Equal(ids, []string{"r7"}) || els["r7"]["x"] != 5.0 {
		t.Fatalf("delta %+v ids %v", got[0], ids)
	}
	a, err := got[0].JSON()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := got[1].JSON()
	want, _ := json.Marshal(got[0])
	if string(a) != string(want) || &a[0] != &b[0] {
		t.Fatalf("encoded %s, want %s once", a, want)
	}

	// The next commit is a new delta (the head moved), as is one from
	// another revision.
	apply(t, s, "d", 2, `{"op":"delete","id":"r8"}`)
	d, err := s.Delta(ctx, "d", 2)
	if err != nil {
		t.Fatal(err)
	}
	if ids, els := deltaIDs(t, d); d.Revision != 3 || !slices.Equal(ids, []string{"r8"}) || els["r8"]["isDeleted"] != true {
		t.Fatalf("next commit: %+v ids %v", d, ids)
	}
	if d, err = s.Delta(ctx, "d", 1); err != nil || d.Revision != 3 || len(d.Elements) != 2 {
		t.Fatalf("from 1: %+v %v", d, err)
	}
}

// TestDeltaSharedNotPastAccess: a delta one viewer's stream computed is
// not given to a caller who may not read the board.
func TestDeltaSharedNotPastAccess(t *testing.T) {
	e := newBoardEnv(t)
	e.board(t, bdAlice, "plan")
	alice, bob := accesstest.As(bdAlice), accesstest.As(bdBob)
	if _, err := e.svc.Apply(alice, ApplyRequest{Name: "plan", ExpectedRevision: 1, Operations: raws(
		`{"op":"add","element":{"type":"rectangle","id":"r","x":0,"y":0,"width":10,"height":10}}`)}); err != nil {
		t.Fatal(err)
	}
	if d, err := e.svc.Delta(alice, "plan", 1); err != nil || d.Resync || len(d.Elements) != 1 {
		t.Fatalf("alice: %+v %v", d, err)
	}
	if d, err := e.svc.Delta(bob, "plan", 1); err == nil || sceneerr.CodeOf(err) != sceneerr.NotFound {
		t.Fatalf("bob, no member of plan, got %+v %v", d, err)
	}
}

// TestDeltaOtherWriter: a commit by another process on the directory
// (whose bytes this one never held) gives its own delta, not one kept
// from before.
func TestDeltaOtherWriter(t *testing.T) {
	deltaStores(t, func(t *testing.T, open func(dir string) *Service) {
		testDeltaOtherWriter(t, open)
	})
}

func testDeltaOtherWriter(t *testing.T, open func(dir string) *Service) {
	dir := filepath.Join(t.TempDir(), "drawings")
	s, other := open(dir), openAt(t, dir, scene.DefaultLimits())
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(rects(3)...)}); err != nil {
		t.Fatal(err)
	}
	apply(t, s, "d", 1, `{"op":"update","id":"r0","patch":{"x":7}}`)
	if d, err := s.Delta(ctx, "d", 1); err != nil || d.Revision != 2 {
		t.Fatalf("%+v %v", d, err)
	}
	apply(t, other, "d", 2, `{"op":"update","id":"r1","patch":{"x":9}}`)
	for from, want := range map[int64][]string{1: {"r0", "r1"}, 2: {"r1"}} {
		d, err := s.Delta(ctx, "d", from)
		if err != nil {
			t.Fatal(err)
		}
		ids, els := deltaIDs(t, d)
		if d.Resync || d.Revision != 3 || !slices.Equal(ids, want) || els["r1"]["x"] != 9.0 {
			t.Fatalf("from %d: %+v ids %v", from, d, ids)
		}
	}
}

// TestDeltaCacheFailureNotShared: a computation that failed (for its own
// caller) is not handed to those waiting for it: the next one computes.
func TestDeltaCacheFailureNotShared(t *testing.T) {
	var c deltaCache
	key := keyOf(1, store.Meta{Revision: 2, SHA256: "x"})
	first, mine := c.join("d", key)
	if !mine {
		t.Fatal("the first caller waits")
	}
	waiting, mine := c.join("d", key)
	if mine || waiting != first {
		t.Fatal("a second caller computes while the first does")
	}
	c.end("d", first, nil)
	<-waiting.done
	if waiting.d != nil {
		t.Fatal("a failure was shared")
	}
	again, mine := c.join("d", key)
	if !mine || again == first {
		t.Fatal("a failed computation is still kept")
	}
	d := &Delta{Head: Head{Revision: 2, SHA256: "x"}, From: 1}
	c.end("d", again, d)
	if x, mine := c.join("d", key); mine || x.d != d {
		t.Fatal("a delta computed is not kept")
	}
}

// TestDeltaCacheBounds: the cache keeps at most deltaBoards boards, the
// heads' bytes within deltaHeldBytes, and deltasPerBoard deltas a board.
func TestDeltaCacheBounds(t *testing.T) {
	var c deltaCache
	big := make([]byte, deltaHeldBytes/5)
	for i := range deltaBoards + 10 {
		name := fmt.Sprint("b", i)
		c.keepHead(name, "sha", big)
		for from := range int64(deltasPerBoard + 2) {
			call, _ := c.join(name, keyOf(from, store.Meta{Revision: 100}))
			c.end(name, call, &Delta{Head: Head{Revision: 100}})
		}
	}
	if len(c.boards) > deltaBoards || c.held > deltaHeldBytes {
		t.Fatalf("%d boards, %d bytes held", len(c.boards), c.held)
	}
	var held int64
	for name, b := range c.boards {
		held += int64(len(b.head.data))
		for _, x := range b.recent {
			held += x.size
		}
		if len(b.recent) > deltasPerBoard {
			t.Fatalf("%s keeps %d deltas", name, len(b.recent))
		}
	}
	if held != c.held {
		t.Fatalf("held %d, counted %d", held, c.held)
	}
	if c.headData(fmt.Sprint("b", deltaBoards+9), "sha") == nil {
		t.Fatal("the newest head was dropped")
	}

	// Deltas count too: many large ones stay within the bound, and one
	// too large to keep is handed to its waiters only.
	large := &Delta{Head: Head{Revision: 100}, Elements: []json.RawMessage{make(json.RawMessage, deltaHeldBytes/40)}}
	for i := range 2 * deltaBoards {
		name := fmt.Sprint("d", i)
		call, _ := c.join(name, keyOf(1, store.Meta{Revision: 100}))
		c.end(name, call, large)
		if c.held > deltaHeldBytes {
			t.Fatalf("%d bytes held after %d large deltas", c.held, i+1)
		}
	}
	huge := &Delta{Head: Head{Revision: 100}, Elements: []json.RawMessage{make(json.RawMessage, deltaHeldBytes/8)}}
	call, _ := c.join("h", keyOf(1, store.Meta{Revision: 100}))
	c.end("h", call, huge)
	if call.d != huge {
		t.Fatal("the huge delta was not handed to its waiters")
	}
	if x, mine := c.join("h", keyOf(1, store.Meta{Revision: 100})); !mine || x == call {
		t.Fatal("a delta over the bound was kept")
	}
}
