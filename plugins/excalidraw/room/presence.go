package room

// Present is how many sockets are in this node's live rooms now: the
// people (and agents' pseudo sockets aside) an editor shows as present.
func (s *Server) Present() int {
	s.mu.Lock()
	rooms := make([]*room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	s.mu.Unlock()
	n := 0
	for _, r := range rooms {
		r.mu.Lock()
		n += len(r.members)
		r.mu.Unlock()
	}
	return n
}
