package dshtest

import (
	"slices"
	"sync"
	"testing"
)

func TestRecordTakesWhatWasAdded(t *testing.T) {
	var r Record[int]
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { r.Add(i) })
	}
	wg.Wait()
	got := r.Take()
	slices.Sort(got)
	if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Fatalf("took %v", got)
	}
	if got := r.Take(); got != nil {
		t.Fatalf("a second Take: %v, want nothing", got)
	}
}
