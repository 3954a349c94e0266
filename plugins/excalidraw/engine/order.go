package engine

import (
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Where Reorder moves elements (its to).
const (
	ToFront    = "front"
	ToBack     = "back"
	ToForward  = "forward"
	ToBackward = "backward"
	ToBefore   = "before"
	ToAfter    = "after"
)

var reorderTargets = []string{ToFront, ToBack, ToForward, ToBackward, ToBefore, ToAfter}

// Reorder moves the elements ids name in z-order, as Excalidraw's
// layer actions do, keeping their relative order:
//
//   - front and back: to the top or the bottom of the drawing; an
//     element of a frame that is not moved with it goes to the top or
//     the bottom of its frame's elements instead, and never below the
//     frame (a frame is drawn under its children);
//   - forward and backward: one step past the next element above or
//     below, where a group (its outermost one), a frame with its
//     children, and a container with its label each count as one step;
//     elements of a frame that does not move step within it;
//   - before and after: directly below or above relativeTo (a label
//     stands for its container; after a container is above its label).
//
// What moves is what the editor moves with a selection: a label goes
// with its container (a named label moves its container), a frame takes
// its children; the labels of moved containers land directly above
// them, as Excalidraw keeps a bound text. Only moved elements take new
// fractional indices, between their new neighbours' (syncMovedIndices),
// and a moved element keeps its index where it still fits there; the
// array order is the index order afterwards. Moving to where the
// elements already are changes nothing.
//
// pointer locates the call's arguments in the caller's request: an
// unknown or deleted id is not_found at pointer/ids/<i> (relativeTo at
// pointer/relativeTo); a bad to is invalid_operation at pointer/to, and
// before/after without a relativeTo, or relative to a moved element or
// below the frame of a moved child, at pointer/relativeTo.
func (tx *Txn) Reorder(ids []string, to, relativeTo, pointer string) error {
	return tx.do(func() error { return tx.reorder(ids, to, relativeTo, pointer) })
}

func (tx *Txn) reorder(ids []string, to, relativeTo, pointer string) error {
	relative := to == ToBefore || to == ToAfter
	switch {
	case !slices.Contains(reorderTargets, to):
		return opError(pointer+"/to", "to must be one of %s", listOf(reorderTargets))
	case relative && relativeTo == "":
		return opError(pointer+"/relative_to", "%s needs relative_to: the id of the element to go %s", to, to)
	case !relative && relativeTo != "":
		return opError(pointer+"/relative_to", "relative_to applies only to before and after")
	}
	named, err := tx.selection(ids, pointer+"/ids", "reorder")
	if err != nil {
		return err
	}
	moved := tx.withLabels(tx.block(named))
	in := setOf(moved)
	order := slices.Clone(tx.doc.Elements())
	switch to {
	case ToFront, ToBack:
		order = tx.toEnd(order, in, to == ToFront)
	case ToForward, ToBackward:
		order = tx.step(order, in, to == ToForward)
	default:
		rel, err := tx.liveAt(relativeTo, pointer+"/relative_to")
		if err != nil {
			return err
		}
		anchor := tx.holderOf(rel)
		if in[anchor] {
			return opError(pointer+"/relative_to", "%q is among the elements moved", relativeTo)
		}
		order = tx.insertAt(order, in, anchor, to == ToAfter)
		if id, frame := tx.belowFrame(order, in); id != "" {
			return opError(pointer+"/relative_to", "%s %q would put %q below its frame %q, which is drawn under its children",
				to, relativeTo, id, frame)
		}
	}
	for _, el := range named {
		tx.note(scene.StringOf(el, "id"))
	}
	tx.result.Updated += len(named)
	tx.setOrder(order, in)
	return nil
}

// liveAt returns the live element with the id, or not_found at ptr.
func (tx *Txn) liveAt(id, ptr string) (*ojson.Object, error) {
	el := tx.byID.Get(id)
	if el == nil || scene.IsDeleted(el) {
		return nil, sceneerr.New(sceneerr.NotFound, "no live element with id %q", id).With("pointer", ptr).With("id", id)
	}
	return el, nil
}

// withLabels is els with each container's live label after it.
func (tx *Txn) withLabels(els []*ojson.Object) []*ojson.Object {
	out := make([]*ojson.Object, 0, len(els))
	for _, el := range els {
		out = append(out, el)
		if l := tx.labelOf(el); l != nil {
			out = append(out, l)
		}
	}
	return out
}

func setOf(els []*ojson.Object) map[*ojson.Object]bool {
	in := make(map[*ojson.Object]bool, len(els))
	for _, el := range els {
		in[el] = true
	}
	return in
}

// liveFrameOf is the id of the live frame el belongs to, "" for none (a
// frameId naming no live frame does not hold el).
func (tx *Txn) liveFrameOf(el *ojson.Object) string {
	id := scene.StringOf(el, "frameId")
	if f := tx.byID.Get(id); id != "" && f != nil && !scene.IsDeleted(f) && isFrameType(scene.StringOf(f, "type")) {
		return id
	}
	return ""
}

// framed splits the moved elements in as Excalidraw's layer actions do:
// those that move on their own (frames, their children, elements of no
// frame) and, per frame that does not move, its moved children, which
// move among that frame's elements only.
func (tx *Txn) framed(order []*ojson.Object, in map[*ojson.Object]bool) (free map[*ojson.Object]bool, byFrame map[string]map[*ojson.Object]bool, frames []string) {
	free = map[*ojson.Object]bool{}
	byFrame = map[string]map[*ojson.Object]bool{}
	for _, el := range order {
		if el == nil || !in[el] {
			continue
		}
		f := tx.liveFrameOf(el)
		if f == "" || in[tx.byID.Get(f)] {
			free[el] = true
			continue
		}
		if byFrame[f] == nil {
			byFrame[f] = map[*ojson.Object]bool{}
			frames = append(frames, f)
		}
		byFrame[f][el] = true
	}
	return free, byFrame, frames
}

// toEnd moves the elements of in to the top (front) or the bottom of
// the drawing, children of frames that stay to the top or bottom of
// their frame's elements, just above the frame at the lowest.
func (tx *Txn) toEnd(order []*ojson.Object, in map[*ojson.Object]bool, front bool) []*ojson.Object {
	free, byFrame, frames := tx.framed(order, in)
	for _, f := range frames {
		lo, hi := tx.frameRange(order, f)
		if order[lo] == tx.byID.Get(f) {
			lo++
		}
		order = shiftToEnd(order, byFrame[f], lo, hi, front)
	}
	return shiftToEnd(order, free, 0, len(order)-1, front)
}

// frameRange is the span of order from the first to the last element of
// frame f (the frame included).
func (tx *Txn) frameRange(order []*ojson.Object, f string) (int, int) {
	lo, hi := -1, -1
	for i, el := range order {
		if el != nil && (scene.StringOf(el, "id") == f || scene.StringOf(el, "frameId") == f) {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	return lo, hi
}

// shiftToEnd moves the elements of in, keeping their order, to the top
// (front) or the bottom of the span lo..hi of order, which it widens to
// take them all in.
func shiftToEnd(order []*ojson.Object, in map[*ojson.Object]bool, lo, hi int, front bool) []*ojson.Object {
	first, last := -1, -1
	for i, el := range order {
		if in[el] {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return order
	}
	lo, hi = min(lo, first), max(hi, last)
	picked, rest := pick(order[lo:hi+1], in)
	span := slices.Concat(picked, rest)
	if front {
		span = slices.Concat(rest, picked)
	}
	out := slices.Clone(order)
	copy(out[lo:], span)
	return out
}

// step moves each run of adjacent moved elements one step up (forward)
// or down, past the next live element and what it stands for (stepOver):
// first the children of each frame that does not move, within it, then
// the rest.
func (tx *Txn) step(order []*ojson.Object, in map[*ojson.Object]bool, forward bool) []*ojson.Object {
	free, byFrame, frames := tx.framed(order, in)
	for _, f := range frames {
		order = tx.stepSet(order, in, byFrame[f], f, forward)
	}
	return tx.stepSet(order, in, free, "", forward)
}

// stepSet steps the runs of adjacent elements of set (the moved
// elements in), topmost first when stepping up, within frame within
// when it is set.
func (tx *Txn) stepSet(order []*ojson.Object, in, set map[*ojson.Object]bool, within string, forward bool) []*ojson.Object {
	var runs [][]*ojson.Object
	for _, r := range spans(len(order), func(i int) bool { return set[order[i]] }) {
		runs = append(runs, slices.Clone(order[r[0]:r[1]]))
	}
	if forward {
		slices.Reverse(runs)
	}
	for _, run := range runs {
		order = tx.stepRun(order, in, run, within, forward)
	}
	return order
}

// pick splits els into those in in and the rest, each in order.
func pick(els []*ojson.Object, in map[*ojson.Object]bool) (picked, rest []*ojson.Object) {
	for _, el := range els {
		if in[el] {
			picked = append(picked, el)
		} else {
			rest = append(rest, el)
		}
	}
	return picked, rest
}

// stepRun moves run (adjacent in order) past the next live element not
// moved, above it (forward) or below, in frame within when within is
// set.
func (tx *Txn) stepRun(order []*ojson.Object, in map[*ojson.Object]bool, run []*ojson.Object, within string, forward bool) []*ojson.Object {
	lead := slices.Index(order, run[0])
	trail := lead + len(run) - 1
	next := -1
	for i := lead - 1; !forward && i >= 0; i-- {
		if tx.stepCandidate(order[i], in, within) {
			next = i
			break
		}
	}
	for i := trail + 1; forward && i < len(order); i++ {
		if tx.stepCandidate(order[i], in, within) {
			next = i
			break
		}
	}
	if next < 0 {
		return order
	}
	target := tx.stepOver(order, in, next, within, forward, lead, trail)
	var out []*ojson.Object
	if forward {
		out = append(out, order[:lead]...)
		out = append(out, order[trail+1:target+1]...)
		out = append(out, run...)
		return append(out, order[target+1:]...)
	}
	out = append(out, order[:target]...)
	out = append(out, run...)
	out = append(out, order[target:lead]...)
	return append(out, order[trail+1:]...)
}

func (tx *Txn) stepCandidate(el *ojson.Object, in map[*ojson.Object]bool, within string) bool {
	return el != nil && !in[el] && !scene.IsDeleted(el) && (within == "" || scene.StringOf(el, "frameId") == within)
}

// stepOver is the far end of what the element at next stands for when a
// run steps past it: outside frames, its frame's whole span (or the
// frame's with its children); its outermost group; a container with its
// label. Only elements on next's side of the run (before lead or after
// trail) count.
func (tx *Txn) stepOver(order []*ojson.Object, in map[*ojson.Object]bool, next int, within string, forward bool, lead, trail int) int {
	el := order[next]
	belongs := func(o *ojson.Object) bool { return o == el }
	switch groups := stringsOf(el, "groupIds"); {
	case within == "" && (tx.liveFrameOf(el) != "" || isFrameType(scene.StringOf(el, "type"))):
		f := tx.liveFrameOf(el)
		if f == "" {
			f = scene.StringOf(el, "id")
		}
		belongs = func(o *ojson.Object) bool { return scene.StringOf(o, "id") == f || scene.StringOf(o, "frameId") == f }
	case len(groups) > 0:
		g := groups[len(groups)-1]
		belongs = func(o *ojson.Object) bool { return slices.Contains(stringsOf(o, "groupIds"), g) }
	default:
		h := tx.holderOf(el)
		l := tx.labelOf(h)
		belongs = func(o *ojson.Object) bool { return o == h || (l != nil && o == l) }
	}
	// The span stops short of the next moved element, so that moved
	// elements keep their order.
	lo, hi := -1, len(order)
	for i, o := range order {
		if in[o] && i > trail && hi == len(order) {
			hi = i
		}
		if in[o] && i < lead {
			lo = i
		}
	}
	far := next
	for i, o := range order {
		if o == nil || in[o] || !belongs(o) || (forward && (i <= trail || i >= hi)) || (!forward && (i >= lead || i <= lo)) {
			continue
		}
		if forward {
			far = max(far, i)
		} else {
			far = min(far, i)
		}
	}
	return far
}

// stringsOf reads an array of strings (other entries skipped).
func stringsOf(el *ojson.Object, k string) []string {
	list, _ := el.Array(k)
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// insertAt takes the elements of in out of order and puts them, in
// their order, directly below anchor, or directly above it (after) and
// its label.
func (tx *Txn) insertAt(order []*ojson.Object, in map[*ojson.Object]bool, anchor *ojson.Object, after bool) []*ojson.Object {
	picked, rest := pick(order, in)
	at := slices.Index(rest, anchor)
	if after {
		at++
		if l := tx.labelOf(anchor); l != nil {
			at = max(at, slices.Index(rest, l)+1)
		}
	}
	return slices.Concat(rest[:at], picked, rest[at:])
}

// belowFrame names a moved element that order puts below the live frame
// it belongs to (a frame that does not move), and that frame.
func (tx *Txn) belowFrame(order []*ojson.Object, in map[*ojson.Object]bool) (string, string) {
	pos := make(map[*ojson.Object]int, len(order))
	for i, el := range order {
		pos[el] = i
	}
	for _, el := range order {
		if !in[el] {
			continue
		}
		if f := tx.liveFrameOf(el); f != "" && !in[tx.byID.Get(f)] && pos[el] < pos[tx.byID.Get(f)] {
			return scene.StringOf(el, "id"), f
		}
	}
	return "", ""
}

// setOrder makes order (a permutation of the document's elements) the
// document's, moved being the elements the edit meant to move: each
// moved label is put directly above its container when that moved too,
// then fractional indices are given as Excalidraw's syncMovedIndices
// gives them (see orderKeys). Every element whose index changes is
// bumped; an order that is the current one changes nothing.
func (tx *Txn) setOrder(order []*ojson.Object, moved map[*ojson.Object]bool) {
	order = tx.labelsAbove(order, moved)
	var live []*ojson.Object
	var keys []string
	var fixed []bool
	for _, el := range order {
		if el == nil {
			continue
		}
		live = append(live, el)
		keys = append(keys, scene.StringOf(el, "index"))
		fixed = append(fixed, !moved[el])
	}
	next := orderKeys(keys, fixed)
	for i, el := range live {
		if next[i] != keys[i] || !el.Has("index") {
			el.Set("index", next[i])
			tx.bump(el)
		}
	}
	tx.doc.SetElements(order)
}

// labelsAbove moves each moved label directly above its container when
// the container moved too.
func (tx *Txn) labelsAbove(order []*ojson.Object, moved map[*ojson.Object]bool) []*ojson.Object {
	for _, el := range slices.Clone(order) {
		if el == nil || !moved[el] {
			continue
		}
		l := tx.labelOf(el)
		if l == nil || !moved[l] {
			continue
		}
		order = slices.DeleteFunc(order, func(o *ojson.Object) bool { return o == l })
		at := slices.Index(order, el) + 1
		order = slices.Insert(order, at, l)
	}
	return order
}

// orderKeys gives the elements of an order their fractional indices:
// those fixed (not moved) keep theirs, and so do as many of the others
// as still fit between their neighbours (the longest increasing run of
// them); the rest get new keys between the kept ones around them. Where
// the fixed keys are themselves missing or out of order (a scene not yet
// normalized), only those that increase are kept; failing that, every
// key is made anew. The result always increases strictly.
func orderKeys(keys []string, fixed []bool) []string {
	if out, ok := fitKeys(keys, fixed); ok {
		return out
	}
	kept := make([]bool, len(keys))
	last := ""
	for i, k := range keys {
		if fixed[i] && findex.Validate(k) == nil && k > last {
			kept[i], last = true, k
		}
	}
	if out, ok := fitKeys(keys, kept); ok {
		return out
	}
	out, _ := findex.N("", "", len(keys))
	return out
}

// fitKeys keeps the fixed keys and, in each run of the others, the
// longest increasing run of keys between the run's fixed neighbours,
// and makes keys for the rest (see orderKeys); ok is false when the
// fixed keys do not allow strictly increasing keys.
func fitKeys(keys []string, fixed []bool) ([]string, bool) {
	keep := slices.Clone(fixed)
	for _, r := range spans(len(keys), func(i int) bool { return !fixed[i] }) {
		for _, k := range increasing(keys[r[0]:r[1]], keyAt(keys, r[0]-1), keyAt(keys, r[1])) {
			keep[r[0]+k] = true
		}
	}
	out := slices.Clone(keys)
	for _, r := range spans(len(out), func(i int) bool { return !keep[i] }) {
		gen, err := findex.N(keyAt(out, r[0]-1), keyAt(out, r[1]), r[1]-r[0])
		if err != nil {
			return nil, false
		}
		copy(out[r[0]:r[1]], gen)
	}
	return out, len(findex.CheckOrder(out)) == 0
}

// spans are the maximal runs [i, j) of the positions below n where in
// holds, in order.
func spans(n int, in func(int) bool) [][2]int {
	var out [][2]int
	for i := 0; i < n; {
		if !in(i) {
			i++
			continue
		}
		j := i
		for j < n && in(j) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

func keyAt(keys []string, i int) string {
	if i < 0 || i >= len(keys) {
		return ""
	}
	return keys[i]
}

// increasing is the positions of a longest strictly increasing
// subsequence of the valid keys strictly between lo and hi ("" for no
// bound), in order.
func increasing(keys []string, lo, hi string) []int {
	var tails []int // tails[l]: the position ending the best run of length l+1
	prev := make([]int, len(keys))
	for i, k := range keys {
		if findex.Validate(k) != nil || (lo != "" && k <= lo) || (hi != "" && k >= hi) {
			continue
		}
		l, _ := slices.BinarySearchFunc(tails, k, func(t int, k string) int { return strings.Compare(keys[t], k) })
		prev[i] = -1
		if l > 0 {
			prev[i] = tails[l-1]
		}
		if l == len(tails) {
			tails = append(tails, i)
		} else {
			tails[l] = i
		}
	}
	if len(tails) == 0 {
		return nil
	}
	out := make([]int, len(tails))
	for i, k := len(tails)-1, tails[len(tails)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = k
	}
	return out
}
