package diagram

// Sequence is a sequence diagram: participants side by side and the
// messages between them, top to bottom in time. It is laid out by
// layout.Sequence, not as a graph.
type Sequence struct{}
