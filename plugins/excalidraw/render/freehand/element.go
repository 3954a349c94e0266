package freehand

import (
	"math"

	"github.com/dshgo/dsh/internal/jsmath"
)

// Element is what Excalidraw reads of a freedraw element to outline it.
type Element struct {
	// Points are the element's points, relative to its x and y.
	Points [][2]float64
	// Pressures are the pen pressures, one per point; a missing one (the
	// slice is shorter) or a NaN counts as not given.
	Pressures []float64
	// SimulatePressure ignores Pressures and derives pressure from speed.
	SimulatePressure bool
	// StrokeWidth is the element's strokeWidth.
	StrokeWidth float64
	// LastCommitted says lastCommittedPoint is set (not null): the stroke
	// is complete. Excalidraw sets it when the pointer lifts, and restore
	// (every scene load) resets it to null.
	LastCommitted bool
}

// SineEasing is the pressure easing Excalidraw gives perfect-freehand:
// easeOutSine, sin(t·π/2).
func SineEasing(t float64) float64 { return jsmath.Sin(t * math.Pi / 2) }

// ExcalidrawOptions are the stroke options Excalidraw 0.18.1 uses for a
// freedraw element (getFreeDrawSvgPath): a size of 4.25 strokeWidths,
// thinning 0.6, smoothing and streamline 0.5, easeOutSine, round caps and
// no tapers.
func ExcalidrawOptions(e Element) Options {
	return Options{
		Size:             e.StrokeWidth * 4.25,
		Thinning:         0.6,
		Smoothing:        0.5,
		Streamline:       0.5,
		Easing:           SineEasing,
		SimulatePressure: e.SimulatePressure,
		Last:             e.LastCommitted,
	}
}

// Input is the list of points Excalidraw hands perfect-freehand for the
// element: the points alone when pressure is simulated, otherwise each
// point with its pressure, and a single point (0, 0) at pressure 0.5 for
// an element without points.
func (e Element) Input() [][3]float64 {
	nan := math.NaN()
	if !e.SimulatePressure && len(e.Points) == 0 {
		return [][3]float64{{0, 0, 0.5}}
	}
	in := make([][3]float64, len(e.Points))
	for i, p := range e.Points {
		pressure := nan
		if !e.SimulatePressure && i < len(e.Pressures) {
			pressure = e.Pressures[i]
		}
		in[i] = [3]float64{p[0], p[1], pressure}
	}
	return in
}

// Outline is the polygon Excalidraw fills for a freedraw element, in the
// element's coordinates.
func Outline(e Element) [][2]float64 {
	return Stroke(e.Input(), ExcalidrawOptions(e))
}
