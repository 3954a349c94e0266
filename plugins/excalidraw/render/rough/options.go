package rough

import "math"

// FillStyle is rough.js's fillStyle, spelled as rough.js (and Excalidraw's
// fillStyle property) spells it. An unknown style fills as Hachure, as in
// rough.js.
type FillStyle string

// The fill styles.
const (
	Hachure    FillStyle = "hachure"
	CrossHatch FillStyle = "cross-hatch"
	ZigZag     FillStyle = "zigzag"
	Solid      FillStyle = "solid"
	Dots       FillStyle = "dots"
	Dashed     FillStyle = "dashed"
	ZigZagLine FillStyle = "zigzag-line"
)

// Options are rough.js's options that shape the operations (colours, dash
// arrays and the like only matter when drawing, and are not here). Start
// from [Defaults]: the zero value is not rough's default.
type Options struct {
	// Seed seeds the random draws. rough.js takes Math.random for 0; see the
	// package documentation for what happens here instead.
	Seed int32

	Roughness           float64 // how far points stray; 0 draws true shapes
	Bowing              float64 // how much a line bows
	StrokeWidth         float64 // only used for fill defaults (hachure gap, fill weight)
	MaxRandomnessOffset float64 // the largest random offset of a point
	CurveTightness      float64 // 0 gives Catmull-Rom-like curves, 1 straight lines
	CurveFitting        float64 // how closely ellipses keep their radii (1 = exactly)
	CurveStepCount      float64 // the fewest points on an ellipse or arc

	// Fill says the shape has a fill: rough's fill option is set (for Path:
	// and is neither "none" nor "transparent").
	Fill bool
	// Stroke says the shape has an outline: rough's stroke is not "none".
	// Without it the outline is still generated (it consumes random draws)
	// but left out of the result, as in rough.js.
	Stroke bool

	FillStyle              FillStyle
	FillWeight             float64 // width of sketched fill lines; < 0: StrokeWidth / 2 (drawing only, and the dots' size)
	HachureAngle           float64 // degrees
	HachureGap             float64 // < 0: 4 × StrokeWidth
	DashOffset             float64 // dashed fill: dash length; < 0: the hachure gap
	DashGap                float64 // dashed fill: gap between dashes; < 0: the hachure gap
	ZigzagOffset           float64 // zigzag-line fill: zig size; < 0: the hachure gap
	DisableMultiStroke     bool    // one stroke instead of two for outlines
	DisableMultiStrokeFill bool    // one stroke instead of two for fill lines
	PreserveVertices       bool    // line ends stay at their points
	FillShapeRoughnessGain float64 // extra roughness of a curve's or path's solid fill
	// Simplification in (0, 1) (or below 0) makes Path stroke its flattened,
	// simplified outline instead of the path itself; 0 leaves it off.
	Simplification float64
}

// Defaults returns rough.js 4.6.4's default options (RoughGenerator's
// defaultOptions), with Stroke set: rough's default stroke is "#000".
func Defaults() Options {
	return Options{
		MaxRandomnessOffset:    2,
		Roughness:              1,
		Bowing:                 1,
		StrokeWidth:            1,
		CurveTightness:         0,
		CurveFitting:           0.95,
		CurveStepCount:         9,
		Stroke:                 true,
		FillStyle:              Hachure,
		FillWeight:             -1,
		HachureAngle:           -41,
		HachureGap:             -1,
		DashOffset:             -1,
		DashGap:                -1,
		ZigzagOffset:           -1,
		FillShapeRoughnessGain: 0.8,
	}
}

// finite reports whether every number in the options is finite.
func (o *Options) finite() bool {
	return allFinite(o.Roughness, o.Bowing, o.StrokeWidth, o.MaxRandomnessOffset,
		o.CurveTightness, o.CurveFitting, o.CurveStepCount, o.FillWeight,
		o.HachureAngle, o.HachureGap, o.DashOffset, o.DashGap, o.ZigzagOffset,
		o.FillShapeRoughnessGain, o.Simplification)
}

func allFinite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// state is rough's options object inside one call: the option values and
// the generator rough attaches to the object on its first draw. rough.js
// copies the object (Object.assign) in places; a copy shares the generator
// if the original had one by then, and otherwise makes its own later, and
// clone reproduces exactly that.
type state struct {
	Options
	rng  *lcg
	call *call
}

// call is what one top-level call shares among all its option copies.
type call struct {
	fallback *lcg // stands in for Math.random
	work     int  // what is left of the work allowance (see limits.go)
}

func newState(o Options) *state {
	return &state{Options: o, call: &call{fallback: &lcg{state: fallbackSeed}, work: maxWork}}
}

// clone is rough's Object.assign({}, o).
func (s *state) clone() *state {
	c := *s
	return &c
}

// cloneAlterSeed is rough's cloneOptionsAlterSeed, used for a curve's
// second stroke: no generator yet, and the seed one higher (unless 0).
func (s *state) cloneAlterSeed() *state {
	c := *s
	c.rng = nil
	if c.Seed != 0 {
		c.Seed++ // wraps at 2^31 - 1 as Math.imul's int32 conversion does
	}
	return &c
}

// mathRandom is a draw rough.js takes from Math.random.
func (s *state) mathRandom() float64 {
	return s.call.fallback.next(nil)
}

// truthy is JavaScript's truthiness of a number.
func truthy(x float64) bool { return x != 0 && !math.IsNaN(x) }

// or is JavaScript's x || fallback for numbers.
func or(x, fallback float64) float64 {
	if truthy(x) {
		return x
	}
	return fallback
}
