package engine

import (
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// RepairReport says what Repair did.
type RepairReport struct {
	// Normalize is what scene.Normalize repaired first.
	Normalize scene.NormalizeReport `json:"normalize"`
	// Fixed are the lint findings fixed, in lint's order.
	Fixed []RepairFix `json:"fixed"`
	// Skipped are the findings Repair could fix in kind but did not, and
	// why.
	Skipped []RepairFix `json:"skipped,omitempty"`
}

// RepairFix is one lint finding Repair fixed or skipped.
type RepairFix struct {
	// Code is the finding's lint code, IDs its elements (its Key).
	Code string   `json:"code"`
	IDs  []string `json:"ids"`
	// Action is the suggestion's action: "bind" or "resize".
	Action string `json:"action"`
	// Reason says why a skipped fix was not made.
	Reason string `json:"reason,omitempty"`
}

// repairable are the lint rules whose suggestions Repair applies.
var repairable = []string{lint.CodeUnboundArrowEnd, lint.CodeTextOverflow, lint.CodeLabelBrokenMidWord}

// Repair repairs the document as far as that is safe without a person:
// first scene.Normalize (what Excalidraw's restore would repair on
// open; its report is returned), then the lint findings whose fix is
// unambiguous:
//
//   - unbound_arrow_end: the arrow end near a shape is bound to it as the
//     builder binds a new arrow (build.Target: snapped onto the outline,
//     the binding gap outside it, the binding written as the builder
//     writes it, the arrow listed in the shape's boundElements; the
//     arrow's label laid out again). Elbow arrows are left, their
//     routes being the editor's;
//   - text_overflow and label_broken_mid_word on a container: the
//     container grows to the size lint suggests, through the path an
//     update of width and height takes (the label fitted again, its words
//     whole, bound arrows following).
//
// A fix is kept only when linting the elements it touched afterwards no
// longer reports its finding and reports no new error; otherwise it is
// undone and listed as skipped. Nothing is deleted. Every element Repair
// changes is bumped once, counting Normalize's own version steps.
func (tx *Txn) Repair() (RepairReport, error) {
	var rep RepairReport
	err := tx.do(func() error {
		rep = tx.repair()
		return nil
	})
	return rep, err
}

func (tx *Txn) repair() RepairReport {
	versions := make(map[*ojson.Object]float64, len(tx.doc.Elements()))
	for _, el := range tx.doc.Elements() {
		if el != nil {
			versions[el] = scene.NumberOf(el, "version")
		}
	}
	rep := RepairReport{Normalize: scene.Normalize(tx.doc), Fixed: []RepairFix{}}
	for _, el := range tx.doc.Elements() {
		if el != nil && scene.NumberOf(el, "version") != versions[el] {
			tx.bumped[el] = true // Normalize stepped it: that is its step
		}
	}
	tx.index()
	others := map[string]bool{}
	for _, r := range lint.Rules() {
		others[r.Code] = !slices.Contains(repairable, r.Code)
	}
	for _, f := range lint.Run(tx.doc.Elements(), lint.Options{Disabled: others}) {
		fix := RepairFix{Code: f.Code, IDs: f.IDs}
		fix.Action, _ = f.Suggestion["action"].(string)
		touched, apply, why := tx.repairFor(f)
		if apply != nil {
			why = tx.tryFix(f, touched, apply)
		}
		if why != "" {
			fix.Reason = why
			rep.Skipped = append(rep.Skipped, fix)
			continue
		}
		rep.Fixed = append(rep.Fixed, fix)
		for _, id := range f.IDs {
			tx.note(id)
		}
		tx.result.Updated++
	}
	return rep
}

// repairFor is the edit that fixes f and the elements it may change; a
// nil edit and the reason when there is none.
func (tx *Txn) repairFor(f lint.Finding) ([]*ojson.Object, func() error, string) {
	s := f.Suggestion
	switch action, _ := s["action"].(string); {
	case f.Code == lint.CodeUnboundArrowEnd && action == "bind":
		id, _ := s["arrow"].(string)
		end, _ := s["end"].(string)
		tid, _ := s["target"].(string)
		a, t := tx.byID.Get(id), tx.byID.Get(tid)
		switch {
		case a == nil || t == nil || scene.IsDeleted(a) || scene.IsDeleted(t) || (end != "start" && end != "end"):
			return nil, nil, "the suggestion names no live arrow end and target"
		case bindingTarget(a, end+"Binding") != "":
			return nil, nil, "the end is bound already"
		}
		if elbowed, _ := a.Bool("elbowed"); elbowed {
			return nil, nil, "an elbow arrow is routed by the editor; bind it there"
		}
		return tx.withLabels([]*ojson.Object{a, t}), func() error { tx.bindEnd(a, end, t); return nil }, ""
	case (f.Code == lint.CodeTextOverflow || f.Code == lint.CodeLabelBrokenMidWord) && action == "resize":
		id, _ := s["id"].(string)
		c := tx.byID.Get(id)
		w, okW := s["width"].(float64)
		h, okH := s["height"].(float64)
		switch {
		case c == nil || scene.IsDeleted(c) || !okW || !okH:
			return nil, nil, "the suggestion names no live element and size"
		case !boxed(scene.StringOf(c, "type")):
			return nil, nil, "a fixed-width text is sized by its text, not by width and height"
		}
		touched := tx.withLabels([]*ojson.Object{c})
		for _, aid := range boundArrowIDs(c) {
			if a := tx.byID.Get(aid); a != nil && !scene.IsDeleted(a) {
				touched = append(touched, tx.withLabels([]*ojson.Object{a})...)
			}
		}
		return touched, func() error {
			return tx.update(Op{kind: opUpdate, id: id, patch: ojson.New().Set("width", w).Set("height", h)})
		}, ""
	}
	return nil, nil, "no automatic fix for this suggestion"
}

// tryFix applies a fix that may change touched, and keeps it if linting
// those elements afterwards shows f gone and no new error; otherwise it
// puts them back as they were, version steps included, and says why.
func (tx *Txn) tryFix(f lint.Finding, touched []*ojson.Object, apply func() error) string {
	scope := map[string]bool{}
	was := make([]*ojson.Object, len(touched))
	bumped := make([]bool, len(touched))
	for i, el := range touched {
		scope[scene.StringOf(el, "id")] = true
		was[i], bumped[i] = el.Clone(), tx.bumped[el]
	}
	before := lint.Run(tx.doc.Elements(), lint.Options{Scope: scope})
	why := ""
	if err := apply(); err != nil {
		why = err.Error()
	}
	after := lint.Run(tx.doc.Elements(), lint.Options{Scope: scope})
	added, _, _ := lint.Diff(before, after)
	for _, g := range after {
		if why == "" && g.Key() == f.Key() {
			why = "the fix did not resolve the finding"
		}
	}
	for _, g := range added {
		if why == "" && g.Severity == lint.Error {
			why = "the fix would introduce " + g.Code + ": " + g.Message
		}
	}
	if why == "" {
		return ""
	}
	for i, el := range touched {
		for _, k := range slices.Clone(el.Keys()) {
			el.Delete(k)
		}
		was[i].Range(func(k string, v any) bool {
			el.Set(k, v)
			return true
		})
		if !bumped[i] {
			delete(tx.bumped, el)
		}
	}
	return why
}

// bindEnd binds end ("start" or "end") of arrow a to target t as the
// builder binds a new arrow: the end is snapped along the arrow's last
// segment onto t's outline, the binding gap outside it (build.Target),
// and the binding is the builder's for that segment; t lists the arrow
// in boundElements, and the arrow's label is laid out on its new points.
func (tx *Txn) bindEnd(a *ojson.Object, end string, t *ojson.Object) {
	pts := globalPoints(a)
	i := 0
	if end == "end" {
		i = len(pts) - 1
	}
	j := neighbour(i, len(pts))
	target := build.TargetOf(t)
	pts[i] = target.Snap(pts[i], pts[j])
	setGlobalPoints(a, pts)
	a.Set(end+"Binding", target.Binding(pts[i], pts[j]))
	tx.bump(a)
	if id := scene.StringOf(a, "id"); !hasBoundEntry(t, id) {
		list, _ := t.Array("boundElements")
		t.Set("boundElements", append(slices.Clone(list), ojson.New().Set("type", "arrow").Set("id", id)))
		tx.bump(t)
	}
	if l := tx.labelOf(a); l != nil {
		layoutLabel(a, l)
		tx.bump(l)
	}
}

// hasBoundEntry reports whether el's boundElements lists id.
func hasBoundEntry(el *ojson.Object, id string) bool {
	list, _ := el.Array("boundElements")
	return slices.ContainsFunc(list, func(v any) bool {
		o, ok := v.(*ojson.Object)
		return ok && scene.StringOf(o, "id") == id
	})
}
