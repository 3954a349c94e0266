package build

import (
	"errors"
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// minArrowLength is the shortest straight arrow routed between two
// outlines; closer (or overlapping) shapes need explicit points.
const minArrowLength = 1

// errOverlap reports two bind targets too close for a straight arrow
// between their outlines.
var errOverlap = errors.New("the two elements overlap or touch, so there is no straight arrow between their outlines; give points")

// routeBetween is the straight arrow from a's outline to b's along the
// line between their centres, each end a binding gap outside its shape.
func routeBetween(a, b *bindTarget) (start, end geom.Vec, err error) {
	ca, cb := a.shape.Center(), b.shape.Center()
	dir := cb.Sub(ca).Unit()
	if dir == (geom.Vec{}) {
		return geom.Vec{}, geom.Vec{}, errOverlap
	}
	start = tidy(a.halo().exit(ca, dir))
	end = tidy(b.halo().exit(cb, dir.Scale(-1)))
	if end.Sub(start).Dot(dir) < minArrowLength {
		return geom.Vec{}, geom.Vec{}, errOverlap
	}
	return start, end, nil
}

// snapEnd moves a bound end onto the target's halo boundary along the
// arrow's own last segment: the first point, coming from adjacent
// towards edge, where the segment meets the halo. If that line misses
// the shape the end aims at the centre instead; if adjacent is already
// inside the halo, the end goes out from the centre towards where it was.
func snapEnd(t *bindTarget, edge, adjacent geom.Vec) geom.Vec {
	return tidy(snapPoint(t, edge, adjacent))
}

func snapPoint(t *bindTarget, edge, adjacent geom.Vec) geom.Vec {
	h := t.halo()
	c := t.shape.Center()
	if h.contains(adjacent) {
		dir := edge.Sub(c).Unit()
		if dir == (geom.Vec{}) {
			dir = adjacent.Sub(c).Unit()
		}
		if dir == (geom.Vec{}) {
			dir = geom.V(1, 0)
		}
		return h.exit(c, dir)
	}
	reach := reachFor(t.poly, adjacent, h.gap) + adjacent.Dist(edge)
	if dir := edge.Sub(adjacent).Unit(); dir != (geom.Vec{}) {
		if p, ok := h.enter(adjacent, dir, reach); ok {
			return p
		}
	}
	p, ok := h.enter(adjacent, c.Sub(adjacent).Unit(), reach)
	if !ok {
		// Unreachable: the centre is inside the halo.
		return c
	}
	return p
}

// tidy rounds a computed point to a millionth of a pixel, so that the
// searches' last-bit noise (106.00000000000001) does not reach the file.
func tidy(p geom.Vec) geom.Vec {
	r := func(f float64) float64 { return jsNum(math.Round(f*1e6) / 1e6) }
	return geom.V(r(p.X), r(p.Y))
}
