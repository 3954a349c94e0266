package app

import (
	"context"
	"fmt"
)

// Disposer undoes one effect. It receives a context whose deadline bounds
// how long it may wait (for example for in-flight requests to drain).
type Disposer func(ctx context.Context) error

// effect is one registered side effect of a scope. Effects form a doubly
// linked list so that one disposed early (a child scope unloaded on its own)
// leaves the list in O(1) and 10,000 load/unload cycles leave nothing behind.
type effect struct {
	label      string
	dispose    Disposer
	prev, next *effect
	linked     bool
}

// effectList is guarded by its scope's mutex.
type effectList struct {
	head, tail *effect
	n          int
}

func (l *effectList) push(e *effect) {
	e.prev, e.next = l.tail, nil
	if l.tail != nil {
		l.tail.next = e
	} else {
		l.head = e
	}
	l.tail = e
	e.linked = true
	l.n++
}

// remove unlinks e; it reports false when e was already gone.
func (l *effectList) remove(e *effect) bool {
	if !e.linked {
		return false
	}
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		l.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		l.tail = e.prev
	}
	e.prev, e.next, e.linked = nil, nil, false
	l.n--
	return true
}

// pop removes and returns the newest effect, or nil.
func (l *effectList) pop() *effect {
	e := l.tail
	if e != nil {
		l.remove(e)
	}
	return e
}

func (l *effectList) labels() []string {
	out := make([]string, 0, l.n)
	for e := l.head; e != nil; e = e.next {
		out = append(out, e.label)
	}
	return out
}

// run calls the disposer, turning a panic into an error so one broken
// disposer cannot stop the rest of a teardown.
func (e *effect) run(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("effect %q panicked: %v", e.label, r)
		}
	}()
	if e.dispose == nil {
		return nil
	}
	if err := e.dispose(ctx); err != nil {
		return fmt.Errorf("effect %q: %w", e.label, err)
	}
	return nil
}
