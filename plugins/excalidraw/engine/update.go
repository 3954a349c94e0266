package engine

import (
	"maps"
	"slices"

	"github.com/dshgo/dsh/internal/jsonpointer"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// patcher carries one update's state across its fields.
type patcher struct {
	el            *ojson.Object
	typ           string
	label         *ojson.Object // the live bound text of a container, if any
	textChanged   bool          // a text field changed the text element's text or typography
	pointsChanged bool          // an arrow's or line's points changed
	elbowChanged  bool          // an arrow became an elbow arrow, or stopped being one
}

// textStyleFields are the fields that, on a container, apply to its label.
var textStyleFields = map[string]bool{"text": true, "fontSize": true, "fontFamily": true, "textAlign": true, "verticalAlign": true}

// target is the element a field is written to: the label for text fields
// of a container, the element itself otherwise.
func (p *patcher) target(k string) *ojson.Object {
	if p.typ != "text" && p.label != nil && textStyleFields[k] {
		return p.label
	}
	return p.el
}

// update applies a patch of visual fields (see patchFields), then keeps
// in step what depends on what the patch changed, and only that:
//
//   - a changed text or font (text, fontSize, fontFamily, textAlign,
//     verticalAlign), a resized container or an arrow's new points lay
//     the text out again as the builder lays out new text (see relayout):
//     a label is re-wrapped to its container (which grows if the text no
//     longer fits) and placed in it, a fixed-width text is re-wrapped to
//     its width, an auto-resizing one keeps its alignment anchor;
//   - a container moved or rotated and nothing else takes its label along
//     (moved by as much, turned with it) without re-centring it, and a
//     patch that cannot change layout (colours, stroke and fill style,
//     opacity, link, lock...) leaves the label as it is, so labels the
//     editor placed stay where they are;
//   - an element whose outline changed (moved, resized, rotated,
//     re-cornered, a new stroke width, a container grown for its label)
//     re-attaches the arrows bound to it to its new outline (see
//     followArrows).
//
// An element the update leaves as it was keeps its version (see settle),
// so an update to current values changes nothing.
func (tx *Txn) update(op Op) error {
	el, err := tx.live(op)
	if err != nil {
		return err
	}
	p := &patcher{el: el, typ: scene.StringOf(el, "type"), label: tx.labelOf(el)}
	var container *ojson.Object
	if p.typ == "text" {
		container = tx.byID.Get(scene.StringOf(el, "containerId"))
	}
	defer tx.settle(tx.snapshot(el, p.label, container))
	was := el.Clone()
	var containerWas *ojson.Object
	if container != nil {
		containerWas = container.Clone()
	}
	for _, k := range op.patch.Keys() {
		ptr := op.pointer + "/patch/" + jsonpointer.Escape(k)
		v, _ := op.patch.Get(k)
		if k == "label" {
			if err := tx.patchLabel(p, v, ptr); err != nil {
				return err
			}
			continue
		}
		f := patchFields[k]
		if f == nil {
			return opError(ptr, "%q cannot be patched; allowed: %s", k, listOf(patchKeys()))
		}
		if msg := f(p, v); msg != "" {
			return opError(ptr, "%s", msg)
		}
	}
	tx.bump(el)
	if p.elbowChanged {
		if err := tx.elbow(el); err != nil {
			return err
		}
		p.pointsChanged = true
	}
	tx.relayout(p, was)
	tx.follow(was, el)
	if container != nil {
		tx.follow(containerWas, container)
	}
	if isFrameType(p.typ) && !op.alone {
		dx, dy := scene.NumberOf(el, "x")-scene.NumberOf(was, "x"), scene.NumberOf(el, "y")-scene.NumberOf(was, "y")
		if dx != 0 || dy != 0 {
			return tx.carryChildren(el, dx, dy, op.pointer+"/patch")
		}
	}
	return nil
}

// patchKeys are the members a patch may hold: patchFields' and "label"
// (patchLabel), sorted.
func patchKeys() []string {
	keys := append(slices.Collect(maps.Keys(patchFields)), "label")
	slices.Sort(keys)
	return keys
}

// versionFields are what bump sets.
var versionFields = []string{"version", "versionNonce", "updated"}

// snapshot is an element as it was before an update touched it, and
// whether it had been bumped already in this Txn.
type snapshot struct {
	el, was *ojson.Object
	bumped  bool
}

// snapshot records els (nil ones skipped) before an update. These are
// all an update can bump without moving anything: the element, its label
// and a label's container (arrows are bumped only when a shape moves,
// which is a change).
func (tx *Txn) snapshot(els ...*ojson.Object) []snapshot {
	out := make([]snapshot, 0, len(els))
	for _, el := range els {
		if el != nil {
			out = append(out, snapshot{el: el, was: el.Clone(), bumped: tx.bumped[el]})
		}
	}
	return out
}

// settle undoes the version step of each snapshotted element that is, but
// for that step, as it was: Excalidraw's mutateElement leaves an element
// whose values did not change alone, and so does Apply, so that an update
// to current values writes nothing. An element bumped by an earlier
// operation of the call keeps that bump.
func (tx *Txn) settle(snaps []snapshot) {
	for _, s := range snaps {
		now := s.el.Clone()
		for _, k := range versionFields {
			if v, ok := s.was.Get(k); ok {
				now.Set(k, v)
			} else {
				now.Delete(k)
			}
		}
		if !ojson.Equal(now, s.was, true) {
			continue
		}
		for _, k := range versionFields {
			if v, ok := s.was.Get(k); ok {
				s.el.Set(k, v)
			} else {
				s.el.Delete(k)
			}
		}
		if !s.bumped {
			delete(tx.bumped, s.el)
		}
	}
}

// relayout lays out again the text the patch affected (was is the
// element before the patch): a label whose text or font changed, in its
// container; a free text whose text or font changed; the label of a
// container that was resized or, for an arrow, given new points. The
// label of a container that was only moved, rotated or restyled is
// carried along instead (carryLabel).
func (tx *Txn) relayout(p *patcher, was *ojson.Object) {
	switch {
	case p.typ == "text" && scene.StringOf(p.el, "containerId") != "":
		if c := tx.byID.Get(scene.StringOf(p.el, "containerId")); c != nil && p.textChanged {
			layoutLabel(c, p.el)
			tx.bump(c)
		}
	case p.typ == "text":
		if p.textChanged {
			remeasureText(p.el)
		}
	case p.label != nil:
		resized := scene.NumberOf(p.el, "width") != scene.NumberOf(was, "width") || scene.NumberOf(p.el, "height") != scene.NumberOf(was, "height")
		if p.textChanged || resized || p.pointsChanged {
			layoutLabel(p.el, p.label)
		} else {
			carryLabel(p.el, was, p.label)
		}
		tx.bump(p.label)
	}
}

// labelOf returns the live text bound to a container, or nil.
func (tx *Txn) labelOf(el *ojson.Object) *ojson.Object {
	list, _ := el.Array("boundElements")
	for _, entry := range list {
		o, ok := entry.(*ojson.Object)
		if !ok || scene.StringOf(o, "type") != "text" {
			continue
		}
		if t := tx.byID.Get(scene.StringOf(o, "id")); t != nil && !scene.IsDeleted(t) && scene.StringOf(t, "containerId") == scene.StringOf(el, "id") {
			return t
		}
	}
	return nil
}
