package rough

import (
	"math"

	"github.com/dshgo/dsh/internal/jsmath"
)

// ellipseParams is rough's generateEllipseParams: the angle step and the
// radii, jittered unless CurveFitting is 1.
type ellipseParams struct {
	increment, rx, ry float64
}

func (s *state) ellipseParams(width, height float64) ellipseParams {
	hw, hh := width/2, height/2
	psq := math.Sqrt(float64(jsmath.PI*2) * math.Sqrt((float64(hw*hw)+float64(hh*hh))/2))
	steps := math.Ceil(math.Max(s.CurveStepCount, float64(s.CurveStepCount/math.Sqrt(200))*psq))
	increment := (jsmath.PI * 2) / steps
	rx, ry := math.Abs(width/2), math.Abs(height/2)
	loose := 1 - s.CurveFitting
	rx += s.offsetOpt(rx*loose, 1)
	ry += s.offsetOpt(ry*loose, 1)
	return ellipseParams{increment, rx, ry}
}

// ellipseStrokes is rough's ellipseWithParams: the outline (two strokes
// unless multi-stroke is off or the roughness is 0) and the points on the
// first stroke, which the pattern fills use as the ellipse's polygon.
func (s *state) ellipseStrokes(cx, cy float64, p ellipseParams) ([]Op, polygon) {
	overlap := p.increment * s.offset(0.1, s.offset(0.4, 1, 1), 1)
	all, core := s.ellipsePoints(p.increment, cx, cy, p.rx, p.ry, 1, overlap)
	ops := s.curve(nil, all)
	if !s.DisableMultiStroke && s.Roughness != 0 {
		all2, _ := s.ellipsePoints(p.increment, cx, cy, p.rx, p.ry, 1.5, 0)
		ops = s.curve(ops, all2)
	}
	return ops, core
}

// ellipse is rough's renderer-level ellipse (the dots filler's dot).
func (s *state) ellipse(cx, cy, width, height float64) []Op {
	ops, _ := s.ellipseStrokes(cx, cy, s.ellipseParams(width, height))
	return ops
}

// ellipsePoints is rough's _computeEllipsePoints: the points a curve is
// fitted through, all of them (with the overlapping ones that close the
// loop) and the core ones on the ellipse itself. With roughness 0 they are
// exact, four times as many, and no draws are made.
func (s *state) ellipsePoints(increment, cx, cy, rx, ry, offset, overlap float64) (all []Point, core polygon) {
	at := func(radius, r, angle float64, trig func(float64) float64) float64 {
		return float64(float64(radius*r) * trig(angle))
	}
	if s.Roughness == 0 {
		increment /= 4
		if !s.affords(jsmath.PI*2, increment) {
			return nil, nil
		}
		all = append(all, Point{cx + float64(rx*jsmath.Cos(-increment)), cy + float64(ry*jsmath.Sin(-increment))})
		for angle := 0.0; angle <= jsmath.PI*2; angle += increment {
			if !s.spend(1) {
				break
			}
			p := &Point{cx + float64(rx*jsmath.Cos(angle)), cy + float64(ry*jsmath.Sin(angle))}
			core = append(core, p)
			all = append(all, *p)
		}
		all = append(all,
			Point{cx + float64(rx*jsmath.Cos(0)), cy + float64(ry*jsmath.Sin(0))},
			Point{cx + float64(rx*jsmath.Cos(increment)), cy + float64(ry*jsmath.Sin(increment))})
		return all, core
	}
	jitter := func() float64 { return s.offsetOpt(offset, 1) }
	radOffset := s.offsetOpt(0.5, 1) - jsmath.PI/2
	x := jitter() + cx + at(0.9, rx, radOffset-increment, jsmath.Cos)
	y := jitter() + cy + at(0.9, ry, radOffset-increment, jsmath.Sin)
	all = append(all, Point{x, y})
	end := jsmath.PI*2 + radOffset - 0.01
	if !s.affords(end-radOffset, increment) {
		return nil, nil
	}
	for angle := radOffset; angle < end; angle += increment {
		if !s.spend(1) {
			break
		}
		x := jitter() + cx + float64(rx*jsmath.Cos(angle))
		y := jitter() + cy + float64(ry*jsmath.Sin(angle))
		p := &Point{x, y}
		core = append(core, p)
		all = append(all, *p)
	}
	closing := []struct{ scale, angle float64 }{
		{1, radOffset + jsmath.PI*2 + overlap*0.5},
		{0.98, radOffset + overlap},
		{0.9, radOffset + overlap*0.5},
	}
	for _, c := range closing {
		var x, y float64
		if c.scale == 1 {
			x = jitter() + cx + float64(rx*jsmath.Cos(c.angle))
			y = jitter() + cy + float64(ry*jsmath.Sin(c.angle))
		} else {
			x = jitter() + cx + at(c.scale, rx, c.angle, jsmath.Cos)
			y = jitter() + cy + at(c.scale, ry, c.angle, jsmath.Sin)
		}
		all = append(all, Point{x, y})
	}
	return all, core
}

// Ellipse is generator.ellipse: the ellipse centred at (cx, cy) with the
// given width and height, with its fill (when Fill is set) before it.
func Ellipse(cx, cy, width, height float64, o Options) Drawable {
	return ellipseShape("ellipse", cx, cy, width, height, o)
}

// Circle is generator.circle: the ellipse with both sizes the diameter.
func Circle(cx, cy, diameter float64, o Options) Drawable {
	return ellipseShape("circle", cx, cy, diameter, diameter, o)
}

func ellipseShape(shape string, cx, cy, width, height float64, o Options) Drawable {
	s := newState(o)
	if !o.finite() || !allFinite(cx, cy, width, height) {
		return finish(shape, nil, s.invalid())
	}
	params := s.ellipseParams(width, height)
	outline, core := s.ellipseStrokes(cx, cy, params)
	var sets []Set
	if s.Fill {
		if s.FillStyle == Solid {
			// The fill is the outline drawn again, with the next draws.
			fill, _ := s.ellipseStrokes(cx, cy, params)
			sets = append(sets, Set{Kind: SetFillPath, Ops: fill})
		} else {
			sets = append(sets, s.patternFill([]polygon{core}))
		}
	}
	if s.Stroke {
		sets = append(sets, Set{Kind: SetPath, Ops: outline})
	}
	return finish(shape, sets, s)
}
