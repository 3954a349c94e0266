package build

import (
	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Roundness algorithms (ROUNDNESS in constants.ts).
const (
	roundnessProportional = geom.RoundnessProportional
	roundnessAdaptive     = geom.RoundnessAdaptive
)

// style is everything an element's look and membership is made of,
// resolved from input and defaults.
type style struct {
	strokeColor     string
	backgroundColor string
	fillStyle       string
	strokeWidth     float64
	strokeStyle     string
	roughness       int
	opacity         int
	groupIDs        []string
	frameID         any // nil or string
	link            any // nil or string
	locked          bool
	roundness       int // 0 for sharp
}

// resolveStyle applies Excalidraw's defaults to what the input gave. link
// must already be normalised.
func resolveStyle(in *input, link any) style {
	s := style{
		strokeColor:     orString(in.StrokeColor, model.DefaultStrokeColor),
		backgroundColor: orString(in.BackgroundColor, model.DefaultBackgroundColor),
		fillStyle:       orString(in.FillStyle, model.DefaultFillStyle),
		strokeWidth:     orFloat(in.StrokeWidth, model.DefaultStrokeWidth),
		strokeStyle:     orString(in.StrokeStyle, model.DefaultStrokeStyle),
		roughness:       int(orFloat(in.Roughness, model.DefaultRoughness)),
		opacity:         int(orFloat(in.Opacity, model.DefaultOpacity)),
		groupIDs:        in.GroupIDs,
		link:            link,
		locked:          orBool(in.Locked, false),
		roundness:       roundnessFor(in.Type, in.Roundness),
	}
	if in.Type == "image" && in.StrokeColor == nil {
		// newImageElement: "transparent" will one day mean "the image's own
		// colors" for SVGs.
		s.strokeColor = "transparent"
	}
	if in.FrameID != nil {
		s.frameID = *in.FrameID
	}
	return s
}

// roundnessFor is the roundness algorithm of type t: what the editor's
// default "round" edges give, unless the input asked for "sharp". Text and
// freedraw are never rounded; images only on request.
func roundnessFor(t string, asked *string) int {
	if asked != nil && *asked == "sharp" {
		return 0
	}
	switch t {
	case "rectangle":
		return roundnessAdaptive
	case "ellipse", "diamond", "line", "arrow":
		return roundnessProportional
	case "image":
		if asked != nil && *asked == "round" {
			return roundnessAdaptive
		}
	}
	return 0
}

// roundnessValue is the element's `roundness` field.
func roundnessValue(kind int) any {
	if kind == 0 {
		return nil
	}
	return ojson.New().Set("type", kind)
}
