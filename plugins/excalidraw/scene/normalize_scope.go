package scene

import (
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A scoped run of Normalize, on a fork (fork.go), repairs what elements
// share only around what changed. A sealed base was a fixed point of
// Normalize, and its elements still in place are unchanged, so:
//
//   - ids can collide only with a dirty element's;
//   - indices can be out of order only next to a dirty element;
//   - a reference can break only between elements one of which is dirty:
//     a dirty element's references (as it is now, and as the base had
//     it), the elements naming it (which, the base being consistent, it
//     named back: boundElements, containerId and bindings are kept in
//     pairs), and the children of a dirty frame (frameId is one-sided).
//
// The candidates are those elements; the binding passes visit only them,
// and a repair that reaches a shared element beyond them is a write to a
// frozen object, which the caller retries (fork.go).

// visit returns the positions the binding passes visit.
func (n *normalizer) visit() []int {
	if n.scoped {
		return n.cand
	}
	if n.all == nil {
		n.all = make([]int, len(n.els))
		for i := range n.all {
			n.all[i] = i
		}
	}
	return n.all
}

// sealedVisible sets n.visible[i] from the sealed record of a shared
// element still at its position, in a scoped run; false when there is
// none (the element is read instead).
func (n *normalizer) sealedVisible(i int, el *ojson.Object) bool {
	if !n.scoped || n.doc == nil {
		return false
	}
	in, ok := n.doc.sealedInfo(i, el)
	if !ok {
		return false
	}
	n.visible[i] = in.visible
	return true
}

// scope computes the candidates of a scoped run, after restoreElements,
// and the id index the binding passes use: only the ids the candidates
// are and name (the passes look up nothing else). A dirty id that
// collides with another element's turns the run into a full one
// (claimID over every element, in order).
func (n *normalizer) scope(d *Document) {
	if !n.scoped {
		return
	}
	visible := func(i int) bool { return n.visible[i] }
	lookup, dupes := d.forkIndex(n.dirty, visible)
	if len(dupes) > 0 {
		n.scoped = false
		claimed := make(map[string]bool, len(n.els))
		for i, el := range n.els {
			if n.visible[i] {
				n.claimID(elemFix{n: n, i: i, el: el}, claimed)
			}
		}
		return
	}
	n.cand = d.related(n.dirty, lookup)
	n.byID = d.scopedIDs(n.cand, lookup, visible)
}

// related returns, sorted, the dirty positions of a fork and those of
// the elements related to them (see above), found through lookup.
func (d *Document) related(dirty []int, lookup func(id string) (int, bool)) []int {
	in := make(map[int]bool, 4*len(dirty))
	var out []int
	add := func(i int) {
		if !in[i] {
			in[i] = true
			out = append(out, i)
		}
	}
	var frames []string
	for _, i := range dirty {
		add(i)
		for _, el := range []*ojson.Object{d.elements[i], d.sealedAt(i)} {
			if el == nil {
				continue
			}
			for _, id := range appendRefs(nil, el) {
				if j, ok := lookup(id); ok {
					add(j)
				}
			}
			if isFrame(elementType(el)) {
				if id, ok := el.String("id"); ok {
					frames = append(frames, id)
				}
			}
		}
	}
	if len(frames) > 0 {
		for i, el := range d.elements {
			if f, ok := el.String("frameId"); ok && slices.Contains(frames, f) {
				add(i)
			}
		}
	}
	slices.Sort(out)
	return out
}

// indicesInOrder reports whether every dirty element's index is a
// well-formed key between its neighbours' (the shared elements' keys
// being in order already): syncIndices would then change nothing.
func (n *normalizer) indicesInOrder() bool {
	key := func(i int) (string, bool) {
		k, ok := n.els[i].String("index")
		return k, ok && findex.Validate(k) == nil
	}
	for _, i := range n.dirty {
		k, ok := key(i)
		if !ok {
			return false
		}
		if i > 0 {
			if p, ok := key(i - 1); !ok || p >= k {
				return false
			}
		}
		if i+1 < len(n.els) {
			if q, ok := key(i + 1); !ok || k >= q {
				return false
			}
		}
	}
	return true
}
