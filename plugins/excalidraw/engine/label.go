package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// labelKeys are the members of a label patch, those of an element
// input's label.
var labelKeys = []string{"text", "fontSize", "fontFamily", "textAlign", "verticalAlign", "strokeColor"}

// labelHolders are the types that take a label (the editor's
// text-bindable containers).
var labelHolders = []string{"rectangle", "ellipse", "diamond", "arrow"}

// patchLabel applies a patch's "label" (ptr locates it): {"text", and
// optionally "fontSize", "fontFamily", "textAlign", "verticalAlign",
// "strokeColor"}, the label of an element input. An element that has a
// label gets these values on it; one without gets a new label, built as
// the builder builds one (centred, the container's stroke colour) and
// bound to it, as batch_create gives an element with a label. The
// layout follows (relayout: the label fitted, a box grown for it).
func (tx *Txn) patchLabel(p *patcher, v any, ptr string) error {
	obj, ok := v.(*ojson.Object)
	if !ok {
		return opError(ptr, `label must be an object: {"text": "…"}`)
	}
	if !slices.Contains(labelHolders, p.typ) {
		return opError(ptr, "a %s cannot have a label; rectangles, ellipses, diamonds and arrows can", p.typ)
	}
	for _, k := range obj.Keys() {
		if !slices.Contains(labelKeys, k) {
			return opError(ptr+"/"+jsonpointer.Escape(k), "%q is not a label field; allowed: %s", k, listOf(labelKeys))
		}
	}
	if p.label == nil {
		return tx.newLabel(p, obj, ptr)
	}
	for _, k := range obj.Keys() {
		val, _ := obj.Get(k)
		var msg string
		if k == "strokeColor" {
			msg = labelColor(p.label, val)
		} else {
			msg = patchFields[k](p, val)
		}
		if msg != "" {
			return opError(ptr+"/"+k, "%s", msg)
		}
	}
	return nil
}

// labelColor sets a label's own colour.
func labelColor(t *ojson.Object, v any) string {
	s, ok := v.(string)
	if !ok || !build.ValidColor(s) {
		return "strokeColor: " + build.ColorProblem(fmt.Sprint(v))
	}
	t.Set("strokeColor", s)
	return ""
}

// newLabel builds a label for p's element from obj (the builder checks
// its values as an input's label), binds it and puts it just above its
// container in z-order, as the editor does.
func (tx *Txn) newLabel(p *patcher, obj *ojson.Object, ptr string) error {
	if text, _ := obj.String("text"); strings.TrimSpace(text) == "" {
		return opError(ptr+"/text", `a new label needs its "text", not blank`)
	}
	in := ojson.New().Set("type", "text").Set("x", scene.NumberOf(p.el, "x")).Set("y", scene.NumberOf(p.el, "y")).
		Set("textAlign", "center").Set("verticalAlign", "middle").Set("strokeColor", scene.StringOf(p.el, "strokeColor"))
	for _, k := range obj.Keys() {
		val, _ := obj.Get(k)
		in.Set(k, val)
	}
	if !build.ValidColor(scene.StringOf(in, "strokeColor")) {
		in.Set("strokeColor", scene.DefaultStrokeColor) // a person's odd stroke is not the label's fault
	}
	raw, err := ojson.Marshal(in)
	if err != nil {
		return opError(ptr, "label does not encode: %v", err)
	}
	ids, err := tx.add([]json.RawMessage{raw}, func(int) string { return ptr })
	if err != nil {
		return err
	}
	_, t := tx.doc.Find(ids[0])
	id := scene.StringOf(p.el, "id")
	t.Set("containerId", id)
	for _, k := range []string{"opacity", "groupIds", "frameId", "locked"} {
		if val, ok := p.el.Get(k); ok {
			t.Set(k, ojson.CloneValue(val))
		}
	}
	list, _ := p.el.Array("boundElements")
	p.el.Set("boundElements", append(slices.Clone(list), ojson.New().Set("type", "text").Set("id", ids[0])))
	tx.besideContainer(p.el, t)
	tx.byID.Set(ids[0], t)
	p.label, p.textChanged = t, true
	return nil
}

// besideContainer moves the new label t, built last, to just above its
// container c in the document's order, with an index between theirs;
// when no index fits between them it stays on top.
func (tx *Txn) besideContainer(c, t *ojson.Object) {
	els := tx.doc.Elements()
	ci := slices.Index(els, c)
	if ci < 0 || els[len(els)-1] != t {
		return
	}
	next := ""
	if ci+1 < len(els)-1 {
		if next = scene.StringOf(els[ci+1], "index"); findex.Validate(next) != nil {
			return
		}
	}
	k, err := findex.Between(scene.StringOf(c, "index"), next)
	if err != nil {
		return
	}
	t.Set("index", k)
	out := slices.Insert(slices.Clone(els[:len(els)-1]), ci+1, t)
	tx.doc.SetElements(out)
}
