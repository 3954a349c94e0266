package pgstore

import (
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// phaseStart is when a phase of a commit starts (store.PhaseClock.Start).
func (s *Store) phaseStart() time.Time { return store.PhaseClock(s.phases).Start() }

// phaseEnd tells of phase (a store.Phase…), started at start
// (store.PhaseClock.End).
func (s *Store) phaseEnd(phase string, start time.Time) time.Time {
	return store.PhaseClock(s.phases).End(phase, start)
}
