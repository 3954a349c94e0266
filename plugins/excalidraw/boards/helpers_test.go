package boards

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
)

// clock is a fake time source that advances a second per reading.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// newStore is a store in a fresh drawings directory, with a fake clock.
func newStore(t *testing.T) (*Store, *clock) {
	t.Helper()
	c := newClock()
	return Open(File(filepath.Join(t.TempDir(), "drawings")), Options{Now: c.Now}), c
}

// wantCode fails unless err is a *sceneerr.Error with code.
func wantCode(t *testing.T, err error, code sceneerr.Code) *sceneerr.Error {
	t.Helper()
	var e *sceneerr.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
	return e
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
