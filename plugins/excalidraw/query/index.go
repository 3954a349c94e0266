package query

import (
	"strings"
	"unicode"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// index is what a query needs to know about the whole scene: elements by
// id, which are deleted, each container's label, and the order of the
// elements. It is built once per call from the scene's elements (O(n)).
type index struct {
	all       []*ojson.Object
	pos       map[string]int                  // id → position of its first element
	dead      []bool                          // isDeleted, by position
	label     map[string]*ojson.Object        // container id → its (first live) label
	container map[*ojson.Object]*ojson.Object // label → its live container
	// labelCount counts the display texts of live elements, so an arrow's
	// end is named by its text only where that text is unique. Built on
	// first use.
	labelCount map[string]int
}

func newIndex(all []*ojson.Object) *index {
	ix := &index{
		all: all, pos: make(map[string]int, len(all)), dead: make([]bool, len(all)),
		label: map[string]*ojson.Object{}, container: map[*ojson.Object]*ojson.Object{},
	}
	type candidate struct {
		el  *ojson.Object
		cid string
	}
	var labels []candidate
	for i, el := range all {
		if el == nil {
			ix.dead[i] = true
			continue
		}
		// One pass over the members: an element has some thirty.
		var id, typ, cid string
		var hasID bool
		el.Range(func(k string, v any) bool {
			switch k {
			case "id":
				id, hasID = v.(string)
			case "type":
				typ, _ = v.(string)
			case "isDeleted":
				ix.dead[i], _ = v.(bool)
			case "containerId":
				cid, _ = v.(string)
			}
			return true
		})
		if hasID {
			if _, dup := ix.pos[id]; !dup {
				ix.pos[id] = i
			}
		}
		if typ == "text" && cid != "" && !ix.dead[i] {
			labels = append(labels, candidate{el, cid})
		}
	}
	for _, l := range labels {
		if c := ix.live(l.cid); c != nil && c != l.el {
			ix.container[l.el] = c
			if _, taken := ix.label[l.cid]; !taken {
				ix.label[l.cid] = l.el
			}
		}
	}
	return ix
}

// live is the live element with the id, nil if none or deleted.
func (ix *index) live(id string) *ojson.Object {
	if i, ok := ix.pos[id]; ok && !ix.dead[i] {
		return ix.all[i]
	}
	return nil
}

// containerOf is the live element a label belongs to, nil when el is not
// a label (a live text whose containerId names a live element).
func (ix *index) containerOf(el *ojson.Object) *ojson.Object { return ix.container[el] }

// boundEnd is the live element the start ("startBinding") or end
// ("endBinding") of a linear element is bound to, nil if none. An end
// bound to a label counts as bound to the label's container.
func (ix *index) boundEnd(el *ojson.Object, key string) *ojson.Object {
	b, ok := el.Object(key)
	if !ok {
		return nil
	}
	id := scene.StringOf(b, "elementId")
	t := ix.live(id)
	if t == nil || t == el {
		return nil
	}
	if c := ix.containerOf(t); c != nil {
		return c
	}
	return t
}

// role is one of the Role* values; see [Target.Role].
func (ix *index) role(el *ojson.Object) string {
	typ := scene.StringOf(el, "type")
	switch {
	case typ == "frame" || typ == "magicframe":
		return RoleFrame
	case ix.containerOf(el) != nil:
		return RoleLabel
	case scene.IsLinear(typ):
		if ix.boundEnd(el, "startBinding") != nil || ix.boundEnd(el, "endBinding") != nil {
			return RoleConnector
		}
		return RoleStandalone
	case ix.label[scene.StringOf(el, "id")] != nil:
		return RoleContainer
	}
	return RoleStandalone
}

// text is what can be read on the element, untruncated: a text's
// originalText (its text before wrapping), the label of a container or
// an arrow, a frame's name; "" for anything else.
func (ix *index) text(el *ojson.Object) string {
	switch scene.StringOf(el, "type") {
	case "text":
		return textOf(el)
	case "frame", "magicframe":
		return scene.StringOf(el, "name")
	}
	if l := ix.label[scene.StringOf(el, "id")]; l != nil {
		return textOf(l)
	}
	return ""
}

// textOf is a text element's originalText, or its text when that is
// missing.
func textOf(el *ojson.Object) string {
	if s, ok := el.String("originalText"); ok {
		return s
	}
	return scene.StringOf(el, "text")
}

// name is how an arrow row names an element it points at: its text,
// white space collapsed and cut at maxEndText characters, when no other
// live element that is not an arrow or line reads the same after that
// cut; its id otherwise.
func (ix *index) name(el *ojson.Object) string {
	t := truncate(collapse(ix.text(el)), maxEndText)
	if t == "" {
		return scene.StringOf(el, "id")
	}
	if ix.labelCount == nil {
		ix.labelCount = map[string]int{}
		for i, e := range ix.all {
			if ix.dead[i] || ix.containerOf(e) != nil || scene.IsLinear(scene.StringOf(e, "type")) {
				continue
			}
			if s := truncate(collapse(ix.text(e)), maxEndText); s != "" {
				ix.labelCount[s]++
			}
		}
	}
	if ix.labelCount[t] != 1 {
		return scene.StringOf(el, "id")
	}
	return t
}

// collapse replaces every run of white space with one space and trims
// the ends, so a wrapped or multi-line text reads as one line.
func collapse(s string) string {
	space := true // at the start, a space would be leading
	for _, r := range s {
		if unicode.IsSpace(r) {
			if r != ' ' || space {
				return strings.Join(strings.Fields(s), " ")
			}
			space = true
		} else {
			space = false
		}
	}
	if space && s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}
