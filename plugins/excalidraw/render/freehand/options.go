package freehand

import "math"

// Options are perfect-freehand's stroke options. Unlike the library, whose
// missing options take defaults, every field is used as given (Size 0
// means no outline); DefaultOptions returns the library's defaults.
type Options struct {
	// Size is the stroke's nominal diameter.
	Size float64
	// Thinning is how much pressure narrows the stroke: the radius is
	// Size·Easing(0.5 - Thinning·(0.5 - pressure)). With 0 (or NaN) the
	// radius is Size/2 throughout.
	Thinning float64
	// Smoothing is the share of Size that the outline's consecutive side
	// points must be apart.
	Smoothing float64
	// Streamline is how far each input point is pulled towards the
	// previous stroke point (0: not at all, 1: most).
	Streamline float64
	// Easing maps the thinned pressure to a radius factor; nil is the
	// identity.
	Easing func(float64) float64
	// SimulatePressure derives pressure from the speed of the stroke
	// instead of the input pressures.
	SimulatePressure bool
	// Last says the input is complete: its last point is used as is,
	// not pulled by Streamline, and a one-point stroke is a dot even
	// when tapered.
	Last bool
	// Start and End shape the stroke's two tips.
	Start, End Tip
}

// Tip is the shape of one end of a stroke: perfect-freehand's start and
// end options.
type Tip struct {
	// Taper is the length over which the stroke narrows to this end
	// (0: no taper). Any value but 0 or NaN also removes the cap.
	Taper float64
	// TaperAll tapers over the whole stroke (the library's taper: true):
	// max(Size, the stroke's length). It overrides Taper.
	TaperAll bool
	// NoCap ends the stroke square rather than round (cap: false).
	NoCap bool
	// Easing shapes the taper; nil is the library's default, t·(2-t) at
	// the start and (t-1)³+1 at the end.
	Easing func(float64) float64
}

// DefaultOptions are the options perfect-freehand uses when given none.
func DefaultOptions() Options {
	return Options{Size: 16, Thinning: 0.5, Smoothing: 0.5, Streamline: 0.5, SimulatePressure: true}
}

// truthy is JavaScript's truth of a number: neither 0 nor NaN.
func truthy(x float64) bool { return x != 0 && !math.IsNaN(x) }

func identity(t float64) float64 { return t }

// easeOutQuad is the default easing of a start taper.
func easeOutQuad(t float64) float64 { return t * (2 - t) }

// easeOutCubic is the default easing of an end taper.
func easeOutCubic(t float64) float64 {
	t--
	return float64(t*t*t) + 1
}

// taperLength is the tip's taper length for a stroke of the given length.
func (tp Tip) taperLength(size, length float64) float64 {
	if tp.TaperAll {
		return math.Max(size, length)
	}
	return tp.Taper
}
