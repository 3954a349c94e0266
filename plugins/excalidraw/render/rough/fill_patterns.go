package rough

import (
	"math"

	"github.com/dshgo/dsh/internal/jsmath"
)

// The fill styles built on the hachure lines: zigzag, dashed, zigzag-line
// and dots. (Hachure and cross-hatch are in fill.go.)

func lineLength(l segment) float64 {
	dx, dy := l[0][0]-l[1][0], l[0][1]-l[1][1]
	return math.Sqrt(float64(dx*dx) + float64(dy*dy))
}

// leftToRight is a segment's ends ordered by x.
func leftToRight(l segment) (p1, p2 Point) {
	if l[0][0] > l[1][0] {
		return l[1], l[0]
	}
	return l[0], l[1]
}

// zigzagFill is the "zigzag" style: from the start of each hachure line,
// two lines to its end, from points half a gap to either side.
func (s *state) zigzagFill(polys []polygon) []Op {
	gap := s.hachureGap()
	s2 := s.clone()
	s2.HachureGap = gap
	lines := s2.hachureSegments(polys)
	a := (jsmath.PI / 180) * s.HachureAngle
	dgx := gap * 0.5 * jsmath.Cos(a)
	dgy := gap * 0.5 * jsmath.Sin(a)
	var zigzag []segment
	for _, l := range lines {
		if !truthy(lineLength(l)) {
			continue
		}
		p1, p2 := l[0], l[1]
		zigzag = append(zigzag,
			segment{{p1[0] - dgx, p1[1] + dgy}, p2},
			segment{{p1[0] + dgx, p1[1] - dgy}, p2})
	}
	return s.strokeLines(nil, zigzag)
}

// dashedFill is the "dashed" style: the hachure lines cut into dashes.
func (s *state) dashedFill(polys []polygon) []Op {
	orGap := func(v float64) float64 {
		if v >= 0 {
			return v
		}
		if s.HachureGap < 0 {
			return s.StrokeWidth * 4
		}
		return s.HachureGap
	}
	dash, gap := orGap(s.DashOffset), orGap(s.DashGap)
	var ops []Op
	for _, l := range s.hachureSegments(polys) {
		length := lineLength(l)
		count := math.Floor(length / (dash + gap))
		start := (length + gap - float64(count*(dash+gap))) / 2
		p1, p2 := leftToRight(l)
		alpha := jsmath.Atan((p2[1] - p1[1]) / (p2[0] - p1[0]))
		cos, sin := jsmath.Cos(alpha), jsmath.Sin(alpha)
		if !s.spendCount(count, 2) {
			return ops
		}
		for i := 0; float64(i) < count; i++ {
			from := float64(i) * (dash + gap)
			to := from + dash
			ops = s.doubleLine(ops,
				p1[0]+float64(from*cos)+float64(start*cos), p1[1]+float64(from*sin)+float64(start*sin),
				p1[0]+float64(to*cos)+float64(start*cos), p1[1]+float64(to*sin)+float64(start*sin),
				true)
		}
	}
	return ops
}

// zigzagLineFill is the "zigzag-line" style: each hachure line drawn as a
// zigzag whose teeth are ZigzagOffset long.
func (s *state) zigzagLineFill(polys []polygon) []Op {
	gap := s.HachureGap
	if gap < 0 {
		gap = s.StrokeWidth * 4
	}
	zo := s.ZigzagOffset
	if zo < 0 {
		zo = gap
	}
	s2 := s.clone()
	s2.HachureGap = gap + zo
	var ops []Op
	for _, l := range s2.hachureSegments(polys) {
		count := jsmath.Round(lineLength(l) / (2 * zo))
		p1, p2 := leftToRight(l)
		alpha := jsmath.Atan((p2[1] - p1[1]) / (p2[0] - p1[0]))
		cos, sin := jsmath.Cos(alpha), jsmath.Sin(alpha)
		tooth := math.Sqrt(2 * (zo * zo))
		tcos, tsin := jsmath.Cos(alpha+jsmath.PI/4), jsmath.Sin(alpha+jsmath.PI/4)
		if !s.spendCount(count, 4) {
			return ops
		}
		for i := 0; float64(i) < count; i++ {
			from := float64(2*i) * zo
			to := float64(2*(i+1)) * zo
			sx, sy := p1[0]+float64(from*cos), p1[1]+float64(from*sin)
			ex, ey := p1[0]+float64(to*cos), p1[1]+float64(to*sin)
			mx, my := sx+float64(tooth*tcos), sy+float64(tooth*tsin)
			ops = s2.doubleLine(ops, sx, sy, mx, my, true)
			ops = s2.doubleLine(ops, mx, my, ex, ey, true)
		}
	}
	return ops
}

// dotsFill is the "dots" style: small ellipses along vertical hachure
// lines, each jittered by Math.random (the call's stand-in here).
func (s *state) dotsFill(polys []polygon) []Op {
	s2 := s.clone()
	s2.HachureAngle = 0
	lines := s2.hachureSegments(polys)
	gap := s2.hachureGap()
	weight := s2.FillWeight
	if weight < 0 {
		weight = s2.StrokeWidth / 2
	}
	ro := gap / 4
	var ops []Op
	for _, l := range lines {
		length := lineLength(l)
		count := math.Ceil(length/gap) - 1
		offset := length - float64(count*gap)
		x := (l[0][0]+l[1][0])/2 - gap/4
		minY := math.Min(l[0][1], l[1][1])
		if !s.spendCount(count, 1) {
			return ops
		}
		for i := 0; float64(i) < count; i++ {
			y := minY + offset + float64(float64(i)*gap)
			cx := (x - ro) + float64(s2.mathRandom()*2*ro)
			cy := (y - ro) + float64(s2.mathRandom()*2*ro)
			ops = append(ops, s2.ellipse(cx, cy, weight, weight)...)
		}
	}
	return ops
}
