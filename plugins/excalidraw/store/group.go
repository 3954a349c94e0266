package store

import (
	"bytes"
	"context"
)

// GroupWrite is one write of UpdateGroup: an unfenced change (Mutate sees
// the scene as the writes before it in the group left it) without a
// request id.
type GroupWrite struct {
	Actor       Actor
	Attribution Attribution
	// Mutate is UpdateRequest.Mutate: the new document for the current
	// one, quick, under the scene's locks; its error is this write's and
	// leaves the scene as the writes before it left it.
	Mutate func(current *Scene) ([]byte, error)
}

// GroupResult is what became of one GroupWrite: its own revision (or
// Unchanged), or its error.
type GroupResult struct {
	Result *Result
	Err    error
}

// Grouper is a Backend that commits several writes of one scene
// together (group commit): the file store does; a backend without it
// gets its writes one Update at a time.
type Grouper interface {
	UpdateGroup(ctx context.Context, name string, ws []GroupWrite) ([]GroupResult, error)
}

var _ Grouper = (*Store)(nil)

// UpdateGroup runs the writes' Mutates in turn under the scene's locks,
// each on the document the one before it left, and commits those that
// changed something together, as consecutive revisions:
//
//	lock ─► load ─► Mutate₁ … Mutateₖ (each checked as Update checks its
//	  result; a failed one is skipped) ─► one commit: a journal entry per
//	  changed write (its own writer, note and before-images) appended
//	  with one fsync, and one durable write of the last document
//
// Every promise of Update holds for each write: its entry is durable
// before its revision can be read, and it is answered only once the
// file holding it (the last document, which includes its change) is
// written, fsynced, renamed and read back. Revisions between the first
// and the last of a group are never a file of their own: a reader sees
// the revision before the group or its last one, and ReadRevision does
// not keep them (their journal entries do). The error returned is one
// that stopped the whole group (the lock, a corrupt scene, the commit
// itself); each write's own is in its GroupResult.
func (s *Store) UpdateGroup(ctx context.Context, name string, ws []GroupWrite) ([]GroupResult, error) {
	out := make([]GroupResult, len(ws))
	ok := 0
	for i, w := range ws {
		switch {
		case w.Mutate == nil:
			out[i].Err = errorf(CodeInvalidRequest, "GroupWrite.Mutate is required")
		default:
			out[i].Err = checkWrite(name, w.Actor, "", w.Attribution)
		}
		if out[i].Err == nil {
			ok++
		}
	}
	if ok == 0 {
		return out, nil
	}
	if err := ValidName(name); err != nil {
		return nil, err
	}
	t, cur, _, err := s.beginExisting(ctx, name, "", nil, 0)
	if err != nil {
		return nil, err
	}
	defer t.end()
	if cur.corrupt != nil {
		return nil, corruptError(cur)
	}
	// Each write runs on the document the one before left: the stored
	// scene, then each changed write's step.
	var steps []change
	var stepOf []int // the index in ws of each step
	at := cur.meta   // the state the next write sees
	at.SHA256 = cur.sha
	data := cur.data
	for i, w := range ws {
		if out[i].Err != nil {
			continue
		}
		if n := len(steps); n > 0 && steps[n-1].sha == "" {
			// A step another write builds on: its entry records its
			// hash (the file holds only the last step).
			steps[n-1].sha = sha256Hex(steps[n-1].data)
			at.SHA256 = steps[n-1].sha
		}
		next, err := w.Mutate(&Scene{Meta: at, Data: data})
		if err != nil {
			out[i].Err = err
			continue
		}
		if bytes.Equal(next, data) {
			out[i].Result = &Result{Meta: at, SavedAt: at.UpdatedAt, Verified: true, Unchanged: true}
			continue
		}
		count, err := s.inspectNew(next)
		if err != nil {
			out[i].Err = err
			continue
		}
		ch := change{data: next, count: count, actor: w.Actor, attr: w.Attribution, revision: at.Revision + 1,
			size: int64(len(next))}
		if t.journal != nil {
			// Told now, while what the codec knows of both documents is
			// fresh (a service's cache keeps the last few).
			ch.changes = t.diff(data, next)
		}
		if n := len(steps); n > 0 {
			steps[n-1].data = nil // its hash and changes are known: only its length is kept
		}
		steps = append(steps, ch)
		stepOf = append(stepOf, i)
		at = Meta{Name: name, Revision: ch.revision, ByteLength: int64(len(next)), ElementCount: count,
			UpdatedAt: s.opts.Now(), UpdatedBy: w.Actor, UpdatedByName: w.Attribution.Name,
			PreviousRevision: at.Revision, PreviousSHA256: at.SHA256}
		data = next
	}
	if len(steps) == 0 {
		return out, nil
	}
	last := steps[len(steps)-1]
	last.prior = steps[:len(steps)-1]
	prevRev, prevSHA := cur.meta.Revision, cur.sha // commit moves cur on
	res, commits, err := t.commitSteps(cur, last)
	if err != nil {
		for _, i := range stepOf {
			out[i] = GroupResult{Err: err}
		}
		return out, nil
	}
	// Each changed write's revision: the steps' records, the last one
	// the commit's own.
	steps[len(steps)-1].sha = res.SHA256
	for k, i := range stepOf {
		st := steps[k]
		if k == len(stepOf)-1 {
			out[i].Result = res
		} else {
			out[i].Result = &Result{Meta: Meta{Name: name, Revision: st.revision, SHA256: st.sha,
				ByteLength: st.length(), ElementCount: st.count, UpdatedAt: res.UpdatedAt,
				UpdatedBy: st.actor, UpdatedByName: st.attr.Name, PreviousRevision: prevRev, PreviousSHA256: prevSHA},
				SavedAt: res.SavedAt, Verified: true}
			if k < len(commits) {
				out[i].Result.Commit = commits[k] // each step has its own entry
			}
		}
		prevRev, prevSHA = st.revision, st.sha
	}
	// A write that changed nothing answers the state it saw, whose hash
	// is known now.
	for i := range out {
		if r := out[i].Result; r != nil && r.Unchanged && r.SHA256 == "" {
			for _, st := range steps {
				if st.revision == r.Revision {
					r.SHA256 = st.sha
				}
			}
		}
	}
	return out, nil
}
