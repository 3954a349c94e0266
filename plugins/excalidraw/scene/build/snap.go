package build

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// searchSteps is how many halvings the searches below make; 64 takes any
// interval in drawing range down to far below a floating-point ulp of it.
const searchSteps = 64

// halo is the region within gap of a convex outline (the outline grown by
// gap in every direction; convex too). Arrow ends bound to a shape sit on
// its halo's boundary: just outside the stroke, as in the editor.
type halo struct {
	poly []geom.Vec
	gap  float64
}

// excess is how far p lies outside the halo (negative inside).
func (h halo) excess(p geom.Vec) float64 { return geom.PolygonDistance(h.poly, p) - h.gap }

// contains reports whether p is inside the halo or on its boundary.
func (h halo) contains(p geom.Vec) bool { return h.excess(p) <= 0 }

// exit walks from a point inside the halo along dir (a unit vector) and
// returns where it leaves the halo.
func (h halo) exit(from, dir geom.Vec) geom.Vec {
	hi := 1.0
	for i := 0; i < 80 && !(h.excess(from.Add(dir.Scale(hi))) > 0); i++ {
		hi *= 2
	}
	lo := 0.0
	for range searchSteps {
		mid := (lo + hi) / 2
		if h.excess(from.Add(dir.Scale(mid))) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return from.Add(dir.Scale(hi))
}

// enter walks from a point outside the halo along dir (a unit vector), at
// most reach far, and returns where it first touches the halo. The excess
// along a line is convex (the halo is convex), so a ternary search finds
// the closest approach and a bisection the crossing before it.
func (h halo) enter(from, dir geom.Vec, reach float64) (geom.Vec, bool) {
	at := func(t float64) float64 { return h.excess(from.Add(dir.Scale(t))) }
	lo, hi := 0.0, reach
	for range searchSteps {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		if at(m1) <= at(m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	closest := (lo + hi) / 2
	if at(closest) > 0 {
		return geom.Vec{}, false
	}
	lo, hi = 0, closest
	for range searchSteps {
		mid := (lo + hi) / 2
		if at(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return from.Add(dir.Scale(hi)), true
}

// reachFor bounds a search from p across a shape: past its far side from
// anywhere the search starts.
func reachFor(poly []geom.Vec, p geom.Vec, gap float64) float64 {
	far := 0.0
	for _, q := range poly {
		far = math.Max(far, q.Dist(p))
	}
	return far + 2*gap + 1
}
