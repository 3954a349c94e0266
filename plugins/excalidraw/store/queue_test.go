package store

import (
	"context"
	"errors"
	"sync"
	"testing"
)

func TestNameQueueSerialisesOneName(t *testing.T) {
	q := newNameQueue()
	var mu sync.Mutex
	inside, maxInside := 0, 0
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			release, err := q.acquire(bg, "a", nil)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inside++
			maxInside = max(maxInside, inside)
			mu.Unlock()
			mu.Lock()
			inside--
			mu.Unlock()
			release()
		})
	}
	wg.Wait()
	if maxInside != 1 {
		t.Fatalf("%d inside at once", maxInside)
	}
	if q.size() != 0 {
		t.Fatalf("map keeps %d slots", q.size())
	}
}

func TestNameQueueDoesNotGrowWithNames(t *testing.T) {
	q := newNameQueue()
	for i := range 1000 {
		release, _ := q.acquire(bg, string(rune('a'+i%26))+string(rune('a'+i/26%26)), nil)
		release()
	}
	if q.size() != 0 {
		t.Fatalf("%d slots left", q.size())
	}
}

func TestNameQueueWaitObservesContext(t *testing.T) {
	q := newNameQueue()
	release, _ := q.acquire(bg, "a", nil)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := q.acquire(ctx, "a", nil); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	release()
	if q.size() != 0 {
		t.Fatalf("cancelled waiter leaked its slot: %d", q.size())
	}
	other, err := q.acquire(bg, "b", nil) // other names never wait
	if err != nil {
		t.Fatal(err)
	}
	other()
}
