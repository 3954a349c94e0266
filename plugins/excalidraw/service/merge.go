package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"

	"go.uber.org/zap"
)

// MergeRequest is a live room's write: elements as a collaborator's
// editor sent them (Excalidraw's SCENE_UPDATE), each stored only where it
// is newer than the stored element of its id.
type MergeRequest struct {
	Name     string
	Elements []json.RawMessage
	// AppState is a subset of the stored appState (viewBackgroundColor,
	// gridSize, gridModeEnabled) put over it; Files are attachments by
	// id, put beside the board's (an image's bytes never change under
	// its id). Either may be empty.
	AppState json.RawMessage
	Files    json.RawMessage
	// Actor defaults to ui; Attribution says who (the room names the
	// person whose socket sent the elements) and through what.
	Actor       store.Actor
	Attribution store.Attribution
}

// MergeResult is what a merge did.
type MergeResult struct {
	// Write is the commit, nil when no element was newer than the
	// stored one (nothing written).
	Write *WriteResult `json:"write,omitempty"`
	// Taken are the ids stored as sent; Stale counts the elements not
	// taken because the stored one is as new or newer.
	Taken []string `json:"taken"`
	Stale int      `json:"stale"`
}

// Merge stores the elements of r that are newer than the stored ones, as
// Excalidraw's collaboration reconciles a remote update: an element is
// taken when the board has no element of its id, when its version is
// higher, or when the versions are equal and its versionNonce is lower
// (the tie Excalidraw breaks the same way on every peer, so all converge).
// Everything else of the board stays as stored. The result is one commit,
// journaled like any save (the keepers run on what it took, the document
// is normalized and validated), made under the scene's lock on the
// revision it merged into, so no one's write in between is lost. Elements that are not objects with a string id are
// invalid_scene at their index, before the board is read.
func (s *Service) Merge(ctx context.Context, r MergeRequest) (*MergeResult, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	in, err := s.parseElements(r.Elements)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(in))
	for i, el := range in {
		ids[i] = scene.StringOf(el, "id")
	}
	res := &MergeResult{Taken: []string{}}
	saved, err := s.store.Update(ctx, store.UpdateRequest{
		Name: r.Name, AnyRevision: true, Actor: actorOr(r.Actor, store.ActorUI), Attribution: r.Attribution,
		Mutate: func(cur *store.Scene) ([]byte, error) {
			var data []byte
			_, err := s.editStored(cur.Data, ids, func(doc *scene.Document, sd seed) error {
				res.Stale = 0
				var els []*ojson.Object
				els, res.Taken = reconcile(doc.Elements(), in, &res.Stale)
				if len(res.Taken) == 0 && len(r.AppState) == 0 && len(r.Files) == 0 {
					return nil
				}
				doc.SetElements(els)
				if _, err := s.editSeeded(doc, sd, func(tx *engine.Txn) error {
					if err := tx.MergeAppState(r.AppState, "/appState"); err != nil {
						return err
					}
					return tx.SetFiles(r.Files, "/files")
				}); err != nil {
					return err
				}
				if engine.Tagged(doc) && len(res.Taken) > 0 {
					if _, err := s.editSeeded(doc, sd, func(tx *engine.Txn) error {
						tx.MarkEdited(res.Taken)
						_, err := tx.Keep()
						return err
					}); err != nil {
						s.log.Warn("merge: structures not kept", zap.String("scene", r.Name), zap.Error(err))
					}
				}
				var err error
				data, err = s.finish(doc)
				return err
			})
			if err != nil || data == nil || bytes.Equal(data, cur.Data) {
				return cur.Data, err // nothing newer: nothing written
			}
			return data, nil
		},
	})
	if err != nil {
		return nil, mapError(err)
	}
	if res.Taken == nil {
		res.Taken = []string{}
	}
	if saved.Unchanged {
		return res, nil
	}
	s.committed(saved)
	res.Write = writeResult(saved)
	return res, nil
}

// parseElements reads a merge's elements as a scene's, under the limits
// of a write (a bad element is invalid_scene at /elements/<i>).
func (s *Service) parseElements(raw []json.RawMessage) ([]*ojson.Object, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"excalidraw","version":2,"elements":[`)
	for i, e := range raw {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(e)
	}
	b.WriteString(`]}`)
	doc, err := scene.Parse(b.Bytes(), s.limits)
	if err != nil {
		return nil, mapError(err)
	}
	for i, el := range doc.Elements() {
		if el == nil || scene.StringOf(el, "id") == "" {
			return nil, sceneerr.New(sceneerr.InvalidScene, "element %d has no id", i).With("pointer", fmt.Sprintf("/elements/%d", i))
		}
	}
	return doc.Elements(), nil
}

// reconcile puts a copy of each of in that is newer than the element of
// its id in cur in its place (a copy: a try's finish freezes what it
// stores, and in serves every try) (new ids after the others), in fractional-index order
// when every element has an index. It returns the elements and the ids
// taken; stale counts those not taken.
func reconcile(cur, in []*ojson.Object, stale *int) ([]*ojson.Object, []string) {
	at := make(map[string]int, len(cur))
	for i, el := range cur {
		if el != nil {
			at[scene.StringOf(el, "id")] = i
		}
	}
	els := slices.Clone(cur)
	var taken []string
	for _, el := range in {
		id := scene.StringOf(el, "id")
		i, ok := at[id]
		switch {
		case !ok:
			at[id] = len(els)
			els = append(els, el.Clone())
		case newer(el, els[i]):
			els[i] = el.Clone()
		default:
			*stale++
			continue
		}
		if !slices.Contains(taken, id) {
			taken = append(taken, id)
		}
	}
	indexed := true
	for _, el := range els {
		if el != nil && scene.StringOf(el, "index") == "" {
			indexed = false
			break
		}
	}
	if indexed {
		slices.SortStableFunc(els, func(a, b *ojson.Object) int {
			if a == nil || b == nil {
				return 0
			}
			ia, ib := scene.StringOf(a, "index"), scene.StringOf(b, "index")
			switch {
			case ia < ib:
				return -1
			case ia > ib:
				return 1
			}
			return 0
		})
	}
	return els, taken
}

// newer reports whether a remote element replaces the local one of its
// id: a higher version, or the same version with a lower versionNonce.
func newer(remote, local *ojson.Object) bool {
	rv, lv := scene.NumberOf(remote, "version"), scene.NumberOf(local, "version")
	if rv != lv {
		return rv > lv
	}
	return scene.NumberOf(remote, "versionNonce") < scene.NumberOf(local, "versionNonce")
}
