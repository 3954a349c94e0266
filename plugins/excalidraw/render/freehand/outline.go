package freehand

import "math"

// pressureRate is how fast simulated pressure follows the stroke's speed.
const pressureRate = 0.275

// Angles of the round caps and corners: a hair over π, so that the
// half-turns overlap rather than leave a seam. Computed at run time in
// float64, as the library does (a Go constant expression would round once,
// not twice).
var (
	pi      = math.Pi
	fixedPi = pi + 1e-4
)

// radiusFor is the library's getStrokeRadius.
func radiusFor(size, thinning, pressure float64, easing func(float64) float64) float64 {
	return size * easing(0.5-float64(thinning*(0.5-pressure)))
}

// simulated is the pressure perfect-freehand makes up for a point
// distance away from the previous one, given the previous pressure: fast
// (long) moves press less.
func simulated(prev, distance, size float64) float64 {
	speed := math.Min(1, distance/size)
	target := math.Min(1, 1-speed)
	return math.Min(1, prev+float64((target-prev)*float64(speed*pressureRate)))
}

// Stroke is perfect-freehand's getStroke: the closed outline polygon of a
// stroke through the input points (x, y, pressure; a pressure that is
// negative or NaN counts as not given). Nil for no points or Size <= 0.
func Stroke(points [][3]float64, o Options) [][2]float64 {
	return OutlinePoints(StrokePoints(points, o), o)
}

// OutlinePoints is perfect-freehand's getStrokeOutlinePoints: the outline
// polygon around a spine made by StrokePoints — the left side, the end
// cap, the right side backwards and the start cap.
func OutlinePoints(points []StrokePoint, o Options) [][2]float64 {
	if len(points) == 0 || o.Size <= 0 {
		return nil
	}
	size := o.Size
	easing := o.Easing
	if easing == nil {
		easing = identity
	}
	startEase, endEase := o.Start.Easing, o.End.Easing
	if startEase == nil {
		startEase = easeOutQuad
	}
	if endEase == nil {
		endEase = easeOutCubic
	}
	n := len(points)
	total := points[n-1].RunningLength
	taperStart := o.Start.taperLength(size, total)
	taperEnd := o.End.taperLength(size, total)
	minDist2 := float64(size*o.Smoothing) * float64(size*o.Smoothing)

	// The starting pressure: a running blend over the first ten points,
	// so that a stroke does not begin with a blob.
	prevPressure := points[0].Pressure
	for _, p := range points[:min(n, 10)] {
		pressure := p.Pressure
		if o.SimulatePressure {
			pressure = simulated(prevPressure, p.Distance, size)
		}
		prevPressure = (prevPressure + pressure) / 2
	}

	var left, right [][2]float64
	radius := radiusFor(size, o.Thinning, points[n-1].Pressure, easing)
	firstRadius, haveFirst := 0.0, false
	prevVector := points[0].Vector
	prevLeft, prevRight := points[0].Point, points[0].Point
	var tipLeft, tipRight vec
	prevWasCorner := false

	for i, p := range points {
		// The spine's last 3 units are drawn by its last point alone.
		if i < n-1 && total-p.RunningLength < 3 {
			continue
		}
		pressure := p.Pressure
		if truthy(o.Thinning) {
			if o.SimulatePressure {
				pressure = simulated(prevPressure, p.Distance, size)
			}
			radius = radiusFor(size, o.Thinning, pressure, easing)
		} else {
			radius = size / 2
		}
		if !haveFirst {
			firstRadius, haveFirst = radius, true
		}
		taper := 1.0
		if p.RunningLength < taperStart {
			taper = startEase(p.RunningLength / taperStart)
		}
		endTaper := 1.0
		if total-p.RunningLength < taperEnd {
			endTaper = endEase((total - p.RunningLength) / taperEnd)
		}
		radius = math.Max(0.01, radius*math.Min(taper, endTaper))

		nextVector := points[min(i+1, n-1)].Vector
		nextDot := 1.0
		if i < n-1 {
			nextDot = dot(p.Vector, nextVector)
		}
		corner := dot(p.Vector, prevVector) < 0 && !prevWasCorner
		cornerNext := nextDot < 0

		if corner || cornerNext {
			// A sharp turn: a half-turn of points around it on each side.
			offset := scale(perp(prevVector), radius)
			step := 1.0 / 13
			for t := 0.0; t <= 1; t += step {
				tipLeft = rotate(sub(p.Point, offset), p.Point, fixedPi*t)
				left = append(left, tipLeft)
				tipRight = rotate(add(p.Point, offset), p.Point, fixedPi*-t)
				right = append(right, tipRight)
			}
			prevLeft, prevRight = tipLeft, tipRight
			if cornerNext {
				prevWasCorner = true
			}
			continue
		}
		prevWasCorner = false

		if i == n-1 {
			offset := scale(perp(p.Vector), radius)
			left = append(left, sub(p.Point, offset))
			right = append(right, add(p.Point, offset))
			continue
		}

		// Offset along the normal of the direction blended towards the
		// next one; side points closer than Smoothing·Size to the last
		// kept one are dropped (after the first two).
		offset := scale(perp(lerp(nextVector, p.Vector, nextDot)), radius)
		tipLeft = sub(p.Point, offset)
		if i <= 1 || dist2(prevLeft, tipLeft) > minDist2 {
			left = append(left, tipLeft)
			prevLeft = tipLeft
		}
		tipRight = add(p.Point, offset)
		if i <= 1 || dist2(prevRight, tipRight) > minDist2 {
			right = append(right, tipRight)
			prevRight = tipRight
		}
		prevPressure = pressure
		prevVector = p.Vector
	}

	firstPoint := points[0].Point
	lastPoint := add(points[0].Point, vec{1, 1})
	if n > 1 {
		lastPoint = points[n-1].Point
	}

	if n == 1 {
		// A dot: a full turn of points around the only point.
		if !(truthy(taperStart) || truthy(taperEnd)) || o.Last {
			r := firstRadius
			if !truthy(r) {
				r = radius
			}
			start := project(firstPoint, unit(perp(sub(firstPoint, lastPoint))), -r)
			step := 1.0 / 13
			dots := make([][2]float64, 0, 13)
			for t := step; t <= 1; t += step {
				dots = append(dots, rotate(start, firstPoint, fixedPi*2*t))
			}
			return dots
		}
		return appendReversed(left, right)
	}

	var startCap, endCap [][2]float64
	switch {
	case truthy(taperStart):
		// A tapered start closes on its own.
	case !o.Start.NoCap:
		step := 1.0 / 13
		for t := step; t <= 1; t += step {
			startCap = append(startCap, rotate(right[0], firstPoint, fixedPi*t))
		}
	default:
		across := sub(left[0], right[0])
		a, b := scale(across, 0.5), scale(across, 0.51)
		startCap = append(startCap, sub(firstPoint, a), sub(firstPoint, b), add(firstPoint, b), add(firstPoint, a))
	}

	direction := perp(neg(points[n-1].Vector))
	switch {
	case truthy(taperEnd):
		endCap = append(endCap, lastPoint)
	case !o.End.NoCap:
		start := project(lastPoint, direction, radius)
		step := 1.0 / 29
		for t := step; t < 1; t += step {
			endCap = append(endCap, rotate(start, lastPoint, fixedPi*3*t))
		}
	default:
		endCap = append(endCap,
			add(lastPoint, scale(direction, radius)),
			add(lastPoint, scale(direction, radius*0.99)),
			sub(lastPoint, scale(direction, radius*0.99)),
			sub(lastPoint, scale(direction, radius)))
	}

	out := make([][2]float64, 0, len(left)+len(endCap)+len(right)+len(startCap))
	out = append(out, left...)
	out = append(out, endCap...)
	out = appendReversed(out, right)
	return append(out, startCap...)
}

// appendReversed appends s to dst last element first.
func appendReversed(dst, s [][2]float64) [][2]float64 {
	for i := len(s) - 1; i >= 0; i-- {
		dst = append(dst, s[i])
	}
	return dst
}
