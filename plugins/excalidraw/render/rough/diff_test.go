package rough

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"
	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// The differential test: random and Excalidraw-like calls of every shape,
// run here and by the real roughjs 4.6.4 (testdata/rough.mjs, one Node
// process for all), compared op by op.

// tolerance is the largest accepted deviation of a number, relative to
// max(1, |value|). The implementation aims at equal bits; the tolerance
// covers the functions taken from Go's math (atan for dashed and
// zigzag-line fills, asin and tan for SVG arcs), which may differ from V8
// in the last bit.
const tolerance = 1e-9

// jsCase is one call for the harness.
type jsCase struct {
	Shape   string         `json:"shape"`
	Args    []any          `json:"args"`
	Options map[string]any `json:"options"`
}

// jsResult is the harness's answer for one case.
type jsResult struct {
	Sets []struct {
		Type string    `json:"type"`
		Ops  string    `json:"ops"`
		Data []float64 `json:"data"`
	} `json:"sets"`
	Error     string `json:"error"`
	NonFinite bool   `json:"nonFinite"`
}

type diffCase struct {
	name string
	js   jsCase
	run  func() (Drawable, error)
}

// roughOptions is o as rough.js options.
func roughOptions(o Options) map[string]any {
	m := map[string]any{
		"seed":                   o.Seed,
		"roughness":              o.Roughness,
		"bowing":                 o.Bowing,
		"strokeWidth":            o.StrokeWidth,
		"maxRandomnessOffset":    o.MaxRandomnessOffset,
		"curveTightness":         o.CurveTightness,
		"curveFitting":           o.CurveFitting,
		"curveStepCount":         o.CurveStepCount,
		"fillStyle":              string(o.FillStyle),
		"fillWeight":             o.FillWeight,
		"hachureAngle":           o.HachureAngle,
		"hachureGap":             o.HachureGap,
		"dashOffset":             o.DashOffset,
		"dashGap":                o.DashGap,
		"zigzagOffset":           o.ZigzagOffset,
		"disableMultiStroke":     o.DisableMultiStroke,
		"disableMultiStrokeFill": o.DisableMultiStrokeFill,
		"preserveVertices":       o.PreserveVertices,
		"fillShapeRoughnessGain": o.FillShapeRoughnessGain,
		"simplification":         o.Simplification,
		"stroke":                 "#000",
	}
	if !o.Stroke {
		m["stroke"] = "none"
	}
	if o.Fill {
		m["fill"] = "#c0ffee"
	}
	return m
}

func pointsArg(ps []Point) [][2]float64 {
	out := make([][2]float64, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// caseGen makes the cases.
type caseGen struct {
	r     *rand.Rand
	cases []diffCase
}

func (g *caseGen) add(name string, js jsCase, run func() (Drawable, error)) {
	g.cases = append(g.cases, diffCase{name: fmt.Sprintf("%d %s", len(g.cases), name), js: js, run: run})
}

func (g *caseGen) pick(vs ...float64) float64 { return vs[g.r.IntN(len(vs))] }

func (g *caseGen) uniform(lo, hi float64) float64 { return lo + g.r.Float64()*(hi-lo) }

// size is a length: tiny, small, ordinary or large, sometimes negative or 0.
func (g *caseGen) size() float64 {
	var v float64
	switch g.r.IntN(10) {
	case 0:
		v = 0
	case 1:
		v = g.uniform(0, 5)
	case 2, 3:
		v = g.uniform(5, 60)
	case 4, 5, 6, 7:
		v = g.uniform(60, 300)
	case 8:
		v = g.uniform(300, 900)
	default:
		v = float64(g.r.IntN(300))
	}
	if g.r.IntN(6) == 0 {
		v = -v
	}
	return v
}

func (g *caseGen) coord() float64 {
	if g.r.IntN(4) == 0 {
		return float64(g.r.IntN(200) - 100)
	}
	return g.uniform(-500, 500)
}

var allFillStyles = []FillStyle{Hachure, CrossHatch, ZigZag, Solid, Dots, Dashed, ZigZagLine, "unknown"}

// options are random options, all within what rough.js terminates on.
func (g *caseGen) options() Options {
	o := Defaults()
	switch g.r.IntN(8) {
	case 0:
		o.Seed = 0
	case 1:
		o.Seed = math.MaxInt32 // the second stroke's seed wraps
	case 2:
		o.Seed = -g.r.Int32()
	case 3:
		o.Seed = -1 // the second stroke's seed is 0
	default:
		o.Seed = g.r.Int32()
	}
	o.Roughness = g.pick(0, 1, 1, 2, 0.5, 1.0/3, 2.5, g.uniform(0, 3), 0.999, 1.5)
	if g.r.IntN(3) == 0 {
		o.Bowing = g.pick(0, 2, g.uniform(-2, 4))
	}
	o.StrokeWidth = g.pick(1, 2, 4, 0.5, 1.5, 2.5, 4.5, g.uniform(0.1, 6))
	if g.r.IntN(3) == 0 {
		o.MaxRandomnessOffset = g.pick(0, 1, 5, g.uniform(0, 6))
	}
	if g.r.IntN(4) == 0 {
		o.CurveTightness = g.pick(0.5, 1, g.uniform(-1, 1))
	}
	if g.r.IntN(3) == 0 {
		o.CurveFitting = g.pick(1, 0.5, g.uniform(0.5, 1.2))
	}
	if g.r.IntN(4) == 0 {
		o.CurveStepCount = g.pick(4, 12, 20, g.uniform(3, 25))
	}
	o.Fill = g.r.IntN(3) != 0
	o.Stroke = g.r.IntN(6) != 0
	o.FillStyle = allFillStyles[g.r.IntN(len(allFillStyles))]
	if g.r.IntN(2) == 0 {
		o.FillWeight = g.pick(0.5, 1, 2, g.uniform(0.1, 4))
	}
	if g.r.IntN(2) == 0 {
		o.HachureAngle = g.pick(0, 45, -90, 90, 60, g.uniform(-360, 360))
	}
	if g.r.IntN(2) == 0 {
		o.HachureGap = g.pick(4, 8, 16, 2, 6, g.uniform(1.5, 20))
	}
	if g.r.IntN(4) == 0 {
		o.DashOffset = g.uniform(1, 12)
	}
	if g.r.IntN(4) == 0 {
		o.DashGap = g.uniform(1, 12)
	}
	if g.r.IntN(4) == 0 {
		o.ZigzagOffset = g.uniform(1, 10)
	}
	// Dots, dashes and zigzag teeth are many ops each: keep them few.
	switch o.FillStyle {
	case Dots:
		o.HachureGap = g.uniform(12, 24)
	case Dashed, ZigZagLine:
		o.HachureGap = g.uniform(6, 16)
		o.DashOffset = math.Max(o.DashOffset, g.uniform(4, 12))
		o.DashGap = math.Max(o.DashGap, g.uniform(4, 12))
		o.ZigzagOffset = math.Max(o.ZigzagOffset, g.uniform(3, 10))
	}
	o.DisableMultiStroke = g.r.IntN(4) == 0
	o.DisableMultiStrokeFill = g.r.IntN(4) == 0
	o.PreserveVertices = g.r.IntN(3) == 0
	if g.r.IntN(4) == 0 {
		o.FillShapeRoughnessGain = g.pick(0, 1.5, g.uniform(0, 2))
	}
	return o
}

// excalidrawOptions are options as Excalidraw 0.18.1's generateRoughOptions
// makes them for an element of the given size.
func (g *caseGen) excalidrawOptions(w, h float64, continuous, rounded bool) Options {
	o := Defaults()
	o.Seed = g.r.Int32N(math.MaxInt32)
	sw := g.pick(1, 2, 4, 0.5)
	solid := g.r.IntN(3) != 0
	roughness := g.pick(0, 1, 2)
	o.DisableMultiStroke = !solid
	o.StrokeWidth = sw
	if !solid {
		o.StrokeWidth = sw + 0.5
	}
	o.FillWeight = sw / 2
	o.HachureGap = sw * 4
	maxSize, minSize := math.Max(w, h), math.Min(w, h)
	if (minSize >= 20 && maxSize >= 50) || (minSize >= 15 && rounded) {
		o.Roughness = roughness
	} else {
		div := 2.0
		if maxSize < 10 {
			div = 3
		}
		o.Roughness = math.Min(roughness/div, 2.5)
	}
	o.PreserveVertices = continuous || roughness < 2
	o.FillStyle = []FillStyle{Hachure, CrossHatch, ZigZag, Solid}[g.r.IntN(4)]
	o.Fill = g.r.IntN(2) == 0
	o.Stroke = true
	return o
}

func (g *caseGen) points(n int) []Point {
	ps := make([]Point, n)
	x, y := g.coord(), g.coord()
	for i := range ps {
		if i > 0 && g.r.IntN(3) == 0 {
			x += g.size()
			y += g.size()
		} else {
			x, y = g.coord(), g.coord()
		}
		ps[i] = Point{x, y}
	}
	return ps
}

// jsNum formats a number as JavaScript's String(n) does, for path data.
func jsNum(v float64) string {
	if v == 0 {
		return "0"
	}
	abs := math.Abs(v)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(v, 'g', -1, 64)
		s = strings.Replace(s, "e+0", "e+", 1)
		return strings.Replace(s, "e-0", "e-", 1)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// roundedRectPath is Excalidraw's path for a rounded rectangle.
func roundedRectPath(w, h, r float64) string {
	n := jsNum
	return fmt.Sprintf("M %s 0 L %s 0 Q %s 0, %s %s L %s %s Q %s %s, %s %s L %s %s Q 0 %s, 0 %s L 0 %s Q 0 0, %s 0",
		n(r), n(w-r), n(w), n(w), n(r), n(w), n(h-r), n(w), n(h), n(w-r), n(h), n(r), n(h), n(h), n(h-r), n(r), n(r))
}

// roundedDiamondPath is Excalidraw's path for a rounded diamond of the
// given size (its points as getDiamondPoints makes them, proportional
// radius), newlines and indentation included.
func roundedDiamondPath(w, h float64) string {
	n := jsNum
	topX, topY := math.Floor(w/2)+1, 0.0
	rightX, rightY := w, math.Floor(h/2)+1
	bottomX, bottomY := topX, h
	leftX, leftY := 0.0, rightY
	vr := math.Abs(topX-leftX) * 0.25
	hr := math.Abs(rightY-topY) * 0.25
	return fmt.Sprintf("M %s %s L %s %s\n            C %s %s, %s %s, %s %s\n            L %s %s\n            C %s %s, %s %s, %s %s\n            L %s %s\n            C %s %s, %s %s, %s %s\n            L %s %s\n            C %s %s, %s %s, %s %s",
		n(topX+vr), n(topY+hr), n(rightX-vr), n(rightY-hr),
		n(rightX), n(rightY), n(rightX), n(rightY), n(rightX-vr), n(rightY+hr),
		n(bottomX+vr), n(bottomY-hr),
		n(bottomX), n(bottomY), n(bottomX), n(bottomY), n(bottomX-vr), n(bottomY-hr),
		n(leftX+vr), n(leftY+hr),
		n(leftX), n(leftY), n(leftX), n(leftY), n(leftX+vr), n(leftY-hr),
		n(topX-vr), n(topY+hr),
		n(topX), n(topY), n(topX), n(topY), n(topX+vr), n(topY+hr))
}

// elbowPath is Excalidraw's path for an elbow arrow through points (each
// turn a right angle, rounded with radius 16).
func elbowPath(ps []Point) string {
	n := jsNum
	var sub []Point
	horizontal := func(a, b Point) bool { return math.Abs(a[0]-b[0]) >= math.Abs(a[1]-b[1]) }
	for i := 1; i < len(ps)-1; i++ {
		prev, p, next := ps[i-1], ps[i], ps[i+1]
		corner := math.Min(16, math.Min(math.Hypot(p[0]-next[0], p[1]-next[1])/2, math.Hypot(p[0]-prev[0], p[1]-prev[1])/2))
		side := func(other Point, horiz bool) Point {
			if horiz {
				if other[0] < p[0] {
					return Point{p[0] - corner, p[1]}
				}
				return Point{p[0] + corner, p[1]}
			}
			if other[1] < p[1] {
				return Point{p[0], p[1] - corner}
			}
			return Point{p[0], p[1] + corner}
		}
		sub = append(sub, side(prev, horizontal(p, prev)), p, side(next, horizontal(next, p)))
	}
	d := []string{fmt.Sprintf("M %s %s", n(ps[0][0]), n(ps[0][1]))}
	for i := 0; i+2 < len(sub); i += 3 {
		d = append(d, fmt.Sprintf("L %s %s", n(sub[i][0]), n(sub[i][1])),
			fmt.Sprintf("Q %s %s, %s %s", n(sub[i+1][0]), n(sub[i+1][1]), n(sub[i+2][0]), n(sub[i+2][1])))
	}
	last := ps[len(ps)-1]
	d = append(d, fmt.Sprintf("L %s %s", n(last[0]), n(last[1])))
	return strings.Join(d, " ")
}

// randomPath is path data using every command, absolute and relative, with
// assorted separators.
func (g *caseGen) randomPath() string {
	var b strings.Builder
	num := func() string {
		v := g.coord()
		if g.r.IntN(5) == 0 {
			v = float64(int(v))
		}
		s := jsNum(v)
		if g.r.IntN(8) == 0 && v < 0 {
			s = "- " + s[1:] // rough folds "- " into "-"
		}
		return s
	}
	sep := func() string { return []string{" ", ",", "  ", "\n", " , "}[g.r.IntN(5)] }
	if g.r.IntN(10) != 0 {
		b.WriteString([]string{"M", "m"}[g.r.IntN(2)] + num() + sep() + num())
	}
	for k := 1 + g.r.IntN(8); k > 0; k-- {
		cmd := "LlHhVvCcSsQqTtAaZzM"[g.r.IntN(19)]
		b.WriteString(sep())
		b.WriteByte(cmd)
		var nums []string
		switch cmd {
		case 'A', 'a':
			rx, ry := g.uniform(0, 200), g.uniform(0, 200)
			if g.r.IntN(6) == 0 {
				rx = 0
			}
			nums = []string{jsNum(rx), jsNum(ry), jsNum(g.uniform(-90, 90)), fmt.Sprint(g.r.IntN(2)), fmt.Sprint(g.r.IntN(2)), num(), num()}
		case 'Z', 'z':
		default:
			for i := 0; i < paramCount[cmd]; i++ {
				nums = append(nums, num())
			}
		}
		for i, v := range nums {
			if i > 0 {
				b.WriteString(sep())
			}
			b.WriteString(v)
		}
	}
	return b.String()
}

func (g *caseGen) rectangle(name string, x, y, w, h float64, o Options) {
	g.add(name, jsCase{"rectangle", []any{x, y, w, h}, roughOptions(o)}, func() (Drawable, error) {
		return Rectangle(x, y, w, h, o), nil
	})
}

func (g *caseGen) ellipse(name string, x, y, w, h float64, o Options) {
	g.add(name, jsCase{"ellipse", []any{x, y, w, h}, roughOptions(o)}, func() (Drawable, error) {
		return Ellipse(x, y, w, h, o), nil
	})
}

func (g *caseGen) circle(x, y, d float64, o Options) {
	g.add("circle", jsCase{"circle", []any{x, y, d}, roughOptions(o)}, func() (Drawable, error) {
		return Circle(x, y, d, o), nil
	})
}

func (g *caseGen) line(x1, y1, x2, y2 float64, o Options) {
	g.add("line", jsCase{"line", []any{x1, y1, x2, y2}, roughOptions(o)}, func() (Drawable, error) {
		return Line(x1, y1, x2, y2, o), nil
	})
}

func (g *caseGen) pointsShape(shape string, ps []Point, o Options) {
	run := map[string]func([]Point, Options) Drawable{"linearPath": LinearPath, "polygon": Polygon, "curve": Curve}[shape]
	g.add(shape, jsCase{shape, []any{pointsArg(ps)}, roughOptions(o)}, func() (Drawable, error) {
		return run(ps, o), nil
	})
}

func (g *caseGen) path(name, d string, o Options) {
	g.add(name, jsCase{"path", []any{d}, roughOptions(o)}, func() (Drawable, error) {
		return Path(d, o)
	})
}

func (g *caseGen) arc(x, y, w, h, start, stop float64, closed bool, o Options) {
	g.add("arc", jsCase{"arc", []any{x, y, w, h, start, stop, closed}, roughOptions(o)}, func() (Drawable, error) {
		return Arc(x, y, w, h, start, stop, closed, o), nil
	})
}

// allCases is the test's cases; n scales the random ones.
func allCases(n int) []diffCase {
	g := &caseGen{r: rand.New(rand.NewPCG(48271, 2026))}

	// Fixed cases: the defaults, degenerate inputs, seeds at the edges.
	d := Defaults()
	g.rectangle("default rectangle", 10, 20, 100, 50, d)
	filled := d
	filled.Fill = true
	filled.Seed = 42
	for _, fs := range allFillStyles {
		f := filled
		f.FillStyle = fs
		g.rectangle("rectangle "+string(fs), 0, 0, 120, 80, f)
		g.ellipse("ellipse "+string(fs), 60, 40, 120, 80, f)
		g.pointsShape("polygon", []Point{{0, 0}, {100, 10}, {50, 90}}, f)
		g.pointsShape("curve", []Point{{0, 0}, {100, 10}, {50, 90}, {120, 140}}, f)
		g.path("rounded rectangle "+string(fs), roundedRectPath(200, 100, 25), f)
		g.arc(50, 50, 100, 80, 0.3, 4, true, f)
	}
	g.rectangle("zero rectangle", 5, 5, 0, 0, filled)
	g.rectangle("negative rectangle", 5, 5, -40, -30, filled)
	g.ellipse("zero ellipse", 0, 0, 0, 0, filled)
	g.pointsShape("curve", []Point{{3, 4}}, filled)
	g.pointsShape("curve", []Point{{3, 4}, {50, 60}}, filled)
	g.pointsShape("linearPath", nil, d)
	g.pointsShape("linearPath", []Point{{1, 2}}, d)
	g.pointsShape("polygon", []Point{{1, 2}}, filled)
	g.pointsShape("polygon", []Point{{1, 2}, {30, 40}}, filled)
	// Where rough.js throws.
	g.pointsShape("curve", nil, d)
	g.pointsShape("polygon", nil, filled)
	g.path("bad character", "M 0 0 X 5 5", d)
	g.path("ended short", "M 0 0 L 1", d)
	g.path("not a number", "M 0 0 L 1 Z", d)
	g.path("lone minus", "M 0 0 L - - 5", d)
	g.path("NaN", "M NaN 0 L 1 1", d)

	g.path("move only", "M 10 10", filled)
	g.path("spaces", "   ", filled)
	g.path("implicit M", "L 10 10 20 30", filled)
	g.path("literal /(ss)/g", "M0 0/(ss)/gL10 10", d)
	g.path("two sub-paths", "M0 0 L 100 0 L 100 100 Z M 200 200 l 50 0 l 0 50 z", filled)
	g.path("lone points", "M0 0 L 100 0 L 100 100 Z M 300 300", filled)
	for _, seed := range []int32{1, -1, math.MaxInt32, math.MinInt32, 0} {
		o := d
		o.Seed = seed
		o.Fill = true
		g.pointsShape("curve", []Point{{0, 0}, {50, 20}, {80, 90}}, o)
		g.rectangle("seed", 0, 0, 50, 50, o)
	}
	for _, simp := range []float64{0.5, 0.2, 0.9, -0.5} {
		o := filled
		o.Simplification = simp
		g.path("simplified", roundedRectPath(200, 100, 25), o)
	}

	// Excalidraw-like elements.
	for i := 0; i < n/4; i++ {
		w, h := math.Abs(g.size())+1, math.Abs(g.size())+1
		switch g.r.IntN(7) {
		case 0:
			g.rectangle("excalidraw rectangle", 0, 0, w, h, g.excalidrawOptions(w, h, false, false))
		case 1:
			r := math.Min(w, h) * 0.25
			if g.r.IntN(2) == 0 && math.Min(w, h) > 128 {
				r = 32
			}
			g.path("excalidraw rounded rectangle", roundedRectPath(w, h, r), g.excalidrawOptions(w, h, true, true))
		case 2:
			g.path("excalidraw rounded diamond", roundedDiamondPath(w, h), g.excalidrawOptions(w, h, true, true))
		case 3:
			o := g.excalidrawOptions(w, h, false, false)
			o.CurveFitting = 1
			g.ellipse("excalidraw ellipse", w/2, h/2, w, h, o)
		case 4:
			ps := []Point{{0, 0}}
			for k := 2 + g.r.IntN(4); k > 0; k-- {
				last := ps[len(ps)-1]
				if len(ps)%2 == 1 {
					ps = append(ps, Point{last[0] + g.size(), last[1]})
				} else {
					ps = append(ps, Point{last[0], last[1] + g.size()})
				}
			}
			o := g.excalidrawOptions(w, h, true, false)
			o.Fill = false
			g.path("excalidraw elbow arrow", elbowPath(ps), o)
		case 5:
			ps := g.points(2 + g.r.IntN(10))
			o := g.excalidrawOptions(w, h, false, true)
			if g.r.IntN(3) == 0 {
				ps = append(ps, ps[0]) // a loop, filled
			} else {
				o.Fill = false
			}
			g.pointsShape("curve", ps, o)
		default:
			ps := g.points(2 + g.r.IntN(6))
			o := g.excalidrawOptions(w, h, false, false)
			if o.Fill {
				g.pointsShape("polygon", append(ps, ps[0]), o)
			} else {
				g.pointsShape("linearPath", ps, o)
			}
			o.Roughness = math.Min(1, o.Roughness)
			g.line(ps[0][0], ps[0][1], ps[1][0], ps[1][1], o)
			c := o
			c.Fill, c.FillStyle, c.Roughness = true, Solid, math.Min(0.5, o.Roughness)
			g.circle(ps[0][0], ps[0][1], g.uniform(2, 20), c)
		}
	}

	// Random shapes with random options.
	for i := 0; i < n; i++ {
		o := g.options()
		switch g.r.IntN(11) {
		case 0, 1:
			g.rectangle("rectangle", g.coord(), g.coord(), g.size(), g.size(), o)
		case 2:
			g.ellipse("ellipse", g.coord(), g.coord(), g.size(), g.size(), o)
		case 3:
			g.circle(g.coord(), g.coord(), g.size(), o)
		case 4:
			g.line(g.coord(), g.coord(), g.coord(), g.coord(), o)
		case 5:
			g.pointsShape("linearPath", g.points(g.r.IntN(9)), o)
		case 6:
			g.pointsShape("polygon", g.points(1+g.r.IntN(9)), o)
		case 7:
			g.pointsShape("curve", g.points(1+g.r.IntN(12)), o)
		case 8:
			if g.r.IntN(3) == 0 {
				o.Simplification = g.uniform(0.05, 0.95)
			}
			g.path("random path", g.randomPath(), o)
		case 9:
			w, h := math.Abs(g.size())+2, math.Abs(g.size())+2
			if g.r.IntN(2) == 0 {
				g.path("rounded rectangle", roundedRectPath(w, h, math.Min(w, h)*0.25), o)
			} else {
				g.path("rounded diamond", roundedDiamondPath(w, h), o)
			}
		default:
			start := g.uniform(-10, 7)
			stop := start + g.pick(g.uniform(0.05, 7), 7, 2*math.Pi, 0.2)
			g.arc(g.coord(), g.coord(), g.size(), g.size(), start, stop, g.r.IntN(2) == 0, o)
		}
	}
	return g.cases
}

// requireHarness returns node and the node_modules holding roughjs and
// esbuild, or skips (fails under testenv.Strict) when one is missing.
func requireHarness(t *testing.T) (node, modules string) {
	t.Helper()
	modules = filepath.Join(restorecheck.Dir(), "node_modules")
	missing := func(why string) {
		testenv.Missing(t, why+"; install with: bash "+filepath.Join(restorecheck.Dir(), "setup.sh")+" (npm ci), or run make test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	for _, pkg := range []string{"roughjs", "esbuild"} {
		if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err != nil {
			missing(pkg + " is not installed in " + modules)
		}
	}
	return node, modules
}

func runHarness(t *testing.T, node, modules string, cases []jsCase) []jsResult {
	t.Helper()
	input, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "rough.mjs"), modules)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rough.mjs: %v\n%s", err, stderr.Bytes())
	}
	var results []jsResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("rough.mjs output: %v", err)
	}
	if len(results) != len(cases) {
		t.Fatalf("rough.mjs answered %d cases of %d", len(results), len(cases))
	}
	return results
}

// decodeSets reads the harness's sets.
func decodeSets(r jsResult) ([]Set, error) {
	kinds := map[string]SetKind{"path": SetPath, "fillPath": SetFillPath, "fillSketch": SetFillSketch}
	var sets []Set
	for _, js := range r.Sets {
		kind, ok := kinds[js.Type]
		if !ok {
			return nil, fmt.Errorf("set type %q", js.Type)
		}
		set := Set{Kind: kind, Ops: make([]Op, len(js.Ops))}
		data := js.Data
		for i, c := range js.Ops {
			op := &set.Ops[i]
			n := 2
			switch c {
			case 'm':
				op.Kind = Move
			case 'l':
				op.Kind = LineTo
			case 'c':
				op.Kind, n = CurveTo, 6
			default:
				return nil, fmt.Errorf("op %q", c)
			}
			if len(data) < n {
				return nil, fmt.Errorf("data ends early")
			}
			copy(op.Data[:], data[:n])
			data = data[n:]
		}
		if len(data) != 0 {
			return nil, fmt.Errorf("%d numbers left over", len(data))
		}
		sets = append(sets, set)
	}
	return sets, nil
}

// compareSets returns the largest deviation of got from want, or an error
// when their structure differs.
func compareSets(got, want []Set) (float64, error) {
	if len(got) != len(want) {
		return 0, fmt.Errorf("%d sets, want %d", len(got), len(want))
	}
	worst := 0.0
	for i := range want {
		g, w := got[i], want[i]
		if g.Kind != w.Kind {
			return 0, fmt.Errorf("set %d is %v, want %v", i, g.Kind, w.Kind)
		}
		if len(g.Ops) != len(w.Ops) {
			return 0, fmt.Errorf("set %d (%v) has %d ops, want %d", i, w.Kind, len(g.Ops), len(w.Ops))
		}
		for j := range w.Ops {
			if g.Ops[j].Kind != w.Ops[j].Kind {
				return 0, fmt.Errorf("set %d op %d is %v, want %v", i, j, g.Ops[j].Kind, w.Ops[j].Kind)
			}
			n := 2
			if w.Ops[j].Kind == CurveTo {
				n = 6
			}
			for k := 0; k < n; k++ {
				a, b := g.Ops[j].Data[k], w.Ops[j].Data[k]
				dev := math.Abs(a-b) / math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
				if math.IsNaN(dev) {
					return 0, fmt.Errorf("set %d op %d value %d: %v, want %v", i, j, k, a, b)
				}
				if dev > worst {
					worst = dev
				}
				if dev > tolerance {
					return worst, fmt.Errorf("set %d op %d (%v) value %d: %v, want %v", i, j, w.Ops[j].Kind, k, a, b)
				}
			}
		}
	}
	return worst, nil
}

func TestAgainstRoughJS(t *testing.T) {
	node, modules := requireHarness(t)
	n := 1500
	if testing.Short() {
		n = 400
	}
	cases := allCases(n)
	js := make([]jsCase, len(cases))
	for i, c := range cases {
		js[i] = c.js
	}
	start := time.Now()
	results := runHarness(t, node, modules, js)
	nodeTime := time.Since(start)
	start = time.Now()

	worst, ops, failures, thrown := 0.0, 0, 0, 0
	for i, c := range cases {
		got, err := c.run()
		res := results[i]
		if res.Error != "" {
			// rough.js threw: the Go call must give an error or nothing.
			thrown++
			if err == nil && len(got.Sets) > 0 {
				t.Errorf("%s: rough.js throws %q, Go returns %d sets", c.name, res.Error, len(got.Sets))
				failures++
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v (rough.js returns a result)", c.name, err)
			failures++
			continue
		}
		if res.NonFinite {
			// rough.js made NaN or ±Inf: the Go call must give nothing.
			if len(got.Sets) > 0 {
				t.Errorf("%s: rough.js makes non-finite numbers, Go returns %d sets", c.name, len(got.Sets))
				failures++
			}
			continue
		}
		want, err := decodeSets(res)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		dev, err := compareSets(got.Sets, want)
		if err != nil {
			input, _ := json.Marshal(c.js)
			t.Errorf("%s: %v\ninput: %s", c.name, err, input)
			failures++
		}
		if dev > worst {
			worst = dev
		}
		for _, s := range want {
			ops += len(s.Ops)
		}
		if failures > 10 {
			t.Fatal("too many failures")
		}
	}
	t.Logf("%d cases (%d where rough.js throws), %d ops compared, largest deviation %.3g (node %v, Go and comparison %v)",
		len(cases), thrown, ops, worst, nodeTime.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}
