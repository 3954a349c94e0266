package service

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// A delta is what an open editor needs to go from one revision of a
// scene to the current one without reading the whole scene: the elements
// the commits in between changed, whole as they are now (a deletion is
// the element with isDeleted true: Excalidraw's tombstone), with the
// files those elements show and the stored appState when a commit changed
// them. It is read from the journal (which ids each commit changed) and
// the stored scene (through the document cache, cut into its elements'
// bytes without parsing them), so a commit from anywhere (this process,
// another process on the directory, another node on the database) gives
// the same delta. An editor reconciles it by element version, as
// Excalidraw's collaboration does.
//
// When the revisions are not all in the journal (trimmed, disabled, a
// commit whose elements it could not tell), more than MaxDeltaElements
// changed, or an element changed is no longer in the file at all (a save
// that dropped it rather than leaving a tombstone), the delta says
// Resync: the editor reads the scene as before.

// MaxDeltaElements bounds a delta: past it the editor is better off
// reading the scene.
const MaxDeltaElements = 500

// Delta is the change of a scene from revision From to its head.
type Delta struct {
	Head
	// From is the revision the delta starts from: it holds every element
	// a commit after From changed, up to Head.Revision.
	From int64 `json:"from"`
	// Elements are the changed elements as the head has them, in the
	// scene's order (deleted ones as tombstones).
	Elements []json.RawMessage `json:"elements"`
	// Files are the files (by id) of the image elements in Elements,
	// sent only when a commit in the range changed the scene's files.
	Files map[string]json.RawMessage `json:"files,omitempty"`
	// AppState is the stored appState, when a commit changed it.
	AppState json.RawMessage `json:"appState,omitempty"`
	// Forced are the forced saves ("Overwrite anyway") in the range, as
	// board_log rows without ids, so an editor can offer its version back
	// without reading the journal.
	Forced []LogRow `json:"forced,omitempty"`
	// Resync means no delta: the editor reads the scene (Why says why).
	Resync bool   `json:"resync,omitempty"`
	Why    string `json:"why,omitempty"`

	event *deltaEvent // its JSON, once (a shared delta)
}

// Delta returns the change of scene name from revision from to its
// current head (see above). A from at or past the head gives no elements.
// The delta may be shared with other callers asking for the same one (see
// deltaCache): it must not be changed.
func (s *Service) Delta(ctx context.Context, name string, from int64) (*Delta, error) {
	if err := store.ValidName(name); err != nil {
		return nil, mapError(err)
	}
	// The head, for the caller's own access, with its bytes where they
	// cost no read (see deltaCache).
	m, data, err := s.deltaHead(ctx, name)
	if err != nil {
		return nil, err
	}
	if from == m.Revision || from <= 0 || from > m.Revision {
		return s.deltaOf(ctx, name, from, m, nil)
	}
	for {
		call, mine := s.deltas.join(name, keyOf(from, m))
		if !mine {
			select {
			case <-call.done:
			case <-ctx.Done():
				return nil, mapError(ctx.Err())
			}
			if call.d != nil {
				return call.d, nil
			}
			continue // it failed for its caller: this one computes its own
		}
		return s.computeDelta(ctx, name, from, m, data, call)
	}
}

// computeDelta computes the delta of call (from revision from to the head
// m, whose bytes are data when known, or to a newer head) and ends the
// call with it, failed or not.
func (s *Service) computeDelta(ctx context.Context, name string, from int64, m store.Meta, data []byte, call *deltaCall) (d *Delta, err error) {
	defer func() { s.deltas.end(name, call, d) }()
	if data == nil {
		if m, data, err = s.headBytes(ctx, name, m); err != nil {
			return nil, err
		}
	}
	if d, err = s.deltaOf(ctx, name, from, m, data); err != nil {
		return nil, err
	}
	d.detach()
	d.event = &deltaEvent{}
	return d, nil
}

// deltaOf is the delta of name from revision from to its head m, whose
// bytes are data (nil when from is no revision before m, which needs
// none).
func (s *Service) deltaOf(ctx context.Context, name string, from int64, m store.Meta, data []byte) (*Delta, error) {
	d := &Delta{Head: headOf(m), From: from, Elements: []json.RawMessage{}}
	resync := func(why string) (*Delta, error) {
		d.Resync, d.Why, d.Elements = true, why, nil
		return d, nil
	}
	switch {
	case from == m.Revision:
		return d, nil
	case from <= 0 || from > m.Revision:
		return resync("no base")
	}
	changed := map[string]bool{}
	members := map[string]bool{}
	ok, err := s.journalDelta(ctx, name, from, m.Revision, changed, members, &d.Forced)
	if err != nil {
		return nil, err
	}
	if !ok {
		return resync("journal")
	}
	if len(changed) > MaxDeltaElements {
		return resync("large")
	}
	sp, err := s.docs.split(data)
	if err != nil {
		return resync("unreadable")
	}
	images := map[string]bool{}
	for _, el := range sp.Elements {
		if !changed[el.ID] {
			continue
		}
		delete(changed, el.ID)
		d.Elements = append(d.Elements, json.RawMessage(el.Raw))
		if members["files"] && !el.Deleted {
			if id := imageFile(el.Raw); id != "" {
				images[id] = true
			}
		}
	}
	if len(changed) > 0 {
		return resync("removed")
	}
	for _, m := range sp.Members {
		switch {
		case m.Name == "appState" && members["appState"]:
			d.AppState = json.RawMessage(m.Raw)
		case m.Name == "files" && len(images) > 0:
			var all map[string]json.RawMessage
			if json.Unmarshal(m.Raw, &all) != nil {
				return resync("unreadable")
			}
			d.Files = map[string]json.RawMessage{}
			for id := range images {
				if f, ok := all[id]; ok {
					d.Files[id] = f
				}
			}
		}
	}
	return d, nil
}

// imageFile is the fileId of an image element's bytes, "" for any other.
func imageFile(raw []byte) string {
	var el struct {
		Type   string `json:"type"`
		FileID string `json:"fileId"`
	}
	if json.Unmarshal(raw, &el) != nil || el.Type != "image" {
		return ""
	}
	return el.FileID
}

// journalDelta adds to changed the ids the journal's entries of revisions
// after+1 … rev affected, to members the other members they changed, and
// to forced the forced saves among them, oldest first; ok is false when
// the journal does not hold each of them with its elements.
func (s *Service) journalDelta(ctx context.Context, name string, after, rev int64, changed, members map[string]bool, forced *[]LogRow) (ok bool, err error) {
	ok, err = s.walkJournal(ctx, name, after, rev, func(e *journal.Entry) bool {
		for _, id := range e.Affected() {
			changed[id] = true
		}
		for _, m := range e.Members {
			members[m] = true
		}
		if e.Forced {
			*forced = append(*forced, logRow(e, LogIDsNone))
		}
		return len(changed) <= MaxDeltaElements // too large anyway: the caller resyncs
	})
	slices.Reverse(*forced) // oldest first
	return ok, err
}
