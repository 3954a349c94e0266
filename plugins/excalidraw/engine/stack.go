package engine

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// StackKind is the tag kind of a stack's items (slot "item").
const StackKind = "stack"

// Stack is a column or a row of items kept gap apart (create_stack).
// Every item's elements carry it in their tag, so that a copy of an item
// joins the stack and the keeper needs nothing else.
type Stack struct {
	ID string
	// Direction is "column" (items top to bottom) or "row" (left to
	// right).
	Direction string
	// Align is where items sit across the axis: "start" (left edges of
	// a column, tops of a row), "center" or "end".
	Align string
	Gap   float64
	// Start is where the first item begins along the axis (a column's
	// top, a row's left); Line is the cross line Align puts the items on
	// (a column's left edge, centre line or right edge).
	Start, Line float64
}

// stackItem is one item of a stack: the elements that move together (a
// container with its label, a frame with its children, a group's
// members) as named to a move.
type stackItem struct {
	ids []string
	box geom.Rect
}

func (s Stack) column() bool { return s.Direction != "row" }

// tag is the record each item's elements carry.
func (s Stack) tag() *ojson.Object {
	return ojson.New().Set("kind", StackKind).Set("id", s.ID).Set("slot", "item").
		Set("direction", s.Direction).Set("align", s.Align).Set("gap", s.Gap).Set("start", s.Start).Set("line", s.Line)
}

// boundArrow reports whether el is an arrow bound at either end.
func boundArrow(el *ojson.Object) bool {
	return scene.StringOf(el, "type") == "arrow" && (bindingTarget(el, "startBinding") != "" || bindingTarget(el, "endBinding") != "")
}

// stackOf reads a stack item's tag, or reports that el is no item.
func stackOf(el *ojson.Object) (Stack, bool) {
	rec, _ := tagOf(el, StackKind)
	if rec == nil || scene.StringOf(rec, "slot") != "item" || scene.StringOf(rec, "id") == "" {
		return Stack{}, false
	}
	return Stack{ID: scene.StringOf(rec, "id"), Direction: scene.StringOf(rec, "direction"), Align: scene.StringOf(rec, "align"),
		Gap: scene.NumberOf(rec, "gap"), Start: scene.NumberOf(rec, "start"), Line: scene.NumberOf(rec, "line")}, true
}

// itemKey is what makes el one item with others: its outermost group, or
// the element itself (a label stands for its container).
func (tx *Txn) itemKey(el *ojson.Object) (string, *ojson.Object) {
	h := tx.holderOf(el)
	if g := stringsOf(h, "groupIds"); len(g) > 0 {
		return "g:" + g[len(g)-1], h
	}
	return "e:" + scene.StringOf(h, "id"), h
}

// item is the item whose key is key, h one of its elements.
func (tx *Txn) item(key string, h *ojson.Object) stackItem {
	var els []*ojson.Object
	if g, ok := strings.CutPrefix(key, "g:"); ok {
		els = tx.groupMembers(g)
	} else {
		els = []*ojson.Object{h}
	}
	it := stackItem{}
	have := false
	for _, el := range els {
		it.ids = append(it.ids, scene.StringOf(el, "id"))
		b, ok := scene.ElementBounds(el)
		switch {
		case !ok:
		case !have:
			it.box, have = b, true
		default:
			it.box = it.box.Union(b)
		}
	}
	return it
}

// StackItems resolves ids to a stack's items, in the order given and
// without repeats: a label is its container's item, a group member
// brings its whole (outermost) group, and an arrow bound to a shape is
// no item (it follows the shapes it joins). pointer locates the ids.
func (tx *Txn) StackItems(ids []string, pointer string) ([][]string, error) {
	var out [][]string
	err := tx.do(func() error {
		named, err := tx.selection(ids, pointer, "stack")
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, el := range named {
			if boundArrow(el) {
				continue // it follows the shapes it joins
			}
			key, h := tx.itemKey(el)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, tx.item(key, h).ids)
		}
		return nil
	})
	return out, err
}

// StackOf is the stack id as its items say it and its items' ids in their
// order now (along the axis); false when no live element is its item.
func (tx *Txn) StackOf(id string) (Stack, [][]string, bool) {
	tx.index()
	st, ok := tx.stacks()[id]
	if !ok {
		return Stack{}, nil, false
	}
	var out [][]string
	for _, it := range st.items {
		out = append(out, it.ids)
	}
	return st.spec, out, true
}

// SetStack makes items (each the ids of one item, as StackItems gives
// them) the stack st, in that order: every item's elements are tagged
// with st (replacing any other stack's tag) and laid out gap apart from
// st's start on its line. It returns the ids it moved.
func (tx *Txn) SetStack(st Stack, items [][]string, pointer string) ([]string, error) {
	var moved []string
	err := tx.do(func() error {
		tx.index()
		tag := st.tag()
		var list []stackItem
		for _, ids := range items {
			for _, id := range ids {
				el := tx.byID.Get(id)
				if el == nil || scene.IsDeleted(el) || scene.StringOf(el, "containerId") != "" && scene.StringOf(el, "type") == "text" {
					continue
				}
				if err := tx.Tag(id, StackKind, tag.Clone(), pointer); err != nil {
					return err
				}
			}
			key, h := tx.itemKey(tx.byID.Get(ids[0]))
			list = append(list, tx.item(key, h))
		}
		var err error
		moved, err = tx.layStack(st, list)
		return err
	})
	return moved, err
}

// StackAnchor is st with Start and Line filled: from at, the top-left of
// the laid-out stack's box, or else from the first item where it is (it
// does not move).
func (tx *Txn) StackAnchor(st Stack, items [][]string, at *Point) Stack {
	tx.index()
	var boxes []geom.Rect
	for _, ids := range items {
		key, h := tx.itemKey(tx.byID.Get(ids[0]))
		boxes = append(boxes, tx.item(key, h).box)
	}
	if len(boxes) == 0 {
		return st
	}
	cross := func(b geom.Rect) (float64, float64) { // min and max across the axis
		if st.column() {
			return b.MinX, b.MaxX
		}
		return b.MinY, b.MaxY
	}
	var lo, hi float64
	if at != nil {
		if st.column() {
			st.Start, lo = at.Y, at.X
		} else {
			st.Start, lo = at.X, at.Y
		}
		widest := 0.0
		for _, b := range boxes {
			a, z := cross(b)
			widest = max(widest, z-a)
		}
		hi = lo + widest
	} else {
		if st.column() {
			st.Start = boxes[0].MinY
		} else {
			st.Start = boxes[0].MinX
		}
		lo, hi = cross(boxes[0])
	}
	switch st.Align {
	case "center":
		st.Line = math.Round((lo + hi) / 2)
	case "end":
		st.Line = math.Round(hi)
	default:
		st.Line = math.Round(lo)
	}
	st.Start = math.Round(st.Start)
	return st
}

// stackState is one stack found in the document: its spec (from its
// first item in scene order) and its items in scene order.
type stackState struct {
	spec  Stack
	items []stackItem
}

// stacks finds every stack the live elements' tags name.
func (tx *Txn) stacks() map[string]*stackState {
	out := map[string]*stackState{}
	seen := map[string]bool{}
	for _, el := range tx.doc.Elements() {
		if el == nil || scene.IsDeleted(el) {
			continue
		}
		st, ok := stackOf(el)
		if !ok {
			continue
		}
		key, h := tx.itemKey(el)
		if seen[st.ID+"\x00"+key] {
			continue
		}
		seen[st.ID+"\x00"+key] = true
		s := out[st.ID]
		if s == nil {
			s = &stackState{spec: st}
			out[st.ID] = s
		}
		s.items = append(s.items, tx.item(key, h))
	}
	for _, s := range out {
		col := s.spec.column()
		sort.SliceStable(s.items, func(i, j int) bool {
			if col {
				return s.items[i].box.MinY < s.items[j].box.MinY
			}
			return s.items[i].box.MinX < s.items[j].box.MinX
		})
	}
	return out
}

// stackEpsilon is how far an item may be off its place and count as in
// it: floating-point sums, not a person's drag.
const stackEpsilon = 0.01

// layStack moves the items, in order, to their places: each one gap
// after the one before along the axis, on the line across it. It returns
// the ids of the items it moved.
func (tx *Txn) layStack(st Stack, items []stackItem) ([]string, error) {
	var moved []string
	pos := st.Start
	for _, it := range items {
		b := it.box
		lo, hi, along, size := b.MinX, b.MaxX, b.MinY, b.MaxY-b.MinY
		if !st.column() {
			lo, hi, along, size = b.MinY, b.MaxY, b.MinX, b.MaxX-b.MinX
		}
		var across float64
		switch st.Align {
		case "center":
			across = st.Line - (lo+hi)/2
		case "end":
			across = st.Line - hi
		default:
			across = st.Line - lo
		}
		d := pos - along
		pos += size + st.Gap
		if math.Abs(d) < stackEpsilon && math.Abs(across) < stackEpsilon {
			continue
		}
		dx, dy := across, d
		if !st.column() {
			dx, dy = d, across
		}
		if _, err := tx.move(it.ids, "", func([]*ojson.Object) (float64, float64) { return dx, dy }); err != nil {
			return nil, err
		}
		moved = append(moved, it.ids...)
	}
	return moved, nil
}

// keepStacks is the stacks' keeper: every stack is laid out again in the
// order its items are in now along its axis (a person who drags an item
// above another reorders them), so a grown, shrunk, added or deleted item
// leaves the gaps as they were; an item dragged clear off to the side
// leaves the stack (leave). A kept stack is left alone.
func keepStacks(tx *Txn) ([]string, error) {
	if len(tx.doc.Matching(liveStackItemKey{}, isLiveStackItem)) == 0 {
		return nil, nil // no stack: nothing to index
	}
	tx.index()
	all := tx.stacks()
	ids := make([]string, 0, len(all))
	for id := range all {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []string
	for _, id := range ids {
		s := all[id]
		items, err := tx.leave(s)
		if err != nil {
			return nil, err
		}
		moved, err := tx.layStack(s.spec, items)
		if err != nil {
			return nil, err
		}
		out = append(out, moved...)
	}
	return out, nil
}

// leave takes out of stack s the items dragged off it sideways: those
// whose extent across the axis neither reaches the stack's line nor meets
// an item that does (a column's item dragged clear to the right). Their
// tags go; the items that stay are returned. An item resized so that it
// no longer reaches the line, but still beside the others, stays.
func (tx *Txn) leave(s *stackState) ([]stackItem, error) {
	across := func(b geom.Rect) (float64, float64) {
		if s.spec.column() {
			return b.MinX, b.MaxX
		}
		return b.MinY, b.MaxY
	}
	onLine := func(it stackItem) bool {
		lo, hi := across(it.box)
		return lo <= s.spec.Line+stackEpsilon && hi >= s.spec.Line-stackEpsilon
	}
	var band []stackItem
	for _, it := range s.items {
		if onLine(it) {
			band = append(band, it)
		}
	}
	if len(band) == 0 {
		return s.items, nil // nothing is in place to tell off from on
	}
	var stay []stackItem
	for _, it := range s.items {
		lo, hi := across(it.box)
		meets := onLine(it) || slices.ContainsFunc(band, func(o stackItem) bool {
			olo, ohi := across(o.box)
			return lo <= ohi && hi >= olo
		})
		if meets {
			stay = append(stay, it)
			continue
		}
		for _, id := range it.ids {
			if el := tx.byID.Get(id); el != nil {
				if st, ok := stackOf(el); ok && st.ID == s.spec.ID {
					if err := tx.Tag(id, StackKind, nil, ""); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	return stay, nil
}

func init() { registerKeeper(20, "stack", keepStacks) }

// liveStackItemKey keys the positions of a document's live stack items
// (scene.Document.Matching): kept with a sealed document, so that a write
// to a board without stacks does not read every element to learn it.
type liveStackItemKey struct{}

func isLiveStackItem(el *ojson.Object) bool {
	_, ok := stackOf(el)
	return ok && !scene.IsDeleted(el)
}
