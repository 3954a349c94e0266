package route

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// port is a place a route may leave or enter a box: a point on a side,
// and the end of its stub (the point the clearance out from it, a graph
// vertex), with what using it costs.
type port struct {
	side Side
	at   geom.Vec
	stub geom.Vec
	v    int32
	pen  float64
}

// stubOrient is the orientation of a route's first segment at a side: 1
// (vertical) at the top and bottom.
func stubOrient(s Side) int {
	if s.horizontal() {
		return 1
	}
	return 0
}

// search is A* over the states of a graph: a vertex and the direction
// the path arrived in (so a bend is a change of direction, and a path
// never turns back on itself).
type search struct {
	g          *graph
	o          Options
	cost       []float64
	prev       []int32
	seen, done []uint32
	gen        uint32
	h          heap[item]
	// arms counts, at each vertex, the routes through it by the pair of
	// directions they leave it by (see armPair).
	arms [][6]int32
	// foreign are the regions the edge being routed pays to enter.
	foreign []geom.Rect
	// budget bounds the states a search takes from its heap (0: none);
	// exhausted says the last search stopped at it.
	budget    int
	exhausted bool
	// noCross, when set, has the search pay nothing for crossings.
	noCross bool
}

// entering is what moving from p to q costs in regions entered: those
// the segment reaches into from outside.
func (s *search) entering(p, q geom.Vec) float64 {
	c := 0.0
	for _, r := range s.foreign {
		if !inside(r, p) && min(p.X, q.X) < r.MaxX && max(p.X, q.X) > r.MinX && min(p.Y, q.Y) < r.MaxY && max(p.Y, q.Y) > r.MinY {
			c += s.o.RegionPenalty
		}
	}
	return c
}

// inside reports whether p lies in r's interior.
func inside(r geom.Rect, p geom.Vec) bool {
	return p.X > r.MinX && p.X < r.MaxX && p.Y > r.MinY && p.Y < r.MaxY
}

func newSearch(g *graph, o Options) *search {
	n := 4 * len(g.pos)
	return &search{
		g: g, o: o,
		cost: make([]float64, n), prev: make([]int32, n),
		seen: make([]uint32, n), done: make([]uint32, n),
		arms: make([][6]int32, len(g.pos)),
	}
}

type item struct {
	f, g float64
	s    int32
}

// before orders the search's heap, cheapest first: lowest f, then
// highest g (the deeper of two ties), then lowest state.
func (a item) before(b item) bool {
	if a.f != b.f {
		return a.f < b.f
	}
	if a.g != b.g {
		return a.g > b.g
	}
	return a.s < b.s
}

// find is the cheapest path from one of src to one of dst: its vertices,
// the ports it uses and its cost.
func (s *search) find(src, dst []port) (verts []int32, si, di int, cost float64, ok bool) {
	s.gen++
	if s.gen == 0 { // wrapped: clear the marks
		clear(s.seen)
		clear(s.done)
		s.gen = 1
	}
	s.h = s.h[:0]
	pos := s.g.pos
	// hcost is a lower bound of the cost on from state st: the distance
	// and the fewest bends to a target port, and its side's penalty.
	type target struct {
		at  geom.Vec
		in  int
		pen float64
	}
	ts := make([]target, 0, len(dst))
	for _, t := range dst {
		if t.v >= 0 {
			ts = append(ts, target{t.stub, opposite(outward(t.side)), t.pen})
		}
	}
	hcost := func(st int32) float64 {
		best := math.Inf(1)
		p, d := pos[st>>2], int(st&3)
		for _, t := range ts {
			c := math.Abs(p.X-t.at.X) + math.Abs(p.Y-t.at.Y) + t.pen +
				float64(fewestBends(p, d, t.at, t.in))*s.o.BendPenalty
			if c < best {
				best = c
			}
		}
		return best
	}
	startPort := make(map[int32]int)
	relax := func(st int32, c float64, from int32) {
		if s.seen[st] == s.gen && s.cost[st] <= c {
			return
		}
		s.seen[st] = s.gen
		s.cost[st] = c
		s.prev[st] = from
		s.h.push(item{f: c + hcost(st), g: c, s: st})
	}
	for i, p := range src {
		if p.v < 0 {
			continue
		}
		st := p.v*4 + int32(outward(p.side))
		if s.seen[st] == s.gen && s.cost[st] <= p.pen {
			continue
		}
		relax(st, p.pen, -1)
		startPort[st] = i
	}
	best, bestState, bestDst := math.Inf(1), int32(-1), -1
	s.exhausted = false
	pops := 0
	for len(s.h) > 0 {
		if pops++; s.budget > 0 && pops > s.budget {
			s.exhausted = true
			return nil, 0, 0, 0, false
		}
		it := s.h.pop()
		if it.f >= best {
			break
		}
		if s.done[it.s] == s.gen || it.g > s.cost[it.s] {
			continue
		}
		s.done[it.s] = s.gen
		v, in := it.s>>2, int(it.s&3)
		o := in & 1
		for k, d := range dst {
			if d.v != v {
				continue
			}
			c := it.g + d.pen
			if o != stubOrient(d.side) {
				c += s.o.BendPenalty
			}
			if c < best {
				best, bestState, bestDst = c, it.s, k
			}
		}
		pv := pos[v]
		for dir := 0; dir < 4; dir++ {
			w := s.g.nb[v][dir]
			if w < 0 || dir == opposite(in) {
				continue
			}
			pw := pos[w]
			c := it.g + math.Abs(pw.X-pv.X) + math.Abs(pw.Y-pv.Y)
			if dir != in {
				c += s.o.BendPenalty
			}
			// Reaching a vertex that a route passes straight through the
			// other way crosses it, or joins it only to leave it on one
			// side or the other, which mostly crosses it too.
			c += s.crossCost(w, dir)
			if len(s.foreign) > 0 {
				c += s.entering(pv, pw)
			}
			relax(w*4+int32(dir), c, it.s)
		}
	}
	if bestState < 0 {
		return nil, 0, 0, 0, false
	}
	st := bestState
	for {
		verts = append(verts, st>>2)
		if s.prev[st] < 0 {
			break
		}
		st = s.prev[st]
	}
	for i, j := 0, len(verts)-1; i < j; i, j = i+1, j-1 {
		verts[i], verts[j] = verts[j], verts[i]
	}
	return verts, startPort[st], bestDst, best, true
}

// pass is a vertex a route goes through and the two directions it leaves
// it by (its arms there).
type pass struct {
	v    int32
	a, b int
}

// armPair numbers the six pairs of directions.
func armPair(a, b int) int {
	if a > b {
		a, b = b, a
	}
	return [4][4]int{{-1, 0, 1, 2}, {0, -1, 3, 4}, {1, 3, -1, 5}, {2, 4, 5, -1}}[a][b]
}

// crossCost is what reaching vertex w heading dir costs: a crossing for
// each route through w with an arm across the way in and not leaving by
// the way in (with which the path would already run). A route straight
// across crosses the path here; one that turns at w either crosses it or
// runs with it a while and, more often than not, parts on the other side.
func (s *search) crossCost(w int32, dir int) float64 {
	if s.noCross {
		return 0
	}
	in := opposite(dir)
	var n int32
	for a := 0; a < 4; a++ {
		for b := a + 1; b < 4; b++ {
			if a == in || b == in || (a&1 == dir&1 && b&1 == dir&1) {
				continue
			}
			n += s.arms[w][armPair(a, b)]
		}
	}
	return float64(n) * s.o.CrossingPenalty
}

// passes are the vertices of a path, leaving by side a and entering by
// side b, with its arms at each.
func (s *search) passes(verts []int32, a, b Side) []pass {
	out := make([]pass, 0, len(verts))
	for k, v := range verts {
		in, o := outward(a), opposite(outward(b))
		if k > 0 {
			in = dirOf(s.g.pos[verts[k-1]], s.g.pos[v])
		}
		if k < len(verts)-1 {
			o = dirOf(s.g.pos[v], s.g.pos[verts[k+1]])
		}
		out = append(out, pass{v, opposite(in), o})
	}
	return out
}

// occupy adds (d = 1) or removes (d = -1) a route's passes.
func (s *search) occupy(ps []pass, d int32) {
	for _, p := range ps {
		s.arms[p.v][armPair(p.a, p.b)] += d
	}
}

// fewestBends is the fewest bends an orthogonal path needs from p heading
// d to q arriving heading a, obstacles aside.
func fewestBends(p geom.Vec, d int, q geom.Vec, a int) int {
	switch {
	case d == a:
		if across(p, d) == across(q, d) && proj(q, d) >= proj(p, d) {
			return 0
		}
		return 2
	case d == opposite(a):
		return 2
	}
	// One turn, where q's line along a meets p's along d, if that corner
	// is ahead of p and before q.
	if proj(q, d) >= proj(p, d) && proj(p, a) <= proj(q, a) {
		return 1
	}
	return 3
}

// outward is the direction out of a box through side s.
func outward(s Side) int {
	switch s {
	case Top:
		return north
	case Right:
		return east
	case Bottom:
		return south
	}
	return west
}
