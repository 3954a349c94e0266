package route

import (
	"math"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// nudge spaces the routes' segments apart: first the vertical segments
// along x, then the horizontal ones along y.
func (r *router) nudge() {
	r.nudgeAxis(true)
	r.nudgeAxis(false)
}

// nseg is a segment as a nudging pass sees it: pos is its coordinate
// across (x for a vertical segment), lo..hi its extent along, min..max
// where it may move.
type nseg struct {
	r, k     int
	pos      float64
	lo, hi   float64
	min, max float64
	rank     int
}

// acrossV and alongV are a point's coordinates across and along the
// segments of a pass (vertical ones if vert).
func acrossV(p geom.Vec, vert bool) float64 {
	if vert {
		return p.X
	}
	return p.Y
}

func alongV(p geom.Vec, vert bool) float64 {
	if vert {
		return p.Y
	}
	return p.X
}

// across is p's coordinate across direction d.
func across(p geom.Vec, d int) float64 {
	if d&1 == 1 {
		return p.X
	}
	return p.Y
}

// channelReach is how far, in spacings, a segment may move either way.
const channelReach = 50

// index is the router's index of its boxes.
func (r *router) index() *index {
	if r.ix == nil {
		r.ix = newIndex(r.rects)
	}
	return r.ix
}

// centreWithin is the widest channel, in clearances, whose segments are
// drawn to its middle.
const centreWithin = 8

// nudgeAxis moves the segments of one orientation (vertical if vert).
func (r *router) nudgeAxis(vert bool) {
	var segs []nseg
	for ri, rt := range r.routes {
		if rt.blocked {
			continue
		}
		last := len(rt.pts) - 2
		for k := 0; k <= last; k++ {
			a, b := rt.pts[k], rt.pts[k+1]
			if acrossV(a, vert) != acrossV(b, vert) {
				continue
			}
			s := nseg{r: ri, k: k, pos: acrossV(a, vert)}
			s.lo, s.hi = alongV(a, vert), alongV(b, vert)
			if s.lo > s.hi {
				s.lo, s.hi = s.hi, s.lo
			}
			s.min, s.max = r.channel(ri, k, s.pos, s.lo, s.hi, vert)
			segs = append(segs, s)
		}
	}
	if len(segs) == 0 {
		return
	}
	r.rankGroups(segs, vert)

	// Scan along: each segment is kept apart from its neighbours across
	// while their extents overlap (touching counts).
	type event struct {
		at     float64
		remove bool
		i      int
	}
	evs := make([]event, 0, 2*len(segs))
	for i, s := range segs {
		evs = append(evs, event{s.lo, false, i}, event{s.hi, true, i})
	}
	key := func(a, b int) bool {
		sa, sb := &segs[a], &segs[b]
		if sa.pos != sb.pos {
			return sa.pos < sb.pos
		}
		if sa.rank != sb.rank {
			return sa.rank < sb.rank
		}
		return a < b
	}
	sort.Slice(evs, func(a, b int) bool {
		ea, eb := evs[a], evs[b]
		if ea.at != eb.at {
			return ea.at < eb.at
		}
		if ea.remove != eb.remove {
			return !ea.remove
		}
		return key(ea.i, eb.i)
	})
	var cons []con
	seen := map[[2]int32]bool{}
	addCon := func(a, b int) {
		k := [2]int32{int32(a), int32(b)}
		if seen[k] {
			return
		}
		seen[k] = true
		gap := r.o.Spacing
		if segs[a].r == segs[b].r {
			if d := segs[b].pos - segs[a].pos; d > 0 && d < gap {
				gap = d
			}
		}
		cons = append(cons, con{l: int32(a), r: int32(b), gap: gap})
	}
	var active []int
	for _, e := range evs {
		p := sort.Search(len(active), func(p int) bool { return !key(active[p], e.i) })
		if !e.remove {
			active = append(active, 0)
			copy(active[p+1:], active[p:])
			active[p] = e.i
			if p > 0 {
				addCon(active[p-1], e.i)
			}
			if p+1 < len(active) {
				addCon(e.i, active[p+1])
			}
			continue
		}
		if p > 0 && p+1 < len(active) {
			addCon(active[p-1], active[p+1])
		}
		active = append(active[:p], active[p+1:]...)
	}

	des := make([]float64, len(segs))
	lo := make([]float64, len(segs))
	hi := make([]float64, len(segs))
	for i, s := range segs {
		des[i], lo[i], hi[i] = s.pos, s.min, s.max
		// A segment between two boxes would rather run down the middle
		// of the gap than along one of them (an end segment stays where
		// its port is).
		rt := r.routes[s.r]
		if s.k > 0 && s.k < len(rt.pts)-2 && s.max-s.min <= centreWithin*r.o.Clearance {
			des[i] = (s.min + s.max) / 2
		}
	}
	x := place(des, lo, hi, cons)
	for i, s := range segs {
		pts := r.routes[s.r].pts
		for _, k := range []int{s.k, s.k + 1} {
			if vert {
				pts[k].X = x[i]
			} else {
				pts[k].Y = x[i]
			}
		}
	}
}

// channel is where segment k of route ri (at pos across, lo..hi along)
// may move: clear of every box grown by the route's clearance, but its
// own box for a segment that ends on one, and on that box's side.
func (r *router) channel(ri, k int, pos, lo, hi float64, vert bool) (min, max float64) {
	rt := r.routes[ri]
	e := r.edges[ri]
	min, max = math.Inf(-1), math.Inf(1)
	first, last := k == 0, k == len(rt.pts)-2
	side := func(i int) {
		b := r.rects[i]
		a0, a1 := b.MinX, b.MaxX
		if !vert {
			a0, a1 = b.MinY, b.MaxY
		}
		m := r.margin(i, a1-a0)
		min, max = math.Max(min, a0+m), math.Min(max, a1-m)
	}
	if first {
		side(e.from)
	}
	if last {
		side(e.to)
	}
	// Look as far as reach either way; beyond, the channel is open.
	reach := channelReach * r.o.Spacing
	band := geom.R(pos-reach, lo, pos+reach, hi)
	if !vert {
		band = geom.R(lo, pos-reach, hi, pos+reach)
	}
	for _, bi := range r.index().near(band.Expand(rt.cl)) {
		if (first && int(bi) == e.from) || (last && int(bi) == e.to) {
			continue
		}
		o := r.rects[bi].Expand(rt.cl)
		alo, ahi, clo, chi := o.MinY, o.MaxY, o.MinX, o.MaxX
		if !vert {
			alo, ahi, clo, chi = o.MinX, o.MaxX, o.MinY, o.MaxY
		}
		if !(alo < hi && lo < ahi) {
			continue
		}
		switch {
		case chi <= pos:
			min = math.Max(min, chi)
		case clo >= pos:
			max = math.Min(max, clo)
		default: // already too close: stay
			min, max = math.Max(min, pos), math.Min(max, pos)
		}
	}
	min, max = math.Max(min, pos-reach), math.Min(max, pos+reach)
	min, max = math.Min(min, pos), math.Max(max, pos)
	return min, max
}

// rankGroups orders the segments that lie on one line with overlapping
// (or touching) extents, so their routes do not cross where they part.
func (r *router) rankGroups(segs []nseg, vert bool) {
	idx := make([]int, len(segs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		sa, sb := &segs[idx[a]], &segs[idx[b]]
		if sa.pos != sb.pos {
			return sa.pos < sb.pos
		}
		if sa.lo != sb.lo {
			return sa.lo < sb.lo
		}
		return idx[a] < idx[b]
	})
	for i := 0; i < len(idx); {
		j, end := i+1, segs[idx[i]].hi
		for j < len(idx) && segs[idx[j]].pos == segs[idx[i]].pos && segs[idx[j]].lo <= end {
			end = math.Max(end, segs[idx[j]].hi)
			j++
		}
		if j-i > 1 {
			r.rankGroup(segs, idx[i:j], vert)
		}
		i = j
	}
}

// rankGroup ranks one group: a topological order of "lies before" between
// overlapping pairs, lowest first among the ready (a cycle, where three
// routes cannot all be uncrossed, is broken at its lowest).
func (r *router) rankGroup(segs []nseg, g []int, vert bool) {
	n := len(g)
	before := make([][]int, n)
	indeg := make([]int, n)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			sa, sb := &segs[g[a]], &segs[g[b]]
			if sa.hi < sb.lo || sb.hi < sa.lo {
				continue
			}
			if r.lower(sa, sb, vert) {
				before[a] = append(before[a], b)
				indeg[b]++
			} else {
				before[b] = append(before[b], a)
				indeg[a]++
			}
		}
	}
	placed := make([]bool, n)
	for rank := 0; rank < n; rank++ {
		pick := -1
		for a := 0; a < n; a++ {
			if !placed[a] && indeg[a] == 0 {
				pick = a
				break
			}
		}
		if pick < 0 {
			for a := 0; a < n; a++ {
				if !placed[a] {
					pick = a
					break
				}
			}
		}
		placed[pick] = true
		segs[g[pick]].rank = rank
		for _, b := range before[pick] {
			indeg[b]--
		}
	}
}

// Directions as codes (east, south, west, north); none is -1.
func left(d int) int     { return (d + 3) % 4 }
func opposite(d int) int { return (d + 2) % 4 }

// proj is p's coordinate along direction d.
func proj(p geom.Vec, d int) float64 {
	switch d {
	case east:
		return p.X
	case west:
		return -p.X
	case south:
		return p.Y
	}
	return -p.Y
}

// segDir is the direction of travel along segment k of pts.
func segDir(pts []geom.Vec, k int) int { return dirOf(pts[k], pts[k+1]) }

// lower reports whether segment a should lie at a lower coordinate than
// segment b, two segments on one line whose extents overlap. Seen along
// the route of the lower index (A), the two run together for a while and
// then part at each end; to part without crossing, the one that turns
// left (or comes from the left) at an end keeps to the left of the other.
// The shared stretch is followed through common turns until they part.
func (r *router) lower(a, b *nseg, vert bool) bool {
	if a.r == b.r {
		return a.k < b.k
	}
	flip := false
	if a.r > b.r {
		a, b = b, a
		flip = true
	}
	P, Q := r.routes[a.r].pts, r.routes[b.r].pts
	t := segDir(P, a.k)
	sb := 1
	if segDir(Q, b.k) != t {
		sb = -1
	}
	res := follow(P, a.k, Q, b.k, sb, t, true)
	if res == 0 {
		res = follow(P, a.k, Q, b.k, sb, t, false)
	}
	if res == 0 {
		res = 1 // A keeps left
	}
	// A to the left of its travel direction t: is that lower?
	l := left(t)
	leftIsLower := l == west || l == north
	aLower := (res > 0) == leftIsLower
	return aLower != flip
}

// follow looks where routes P (segment i, travelling t) and Q (segment j,
// travelling t when taken in sense sq) part, ahead (fwd) or behind, and
// returns 1 if P should keep left of Q there, -1 if right, 0 if it cannot
// tell (both end there).
func follow(P []geom.Vec, i int, Q []geom.Vec, j int, sq, t int, fwd bool) int {
	const eps = 1e-9
	for steps := 0; steps < len(P)+len(Q); steps++ {
		var pEnd, qEnd geom.Vec
		var dir int // the way we look: t ahead, opposite(t) behind
		if fwd {
			dir = t
			pEnd = P[i+1]
			if sq > 0 {
				qEnd = Q[j+1]
			} else {
				qEnd = Q[j]
			}
		} else {
			dir = opposite(t)
			pEnd = P[i]
			if sq > 0 {
				qEnd = Q[j]
			} else {
				qEnd = Q[j+1]
			}
		}
		pa, qa := arm(P, i, 1, fwd), arm(Q, j, sq, fwd)
		fp, fq := proj(pEnd, dir), proj(qEnd, dir)
		switch {
		case fp > fq+eps:
			pa = dir // P goes on past where Q parts
		case fq > fp+eps:
			qa = dir
		default:
			if pa < 0 && qa < 0 {
				return 0
			}
			if pa == qa {
				// Both turn the same way: they still run together.
				if fwd {
					i, j, t = i+1, j+sq, pa
				} else {
					i, j, t = i-1, j-sq, opposite(pa)
				}
				continue
			}
		}
		rank := func(d int) int {
			switch d {
			case left(t):
				return 0
			case opposite(left(t)):
				return 2
			}
			return 1 // on along the line, or the route ends
		}
		rp, rq := rank(pa), rank(qa)
		switch {
		case rp < rq:
			return 1
		case rp > rq:
			return -1
		}
		return 0
	}
	return 0
}

// arm is the direction route R heads in from the far end of segment k
// (fwd; taken in sense s) or the direction back along the segment before
// it; -1 where the route ends.
func arm(R []geom.Vec, k, s int, fwd bool) int {
	n := len(R) - 1 // segments
	if fwd == (s > 0) {
		if k+1 < n {
			return segDir(R, k+1)
		}
		return -1
	}
	if k > 0 {
		return opposite(segDir(R, k-1))
	}
	return -1
}
