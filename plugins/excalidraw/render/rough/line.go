package rough

import "math"

// Point is a point as rough.js takes them: x, y.
type Point [2]float64

// sketchLine is rough's _line: one sketchy stroke from (x1, y1) to (x2, y2),
// a move to its jittered start and a cubic bezier whose controls bow off
// the segment. The overlay stroke, the second of a double line, strays half
// as far. Draws happen in rough's order.
func (s *state) sketchLine(ops []Op, x1, y1, x2, y2 float64, overlay bool) []Op {
	dx, dy := x1-x2, y1-y2
	lengthSq := float64(dx*dx) + float64(dy*dy)
	length := math.Sqrt(lengthSq)
	// Long lines stray less.
	gain := 1.0
	if length > 500 {
		gain = 0.4
	} else if length >= 200 {
		gain = float64(-0.0016668*length) + 1.233334
	}
	offset := or(s.MaxRandomnessOffset, 0)
	if offset*offset*100 > lengthSq {
		offset = length / 10
	}
	half := offset / 2
	diverge := 0.2 + float64(s.random()*0.2)
	midX := s.Bowing * s.MaxRandomnessOffset * (y2 - y1) / 200
	midY := s.Bowing * s.MaxRandomnessOffset * (x1 - x2) / 200
	midX = s.offsetOpt(midX, gain)
	midY = s.offsetOpt(midY, gain)

	reach := offset
	if overlay {
		reach = half
	}
	// vertex is the jitter of the ends, none when vertices are preserved.
	vertex := func(v float64) float64 {
		if s.PreserveVertices {
			return v + 0
		}
		return v + s.offsetOpt(reach, gain)
	}

	mx := vertex(x1)
	my := vertex(y1)
	ops = append(ops, move(mx, my))

	c1x := midX + x1 + float64((x2-x1)*diverge) + s.offsetOpt(reach, gain)
	c1y := midY + y1 + float64((y2-y1)*diverge) + s.offsetOpt(reach, gain)
	c2x := midX + x1 + float64(2*(x2-x1)*diverge) + s.offsetOpt(reach, gain)
	c2y := midY + y1 + float64(2*(y2-y1)*diverge) + s.offsetOpt(reach, gain)
	ex := vertex(x2)
	ey := vertex(y2)
	return append(ops, curveTo(c1x, c1y, c2x, c2y, ex, ey))
}

// doubleLine is rough's _doubleLine: a sketchy line drawn twice, or once
// when multi-stroke is off (for outlines, or for fill lines when filling).
func (s *state) doubleLine(ops []Op, x1, y1, x2, y2 float64, filling bool) []Op {
	ops = s.sketchLine(ops, x1, y1, x2, y2, false)
	single := s.DisableMultiStroke
	if filling {
		single = s.DisableMultiStrokeFill
	}
	if single {
		return ops
	}
	return s.sketchLine(ops, x1, y1, x2, y2, true)
}

// linearPath is rough's linearPath: double lines between consecutive
// points, and back to the first when closed. Two points make one line
// (never closed), fewer make nothing.
func (s *state) linearPath(points []Point, closed bool) Set {
	ops := make([]Op, 0, 4*len(points))
	switch n := len(points); {
	case n > 2:
		for i := 0; i < n-1; i++ {
			ops = s.doubleLine(ops, points[i][0], points[i][1], points[i+1][0], points[i+1][1], false)
		}
		if closed {
			ops = s.doubleLine(ops, points[n-1][0], points[n-1][1], points[0][0], points[0][1], false)
		}
	case n == 2:
		ops = s.doubleLine(ops, points[0][0], points[0][1], points[1][0], points[1][1], false)
	}
	return Set{Kind: SetPath, Ops: ops}
}

// Line is generator.line: a sketchy line from (x1, y1) to (x2, y2).
func Line(x1, y1, x2, y2 float64, o Options) Drawable {
	s := newState(o)
	if !o.finite() || !allFinite(x1, y1, x2, y2) {
		return finish("line", nil, s.invalid())
	}
	return finish("line", []Set{{Kind: SetPath, Ops: s.doubleLine(nil, x1, y1, x2, y2, false)}}, s)
}

// LinearPath is generator.linearPath: an open polyline through points.
func LinearPath(points []Point, o Options) Drawable {
	s := newState(o)
	if !o.finite() || !pointsFinite(points) {
		return finish("linearPath", nil, s.invalid())
	}
	return finish("linearPath", []Set{s.linearPath(points, false)}, s)
}

// Polygon is generator.polygon: a closed polyline through points, with its
// fill (when Fill is set) before it.
func Polygon(points []Point, o Options) Drawable {
	s := newState(o)
	if !o.finite() || !pointsFinite(points) || (len(points) == 0 && o.Fill && o.FillStyle != Solid) {
		// rough.js throws on the pattern fill of no points.
		return finish("polygon", nil, s.invalid())
	}
	outline := s.linearPath(points, true)
	return finish("polygon", s.withFill(outline, points), s)
}

// Rectangle is generator.rectangle: the polygon (x, y), (x+width, y),
// (x+width, y+height), (x, y+height). Width and height may be negative.
func Rectangle(x, y, width, height float64, o Options) Drawable {
	s := newState(o)
	if !o.finite() || !allFinite(x, y, width, height) {
		return finish("rectangle", nil, s.invalid())
	}
	corners := []Point{{x, y}, {x + width, y}, {x + width, y + height}, {x, y + height}}
	outline := s.linearPath(corners, true)
	return finish("rectangle", s.withFill(outline, corners), s)
}

// withFill is the sets of a polygon-like shape whose outline is already
// made: the fill of points (solid or a pattern) when Fill is set, then the
// outline when Stroke is set.
func (s *state) withFill(outline Set, points []Point) []Set {
	var sets []Set
	if s.Fill {
		if s.FillStyle == Solid {
			sets = append(sets, s.solidFill([]polygon{newPolygon(points)}))
		} else {
			sets = append(sets, s.patternFill([]polygon{newPolygon(points)}))
		}
	}
	if s.Stroke {
		sets = append(sets, outline)
	}
	return sets
}

func pointsFinite(points []Point) bool {
	for _, p := range points {
		if !allFinite(p[0], p[1]) {
			return false
		}
	}
	return true
}

// invalid marks the call as producing nothing: its input has a number
// rough.js would turn into NaN.
func (s *state) invalid() *state {
	s.call.work = -1
	return s
}
