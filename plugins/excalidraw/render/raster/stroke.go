package raster

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
)

// stroker draws strokes with round caps and joins, the only kind
// Excalidraw draws, into a coverage. A round-joined stroke is the union
// of a rectangle along each segment, a pie slice at each bend (on its
// outer side) and a half disc at each end, all wound one way; the
// coverage adds what they cover and its nonzero rule clamps where they
// overlap. The edges two neighbouring pieces share cancel in that sum, so
// the stroker draws only what is left: one outline per subpath, out along
// its left side and back along its right, an arc round each bend's outer
// side and a detour through the bend's point on its inner side (where the
// rectangles overlap), a half circle round each end.
type stroker struct {
	cov    *coverage
	hairs  *union         // where hairlines go
	r      float64        // half the width, in pixels
	dash   []float64      // on, off, … in pixels; nil is solid
	ox, oy float64        // the box's origin
	units  []render.Point // each segment's direction
	dashed []render.Point // the dash being cut
	pen    render.Point
	// hair, when over 0, draws every subpath as a hairline of that
	// coverage into hairs (see hairline).
	hair float64
	// before, if set, is called before each subpath (each dash).
	before func()
	// step is the angle of the chords of an arc of radius r within
	// tolerance, cosStep its cosine.
	step, cosStep float64
}

// setWidth readies the stroker for strokes of width w.
func (s *stroker) setWidth(w float64) {
	s.r = w / 2
	if s.r <= tolerance {
		s.step = math.Pi / 2
	} else {
		s.step = 2 * math.Acos(1-tolerance/s.r)
	}
	s.cosStep = math.Cos(s.step)
}

func (s *stroker) moveTo(p render.Point) { s.pen = p }

func (s *stroker) lineTo(p render.Point) {
	s.cov.line(s.pen.X-s.ox, s.pen.Y-s.oy, p.X-s.ox, p.Y-s.oy)
	s.pen = p
}

// arc draws from the pen, at c+v, round c by angle (signed: toward +y
// from +x is positive) to c+v turned.
func (s *stroker) arc(c, v render.Point, angle float64) {
	n := max(1, min(256, int(math.Ceil(math.Abs(angle)/s.step))))
	sd, cd := math.Sincos(angle / float64(n))
	for range n {
		v = render.Point{X: v.X*cd - v.Y*sd, Y: v.X*sd + v.Y*cd}
		s.lineTo(render.Point{X: c.X + v.X, Y: c.Y + v.Y})
	}
}

// disc is a dot: a round-capped line of no length.
func (s *stroker) disc(p render.Point) {
	s.moveTo(render.Point{X: p.X + s.r, Y: p.Y})
	s.arc(p, render.Point{X: s.r}, -2*math.Pi)
}

// normal is the stroke's half width along u's left normal (-u.y, u.x).
func (s *stroker) normal(u render.Point) render.Point {
	return render.Point{X: -u.Y * s.r, Y: u.X * s.r}
}

func add(p, v render.Point) render.Point { return render.Point{X: p.X + v.X, Y: p.Y + v.Y} }

// cap draws the half circle from the pen, at p + normal(u), through
// p + r·u to p - normal(u).
func (s *stroker) cap(p, u render.Point) {
	n := s.normal(u)
	// From n toward u: u is n turned by -90°.
	s.arc(p, n, -math.Pi)
}

// bend draws one side (+1 left, -1 right) of the bend at p from segment
// direction u1 to u2, walking forward (from the first segment's side to
// the second's) or back. The outer side goes round an arc, the inner
// side through p.
func (s *stroker) bend(p, u1, u2 render.Point, side float64, forward bool) {
	cross := u1.X*u2.Y - u1.Y*u2.X
	dot := u1.X*u2.X + u1.Y*u2.Y
	if cross == 0 && dot > 0 {
		return // straight on: the sides meet
	}
	n1, n2 := s.normal(u1), s.normal(u2)
	v1 := render.Point{X: n1.X * side, Y: n1.Y * side}
	v2 := render.Point{X: n2.X * side, Y: n2.Y * side}
	outer := 1.0 // turning toward +n puts the outside on -n
	if cross > 0 {
		outer = -1
	}
	if side != outer {
		s.lineTo(p)
		if forward {
			s.lineTo(add(p, v2))
		} else {
			s.lineTo(add(p, v1))
		}
		return
	}
	if dot >= s.cosStep {
		// A bend smaller than one chord's angle (most of a flattened
		// curve's): the chord between the sides.
		if forward {
			s.lineTo(add(p, v2))
		} else {
			s.lineTo(add(p, v1))
		}
		return
	}
	// The outer arc leaves v1 toward u1 (ahead of the first segment).
	angle := math.Atan2(math.Abs(cross), dot)
	if v1.X*u1.Y-v1.Y*u1.X < 0 {
		angle = -angle
	}
	if forward {
		s.arc(p, v1, angle)
	} else {
		s.arc(p, v2, -angle)
	}
}

// polyline strokes the points (closed: back to the first, joined there,
// no caps).
func (s *stroker) polyline(pts []render.Point, closed bool) {
	// Drop repeated points: they have no direction.
	k := 0
	for i, q := range pts {
		if i == 0 || q != pts[k-1] {
			pts[k] = q
			k++
		}
	}
	pts = pts[:k]
	if closed && len(pts) > 1 && pts[0] == pts[len(pts)-1] {
		pts = pts[:len(pts)-1]
	}
	if s.before != nil {
		s.before()
	}
	if s.hair > 0 {
		s.hairline(pts, closed)
		return
	}
	switch {
	case len(pts) == 0:
		return
	case len(pts) == 1:
		s.disc(pts[0])
		return
	case len(pts) == 2:
		closed = false
	}
	n := len(pts)
	segs := n - 1
	if closed {
		segs = n
	}
	s.units = s.units[:0]
	for i := range segs {
		a, b := pts[i], pts[(i+1)%n]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		s.units = append(s.units, render.Point{X: dx / l, Y: dy / l})
	}
	u := s.units
	if !closed {
		s.moveTo(add(pts[0], s.normal(u[0])))
		for i := range segs {
			s.lineTo(add(pts[i+1], s.normal(u[i])))
			if i+1 < segs {
				s.bend(pts[i+1], u[i], u[i+1], 1, true)
			}
		}
		s.cap(pts[n-1], u[segs-1])
		for i := segs - 1; i >= 0; i-- {
			s.lineTo(add(pts[i], neg(s.normal(u[i]))))
			if i > 0 {
				s.bend(pts[i], u[i-1], u[i], -1, false)
			}
		}
		s.cap(pts[0], neg(u[0]))
		return
	}
	// Closed: the left side round, then the right side back round.
	s.moveTo(add(pts[0], s.normal(u[0])))
	for i := range segs {
		j := (i + 1) % n
		s.lineTo(add(pts[j], s.normal(u[i])))
		s.bend(pts[j], u[i], u[(i+1)%segs], 1, true)
	}
	s.moveTo(add(pts[0], neg(s.normal(u[segs-1]))))
	for i := segs - 1; i >= 0; i-- {
		s.lineTo(add(pts[i], neg(s.normal(u[i]))))
		prev := (i - 1 + segs) % segs
		s.bend(pts[i], u[prev], u[i], -1, false)
	}
}

func neg(p render.Point) render.Point { return render.Point{X: -p.X, Y: -p.Y} }

// subpath strokes one flattened subpath, dashed when the stroke is.
func (s *stroker) subpath(pts []render.Point, closed bool) {
	if len(s.dash) == 0 {
		s.polyline(pts, closed)
		return
	}
	if closed && len(pts) > 0 {
		pts = append(pts, pts[0])
	}
	// Walk the dash pattern along the points, from its start (canvas
	// restarts it with every subpath).
	di, left, on := 0, s.dash[0], true
	dash := s.dashed[:0]
	flush := func() {
		if len(dash) > 0 {
			s.polyline(dash, false)
		}
		dash = dash[:0]
	}
	if len(pts) > 0 {
		dash = append(dash, pts[0])
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		t := 0.0
		for l-t > left {
			t += left
			q := render.Point{X: a.X + (b.X-a.X)*t/l, Y: a.Y + (b.Y-a.Y)*t/l}
			if on {
				dash = append(dash, q)
				flush()
			} else {
				dash = append(dash[:0], q)
			}
			on = !on
			di = (di + 1) % len(s.dash)
			left = s.dash[di]
		}
		left -= l - t
		if on {
			dash = append(dash, b)
		}
	}
	if on {
		flush()
	}
	s.dashed = dash
}

// usableDash is the pattern in pixels, or nil (solid) when it has no
// length or would make more than a million dashes over the path.
func usableDash(dash []float64, scale, length float64) []float64 {
	if len(dash) == 0 {
		return nil
	}
	var out []float64
	sum := 0.0
	for _, v := range dash {
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil
		}
		out = append(out, v*scale)
		sum += v * scale
	}
	if len(out)%2 == 1 {
		out = append(out, out...) // canvas repeats an odd list
	}
	if !(sum > 0) || length/sum > 1e6 {
		return nil
	}
	return out
}
