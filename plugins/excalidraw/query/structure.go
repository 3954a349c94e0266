package query

import (
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Structure kinds, [Target.Kind]'s values: what drew the element.
const (
	// KindDiagram: create_diagram's elements (customData.dshDiagram).
	KindDiagram = "diagram"
	KindTable   = "table"
	KindStack   = "stack"
	KindSlide   = "slide"
	KindLegend  = "legend"
)

// Kinds are the structure kinds a target can select.
var Kinds = []string{KindDiagram, KindTable, KindStack, KindSlide, KindLegend}

// The customData members a structure's elements carry: the planners'
// tag {"kind", "id", "slot", …} in "dsh", or, on an element already part
// of another structure (a table's cell that is a stack's item), beside
// it under "dsh" and the kind capitalised ("dshStack"); and
// create_diagram's older tag {"diagram", "kind" (the part: node, edge…),
// "key", "piece"} in "dshDiagram".
const (
	tagKey     = "dsh"
	diagramKey = "dshDiagram"
)

// tag is one structure an element belongs to, and its part in it.
type tag struct{ kind, slot string }

// partOf reports whether el belongs to a structure of kind ("" any) as
// its part slot ("" any). A label without a tag of its own belongs where
// its container does.
func (ix *index) partOf(el *ojson.Object, kind, slot string) bool {
	tags := tagsOf(el)
	if len(tags) == 0 {
		if c := ix.containerOf(el); c != nil {
			tags = tagsOf(c)
		}
	}
	for _, t := range tags {
		if (kind == "" || t.kind == kind) && (slot == "" || t.slot == slot) {
			return true
		}
	}
	return false
}

// tagsOf reads el's own tags.
func tagsOf(el *ojson.Object) []tag {
	cd, ok := el.Object("customData")
	if !ok {
		return nil
	}
	var out []tag
	cd.Range(func(k string, v any) bool {
		rec, ok := v.(*ojson.Object)
		if !ok || !strings.HasPrefix(k, tagKey) {
			return true
		}
		kind := scene.StringOf(rec, "kind")
		switch {
		case k == diagramKey:
			out = append(out, tag{KindDiagram, kind})
		case kind != "" && (k == tagKey || k == tagKey+strings.ToUpper(kind[:1])+kind[1:]):
			out = append(out, tag{kind, scene.StringOf(rec, "slot")})
		}
		return true
	})
	return out
}
