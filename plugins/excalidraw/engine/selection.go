package engine

import (
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// This file holds what the element-level edits (Move, Copy, ReplaceText,
// Create's placement) share: naming elements by id, the blocks a
// selection drags along (labels, frame children), fresh ids and indices.

// selection indexes the scene and resolves the ids an edit names (see
// named), refusing an empty list: verb says what the edit does with them.
func (tx *Txn) selection(ids []string, pointer, verb string) ([]*ojson.Object, error) {
	tx.index()
	named, err := tx.named(ids, pointer)
	if err == nil && len(named) == 0 {
		err = opError(pointer, "name at least one element to %s", verb)
	}
	return named, err
}

// named resolves ids to live elements, in the order given and without
// repeats. pointer locates the ids array in the caller's request: an id
// that names no live element is not_found at pointer/<i>.
func (tx *Txn) named(ids []string, pointer string) ([]*ojson.Object, error) {
	out := make([]*ojson.Object, 0, len(ids))
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		el := tx.byID.Get(id)
		at := pointer + "/" + strconv.Itoa(i)
		if el == nil {
			return nil, sceneerr.New(sceneerr.NotFound, "no element with id %q", id).With("pointer", at).With("id", id)
		}
		if scene.IsDeleted(el) {
			return nil, sceneerr.New(sceneerr.NotFound, "element %q is deleted", id).With("pointer", at).With("id", id)
		}
		out = append(out, el)
	}
	return out, nil
}

// holderOf is the element that stands for el in a selection: a label's
// live container (a label goes where its container goes, as in the
// editor, where selecting a label selects its container), el otherwise.
func (tx *Txn) holderOf(el *ojson.Object) *ojson.Object {
	if scene.StringOf(el, "type") != "text" {
		return el
	}
	if c := tx.byID.Get(scene.StringOf(el, "containerId")); c != nil && !scene.IsDeleted(c) {
		return c
	}
	return el
}

// block is the selection els stand for, in scene order, without repeats:
// labels replaced by their containers, frames with their children (and
// those children's containers). Labels themselves are not listed; each
// edit carries or copies them with their containers.
func (tx *Txn) block(els []*ojson.Object) []*ojson.Object {
	in := map[*ojson.Object]bool{}
	frames := map[string]bool{}
	for _, el := range els {
		h := tx.holderOf(el)
		in[h] = true
		if isFrameType(scene.StringOf(h, "type")) {
			frames[scene.StringOf(h, "id")] = true
		}
	}
	var out []*ojson.Object
	for _, el := range tx.doc.Elements() {
		if len(frames) == 0 {
			break // no frame among them: no children to add
		}
		if el == nil || scene.IsDeleted(el) {
			continue
		}
		if frames[scene.StringOf(el, "frameId")] {
			in[tx.holderOf(el)] = true
		}
	}
	for _, el := range tx.doc.Elements() {
		if el != nil && in[el] {
			out = append(out, el)
			in[el] = false // listed once, even under a repeated id
		}
	}
	return out
}

func isFrameType(t string) bool { return t == "frame" || t == "magicframe" }

// lastIndex is the greatest valid fractional index in the scene, after
// which new elements go (as the builder places them).
func (tx *Txn) lastIndex() string {
	last := ""
	for _, el := range tx.doc.Elements() {
		if el == nil {
			continue
		}
		if k, ok := el.String("index"); ok && k > last && findex.Validate(k) == nil {
			last = k
		}
	}
	return last
}

// idAlphabet is nanoid's URL-safe alphabet, from which Excalidraw (and the
// builder) draw 21-character element ids.
const idAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"

// freshID draws an id from the Txn's random source that taken does not
// hold, and records it there.
func (tx *Txn) freshID(taken map[string]bool) string {
	for {
		b := make([]byte, 21)
		for i := range b {
			b[i] = idAlphabet[tx.cfg.Rand.IntN(len(idAlphabet))]
		}
		if id := string(b); !taken[id] {
			taken[id] = true
			return id
		}
	}
}

// takenIDs are the ids of every element of the scene, tombstones
// included (a tombstone's id stays reserved).
func (tx *Txn) takenIDs() map[string]bool {
	taken := make(map[string]bool, len(tx.doc.Elements()))
	for _, el := range tx.doc.Elements() {
		if el != nil {
			taken[scene.StringOf(el, "id")] = true
		}
	}
	return taken
}

// movePatch moves el to x, y through the update path (update), so that
// its label comes along and the arrows bound to it follow, and it is
// bumped once; a frame moves alone (its mover moves its children). ptr
// locates the request's mention of el for an error.
func (tx *Txn) movePatch(el *ojson.Object, x, y float64, ptr string) error {
	return tx.update(Op{kind: opUpdate, id: scene.StringOf(el, "id"), patch: ojson.New().Set("x", x).Set("y", y), pointer: ptr, alone: true})
}
