package statefile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// inProcess serialises lockers in this process (flock is per open file,
// so two goroutines of one process each opening the lock file would both
// get it on some systems); the flock then excludes other processes.
var inProcess sync.Map // path → *sync.Mutex

// Lock takes the lock of the state file at path, across goroutines and
// processes (an flock on path+".lock", which the kernel drops when its
// holder dies), and returns the function that releases it. Read, change
// and WriteJSON under it, so two processes (the host and a `dsh` command)
// never lose each other's changes.
func Lock(path string) (unlock func(), err error) {
	m, _ := inProcess.LoadOrStore(filepath.Clean(path), new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		mu.Unlock()
		return nil, err
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		mu.Unlock()
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), err)
	}
	if err := flock(f); err != nil {
		_ = f.Close()
		mu.Unlock()
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), err)
	}
	return func() {
		_ = f.Close() // closing drops the flock
		mu.Unlock()
	}, nil
}

// Update runs change on the file's current contents under its lock and
// writes what it returns (write=false: nothing to write). The contents are
// read afresh, not from a View, so an update never undoes another
// process's. It is UpdateDoc of File(path, what).
func Update[T any](ctx context.Context, path, what string, parse func(string, []byte) (T, error), change func(T) (T, bool, error)) error {
	return UpdateDoc(ctx, File(path, what), parse, change)
}
