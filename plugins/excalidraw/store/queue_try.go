package store

// tryAcquire is acquire without waiting, for reads that repair only when
// nobody else is using the name: ok is false if name's slot is taken. On
// success the returned release must be called exactly once.
func (q *nameQueue) tryAcquire(name string) (release func(), ok bool) {
	slot := q.ref(name)
	select {
	case slot.token <- struct{}{}:
		return func() { <-slot.token; q.unref(name, slot) }, true
	default:
		q.unref(name, slot)
		return nil, false
	}
}
