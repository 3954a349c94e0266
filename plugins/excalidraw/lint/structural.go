package lint

import (
	"fmt"
	"slices"
	"strings"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
)

// missing says why a reference to id is dangling, "" when it is not.
func (s *scene) missing(id string) string {
	if _, ok := s.byID[id]; ok {
		return ""
	}
	if s.deleted[id] {
		return "is deleted"
	}
	return "does not exist"
}

// danglingBindings: forward references that name nothing live.
func (s *scene) danglingBindings() {
	for _, e := range s.els {
		type ref struct{ field, target string }
		var refs []ref
		if e.hasStart && e.start != "" {
			refs = append(refs, ref{"startBinding", e.start})
		}
		if e.hasEnd && e.end != "" {
			refs = append(refs, ref{"endBinding", e.end})
		}
		if e.typ == "text" && e.container != "" {
			refs = append(refs, ref{"containerId", e.container})
		}
		if e.frame != "" {
			refs = append(refs, ref{"frameId", e.frame})
		}
		// One finding per target, naming every field that points at it.
		for i, r := range refs {
			why := s.missing(r.target)
			if why == "" || slices.ContainsFunc(refs[:i], func(q ref) bool { return q.target == r.target }) {
				continue
			}
			fields := []string{r.field}
			for _, q := range refs[i+1:] {
				if q.target == r.target {
					fields = append(fields, q.field)
				}
			}
			var sug map[string]any
			switch r.field {
			case "startBinding":
				sug = map[string]any{"action": "unbind", "arrow": e.id, "end": "start"}
			case "endBinding":
				sug = map[string]any{"action": "unbind", "arrow": e.id, "end": "end"}
			default:
				sug = map[string]any{"action": "set", "id": e.id, "field": r.field, "value": nil}
			}
			s.report(CodeDanglingBinding, []string{e.id, r.target}, sug,
				"%s: %s names %q, which %s", s.name(e), strings.Join(fields, " and "), r.target, why)
		}
	}
}

// lists reports whether e's boundElements lists id.
func (e *el) lists(id string) bool {
	for _, b := range e.bound {
		if b.id == id {
			return true
		}
	}
	return false
}

// bindsTo reports whether a linear element binds either end to id.
func (e *el) bindsTo(id string) bool {
	return (e.hasStart && e.start == id) || (e.hasEnd && e.end == id)
}

// oneSidedBindings: an arrow or label bound to an element that does not
// record it. Excalidraw moves, resizes and deletes what an element lists
// in boundElements, so such an arrow stays behind when its target moves.
// (The reverse, an entry for an element not bound back, is harmless and
// common in files the editor wrote: stale_bound_entry.)
func (s *scene) oneSidedBindings() {
	for _, e := range s.els {
		if model.IsLinear(e.typ) {
			for _, end := range [...]struct {
				name, id string
				has      bool
			}{{"start", e.start, e.hasStart}, {"end", e.end, e.hasEnd}} {
				t, ok := s.get(end.id)
				if !end.has || !ok || t.lists(e.id) || (end.name == "end" && end.id == e.start && e.hasStart) {
					continue
				}
				s.report(CodeOneSidedBinding, []string{e.id, t.id},
					map[string]any{"action": "link", "id": t.id, "element": e.id, "type": "arrow"},
					"%s is bound to %s, whose boundElements does not list it", s.name(e), s.name(t))
			}
		}
		if c := s.containerOf(e); c != nil && !c.lists(e.id) {
			s.report(CodeOneSidedBinding, []string{e.id, c.id},
				map[string]any{"action": "link", "id": c.id, "element": e.id, "type": "text"},
				"%s has containerId %q, whose boundElements does not list it", s.name(e), c.id)
		}
	}
}

// staleBoundEntries: boundElements entries that do not hold: naming a
// missing or deleted element (restore drops those), or an arrow or text
// that is not bound back (restore keeps those, and the editor ignores
// them: it leaves them itself when an arrow is unbound). They change
// nothing a person sees, and Normalize drops them all on any write
// (repair_scene too), so they are one finding for the scene: its ids the
// elements that carry them (at most maxStaleIDs, those in scope
// first), its message the count and the first.
func (s *scene) staleBoundEntries() {
	r := s.references()
	entries, first := r.entries, r.first
	if entries == 0 {
		return
	}
	carriers := slices.Clone(r.carriers)
	all := len(carriers)
	slices.SortStableFunc(carriers, func(a, b string) int {
		return cmpBool(s.inScope(b), s.inScope(a))
	})
	carriers = carriers[:min(len(carriers), maxStaleIDs)]
	s.report(CodeStaleBoundEntry, carriers, map[string]any{"action": "repair"},
		"%d %s on %d %s %s elements that are missing, deleted or not bound back (%s); the editor ignores them, and repair_scene (as any write) drops them",
		entries, plural(entries, "boundElements entry", "boundElements entries"), all, plural(all, "element", "elements"), plural(entries, "names", "name"), first)
}

// staleEntry says why e's boundElements entry b does not hold, "" when it does.
func (s *scene) staleEntry(e *el, b boundRef) string {
	t, ok := s.get(b.id)
	if !ok {
		return fmt.Sprintf("%s lists bound element %q, which %s", s.name(e), b.id, s.missing(b.id))
	}
	var bad bool
	switch b.typ {
	case "arrow":
		bad = !model.IsLinear(t.typ) || !t.bindsTo(e.id)
	case "text":
		bad = t.typ != "text" || t.container != e.id
	}
	if !bad {
		return ""
	}
	return fmt.Sprintf("%s lists %s as its bound %s, but it is not bound to it", s.name(e), s.name(t), b.typ)
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// degenerateSizes: boxes of no area and positions that are not numbers.
func (s *scene) degenerateSizes() {
	for _, e := range s.els {
		if !e.finite {
			s.report(CodeDegenerateSize, []string{e.id}, nil,
				"%s has a missing or non-finite position, size or angle", s.name(e))
			continue
		}
		if !isSized(e.typ) || (e.w > 0 && e.h > 0) {
			continue
		}
		var sug map[string]any
		switch {
		case e.typ == "text":
			if e.blank {
				continue // empty_text says it
			}
			if !s.inScope(e.id) {
				continue // finish would drop it; spare the layout
			}
			lay := s.layoutText(e)
			sug = map[string]any{"action": "resize", "id": e.id, "width": round2(lay.Width), "height": round2(lay.Height)}
		case e.w <= 0 && e.h <= 0:
			sug = map[string]any{"action": "delete", "id": e.id}
		}
		s.report(CodeDegenerateSize, []string{e.id}, sug,
			"%s is %g × %g: nothing of it can be seen or selected", s.name(e), round2(e.w), round2(e.h))
	}
}

// layoutText lays out a text as the editor would: a label in its
// container, a free text by itself.
func (s *scene) layoutText(e *el) build.TextLayout {
	if c := s.containerOf(e); c != nil {
		return build.LayoutLabel(c.o, e.o)
	}
	return build.FitText(e.o)
}

// emptyTexts: text elements with nothing to show.
func (s *scene) emptyTexts() {
	for _, e := range s.els {
		if e.typ != "text" || !e.blank {
			continue
		}
		ids := []string{e.id}
		what := "text"
		if c := s.containerOf(e); c != nil {
			ids = append(ids, c.id)
			what = "label of " + s.name(c)
		}
		s.report(CodeEmptyText, ids, map[string]any{"action": "delete", "id": e.id},
			"%s %q is empty", what, e.id)
	}
}
