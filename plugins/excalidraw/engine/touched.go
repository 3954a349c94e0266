package engine

import "github.com/dshgo/dsh/plugins/excalidraw/scene"

// Touched lists, in scene order, the ids of every element the Txn has
// changed so far: created (by Add, Apply, Create, Copy, Paste), updated,
// moved, re-bound, re-laid out or deleted, whether an operation named it
// or it changed along (a label, a bound arrow, a target that gained or
// lost a binding). Each of them took exactly one version step in this
// Txn; an element an edit left as it was is not listed.
func (tx *Txn) Touched() []string {
	ids := []string{}
	for _, el := range tx.doc.Elements() {
		if el != nil && tx.bumped[el] {
			ids = append(ids, scene.StringOf(el, "id"))
		}
	}
	return ids
}
