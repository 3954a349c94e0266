package dshtest

import "sync"

// Record is what code under test told a test (a hook's calls), in the
// order told; safe for concurrent use. The zero Record is empty.
type Record[T any] struct {
	mu    sync.Mutex
	items []T
}

// Add records v.
func (r *Record[T]) Add(v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, v)
}

// Take is what was recorded since the last Take, in order.
func (r *Record[T]) Take() []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.items
	r.items = nil
	return out
}
