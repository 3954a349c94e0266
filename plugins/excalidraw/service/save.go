package service

import (
	"context"
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"

	"go.uber.org/zap"
)

// SaveRequest is the browser's full-scene save (PUT /scenes/:name).
type SaveRequest struct {
	Name             string
	Scene            json.RawMessage
	ExpectedRevision int64
	RequestID        string
	// Force is the explicit "Overwrite anyway" after a conflict: no
	// revision fence; the write is still the next revision.
	Force bool
	// Actor defaults to ui.
	Actor store.Actor
	// Attribution says who (by name), through what and why; it is kept
	// in the scene's journal.
	Attribution store.Attribution
}

// Save replaces a scene with a document the editor produced. The document
// is parsed (what cannot be represented is invalid_scene, and a document
// over a configured limit is refused with the limit's code here, before
// any other work), its app state checked as every write checks it
// (scene.CheckAppState: invalid_scene at /appState/<member>), normalized
// (so what the editor's own restore would repair is repaired rather than
// refused, and the result's repairs say what was), validated (errors
// refuse the save) and stored. A document of another version (an old
// file opened and saved back) is stored as version 2. If the normalized
// bytes are the stored ones, nothing is written and the result is the
// current revision with unchanged:true; that holds for a forced save and
// for a stale expected revision too (nothing can be lost). Before it is
// normalized, the engine's keepers run on it (engine.Txn.Keep), and the
// result's relaidOut lists what they moved: the editor, which sent
// something else, reads the stored scene back.
func (s *Service) Save(ctx context.Context, r SaveRequest) (*WriteResult, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	if len(r.Scene) == 0 {
		return nil, sceneerr.New(sceneerr.InvalidScene, "scene is required").With("pointer", "/scene")
	}
	doc, err := scene.Parse(r.Scene, s.limits)
	if err != nil {
		return nil, mapError(err)
	}
	if d, bad := scene.CheckAppState(doc.AppState()); bad {
		return nil, d.Err()
	}
	// The structures a person's edit changed are kept as a write keeps
	// them (a stack item made taller moves the items after it): the
	// stored scene is then not the one sent, and relaidOut says so.
	// A keeper that cannot keep (a stack pushed beyond the coordinates)
	// must not refuse the person's save: it is stored as sent.
	var relaid []string
	if engine.Tagged(doc) {
		kept := doc.Clone()
		edited := s.editedSince(ctx, r.Name, kept)
		if _, err := s.edit(kept, func(tx *engine.Txn) (err error) {
			tx.MarkEdited(edited)
			relaid, err = tx.Keep()
			return err
		}); err != nil {
			s.log.Warn("save: structures not kept", zap.String("scene", r.Name), zap.Error(err))
			relaid = nil
		} else {
			doc = kept
		}
	}
	data, repaired, err := s.finishReporting(doc)
	if err != nil {
		return nil, err
	}
	cctx, span := startSpan(ctx, spanCommit, r.Name)
	res, err := s.store.Save(cctx, store.SaveRequest{
		Name: r.Name, ExpectedRevision: r.ExpectedRevision, Force: r.Force, Data: data,
		Actor: actorOr(r.Actor, store.ActorUI), RequestID: r.RequestID, Attribution: r.Attribution,
	})
	endCommit(span, res, err)
	if err != nil {
		return nil, mapError(err)
	}
	s.committed(res)
	wr := writeResult(res)
	if !res.Duplicate {
		wr.setRepairs(repaired)
		wr.RelaidOut = relaid
	}
	return wr, nil
}

// editedSince are the ids of doc's elements that differ from the stored
// scene name (another version, or new): what a person's save changed,
// which the keepers look at. Every id when the scene cannot be read.
func (s *Service) editedSince(ctx context.Context, name string, doc *scene.Document) []string {
	var stored map[string]*ojson.Object
	if sc, err := s.store.Read(ctx, name); err == nil {
		if d, err := s.viewStored(sc.Data); err == nil {
			stored = d.ByID()
		}
	}
	var ids []string
	for _, el := range doc.Elements() {
		if el == nil {
			continue
		}
		id := scene.StringOf(el, "id")
		old := stored[id]
		if old == nil {
			ids = append(ids, id)
			continue
		}
		v1, _ := old.Number("version")
		v2, _ := el.Number("version")
		n1, _ := old.Number("versionNonce")
		n2, _ := el.Number("versionNonce")
		if v1 != v2 || n1 != n2 {
			ids = append(ids, id)
		}
	}
	return ids
}
