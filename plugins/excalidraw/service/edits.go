package service

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Edit is what one element tool asks of a scene, typed as the tool's
// arguments say it (the JSON names are the arguments'): Plan is its work
// on a write's transaction, its errors located under at (where the
// arguments are in the caller's request: "" for a tool's own, a step's
// for apply_ops); Named are the ids it names (WriteRequest.Named).
type Edit interface {
	Plan(at string) Plan
	Named() []string
}

// Edit runs e as one write (see Write).
func (s *Service) Edit(ctx context.Context, r WriteRequest, e Edit) (*Envelope, error) {
	e, err := s.profiled(ctx, r.Name, e)
	if err != nil {
		return nil, err
	}
	r.Named = slices.Concat(r.Named, e.Named())
	if ts := targetsOf(e, r.Options, ""); usesAfter(ts) {
		return s.writeAfter(ctx, r, ts, e)
	}
	return s.Write(ctx, r, e.Plan(""))
}

// CreateElements creates elements (engine.Txn.Create: refs, placement).
type CreateElements struct {
	Elements []json.RawMessage `json:"elements"`
}

func (e CreateElements) Named() []string { return nil }

func (e CreateElements) Plan(at string) Plan {
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		res, err := tx.Create(e.Elements, at+"/elements")
		if err != nil {
			return PlanResult{}, err
		}
		extra := map[string]any{}
		if len(res.Refs) > 0 {
			extra["refs"] = res.Refs
		}
		return PlanResult{Targets: res.IDs, Extra: extra}, nil
	}
}

// UpdateElements patches elements.
type UpdateElements struct {
	Updates []engine.Update `json:"updates"`
}

// Named are the ids the updates name.
func (e UpdateElements) Named() []string {
	ids := make([]string, len(e.Updates))
	for i, u := range e.Updates {
		ids[i] = u.ID
	}
	return ids
}

func (e UpdateElements) Plan(at string) Plan {
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		return PlanResult{Targets: e.Named()}, tx.Update(e.Updates, at+"/updates")
	}
}

// MoveElements moves elements by DX/DY, or their box's top-left to To.
type MoveElements struct {
	engine.Selection
	DX *float64      `json:"dx,omitempty"`
	DY *float64      `json:"dy,omitempty"`
	To *engine.Point `json:"to,omitempty"`
}

func (e MoveElements) Named() []string { return e.IDs }

func (e MoveElements) Plan(at string) Plan {
	return onSelection(e.Selection, true, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		var unbound []engine.Unbound
		var err error
		switch {
		case e.To != nil && (e.DX != nil || e.DY != nil):
			return PlanResult{}, opError(at+"/to", "give dx/dy or to, not both")
		case e.To != nil:
			unbound, err = tx.MoveTo(ids, e.To.X, e.To.Y, at+e.Pointer())
		case e.DX == nil && e.DY == nil:
			return PlanResult{}, opError(at+"/dx", "give dx and/or dy, or to")
		default:
			unbound, err = tx.Move(ids, deref(e.DX), deref(e.DY), at+e.Pointer())
		}
		if err != nil {
			return PlanResult{}, err
		}
		pr := PlanResult{Targets: ids, Extra: map[string]any{}}
		if len(unbound) > 0 {
			pr.Extra["unbound"] = unbound
		}
		if r := tx.Rerouted(); len(r) > 0 {
			pr.Extra["rerouted"] = r
		}
		return pr, nil
	})
}

// onSelection is a plan that resolves sel (see engine.Txn.Resolve; errors
// located under at) and runs edit on the ids.
func onSelection(sel engine.Selection, required bool, at string, edit func(tx *engine.Txn, ids []string) (PlanResult, error)) Plan {
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		ids, err := tx.Resolve(sel, required)
		if err != nil {
			return PlanResult{}, prefixPointer(err, at)
		}
		return edit(tx, ids)
	}
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

// DeleteElements deletes elements with their labels.
type DeleteElements struct {
	engine.Selection
}

func (e DeleteElements) Named() []string { return e.IDs }

func (e DeleteElements) Plan(at string) Plan {
	return onSelection(e.Selection, true, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		return PlanResult{Targets: ids}, tx.Delete(ids, at+e.Pointer())
	})
}

// ReplaceText finds and replaces in texts and labels (all of them when
// nothing is selected).
type ReplaceText struct {
	engine.Selection
	Find          string `json:"find"`
	Replace       string `json:"replace"`
	Regex         bool   `json:"regex,omitempty"`
	CaseSensitive bool   `json:"case_sensitive,omitempty"`
}

func (e ReplaceText) Named() []string { return e.IDs }

func (e ReplaceText) Plan(at string) Plan {
	return onSelection(e.Selection, false, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		if e.Target != nil && len(ids) == 0 {
			return PlanResult{}, sceneerr.New(sceneerr.NotFound, "the target selects no element").With("pointer", at+"/target")
		}
		changed, err := tx.ReplaceText(ids, engine.Replacement{Find: e.Find, Replace: e.Replace, Regex: e.Regex,
			CaseSensitive: e.CaseSensitive, Pointer: at + "/find"}, at+e.Pointer())
		return PlanResult{Targets: changed}, err
	})
}

// CopyElements duplicates elements, offset by DX/DY: within the scene
// (Plan), or onto ToScene (Service.Copy).
type CopyElements struct {
	engine.Selection
	DX      float64 `json:"dx,omitempty"`
	DY      float64 `json:"dy,omitempty"`
	ToScene string  `json:"to_scene,omitempty"`
}

func (e CopyElements) Named() []string { return nil }

// Plan copies within the scene, whatever ToScene says.
func (e CopyElements) Plan(at string) Plan {
	return onSelection(e.Selection, true, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		copies, err := tx.Copy(ids, e.DX, e.DY, at+e.Pointer())
		return PlanResult{Extra: map[string]any{"copies": copies}}, err
	})
}

// Copy copies within r's scene, or, with ToScene, reads r's scene and
// pastes into ToScene's transaction (one commit, on ToScene; the source
// is not changed).
func (s *Service) Copy(ctx context.Context, r WriteRequest, e CopyElements) (*Envelope, error) {
	if e.ToScene == "" || e.ToScene == r.Name {
		return s.Edit(ctx, r, e)
	}
	clip, err := s.copyOut(ctx, r.Name, e.Selection)
	if err != nil {
		return nil, err
	}
	from := r.Name
	r.Name = e.ToScene
	return s.Write(ctx, r, func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		p, err := tx.Paste(clip, e.DX, e.DY, e.Pointer())
		if err != nil {
			return PlanResult{}, err
		}
		return PlanResult{Extra: map[string]any{"copies": p.IDs, "files": p.Files, "from": from}}, nil
	})
}

// copyOut copies the elements sel names out of a stored scene without
// writing it (the source of a copy onto another scene).
func (s *Service) copyOut(ctx context.Context, name string, sel engine.Selection) (*engine.Clip, error) {
	if err := store.ValidName(name); err != nil {
		return nil, mapError(err)
	}
	sc, err := s.store.Read(ctx, name)
	if err != nil {
		return nil, mapError(err)
	}
	doc, err := s.parseStored(sc.Data)
	if err != nil {
		return nil, sceneerr.New(sceneerr.CorruptScene, "stored scene %s does not parse", name).With("cause", err.Error())
	}
	if err := s.resolveAfter(ctx, name, sc.Revision, doc, targetsOf(CopyElements{Selection: sel}, WriteOptions{}, "")); err != nil {
		return nil, err
	}
	var clip *engine.Clip
	_, err = s.edit(doc, func(tx *engine.Txn) error {
		ids, err := tx.Resolve(sel, true)
		if err == nil {
			clip, err = tx.CopyOut(ids, sel.Pointer())
		}
		return err
	})
	return clip, err
}

// GroupElements groups elements (labels join their containers).
type GroupElements struct {
	engine.Selection
}

func (e GroupElements) Named() []string { return e.IDs }

func (e GroupElements) Plan(at string) Plan {
	return onSelection(e.Selection, true, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		g, err := tx.Group(ids, at)
		return PlanResult{Targets: ids, Extra: map[string]any{"group_id": g}}, atSelection(err, e.Selection, at)
	})
}

// atSelection puts errors the engine located under at+"/ids/<i>" under
// at+"/target" when the ids came from a target (nil stays nil).
func atSelection(err error, s engine.Selection, at string) error {
	se, ok := err.(*sceneerr.Error)
	if !ok || s.Target == nil {
		return err
	}
	if p, _ := se.Details["pointer"].(string); strings.HasPrefix(p, at+"/ids") {
		return se.With("pointer", at+"/target")
	}
	return err
}

// UngroupElements dissolves the group GroupID, or the outermost group of
// each of IDs.
type UngroupElements struct {
	GroupID string   `json:"group_id,omitempty"`
	IDs     []string `json:"ids,omitempty"`
}

func (e UngroupElements) Named() []string { return e.IDs }

func (e UngroupElements) Plan(at string) Plan {
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		switch {
		case e.GroupID != "" && len(e.IDs) > 0:
			return PlanResult{}, opError(at+"/group_id", "give group_id or ids, not both")
		case e.GroupID != "":
			members, err := tx.Ungroup(e.GroupID, at)
			return PlanResult{Targets: members}, err
		case len(e.IDs) > 0:
			groups, members, err := tx.UngroupElements(e.IDs, at)
			return PlanResult{Targets: members, Extra: map[string]any{"groups": groups}}, err
		}
		return PlanResult{}, opError(at+"/group_id", "give the group_id to dissolve, or ids")
	}
}

// ReorderElements changes the drawing order (engine.Txn.Reorder).
type ReorderElements struct {
	engine.Selection
	To         string `json:"to"`
	RelativeTo string `json:"relative_to,omitempty"`
}

func (e ReorderElements) Named() []string { return e.IDs }

func (e ReorderElements) Plan(at string) Plan {
	return onSelection(e.Selection, true, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		return PlanResult{Targets: ids}, atSelection(tx.Reorder(ids, e.To, e.RelativeTo, at), e.Selection, at)
	})
}

// CreateFrame creates a frame around the selected elements, or at Box.
type CreateFrame struct {
	engine.Selection
	FrameName string      `json:"frame_name,omitempty"`
	Box       *engine.Box `json:"box,omitempty"`
	Padding   float64     `json:"padding,omitempty"`
}

func (e CreateFrame) Named() []string { return e.IDs }

func (e CreateFrame) Plan(at string) Plan {
	return onSelection(e.Selection, e.Box == nil, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		id, err := tx.CreateFrame(e.FrameName, e.Box, ids, e.Padding, at)
		pr := PlanResult{Targets: append([]string{id}, ids...), Extra: map[string]any{"frame_id": id}}
		if e.Box != nil && e.Padding != 0 {
			pr.Ignored = []IgnoredField{{ID: id, Field: at + "/padding", Reason: "box gives the frame's bounds; padding applies around children when there is no box"}}
		}
		return pr, atSelection(err, e.Selection, at)
	})
}

// AddToFrame puts the selected elements into the frame FrameID.
type AddToFrame struct {
	engine.Selection
	FrameID string `json:"frame_id"`
}

func (e AddToFrame) Named() []string { return e.IDs }

func (e AddToFrame) Plan(at string) Plan {
	return onSelection(e.Selection, true, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		return PlanResult{Targets: ids}, atSelection(tx.FrameAdd(e.FrameID, ids, at), e.Selection, at)
	})
}

// ArrangeElements lays elements out or aligns them (engine.Arrangement).
type ArrangeElements struct {
	engine.Selection
	engine.Arrangement
}

func (e ArrangeElements) Named() []string { return e.IDs }

func (e ArrangeElements) Plan(at string) Plan {
	return onSelection(e.Selection, true, at, func(tx *engine.Txn, ids []string) (PlanResult, error) {
		return PlanResult{Targets: ids}, atSelection(tx.Arrange(ids, e.Arrangement, at), e.Selection, at)
	})
}

// RepairScene repairs a scene (engine.Txn.Repair).
type RepairScene struct{}

func (RepairScene) Named() []string { return nil }

func (RepairScene) Plan(string) Plan {
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		rep, err := tx.Repair()
		if err != nil {
			return PlanResult{}, err
		}
		extra := map[string]any{"fixed": rep.Fixed}
		if len(rep.Skipped) > 0 {
			extra["skipped"] = rep.Skipped
		}
		if len(rep.Normalize.Repairs) > 0 {
			extra["repairs"] = rep.Normalize.Repairs
		}
		return PlanResult{Extra: extra}, nil
	}
}

// Steps are edits run in order on one transaction, one commit
// (apply_ops): step i's arguments are at /ops/<i>/args. The result's
// "ops" lists each step's own result.
type Steps []Edit

func (Steps) Named() []string { return nil }

func (st Steps) Plan(at string) Plan {
	plans := make([]Plan, len(st))
	for i, e := range st {
		plans[i] = e.Plan(at + StepPointer(i))
	}
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		var all PlanResult
		results := make([]map[string]any, len(plans))
		for i, plan := range plans {
			pr, err := plan(tx, doc)
			if err != nil {
				return PlanResult{}, err
			}
			all.Targets = append(all.Targets, pr.Targets...)
			all.Ignored = append(all.Ignored, pr.Ignored...)
			results[i] = pr.Extra
		}
		all.Extra = map[string]any{"ops": results}
		return all, nil
	}
}

// StepPointer is where step i's arguments are in a Steps request.
func StepPointer(i int) string { return "/ops/" + strconv.Itoa(i) + "/args" }
