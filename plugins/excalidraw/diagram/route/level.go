package route

import (
	"math"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// level routes edges with the boxes grown by one clearance.
type level struct {
	r   *router
	cl  float64
	obs []geom.Rect
	ix  *index // of obs
	g   *graph
	s   *search
	// stubs caches whether a port's stub is free: its vertex, or -1.
	stubs map[stubKey]int32
}

type stubKey struct {
	box int
	at  geom.Vec
}

// regionBudget is how many states a search that pays for regions may
// take before it gives them up.
const regionBudget = 5000

// regionReach is the least distance round the box of an edge's ends
// within which the regions it pays to enter are looked for.
const regionReach = 400

// margin is how far from the ends of a side of box b, length long, its
// ports stay: a spacing (a quarter of a short side), and past a rounded
// corner (Options.Corners) while the side's middle half is left; half
// the side, its middle, for a box of Options.Tips.
func (r *router) margin(b int, length float64) float64 {
	m := math.Min(r.o.Spacing, length/4)
	switch c := r.corners[b]; {
	case math.IsInf(c, 1): // Options.Tips: the middle only
		return length / 2
	case c > m:
		m = math.Min(c, length/4)
	}
	return m
}

// portsOf are the ports of box b for an edge whose other end is box
// other: the middle of each side and, where the boxes face each other
// across a gap, the point facing the other box.
func (r *router) portsOf(b int, pref Side, other int, cl float64) []port {
	rect := r.rects[b]
	var ps []port
	add := func(s Side, at geom.Vec) {
		for _, p := range ps {
			if p.at.Equal(at) {
				return
			}
		}
		var stub geom.Vec
		switch s {
		case Top:
			stub = geom.V(at.X, rect.MinY-cl)
		case Bottom:
			stub = geom.V(at.X, rect.MaxY+cl)
		case Left:
			stub = geom.V(rect.MinX-cl, at.Y)
		case Right:
			stub = geom.V(rect.MaxX+cl, at.Y)
		}
		pen := 0.0
		if pref != Auto && s != pref {
			pen = r.o.SidePenalty
		}
		ps = append(ps, port{side: s, at: at, stub: stub, v: -1, pen: pen})
	}
	for s := Top; s <= Left; s++ {
		add(s, Along(rect, s, 0.5))
	}
	if other != b {
		o := r.rects[other]
		switch {
		case o.MinY >= rect.MaxY:
			if x, ok := r.facing(b, other, rect.MinX, rect.MaxX, o.MinX, o.MaxX); ok {
				add(Bottom, geom.V(x, rect.MaxY))
			}
		case o.MaxY <= rect.MinY:
			if x, ok := r.facing(b, other, rect.MinX, rect.MaxX, o.MinX, o.MaxX); ok {
				add(Top, geom.V(x, rect.MinY))
			}
		}
		switch {
		case o.MinX >= rect.MaxX:
			if y, ok := r.facing(b, other, rect.MinY, rect.MaxY, o.MinY, o.MaxY); ok {
				add(Right, geom.V(rect.MaxX, y))
			}
		case o.MaxX <= rect.MinX:
			if y, ok := r.facing(b, other, rect.MinY, rect.MaxY, o.MinY, o.MaxY); ok {
				add(Left, geom.V(rect.MinX, y))
			}
		}
	}
	return ps
}

// facing is where two boxes spanning [a0, a1] and [b0, b1] across a gap
// would meet with a straight route: within both, clear of their ends by
// the margin, at the middle of the narrower box if that is possible, else
// of the wider, else of the stretch they share. It is the same seen from
// either box.
func (r *router) facing(a, b int, a0, a1, b0, b1 float64) (float64, bool) {
	ma, mb := r.margin(a, a1-a0), r.margin(b, b1-b0)
	lo, hi := math.Max(a0+ma, b0+mb), math.Min(a1-ma, b1-mb)
	if lo > hi {
		return 0, false
	}
	ca, cb := (a0+a1)/2, (b0+b1)/2
	if a1-a0 > b1-b0 || (a1-a0 == b1-b0 && cb < ca) {
		ca, cb = cb, ca // ca: the narrower's middle
	}
	switch {
	case lo <= ca && ca <= hi:
		return ca, true
	case lo <= cb && cb <= hi:
		return cb, true
	}
	return (lo + hi) / 2, true
}

// routeLevel routes the pending edges (in order) with clearance cl and
// returns those it found no route for. The first level also routes again,
// once, each edge that crosses others.
func (r *router) routeLevel(pending []int, cl float64, first bool) (failed []int) {
	lv := &level{r: r, cl: cl, stubs: make(map[stubKey]int32)}
	lv.obs = make([]geom.Rect, len(r.rects))
	var points []geom.Vec
	for i, b := range r.rects {
		o := b.Expand(cl)
		lv.obs[i] = o
		points = append(points, geom.V(o.MinX, o.MinY), geom.V(o.MaxX, o.MinY), geom.V(o.MinX, o.MaxY), geom.V(o.MaxX, o.MaxY))
	}
	// Lines round each region, the clearance outside it, so that routes
	// have a way round.
	for _, g := range r.regions {
		o := g.Expand(cl)
		points = append(points, geom.V(o.MinX, o.MinY), geom.V(o.MaxX, o.MinY), geom.V(o.MinX, o.MaxY), geom.V(o.MaxX, o.MaxY))
	}
	type ends struct{ src, dst []port }
	eps := make([]ends, len(pending))
	for k, i := range pending {
		e := r.edges[i]
		eps[k] = ends{r.portsOf(e.from, e.fromSide, e.to, cl), r.portsOf(e.to, e.toSide, e.from, cl)}
		for _, p := range eps[k].src {
			points = append(points, p.stub)
		}
		for _, p := range eps[k].dst {
			points = append(points, p.stub)
		}
	}
	lv.ix = newIndex(lv.obs)
	lv.g = buildGraph(lv.obs, lv.ix, points)
	lv.s = newSearch(lv.g, r.o)
	for k := range eps {
		lv.bind(r.edges[pending[k]].from, eps[k].src)
		lv.bind(r.edges[pending[k]].to, eps[k].dst)
	}
	type done struct {
		k      int
		passes []pass
	}
	var routed []done
	for k, i := range pending {
		rt, ps, ok := lv.find(i, eps[k].src, eps[k].dst)
		if !ok {
			failed = append(failed, i)
			continue
		}
		r.routes[i] = rt
		r.use(i, rt, 1)
		lv.s.occupy(ps, 1)
		routed = append(routed, done{k, ps})
	}
	if first {
		// Route again, worst first, each edge that crosses others, and
		// keep the new route if it crosses fewer.
		type worst struct{ at, n int }
		var ws []worst
		for at, d := range routed {
			if n := r.routeCrossings(pending[d.k]); n > 0 {
				ws = append(ws, worst{at, n})
			}
		}
		sort.SliceStable(ws, func(a, b int) bool { return ws[a].n > ws[b].n })
		for _, w := range ws {
			d := &routed[w.at]
			i := pending[d.k]
			old := r.routes[i]
			before := r.routeCrossings(i)
			if before == 0 {
				continue
			}
			lv.s.occupy(d.passes, -1)
			r.use(i, old, -1)
			if rt, ps, ok := lv.find(i, eps[d.k].src, eps[d.k].dst); ok {
				r.routes[i] = rt
				if r.routeCrossings(i) < before {
					d.passes = ps
				} else {
					r.routes[i] = old
				}
			}
			r.use(i, r.routes[i], 1)
			lv.s.occupy(d.passes, 1)
		}
	}
	return failed
}

// bind sets each port's vertex, or -1 where its stub is not free.
func (lv *level) bind(box int, ps []port) {
	for i := range ps {
		p := &ps[i]
		key := stubKey{box, p.at}
		v, ok := lv.stubs[key]
		if !ok {
			v = -1
			if id, in := lv.g.at[p.stub]; in && lv.stubFree(box, p.at, p.stub) {
				v = id
			}
			lv.stubs[key] = v
		}
		p.v = v
	}
}

// stubFree reports whether the stub from a to b (of box own) stays out of
// every other obstacle's interior.
func (lv *level) stubFree(own int, a, b geom.Vec) bool {
	lo, hi := geom.V(math.Min(a.X, b.X), math.Min(a.Y, b.Y)), geom.V(math.Max(a.X, b.X), math.Max(a.Y, b.Y))
	for _, i := range lv.ix.near(geom.R(lo.X, lo.Y, hi.X, hi.Y)) {
		if int(i) == own {
			continue
		}
		o := lv.obs[i]
		// The closed stub against the open interior.
		if o.MinX < hi.X && lo.X < o.MaxX && o.MinY < hi.Y && lo.Y < o.MaxY {
			return false
		}
	}
	return true
}

// find routes edge i between the given ports.
func (lv *level) find(i int, src, dst []port) (*route, []pass, bool) {
	e := lv.r.edges[i]
	lv.s.foreign = lv.s.foreign[:0]
	if len(e.foreign) > 0 {
		// Only the regions near the way between the ends: a route that
		// strays further pays for its length already.
		a, b := lv.r.rects[e.from], lv.r.rects[e.to]
		reach := a.Union(b)
		reach = reach.Expand(math.Max(regionReach, 0.5*math.Max(reach.W(), reach.H())))
		for _, g := range e.foreign {
			if g.Intersects(reach) {
				lv.s.foreign = append(lv.s.foreign, g)
			}
		}
	}
	src, dst = lv.r.crowded(e.from, src), lv.r.crowded(e.to, dst)
	// Penalties the distance does not foresee (regions, crossings) make a
	// search look far for a way round. Past a budget it gives up the
	// regions and takes the way through; past another, the crossings too,
	// and takes the shortest way with fewest bends, which it finds at
	// once: the time an edge takes stays bounded in a crowded drawing.
	defer func() { lv.s.budget, lv.s.noCross = 0, false }()
	lv.s.budget = searchBudget
	if len(lv.s.foreign) > 0 {
		lv.s.budget = regionBudget
	}
	rt, ps, ok := lv.findPorts(e, src, dst)
	if !ok && lv.s.exhausted && len(lv.s.foreign) > 0 {
		lv.s.foreign, lv.s.budget = lv.s.foreign[:0], searchBudget
		rt, ps, ok = lv.findPorts(e, src, dst)
	}
	if !ok && lv.s.exhausted {
		lv.s.budget, lv.s.noCross = 0, true
		rt, ps, ok = lv.findPorts(e, src, dst)
	}
	return rt, ps, ok
}

// searchBudget is how many states a search may take before it stops
// paying for crossings.
const searchBudget = 20000

// findPorts is find's search between the ports, with the search's
// regions and budget as they are.
func (lv *level) findPorts(e edgeEnds, src, dst []port) (*route, []pass, bool) {
	var (
		verts  []int32
		sp, dp port
		found  bool
	)
	if e.from == e.to {
		// A loop leaves by one side and enters by another.
		best := math.Inf(1)
		for _, p := range src {
			var ds []port
			for _, d := range dst {
				if d.side != p.side {
					ds = append(ds, d)
				}
			}
			vs, _, di, c, ok := lv.s.find([]port{p}, ds)
			if ok && c < best {
				best, verts, sp, dp, found = c, vs, p, ds[di], true
			}
		}
	} else {
		vs, si, di, _, ok := lv.s.find(src, dst)
		if ok {
			verts, sp, dp, found = vs, src[si], dst[di], true
		}
	}
	if !found {
		return nil, nil, false
	}
	pts := make([]geom.Vec, 0, len(verts)+2)
	pts = append(pts, sp.at)
	for _, v := range verts {
		pts = append(pts, lv.g.pos[v])
	}
	pts = append(pts, dp.at)
	pts = Simplify(pts)
	rt := &route{pts: pts, box: geom.BoundsOf(pts), from: sp.side, to: dp.side, cl: lv.cl}
	return rt, lv.s.passes(verts, sp.side, dp.side), true
}

// crowded is ports of box b with what their side's crowding costs added:
// a bend for each end beyond what the side holds at Options.Spacing.
func (r *router) crowded(b int, ps []port) []port {
	out := make([]port, len(ps))
	rect := r.rects[b]
	for i, p := range ps {
		length := rect.H()
		if p.side.horizontal() {
			length = rect.W()
		}
		fits := 1 + int(math.Floor((length-2*r.margin(b, length))/r.o.Spacing))
		if n := r.sideUse[sideKey{b, p.side}] + 1; n > fits {
			p.pen += float64(n-fits) * r.o.BendPenalty
		}
		out[i] = p
	}
	return out
}

type sideKey struct {
	box  int
	side Side
}

// use counts (d = 1) or uncounts (d = -1) a route's ends on its sides.
func (r *router) use(i int, rt *route, d int) {
	e := r.edges[i]
	r.sideUse[sideKey{e.from, rt.from}] += d
	r.sideUse[sideKey{e.to, rt.to}] += d
}
