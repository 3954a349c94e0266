package rough

import "slices"

// polygon is a list of points the fillers may move. rough.js's hachure
// filler rotates the polygons it fills in place and back again, which
// leaves the points off by an ulp or so; whatever uses them next (the
// second pass of a cross-hatch, the simplified outline of a path) sees the
// moved points. Points are pointers because rough.js can list one point
// object twice in a polygon, and then rotates it twice.
type polygon []*Point

// newPolygon copies points into a polygon of its own.
func newPolygon(points []Point) polygon {
	vs := make([]Point, len(points))
	copy(vs, points)
	p := make(polygon, len(points))
	for i := range vs {
		p[i] = &vs[i]
	}
	return p
}

// solidFill is rough's solidFillPolygon: each polygon of more than two
// points as a move and lines, every point jittered by up to the
// maxRandomnessOffset.
func (s *state) solidFill(polys []polygon) Set {
	var ops []Op
	for _, points := range polys {
		if len(points) <= 2 {
			continue
		}
		offset := or(s.MaxRandomnessOffset, 0)
		for i, p := range points {
			x := p[0] + s.offsetOpt(offset, 1)
			y := p[1] + s.offsetOpt(offset, 1)
			if i == 0 {
				ops = append(ops, move(x, y))
			} else {
				ops = append(ops, lineTo(x, y))
			}
		}
	}
	return Set{Kind: SetFillPath, Ops: ops}
}

// patternFill is rough's patternFillPolygons: the fill style's filler.
func (s *state) patternFill(polys []polygon) Set {
	var ops []Op
	if s.exhausted() {
		return Set{Kind: SetFillSketch}
	}
	switch s.FillStyle {
	case ZigZag:
		ops = s.zigzagFill(polys)
	case CrossHatch:
		ops = s.crossHatchFill(polys)
	case Dots:
		ops = s.dotsFill(polys)
	case Dashed:
		ops = s.dashedFill(polys)
	case ZigZagLine:
		ops = s.zigzagLineFill(polys)
	default:
		ops = s.hachureFill(polys)
	}
	return Set{Kind: SetFillSketch, Ops: ops}
}

// strokeLines is the hachure filler's renderLines: a double line (as a
// fill line) along each segment.
func (s *state) strokeLines(ops []Op, lines []segment) []Op {
	ops = slices.Grow(ops, 4*len(lines)) // two sketchy lines of a move and a curve each
	for _, l := range lines {
		ops = s.doubleLine(ops, l[0][0], l[0][1], l[1][0], l[1][1], true)
	}
	return ops
}

// hachureFill is the "hachure" style: parallel lines.
func (s *state) hachureFill(polys []polygon) []Op {
	return s.strokeLines(nil, s.hachureSegments(polys))
}

// crossHatchFill is the "cross-hatch" style: hachure, then hachure again
// at a right angle over the polygons the first pass left rotated there and
// back.
func (s *state) crossHatchFill(polys []polygon) []Op {
	ops := s.hachureFill(polys)
	s2 := s.clone()
	s2.HachureAngle = s.HachureAngle + 90
	return append(ops, s2.hachureFill(polys)...)
}
