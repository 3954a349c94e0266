package rough

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// bezierTo is rough's _bezierTo: a sketchy cubic bezier from current, the
// controls and end jittered by up to the maxRandomnessOffset (or 1), twice
// unless multi-stroke is off, the second time a little more and from a
// jittered start.
func (s *state) bezierTo(ops []Op, x1, y1, x2, y2, x, y float64, current Point) []Op {
	ro := or(s.MaxRandomnessOffset, 1)
	ros := [2]float64{ro, ro + 0.3}
	iterations := 2
	if s.DisableMultiStroke {
		iterations = 1
	}
	for i := 0; i < iterations; i++ {
		if i == 0 {
			ops = append(ops, move(current[0], current[1]))
		} else {
			mx, my := current[0], current[1]
			if !s.PreserveVertices {
				mx = current[0] + s.offsetOpt(ros[0], 1)
				my = current[1] + s.offsetOpt(ros[0], 1)
			}
			ops = append(ops, move(mx, my))
		}
		fx, fy := x, y
		if !s.PreserveVertices {
			fx = x + s.offsetOpt(ros[i], 1)
			fy = y + s.offsetOpt(ros[i], 1)
		}
		c1x := x1 + s.offsetOpt(ros[i], 1)
		c1y := y1 + s.offsetOpt(ros[i], 1)
		c2x := x2 + s.offsetOpt(ros[i], 1)
		c2y := y2 + s.offsetOpt(ros[i], 1)
		ops = append(ops, curveTo(c1x, c1y, c2x, c2y, fx, fy))
	}
	return ops
}

// svgPath is rough's svgPath: the normalized segments drawn sketchy, lines
// as double lines and curves with bezierTo; a move only moves.
func (s *state) svgPath(segs []pathSeg) Set {
	var ops []Op
	var first, current Point
	for _, seg := range segs {
		d := seg.data
		switch seg.key {
		case 'M':
			current = Point{d[0], d[1]}
			first = current
		case 'L':
			ops = s.doubleLine(ops, current[0], current[1], d[0], d[1], false)
			current = Point{d[0], d[1]}
		case 'C':
			ops = s.bezierTo(ops, d[0], d[1], d[2], d[3], d[4], d[5], current)
			current = Point{d[4], d[5]}
		case 'Z':
			ops = s.doubleLine(ops, current[0], current[1], first[0], first[1], false)
			current = first
		}
	}
	return Set{Kind: SetPath, Ops: ops}
}

// pathPoints is points-on-path's pointsOnPath: each sub-path of the
// normalized segments as a polygon (curves flattened to within 1), each
// simplified to within distance unless it is 0.
func (s *state) pathPoints(segs []pathSeg, distance float64) []polygon {
	var sets []polygon
	var current polygon
	var start *Point
	var pending []Point // the bezier chain being collected
	flushCurve := func() {
		if len(pending) >= 4 {
			current = append(current, s.bezierPoints(pending, 1, 0)...)
		}
		pending = nil
	}
	flushSet := func() {
		flushCurve()
		if len(current) > 0 {
			sets = append(sets, current)
			current = nil
		}
	}
	origin := Point{0, 0}
	start = &origin
	for _, seg := range segs {
		d := seg.data
		switch seg.key {
		case 'M':
			flushSet()
			start = &Point{d[0], d[1]}
			current = append(current, start)
		case 'L':
			flushCurve()
			current = append(current, &Point{d[0], d[1]})
		case 'C':
			if len(pending) == 0 {
				from := *start
				if len(current) > 0 {
					from = *current[len(current)-1]
				}
				pending = append(pending, from)
			}
			pending = append(pending, Point{d[0], d[1]}, Point{d[2], d[3]}, Point{d[4], d[5]})
		case 'Z':
			flushCurve()
			current = append(current, &Point{start[0], start[1]})
		}
	}
	flushSet()
	if !truthy(distance) || distance < 0 {
		return sets // below 0 is Path's error
	}
	var out []polygon
	for _, set := range sets {
		if simple := simplify(set, distance); len(simple) > 0 {
			out = append(out, simple)
		}
	}
	return out
}

// cleanPathData is the clean-up rough's path applies to its argument:
// newlines become spaces, and a minus followed by one whitespace character
// loses the whitespace. (rough also means to fold double spaces, but its
// pattern is a plain string, "/(ss)/g", and only that text is replaced.)
func cleanPathData(d string) string {
	d = strings.ReplaceAll(d, "\n", " ")
	var b strings.Builder
	for i := 0; i < len(d); {
		if d[i] == '-' && i+1 < len(d) {
			r, size := utf8.DecodeRuneInString(d[i+1:])
			if isJSWhitespace(r) {
				b.WriteByte('-')
				i += 1 + size
				continue
			}
		}
		b.WriteByte(d[i])
		i++
	}
	return strings.Replace(b.String(), "/(ss)/g", " ", 1)
}

// isJSWhitespace is JavaScript's \s.
func isJSWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Path is generator.path: the SVG path data d drawn sketchy (Excalidraw's
// rounded rectangles and diamonds, its elbow arrows). With Fill, the fill
// comes first: a solid fill of a single sub-path is the path drawn again
// as one rougher stroke, of several the flattened sub-paths; a pattern fill
// covers the flattened sub-paths. With Simplification the stroke is the
// flattened, simplified sub-paths instead of the path.
//
// It returns an error where rough.js throws (or never returns): data it
// cannot parse, and a roughness below -1 with no Simplification.
func Path(d string, o Options) (Drawable, error) {
	s := newState(o)
	if d == "" {
		return finish("path", nil, s), nil
	}
	if !o.finite() {
		return finish("path", nil, s.invalid()), nil
	}
	d = cleanPathData(d)
	parsed, err := parsePathData(d)
	if err != nil {
		return Drawable{Shape: "path", Options: o}, err
	}
	for _, seg := range parsed {
		if !allFinite(seg.data...) {
			return finish("path", nil, s.invalid()), nil
		}
	}
	segs := normalize(absolutize(parsed))
	simplified := truthy(s.Simplification) && s.Simplification < 1
	distance := (1 + s.Roughness) / 2
	if simplified {
		distance = 4 - 4*s.Simplification
	}
	sets := s.pathPoints(segs, distance)
	if len(sets) > 0 && distance < 0 {
		return Drawable{Shape: "path", Options: o}, fmt.Errorf("rough: path simplification distance %v is below 0 (rough.js recurses without end)", distance)
	}
	outline := s.svgPath(segs)
	var out []Set
	if s.Fill {
		switch {
		case s.FillStyle == Solid && len(sets) == 1:
			fill := s.fillShape().svgPath(segs)
			out = append(out, Set{Kind: SetFillPath, Ops: mergedShape(fill.Ops)})
		case s.FillStyle == Solid:
			out = append(out, s.solidFill(sets))
		default:
			out = append(out, s.patternFill(sets))
		}
	}
	if s.Stroke {
		if simplified {
			for _, set := range sets {
				points := make([]Point, len(set))
				for i, p := range set {
					points[i] = *p
				}
				out = append(out, s.linearPath(points, false))
			}
		} else {
			out = append(out, outline)
		}
	}
	return finish("path", out, s), nil
}
