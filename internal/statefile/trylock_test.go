package statefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// LockWithin gives up when ctx ends while another holds the lock, and
// takes it once it is free; Lock waits for it meanwhile.
func TestLockWithin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.json")
	unlock, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := LockWithin(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("LockWithin while held: %v", err)
	}
	unlock()
	release, err := LockWithin(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		u, err := Lock(path)
		if err == nil {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("Lock took a lock LockWithin holds")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	<-got
}

// Another process's flock (here: another open file's, which flock
// treats alike) holds LockWithin off as it holds Lock off.
func TestLockWithinWaitsForAnotherFlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.json")
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := tryFlock(f); !ok || err != nil {
		t.Fatalf("flock: %v %v", ok, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := LockWithin(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("LockWithin while flocked: %v", err)
	}
	f.Close()
	unlock, err := LockWithin(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}
