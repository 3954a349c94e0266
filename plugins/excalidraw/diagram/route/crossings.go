package route

import "github.com/dshgo/dsh/plugins/excalidraw/scene/geom"

// crossings is how many times routes p and q will cross once nudged
// apart: where a segment of one passes through the inside of a segment of
// the other, and where the two run together for a stretch and part on the
// other sides from those they came in by (the order nudging gives them
// there cannot hold at both ends). Both are simplified orthogonal
// polylines on one graph, not yet nudged.
func crossings(p, q []geom.Vec) int {
	n := 0
	for i := 0; i+1 < len(p); i++ {
		a0, a1 := p[i], p[i+1]
		av := a0.X == a1.X
		for j := 0; j+1 < len(q); j++ {
			b0, b1 := q[j], q[j+1]
			bv := b0.X == b1.X
			if av != bv {
				v0, v1, h0, h1 := a0, a1, b0, b1
				if !av {
					v0, v1, h0, h1 = b0, b1, a0, a1
				}
				x, y := v0.X, h0.Y
				if strictlyBetween(x, h0.X, h1.X) && strictlyBetween(y, v0.Y, v1.Y) {
					n++
				}
				continue
			}
			if acrossV(a0, av) != acrossV(b0, av) {
				continue
			}
			alo, ahi := minmax(alongV(a0, av), alongV(a1, av))
			blo, bhi := minmax(alongV(b0, av), alongV(b1, av))
			if alo > bhi || blo > ahi {
				continue
			}
			if alo == bhi || blo == ahi {
				// They touch at a point. If both turn there onto one
				// line, the stretch they share is that line's.
				v := geom.V(a0.X, alo)
				if !av {
					v = geom.V(alo, a0.Y)
				}
				if alo != bhi {
					if av {
						v = geom.V(a0.X, blo)
					} else {
						v = geom.V(blo, a0.Y)
					}
				}
				if pa := away(p, i, v); pa >= 0 && pa == away(q, j, v) {
					continue
				}
			}
			t := segDir(p, i)
			sq := 1
			if segDir(q, j) != t {
				sq = -1
			}
			if sharedBefore(p, i, q, j, sq, t) {
				continue // counted where the stretch begins
			}
			f := follow(p, i, q, j, sq, t, true)
			b := follow(p, i, q, j, sq, t, false)
			if f != 0 && b != 0 && f != b {
				n++
			}
		}
	}
	return n
}

// sharedBefore reports whether routes p and q (segments i and j, as in
// follow) already ran together before these segments: both start here
// from the same point, having turned the same way into them.
func sharedBefore(p []geom.Vec, i int, q []geom.Vec, j, sq, t int) bool {
	qStart := q[j]
	if sq < 0 {
		qStart = q[j+1]
	}
	if !p[i].Equal(qStart) {
		return false
	}
	pa, qa := arm(p, i, 1, false), arm(q, j, sq, false)
	return pa >= 0 && pa == qa
}

func strictlyBetween(v, a, b float64) bool {
	lo, hi := minmax(a, b)
	return lo < v && v < hi
}

func minmax(a, b float64) (float64, float64) {
	if a > b {
		return b, a
	}
	return a, b
}

// routeCrossings is how many times route i crosses the other routes.
func (r *router) routeCrossings(i int) int {
	rt := r.routes[i]
	if rt == nil {
		return 0
	}
	bi := geom.BoundsOf(rt.pts)
	n := 0
	for j, o := range r.routes {
		if j == i || o == nil || o.blocked || !bi.Intersects(o.box) {
			continue
		}
		n += crossings(rt.pts, o.pts)
	}
	return n
}

// away is the direction route r leaves point v by along the segment
// next to segment k at that end (v an end of segment k), or -1 if the
// route ends at v.
func away(r []geom.Vec, k int, v geom.Vec) int {
	if v.Equal(r[k+1]) {
		if k+2 < len(r) {
			return segDir(r, k+1)
		}
		return -1
	}
	if k > 0 {
		return opposite(segDir(r, k-1))
	}
	return -1
}
