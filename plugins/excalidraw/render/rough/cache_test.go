package rough_test

import (
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
)

// The cache keeps its total cost under its bound by dropping the least
// recently used entries, and a Get keeps an entry recent.
func TestCacheDropsTheLeastRecentlyUsed(t *testing.T) {
	c := rough.NewCache[string, int](30)
	c.Add("a", 1, 10)
	c.Add("b", 2, 10)
	c.Add("c", 3, 10)
	if _, ok := c.Get("a"); !ok {
		t.Fatal("a is gone before the cache is full")
	}
	c.Add("d", 4, 10) // over the bound: b, the least recent, goes
	if _, ok := c.Get("b"); ok {
		t.Error("b is kept past the bound")
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s is gone", k)
		}
	}
	if n, cost := c.Len(); n != 3 || cost != 30 {
		t.Errorf("%d entries costing %d, want 3 and 30", n, cost)
	}
	c.Add("huge", 5, 31)
	if _, ok := c.Get("huge"); ok {
		t.Error("an entry over the whole bound is kept")
	}
	c.Add("a", 6, 5) // replacing an entry replaces its cost
	if v, _ := c.Get("a"); v != 6 {
		t.Errorf("a is %d, want 6", v)
	}
	if _, cost := c.Len(); cost != 25 {
		t.Errorf("cost %d after replacing a, want 25", cost)
	}
	hits, misses := c.Stats()
	if hits == 0 || misses == 0 {
		t.Errorf("stats %d hits %d misses", hits, misses)
	}
	c.Purge()
	if n, cost := c.Len(); n != 0 || cost != 0 {
		t.Errorf("after Purge: %d entries costing %d", n, cost)
	}
}

func TestCacheConcurrent(t *testing.T) {
	c := rough.NewCache[int, int](100)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				k := (i * (g + 1)) % 37
				if v, ok := c.Get(k); ok && v != k {
					t.Errorf("%d holds %d", k, v)
					return
				}
				c.Add(k, k, 3)
			}
		})
	}
	wg.Wait()
	if _, cost := c.Len(); cost > 100 {
		t.Errorf("cost %d over the bound", cost)
	}
}
