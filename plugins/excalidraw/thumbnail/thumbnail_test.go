package thumbnail

import (
	"context"
	"errors"
	"testing"
	"time"
)

// viewer is a context naming who asks (what a render reads as).
type viewerKey struct{}

func as(who string) context.Context {
	return context.WithValue(context.Background(), viewerKey{}, who)
}

// board is a render of one board of revision rev that the viewers in
// lost may no longer read, and that has nothing to draw when empty. Each
// render sends who it read as on drew, when set.
type board struct {
	rev   chan int64 // holds the revision
	lost  map[string]bool
	empty bool
	drew  chan string
}

var (
	errLost  = errors.New("not_found: the board is not there for this viewer")
	errEmpty = errors.New("not_found: nothing to draw")
)

func (b *board) render(ctx context.Context, k Key) (Picture, error) {
	who, _ := ctx.Value(viewerKey{}).(string)
	if b.drew != nil {
		b.drew <- who
	}
	rev := <-b.rev
	b.rev <- rev
	switch {
	case b.lost[who]:
		return Picture{}, Asker(errLost)
	case b.empty:
		return Picture{}, errEmpty
	}
	return Picture{Revision: rev, ETag: who}, nil
}

func newBoard(rev int64) *board {
	b := &board{rev: make(chan int64, 1), lost: map[string]bool{}}
	b.rev <- rev
	return b
}

func (b *board) set(rev int64) {
	<-b.rev
	b.rev <- rev
}

// TestAskersFailureKeepsThePicture: a render that fails on its asker's
// access (Asker) does not replace the picture drawn before, nor is the
// failure served to the next viewer, whose request draws again as them.
func TestAskersFailureKeepsThePicture(t *testing.T) {
	b := newBoard(1)
	b.drew = make(chan string, 1000)
	c := New(b.render, Options{Interval: time.Millisecond, Workers: 1})
	defer c.Close()
	k := Key{Name: "b", MaxPixels: 1000}
	if p, err := c.Get(as("alice"), k, 1); err != nil || p.Revision != 1 {
		t.Fatalf("first picture: %+v %v", p, err)
	}
	<-b.drew

	// Bob, who has just lost the board, asks for revision 2 first.
	b.set(2)
	b.lost["bob"] = true
	if p, err := c.Get(as("bob"), k, 2); err != nil || p.Revision != 1 {
		t.Fatalf("bob: %+v %v, want the r1 picture while r2 is drawn", p, err)
	}
	if who := <-b.drew; who != "bob" {
		t.Fatalf("the render read as %q, want bob (who asked last)", who)
	}
	// Carol asks meanwhile or after that render failed: the r1 picture
	// until r2 is drawn, as her.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		p, err := c.Get(as("carol"), k, 2)
		if err != nil {
			t.Fatalf("carol was served bob's failure: %v", err)
		}
		if p.Revision == 2 {
			if p.ETag != "carol" {
				t.Fatalf("r2 drawn as %q, want carol", p.ETag)
			}
			break
		}
		if p.Revision != 1 || time.Now().After(deadline) {
			t.Fatalf("carol: %+v, want the r1 picture until r2 is drawn", p)
		}
	}
}

// TestAskersFailureWhileWaiting: viewers waiting for a board's first
// picture are not given the failure of the viewer the render read as:
// the picture is drawn as one of them at once, and that viewer alone is
// told.
func TestAskersFailureWhileWaiting(t *testing.T) {
	b := newBoard(3)
	b.lost["bob"] = true
	type answer struct {
		p   Picture
		err error
	}
	// Bob (lost) and Alice wait for the board's first render, which
	// reads as Bob and fails; Alice gets it drawn as her, Bob his own
	// failure.
	k := Key{Name: "b", MaxPixels: 2000}
	bob := make(chan answer, 1)
	hold, started := make(chan struct{}), make(chan struct{}, 10)
	c := New(b.render, Options{Interval: time.Hour, Workers: 1, OnRender: func(Key) {
		started <- struct{}{}
		<-hold
	}})
	defer c.Close()
	go func() { p, err := c.Get(as("bob"), k, 3); bob <- answer{p, err} }()
	<-started // the render reads as bob, who asked
	alice := make(chan answer, 1)
	go func() { p, err := c.Get(as("alice"), k, 3); alice <- answer{p, err} }()
	for c.asked(k) != 2 {
		time.Sleep(time.Millisecond)
	}
	close(hold)
	if a := <-alice; a.err != nil || a.p.Revision != 3 || a.p.ETag != "alice" {
		t.Fatalf("alice, waiting for a render that failed as bob: %+v", a)
	}
	if a := <-bob; !errors.Is(a.err, errLost) && a.p.ETag != "alice" {
		t.Fatalf("bob: %+v, want his own failure (or the picture drawn since)", a)
	}
}

// TestBoardsFailureIsKept: a failure of the board itself (nothing to
// draw) is kept and answered to every viewer of that revision without
// drawing again.
func TestBoardsFailureIsKept(t *testing.T) {
	b := newBoard(1)
	b.empty = true
	c := New(b.render, Options{Interval: time.Millisecond, Workers: 1})
	defer c.Close()
	k := Key{Name: "b", MaxPixels: 1000}
	for _, who := range []string{"alice", "bob", "carol"} {
		if _, err := c.Get(as(who), k, 1); !errors.Is(err, errEmpty) {
			t.Fatalf("%s: %v, want nothing to draw", who, err)
		}
	}
	if n := c.Renders(); n != 1 {
		t.Fatalf("%d renders, want 1", n)
	}
}

// asked is the number of the last Get of k (how many there were, in a
// cache of one key).
func (c *Cache) asked(k Key) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[k]; e != nil {
		return e.asker
	}
	return 0
}
