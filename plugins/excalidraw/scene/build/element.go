package build

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// stamp is what every new element gets from the random source and the
// clock.
type stamp struct {
	seed, nonce, updated int64
}

// baseElement writes the fields newElement.ts gives every element, in its
// order. index is left null for assignIndices; version is 1 as for a
// freshly created element. boundElements is [] rather than newElement's
// null because restore turns null into [] and the builder's output must be
// what restore returns.
func baseElement(id, typ string, b geom.Shape, s style, st stamp) *ojson.Object {
	groups := make([]any, len(s.groupIDs))
	for i, g := range s.groupIDs {
		groups[i] = g
	}
	return ojson.NewSized(40).
		Set("id", id).
		Set("type", typ).
		Set("x", jsNum(b.X)).
		Set("y", jsNum(b.Y)).
		Set("width", jsNum(b.W)).
		Set("height", jsNum(b.H)).
		Set("angle", jsNum(b.Angle)).
		Set("strokeColor", s.strokeColor).
		Set("backgroundColor", s.backgroundColor).
		Set("fillStyle", s.fillStyle).
		Set("strokeWidth", jsNum(s.strokeWidth)).
		Set("strokeStyle", s.strokeStyle).
		Set("roughness", s.roughness).
		Set("opacity", s.opacity).
		Set("groupIds", groups).
		Set("frameId", s.frameID).
		Set("index", nil).
		Set("roundness", roundnessValue(s.roundness)).
		Set("seed", st.seed).
		Set("version", 1).
		Set("versionNonce", st.nonce).
		Set("isDeleted", false).
		Set("boundElements", []any{}).
		Set("updated", st.updated).
		Set("link", s.link).
		Set("locked", s.locked)
}

// jsNum turns -0 into 0: JSON.stringify writes -0 as 0, and restore's
// `x || 0` idioms would turn it into 0 anyway.
func jsNum(f float64) float64 {
	if f == 0 {
		return 0
	}
	return f
}

// addBound appends {type, id} to an element's boundElements.
func addBound(el *ojson.Object, kind, id string) {
	list, _ := el.Array("boundElements")
	next := append(append([]any{}, list...), ojson.New().Set("type", kind).Set("id", id))
	el.Set("boundElements", next)
}
