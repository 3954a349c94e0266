package statefile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// LockWithin is Lock that gives up: it takes the lock of the state file
// at path as Lock does, but never blocks on it, trying again (1 ms
// doubling to 50 ms) until ctx ends. So a caller that already holds
// other locks (a backup taking its moment) never waits forever on a
// writer that waits on one of them.
func LockWithin(ctx context.Context, path string) (unlock func(), err error) {
	m, _ := inProcess.LoadOrStore(filepath.Clean(path), new(sync.Mutex))
	mu := m.(*sync.Mutex)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	backoff := time.Millisecond
	for {
		if mu.TryLock() {
			f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
			if err != nil {
				mu.Unlock()
				return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), err)
			}
			ok, err := tryFlock(f)
			if ok {
				return func() {
					_ = f.Close() // closing drops the flock
					mu.Unlock()
				}, nil
			}
			_ = f.Close()
			mu.Unlock()
			if err != nil {
				return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), err)
			}
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("lock %s: held by another writer: %w", filepath.Base(path), ctx.Err())
		case <-t.C:
		}
		backoff = min(2*backoff, 50*time.Millisecond)
	}
}
