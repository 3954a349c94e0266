package rough

import (
	"math"

	"github.com/dshgo/dsh/internal/jsmath"
)

// arcFrame is an arc's jittered radii and its angles normalized as rough
// does: the start made non-negative by whole turns, and a span of more than
// a turn made exactly one turn from 0.
func (s *state) arcFrame(width, height, start, stop float64) (rx, ry, from, to float64) {
	rx, ry = math.Abs(width/2), math.Abs(height/2)
	rx += s.offsetOpt(rx*0.01, 1)
	ry += s.offsetOpt(ry*0.01, 1)
	from, to = start, stop
	if from < 0 && !s.affords(-from, jsmath.PI*2) {
		return rx, ry, from, to
	}
	for from < 0 {
		if !s.spend(1) {
			break
		}
		from += jsmath.PI * 2
		to += jsmath.PI * 2
	}
	if to-from > jsmath.PI*2 {
		from, to = 0, jsmath.PI*2
	}
	return rx, ry, from, to
}

// arcStroke is rough's _arc: one stroke of the arc as a curve through
// jittered points every increment.
func (s *state) arcStroke(ops []Op, increment, cx, cy, rx, ry, from, to, offset float64) []Op {
	jitter := func() float64 { return s.offsetOpt(offset, 1) }
	radOffset := from + s.offsetOpt(0.1, 1)
	x := jitter() + cx + float64(0.9*rx*jsmath.Cos(radOffset-increment))
	y := jitter() + cy + float64(0.9*ry*jsmath.Sin(radOffset-increment))
	points := []Point{{x, y}}
	if !s.affords(to-radOffset, increment) {
		return ops
	}
	for angle := radOffset; angle <= to; angle += increment {
		if !s.spend(1) {
			break
		}
		x := jitter() + cx + float64(rx*jsmath.Cos(angle))
		y := jitter() + cy + float64(ry*jsmath.Sin(angle))
		points = append(points, Point{x, y})
	}
	end := Point{cx + float64(rx*jsmath.Cos(to)), cy + float64(ry*jsmath.Sin(to))}
	points = append(points, end, end)
	return s.curve(ops, points)
}

// arc is rough's renderer arc. A closed arc gets the two radii to its ends,
// sketchy (roughClosure) or as plain lines.
func (s *state) arc(cx, cy, width, height, start, stop float64, closed, roughClosure bool) []Op {
	rx, ry, from, to := s.arcFrame(width, height, start, stop)
	increment := math.Min((jsmath.PI*2)/s.CurveStepCount/2, (to-from)/2)
	ops := s.arcStroke(nil, increment, cx, cy, rx, ry, from, to, 1)
	if !s.DisableMultiStroke {
		ops = s.arcStroke(ops, increment, cx, cy, rx, ry, from, to, 1.5)
	}
	if closed {
		fx, fy := cx+float64(rx*jsmath.Cos(from)), cy+float64(ry*jsmath.Sin(from))
		if roughClosure {
			ops = s.doubleLine(ops, cx, cy, fx, fy, false)
			ops = s.doubleLine(ops, cx, cy, cx+float64(rx*jsmath.Cos(to)), cy+float64(ry*jsmath.Sin(to)), false)
		} else {
			ops = append(ops, lineTo(cx, cy), lineTo(fx, fy))
		}
	}
	return ops
}

// arcFill is rough's patternFillArc: the pattern fill of the pie slice.
func (s *state) arcFill(cx, cy, width, height, start, stop float64) Set {
	rx, ry, from, to := s.arcFrame(width, height, start, stop)
	increment := (to - from) / s.CurveStepCount
	var points []Point
	if !s.affords(to-from, increment) {
		return Set{Kind: SetFillSketch}
	}
	for angle := from; angle <= to; angle += increment {
		if !s.spend(1) {
			break
		}
		points = append(points, Point{cx + float64(rx*jsmath.Cos(angle)), cy + float64(ry*jsmath.Sin(angle))})
	}
	points = append(points,
		Point{cx + float64(rx*jsmath.Cos(to)), cy + float64(ry*jsmath.Sin(to))},
		Point{cx, cy})
	return s.patternFill([]polygon{newPolygon(points)})
}

// Arc is generator.arc: the part of the ellipse centred at (cx, cy) from
// angle start to stop (radians, clockwise on screen), closed as a pie slice
// when closed is set, and only then filled (the fill first).
func Arc(cx, cy, width, height, start, stop float64, closed bool, o Options) Drawable {
	s := newState(o)
	if !o.finite() || !allFinite(cx, cy, width, height, start, stop) {
		return finish("arc", nil, s.invalid())
	}
	outline := s.arc(cx, cy, width, height, start, stop, closed, true)
	var sets []Set
	if closed && s.Fill {
		if s.FillStyle == Solid {
			f := s.clone()
			f.DisableMultiStroke = true
			sets = append(sets, Set{Kind: SetFillPath, Ops: f.arc(cx, cy, width, height, start, stop, true, false)})
		} else {
			sets = append(sets, s.arcFill(cx, cy, width, height, start, stop))
		}
	}
	if s.Stroke {
		sets = append(sets, Set{Kind: SetPath, Ops: outline})
	}
	return finish("arc", sets, s)
}
