package store

import "context"

// SaveRequest replaces a scene's document.
type SaveRequest struct {
	Name             string
	ExpectedRevision int64 // the revision the caller's edit is based on
	// Force skips the revision fence: the browser's explicit "overwrite"
	// after the user has seen a conflict. It may also overwrite a corrupt
	// scene that has no valid backup (the corrupt bytes are kept as a backup).
	Force     bool
	Data      []byte
	Actor     Actor
	RequestID string
	// Attribution is kept in the journal (and its Name in the sidecar).
	Attribution Attribution
}

// Save replaces a scene's document, reporting success only after the
// save-success steps (see commit) have all passed.
//
//  1. Validate the request and the document (before taking any lock).
//  2. Take the scene's locks and load it (reconciling if needed).
//  3. A remembered request id returns the original commit (Duplicate),
//     before the fence, so a retry after a lost response is not a conflict.
//  4. Check the revision fence, unless Force. Bytes equal to the current
//     file pass it whatever the expected revision: nothing the caller has
//     not seen can be lost.
//  5. Commit the next revision, or, for the current bytes, nothing
//     (Unchanged; see commit).
func (s *Store) Save(ctx context.Context, r SaveRequest) (*Result, error) {
	if err := checkWrite(r.Name, r.Actor, r.RequestID, r.Attribution); err != nil {
		return nil, err
	}
	count, err := s.inspectNew(r.Data)
	if err != nil {
		return nil, err
	}
	var sum string // r.Data's, once needed (stale may be asked several times)
	stale := func(sc *sidecar) bool {
		if r.Force || r.ExpectedRevision == sc.Revision {
			return false
		}
		if sum == "" {
			sum = sha256Hex(r.Data)
		}
		return sum != sc.SHA256
	}
	t, cur, dup, err := s.beginExisting(ctx, r.Name, r.RequestID, stale, r.ExpectedRevision)
	if err != nil || dup != nil {
		return dup, err
	}
	defer t.end()
	if cur.corrupt != nil && !r.Force {
		return nil, corruptError(cur)
	}
	if !r.Force && r.ExpectedRevision != cur.meta.Revision && !cur.holds(r.Data) {
		return nil, conflictError(cur, r.ExpectedRevision)
	}
	return t.commit(cur, change{data: r.Data, count: count, actor: r.Actor, attr: r.Attribution, requestID: r.RequestID,
		revision: cur.meta.Revision + 1, forced: r.Force && r.ExpectedRevision != cur.meta.Revision})
}

// beginExisting is the start Save and Update share (stale, if not nil,
// says whether the fence fails against a sidecar; see refuseEarly): take the scene's
// queue slot and lock, load it, require that it exists, and answer a
// repeated request id with the committed result (before any revision
// fence). When it returns a duplicate or an error the transaction is
// already ended; otherwise the caller ends it.
//
// A stale write is refused from the sidecar before it queues, again each
// time a commit of the scene in this process lands while it waits for
// its turn, and once more under the locks (refuseEarly), so writers
// that lost a race never wait behind each other to be told.
func (s *Store) beginExisting(ctx context.Context, name, requestID string, stale func(*sidecar) bool, expected int64) (*txn, *current, *Result, error) {
	var refuse func(*sidecar) error
	if stale != nil {
		if err := s.refuseUnlocked(name, requestID, stale, expected); err != nil {
			return nil, nil, nil, err
		}
		// While queued: against the sidecar the commit ahead just made
		// visible (its file verified, its lock still held).
		refuse = func(sc *sidecar) error { return staleAgainst(sc, requestID, stale, expected) }
	}
	t, err := s.beginRefusing(ctx, name, refuse)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := t.refuseEarly(requestID, stale, expected); err != nil {
		t.end()
		return nil, nil, nil, err
	}
	cur, err := t.load()
	switch {
	case err != nil:
		t.end()
		return nil, nil, nil, err
	case !cur.exists:
		t.end()
		return nil, nil, nil, notFoundError(name)
	}
	if rec := cur.side.parsed.findRequest(requestID); rec != nil {
		res := duplicateResult(t, cur, rec)
		t.end()
		return nil, nil, res, nil
	}
	return t, cur, nil, nil
}

// refuseEarly decides a stale expected revision from the sidecar alone,
// before the scene is read and hashed: a writer that lost a race learns
// it for the cost of one small read, so many writers on one scene spend
// their time on writes that can succeed. It only refuses when the sidecar
// is valid and the scene file still has the sidecar's length (a file
// changed outside dsh since is left to the full load, which records it
// first), and never a request id the sidecar remembers (a retry is a
// duplicate, not a conflict).
func (t *txn) refuseEarly(requestID string, stale func(*sidecar) bool, expected int64) error {
	if stale == nil {
		return nil
	}
	side, err := t.s.readSidecar(t.dirs.meta, t.name)
	if err != nil {
		return nil // load reads it again and reports the error
	}
	t.side = &side // the lock is held: load can use it as it is
	return t.s.staleFrom(side, t.name, requestID, stale, expected)
}

// refuseUnlocked is refuseEarly without the scene's locks, the same
// decision from the same two reads: the sidecar is replaced only whole,
// by rename, after its revision's file was renamed into place and read
// back, and revisions only grow. So a sidecar read without a lock is a
// revision that was the scene's last committed one at that moment, and a
// write whose expected revision differs from it (and that the file's
// length does not put in doubt) would be refused by the locked check too
// (at the moment of this read, which is between the call's start and its
// return). It writes nothing, takes no lock and never refuses in doubt:
// any error is left to the locked path.
func (s *Store) refuseUnlocked(name, requestID string, stale func(*sidecar) bool, expected int64) error {
	if err := s.enter(); err != nil {
		return nil
	}
	defer s.leave()
	if v, ok := s.known.Load(name); ok {
		// The pair this Store last saw agree, if it still stands: its
		// sidecar's record, without reading and parsing it again.
		// (stillKnown saw the scene file as the pair has it: no need for
		// staleFrom's look at its size.)
		if k := v.(*knownScene); k.parsed != nil && s.stillKnown(name, k) {
			return staleAgainst(k.parsed, requestID, stale, expected)
		}
	}
	meta, ok := s.metaQuick()
	if !ok {
		return nil
	}
	defer meta.Close()
	side, err := s.readSidecar(meta, name)
	if err != nil {
		return nil
	}
	return s.staleFrom(side, name, requestID, stale, expected)
}

// staleFrom is the conflict a write whose fence fails against side would
// meet, or nil if it may proceed (or side cannot tell): see refuseEarly.
func (s *Store) staleFrom(side sidecarState, name, requestID string, stale func(*sidecar) bool, expected int64) error {
	sc := side.parsed
	if staleAgainst(sc, requestID, stale, expected) == nil {
		return nil
	}
	info, err := s.fs.Lstat(s.root, sceneFile(name))
	if err != nil || !info.Mode().IsRegular() || info.Size() != sc.ByteLength {
		return nil
	}
	return conflictError(&current{meta: sc.meta()}, expected)
}

// staleAgainst is the conflict a write whose fence fails against the
// revision sc would meet (nil if sc is nil, remembers requestID or
// passes the fence).
func staleAgainst(sc *sidecar, requestID string, stale func(*sidecar) bool, expected int64) error {
	if sc == nil || sc.findRequest(requestID) != nil || !stale(sc) {
		return nil
	}
	return conflictError(&current{meta: sc.meta()}, expected)
}
