package parallel

import (
	"sync/atomic"
	"testing"
)

// Every item runs once, in parallel or not.
func TestForRunsEveryItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		runs := make([]atomic.Int32, n)
		if got := For(n, 8, func(i int) bool { runs[i].Add(1); return true }); got != n {
			t.Fatalf("n=%d: For returned %d", n, got)
		}
		for i := range runs {
			if runs[i].Load() != 1 {
				t.Fatalf("n=%d: item %d ran %d times", n, i, runs[i].Load())
			}
		}
	}
}

// Several items fail: For returns the lowest, every item before it ran,
// whatever order the goroutines reach them in.
func TestForStopsAtTheFirstFailure(t *testing.T) {
	for range 50 {
		runs := make([]atomic.Int32, 2000)
		got := For(len(runs), 8, func(i int) bool {
			runs[i].Add(1)
			return i != 1500 && i != 700 && i != 1990
		})
		if got != 700 {
			t.Fatalf("For returned %d, want 700", got)
		}
		for i := range 700 {
			if runs[i].Load() != 1 {
				t.Fatalf("item %d before the failure ran %d times", i, runs[i].Load())
			}
		}
	}
}
