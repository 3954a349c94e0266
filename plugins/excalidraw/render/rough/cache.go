package rough

import (
	"sync"
	"sync/atomic"
)

// Cache keeps generated shapes by key (an element's identity and whatever
// else changes its drawing), so a shape is generated once for repeated
// renders. It holds at most a total cost (the caller's measure of an
// entry's memory) and drops the least recently used entries past it. It
// is safe for concurrent use; two callers missing the same key at once
// both generate, and the second Add wins.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	cost    int
	entries map[K]*cacheEntry[K, V]
	lru     cacheEntry[K, V] // sentinel: lru.next is the most recent

	hits, misses atomic.Int64
}

type cacheEntry[K comparable, V any] struct {
	key        K
	val        V
	cost       int
	prev, next *cacheEntry[K, V]
}

// NewCache is an empty cache holding entries up to maxCost in all.
func NewCache[K comparable, V any](maxCost int) *Cache[K, V] {
	c := &Cache[K, V]{max: maxCost, entries: map[K]*cacheEntry[K, V]{}}
	c.lru.prev, c.lru.next = &c.lru, &c.lru
	return c
}

// Get is the value stored under k, and marks it recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	e, ok := c.entries[k]
	if ok {
		c.unlink(e)
		c.pushFront(e)
	}
	c.mu.Unlock()
	if !ok {
		c.misses.Add(1)
		var zero V
		return zero, false
	}
	c.hits.Add(1)
	return e.val, true
}

// Add stores v under k at the given cost, dropping the least recently
// used entries while the total is over the cache's bound. A value that
// costs more than the whole bound is not kept.
func (c *Cache[K, V]) Add(k K, v V, cost int) {
	if cost > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[k]; ok {
		c.unlink(old)
		c.cost -= old.cost
	}
	e := &cacheEntry[K, V]{key: k, val: v, cost: cost}
	c.entries[k] = e
	c.pushFront(e)
	c.cost += cost
	for c.cost > c.max {
		last := c.lru.prev
		c.unlink(last)
		delete(c.entries, last.key)
		c.cost -= last.cost
	}
}

// Stats are the hits and misses of Get so far.
func (c *Cache[K, V]) Stats() (hits, misses int64) { return c.hits.Load(), c.misses.Load() }

// Len is the number of entries and their total cost.
func (c *Cache[K, V]) Len() (entries, cost int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.cost
}

// Purge drops every entry.
func (c *Cache[K, V]) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.lru.prev, c.lru.next = &c.lru, &c.lru
	c.cost = 0
}

func (c *Cache[K, V]) unlink(e *cacheEntry[K, V]) {
	e.prev.next = e.next
	e.next.prev = e.prev
}

func (c *Cache[K, V]) pushFront(e *cacheEntry[K, V]) {
	e.prev, e.next = &c.lru, c.lru.next
	c.lru.next.prev = e
	c.lru.next = e
}

// Cost is a measure of a drawable's memory in bytes: its operations.
func (d *Drawable) Cost() int {
	n := 64
	for _, s := range d.Sets {
		n += 32 + len(s.Ops)*56
	}
	return n
}
