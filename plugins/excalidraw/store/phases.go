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
