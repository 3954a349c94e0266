package store

import (
	"context"
	"sync"
)

// nameQueue serialises operations per scene name inside one process. The
// cross-process lock file alone would do, but it is slower to contend for
// (it polls) and a process should not compete with itself through the
// filesystem. Slots are reference counted and deleted when the last user
// leaves, so the map holds only names in use and does not grow with every
// name ever seen.
type nameQueue struct {
	mu    sync.Mutex
	slots map[string]*queueSlot
}

// queueSlot is a one-token semaphore (a channel, so waiting can observe ctx).
type queueSlot struct {
	token chan struct{}
	refs  int
}

func newNameQueue() *nameQueue { return &nameQueue{slots: map[string]*queueSlot{}} }

// acquire waits for name's turn. On success the returned release must be
// called exactly once.
//
//  1. Take a reference on the slot (creating it) so it outlives this wait.
//  2. Wait for the token or for ctx.
//  3. On cancellation drop the reference, deleting an unused slot.
func (q *nameQueue) acquire(ctx context.Context, name string) (release func(), err error) {
	slot := q.ref(name)
	select {
	case slot.token <- struct{}{}:
		return func() { <-slot.token; q.unref(name, slot) }, nil
	case <-ctx.Done():
		q.unref(name, slot)
		return nil, ctx.Err()
	}
}

func (q *nameQueue) unref(name string, slot *queueSlot) {
	q.mu.Lock()
	defer q.mu.Unlock()
	slot.refs--
	if slot.refs == 0 {
		delete(q.slots, name)
	}
}

// size is the number of names with a waiter or holder (for tests).
func (q *nameQueue) size() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.slots)
}

// ref takes a reference on name's slot, creating it; unref drops it.
func (q *nameQueue) ref(name string) *queueSlot {
	q.mu.Lock()
	defer q.mu.Unlock()
	slot := q.slots[name]
	if slot == nil {
		slot = &queueSlot{token: make(chan struct{}, 1)}
		q.slots[name] = slot
	}
	slot.refs++
	return slot
}
