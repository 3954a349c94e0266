package service

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// maxGroup bounds how many writes share one commit.
const maxGroup = 64

// groups is group commit for a board's unfenced writes: element writes
// without expected_revision (and without a request id, a dry run or a
// read-back) that arrive while another write of the same board commits
// wait for it, then go together as one commit of consecutive revisions
// (store.Grouper). A write that finds nothing in flight commits at once,
// alone, so a lone agent waits for no one; under load the disk's work
// (the file written, fsynced, renamed and read back; one journal fsync)
// is shared by every write of the group, while each write is planned,
// checked, linted and answered as its own, on the board as the writes
// before it in the group left it.
//
// A queue per board:
//
//	a write arrives ─► nothing in flight? lead: take up to maxGroup
//	  waiting writes (its own first) ─► one UpdateGroup ─► answer each
//	  ─► writes waiting? the oldest leads the next group : idle
type groups struct {
	mu sync.Mutex
	m  map[string]*groupQueue
	// commits counts the groups committed and writes the writes they
	// carried (for benchmarks: writes per commit).
	commits, writes atomic.Int64
}

// groupQueue is one board's waiting writes; busy while a group of it
// commits.
type groupQueue struct {
	busy    bool
	pending []*groupCall
}

// groupCall is one write waiting for its group.
type groupCall struct {
	w      store.GroupWrite
	leader bool          // chosen to lead the next group (under groups.mu)
	lead   chan struct{} // closed when it is chosen
	done   chan struct{} // closed when res and err are set
	res    *store.Result
	err    error
	// panicked is what its Mutate panicked with, in the leader's
	// goroutine: the write panics with it again in its own.
	panicked any
}

// update commits w with the writes of the board that wait beside it.
func (gs *groups) update(ctx context.Context, st store.Grouper, name string, w store.GroupWrite) (*store.Result, error) {
	c := &groupCall{w: w, lead: make(chan struct{}), done: make(chan struct{})}
	gs.mu.Lock()
	if gs.m == nil {
		gs.m = map[string]*groupQueue{}
	}
	q := gs.m[name]
	if q == nil {
		q = &groupQueue{}
		gs.m[name] = q
	}
	q.pending = append(q.pending, c)
	if !q.busy {
		q.busy, c.leader = true, true
		close(c.lead)
	}
	gs.mu.Unlock()
	select {
	case <-c.lead:
	case <-c.done:
		return c.result()
	case <-ctx.Done():
		if gs.withdraw(q, c) {
			return nil, ctx.Err()
		}
		// Already taken into a group, or chosen to lead one: see it
		// through, since the writes behind it count on it.
		select {
		case <-c.lead:
		case <-c.done:
			return c.result()
		}
	}
	gs.commit(context.WithoutCancel(ctx), st, name, q)
	<-c.done
	return c.result()
}

// result is what c's write answers; a panic of its own Mutate goes on
// in the caller's goroutine, as it would have without a group.
func (c *groupCall) result() (*store.Result, error) {
	if c.panicked != nil {
		panic(c.panicked)
	}
	return c.res, c.err
}

// withdraw takes c out of q if it is still only waiting.
func (gs *groups) withdraw(q *groupQueue, c *groupCall) bool {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if c.leader {
		return false
	}
	for i, p := range q.pending {
		if p == c {
			q.pending = append(q.pending[:i], q.pending[i+1:]...)
			return true
		}
	}
	return false
}

// commit is a leader's work: one group of q's oldest waiting writes
// (the leader's own first), then the lead handed to the oldest write
// still waiting, or the queue left idle.
func (gs *groups) commit(ctx context.Context, st store.Grouper, name string, q *groupQueue) {
	gs.mu.Lock()
	n := min(len(q.pending), maxGroup)
	batch := make([]*groupCall, n)
	copy(batch, q.pending)
	q.pending = append(q.pending[:0:0], q.pending[n:]...)
	gs.mu.Unlock()
	defer func() {
		gs.mu.Lock()
		defer gs.mu.Unlock()
		if len(q.pending) > 0 {
			q.pending[0].leader = true
			close(q.pending[0].lead)
			return
		}
		q.busy = false
		delete(gs.m, name)
	}()
	ws := make([]store.GroupWrite, n)
	for i, c := range batch {
		ws[i] = c.w
		ws[i].Mutate = c.safeMutate()
	}
	results, err := st.UpdateGroup(ctx, name, ws)
	gs.commits.Add(1)
	gs.writes.Add(int64(n))
	for i, c := range batch {
		switch {
		case err != nil:
			c.err = err
		case i < len(results):
			c.res, c.err = results[i].Result, results[i].Err
		default:
			c.err = fmt.Errorf("group commit of %s answered %d of %d writes", name, len(results), n)
		}
		close(c.done)
	}
}

// safeMutate is c's Mutate with a panic kept for c (see panicked): in
// a group it runs on the leader's goroutine, and must not take the
// other writes down with it. The panicking write changes nothing.
func (c *groupCall) safeMutate() func(*store.Scene) ([]byte, error) {
	return func(cur *store.Scene) (out []byte, err error) {
		defer func() {
			if p := recover(); p != nil {
				c.panicked = p
				out, err = nil, errWritePanicked
			}
		}()
		return c.w.Mutate(cur)
	}
}

// errWritePanicked is a panicking write's error inside its group.
var errWritePanicked = errors.New("the write panicked")

// updateGrouped is Update for a write that may share a commit: an
// unfenced one without a request id, on a store that groups (the file
// store), goes through the board's group queue; any other goes alone.
func (g guarded) updateGrouped(ctx context.Context, gs *groups, r store.UpdateRequest) (*store.Result, error) {
	st, ok := g.st.(store.Grouper)
	if !ok || !r.AnyRevision || r.RequestID != "" {
		return g.Update(ctx, r)
	}
	if err := g.check(ctx, r.Name, access.Write); err != nil {
		return nil, err
	}
	done := g.obs.commit("update")
	res, err := gs.update(ctx, st, r.Name, store.GroupWrite{Actor: r.Actor, Attribution: attribute(ctx, r.Attribution), Mutate: r.Mutate})
	done(res, err)
	return res, err
}
