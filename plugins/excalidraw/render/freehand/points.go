package freehand

import "math"

// StrokePoint is one point of the stroke's spine: perfect-freehand's
// getStrokePoints result, before the outline is drawn around it.
type StrokePoint struct {
	// Point is where the spine passes, after streamlining.
	Point [2]float64
	// Pressure is the input pressure (0.25 for a missing first one,
	// 0.5 for another missing one).
	Pressure float64
	// Vector is the unit direction from this point back to the previous
	// one; the first point takes the second's.
	Vector [2]float64
	// Distance is the length from the previous point, RunningLength the
	// length of the spine up to here.
	Distance, RunningLength float64
}

// missing reports a pressure that is not given: perfect-freehand treats
// anything that is not >= 0 (undefined, NaN, negative) as absent.
func missing(p float64) bool { return !(p >= 0) }

// StrokePoints is perfect-freehand's getStrokePoints: the input points
// (x, y, pressure; a pressure that is negative or NaN counts as not
// given) streamlined into the stroke's spine. Only Streamline, Size and
// Last are used.
func StrokePoints(input [][3]float64, o Options) []StrokePoint {
	if len(input) == 0 {
		return nil
	}
	nan := math.NaN()
	pts := input
	switch len(pts) {
	case 1:
		// A dot: a second point one unit down and right, same pressure.
		p := pts[0]
		pts = [][3]float64{p, {p[0] + 1, p[1] + 1, p[2]}}
	case 2:
		// Four points evenly from the first to the second, which lose
		// their pressures.
		a, b := vec{pts[0][0], pts[0][1]}, vec{pts[1][0], pts[1][1]}
		spread := [][3]float64{pts[0]}
		for i := 1; i < 5; i++ {
			q := lerp(a, b, float64(i)/4)
			spread = append(spread, [3]float64{q[0], q[1], nan})
		}
		pts = spread
	}

	pull := 0.15 + float64((1-o.Streamline)*0.85)
	first := StrokePoint{Point: vec{pts[0][0], pts[0][1]}, Pressure: pts[0][2], Vector: vec{1, 1}}
	if missing(first.Pressure) {
		first.Pressure = 0.25
	}
	out := make([]StrokePoint, 1, len(pts))
	out[0] = first
	prev := first
	length := 0.0
	longEnough := false
	last := len(pts) - 1
	for i := 1; i < len(pts); i++ {
		in := vec{pts[i][0], pts[i][1]}
		p := in
		if !o.Last || i != last {
			p = lerp(prev.Point, in, pull)
		}
		if p == prev.Point {
			continue
		}
		d := dist(p, prev.Point)
		length += d
		// Until the spine is Size long, only the last point is kept.
		if i < last && !longEnough {
			if length < o.Size {
				continue
			}
			longEnough = true
		}
		pressure := pts[i][2]
		if missing(pressure) {
			pressure = 0.5
		}
		prev = StrokePoint{Point: p, Pressure: pressure, Vector: unit(sub(prev.Point, p)), Distance: d, RunningLength: length}
		out = append(out, prev)
	}
	if len(out) > 1 {
		out[0].Vector = out[1].Vector
	} else {
		out[0].Vector = vec{}
	}
	return out
}
