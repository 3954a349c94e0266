package build

import (
	"errors"
	"math"
)

// minArrowLength is the shortest straight arrow routed between two
// outlines; closer (or overlapping) shapes need explicit points.
const minArrowLength = 1

// errOverlap reports two bind targets too close for a straight arrow
// between their outlines.
var errOverlap = errors.New("the two elements overlap or touch, so there is no straight arrow between their outlines; give points")

// routeBetween is the straight arrow from a's outline to b's along the
// line between their centres, each end a binding gap outside its shape.
func routeBetween(a, b *bindTarget) (start, end vec, err error) {
	ca, cb := a.shape.center(), b.shape.center()
	dir := cb.sub(ca).unit()
	if dir == (vec{}) {
		return vec{}, vec{}, errOverlap
	}
	start = tidy(a.halo().exit(ca, dir))
	end = tidy(b.halo().exit(cb, dir.scale(-1)))
	if end.sub(start).dot(dir) < minArrowLength {
		return vec{}, vec{}, errOverlap
	}
	return start, end, nil
}

// snapEnd moves a bound end onto the target's halo boundary along the
// arrow's own last segment: the first point, coming from adjacent
// towards edge, where the segment meets the halo. If that line misses
// the shape the end aims at the centre instead; if adjacent is already
// inside the halo, the end goes out from the centre towards where it was.
func snapEnd(t *bindTarget, edge, adjacent vec) vec {
	return tidy(snapPoint(t, edge, adjacent))
}

func snapPoint(t *bindTarget, edge, adjacent vec) vec {
	h := t.halo()
	c := t.shape.center()
	if h.contains(adjacent) {
		dir := edge.sub(c).unit()
		if dir == (vec{}) {
			dir = adjacent.sub(c).unit()
		}
		if dir == (vec{}) {
			dir = vec{1, 0}
		}
		return h.exit(c, dir)
	}
	reach := reachFor(t.poly, adjacent, h.gap) + adjacent.dist(edge)
	if dir := edge.sub(adjacent).unit(); dir != (vec{}) {
		if p, ok := h.enter(adjacent, dir, reach); ok {
			return p
		}
	}
	p, ok := h.enter(adjacent, c.sub(adjacent).unit(), reach)
	if !ok {
		// Unreachable: the centre is inside the halo.
		return c
	}
	return p
}

// tidy rounds a computed point to a millionth of a pixel, so that the
// searches' last-bit noise (106.00000000000001) does not reach the file.
func tidy(p vec) vec {
	r := func(f float64) float64 { return jsNum(math.Round(f*1e6) / 1e6) }
	return vec{r(p.x), r(p.y)}
}
