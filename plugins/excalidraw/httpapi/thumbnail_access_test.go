package httpapi

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/thumbnail"
)

// TestThumbnailAskerLosesAccess: a render reads as the viewer who asked
// last; when that viewer lost the board before it ran, its failure is
// theirs: the picture drawn before is still served to the others, and
// the next one's request draws the newest revision as them. An empty
// board's "nothing to draw" is the board's, though: kept and answered
// (not_found: the list shows its placeholder) without drawing again.
func TestThumbnailAskerLosesAccess(t *testing.T) {
	needFonts(t)
	clock := accesstest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	guard, meta, _ := accesstest.Guard(t, clock)
	svc, err := service.New(service.Config{
		DrawingsDir: accesstest.Drawings(meta), LockTimeout: 2 * time.Second, Now: clock.Now,
		Rand: rand.New(rand.NewPCG(1, 2)), Fonts: editor.Fonts(), Guard: guard,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	alice, bob := accesstest.As(accesstest.Person("per_alice", "Alice")), accesstest.As(accesstest.Person("per_bob", "Bob"))
	for _, name := range []string{"plan", "blank"} {
		if _, err := svc.CreateBoard(alice, service.CreateBoardRequest{Name: name}); err != nil {
			t.Fatal(err)
		}
		if _, err := meta.SetMember(t.Context(), name, "per_bob", "viewer"); err != nil {
			t.Fatal(err)
		}
	}
	add := func(rev int64, id string) {
		t.Helper()
		op := json.RawMessage(`{"op":"add","element":{"type":"rectangle","id":"` + id + `","x":0,"y":0,"width":50,"height":40}}`)
		if _, err := svc.Apply(alice, service.ApplyRequest{Name: "plan", ExpectedRevision: rev, Operations: []json.RawMessage{op}}); err != nil {
			t.Fatal(err)
		}
	}
	add(1, "a")

	var holding atomic.Bool
	started, release := make(chan struct{}), make(chan struct{})
	th := newThumbnails(svc, thumbnail.Options{Interval: time.Millisecond, OnRender: func(thumbnail.Key) {
		if holding.Load() {
			started <- struct{}{}
			<-release
		}
	}}, nil)
	t.Cleanup(th.cache.Close)
	k := thumbnail.Key{Name: "plan", MaxPixels: thumbDefaultPixels}
	if p, err := th.cache.Get(alice, k, 2); err != nil || p.Revision != 2 {
		t.Fatalf("first picture: %+v %v", p, err)
	}

	// Revision 3; Bob asks first (he may read it then), and loses the
	// board before the render, which reads as him, runs.
	add(2, "b")
	holding.Store(true)
	if p, err := th.cache.Get(bob, k, 3); err != nil || p.Revision != 2 {
		t.Fatalf("bob: %+v %v, want the r2 picture while r3 is drawn", p, err)
	}
	<-started
	holding.Store(false)
	if _, err := meta.SetMember(t.Context(), "plan", "per_bob", ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.May(bob, "plan", access.Read); err == nil {
		t.Fatal("bob still reads plan")
	}
	// Alice asks while it is drawn, then it fails as Bob.
	if p, err := th.cache.Get(alice, k, 3); err != nil || p.Revision != 2 {
		t.Fatalf("alice during the render: %+v %v", p, err)
	}
	close(release)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		p, err := th.cache.Get(alice, k, 3)
		if err != nil {
			t.Fatalf("alice was served bob's failure: %v", err)
		}
		if p.Revision == 3 {
			break
		}
		if p.Revision != 2 || time.Now().After(deadline) {
			t.Fatalf("alice: %+v, want the r2 picture until r3 is drawn", p)
		}
	}

	// An empty board: nothing to draw, for everyone, kept.
	kb := thumbnail.Key{Name: "blank", MaxPixels: thumbDefaultPixels}
	_, err = th.cache.Get(alice, kb, 1)
	if sceneerr.CodeOf(err) != sceneerr.NotFound || !errors.Is(err, render.ErrEmpty) {
		t.Fatalf("blank: %v, want not_found (nothing to draw)", err)
	}
	n := th.cache.Renders()
	if _, err := th.cache.Get(bob, kb, 1); sceneerr.CodeOf(err) != sceneerr.NotFound {
		t.Fatalf("blank, again: %v", err)
	}
	if th.cache.Renders() != n {
		t.Fatal("an empty board was drawn again for the next viewer")
	}
}
