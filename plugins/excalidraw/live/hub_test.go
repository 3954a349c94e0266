package live

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// recv waits for the next change of a one-scene subscription or fails.
func recv(t *testing.T, s *Subscription) Change {
	t.Helper()
	got := recvAll(t, s)
	if len(got) != 1 {
		t.Fatalf("got %d changes at once, want 1: %+v", len(got), got)
	}
	return got[0]
}

// recvAll waits until changes are ready and takes them.
func recvAll(t *testing.T, s *Subscription) []Change {
	t.Helper()
	select {
	case _, ok := <-s.Ready():
		if !ok {
			t.Fatal("subscription closed")
		}
		return s.Take()
	case <-time.After(5 * time.Second):
		t.Fatal("no change within 5s")
	}
	return nil
}

// empty fails if a change is waiting. Publish delivers synchronously, so
// after it returns there is nothing in flight to wait for.
func empty(t *testing.T, s *Subscription) {
	t.Helper()
	select {
	case _, ok := <-s.Ready():
		t.Fatalf("unexpected %+v (open %v)", s.Take(), ok)
	default:
	}
}

// closed reports whether the subscription has ended.
func closed(s *Subscription) bool {
	select {
	case _, ok := <-s.Ready():
		return !ok
	default:
		return false
	}
}

func subscribe(t *testing.T, h *Hub, name string) *Subscription {
	t.Helper()
	s, err := h.Subscribe(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestPublishReachesOnlyThatScene(t *testing.T) {
	h := NewHub(nil)
	defer h.Close()
	a, b := subscribe(t, h, "a"), subscribe(t, h, "b")
	a2 := subscribe(t, h, "a")
	h.Publish(Change{Name: "a", Revision: 1, SHA256: "x"})
	for _, s := range []*Subscription{a, a2} {
		if c := recv(t, s); c.Name != "a" || c.Revision != 1 || c.SHA256 != "x" {
			t.Fatalf("got %+v", c)
		}
	}
	empty(t, b)
}

func TestPublishDropsWhatIsNotNewer(t *testing.T) {
	h := NewHub(nil)
	defer h.Close()
	s := subscribe(t, h, "a")
	h.Publish(Change{Name: "a", Revision: 3})
	recv(t, s)
	h.Publish(Change{Name: "a", Revision: 3, SHA256: "other"}) // the same commit seen again
	h.Publish(Change{Name: "a", Revision: 2})                  // a stale read
	h.Publish(Change{Name: "a", Revision: 0})
	empty(t, s)
	h.Publish(Change{Name: "a", Revision: 4})
	if c := recv(t, s); c.Revision != 4 {
		t.Fatalf("got %+v", c)
	}
	// Dedupe state is kept for names nobody watches too, so a late
	// subscriber is not sent an old revision again.
	h.Publish(Change{Name: "b", Revision: 5})
	b := subscribe(t, h, "b")
	h.Publish(Change{Name: "b", Revision: 5})
	empty(t, b)
}

func TestSlowReaderGetsOnlyTheNewest(t *testing.T) {
	h := NewHub(nil)
	defer h.Close()
	s := subscribe(t, h, "a")
	for r := int64(1); r <= 10; r++ {
		h.Publish(Change{Name: "a", Revision: r}) // must not block
	}
	if c := recv(t, s); c.Revision != 10 {
		t.Fatalf("got %+v, want revision 10", c)
	}
	empty(t, s)
}

func TestHubCloseEndsSubscriptions(t *testing.T) {
	h := NewHub(nil)
	s := subscribe(t, h, "a")
	h.Close()
	h.Close()
	if !closed(s) {
		t.Fatal("subscription still open after Hub.Close")
	}
	s.Close() // after the hub closed it: no double close
	h.Publish(Change{Name: "a", Revision: 1})
	if _, err := h.Subscribe("a"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Subscribe after Close: %v", err)
	}
}

func TestSubscriptionClose(t *testing.T) {
	h := NewHub(nil)
	defer h.Close()
	s := subscribe(t, h, "a")
	other := subscribe(t, h, "a")
	s.Close()
	s.Close()
	if !closed(s) {
		t.Fatal("subscription still open after Close")
	}
	h.Publish(Change{Name: "a", Revision: 1}) // must not send on the closed channel
	recv(t, other)
	if n := len(h.subs["a"]); n != 1 {
		t.Fatalf("%d subscriptions left for a, want 1", n)
	}
}

// TestConcurrentUse runs publishers, subscribers and closes at once (run
// with -race). Every subscriber sees strictly increasing revisions and,
// once publishing is over, the last one.
func TestConcurrentUse(t *testing.T) {
	h := NewHub(nil)
	const names, subsPerName, revisions = 4, 5, 200
	var subs sync.WaitGroup
	for n := range names {
		name := fmt.Sprint("s", n)
		for range subsPerName {
			s := subscribe(t, h, name)
			subs.Go(func() {
				var last int64
				for range s.Ready() {
					for _, c := range s.Take() {
						if c.Revision <= last {
							t.Errorf("%s: revision %d after %d", name, c.Revision, last)
						}
						last = c.Revision
					}
					if last == revisions {
						break
					}
				}
				if last != revisions {
					t.Errorf("%s: ended at %d", name, last)
				}
			})
		}
	}
	var pubs sync.WaitGroup
	for n := range names {
		name := fmt.Sprint("s", n)
		// Two publishers per name, as the commit hook and the watcher.
		for range 2 {
			pubs.Go(func() {
				for r := int64(1); r <= revisions; r++ {
					h.Publish(Change{Name: name, Revision: r})
				}
			})
		}
	}
	churn := make(chan struct{})
	go func() {
		defer close(churn)
		for i := 0; i < 100; i++ {
			if s, err := h.Subscribe("s0"); err == nil {
				s.Close()
			}
		}
	}()
	pubs.Wait()
	subs.Wait()
	<-churn
	h.Close()
}

// TestSubscribeAllKeepsNewestPerScene: a scene list's subscription sees
// every scene that changed, with its newest revision, however many
// commits land before it reads — none is dropped for another.
func TestSubscribeAllKeepsNewestPerScene(t *testing.T) {
	h := NewHub(nil)
	defer h.Close()
	all, err := h.SubscribeAll()
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	one := subscribe(t, h, "b")
	h.Publish(Change{Name: "a", Revision: 1, At: "2026-12-01T00:00:01.000Z"})
	h.Publish(Change{Name: "b", Revision: 1, At: "2026-12-01T00:00:02.000Z"})
	h.Publish(Change{Name: "a", Revision: 2, At: "2026-12-01T00:00:03.000Z"})
	h.Publish(Change{Name: "c", Revision: 7, At: "2026-12-01T00:00:04.000Z"})
	got := recvAll(t, all)
	want := []Change{
		{Name: "b", Revision: 1, At: "2026-12-01T00:00:02.000Z"},
		{Name: "a", Revision: 2, At: "2026-12-01T00:00:03.000Z"},
		{Name: "c", Revision: 7, At: "2026-12-01T00:00:04.000Z"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	empty(t, all)
	if c := recv(t, one); c.Name != "b" {
		t.Fatalf("scene subscription got %+v", c)
	}
	if _, err := h.Subscribe(""); err == nil {
		t.Fatal("Subscribe(\"\") succeeded")
	}
}

// Published tells what a Publish would drop, without publishing.
func TestPublished(t *testing.T) {
	h := NewHub(nil)
	defer h.Close()
	if h.Published("a", 1) {
		t.Fatal("nothing was published yet")
	}
	h.Publish(Change{Name: "a", Revision: 3})
	if !h.Published("a", 3) || !h.Published("a", 2) || h.Published("a", 4) || h.Published("b", 1) {
		t.Fatal("Published disagrees with what was published")
	}
}
