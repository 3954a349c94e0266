package thumbnail

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// TestAskersAccessIsNotKept: a render that fails because the viewer it
// read as lost the board (not_found) does not replace the picture drawn
// before, nor is its error served to the next viewer, who gets the
// picture and makes the cache draw again.
func TestAskersAccessIsNotKept(t *testing.T) {
	var calls atomic.Int64
	var rev atomic.Int64
	rev.Store(1)
	c := New(func(ctx context.Context, k Key) (Picture, error) {
		if calls.Add(1) == 2 {
			return Picture{}, sceneerr.New(sceneerr.NotFound, "scene %s not found", k.Name)
		}
		return Picture{Revision: rev.Load(), ETag: "e"}, nil
	}, Options{Interval: time.Millisecond, Workers: 1})
	defer c.Close()
	k := Key{Name: "b", MaxPixels: 1000}
	ctx := context.Background()
	if p, err := c.Get(ctx, k, 1); err != nil || p.Revision != 1 {
		t.Fatalf("first picture: %+v, %v", p, err)
	}
	rev.Store(2)
	// Revision 2 is asked for; its render (the second) fails on the
	// asker's access.
	if _, err := c.Get(ctx, k, 2); err != nil {
		t.Fatalf("a viewer of revision 2 got %v, want the picture of revision 1", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for calls.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the failed render settles
	p, err := c.Get(ctx, k, 2)
	if err != nil || p.Revision < 1 {
		t.Fatalf("after a render failed on its asker's access: %+v, %v; want a picture", p, err)
	}
	for p.Revision != 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
		p, err = c.Get(ctx, k, 2)
	}
	if err != nil || p.Revision != 2 {
		t.Fatalf("the next viewer's request did not draw revision 2: %+v, %v", p, err)
	}
}
