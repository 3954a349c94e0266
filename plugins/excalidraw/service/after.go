package service

import (
	"context"
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// A target's `after: N` selects the elements some commit after revision
// N changed (created, updated, deleted or revived), up to the revision
// the call reads. It is read from the journal, which records what each
// commit changed: exact (an element changed and changed back still
// counts: it was changed), cheap (entries only, no old scene is parsed)
// and kept long (10,000 commits, 90 days by default). Element `updated`
// stamps would be cheaper still but are not right: the editor stamps
// them with the browser's clock, and a commit's time is not its order.
// Where the journal does not cover the revisions (trimmed by retention,
// disabled, or a commit whose elements it could not tell), the scene is
// compared with the backup of revision N instead; when neither is kept,
// the call is not_found at the target's after.

// targetAt is a target of a request and where it sits in it.
type targetAt struct {
	at string
	t  *query.Target
}

// targetsOf lists the targets an edit selects with (its selection's, each
// step's for apply_ops) and those of the write's expect counts.
func targetsOf(e Edit, o WriteOptions, at string) []targetAt {
	var out []targetAt
	switch x := e.(type) {
	case Steps:
		for i, step := range x {
			out = append(out, targetsOf(step, WriteOptions{}, at+StepPointer(i))...)
		}
	case interface{ Targets() []*query.Target }:
		for _, t := range x.Targets() {
			out = append(out, targetAt{at + "/target", t})
		}
	}
	if o.Expect != nil {
		for i := range o.Expect.Counts {
			out = append(out, targetAt{"/options/expect/counts/" + strconv.Itoa(i) + "/target", &o.Expect.Counts[i].Target})
		}
	}
	return out
}

// usesAfter reports whether any of ts selects by after.
func usesAfter(ts []targetAt) bool {
	for _, t := range ts {
		if t.t.After != nil {
			return true
		}
	}
	return false
}

// resolveAfter fills ChangedIDs of every target in ts that selects by
// after, as of revision rev of the scene name, whose document is doc.
func (s *Service) resolveAfter(ctx context.Context, name string, rev int64, doc *scene.Document, ts []targetAt) error {
	memo := map[int64]map[string]bool{}
	for _, t := range ts {
		if t.t.After == nil {
			continue
		}
		after := *t.t.After
		changed, ok := memo[after]
		if !ok {
			var err error
			if changed, err = s.changedAfter(ctx, name, after, rev, doc); err != nil {
				return prefixPointer(err, t.at+"/after")
			}
			memo[after] = changed
		}
		t.t.ChangedIDs = changed
	}
	return nil
}

// changedAfter is the ids commits after revision after changed, up to
// revision rev (the scene's, whose document is doc): from the journal,
// else from the backup of revision after (see above). Its errors point
// at "" (the caller's after).
func (s *Service) changedAfter(ctx context.Context, name string, after, rev int64, doc *scene.Document) (map[string]bool, error) {
	changed := map[string]bool{}
	switch {
	case after > rev:
		return nil, sceneerr.New(sceneerr.InvalidOperation, "the scene is at revision %d: after %d names none of its revisions yet", rev, after).
			With("pointer", "").With("revision", rev)
	case after == rev:
		return changed, nil
	}
	if ok, err := s.journalChanged(ctx, name, after, rev, changed); err != nil || ok {
		return changed, err
	}
	data, err := s.store.ReadRevision(ctx, name, after)
	if err != nil {
		if store.CodeOf(err) == store.CodeNotFound {
			return nil, sceneerr.New(sceneerr.NotFound, "the scene's history does not reach back to revision %d: select after a later revision", after).
				With("pointer", "")
		}
		return nil, mapError(err)
	}
	old, err := s.viewStored(data) // diff only reads
	if err != nil {
		return nil, sceneerr.New(sceneerr.CorruptScene, "the backup of revision %d does not parse", after).With("pointer", "")
	}
	_, ids := diff(old, doc)
	for _, id := range ids {
		changed[id] = true
	}
	return changed, nil
}

// journalChanged adds to changed the ids the journal's entries of the
// revisions after+1 … rev affected; ok is false when the journal does not
// hold each of them with its elements.
func (s *Service) journalChanged(ctx context.Context, name string, after, rev int64, changed map[string]bool) (ok bool, err error) {
	return s.walkJournal(ctx, name, after, rev, func(e *journal.Entry) bool {
		for _, id := range e.Affected() {
			changed[id] = true
		}
		return true
	})
}

// walkJournal calls each with the journal's entries of revisions
// after+1 … rev, newest first; ok is false when the journal does not hold
// each of them with its elements. each returning false ends the walk
// early (ok stays true: the caller has what it needs).
func (s *Service) walkJournal(ctx context.Context, name string, after, rev int64, each func(e *journal.Entry) bool) (ok bool, err error) {
	want := rev // the revision the next (older) entry must have
	q := store.LogQuery{Name: name, MinRevision: after + 1, MaxRevision: rev, Limit: store.MaxLogLimit}
	for {
		page, err := s.store.Log(ctx, q)
		if err != nil {
			return false, mapError(err)
		}
		for i := range page.Entries {
			e := &page.Entries[i]
			if e.Revision != want || e.Images == journal.ImagesUnavailable {
				return false, nil // a gap, or a commit whose elements are unknown
			}
			want = e.PreviousRevision
			if !each(e) {
				return true, nil
			}
		}
		if page.Next == "" || want <= after {
			return want <= after, nil
		}
		q.Cursor = page.Next
	}
}

// afterAttempts bounds how often writeAfter reads the history again when
// a commit lands between its reading and its write.
const afterAttempts = 3

// writeAfter runs e as one write whose targets select by after (ts):
// resolved on the scene as it is, then written on that revision only
// (the fence), so the elements selected are exactly those changed after
// the revision named, up to the one written on. A commit landing in
// between makes it read again; a fence the caller gave stays the
// caller's.
func (s *Service) writeAfter(ctx context.Context, r WriteRequest, ts []targetAt, e Edit) (*Envelope, error) {
	for attempt := 1; ; attempt++ {
		if err := store.ValidName(r.Name); err != nil {
			return nil, mapError(err)
		}
		sc, err := s.store.Read(ctx, r.Name)
		if err != nil {
			return nil, mapError(err)
		}
		doc, err := s.viewStored(sc.Data) // read only
		if err != nil {
			return nil, sceneerr.New(sceneerr.CorruptScene, "stored scene %s does not parse", r.Name).With("cause", err.Error())
		}
		if err := s.resolveAfter(ctx, r.Name, sc.Revision, doc, ts); err != nil {
			return nil, err
		}
		w := r
		if w.ExpectedRevision == nil {
			w.ExpectedRevision = &sc.Revision
		}
		env, err := s.Write(ctx, w, e.Plan(""))
		if r.ExpectedRevision == nil && attempt < afterAttempts && sceneerr.CodeOf(err) == sceneerr.RevisionConflict {
			continue
		}
		return env, err
	}
}
