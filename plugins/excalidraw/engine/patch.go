package engine

import (
	"fmt"
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// Bounds of patch values, the same the element input schema states, so an
// update cannot make what an add could not.
const (
	maxCoord       = 1e6
	maxColorLength = scene.MaxColorLength
	maxLinkLength  = 2048
	maxGroups      = 32
	maxRefLength   = 256
	maxPoints      = 10000
)

// patchField checks one patch value for an element and applies it. It
// returns an error message ("" when fine); the caller adds the pointer.
type patchField func(p *patcher, v any) string

// patchFields are the only members a patch may hold: visual properties.
// Identity, bindings, indices, versions and the like are refused, because
// they are the engine's to keep consistent.
var patchFields = map[string]patchField{
	"x":               numberField("x", -maxCoord, maxCoord, anyType),
	"y":               numberField("y", -maxCoord, maxCoord, anyType),
	"width":           numberField("width", 0, maxCoord, boxed),
	"height":          numberField("height", 0, maxCoord, boxed),
	"angle":           numberField("angle", -2*math.Pi, 2*math.Pi, anyType),
	"strokeColor":     colorField("strokeColor"),
	"backgroundColor": colorField("backgroundColor"),
	"fillStyle":       stringField("fillStyle", 0, []string{"hachure", "cross-hatch", "solid", "zigzag"}, anyType),
	"strokeWidth":     numberField("strokeWidth", 0.1, 100, anyType),
	"strokeStyle":     stringField("strokeStyle", 0, []string{"solid", "dashed", "dotted"}, anyType),
	"roughness":       numberField("roughness", 0, 2, anyType),
	"opacity":         numberField("opacity", 0, 100, anyType),
	"roundness":       roundnessField,
	"text":            textField,
	"fontSize":        labelField(numberField("fontSize", 1, 1000, anyType)),
	"fontFamily":      labelField(fontFamilyField),
	"textAlign":       labelField(stringField("textAlign", 0, []string{"left", "center", "right"}, anyType)),
	"verticalAlign":   labelField(stringField("verticalAlign", 0, []string{"top", "middle", "bottom"}, anyType)),
	"locked":          boolField("locked"),
	"link":            linkField,
	"groupIds":        groupIDsField,
	"startArrowhead":  arrowheadField("startArrowhead"),
	"endArrowhead":    arrowheadField("endArrowhead"),
	"points":          pointsField,
	"elbowed":         elbowedField,
}

// elbowedField turns an arrow into an elbow arrow or back (see
// Txn.elbow): only arrows have it.
func elbowedField(p *patcher, v any) string {
	if p.typ != "arrow" {
		return "elbowed applies to arrows only"
	}
	b, ok := v.(bool)
	if !ok {
		return "elbowed must be true or false"
	}
	was, _ := p.el.Bool("elbowed")
	if was != b {
		p.el.Set("elbowed", b)
		p.elbowChanged = true
	}
	return ""
}

// arrowheads are Excalidraw 0.18's arrowhead values (null is none).
var arrowheads = []string{"arrow", "bar", "dot", "circle", "circle_outline", "triangle", "triangle_outline",
	"diamond", "diamond_outline", "crowfoot_one", "crowfoot_many", "crowfoot_one_or_many"}

// Element classes a field applies to.
type appliesTo func(typ string) bool

func anyType(string) bool { return true }

// boxed are the types whose size is set directly: not text (measured),
// not lines, arrows or freedraw (their size follows their points).
func boxed(t string) bool {
	return t != "text" && !scene.IsLinear(t) && t != "freedraw"
}

func numberField(k string, lo, hi float64, ok appliesTo) patchField {
	return func(p *patcher, v any) string {
		if !ok(p.typ) {
			return k + " cannot be set on a " + p.typ + " element"
		}
		f, isNum := ojson.AsFloat(v)
		if !isNum || math.IsNaN(f) || f < lo || f > hi {
			return k + " must be a number from " + fmtNum(lo) + " to " + fmtNum(hi)
		}
		p.target(k).Set(k, f)
		return ""
	}
}

func stringField(k string, maxLen int, enum []string, ok appliesTo) patchField {
	return func(p *patcher, v any) string {
		if !ok(p.typ) {
			return k + " cannot be set on a " + p.typ + " element"
		}
		s, isStr := v.(string)
		switch {
		case !isStr:
			return k + " must be a string"
		case enum != nil && !slices.Contains(enum, s):
			return k + " must be one of " + listOf(enum)
		case enum == nil && (s == "" || len(s) > maxLen):
			return k + " must be a non-empty string of at most " + fmtNum(float64(maxLen)) + " bytes"
		}
		p.target(k).Set(k, s)
		return ""
	}
}

// colorField is a colour the editor draws (build.ValidColor): another
// string would leave the element, or its label, invisible.
func colorField(k string) patchField {
	return func(p *patcher, v any) string {
		s, ok := v.(string)
		if !ok || len(s) > maxColorLength || !build.ValidColor(s) {
			return k + ": " + build.ColorProblem(fmt.Sprint(v))
		}
		p.el.Set(k, s)
		return ""
	}
}

func boolField(k string) patchField {
	return func(p *patcher, v any) string {
		b, ok := v.(bool)
		if !ok {
			return k + " must be true or false"
		}
		p.el.Set(k, b)
		return ""
	}
}

// labelField restricts a text-style field to text elements and to
// containers with a label, where it applies to the label. Only a value
// that changes the text element calls for a new layout.
func labelField(f patchField) patchField {
	return func(p *patcher, v any) string {
		if p.typ != "text" && p.label == nil {
			return "this field applies only to text elements and to elements with a label"
		}
		t := p.target("text")
		was := t.Clone()
		if msg := f(p, v); msg != "" {
			return msg
		}
		if !ojson.Equal(was, t, true) {
			p.textChanged = true
		}
		return ""
	}
}

func fontFamilyField(p *patcher, v any) string {
	f, ok := ojson.AsFloat(v)
	if !ok || f != math.Trunc(f) || !textmetrics.Known(textmetrics.FontFamily(f)) {
		return "fontFamily must be a known Excalidraw font family id"
	}
	t := p.target("fontFamily")
	t.Set("fontFamily", int64(f))
	t.Set("lineHeight", textmetrics.LineHeight(textmetrics.FontFamily(f)))
	return ""
}

func roundnessField(p *patcher, v any) string {
	switch v {
	case "sharp":
		p.el.Set("roundness", nil)
	case "round":
		p.el.Set("roundness", ojson.New().Set("type", roundnessType(p.typ)))
	default:
		return `roundness must be "round" or "sharp"`
	}
	return ""
}

// roundnessType is Excalidraw's default for the type: proportional radius
// (2) for lines, arrows and diamonds, adaptive radius (3) for the rest.
func roundnessType(t string) int64 {
	if scene.IsLinear(t) || t == "diamond" {
		return 2
	}
	return 3
}

func linkField(p *patcher, v any) string {
	if v == nil {
		p.el.Set("link", nil)
		return ""
	}
	s, ok := v.(string)
	if !ok || len(s) > maxLinkLength {
		return "link must be null or a string of at most 2048 bytes"
	}
	p.el.Set("link", s)
	return ""
}

func groupIDsField(p *patcher, v any) string {
	list, ok := v.([]any)
	if !ok || len(list) > maxGroups {
		return "groupIds must be an array of at most 32 strings"
	}
	out := make([]any, 0, len(list))
	for _, g := range list {
		s, ok := g.(string)
		if !ok || s == "" || len(s) > maxRefLength {
			return "groupIds must hold non-empty strings of at most 256 bytes"
		}
		out = append(out, s)
	}
	p.el.Set("groupIds", out)
	return ""
}

func arrowheadField(k string) patchField {
	return func(p *patcher, v any) string {
		if !scene.IsLinear(p.typ) {
			return k + " applies only to arrows and lines"
		}
		if s, ok := v.(string); v != nil && (!ok || !slices.Contains(arrowheads, s)) {
			return k + " must be null or one of " + listOf(arrowheads)
		}
		p.el.Set(k, v)
		return ""
	}
}

func pointsField(p *patcher, v any) string {
	if !scene.IsLinear(p.typ) {
		return "points applies only to arrows and lines"
	}
	pts, ok := readPoints(v)
	if !ok || len(pts) < 2 || len(pts) > maxPoints {
		return "points must be 2 to 10000 [x, y] number pairs within ±1e6"
	}
	was := globalPoints(p.el)
	setPoints(p.el, pts)
	if !slices.Equal(was, globalPoints(p.el)) {
		p.pointsChanged = true
	}
	return ""
}
