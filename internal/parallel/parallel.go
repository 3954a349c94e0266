// Package parallel spreads independent pieces of work over the processors.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for each i from 0 to n-1 and returns the lowest i for
// which fn returned false, or n. With at least perWorker items for each
// of two or more goroutines (up to GOMAXPROCS) the calls run at once,
// items handed out in increasing order; otherwise in a loop. Once fn(i)
// has returned false no item after i is started, and every item before
// the returned index has been run, so a caller that stops at the first
// failure reports the one a loop would.
func For(n, perWorker int, fn func(i int) bool) int {
	workers := min(runtime.GOMAXPROCS(0), n/max(perWorker, 1))
	if workers < 2 {
		for i := range n {
			if !fn(i) {
				return i
			}
		}
		return n
	}
	var next, stop atomic.Int64 // the next item to hand out; the lowest that failed
	stop.Store(int64(n))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || i > stop.Load() {
					return
				}
				if fn(int(i)) {
					continue
				}
				for s := stop.Load(); i < s && !stop.CompareAndSwap(s, i); s = stop.Load() {
				}
			}
		})
	}
	wg.Wait()
	return int(stop.Load())
}
