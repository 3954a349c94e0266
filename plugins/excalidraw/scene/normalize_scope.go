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

// scope computes the candidates of a scoped run, after restoreElements;
// a dirty id that collides with another element's turns the run into a
// full one (claimID over every element, in order).
func (n *normalizer) scope(d *Document) {
	if !n.scoped {
		return
	}
	seen := make(map[string]int, len(n.els))
	collide := false
	for i, el := range n.els {
		if !n.visible[i] {
			continue
		}
		id, ok := el.String("id")
		if !ok {
			continue
		}
		if _, dup := seen[id]; dup {
			collide = true
			break
		}
		seen[id] = i
	}
	if collide {
		n.scoped = false
		claimed := make(map[string]bool, len(n.els))
		for i, el := range n.els {
			if n.visible[i] {
				n.claimID(elemFix{n: n, i: i, el: el}, claimed)
			}
		}
		return
	}
	n.byID = seen
	n.cand = d.related(n.dirty, seen)
}

// related returns, sorted, the dirty positions of a fork and those of
// the elements related to them (see above), found through byID.
func (d *Document) related(dirty []int, byID map[string]int) []int {
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
				if j, ok := byID[id]; ok {
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
