package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Excalidraw 0.18.1's constants for shapes.
const (
	proportionalRadius = 0.25 // DEFAULT_PROPORTIONAL_RADIUS
	adaptiveRadius     = 32   // DEFAULT_ADAPTIVE_RADIUS
	roughCartoonist    = 2
	lineConfirmDist    = 8 // LINE_CONFIRM_THRESHOLD: a line whose ends meet is a loop
	elbowCornerRadius  = 16
)

// paintedStyle is how an element's rough sets are painted: the stroke
// colour and dash, the fill colour, and the widths rough chose.
type paintedStyle struct {
	stroke, fill string // CSS colours; fill "" for none
	dash         []float64
}

// adjustRoughness is Excalidraw's reduction of roughness for small shapes,
// so a tiny box does not look scribbled.
func adjustRoughness(e *element) float64 {
	maxSize := math.Max(e.w, e.h)
	minSize := math.Min(e.w, e.h)
	if (minSize >= 20 && maxSize >= 50) ||
		(minSize >= 15 && e.roundness != 0 && canChangeRoundness(e.typ)) ||
		(scene.IsLinear(e.typ) && maxSize >= 50) {
		return e.roughness
	}
	div := 2.0
	if maxSize < 10 {
		div = 3
	}
	return math.Min(e.roughness/div, 2.5)
}

func canChangeRoundness(t string) bool {
	switch t {
	case "rectangle", "iframe", "embeddable", "line", "diamond", "image":
		return true
	}
	return false
}

func dashed(w float64) []float64 { return []float64{8, 8 + w} }
func dotted(w float64) []float64 { return []float64{1.5, 6 + w} }

// roughOptions is Excalidraw's generateRoughOptions: the rough.js options
// an element is drawn with, and its paint.
func roughOptions(e *element, continuousPath bool) (rough.Options, paintedStyle) {
	o := rough.Defaults()
	o.Seed = int32(e.seed)
	st := paintedStyle{stroke: e.strokeColor}
	switch e.strokeStyle {
	case "dashed":
		st.dash = dashed(e.strokeWidth)
	case "dotted":
		st.dash = dotted(e.strokeWidth)
	}
	o.DisableMultiStroke = e.strokeStyle != "solid"
	o.StrokeWidth = e.strokeWidth
	if e.strokeStyle != "solid" {
		o.StrokeWidth = e.strokeWidth + 0.5
	}
	o.FillWeight = e.strokeWidth / 2
	o.HachureGap = e.strokeWidth * 4
	o.Roughness = adjustRoughness(e)
	o.PreserveVertices = continuousPath || e.roughness < roughCartoonist
	switch e.typ {
	case "rectangle", "iframe", "embeddable", "diamond", "ellipse":
		o.FillStyle = rough.FillStyle(e.fillStyle)
		if !isTransparent(e.bgColor) {
			st.fill = e.bgColor
		}
		if e.typ == "ellipse" {
			o.CurveFitting = 1
		}
	case "line", "freedraw":
		if isPathALoop(e.points) {
			o.FillStyle = rough.FillStyle(e.fillStyle)
			if e.bgColor != "transparent" {
				st.fill = e.bgColor
			}
		}
	}
	o.Fill = st.fill != ""
	o.Stroke = true
	return o, st
}

// isTransparent is Excalidraw's test of a background that is not drawn.
func isTransparent(c string) bool {
	return (len(c) == 5 && c[4] == '0') || (len(c) == 9 && c[7:9] == "00") || c == "transparent"
}

func isPathALoop(pts [][2]float64) bool {
	if len(pts) < 3 {
		return false
	}
	a, b := pts[0], pts[len(pts)-1]
	return math.Hypot(a[0]-b[0], a[1]-b[1]) <= lineConfirmDist
}

// cornerRadius is Excalidraw's getCornerRadius for a side of length x.
func cornerRadius(x float64, e *element) float64 {
	switch e.roundness {
	case 1, 2:
		return x * proportionalRadius
	case 3:
		fixed := float64(adaptiveRadius)
		if e.hasRoundnessValue {
			fixed = e.roundnessValue
		}
		if x <= fixed/proportionalRadius {
			return x * proportionalRadius
		}
		return fixed
	}
	return 0
}

// num writes a number as JavaScript's String(n) would for the path
// strings Excalidraw builds: rough parses them back to the same float.
func num(f float64) string {
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// drawable is one rough result with the paint of its element.
type drawable struct {
	d     rough.Drawable
	style paintedStyle
}

// elementShapes is Excalidraw's _generateElementShape: the rough drawables
// of a shape element, in local coordinates (origin at the element's x, y).
// Arrowheads follow the arrow's own curve.
func elementShapes(e *element, canvasBg string) []drawable {
	switch e.typ {
	case "rectangle", "iframe", "embeddable":
		el := iframeLike(e)
		if el.roundness != 0 {
			w, h := el.w, el.h
			r := cornerRadius(math.Min(w, h), el)
			d := "M " + num(r) + " 0 L " + num(w-r) + " 0 Q " + num(w) + " 0, " + num(w) + " " + num(r) +
				" L " + num(w) + " " + num(h-r) + " Q " + num(w) + " " + num(h) + ", " + num(w-r) + " " + num(h) +
				" L " + num(r) + " " + num(h) + " Q 0 " + num(h) + ", 0 " + num(h-r) + " L 0 " + num(r) +
				" Q 0 0, " + num(r) + " 0"
			o, st := roughOptions(el, true)
			return pathDrawable(d, o, st)
		}
		o, st := roughOptions(el, false)
		return []drawable{{rough.Rectangle(0, 0, el.w, el.h, o), st}}
	case "diamond":
		tx, ty, rx, ry, bx, by, lx, ly := diamondPoints(e)
		if e.roundness != 0 {
			vr := cornerRadius(math.Abs(tx-lx), e)
			hr := cornerRadius(math.Abs(ry-ty), e)
			var b strings.Builder
			w := func(parts ...string) {
				for _, p := range parts {
					b.WriteString(p)
				}
			}
			w("M ", num(tx+vr), " ", num(ty+hr), " L ", num(rx-vr), " ", num(ry-hr),
				" C ", num(rx), " ", num(ry), ", ", num(rx), " ", num(ry), ", ", num(rx-vr), " ", num(ry+hr),
				" L ", num(bx+vr), " ", num(by-hr),
				" C ", num(bx), " ", num(by), ", ", num(bx), " ", num(by), ", ", num(bx-vr), " ", num(by-hr),
				" L ", num(lx+vr), " ", num(ly+hr),
				" C ", num(lx), " ", num(ly), ", ", num(lx), " ", num(ly), ", ", num(lx+vr), " ", num(ly-hr),
				" L ", num(tx-vr), " ", num(ty+hr),
				" C ", num(tx), " ", num(ty), ", ", num(tx), " ", num(ty), ", ", num(tx+vr), " ", num(ty+hr))
			o, st := roughOptions(e, true)
			return pathDrawable(b.String(), o, st)
		}
		o, st := roughOptions(e, false)
		return []drawable{{rough.Polygon([]rough.Point{{tx, ty}, {rx, ry}, {bx, by}, {lx, ly}}, o), st}}
	case "ellipse":
		o, st := roughOptions(e, false)
		return []drawable{{rough.Ellipse(e.w/2, e.h/2, e.w, e.h, o), st}}
	case "line", "arrow":
		return linearShapes(e, canvasBg)
	case "freedraw":
		if !isPathALoop(e.points) {
			return nil
		}
		o, st := roughOptions(e, false)
		o.Stroke = false
		return []drawable{{rough.Curve(rough.Simplify(roughPoints(e.points), 0.75), o), st}}
	}
	return nil
}

// iframeLike is how an embed's box is drawn in an export: a grey box when
// it has no colours of its own.
func iframeLike(e *element) *element {
	if !e.isIframeLike() {
		return e
	}
	c := *e
	if isTransparent(e.bgColor) && isTransparent(e.strokeColor) {
		c.roughness, c.bgColor, c.fillStyle = 0, "#d3d3d3", "solid"
		return &c
	}
	if e.typ == "iframe" {
		if isTransparent(c.strokeColor) {
			c.strokeColor = "#000000"
		}
		if isTransparent(c.bgColor) {
			c.bgColor = "#f4f4f6"
		}
	}
	return &c
}

// diamondPoints is Excalidraw's getDiamondPoints, in local coordinates.
func diamondPoints(e *element) (tx, ty, rx, ry, bx, by, lx, ly float64) {
	tx = math.Floor(e.w/2) + 1
	ry = math.Floor(e.h/2) + 1
	return tx, 0, e.w, ry, tx, e.h, 0, ry
}

func linearShapes(e *element, canvasBg string) []drawable {
	o, st := roughOptions(e, false)
	pts := e.points
	if len(pts) == 0 {
		pts = [][2]float64{{0, 0}}
	}
	var out []drawable
	switch {
	case e.typ == "arrow" && e.elbowed:
		for _, p := range pts {
			if math.Abs(p[0]) > 1e6 || math.Abs(p[1]) > 1e6 {
				return nil // Excalidraw does not draw such an arrow
			}
		}
		eo, est := roughOptions(e, true)
		out = append(out, pathDrawable(elbowPath(pts, elbowCornerRadius), eo, est)...)
		if len(out) == 0 {
			return nil
		}
	case e.roundness == 0:
		if o.Fill {
			out = append(out, drawable{rough.Polygon(roughPoints(pts), o), st})
		} else {
			out = append(out, drawable{rough.LinearPath(roughPoints(pts), o), st})
		}
	default:
		out = append(out, drawable{rough.Curve(roughPoints(pts), o), st})
	}
	if e.typ != "arrow" {
		return out
	}
	curve := out[0].d
	if e.hasStartArrow {
		out = append(out, arrowheadShapes(e, curve, true, e.startArrowhead, o, st, canvasBg)...)
	}
	if e.hasEndArrow {
		out = append(out, arrowheadShapes(e, curve, false, e.endArrowhead, o, st, canvasBg)...)
	}
	return out
}

// elbowPath is Excalidraw's path of an elbow arrow: straight runs with
// quadratic corners of at most radius.
func elbowPath(pts [][2]float64, radius float64) string {
	var sub [][2]float64
	// horizontal is Excalidraw's heading of the vector from o to p:
	// right when x > |y|, left when x ≤ -|y|.
	horizontal := func(p, o [2]float64) bool {
		x, y := p[0]-o[0], p[1]-o[1]
		return x > math.Abs(y) || x <= -math.Abs(y)
	}
	for i := 1; i < len(pts)-1; i++ {
		prev, next, p := pts[i-1], pts[i+1], pts[i]
		corner := math.Min(radius, math.Min(dist(p, next)/2, dist(p, prev)/2))
		side := func(o [2]float64, horiz bool) [2]float64 {
			if horiz {
				if o[0] < p[0] {
					return [2]float64{p[0] - corner, p[1]}
				}
				return [2]float64{p[0] + corner, p[1]}
			}
			if o[1] < p[1] {
				return [2]float64{p[0], p[1] - corner}
			}
			return [2]float64{p[0], p[1] + corner}
		}
		sub = append(sub, side(prev, horizontal(p, prev)), p, side(next, horizontal(next, p)))
	}
	var b strings.Builder
	b.WriteString("M " + num(pts[0][0]) + " " + num(pts[0][1]))
	for i := 0; i+2 < len(sub); i += 3 {
		b.WriteString(" L " + num(sub[i][0]) + " " + num(sub[i][1]))
		b.WriteString(" Q " + num(sub[i+1][0]) + " " + num(sub[i+1][1]) + ", " + num(sub[i+2][0]) + " " + num(sub[i+2][1]))
	}
	last := pts[len(pts)-1]
	b.WriteString(" L " + num(last[0]) + " " + num(last[1]))
	return b.String()
}

func dist(a, b [2]float64) float64 { return math.Hypot(a[0]-b[0], a[1]-b[1]) }

// pathDrawable is rough's drawing of an SVG path string; a string rough
// cannot read draws nothing (Excalidraw builds them, so it does not happen).
func pathDrawable(d string, o rough.Options, st paintedStyle) []drawable {
	dr, err := rough.Path(d, o)
	if err != nil {
		return nil
	}
	return []drawable{{dr, st}}
}

func roughPoints(pts [][2]float64) []rough.Point {
	out := make([]rough.Point, len(pts))
	for i, p := range pts {
		out[i] = rough.Point(p)
	}
	return out
}
