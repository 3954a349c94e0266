package lint

import (
	"slices"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Neighbours is the scope a write that touched ids should be linted
// with: the ids themselves; their labels and containers; the elements
// they reference (binding targets, frame) and those referencing them
// (arrows bound to them, a frame's children, entries of boundElements);
// what those arrows bind at their other ends; every element whose box
// comes within nearMargin of a touched one (what it may now overlap,
// cover or cross); and the labels and containers of all of these.
//
// A touched id may name a deleted element (a write that deleted it): its
// last geometry still counts, so what it used to cover is in scope. A
// staged write lints before and after with the union of both scenes'
// Neighbours and reports Diff of the two runs.
func Neighbours(elements []*ojson.Object, ids []string) map[string]bool {
	return newScene(elements, Options{}, nil).neighbours(ids)
}

// neighbours is Neighbours on a scene read already.
func (s *scene) neighbours(ids []string) map[string]bool {
	out := make(map[string]bool, len(ids)*4)
	touched := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
		touched[id] = true
	}
	add := func(id string) {
		if id != "" {
			out[id] = true
		}
	}
	addRefs := func(e *el) {
		add(e.start)
		add(e.end)
		add(e.container)
		add(e.frame)
		for _, b := range e.bound {
			add(b.id)
		}
	}

	// The touched elements' geometry, deleted ones included.
	var boxes []geom.Rect
	for _, id := range ids {
		live, _ := s.get(id)
		for _, e := range []*el{s.tombs[id], live} {
			if e == nil {
				continue
			}
			addRefs(e)
			if e.finite {
				boxes = append(boxes, e.box)
			}
		}
	}

	// References to the touched elements, and the arrows' other ends.
	refers := func(e *el) {
		add(e.id)
		if model.IsLinear(e.typ) {
			add(e.start)
			add(e.end)
		}
	}
	if touched[""] { // every unset reference names it: look at each
		for _, e := range s.els {
			if touched[e.start] || touched[e.end] || touched[e.container] || touched[e.frame] ||
				slices.ContainsFunc(e.bound, func(b boundRef) bool { return touched[b.id] }) {
				refers(e)
			}
		}
	} else {
		to := s.references().to
		for id := range touched {
			for _, i := range to[id] {
				refers(s.els[i])
			}
		}
	}

	// What lies on or near them.
	for _, b := range boxes {
		s.query(b.Expand(nearMargin), func(*el) bool { return true }, func(e *el) { add(e.id) })
	}

	// Labels and containers of everything in scope, in array order (an
	// element added ahead of the one that adds it has its own added too):
	// the live ones in scope are looked up rather than every element.
	var queue []int // indexes into s.els, ascending
	for id := range out {
		if i, ok := s.byID[id]; ok {
			queue = append(queue, i)
		}
	}
	slices.Sort(queue)
	for len(queue) > 0 {
		e := s.els[queue[0]]
		queue = queue[1:]
		for _, x := range []*el{s.labelOf(e), s.containerOf(e)} {
			if x == nil || out[x.id] {
				continue
			}
			out[x.id] = true
			if x.idx > e.idx {
				k, _ := slices.BinarySearch(queue, x.idx)
				queue = slices.Insert(queue, k, x.idx)
			}
		}
	}
	return out
}
