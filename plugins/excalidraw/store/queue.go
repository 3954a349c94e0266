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

// queueSlot is a one-token semaphore (a channel, so waiting can observe
// ctx). moved is closed (and replaced) each time a commit of the name in
// this process makes a new revision visible, so that waiters can learn
// they have lost the race without waiting for their turn.
type queueSlot struct {
	token chan struct{}
	moved chan struct{}
	last  *sidecar // the sidecar of the commit that closed the previous moved
	refs  int
}

func newNameQueue() *nameQueue { return &nameQueue{slots: map[string]*queueSlot{}} }

// acquire waits for name's turn. On success the returned release must be
// called exactly once.
//
//  1. Take a reference on the slot (creating it) so it outlives this wait.
//  2. Wait for the token or for ctx; and, if recheck is not nil, each time
//     a commit of name in this process made a new revision (moved), call
//     it with that revision's sidecar: an error gives up the wait with
//     that error (a write that has become stale leaves at once instead of
//     queueing for a refusal).
//  3. On cancellation or refusal drop the reference, deleting an unused
//     slot.
func (q *nameQueue) acquire(ctx context.Context, name string, recheck func(*sidecar) error) (release func(), err error) {
	slot := q.ref(name)
	var moved chan struct{}
	if recheck != nil {
		q.mu.Lock()
		moved = slot.moved
		q.mu.Unlock()
	}
	for {
		select {
		case slot.token <- struct{}{}:
			return func() { <-slot.token; q.unref(name, slot) }, nil
		case <-ctx.Done():
			q.unref(name, slot)
			return nil, ctx.Err()
		case <-moved:
			q.mu.Lock()
			var last *sidecar
			moved, last = slot.moved, slot.last
			q.mu.Unlock()
			if err := recheck(last); err != nil {
				q.unref(name, slot)
				return nil, err
			}
		}
	}
}

// moved wakes name's waiters to recheck (see acquire): a commit of it has
// made revision sc visible. The caller holds name's token, so sc stays
// the scene's newest revision at least until it releases it.
func (q *nameQueue) moved(name string, sc *sidecar) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if slot := q.slots[name]; slot != nil {
		close(slot.moved)
		slot.moved, slot.last = make(chan struct{}), sc
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
		slot = &queueSlot{token: make(chan struct{}, 1), moved: make(chan struct{})}
		q.slots[name] = slot
	}
	slot.refs++
	return slot
}
