package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// previews records what a service previewed and how each write ended.
type previews struct {
	mu    sync.Mutex
	shown []previewed
}

type previewed struct {
	board    string
	ids      []string
	versions []float64
	// head is the stored revision while the preview was being shown.
	head    int64
	settled bool
	err     error
}

func (p *previews) last(t *testing.T) previewed {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.shown) == 0 {
		t.Fatal("nothing was previewed")
	}
	return p.shown[len(p.shown)-1]
}

func (p *previews) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.shown)
}

// openPreviewing is a service on dir whose previews p records; wrap, if
// set, wraps its store. The stored head at preview time is read from the
// store's files (Head takes no lock), through head.
func openPreviewing(t *testing.T, dir string, p *previews, wrap func(store.Backend) store.Backend) *Service {
	t.Helper()
	var s *Service
	s, err := New(Config{DrawingsDir: dir, Limits: scene.DefaultLimits(),
		OpenStore: func(sp StoreParams) (store.Backend, error) {
			st, err := store.Open(store.Options{Dir: dir, Codec: sp.Codec, MaxSceneBytes: sp.MaxSceneBytes, Journal: sp.Journal, Now: sp.Now})
			if err != nil || wrap == nil {
				return st, err
			}
			return wrap(st), nil
		},
		OnPreview: func(board string, els []json.RawMessage) func(error) {
			v := previewed{board: board}
			for _, raw := range els {
				var h struct {
					ID      string  `json:"id"`
					Version float64 `json:"version"`
				}
				if err := json.Unmarshal(raw, &h); err != nil {
					t.Errorf("a previewed element is not JSON: %v", err)
				}
				v.ids, v.versions = append(v.ids, h.ID), append(v.versions, h.Version)
			}
			if h, err := s.Head(ctx, board); err == nil {
				v.head = h.Revision
			}
			p.mu.Lock()
			i := len(p.shown)
			p.shown = append(p.shown, v)
			p.mu.Unlock()
			return func(err error) {
				p.mu.Lock()
				defer p.mu.Unlock()
				if p.shown[i].settled {
					t.Errorf("preview %d settled twice", i)
				}
				p.shown[i].settled, p.shown[i].err = true, err
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// An agent's write is previewed with exactly the elements it changed, as
// they are then stored, while the store still has the revision before
// it; it settles with nil once stored. A write that changes nothing, a
// dry run and a refused write show nothing.
func TestPreviewShowsAWriteBeforeItIsStored(t *testing.T) {
	var p previews
	s := openPreviewing(t, filepath.Join(t.TempDir(), "drawings"), &p, nil)
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(rects(300)...)}); err != nil {
		t.Fatal(err)
	}
	if n := p.count(); n != 0 {
		t.Fatalf("a create was previewed %d times", n)
	}
	res := apply(t, s, "d", 1, `{"op":"update","id":"r7","patch":{"x":5}}`,
		`{"op":"add","element":{"type":"rectangle","id":"new","x":0,"y":200,"width":50,"height":40}}`)
	got := p.last(t)
	if got.board != "d" || fmt.Sprint(got.ids) != "[r7 new]" || got.head != 1 || !got.settled || got.err != nil {
		t.Fatalf("previewed %+v for revision %d", got, res.Revision)
	}
	stored := readElements(t, s, "d")
	for i, id := range got.ids {
		if v := stored[id]["version"]; v != got.versions[i] {
			t.Errorf("%s previewed at version %v, stored at %v", id, got.versions[i], v)
		}
	}

	n := p.count()
	apply(t, s, "d", 2, `{"op":"update","id":"r7","patch":{"x":5}}`) // as it is
	if _, err := s.Write(ctx, WriteRequest{Name: "d", Options: WriteOptions{DryRun: true}}, moveOne("r8", 10)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "d", ExpectedRevision: 1, Operations: raws(`{"op":"delete","id":"r9"}`)}); err == nil {
		t.Fatal("a stale write was taken")
	}
	if m := p.count(); m != n {
		t.Fatalf("an unchanged write, a dry run or a stale write was previewed (%d previews, want %d)", m, n)
	}
}

// A write whose store fails after its plan ran (the disk, say) settles its
// preview with that error, so what showed it can take it back; the agent
// gets the error too.
func TestPreviewSettlesWithTheStoresError(t *testing.T) {
	var p previews
	dir := filepath.Join(t.TempDir(), "drawings")
	failing := false
	var mu sync.Mutex
	s := openPreviewing(t, dir, &p, func(b store.Backend) store.Backend {
		return failAfterMutate{Backend: b, fail: func() bool { mu.Lock(); defer mu.Unlock(); return failing }}
	})
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(rects(3)...)}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	failing = true
	mu.Unlock()
	_, err := s.Apply(ctx, ApplyRequest{Name: "d", ExpectedRevision: 1, Operations: raws(`{"op":"update","id":"r1","patch":{"x":5}}`)})
	if err == nil {
		t.Fatal("the failed write was acknowledged")
	}
	got := p.last(t)
	if fmt.Sprint(got.ids) != "[r1]" || !got.settled || !errors.Is(got.err, errDisk) {
		t.Fatalf("previewed %+v", got)
	}
}

// A write that changes more elements than a delta carries shows nothing
// early: the commit's own delta (or a resync) brings them.
func TestPreviewLeavesLargeWritesToTheCommit(t *testing.T) {
	var p previews
	s := openPreviewing(t, filepath.Join(t.TempDir(), "drawings"), &p, nil)
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(rects(MaxDeltaElements + 1)...)}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range MaxDeltaElements + 1 {
		ids = append(ids, fmt.Sprint("r", i))
	}
	if _, err := s.Write(ctx, WriteRequest{Name: "d"}, func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		_, err := tx.Move(ids, 0, 7, "/ids")
		return PlanResult{Targets: ids}, err
	}); err != nil {
		t.Fatal(err)
	}
	if n := p.count(); n != 0 {
		t.Fatalf("%d previews of a write of %d elements", n, len(ids))
	}
	apply(t, s, "d", 2, `{"op":"update","id":"r1","patch":{"y":9}}`)
	if got := p.last(t); fmt.Sprint(got.ids) != "[r1]" {
		t.Fatalf("previewed %v", got.ids)
	}
}

var errDisk = errors.New("the disk is gone")

// failAfterMutate is a store whose writes fail once their Mutate ran, as
// a write does whose disk fails under it (a fake: a failing disk cannot
// be had here).
type failAfterMutate struct {
	store.Backend
	fail func() bool
}

func (f failAfterMutate) Update(c context.Context, r store.UpdateRequest) (*store.Result, error) {
	if !f.fail() {
		return f.Backend.Update(c, r)
	}
	mutate := r.Mutate
	var ran bool
	r.Mutate = func(cur *store.Scene) ([]byte, error) {
		if _, err := mutate(cur); err != nil {
			return nil, err
		}
		ran = true
		return nil, errDisk
	}
	res, err := f.Backend.Update(c, r)
	if !ran {
		return res, err
	}
	return nil, fmt.Errorf("commit: %w", errDisk)
}

// readElements reads a scene's elements by id.
func readElements(t *testing.T, s *Service, name string) map[string]map[string]any {
	t.Helper()
	res, err := s.Read(ctx, ReadRequest{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Elements []map[string]any `json:"elements"`
	}
	if err := json.Unmarshal(res.Scene, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, e := range doc.Elements {
		out[e["id"].(string)] = e
	}
	return out
}
