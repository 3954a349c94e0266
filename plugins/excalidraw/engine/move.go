package engine

import (
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Unbound is an arrow end that a move took off the element it was bound
// to: the arrow was moved and that element was not.
type Unbound struct {
	Arrow  string `json:"arrow"`
	End    string `json:"end"` // "start" or "end"
	Target string `json:"target"`
}

// Move moves the elements ids name by dx, dy, as dragging them in the
// editor does:
//
//   - a named label moves its container, and a container its label
//     (carried by as much, not laid out again);
//   - a frame moves its children (an arrow among them is a moved arrow,
//     below);
//   - an arrow bound to a moved element follows it (its bound end
//     re-attached to the new outline, as an update's move does, its other
//     end staying); an arrow bound at both ends to moved elements moves
//     whole, keeping its route and bindings;
//   - a moved arrow keeps the bindings of its ends whose elements move
//     with it; an end bound to an element that stays is unbound (the end
//     left it), and reported;
//   - an elbow arrow that follows (one end moved, the other stayed) is
//     routed again around every shape, and reported by Rerouted.
//
// Every element that changes is bumped once. pointer locates the ids
// array in the caller's request: an unknown or deleted id is not_found at
// pointer/<i>; a move that would take an element beyond ±1e6 is
// invalid_operation at pointer. A move by 0, 0 changes nothing.
func (tx *Txn) Move(ids []string, dx, dy float64, pointer string) ([]Unbound, error) {
	var out []Unbound
	err := tx.do(func() (err error) {
		out, err = tx.move(ids, pointer, func([]*ojson.Object) (float64, float64) { return dx, dy })
		return err
	})
	return out, err
}

// MoveTo moves the elements ids name (see Move) so that the top-left
// corner of the box around them (frames' children included, labels not)
// lands on x, y.
func (tx *Txn) MoveTo(ids []string, x, y float64, pointer string) ([]Unbound, error) {
	var out []Unbound
	err := tx.do(func() (err error) {
		out, err = tx.move(ids, pointer, func(els []*ojson.Object) (float64, float64) {
			b, ok := query.Bounds(els)
			if !ok {
				return math.NaN(), math.NaN() // refused below: nothing to measure
			}
			return x - b.X, y - b.Y
		})
		return err
	})
	return out, err
}

// move moves the block ids name by the offset by gives for it.
func (tx *Txn) move(ids []string, pointer string, by func([]*ojson.Object) (float64, float64)) ([]Unbound, error) {
	named, err := tx.selection(ids, pointer, "move")
	if err != nil {
		return nil, err
	}
	moved := tx.block(named)
	dx, dy := by(moved)
	if math.IsNaN(dx) || math.IsNaN(dy) || math.IsInf(dx, 0) || math.IsInf(dy, 0) {
		return nil, opError(pointer, "the offset must be finite")
	}
	for _, el := range named {
		tx.note(scene.StringOf(el, "id"))
	}
	tx.result.Updated += len(named)
	in := map[string]bool{}
	for _, el := range moved {
		in[scene.StringOf(el, "id")] = true
	}
	return tx.shift(moved, in, dx, dy, pointer)
}

// shift moves the elements moved by dx, dy, as move does once it knows
// them (in: their ids, and any element already moved with them, such as
// the frame whose children they are), and returns the arrow ends it
// unbound.
func (tx *Txn) shift(moved []*ojson.Object, in map[string]bool, dx, dy float64, pointer string) ([]Unbound, error) {
	whole := tx.wholeArrows(moved, in)
	for _, el := range append(moved, whole...) {
		x, y := scene.NumberOf(el, "x")+dx, scene.NumberOf(el, "y")+dy
		if math.Abs(x) > maxCoord || math.Abs(y) > maxCoord {
			return nil, opError(pointer, "moving by (%s, %s) takes %q to (%s, %s), beyond ±1e6",
				fmtNum(dx), fmtNum(dy), scene.StringOf(el, "id"), fmtNum(x), fmtNum(y))
		}
	}
	if dx == 0 && dy == 0 {
		return []Unbound{}, nil
	}
	// The arrows that move whole are out of the index while their shapes
	// move, so that followArrows leaves them to be moved after.
	for _, a := range whole {
		tx.byID.Delete(scene.StringOf(a, "id"))
	}
	for _, el := range moved {
		if !scene.IsLinear(scene.StringOf(el, "type")) {
			if err := tx.movePatch(el, scene.NumberOf(el, "x")+dx, scene.NumberOf(el, "y")+dy, pointer); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range whole {
		tx.byID.Set(scene.StringOf(a, "id"), a)
	}
	unbound := []Unbound{}
	for _, a := range whole {
		if err := tx.movePatch(a, scene.NumberOf(a, "x")+dx, scene.NumberOf(a, "y")+dy, pointer); err != nil {
			return nil, err
		}
		unbound = append(unbound, tx.unbindLeft(a, in)...)
	}
	if err := tx.rerouteFollowers(moved, whole); err != nil {
		return nil, err
	}
	return unbound, nil
}

// carryChildren moves the children of frame f, which an update moved by
// dx, dy, by as much, as move_elements moves a frame's: labels, arrows
// and elbow routes as move does. A child the same call places itself
// (an x or y of its own) is left to that patch. pointer locates the
// frame's x/y for an error.
func (tx *Txn) carryChildren(f *ojson.Object, dx, dy float64, pointer string) error {
	id := scene.StringOf(f, "id")
	var children []*ojson.Object
	for _, el := range tx.doc.Elements() {
		if el != nil && !scene.IsDeleted(el) && scene.StringOf(el, "frameId") == id {
			children = append(children, el)
		}
	}
	in := map[string]bool{id: true}
	var moved []*ojson.Object
	for _, el := range tx.block(children) {
		if eid := scene.StringOf(el, "id"); !tx.placed[eid] && el != f {
			moved = append(moved, el)
			in[eid] = true
		}
	}
	_, err := tx.shift(moved, in, dx, dy, pointer)
	return err
}

// rerouteFollowers routes again, around every shape, the elbow arrows
// bound to the moved elements that did not move whole (one end moved,
// the other stayed): following alone keeps their route, which may now
// cross the boxes or each other (build.Reroute). They are bumped, their
// labels laid out again, and their ids kept for Rerouted.
func (tx *Txn) rerouteFollowers(moved, whole []*ojson.Object) error {
	skip := map[*ojson.Object]bool{}
	for _, a := range whole {
		skip[a] = true
	}
	var arrows []*ojson.Object
	for _, el := range moved {
		for _, id := range boundArrowIDs(el) {
			a := tx.byID.Get(id)
			if a == nil || skip[a] || scene.IsDeleted(a) {
				continue
			}
			if e, _ := a.Bool("elbowed"); e {
				skip[a] = true
				arrows = append(arrows, a)
			}
		}
	}
	if len(arrows) == 0 {
		return nil
	}
	ids, err := build.Reroute(tx.doc.Elements(), arrows)
	if err != nil {
		return opError("", "%v", err)
	}
	for _, id := range ids {
		a := tx.byID.Get(id)
		tx.bump(a)
		if l := tx.labelOf(a); l != nil {
			layoutLabel(a, l)
			tx.bump(l)
		}
		tx.rerouted = append(tx.rerouted, id)
	}
	return nil
}

// Rerouted are the ids of the elbow arrows this Txn's moves routed again
// around the shapes, in order.
func (tx *Txn) Rerouted() []string { return slices.Clone(tx.rerouted) }

// wholeArrows are the live arrows and lines that move whole with the
// block: those in it, and arrows bound at both ends to elements in it
// (in: the block's ids). An arrow bound at one end only is left to
// followArrows, which moves that end and leaves the free one, as the
// editor does.
func (tx *Txn) wholeArrows(moved []*ojson.Object, in map[string]bool) []*ojson.Object {
	var out []*ojson.Object
	seen := map[*ojson.Object]bool{}
	add := func(a *ojson.Object) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, el := range moved {
		if scene.IsLinear(scene.StringOf(el, "type")) {
			add(el)
			continue
		}
		for _, id := range boundArrowIDs(el) {
			a := tx.byID.Get(id)
			if a == nil || scene.IsDeleted(a) || scene.StringOf(a, "type") != "arrow" {
				continue
			}
			if in[bindingTarget(a, "startBinding")] && in[bindingTarget(a, "endBinding")] {
				add(a)
			}
		}
	}
	return out
}

// boundArrowIDs lists the arrow entries of el's boundElements.
func boundArrowIDs(el *ojson.Object) []string {
	var ids []string
	list, _ := el.Array("boundElements")
	for _, entry := range list {
		if o, ok := entry.(*ojson.Object); ok && scene.StringOf(o, "type") == "arrow" {
			ids = append(ids, scene.StringOf(o, "id"))
		}
	}
	return ids
}

// unbindLeft unbinds the ends of a moved arrow whose elements did not
// move (in: the moved ids): the binding is cleared and the arrow leaves
// the element's boundElements.
func (tx *Txn) unbindLeft(a *ojson.Object, in map[string]bool) []Unbound {
	var out []Unbound
	for _, end := range []string{"start", "end"} {
		key := end + "Binding"
		tid := bindingTarget(a, key)
		if tid == "" || in[tid] {
			continue
		}
		a.Set(key, nil)
		tx.bump(a)
		if t := tx.byID.Get(tid); t != nil && dropBound(t, scene.StringOf(a, "id")) {
			tx.bump(t)
		}
		out = append(out, Unbound{Arrow: scene.StringOf(a, "id"), End: end, Target: tid})
	}
	return out
}
