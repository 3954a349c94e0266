package store

import "time"

// Phases of a commit, as Options.Phases (and pgstore.Options.Phases) is
// told of them. The file store's are lock, write, fsync, rename and
// journal; PostgreSQL's begin, lock, read, write and commit.
const (
	// PhaseLock is the wait for the scene: this process's queue and the
	// cross-process lock file; on PostgreSQL the wait for the scene's row
	// lock (SELECT … FOR UPDATE, one round trip included).
	PhaseLock = "lock"
	// PhaseWrite is writing the scene's new bytes to its temp file; on
	// PostgreSQL the commit's statements, sent as one batch: the scene's
	// row, the superseded revision, the request id, the journal entry.
	PhaseWrite = "write"
	// PhaseFsync is that temp file's fsync.
	PhaseFsync = "fsync"
	// PhaseRename is the rename of the temp file over the scene.
	PhaseRename = "rename"
	// PhaseJournal is appending the commit's journal entries (durably).
	PhaseJournal = "journal"
	// PhaseBegin is PostgreSQL's taking a pooled connection and starting
	// the commit's transaction.
	PhaseBegin = "begin"
	// PhaseRead is PostgreSQL's reading the locked scene's bytes and the
	// request id it remembers.
	PhaseRead = "read"
	// PhaseCommit is PostgreSQL's COMMIT: the server makes it durable.
	PhaseCommit = "commit"
)

// PhaseLockGaveUp is told of a wait for the scene that ended without it,
// its caller's context having ended (scene_busy): no phase of a commit,
// as none follows, but a lock wait all the same (PhaseLock's are the
// waits that got the scene).
const PhaseLockGaveUp = "lock_gave_up"

// PhaseClock times a commit's phases for a Phases hook (Options.Phases,
// pgstore.Options.Phases): it tells the hook of each. A nil PhaseClock
// times nothing, and costs nothing.
type PhaseClock func(phase string, d time.Duration)

// Start is when a phase starts, or the zero time when c is nil.
func (c PhaseClock) Start() time.Time {
	if c == nil {
		return time.Time{}
	}
	return time.Now()
}

// End tells c of phase, started at start (nothing for the zero time), and
// returns when it ended: the start of the next one.
func (c PhaseClock) End(phase string, start time.Time) time.Time {
	if start.IsZero() {
		return start
	}
	now := time.Now()
	c(phase, now.Sub(start))
	return now
}

// phaseStart is when a phase starts (PhaseClock.Start).
func (s *Store) phaseStart() time.Time { return PhaseClock(s.opts.Phases).Start() }

// phaseEnd tells of phase, started at start (PhaseClock.End).
func (s *Store) phaseEnd(phase string, start time.Time) time.Time {
	return PhaseClock(s.opts.Phases).End(phase, start)
}
