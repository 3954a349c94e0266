package lint

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// pairs calls fn once for each unordered pair of elements passing keep
// whose boxes come within margin of each other, the earlier in the array
// first. With a scope only pairs with a scoped element are visited, so
// the cost follows the scope, not the scene.
func (s *scene) pairs(keep func(*el) bool, margin float64, fn func(a, b *el)) {
	s.pairsIn(keep, func(e *el) []geom.Rect { return []geom.Rect{e.box.Expand(margin)} }, fn)
}

// pairsIn is pairs with the partners of e looked for in windows(e).
func (s *scene) pairsIn(keep func(*el) bool, windows func(*el) []geom.Rect, fn func(a, b *el)) {
	s.pairsFrom(func(e *el) bool { return s.inScope(e.id) }, keep, windows, fn)
}

// pairsFrom is pairsIn over the pairs with at least one element passing
// from, which passes only elements in scope.
func (s *scene) pairsFrom(from, keep func(*el) bool, windows func(*el) []geom.Rect, fn func(a, b *el)) {
	source := func(e *el) bool {
		return e.finite && keep(e) && from(e)
	}
	var found []*el
	for _, e := range s.scopedEls() {
		i := e.idx
		if !source(e) {
			continue
		}
		found = found[:0]
		for _, w := range windows(e) {
			s.query(w, keep, func(o *el) {
				if j := o.idx; j != i && !(source(o) && j < i) {
					found = append(found, o)
				}
			})
		}
		slices.SortFunc(found, func(a, b *el) int { return a.idx - b.idx })
		found = slices.Compact(found)
		for _, o := range found {
			a, b := e, o
			if o.idx < i {
				a, b = b, a
			}
			fn(a, b)
		}
	}
}

// upper returns the one of two elements drawn later, then the other.
func upper(a, b *el) (*el, *el) {
	if b.z > a.z {
		return b, a
	}
	return a, b
}

// overlapEligible: the shapes overlap is about (no frames, text or
// lines; no boxes without area).
func overlapEligible(e *el) bool { return isBoxShape(e.typ) && e.w > 0 && e.h > 0 }

// overlaps: two shapes drawn over each other. Shapes that overlap in
// part, clear of their labels, are how people draw pictures (a badge on
// a card's corner, a speech bubble's tail on a box, a stack of sheets, a
// head on a body): with Options.Touched they are found only for a pair
// with a touched shape, as near misses are; two boxes on one spot
// (coincideRatio), and a shape over part of another's label, always.
func (s *scene) overlaps() {
	s.pairs(overlapEligible, 0, func(a, b *el) {
		if sameGroup(a, b) || s.areTwins(a, b) {
			return
		}
		in := a.box.Intersection(b.box)
		if in.W() <= 0 || in.H() <= 0 {
			return
		}
		aa, ba := a.box.Area(), b.box.Area()
		ratio := in.Area() / math.Min(aa, ba)
		if ratio <= overlapRatio {
			return
		}
		if (a.box.Contains(b.box) && ba <= nestedAreaRatio*aa) || (b.box.Contains(a.box) && aa <= nestedAreaRatio*ba) {
			return // nested: a box on a panel
		}
		if !s.touchedPair(a, b) && in.Area() < coincideRatio*math.Max(aa, ba) && !s.labelUnder(a, in) && !s.labelUnder(b, in) {
			return // a picture composed of shapes, which the write left alone
		}
		mover, still := upper(a, b)
		dx, dy := separate(mover.box, still.box)
		s.report(CodeOverlap, []string{a.id, b.id},
			map[string]any{"action": "move", "id": mover.id, "dx": round2(dx), "dy": round2(dy)},
			"%s and %s overlap by %.0f%% of the smaller", s.name(a), s.name(b), 100*ratio)
	})
}

// labelUnder reports whether e's label reaches into r.
func (s *scene) labelUnder(e *el, r geom.Rect) bool {
	l := s.labelOf(e)
	return l != nil && l.box.Intersection(r).W() > 0 && l.box.Intersection(r).H() > 0
}

// touchedPair: with Options.Touched, a pair with a touched element;
// without, every pair.
func (s *scene) touchedPair(a, b *el) bool {
	return s.opts.Touched == nil || s.opts.Touched[a.id] || s.opts.Touched[b.id]
}

// separate is the shortest move of m, along one axis, that leaves
// separationMargin between it and f.
func separate(m, f geom.Rect) (dx, dy float64) {
	right := f.MaxX - m.MinX + separationMargin
	left := -(m.MaxX - f.MinX + separationMargin)
	down := f.MaxY - m.MinY + separationMargin
	up := -(m.MaxY - f.MinY + separationMargin)
	best, axis := right, 0
	for i, v := range []float64{left, down, up} {
		if math.Abs(v) < math.Abs(best) {
			best, axis = v, i+1
		}
	}
	if axis < 2 {
		return best, 0
	}
	return 0, best
}

// twinEligible: labels are compared as part of their containers.
func (s *scene) twinEligible(e *el) bool { return !s.isLabel(e) }

// areTwins reports whether two elements look like one element created
// twice.
func (s *scene) areTwins(a, b *el) bool {
	if a.typ != b.typ || !a.finite || !b.finite {
		return false
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= twinTolerance }
	if !near(a.x, b.x) || !near(a.y, b.y) || !near(a.w, b.w) || !near(a.h, b.h) || math.Abs(a.angle-b.angle) > 1e-3 {
		return false
	}
	if normColor(a.stroke) != normColor(b.stroke) || normColor(a.bg) != normColor(b.bg) || s.shownText(a) != s.shownText(b) {
		return false
	}
	if hasPoints(a.typ) {
		if len(a.pts) != len(b.pts) {
			return false
		}
		for i := range a.pts {
			if !near(a.pts[i].X, b.pts[i].X) || !near(a.pts[i].Y, b.pts[i].Y) {
				return false
			}
		}
	}
	for _, k := range []string{"fileId", "name"} {
		x, _ := a.o.String(k)
		y, _ := b.o.String(k)
		if x != y {
			return false
		}
	}
	return true
}

// twins: the same element twice.
func (s *scene) twins() {
	s.pairs(s.twinEligible, twinTolerance, func(a, b *el) {
		if !s.areTwins(a, b) {
			return
		}
		dup, orig := upper(a, b)
		s.report(CodeNearDuplicate, []string{a.id, b.id}, map[string]any{"action": "delete", "id": dup.id},
			"%s is a near-duplicate of %s: same place, size, colours and text", s.name(dup), s.name(orig))
	})
}

// alignEligible: unrotated shapes with area.
func alignEligible(e *el) bool { return overlapEligible(e) && e.angle == 0 }

// alignment: shapes in a row or column that nearly line up; with
// Options.Touched, only pairs with a touched shape.
func (s *scene) alignment() {
	from := func(e *el) bool { return s.inScope(e.id) && (s.opts.Touched == nil || s.opts.Touched[e.id]) }
	// Partners are looked for in the shape's column and row bands.
	bands := func(e *el) []geom.Rect {
		b := e.box
		return []geom.Rect{geom.R(b.MinX, b.MinY-alignReach, b.MaxX, b.MaxY+alignReach), geom.R(b.MinX-alignReach, b.MinY, b.MaxX+alignReach, b.MaxY)}
	}
	s.pairsFrom(from, alignEligible, bands, func(a, b *el) {
		if !peers(a, b) {
			return
		}
		mover, still := upper(a, b)
		m, f := mover.box, still.box
		var dx, dy float64
		var parts []string
		// Same column: horizontal ranges overlap, close vertically.
		if m.MinX < f.MaxX && f.MinX < m.MaxX && math.Max(0, math.Max(f.MinY-m.MaxY, m.MinY-f.MaxY)) <= alignReach {
			if d, what, ok := nearMiss(
				[]float64{f.MinX - m.MinX, f.Center().X - m.Center().X, f.MaxX - m.MaxX},
				[]string{"left edge", "horizontal centre", "right edge"}); ok {
				dx = d
				parts = append(parts, fmt.Sprintf("%g px off the %s", round2(math.Abs(d)), what))
			}
		}
		// Same row.
		if m.MinY < f.MaxY && f.MinY < m.MaxY && math.Max(0, math.Max(f.MinX-m.MaxX, m.MinX-f.MaxX)) <= alignReach {
			if d, what, ok := nearMiss(
				[]float64{f.MinY - m.MinY, f.Center().Y - m.Center().Y, f.MaxY - m.MaxY},
				[]string{"top edge", "vertical centre", "bottom edge"}); ok {
				dy = d
				parts = append(parts, fmt.Sprintf("%g px off the %s", round2(math.Abs(d)), what))
			}
		}
		if len(parts) == 0 {
			return
		}
		s.report(CodeAlignmentNearMiss, []string{a.id, b.id},
			map[string]any{"action": "move", "id": mover.id, "dx": round2(dx), "dy": round2(dy)},
			"%s is %s of %s", s.name(mover), strings.Join(parts, " and "), s.name(still))
	})
}

// peers reports whether a and b are shapes whose alignment with each
// other a person would mend: not one inside the other (a swatch in the
// panel that holds it), and not parts of different units, one in a group
// the other is not in (a table's cell beside a legend's swatch, or beside
// a loose box). Parts of one unit are aligned with each other; two units'
// parts lining up across the gap between them is chance.
func peers(a, b *el) bool {
	if a.box.Contains(b.box) || b.box.Contains(a.box) {
		return false
	}
	return len(a.groups) == 0 && len(b.groups) == 0 || sameGroup(a, b)
}

// nearMiss picks, among the differences of one axis' edges and centre,
// the smallest near miss; none when any is already aligned.
func nearMiss(ds []float64, names []string) (float64, string, bool) {
	best := -1
	for i, d := range ds {
		if math.Abs(d) <= alignEpsilon {
			return 0, "", false
		}
		if math.Abs(d) <= alignTolerance && (best < 0 || math.Abs(d) < math.Abs(ds[best])) {
			best = i
		}
	}
	if best < 0 {
		return 0, "", false
	}
	return ds[best], names[best], true
}
