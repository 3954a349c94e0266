package lint

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// The rules of this file are about what a reader's eye trips on rather
// than what is inconsistent: arrows crossing arrows, arrows drawn over
// text, text printed over text, two arrows on one line. They judge what
// the editor draws: an arrow's drawn path (path), a text's letters line
// by line (inkLines), an arrow's label on the arrow (placeLinearLabels).

// path is an arrow's or line's path as the editor draws it: its points
// joined by straight segments, or, for a rounded one of three points or
// more that is not elbowed, the curve rough.js draws through them
// (curveToBezier: Catmull-Rom pieces, each cubic sampled at pathSamples
// points). Computed on first use.
func (e *el) path() []geom.Vec {
	if p := e.drawn.Load(); p != nil {
		return *p
	}
	if e.roundness == 0 || e.elbowed || len(e.pts) < 3 {
		e.drawn.Store(&e.pts)
		return e.pts
	}
	ext := make([]geom.Vec, 0, len(e.pts)+2)
	ext = append(ext, e.pts[0])
	ext = append(ext, e.pts...)
	ext = append(ext, e.pts[len(e.pts)-1])
	out := []geom.Vec{e.pts[0]}
	for i := 1; i+2 < len(ext); i++ {
		p0, p3 := ext[i], ext[i+1]
		p1 := p0.Add(ext[i+1].Sub(ext[i-1]).Scale(1.0 / 6))
		p2 := p3.Add(ext[i].Sub(ext[i+2]).Scale(1.0 / 6))
		for k := 1; k <= pathSamples; k++ {
			out = append(out, cubic(p0, p1, p2, p3, float64(k)/pathSamples))
		}
	}
	e.drawn.Store(&out)
	return out
}

// cubic is the point at t of the bezier p0 p1 p2 p3.
func cubic(p0, p1, p2, p3 geom.Vec, t float64) geom.Vec {
	u := 1 - t
	return p0.Scale(u * u * u).Add(p1.Scale(3 * u * u * t)).Add(p2.Scale(3 * u * t * t)).Add(p3.Scale(t * t * t))
}

// besideArrow lists the drawn arrows and the texts whose boxes come
// within collinearDistance of arrow a's box, in array order: the
// candidates of every rule of this file that follows an arrow, looked up
// once per arrow and run.
func (s *scene) besideArrow(a *el) []*el {
	if s.beside == nil {
		s.beside = make([][]*el, len(s.els))
	}
	if near := s.beside[a.idx]; near != nil {
		return near
	}
	near := []*el{}
	s.query(a.box.Expand(collinearDistance), func(e *el) bool { return drawnArrow(e) || textBearing(e) }, func(e *el) {
		near = append(near, e)
	})
	s.beside[a.idx] = near
	return near
}

// arrowCrossings: each arrow whose path crosses other arrows, one
// finding per arrow naming the arrows it crosses and how often.
func (s *scene) arrowCrossings() {
	type crossed struct {
		e *el
		n int
	}
	var found []crossed
	for _, a := range s.subjects() {
		i := a.idx
		if !drawnArrow(a) || !s.subject(i) || !s.inScope(a.id) {
			continue
		}
		found = found[:0]
		total := 0
		for _, b := range s.besideArrow(a) {
			if b == a || !drawnArrow(b) || !a.box.Intersects(b.box) {
				continue
			}
			if n := crossingCount(a, b); n > 0 {
				found = append(found, crossed{b, n})
				total += n
			}
		}
		if total == 0 {
			continue
		}
		slices.SortFunc(found, func(x, y crossed) int { return strings.Compare(x.e.id, y.e.id) })
		parts := make([]string, len(found))
		for k, c := range found {
			parts[k] = s.name(c.e) + " " + times(c.n)
		}
		s.report(CodeArrowCrossing, []string{a.id}, nil,
			"%s crosses %s (%d %s); reroute it around them (waypoints, or elbowed) or move its ends",
			s.name(a), strings.Join(capList(parts), ", "), total, plural(total, "crossing", "crossings"))
	}
}

func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// crossingCount is how many times the paths of arrows a and b cross:
// points where one passes from one side of the other to its other side.
// A touch is not a crossing: an end of either path on the other (an
// arrow ending on an arrow, two arrows meeting at one point), a corner
// that meets the other path and turns back, two corners that meet, or
// where one joins or leaves the other after running along it.
// Nor is a crossing near the ends of both arrows where both are bound to
// one element (two arrows fanning out of one box).
func crossingCount(a, b *el) int {
	var pts []geom.Vec
	pa, pb := a.path(), b.path()
	for i := 1; i < len(pa); i++ {
		p0, p1 := pa[i-1], pa[i]
		sa := geom.BoundsOf([]geom.Vec{p0, p1})
		for j := 1; j < len(pb); j++ {
			q0, q1 := pb[j-1], pb[j]
			if !sa.Intersects(geom.BoundsOf([]geom.Vec{q0, q1})) {
				continue
			}
			p, ok := geom.SegmentIntersection(p0, p1, q0, q1)
			if !ok || slices.ContainsFunc(pts, func(q geom.Vec) bool { return q.Dist(p) < crossingMerge }) {
				continue
			}
			if nearEnd(pa, p) || nearEnd(pb, p) || sharedEnd(a, b, p) {
				continue
			}
			va, vb := vertexAt(pa, i, p), vertexAt(pb, j, p)
			switch {
			case va >= 0 && vb >= 0:
				continue // corner on corner: a touch
			case va >= 0 && !passes(pa, va, q0, q1, pb):
				continue
			case vb >= 0 && !passes(pb, vb, p0, p1, pa):
				continue
			}
			pts = append(pts, p)
		}
	}
	return len(pts)
}

// nearEnd: p is within crossingEndTolerance of the first or last point
// of a path.
func nearEnd(ps []geom.Vec, p geom.Vec) bool {
	return p.Dist(ps[0]) <= crossingEndTolerance || p.Dist(ps[len(ps)-1]) <= crossingEndTolerance
}

// sharedEnd: an end of a and an end of b, both bound to one element, lie
// within crossingSharedEndReach of p.
func sharedEnd(a, b *el, p geom.Vec) bool {
	type end struct {
		at     geom.Vec
		target string
	}
	ends := func(e *el) []end {
		var out []end
		if e.hasStart && e.start != "" {
			out = append(out, end{e.pts[0], e.start})
		}
		if e.hasEnd && e.end != "" {
			out = append(out, end{e.pts[len(e.pts)-1], e.end})
		}
		return out
	}
	for _, x := range ends(a) {
		for _, y := range ends(b) {
			if x.target == y.target && p.Dist(x.at) <= crossingSharedEndReach && p.Dist(y.at) <= crossingSharedEndReach {
				return true
			}
		}
	}
	return false
}

// vertexAt is the index of the inner corner of path ps that p, found on
// segment i (from ps[i-1] to ps[i]), lies on; -1 when p is inside the
// segment.
func vertexAt(ps []geom.Vec, i int, p geom.Vec) int {
	if i-1 > 0 && p.Dist(ps[i-1]) <= onCorner {
		return i - 1
	}
	if i < len(ps)-1 && p.Dist(ps[i]) <= onCorner {
		return i
	}
	return -1
}

// onCorner: a crossing this close to a path's corner is at the corner
// (where the other path passes exactly through it, as two orthogonal
// paths on whole pixels do); a float's rounding, not a distance anyone
// sees.
const onCorner = 1e-6

// passes reports whether path ps, through its corner v lying on the
// segment q0–q1 of path other, goes from one side of that segment's line
// to the other (rather than touching it and turning back). A corner
// where ps joins other or leaves it, having run along it, is not a
// crossing: the run is collinear_arrows' to report.
func passes(ps []geom.Vec, v int, q0, q1 geom.Vec, other []geom.Vec) bool {
	d := q1.Sub(q0).Unit()
	side := func(p geom.Vec) float64 { return d.Cross(p.Sub(q0)) }
	before, after := side(ps[v-1]), side(ps[v+1])
	if math.Abs(before) <= onCorner || math.Abs(after) <= onCorner || onPath(other, ps[v-1]) || onPath(other, ps[v+1]) {
		return false
	}
	return (before < 0) != (after < 0)
}

// onPath: p lies on the path.
func onPath(ps []geom.Vec, p geom.Vec) bool {
	for i := 1; i < len(ps); i++ {
		if geom.SegmentDistance(p, ps[i-1], ps[i]) <= onCorner {
			return true
		}
	}
	return false
}

// textBearing: a text with something to read, a box, and ink.
func textBearing(e *el) bool {
	if e.typ != "text" || !e.finite || e.blank || e.w <= 0 || e.h <= 0 || e.opacity <= 0 {
		return false
	}
	c, ok := parseColor(e.stroke)
	return !ok || c.a > 0
}

// textDepth is how far into a text's letters something must reach to
// be over them: textDepthFraction of the font size, at least 1 px.
func textDepth(e *el) float64 {
	_, fs := fontOf(e)
	return math.Max(1, textDepthFraction*fs)
}

// inkLayout is a text's inkLines.
type inkLayout struct {
	lines [][]geom.Vec
	box   geom.Rect
}

// inkLines is where a text's letters are drawn: one rotated outline per line
// that shows any (where the text is drawn: an arrow's label on the
// arrow, see placeLinearLabels), each its measured width placed by
// textAlign, its line height less the line gap above and below
// (textInkInsetY of the font size) and a little side bearing
// (textInkInsetX); and the box of them all. Computed on first use.
func (e *el) inkLines() ([][]geom.Vec, geom.Rect) {
	if e.ink != nil {
		return e.ink.lines, e.ink.box
	}
	fam, fs := fontOf(e)
	lh := fs * build.LineHeightOf(e.o)
	align, _ := e.o.String("textAlign")
	c := e.box.Center()
	x0, y0 := c.X-e.w/2, c.Y-e.h/2
	ix, iy := textInkInsetX*fs, math.Min(textInkInsetY*fs, 0.45*lh)
	ink := &inkLayout{}
	e.ink = ink
	for i, line := range strings.Split(e.text(), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		w := textmetrics.MeasureLine(line, fam, fs)
		if !(w > 0) {
			continue
		}
		off := 0.0
		switch align {
		case "center":
			off = (e.w - w) / 2
		case "right":
			off = e.w - w
		}
		jx := math.Min(ix, 0.45*w)
		r := geom.Shape{Type: "rectangle", X: x0 + off + jx, Y: y0 + float64(i)*lh + iy, W: w - 2*jx, H: lh - 2*iy}
		// Rotated about the text's centre, as the editor rotates it.
		out := r.Outline()
		for k, p := range out {
			out[k] = geom.Rotate(p, c, e.angle)
		}
		if len(ink.lines) == 0 {
			ink.box = geom.BoundsOf(out)
		} else {
			ink.box = ink.box.Union(geom.BoundsOf(out))
		}
		ink.lines = append(ink.lines, out)
	}
	return ink.lines, ink.box
}

// arrowsOverText: an arrow drawn across a text that is not its own
// label.
func (s *scene) arrowsOverText() {
	for _, a := range s.subjects() {
		i := a.idx
		if !drawnArrow(a) || !s.subject(i) {
			continue
		}
		path := a.path()
		first, last := path[0], path[len(path)-1]
	texts:
		for _, t := range s.besideArrow(a) {
			if !textBearing(t) || !a.box.Intersects(t.box) {
				continue
			}
			if t.container == a.id || a.bindsTo(t.id) {
				continue
			}
			lines, box := t.inkLines()
			if box.Expand(crossingInset).Contains(geom.R(first.X, first.Y, first.X, first.Y)) ||
				box.Expand(crossingInset).Contains(geom.R(last.X, last.Y, last.X, last.Y)) {
				continue // it starts or ends on the text: pointing from or at it, not passing over it
			}
			for k := 1; k < len(path); k++ {
				for _, line := range lines {
					if !geom.SegmentEnters(line, path[k-1], path[k], textDepth(t)) {
						continue
					}
					what, fix := s.name(t), "reroute the arrow around it, move the text, or make the text the arrow's label"
					if c := s.containerOf(t); c != nil {
						what, fix = "the label of "+s.name(c), "reroute the arrow around it or move "+fmt.Sprintf("%q", c.id)
					}
					s.report(CodeArrowOverText, []string{a.id, t.id}, nil, "%s is drawn over %s; %s", s.name(a), what, fix)
					continue texts
				}
			}
		}
	}
}

// textsOverlap: two texts printed over each other.
func (s *scene) textsOverlap() {
	s.pairs(textBearing, 0, func(a, b *el) {
		if s.areTwins(a, b) {
			return // near_duplicate says it
		}
		depth := 0.0
		la, ba := a.inkLines()
		lb, bb := b.inkLines()
		if ba.Intersects(bb) {
			for _, x := range la {
				for _, y := range lb {
					depth = math.Max(depth, penetration(x, y))
				}
			}
		}
		if depth <= math.Min(textDepth(a), textDepth(b)) {
			return
		}
		what := func(t *el) string {
			if c := s.containerOf(t); c != nil {
				return "the label of " + s.name(c)
			}
			return s.name(t)
		}
		// A free text can be moved (the upper one first); a label moves
		// with its container.
		var sug map[string]any
		mover, still := upper(a, b)
		if s.containerOf(mover) != nil {
			mover, still = still, mover
		}
		fix := "move their containers apart"
		if s.containerOf(mover) == nil {
			dx, dy := separate(mover.box, still.box)
			sug = map[string]any{"action": "move", "id": mover.id, "dx": round2(dx), "dy": round2(dy)}
			fix = fmt.Sprintf("move text %q off it", mover.id)
		}
		s.report(CodeTextOverlap, []string{a.id, b.id}, sug,
			"%s and %s are printed over each other (by %g px); %s", what(a), what(b), round2(depth), fix)
	})
}

// penetration is how deep two convex polygons overlap: the least, over
// the directions of their edges' normals, of their projections' overlap
// (0 when some direction separates them).
func penetration(a, b []geom.Vec) float64 {
	depth := math.Inf(1)
	for _, poly := range [][]geom.Vec{a, b} {
		for i := range poly {
			e := poly[(i+1)%len(poly)].Sub(poly[i])
			if e.Len() == 0 {
				continue
			}
			n := geom.V(-e.Y, e.X).Unit()
			a0, a1 := project(a, n)
			b0, b1 := project(b, n)
			depth = math.Min(depth, math.Min(a1, b1)-math.Max(a0, b0))
			if depth <= 0 {
				return 0
			}
		}
	}
	return depth
}

// project is the extent of a polygon along direction n.
func project(poly []geom.Vec, n geom.Vec) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range poly {
		d := p.Dot(n)
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return lo, hi
}

// collinearArrows: two arrows drawn on one line, which read as one.
func (s *scene) collinearArrows() {
	for _, a := range s.subjects() {
		i := a.idx
		if !drawnArrow(a) || !s.subject(i) {
			continue
		}
		for _, b := range s.besideArrow(a) {
			// Each pair once: from the earlier arrow, or from a when b
			// is not looked at (far from the scope).
			if !drawnArrow(b) || b == a || (b.idx < a.idx && s.subject(b.idx)) || (!s.inScope(a.id) && !s.inScope(b.id)) {
				continue
			}
			x, y := a, b
			if y.idx < x.idx {
				x, y = y, x
			}
			length, where := collinearRun(x.path(), y.path())
			if length <= collinearMinOverlap {
				continue
			}
			s.report(CodeCollinearArrows, []string{x.id, y.id}, nil,
				"%s and %s are drawn on each other for %g px (within (%g, %g)–(%g, %g)) and read as one arrow; move one at least %g px aside or reroute it",
				s.name(x), s.name(y), round2(length), round2(where.MinX), round2(where.MinY), round2(where.MaxX), round2(where.MaxY), collinearSeparation)
		}
	}
}

// collinearRun is how long paths a and b lie within collinearDistance of
// each other on one line, summed over their segments, and the box of
// those stretches (of a's side of them).
func collinearRun(a, b []geom.Vec) (total float64, where geom.Rect) {
	for i := 1; i < len(a); i++ {
		p0, p1 := a[i-1], a[i]
		l := p1.Dist(p0)
		if l < minLinearLength {
			continue
		}
		u := p1.Sub(p0).Scale(1 / l)
		for j := 1; j < len(b); j++ {
			q0, q1 := b[j-1], b[j]
			v := q1.Sub(q0)
			if v.Len() < minLinearLength || math.Abs(u.Cross(v.Unit())) > collinearSine {
				continue
			}
			// q's position along p and its offset from p's line.
			s0, s1 := u.Dot(q0.Sub(p0)), u.Dot(q1.Sub(p0))
			o0, o1 := u.Cross(q0.Sub(p0)), u.Cross(q1.Sub(p0))
			if s0 > s1 {
				s0, s1, o0, o1 = s1, s0, o1, o0
			}
			x0, x1 := math.Max(0, s0), math.Min(l, s1)
			if x1-x0 <= 0 || s1-s0 <= 0 {
				continue
			}
			// The offset is linear in s: keep where it is within reach.
			off := func(s float64) float64 { return o0 + (o1-o0)*(s-s0)/(s1-s0) }
			x0, x1 = clipOffset(x0, x1, off(x0), off(x1), collinearDistance)
			if x1-x0 <= 0 {
				continue
			}
			stretch := geom.BoundsOf([]geom.Vec{p0.Add(u.Scale(x0)), p0.Add(u.Scale(x1))})
			if total == 0 {
				where = stretch
			} else {
				where = where.Union(stretch)
			}
			total += x1 - x0
		}
	}
	return total, where
}

// clipOffset narrows [lo, hi] to where the linear function from fl (at
// lo) to fh (at hi) lies within [-d, d].
func clipOffset(lo, hi, fl, fh, d float64) (float64, float64) {
	if fl == fh {
		if math.Abs(fl) > d {
			return 0, 0
		}
		return lo, hi
	}
	at := func(f float64) float64 { return lo + (hi-lo)*(f-fl)/(fh-fl) }
	a, b := at(-d), at(d)
	if a > b {
		a, b = b, a
	}
	return math.Max(lo, a), math.Min(hi, b)
}
