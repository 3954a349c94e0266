package store

import (
	"bytes"
	"errors"
	"io/fs"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// change is what a commit writes.
type change struct {
	data      []byte
	count     int // element count the codec reported for data
	actor     Actor
	attr      Attribution
	forced    bool // a save that skipped a fence it would have failed
	requestID string
	revision  int64 // the new revision
	create    bool  // no previous file: rename must not replace anything
	// prior are the group's writes before this one (UpdateGroup), in
	// order: each gets its journal entry, appended with this one's; only
	// this one's bytes are written to the file.
	prior []change
	sha   string // a prior step's SHA-256 (the file's is computed by commit)
	// changes is what a group's prior step changed, told by the codec as
	// the step was made (nil: the codec could not tell). A prior step
	// lets its bytes go once the step after it is made (data nil, size
	// their length): a group on a large scene holds two documents, not
	// one per write.
	changes *journal.Changes
	size    int64
}

// length is the byte length of ch's document.
func (ch change) length() int64 {
	if ch.data != nil {
		return int64(len(ch.data))
	}
	return ch.size
}

// commit writes ch over cur and proves it landed. On success cur is updated
// to the new state.
//
// First, if ch's bytes are the current file's (cur.holds), it writes
// nothing and returns the current evidence with Unchanged: no revision, no
// backup, no sidecar change, the file's mtime untouched. This is the one
// place every writer (Save, Update) learns that a write changes nothing.
// The request id is not remembered: a retry is simply unchanged again.
//
// Otherwise these are the save-success steps after the lock and the fence
// (steps 1 and 2, done by the caller):
//
//  3. Put the previous bytes in backups/ (durably: after the rename below
//     the backup is the only copy of the previous revision): a hard link
//     of the file when it provably still holds them, else a copy (backup).
//  4. Write the new bytes to a temp file and fsync it, then rename it over
//     the target and fsync the directory (best effort).
//  6. Read the target back, parse it with the codec, compare the element
//     count and the SHA-256 with what is being reported. (Done before 5,
//     not after, so that lock-free readers, who trust a file only once the
//     sidecar describes it, never see a revision that is then rolled back.)
//  5. Write the sidecar atomically the same way (its directory fsync
//     only where the journal cannot complete the commit: see below).
//  7. If 6 or 5 fails, put the previous bytes (and the previous sidecar) back
//     and fail with io_error. If 3 or 4 fails, the target was never touched.
//
// Only then is the write reported successful. Work that does not depend on
// each other overlaps, without changing what is durable before what: the
// backup, the journal entry and the sidecar's temp file are written while
// the scene's temp file is (all finish before the rename; the sidecar's
// is renamed into place only after the read-back), the read-back runs
// while the drawings directory is fsynced (both finish before the
// sidecar's rename), and the
// metadata directory is fsynced while an old backup is pruned (both finish
// before returning). A directory fsync may be shared with concurrent
// commits of other scenes, but only one that starts after this commit's
// rename, and its result is this commit's (dirsync.go).
//
// The Result names the commit (its journal entry's id); a store without
// a journal has none to name.
func (t *txn) commit(cur *current, ch change) (*Result, error) {
	res, _, err := t.commitSteps(cur, ch)
	return res, err
}

// commitSteps is commit, also returning the commit id of each journal
// entry it appended, in order: ch's prior steps' and then ch's own (none
// without a journal, or for an unchanged write).
func (t *txn) commitSteps(cur *current, ch change) (*Result, []string, error) {
	if cur.holds(ch.data) && len(ch.prior) == 0 {
		// (A group whose last write brings back the bytes it started from
		// still commits: each of its writes changed something.)
		return &Result{Meta: cur.meta, SavedAt: cur.meta.UpdatedAt, Verified: true, Unchanged: true}, nil, nil
	}
	perm := fs.FileMode(0o600)
	if cur.exists && cur.perm != 0 {
		perm = cur.perm
	}
	scene := sceneFile(t.name)
	now := t.s.opts.Now()

	// Steps 3 and 4a, and the journal entry: all three are durable before
	// the rename, so every revision anyone can read has its entry (an
	// entry whose revision never reached the file is discarded by the
	// next load). The new bytes' SHA-256 is computed while the temp file
	// is written; the journal entry, which records it, waits for it.
	var backupErr, journalErr, sideErr error
	var linked, sideTmp string
	var frame *appendedRun
	var sha string
	var marks *hashMarks
	var sc *sidecar
	var raw []byte
	var commits []string // the journal entries' ids
	var wg, hashed sync.WaitGroup
	hashed.Go(func() { sha, marks = sha256Marked(t.s.marksOf(t.name), ch.data) })
	if cur.exists {
		wg.Go(func() { linked, backupErr = t.backup(cur) })
	}
	if t.journal != nil {
		wg.Go(func() {
			hashed.Wait()
			start := t.s.phaseStart()
			es, ims := t.groupEntries(cur, ch, sha, now)
			frame, journalErr = t.appendEntries(es, ims)
			commits = make([]string, len(es))
			for i, e := range es {
				commits[i] = e.Commit
			}
			t.s.phaseEnd(PhaseJournal, start)
		})
	}
	// The sidecar's temporary file too: it is only renamed into place
	// once the read-back has proven the scene file (step 5 below).
	wg.Go(func() {
		hashed.Wait()
		sc = t.nextSidecar(cur, ch, sha, now)
		raw = sc.encode()
		sideTmp, sideErr = t.s.prepareTemp(t.dirs.meta, sidecarFile(t.name), raw, 0o600)
	})
	tmp, err := t.s.prepareTempTimed(t.s.root, scene, ch.data, perm, true)
	hashed.Wait()
	wg.Wait()
	// A commit that fails before its rename leaves no link of its own
	// to the file it did not replace, and no temporary sidecar.
	unlink := func() {
		if linked != "" {
			t.s.removeQuietly(t.dirs.backups, linked)
		}
		if sideErr == nil {
			t.s.removeQuietly(t.dirs.meta, sideTmp)
		}
	}
	if backupErr != nil || journalErr != nil || sideErr != nil {
		if err == nil {
			t.s.removeQuietly(t.s.root, tmp)
		}
		t.unappend(frame)
		unlink()
		switch {
		case backupErr != nil:
			return nil, nil, wrapCommit(backupErr, "backup", false)
		case journalErr != nil:
			return nil, nil, wrapCommit(journalErr, "journal", false)
		}
		// Nothing was replaced yet: the scene is as it was (rolledBack).
		return nil, nil, wrapCommit(sideErr, "sidecar", true)
	}
	if err != nil {
		t.unappend(frame)
		unlink()
		return nil, nil, wrapCommit(err, "", false)
	}
	// Step 4b. From here until the commit returns, Head answers the
	// sidecar's revision while the sidecar is still cur's (see Head): a
	// valid file replaced after its backup, as readHeld would answer.
	if cur.exists && cur.corrupt == nil && cur.side.parsed != nil {
		t.s.inflight.Store(t.name, cur.side.raw)
		defer t.s.inflight.Delete(t.name)
	}
	if ch.create {
		t.s.creating.Store(t.name, struct{}{})
		defer t.s.creating.Delete(t.name)
	}
	renaming := t.s.phaseStart()
	if err := t.s.installTemp(t.s.root, tmp, scene, ch.create); err != nil {
		t.unappend(frame)
		unlink()
		return nil, nil, wrapCommit(err, "", false)
	}
	t.s.phaseEnd(PhaseRename, renaming)

	// Step 4c (the directory fsync) and step 6 (the read-back), at once.
	// The read-back comes before the sidecar is installed: reads take no
	// lock and trust a file only when the sidecar describes it (readPair),
	// so a revision is visible only once its bytes are proven, and a
	// failed one, rolled back here, was never seen by anyone (its number
	// is reused by the next commit).
	wg.Go(func() { t.s.syncDir(t.s.root) })
	verified, verifiedAt, verifyErr := t.verify(sc, ch.data)
	wg.Wait()
	if verifyErr != nil {
		t.s.removeQuietly(t.dirs.meta, sideTmp)
		t.unappend(frame)
		return nil, nil, t.rollback(cur, false, "verify", verifyErr)
	}

	// Step 5: the sidecar. Recorded as this Store's own first, so a
	// watcher that sees the new sidecar knows (CommittedHere); recovery's
	// restores are not: no caller announces them.
	if ch.actor != ActorRecovery {
		t.s.mine.Store(t.name, mineRecord{revision: sc.Revision, sha: sc.SHA256})
	}
	if err := t.s.installTemp(t.dirs.meta, sideTmp, sidecarFile(t.name), false); err != nil {
		t.unappend(frame)
		return nil, nil, t.rollback(cur, false, "sidecar", err)
	}
	// The new revision is visible: Head knows it, and writers of this
	// scene queued behind this one re-check their expected revision now
	// (see beginExisting).
	sideInfo, err := t.s.fs.Lstat(t.dirs.meta, sidecarFile(t.name))
	if err != nil {
		sideInfo = nil // known by its bytes only
	}
	t.s.rememberData(t.name, raw, sc, verified, verifiedAt, ch.data, sideInfo, marks)
	t.s.queue.moved(t.name, sc)

	// The sidecar's directory fsync, and pruning the backup that fell out
	// of the KeepBackups window. A journaled commit over a sidecar does
	// not wait for its sidecar's rename to be durable: its journal entry
	// is, and so are the file and the previous sidecar, from which the
	// next load completes it (rollForward). Such a power loss costs no
	// acknowledged write and no attribution.
	if t.journal == nil || cur.side.parsed == nil || ch.create {
		wg.Go(func() { t.s.syncDir(t.dirs.meta) })
	}
	if cur.exists {
		wg.Go(func() { t.pruneBackups(cur.meta.Revision) })
	}
	wg.Wait()
	if frame != nil {
		t.appended(frame.last)
	}
	*cur = current{exists: true, data: ch.data, perm: perm, sha: sc.SHA256, meta: sc.meta(),
		side: sidecarState{raw: raw, parsed: sc}}
	res := &Result{Meta: cur.meta, SavedAt: cur.meta.UpdatedAt, Verified: true}
	if n := len(commits); n > 0 {
		res.Commit = commits[n-1]
	}
	return res, commits, nil
}

// nextSidecar is the record of ch following cur.
func (t *txn) nextSidecar(cur *current, ch change, sha string, now time.Time) *sidecar {
	sc := &sidecar{
		Schema:        SidecarSchema,
		Name:          t.name,
		Revision:      ch.revision,
		SHA256:        sha,
		ByteLength:    int64(len(ch.data)),
		ElementCount:  ch.count,
		UpdatedAt:     formatTime(now),
		UpdatedBy:     ch.actor,
		UpdatedByName: ch.attr.Name,
	}
	if cur.exists {
		sc.PreviousRevision, sc.PreviousSHA256 = cur.meta.Revision, cur.sha
	}
	if n := len(ch.prior); n > 0 {
		sc.PreviousRevision, sc.PreviousSHA256 = ch.prior[n-1].revision, ch.prior[n-1].sha
	}
	var recent []requestRecord
	if cur.side.parsed != nil && !ch.create {
		recent = cur.side.parsed.RecentRequests
	}
	if ch.requestID != "" {
		recent = remember(recent, requestRecord{ID: ch.requestID, Revision: sc.Revision, SHA256: sha,
			ByteLength: sc.ByteLength, ElementCount: sc.ElementCount, At: sc.UpdatedAt})
	}
	sc.RecentRequests = recent
	return sc
}

// verify is step 6: a fresh open and read of the target must give exactly
// the bytes the sidecar describes, and they must parse to the same count.
// The bytes read are compared with want, the bytes whose SHA-256 the
// sidecar records: equal bytes have that hash, so it is proven without
// being computed again. It returns the stat of the file it read, and a
// time before it opened it (for Head's record of the pair: see remember).
func (t *txn) verify(sc *sidecar, want []byte) (fs.FileInfo, time.Time, error) {
	at := time.Now()
	if c, ok := t.s.fs.(fileComparer); ok {
		info, same, err := c.CompareFile(t.s.root, sceneFile(t.name), want)
		switch {
		case err != nil:
			return nil, at, err
		case !info.Mode().IsRegular():
			return nil, at, errors.New("read-back: target is not a regular file")
		case !same:
			return nil, at, errors.New("read-back: sha256 differs (not the bytes written)")
		}
		return info, at, t.verifyCount(sc, want)
	}
	data, info, err := t.s.fs.ReadFile(t.s.root, sceneFile(t.name), t.s.opts.MaxSceneBytes)
	switch {
	case err != nil:
		return nil, at, err
	case !info.Mode().IsRegular():
		return nil, at, errors.New("read-back: target is not a regular file")
	case int64(len(data)) != sc.ByteLength:
		return nil, at, errors.New("read-back: length differs")
	case !bytes.Equal(data, want):
		return nil, at, errors.New("read-back: sha256 differs (not the bytes written)")
	}
	return info, at, t.verifyCount(sc, data)
}

// verifyCount is the end of step 6: the bytes read back parse to the
// element count the sidecar records.
func (t *txn) verifyCount(sc *sidecar, data []byte) error {
	n, err := t.s.opts.Codec.Inspect(data)
	if err != nil {
		return errors.Join(errors.New("read-back: does not parse"), err)
	}
	if n != sc.ElementCount {
		return errors.New("read-back: element count differs")
	}
	return nil
}

// rollback is step 7: put back the previous scene bytes (or remove a file
// that did not exist before) and, if it was replaced, the previous sidecar
// byte for byte. The returned error is always io_error; its details say
// whether the rollback itself succeeded.
func (t *txn) rollback(cur *current, sidecarReplaced bool, stage string, cause error) error {
	var errs []error
	if cur.exists {
		errs = append(errs, t.s.writeAtomic(t.s.root, sceneFile(t.name), cur.data, cur.perm, false))
	} else {
		errs = append(errs, t.s.fs.Remove(t.s.root, sceneFile(t.name)))
	}
	if sidecarReplaced {
		if cur.side.raw != nil {
			errs = append(errs, t.s.writeAtomic(t.dirs.meta, sidecarFile(t.name), cur.side.raw, 0o600, false))
		} else if err := t.s.fs.Remove(t.dirs.meta, sidecarFile(t.name)); !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	rbErr := errors.Join(errs...)
	if rbErr != nil {
		t.s.log.Error("rollback after failed save failed; next read will reconcile", zap.String("name", t.name),
			zap.String("stage", stage), zap.NamedError("cause", cause), zap.NamedError("rollback", rbErr))
	} else {
		t.s.log.Warn("save failed and was rolled back", zap.String("name", t.name), zap.String("stage", stage),
			zap.Error(cause))
	}
	return wrapCommit(errors.Join(cause, rbErr), stage, rbErr == nil)
}

// wrapCommit makes a commit failure an io_error with the stage it failed at
// ("" for step 4: the atomic write's own stage, write/fsync/rename), keeping
// a more specific code (already_exists, permission_denied) if the cause has
// one.
func wrapCommit(err error, stage string, rolledBack bool) *Error {
	var se *Error
	if errors.As(err, &se) && se.Code != CodeIOError {
		return se
	}
	if stage == "" {
		stage = "write"
		if se != nil && se.Details["stage"] != nil {
			stage, _ = se.Details["stage"].(string)
		}
	}
	e := newError(CodeIOError, "save failed at "+stage, err).with("stage", stage)
	if stage == "sidecar" || stage == "verify" {
		e.with("rolledBack", rolledBack)
	}
	return e
}

// unappend cuts the journal back before run, the entries of a commit that
// failed: their revisions are not on disk, and their numbers are reused.
// If even that fails, the next load discards the entries (their
// revisions are above the sidecar's).
func (t *txn) unappend(run *appendedRun) {
	if run == nil || t.journal == nil {
		return
	}
	if err := t.truncateJournal(t.journal, run.start); err != nil {
		t.s.log.Warn("could not cut back the journal entry of a failed commit", zap.String("name", t.name), zap.Error(err))
	}
}
