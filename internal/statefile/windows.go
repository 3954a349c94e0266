package statefile

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Windows count events per key in sliding windows: what the rate limits
// (the bots' hourly quotas, the sign-in throttle) are made of. A key names
// one limit and whom it counts ("quota:createBoard:tok_…"); every call for
// a key gives the same window. Times are kept to the microsecond. The
// clock is the caller's: each call says what time it is.
//
// NewMemoryWindows counts in this process; package pgstate's count in
// PostgreSQL, where every node's events count.
type Windows interface {
	// Take counts one event of key at now, unless key already has limit
	// events in the window (now-window, now]; then it counts nothing and
	// retry is when one more would be allowed (when the oldest event that
	// stands in the way leaves the window).
	Take(ctx context.Context, key string, now time.Time, limit int, window time.Duration) (ok bool, retry time.Time, err error)
	// TakeN is Take of n events at once (n >= 1), for limits of an
	// amount rather than a number of actions (bytes, in units): all n
	// are counted, or none when key already has more than limit-n events
	// in the window; retry is then when n more would be allowed, zero
	// when n alone is more than limit (never).
	TakeN(ctx context.Context, key string, now time.Time, n, limit int, window time.Duration) (ok bool, retry time.Time, err error)
	// Undo takes back the newest event of key (the action it counted did
	// not happen after all). A key without events is no error.
	Undo(ctx context.Context, key string) error
	// UndoN takes back the newest n events of key (fewer when it has
	// fewer).
	UndoN(ctx context.Context, key string, n int) error
	// Clear forgets every event of key.
	Clear(ctx context.Context, key string) error
	// Count is how many events key has in the window (now-window, now],
	// and the oldest of them (zero when there are none).
	Count(ctx context.Context, key string, now time.Time, window time.Duration) (n int, oldest time.Time, err error)
}

// Precision is what Windows keep of a time: PostgreSQL's.
const Precision = time.Microsecond

// NewMemoryWindows are Windows in this process's memory (a restart
// forgets them). Keys whose events have all left their window are dropped
// once many are held, so the memory they take stays bounded by the keys
// in use.
func NewMemoryWindows() Windows { return &memoryWindows{keys: map[string]*memoryKey{}} }

type memoryWindows struct {
	mu   sync.Mutex
	keys map[string]*memoryKey
}

type memoryKey struct {
	at    []time.Time // oldest first
	until time.Time   // when the newest leaves the window
}

// sweepAbove is how many keys memoryWindows hold before Take drops those
// with nothing left in their window.
const sweepAbove = 1024

// prune drops k's events that left the window ending at now.
func (k *memoryKey) prune(now time.Time, window time.Duration) {
	cut := now.Add(-window)
	i := 0
	for i < len(k.at) && !k.at[i].After(cut) {
		i++
	}
	k.at = k.at[i:]
}

func (w *memoryWindows) Take(ctx context.Context, key string, now time.Time, limit int, window time.Duration) (bool, time.Time, error) {
	return w.TakeN(ctx, key, now, 1, limit, window)
}

func (w *memoryWindows) TakeN(_ context.Context, key string, now time.Time, n, limit int, window time.Duration) (bool, time.Time, error) {
	now = now.Truncate(Precision)
	n = max(n, 1)
	if limit <= 0 {
		return false, now.Add(window), nil // a limit of 0 allows nothing
	}
	if n > limit {
		return false, time.Time{}, nil // never
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.keys) > sweepAbove {
		for name, k := range w.keys {
			if !k.until.After(now) {
				delete(w.keys, name)
			}
		}
	}
	k := w.keys[key]
	if k == nil {
		k = &memoryKey{}
		w.keys[key] = k
	}
	k.prune(now, window)
	if have := len(k.at); have+n > limit {
		// The oldest have+n-limit must leave first.
		return false, k.at[have+n-limit-1].Add(window), nil
	}
	for range n {
		k.at = append(k.at, now)
	}
	if m := len(k.at); m > n && k.at[m-n].Before(k.at[m-n-1]) {
		slices.SortFunc(k.at, func(a, b time.Time) int { return a.Compare(b) })
	}
	k.until = k.at[len(k.at)-1].Add(window)
	return true, time.Time{}, nil
}

func (w *memoryWindows) Undo(ctx context.Context, key string) error { return w.UndoN(ctx, key, 1) }

func (w *memoryWindows) UndoN(_ context.Context, key string, n int) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if k := w.keys[key]; k != nil && len(k.at) > 0 {
		k.at = k.at[:len(k.at)-min(max(n, 0), len(k.at))]
		if len(k.at) == 0 {
			delete(w.keys, key)
		}
	}
	return nil
}

func (w *memoryWindows) Clear(_ context.Context, key string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.keys, key)
	return nil
}

func (w *memoryWindows) Count(_ context.Context, key string, now time.Time, window time.Duration) (int, time.Time, error) {
	now = now.Truncate(Precision)
	w.mu.Lock()
	defer w.mu.Unlock()
	k := w.keys[key]
	if k == nil {
		return 0, time.Time{}, nil
	}
	k.prune(now, window)
	if len(k.at) == 0 {
		delete(w.keys, key)
		return 0, time.Time{}, nil
	}
	return len(k.at), k.at[0], nil
}
