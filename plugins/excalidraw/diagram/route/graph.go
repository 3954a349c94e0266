package route

import (
	"math"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// Directions on the graph: east, south, west, north (y points down). A
// direction's orientation is d&1: 0 horizontal, 1 vertical.
const (
	east = iota
	south
	west
	north
)

// graph is an orthogonal visibility graph: from each interesting point a
// horizontal and a vertical line run until they meet an obstacle's
// interior, and the vertices are where such lines cross. The obstacles are
// the boxes grown by the clearance; their borders are free, so routes run
// along them at exactly the clearance.
type graph struct {
	pos []geom.Vec
	nb  [][4]int32
	at  map[geom.Vec]int32 // the vertex at each point the graph was built through
}

// span is a free stretch [lo, hi] of the line at c.
type span struct {
	c, lo, hi float64
	vs        []int32
}

// buildGraph makes the graph of obstacles (grown boxes) and the points
// that must be vertices (corners and ports).
func buildGraph(obs []geom.Rect, ix *index, points []geom.Vec) *graph {
	g := &graph{at: make(map[geom.Vec]int32)}
	if len(points) == 0 {
		return g
	}
	lim := geom.BoundsOf(points)
	for _, o := range obs {
		lim = lim.Union(o)
	}
	lim = lim.Expand(1)

	hs := freeSpans(obs, ix, points, lim, false)
	vs := freeSpans(obs, ix, points, lim, true)

	// Group the vertical spans by line for lookup.
	type line struct {
		x     float64
		spans []int
	}
	var lines []line
	for i, s := range vs {
		if n := len(lines); n > 0 && lines[n-1].x == s.c {
			lines[n-1].spans = append(lines[n-1].spans, i)
		} else {
			lines = append(lines, line{x: s.c, spans: []int{i}})
		}
	}
	for hi := range hs {
		h := &hs[hi]
		k := sort.Search(len(lines), func(k int) bool { return lines[k].x >= h.lo })
		for ; k < len(lines) && lines[k].x <= h.hi; k++ {
			ln := lines[k].spans
			// The spans of a line are sorted by lo and disjoint.
			j := sort.Search(len(ln), func(j int) bool { return vs[ln[j]].hi >= h.c })
			if j == len(ln) || vs[ln[j]].lo > h.c {
				continue
			}
			// Spans on a line are disjoint, so each crossing is met once.
			id := int32(len(g.pos))
			g.pos = append(g.pos, geom.V(lines[k].x, h.c))
			g.nb = append(g.nb, [4]int32{-1, -1, -1, -1})
			h.vs = append(h.vs, id)
			vs[ln[j]].vs = append(vs[ln[j]].vs, id)
		}
	}
	for _, h := range hs {
		for k := 1; k < len(h.vs); k++ {
			a, b := h.vs[k-1], h.vs[k]
			g.nb[a][east], g.nb[b][west] = b, a
		}
	}
	for _, v := range vs {
		// Filled in order of the horizontal spans, which are sorted by y.
		for k := 1; k < len(v.vs); k++ {
			a, b := v.vs[k-1], v.vs[k]
			g.nb[a][south], g.nb[b][north] = b, a
		}
	}
	// The points' vertices: on the horizontal span that holds them.
	for _, p := range points {
		k := sort.Search(len(hs), func(k int) bool {
			return hs[k].c > p.Y || (hs[k].c == p.Y && hs[k].hi >= p.X)
		})
		if k == len(hs) || hs[k].c != p.Y || hs[k].lo > p.X {
			continue
		}
		vs := hs[k].vs
		j := sort.Search(len(vs), func(j int) bool { return g.pos[vs[j]].X >= p.X })
		if j < len(vs) && g.pos[vs[j]].X == p.X {
			g.at[p] = vs[j]
		}
	}
	return g
}

// freeSpans is, for each line through a point (vertical lines if vert),
// the free stretch that holds the point: the line up to the interiors of
// the obstacles on either side, or to lim. Spans come sorted by line,
// then by lo, without repeats.
func freeSpans(obs []geom.Rect, ix *index, points []geom.Vec, lim geom.Rect, vert bool) []span {
	type pt struct{ c, t float64 } // c: the line's coordinate; t: along it
	ps := make([]pt, len(points))
	for i, p := range points {
		if vert {
			ps[i] = pt{p.X, p.Y}
		} else {
			ps[i] = pt{p.Y, p.X}
		}
	}
	sort.Slice(ps, func(a, b int) bool {
		if ps[a].c != ps[b].c {
			return ps[a].c < ps[b].c
		}
		return ps[a].t < ps[b].t
	})
	// An obstacle as [across lo, across hi] × [along lo, along hi].
	type ob struct{ alo, ahi, lo, hi float64 }
	var os []ob
	tmin, tmax := lim.MinX, lim.MaxX
	if vert {
		tmin, tmax = lim.MinY, lim.MaxY
	}
	var out []span
	var blocked [][2]float64
	for i := 0; i < len(ps); {
		c := ps[i].c
		j := i
		for j < len(ps) && ps[j].c == c {
			j++
		}
		// Blocked open intervals on this line, merged.
		blocked = blocked[:0]
		line := geom.R(lim.MinX, c, lim.MaxX, c)
		if vert {
			line = geom.R(c, lim.MinY, c, lim.MaxY)
		}
		os = os[:0]
		for _, k := range ix.near(line) {
			o := obs[k]
			if vert {
				os = append(os, ob{o.MinX, o.MaxX, o.MinY, o.MaxY})
			} else {
				os = append(os, ob{o.MinY, o.MaxY, o.MinX, o.MaxX})
			}
		}
		sort.Slice(os, func(a, b int) bool {
			if os[a].lo != os[b].lo {
				return os[a].lo < os[b].lo
			}
			return os[a].hi < os[b].hi
		})
		for _, o := range os {
			if o.alo < c && c < o.ahi && o.lo < o.hi {
				if n := len(blocked); n > 0 && o.lo < blocked[n-1][1] {
					blocked[n-1][1] = math.Max(blocked[n-1][1], o.hi)
				} else {
					blocked = append(blocked, [2]float64{o.lo, o.hi})
				}
			}
		}
		last := -1 // index of the last free stretch emitted on this line
		for k := i; k < j; k++ {
			t := ps[k].t
			// The first blocked interval ending after t.
			b := sort.Search(len(blocked), func(b int) bool { return blocked[b][1] > t })
			if b < len(blocked) && blocked[b][0] < t {
				continue // inside an obstacle
			}
			lo, hi := tmin, tmax
			if b > 0 {
				lo = blocked[b-1][1]
			}
			if b < len(blocked) {
				hi = blocked[b][0]
			}
			if last >= 0 && out[last].lo == lo && out[last].hi == hi {
				continue
			}
			out = append(out, span{c: c, lo: lo, hi: hi})
			last = len(out) - 1
		}
		i = j
	}
	return out
}

// dirOf is the direction from a to b (which differ in one coordinate).
func dirOf(a, b geom.Vec) int {
	switch {
	case b.X > a.X:
		return east
	case b.X < a.X:
		return west
	case b.Y > a.Y:
		return south
	default:
		return north
	}
}
