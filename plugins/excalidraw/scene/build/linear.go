package build

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// linearFields appends the fields newLinearElement / newArrowElement
// write after the common ones, in their order. elbowed is written for
// arrows only (nil for lines).
func linearFields(el *ojson.Object, p path, startBinding, endBinding, startHead, endHead, elbowed any) *ojson.Object {
	el.Set("points", p.pointsValue()).
		Set("lastCommittedPoint", nil).
		Set("startBinding", startBinding).
		Set("endBinding", endBinding).
		Set("startArrowhead", startHead).
		Set("endArrowhead", endHead)
	if elbowed != nil {
		el.Set("elbowed", elbowed)
	}
	return el
}

// buildLine makes a line: a path with no bindings and, by default, no
// arrowheads.
func buildLine(id string, in *input, s style, st stamp) *ojson.Object {
	p := inputPath(in).normalized()
	el := baseElement(id, "line", p.box(), s, st)
	return linearFields(el, p, nil, nil, arrowhead(in.StartArrowhead, nil), arrowhead(in.EndArrowhead, nil), nil)
}

// buildFreedraw makes a freehand stroke. Without pressures Excalidraw
// simulates them (as for a mouse stroke), with them it uses them.
func buildFreedraw(id string, in *input, s style, st stamp) *ojson.Object {
	p := inputPath(in).normalized()
	pressures := make([]any, len(in.Pressures))
	for i, v := range in.Pressures {
		pressures[i] = jsNum(v)
	}
	simulate := orBool(in.SimulatePressure, len(in.Pressures) == 0)
	return baseElement(id, "freedraw", p.box(), s, st).
		Set("points", p.pointsValue()).
		Set("pressures", pressures).
		Set("simulatePressure", simulate).
		Set("lastCommittedPoint", nil)
}

// buildImage makes an image element showing a file already in the
// scene. status "saved" says the file is stored, so the editor does not
// try to upload it again.
func buildImage(id string, in *input, s style, st stamp) *ojson.Object {
	b := geom.Shape{X: *in.X, Y: *in.Y, W: *in.Width, H: *in.Height, Angle: normalizeAngle(orFloat(in.Angle, 0))}
	scale := []any{1, 1}
	if len(in.Scale) == 2 {
		scale = []any{jsNum(in.Scale[0]), jsNum(in.Scale[1])}
	}
	return baseElement(id, "image", b, s, st).
		Set("status", "saved").
		Set("fileId", *in.FileID).
		Set("scale", scale).
		Set("crop", nil)
}
