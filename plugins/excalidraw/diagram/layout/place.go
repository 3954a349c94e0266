package layout

import (
	"math"
	"slices"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// Coordinates for Layered, in the top-to-bottom frame.

// constraint is x[b] >= x[a] + w, between blocks.
type constraint struct {
	a, b int
	w    float64
}

// unit is what moves as one: a block, or every block in a group.
type unit struct {
	blocks  []int
	in, out []int    // constraints from outside and to outside
	segs    [][2]int // edges between a member vertex and an outside one
	tight   int      // a group's side: kLeft moves right as far as it can, kRight left
}

func (l *layers) newBorder(kind, grp, rank int) int {
	l.vs = append(l.vs, vertex{kind: kind, grp: grp, rank: rank, edge: -1})
	l.pos = append(l.pos, 0)
	return len(l.vs) - 1
}

// padBefore is the room inside a group's left side: its padding, and its
// label's height when the label turns to the left side (LR, RL).
func (l *layers) padBefore(grp int) float64 {
	if l.swap {
		return l.o.GroupPadding + l.glabel[grp].Y
	}
	return l.o.GroupPadding
}

func (l *layers) gap(a, b int) float64 {
	va, vb := &l.vs[a], &l.vs[b]
	switch {
	case va.kind == kLeft:
		return l.padBefore(va.grp)
	case vb.kind == kRight:
		return l.o.GroupPadding
	case va.kind == kRight || vb.kind == kLeft:
		return l.o.NodeGap
	case (va.kind == kNode || va.kind == kPlace) && (vb.kind == kNode || vb.kind == kPlace):
		return l.o.NodeGap
	}
	return l.o.NodeGap / 2
}

type pair struct{ u, v int }

func edgeVertex(kind int) bool { return kind == kDummy || kind == kLabel }

// place gives every vertex its x and every layer its y.
func (l *layers) place() {
	ng := len(l.parent)
	seqs := make([][]int, len(l.layers))
	lastL, lastR := make([]int, ng), make([]int, ng)
	l.firstL, l.firstR = make([]int, ng), make([]int, ng)
	for i := range lastL {
		lastL[i], lastR[i], l.firstL[i], l.firstR[i] = -1, -1, -1, -1
	}
	forced := make([][]pair, len(l.layers)) // between layer r-1 and r
	var open, ch []int
	for r, layer := range l.layers {
		seq := make([]int, 0, len(layer)+4)
		open = open[:0]
		border := func(kind, G int) {
			b := l.newBorder(kind, G, r)
			last, first := lastL, l.firstL
			if kind == kRight {
				last, first = lastR, l.firstR
			}
			if last[G] >= 0 && l.vs[last[G]].rank == r-1 {
				forced[r] = append(forced[r], pair{last[G], b})
			}
			if first[G] < 0 {
				first[G] = b
			}
			last[G] = b
			seq = append(seq, b)
		}
		closeTo := func(k int) {
			for j := len(open) - 1; j >= k; j-- {
				border(kRight, open[j])
			}
			open = open[:k]
		}
		for _, v := range layer {
			ch = l.chain(l.vs[v].grp, ch)
			k := 0
			for k < len(open) && k < len(ch) && open[k] == ch[k] {
				k++
			}
			closeTo(k)
			for _, G := range ch[k:] {
				border(kLeft, G)
				open = append(open, G)
			}
			seq = append(seq, v)
		}
		closeTo(0)
		seqs[r] = seq
	}
	spos := make([]int, len(l.vs))
	for _, seq := range seqs {
		for i, v := range seq {
			spos[v] = i
		}
	}

	// Blocks: a long edge's dummies in one line where that crosses no
	// other line; a group's sides always.
	root := make([]int, len(l.vs))
	align := func(dummies bool) {
		for i := range root {
			root[i] = i
		}
		for r := 1; r < len(seqs); r++ {
			var acc []pair // sorted by the upper end, so by the lower too
			try := func(p pair) bool {
				i := sort.Search(len(acc), func(k int) bool { return spos[acc[k].u] > spos[p.u] })
				if i > 0 && spos[acc[i-1].v] >= spos[p.v] || i < len(acc) && spos[acc[i].v] <= spos[p.v] {
					return false
				}
				acc = slices.Insert(acc, i, p)
				return true
			}
			for _, p := range forced[r] {
				try(p)
				root[p.v] = root[p.u]
			}
			if !dummies {
				continue
			}
			// A long edge's inner segments first, then every one-to-one
			// link within a group (a chain in one line).
			for _, inner := range []bool{true, false} {
				for _, v := range seqs[r] {
					vx := &l.vs[v]
					if len(vx.up) != 1 || root[v] != v {
						continue
					}
					u := vx.up[0]
					ux := &l.vs[u]
					if inner != (edgeVertex(ux.kind) && edgeVertex(vx.kind)) || ux.grp != vx.grp || len(ux.down) != 1 && !inner {
						continue
					}
					if try(pair{u, v}) {
						root[v] = root[u]
					}
				}
			}
		}
	}

	var (
		nb      int
		blockOf []int
		members [][]int
		cons    []constraint
		ins     [][]int
		outs    [][]int
		topo    []int
	)
	build := func() bool {
		blockOf = make([]int, len(l.vs))
		idx := make(map[int]int)
		members = members[:0]
		for v := range l.vs {
			b, ok := idx[root[v]]
			if !ok {
				b = len(members)
				idx[root[v]] = b
				members = append(members, nil)
			}
			blockOf[v] = b
			members[b] = append(members[b], v)
		}
		nb = len(members)
		cons = cons[:0]
		for _, seq := range seqs {
			for i := 0; i+1 < len(seq); i++ {
				a, b := seq[i], seq[i+1]
				w := l.vs[a].w/2 + l.vs[a].extra + l.gap(a, b) + l.vs[b].w/2
				cons = append(cons, constraint{blockOf[a], blockOf[b], w})
			}
		}
		if !l.swap {
			for G := range l.parent {
				if lb := l.glabel[G]; lb.X > 0 && l.firstL[G] >= 0 {
					cons = append(cons, constraint{blockOf[l.firstL[G]], blockOf[l.firstR[G]], lb.X + 2*l.inset})
				}
			}
		}
		ins, outs = make([][]int, nb), make([][]int, nb)
		indeg := make([]int, nb)
		for i, c := range cons {
			outs[c.a] = append(outs[c.a], i)
			ins[c.b] = append(ins[c.b], i)
			indeg[c.b]++
		}
		topo = topo[:0]
		for b := 0; b < nb; b++ {
			if indeg[b] == 0 {
				topo = append(topo, b)
			}
		}
		for k := 0; k < len(topo); k++ {
			for _, i := range outs[topo[k]] {
				if c := cons[i].b; indeg[c] > 0 {
					if indeg[c]--; indeg[c] == 0 {
						topo = append(topo, c)
					}
				}
			}
		}
		return len(topo) == nb
	}
	align(true)
	if !build() {
		align(false)
		build()
	}

	// Start: pushed left and pushed right, averaged (both keep every
	// separation, so their mean does).
	xl, xr := make([]float64, nb), make([]float64, nb)
	for _, b := range topo {
		for _, i := range ins[b] {
			xl[b] = math.Max(xl[b], xl[cons[i].a]+cons[i].w)
		}
	}
	wide := 0.0
	for k := len(topo) - 1; k >= 0; k-- {
		b := topo[k]
		for _, i := range outs[b] {
			xr[b] = math.Min(xr[b], xr[cons[i].b]-cons[i].w)
		}
		wide = math.Max(wide, xl[b])
	}
	bx := make([]float64, nb)
	for b := range bx {
		bx[b] = (xl[b] + xr[b] + wide) / 2
	}

	// Units: each block, then each group, innermost first.
	blockGrp := make([]int, nb)
	units := make([]unit, nb, nb+ng)
	for b := range units {
		v := members[b][0]
		blockGrp[b] = l.vs[v].grp
		units[b].blocks = []int{b}
		if k := l.vs[v].kind; k == kLeft || k == kRight {
			units[b].tight = k
		}
	}
	groupUnit := make([]unit, ng)
	for b := range units {
		for A := blockGrp[b]; A >= 0; A = l.parent[A] {
			groupUnit[A].blocks = append(groupUnit[A].blocks, b)
		}
	}
	for i, c := range cons {
		if c.a == c.b {
			continue
		}
		units[c.a].out = append(units[c.a].out, i)
		units[c.b].in = append(units[c.b].in, i)
		ga, gb := blockGrp[c.a], blockGrp[c.b]
		for A := ga; A >= 0; A = l.parent[A] {
			if !l.within(gb, A) {
				groupUnit[A].out = append(groupUnit[A].out, i)
			}
		}
		for B := gb; B >= 0; B = l.parent[B] {
			if !l.within(ga, B) {
				groupUnit[B].in = append(groupUnit[B].in, i)
			}
		}
	}
	for v := range l.vs {
		for _, w := range l.vs[v].down {
			bv, bw := blockOf[v], blockOf[w]
			if bv == bw {
				continue
			}
			units[bv].segs = append(units[bv].segs, [2]int{v, w})
			units[bw].segs = append(units[bw].segs, [2]int{w, v})
			gv, gw := l.vs[v].grp, l.vs[w].grp
			for A := gv; A >= 0; A = l.parent[A] {
				if !l.within(gw, A) {
					groupUnit[A].segs = append(groupUnit[A].segs, [2]int{v, w})
				}
			}
			for B := gw; B >= 0; B = l.parent[B] {
				if !l.within(gv, B) {
					groupUnit[B].segs = append(groupUnit[B].segs, [2]int{w, v})
				}
			}
		}
	}
	order := make([]int, 0, nb+ng)
	order = append(order, topo...)
	depth := make([]int, ng)
	for G := range depth {
		for A := l.parent[G]; A >= 0; A = l.parent[A] {
			depth[G]++
		}
	}
	gs := make([]int, ng)
	for G := range gs {
		gs[G] = G
	}
	slices.SortStableFunc(gs, func(a, b int) int { return depth[b] - depth[a] })
	for _, G := range gs {
		order = append(order, len(units))
		units = append(units, groupUnit[G])
	}

	var diffs []float64
	move := func(u *unit) {
		lo, hi := math.Inf(-1), math.Inf(1)
		for _, i := range u.in {
			c := cons[i]
			lo = math.Max(lo, bx[c.a]+c.w-bx[c.b])
		}
		for _, i := range u.out {
			c := cons[i]
			hi = math.Min(hi, bx[c.b]-c.w-bx[c.a])
		}
		if lo > hi+1e-9 {
			return
		}
		var t float64
		switch {
		case u.tight == kLeft:
			t = hi
		case u.tight == kRight:
			t = lo
		case len(u.segs) == 0:
			return
		default:
			diffs = diffs[:0]
			for _, s := range u.segs {
				diffs = append(diffs, bx[blockOf[s[1]]]-bx[blockOf[s[0]]])
			}
			slices.Sort(diffs)
			m := len(diffs) / 2
			t = diffs[m]
			if len(diffs)%2 == 0 {
				t = (diffs[m-1] + diffs[m]) / 2
			}
		}
		t = math.Max(lo, math.Min(hi, t))
		if math.IsInf(t, 0) || math.Abs(t) < 1e-9 {
			return
		}
		for _, b := range u.blocks {
			bx[b] += t
		}
	}
	for pass := 0; pass < 12; pass++ {
		if pass%2 == 0 {
			for _, k := range order {
				move(&units[k])
			}
		} else {
			for i := len(order) - 1; i >= 0; i-- {
				move(&units[order[i]])
			}
		}
	}
	// Sides hug what they hold, innermost group first.
	for _, k := range topo {
		if units[k].tight == kLeft {
			move(&units[k])
		}
	}
	for k := len(topo) - 1; k >= 0; k-- {
		if units[topo[k]].tight == kRight {
			move(&units[topo[k]])
		}
	}
	l.x = make([]float64, len(l.vs))
	for v := range l.vs {
		l.x[v] = bx[blockOf[v]]
	}
	l.placeY(gs)
}

// placeY spaces the layers: each as tall as its tallest vertex, RankGap
// apart (half of it around a half layer of labels), plus the room of the
// groups that start above or end below it.
func (l *layers) placeY(deepestFirst []int) {
	nr := len(l.layers)
	ng := len(l.parent)
	l.hgt = make([]float64, nr)
	for r, layer := range l.layers {
		for _, v := range layer {
			l.hgt[r] = math.Max(l.hgt[r], math.Max(l.vs[v].h, l.vs[v].band))
		}
	}
	l.topExt, l.botExt, l.deficit = make([]float64, ng), make([]float64, ng), make([]float64, ng)
	l.y = make([]float64, nr)
	gapR := l.o.RankGap / float64(l.minlen)
	for round := 0; round < 2*ng+2; round++ {
		for _, G := range deepestFirst {
			top, bot := l.o.GroupPadding, l.o.GroupPadding+l.deficit[G]
			switch l.dir {
			case diagram.TopToBottom:
				top += l.glabel[G].Y
			case diagram.BottomToTop:
				bot += l.glabel[G].Y
			}
			l.topExt[G], l.botExt[G] = top, bot
		}
		for _, G := range deepestFirst {
			if p := l.parent[G]; p >= 0 {
				if l.gmin[p] == l.gmin[G] {
					l.topExt[p] = math.Max(l.topExt[p], l.topExt[G]+l.baseTop(p))
				}
				if l.gmax[p] == l.gmax[G] {
					l.botExt[p] = math.Max(l.botExt[p], l.botExt[G]+l.baseBot(p))
				}
			}
		}
		above, below := make([]float64, nr), make([]float64, nr)
		for G := 0; G < ng; G++ {
			above[l.gmin[G]] = math.Max(above[l.gmin[G]], l.topExt[G])
			below[l.gmax[G]] = math.Max(below[l.gmax[G]], l.botExt[G])
		}
		l.y[0] = above[0]
		for r := 1; r < nr; r++ {
			l.y[r] = l.y[r-1] + l.hgt[r-1] + below[r-1] + gapR + above[r]
		}
		if !l.swap {
			return
		}
		// LR and RL: a group's label runs along the layers, so the group
		// is at least as long as its label.
		short := false
		for G := 0; G < ng; G++ {
			if lb := l.glabel[G]; lb.X > 0 {
				if d := lb.X + 2*l.inset - l.groupBox(G).H; d > 1e-9 {
					l.deficit[G] += d
					short = true
				}
			}
		}
		if !short {
			return
		}
	}
}

func (l *layers) baseTop(G int) float64 {
	if l.dir == diagram.TopToBottom {
		return l.o.GroupPadding + l.glabel[G].Y
	}
	return l.o.GroupPadding
}

func (l *layers) baseBot(G int) float64 {
	b := l.o.GroupPadding + l.deficit[G]
	if l.dir == diagram.BottomToTop {
		b += l.glabel[G].Y
	}
	return b
}

// groupBox is a group's box in the top-to-bottom frame.
func (l *layers) groupBox(G int) Box {
	x0, x1 := l.x[l.firstL[G]], l.x[l.firstR[G]]
	y0 := l.y[l.gmin[G]] - l.topExt[G]
	y1 := l.y[l.gmax[G]] + l.hgt[l.gmax[G]] + l.botExt[G]
	return Box{x0, y0, x1 - x0, y1 - y0}
}

func (l *layers) box(v int) Box {
	vx := &l.vs[v]
	r := vx.rank
	return Box{l.x[v] - vx.w/2, l.y[r] + (l.hgt[r]-vx.h)/2, vx.w, vx.h}
}

// result turns the layout to the graph's direction.
func (l *layers) result() *Result {
	g := l.g
	res := newResult()
	nodes := make([]Box, len(g.Nodes))
	for i := range g.Nodes {
		nodes[i] = l.box(i)
	}
	groups := make([]Box, len(g.Groups))
	for G := range g.Groups {
		groups[G] = l.groupBox(G)
	}
	routes := make([][]Point, len(g.Edges))
	labels := make([]Box, len(g.Edges))
	for i, e := range l.edges {
		routes[i] = l.route(i, nodes, groups)
		if e.self {
			if e.label != (Box{}) {
				vx := &l.vs[e.from]
				b := l.box(e.from)
				labels[i] = Box{b.Right() + float64(vx.loops)*selfLoop + 4, b.Y + b.H/2 - vx.band/2 + e.label.Y, e.label.W, e.label.H}
			}
			continue
		}
		for _, v := range e.chain {
			if l.vs[v].kind == kLabel {
				labels[i] = l.box(v)
			}
		}
	}
	// The top-left corner to (0, 0).
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	grow := func(b Box) {
		minX, minY = math.Min(minX, b.X), math.Min(minY, b.Y)
		maxX, maxY = math.Max(maxX, b.Right()), math.Max(maxY, b.Bottom())
	}
	for _, b := range nodes {
		grow(b)
	}
	for _, b := range groups {
		grow(b)
	}
	for i, r := range routes {
		if labels[i] != (Box{}) {
			grow(labels[i])
		}
		for _, p := range r {
			grow(Box{p.X, p.Y, 0, 0})
		}
	}
	W, H := maxX-minX, maxY-minY
	tf := func(p Point) Point {
		p = Point{p.X - minX, p.Y - minY}
		switch l.dir {
		case diagram.BottomToTop:
			return Point{p.X, H - p.Y}
		case diagram.LeftToRight:
			return Point{p.Y, p.X}
		case diagram.RightToLeft:
			return Point{H - p.Y, p.X}
		}
		return p
	}
	tfBox := func(b Box) Box {
		p, q := tf(Point{b.X, b.Y}), tf(Point{b.Right(), b.Bottom()})
		x0, x1 := math.Min(p.X, q.X), math.Max(p.X, q.X)
		y0, y1 := math.Min(p.Y, q.Y), math.Max(p.Y, q.Y)
		return Box{x0, y0, x1 - x0, y1 - y0}
	}
	res.Width, res.Height = W, H
	if l.swap {
		res.Width, res.Height = H, W
	}
	for i, n := range g.Nodes {
		b := tfBox(nodes[i])
		// Exactly the size asked for, whatever the rounding.
		if l.swap {
			b.W, b.H = l.vs[i].h, l.vs[i].w
		} else {
			b.W, b.H = l.vs[i].w, l.vs[i].h
		}
		res.Nodes[n.ID] = b
	}
	for G, gr := range g.Groups {
		b := tfBox(groups[G])
		res.Groups[gr.ID] = b
		if lb := l.glabel[G]; lb != (Point{}) {
			res.GroupLabels[gr.ID] = Box{b.X + l.inset, b.Y + l.inset, lb.X, lb.Y}
		}
	}
	res.Edges = make([]Route, len(g.Edges))
	for i, r := range routes {
		pts := make([]Point, len(r))
		for k, p := range r {
			pts[k] = tf(p)
		}
		rt := Route{Edge: i, Points: pts, Spline: straightSpline(pts)}
		if labels[i] != (Box{}) {
			lb := tfBox(labels[i])
			lb.W, lb.H = labels[i].W, labels[i].H
			if l.swap {
				lb.W, lb.H = labels[i].H, labels[i].W
			}
			rt.Label = lb
		}
		res.Edges[i] = rt
	}
	return res
}

// route is an edge's polyline in the top-to-bottom frame, From to To.
func (l *layers) route(i int, nodes, groups []Box) []Point {
	e := &l.edges[i]
	ge := l.g.Edges[i]
	if e.self {
		b := l.box(e.from)
		r, cy, d := b.Right(), b.Y+b.H/2, b.H/4
		reach := r + float64(e.loop+1)*selfLoop
		return []Point{{r, cy - d}, {reach, cy - d}, {reach, cy + d}, {r, cy + d}}
	}
	// Out of the bottom of the upper end and into the top of the lower,
	// at ports spread along the side in the order of the other ends, and
	// straight through each layer passed: every slanted piece lies
	// between two layers, where no box is.
	var pts []Point
	last := len(e.chain) - 1
	for k, v := range e.chain {
		r := l.vs[v].rank
		top, bot := l.y[r], l.y[r]+l.hgt[r]
		switch k {
		case 0:
			b := l.box(v)
			px := l.port(v, e.downIdx, true)
			pts = append(pts, Point{px, b.Bottom()})
			if bot > b.Bottom() {
				pts = append(pts, Point{px, bot})
			}
		case last:
			b := l.box(v)
			px := l.port(v, e.upIdx, false)
			if top < b.Y {
				pts = append(pts, Point{px, top})
			}
			pts = append(pts, Point{px, b.Y})
		default:
			pts = append(pts, Point{l.x[v], top})
			if bot > top {
				pts = append(pts, Point{l.x[v], bot})
			}
		}
	}
	if e.rev {
		slices.Reverse(pts)
	}
	isNode := func(v int, id string) bool { return v < len(l.g.Nodes) && l.g.Nodes[v].ID == id }
	gi := func(id string) int {
		for G, gr := range l.g.Groups {
			if gr.ID == id {
				return G
			}
		}
		return -1
	}
	fromNode, toNode := isNode(e.from, ge.From), isNode(e.to, ge.To)
	if !toNode {
		if cut, ok := cutAtEntry(pts, groups[gi(ge.To)]); ok {
			pts = cut
		}
	}
	if !fromNode {
		slices.Reverse(pts)
		if cut, ok := cutAtEntry(pts, groups[gi(ge.From)]); ok {
			pts = cut
		}
		slices.Reverse(pts)
	}
	return pts
}

// port is where the link at index i of v's links below (down) or above
// sits on v's side: the links spread over the middle of the side in the
// order of their other ends.
func (l *layers) port(v, i int, down bool) float64 {
	links := l.vs[v].up
	if down {
		links = l.vs[v].down
	}
	k := len(links)
	if k <= 1 {
		return l.x[v]
	}
	at := 0
	for j, w := range links {
		if l.pos[w] < l.pos[links[i]] || l.pos[w] == l.pos[links[i]] && j < i {
			at++
		}
	}
	span := l.vs[v].w * 0.6
	return l.x[v] - span/2 + span*float64(at)/float64(k-1)
}

// cutAtEntry cuts a polyline starting outside b where it first enters b;
// false if it starts inside or never enters.
func cutAtEntry(pts []Point, b Box) ([]Point, bool) {
	if b.Contains(Box{pts[0].X, pts[0].Y, 0, 0}, -1e-9) {
		return nil, false
	}
	for k := 0; k+1 < len(pts); k++ {
		if t0, _, ok := clipSeg(pts[k], pts[k+1], b); ok {
			return append(append([]Point(nil), pts[:k+1]...), lerp(pts[k], pts[k+1], t0)), true
		}
	}
	return nil, false
}

// clipSeg is where segment pq is inside b, as fractions along it
// (Liang–Barsky).
func clipSeg(p, q Point, b Box) (t0, t1 float64, ok bool) {
	t0, t1 = 0, 1
	dx, dy := q.X-p.X, q.Y-p.Y
	for _, c := range [4][2]float64{{-dx, p.X - b.X}, {dx, b.Right() - p.X}, {-dy, p.Y - b.Y}, {dy, b.Bottom() - p.Y}} {
		pk, qk := c[0], c[1]
		if pk == 0 {
			if qk < 0 {
				return 0, 0, false
			}
			continue
		}
		r := qk / pk
		if pk < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
	}
	return t0, t1, t0 <= t1
}

// straightSpline is a polyline as a B-spline of straight cubic pieces.
func straightSpline(pts []Point) []Point {
	if len(pts) == 0 {
		return nil
	}
	s := make([]Point, 0, 3*len(pts)-2)
	s = append(s, pts[0])
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		s = append(s, lerp(a, b, 1.0/3), lerp(a, b, 2.0/3), b)
	}
	return s
}
