package query

import (
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
// tag {"kind", "id", "slot", …} and create_diagram's older one
// {"diagram", "kind" (the part: node, edge…), "key", "piece"}.
const (
	tagKey     = "dsh"
	diagramKey = "dshDiagram"
)

// structure is the kind of structure el belongs to and the part (slot)
// it is of it; "" when none. A label without a tag of its own belongs
// where its container does.
func (ix *index) structure(el *ojson.Object) (kind, slot string) {
	kind, slot = tagOf(el)
	if kind == "" {
		if c := ix.containerOf(el); c != nil {
			return tagOf(c)
		}
	}
	return kind, slot
}

// tagOf reads el's own tag.
func tagOf(el *ojson.Object) (kind, slot string) {
	cd, ok := el.Object("customData")
	if !ok {
		return "", ""
	}
	if d, ok := cd.Object(diagramKey); ok {
		return KindDiagram, scene.StringOf(d, "kind")
	}
	if d, ok := cd.Object(tagKey); ok {
		return scene.StringOf(d, "kind"), scene.StringOf(d, "slot")
	}
	return "", ""
}
