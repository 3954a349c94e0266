package rough

// curve is rough's _curve: a smooth curve through points[1:len-1] made of
// cubic beziers (Catmull-Rom-like, tightened by CurveTightness), the first
// and last points only steering the ends. Three points make a single
// bezier, two a sketchy double line, fewer nothing.
func (s *state) curve(ops []Op, pts []Point) []Op {
	if s.exhausted() {
		return ops
	}
	switch n := len(pts); {
	case n > 3:
		t := 1 - s.CurveTightness
		ops = append(ops, move(pts[1][0], pts[1][1]))
		for i := 1; i+2 < n; i++ {
			prev, cur, next, after := pts[i-1], pts[i], pts[i+1], pts[i+2]
			ops = append(ops, curveTo(
				cur[0]+(float64(t*next[0])-float64(t*prev[0]))/6,
				cur[1]+(float64(t*next[1])-float64(t*prev[1]))/6,
				next[0]+(float64(t*cur[0])-float64(t*after[0]))/6,
				next[1]+(float64(t*cur[1])-float64(t*after[1]))/6,
				next[0], next[1]))
		}
	case n == 3:
		ops = append(ops,
			move(pts[1][0], pts[1][1]),
			curveTo(pts[1][0], pts[1][1], pts[2][0], pts[2][1], pts[2][0], pts[2][1]))
	case n == 2:
		ops = s.doubleLine(ops, pts[0][0], pts[0][1], pts[1][0], pts[1][1], false)
	}
	return ops
}

// curveWithOffset is rough's _curveWithOffset: the points jittered by up to
// offset, the first and last twice (each time anew), as the curve's
// guide points.
func (s *state) curveWithOffset(ops []Op, points []Point, offset float64) []Op {
	jittered := func(p Point) Point {
		x := p[0] + s.offsetOpt(offset, 1)
		y := p[1] + s.offsetOpt(offset, 1)
		return Point{x, y}
	}
	ps := make([]Point, 0, len(points)+2)
	ps = append(ps, jittered(points[0]))
	ps = append(ps, jittered(points[0]))
	for i := 1; i < len(points); i++ {
		ps = append(ps, jittered(points[i]))
		if i == len(points)-1 {
			ps = append(ps, jittered(points[i]))
		}
	}
	return s.curve(ops, ps)
}

// roughCurve is rough's renderer curve: the curve through points, and a
// second, looser one from the next seed unless multi-stroke is off.
func (s *state) roughCurve(points []Point) []Op {
	ops := s.curveWithOffset(nil, points, 1*(1+float64(s.Roughness*0.2)))
	if !s.DisableMultiStroke {
		ops = s.cloneAlterSeed().curveWithOffset(ops, points, 1.5*(1+float64(s.Roughness*0.22)))
	}
	return ops
}

// fillShape is the options of a curve's or path's solid fill: one stroke,
// rougher by FillShapeRoughnessGain (unless the roughness is 0), sharing
// the generator.
func (s *state) fillShape() *state {
	f := s.clone()
	f.DisableMultiStroke = true
	f.Roughness = 0
	if truthy(s.Roughness) {
		f.Roughness = s.Roughness + s.FillShapeRoughnessGain
	}
	return f
}

// mergedShape is rough's _mergedShape: the operations without their moves,
// but for the first, so that a fill is one closed outline.
func mergedShape(ops []Op) []Op {
	out := make([]Op, 0, len(ops))
	for i, op := range ops {
		if i == 0 || op.Kind != Move {
			out = append(out, op)
		}
	}
	return out
}

// Curve is generator.curve: a smooth sketchy curve through points
// (Excalidraw's round lines and arrows). With Fill and three or more
// points, its fill comes first. No points give an empty Drawable (rough.js
// throws).
func Curve(points []Point, o Options) Drawable {
	s := newState(o)
	if !o.finite() || !pointsFinite(points) || len(points) == 0 {
		return finish("curve", nil, s.invalid())
	}
	outline := s.roughCurve(points)
	var sets []Set
	if s.Fill && len(points) >= 3 {
		if s.FillStyle == Solid {
			fill := s.fillShape().roughCurve(points)
			sets = append(sets, Set{Kind: SetFillPath, Ops: mergedShape(fill)})
		} else {
			outlinePoints := s.bezierPoints(curveToBezier(points), 10, (1+s.Roughness)/2)
			sets = append(sets, s.patternFill([]polygon{outlinePoints}))
		}
	}
	if s.Stroke {
		sets = append(sets, Set{Kind: SetPath, Ops: outline})
	}
	return finish("curve", sets, s)
}
