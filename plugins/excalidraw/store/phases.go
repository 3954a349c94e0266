package store

import "time"

// Phases of a commit, as Options.Phases is told of them.
const (
	// PhaseLock is the wait for the scene: this process's queue and the
	// cross-process lock file.
	PhaseLock = "lock"
	// PhaseWrite is writing the scene's new bytes to its temp file.
	PhaseWrite = "write"
	// PhaseFsync is that temp file's fsync.
	PhaseFsync = "fsync"
	// PhaseRename is the rename of the temp file over the scene.
	PhaseRename = "rename"
	// PhaseJournal is appending the commit's journal entries (durably).
	PhaseJournal = "journal"
)

// phaseStart is when a phase starts, or the zero time when nobody is
// told of phases (then timing them costs nothing).
func (s *Store) phaseStart() time.Time {
	if s.opts.Phases == nil {
		return time.Time{}
	}
	return time.Now()
}

// phaseEnd tells of phase, started at start (nothing for the zero time),
// and returns when it ended: the start of the next one.
func (s *Store) phaseEnd(phase string, start time.Time) time.Time {
	if start.IsZero() {
		return start
	}
	now := time.Now()
	s.opts.Phases(phase, now.Sub(start))
	return now
}
