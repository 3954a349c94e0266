package pgstore

import "time"

// phaseStart is when a phase of a commit starts, or the zero time when
// nobody is told of phases (then timing them costs nothing).
func (s *Store) phaseStart() time.Time {
	if s.phases == nil {
		return time.Time{}
	}
	return time.Now()
}

// phaseEnd tells of phase (a store.Phase…), started at start (nothing
// for the zero time), and returns when it ended: the start of the next.
func (s *Store) phaseEnd(phase string, start time.Time) time.Time {
	if start.IsZero() {
		return start
	}
	now := time.Now()
	s.phases(phase, now.Sub(start))
	return now
}
