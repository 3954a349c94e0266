package live

// Subscribers is how many subscriptions are open now: editors' and
// lists' event streams, on every scene.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, set := range h.subs {
		n += len(set)
	}
	return n
}
