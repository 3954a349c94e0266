package statefile

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Memory windows forget keys with nothing left in their window once they
// hold many.
func TestMemoryWindowsSweep(t *testing.T) {
	w := NewMemoryWindows().(*memoryWindows)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range sweepAbove + 1 {
		if ok, _, _ := w.Take(context.Background(), fmt.Sprint("n", i), now, 5, time.Minute); !ok {
			t.Fatal("refused")
		}
	}
	_, _, _ = w.Take(context.Background(), "late", now.Add(time.Minute), 5, time.Minute)
	if len(w.keys) != 1 {
		t.Fatalf("%d keys kept", len(w.keys))
	}
}
