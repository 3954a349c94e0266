package layout

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// Layered lays g out along its direction (Layout is Layered), by dsh's
// own layered (Sugiyama) method, in Go: no process-wide engine, no files,
// nothing kept after the call, and calls run side by side.
//
// The method, in a top-to-bottom frame turned afterwards to the graph's
// direction:
//   - cycles broken by reversing the edges a depth-first walk in the
//     graph's order finds going back (so the edges written along the flow
//     keep it: the CI/CD chain's retries and rollbacks are the ones
//     turned);
//   - layers by longest path, then nodes with more edges below than above
//     moved down as far as they go (shorter edges); an edge spanning
//     layers gets a dummy node in each, an edge with a label a label node
//     in a half layer between two layers of nodes;
//   - each layer ordered by barycentres in down and up sweeps with
//     transposition of neighbours, the order with fewest crossings kept;
//     a group's members stay together in each layer and sibling groups
//     keep one left-to-right order in every layer;
//   - x by blocks (a long edge's dummies in one straight line, a group's
//     sides as two vertical lines through every layer it spans), placed
//     by longest path from both sides and averaged, then moved toward
//     their neighbours' median, groups as a whole too, within the
//     separations; y by layers, the tallest node of each plus RankGap and
//     the groups' padding and labels that start or end there.
//
// Routes are polylines through the dummy nodes, ends on the boxes'
// borders (a group's when an edge ends at a group); Route.Spline is the
// same polyline as straight cubic pieces.
func Layered(ctx context.Context, g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) (*Result, error) {
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	if size == nil {
		return nil, fmt.Errorf("layout: no node sizes")
	}
	return layered(ctx, g, size, o.withDefaults())
}

// layered is Layered on a checked graph.
func layered(ctx context.Context, g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if blocks := turnedGroups(g); len(blocks) > 0 {
		return layoutBlocks(ctx, g, blocks, size, o, layered)
	}
	if len(g.Nodes) == 0 && len(g.Groups) == 0 {
		return newResult(), nil
	}
	l := newLayers(g, size, o)
	l.breakCycles()
	l.rank()
	l.split()
	l.fill()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.order()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l.place()
	return l.result(), nil
}

// Kinds of vertex.
const (
	kNode  = iota // a node of the graph
	kPlace        // stands in for a group that holds no node
	kDummy        // an edge passing a layer
	kLabel        // an edge's label, in a half layer
	kFill         // keeps a group in a layer it has nothing in
	kLeft         // a group's left side in a layer
	kRight        // its right side
)

type vertex struct {
	kind  int
	grp   int     // innermost group, -1 for none
	w, h  float64 // size in the top-to-bottom frame
	rank  int
	up    []int   // neighbours in the layer above
	down  []int   // and below
	edge  int     // dummies and labels: the edge
	extra float64 // room on the right, for loops and their labels
	band  float64 // least height of its layer, for its loops' labels
	loops int     // self-loops so far
}

type ledge struct {
	from, to int  // vertices, the edge's way (a group's end: its stand-in)
	self     bool // from == to
	rev      bool // laid out to -> from
	loop     int  // a self-loop's place among its vertex's
	label    Box  // a self-loop's label, beside the vertex's centre right
	chain    []int
	downIdx  int // the chain's first link in its upper end's down links
	upIdx    int // and its last in its lower end's up links
}

type layers struct {
	g      *diagram.Graph
	o      Options
	dir    diagram.Direction
	swap   bool // LR and RL: sizes turned
	inset  float64
	parent []int
	glabel []Point // groups' label sizes as drawn (zero: none)
	vs     []vertex
	edges  []ledge
	minlen int
	layers [][]int
	pos    []int
	gorder []float64
	gmin   []int // groups' first and last layers
	gmax   []int
	// placing
	x       []float64 // vertices' centres
	y       []float64 // layers' tops
	hgt     []float64 // layers' heights
	topExt  []float64 // groups' room above their first layer and below the last
	botExt  []float64
	deficit []float64
	firstL  []int // groups' sides in their first layer
	firstR  []int
}

func newLayers(g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) *layers {
	l := &layers{g: g, o: o, dir: g.Flow(), inset: math.Min(8, o.GroupPadding/2)}
	l.swap = l.dir == diagram.LeftToRight || l.dir == diagram.RightToLeft
	gi := make(map[string]int, len(g.Groups))
	for i, gr := range g.Groups {
		gi[gr.ID] = i
	}
	group := func(id string) int {
		if id == "" {
			return -1
		}
		return gi[id]
	}
	l.parent = make([]int, len(g.Groups))
	l.glabel = make([]Point, len(g.Groups))
	for i, gr := range g.Groups {
		l.parent[i] = group(gr.Parent)
		if o.GroupLabel != nil {
			if w, h := o.GroupLabel(gr); w > 0 || h > 0 {
				l.glabel[i] = Point{sane(w, 1), sane(h, 1)}
			}
		}
	}
	ni := make(map[string]int, len(g.Nodes))
	has := make([]bool, len(g.Groups))
	for i, n := range g.Nodes {
		ni[n.ID] = i
		w, h := size(n)
		w, h = sane(w, 1), sane(h, 1)
		if l.swap {
			w, h = h, w
		}
		v := vertex{kind: kNode, grp: group(n.Group), w: w, h: h}
		for a := v.grp; a >= 0; a = l.parent[a] {
			has[a] = true
		}
		l.vs = append(l.vs, v)
	}
	for i := range g.Groups {
		if !has[i] {
			l.vs = append(l.vs, vertex{kind: kPlace, grp: i, w: 2 * o.GroupPadding, h: 2 * o.GroupPadding})
			for a := i; a >= 0; a = l.parent[a] {
				has[a] = true
			}
		}
	}
	rep := make([]int, len(g.Groups))
	for i := range rep {
		rep[i] = -1
	}
	for v := range l.vs {
		for a := l.vs[v].grp; a >= 0; a = l.parent[a] {
			if rep[a] < 0 {
				rep[a] = v
			}
		}
	}
	end := func(id string) int {
		if i, ok := ni[id]; ok {
			return i
		}
		return rep[gi[id]]
	}
	l.minlen = 1
	for _, e := range g.Edges {
		le := ledge{from: end(e.From), to: end(e.To)}
		le.self = le.from == le.to
		l.edges = append(l.edges, le)
		if l.edgeLabel(e) != (Point{}) {
			l.minlen = 2
		}
	}
	return l
}

// edgeLabel is the edge's label size in the top-to-bottom frame.
func (l *layers) edgeLabel(e diagram.Edge) Point {
	if l.o.EdgeLabel == nil {
		return Point{}
	}
	w, h := l.o.EdgeLabel(e)
	if w <= 0 && h <= 0 {
		return Point{}
	}
	w, h = sane(w, 1), sane(h, 1)
	if l.swap {
		w, h = h, w
	}
	return Point{w, h}
}

// within reports whether group a lies in group b (-1 is the whole graph).
func (l *layers) within(a, b int) bool {
	for ; a >= 0; a = l.parent[a] {
		if a == b {
			return true
		}
	}
	return b < 0
}

func (l *layers) lca(a, b int) int {
	for ; a >= 0; a = l.parent[a] {
		if l.within(b, a) {
			return a
		}
	}
	return -1
}

// chain is the groups holding group a, outermost first.
func (l *layers) chain(a int, buf []int) []int {
	buf = buf[:0]
	for ; a >= 0; a = l.parent[a] {
		buf = append(buf, a)
	}
	slices.Reverse(buf)
	return buf
}

// breakCycles reverses the edges that a depth-first walk, from the
// vertices in order along the edges in order, finds going back.
func (l *layers) breakCycles() {
	n := len(l.vs)
	out := make([][]int, n)
	for i, e := range l.edges {
		if !e.self {
			out[e.from] = append(out[e.from], i)
		}
	}
	state := make([]int8, n) // 0 new, 1 on the stack, 2 done
	type frame struct{ v, next int }
	var stack []frame
	for s := 0; s < n; s++ {
		if state[s] != 0 {
			continue
		}
		state[s] = 1
		stack = append(stack[:0], frame{s, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == len(out[f.v]) {
				state[f.v] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			e := out[f.v][f.next]
			f.next++
			switch w := l.edges[e].to; state[w] {
			case 1:
				l.edges[e].rev = true
			case 0:
				state[w] = 1
				stack = append(stack, frame{w, 0})
			}
		}
	}
}

// dag is an edge's ends as laid out.
func (e *ledge) dag() (a, b int) {
	if e.rev {
		return e.to, e.from
	}
	return e.from, e.to
}

// rank puts every vertex in a layer: longest path, then each vertex with
// more edges below than above as low as its edges let it (and the other
// way), until nothing moves.
func (l *layers) rank() {
	n := len(l.vs)
	preds, succs := make([][]int, n), make([][]int, n)
	indeg := make([]int, n)
	for i := range l.edges {
		e := &l.edges[i]
		if e.self {
			continue
		}
		a, b := e.dag()
		succs[a] = append(succs[a], b)
		preds[b] = append(preds[b], a)
		indeg[b]++
	}
	topo := make([]int, 0, n)
	for v := 0; v < n; v++ {
		if indeg[v] == 0 {
			topo = append(topo, v)
		}
	}
	for k := 0; k < len(topo); k++ {
		for _, w := range succs[topo[k]] {
			if indeg[w]--; indeg[w] == 0 {
				topo = append(topo, w)
			}
		}
	}
	rank := make([]int, n)
	for _, v := range topo {
		for _, u := range preds[v] {
			rank[v] = max(rank[v], rank[u]+l.minlen)
		}
	}
	for pass := 0; pass < 50; pass++ {
		moved := false
		for k := len(topo) - 1; k >= 0; k-- {
			v := topo[k]
			lo, hi := math.MinInt, math.MaxInt
			for _, u := range preds[v] {
				lo = max(lo, rank[u]+l.minlen)
			}
			for _, w := range succs[v] {
				hi = min(hi, rank[w]-l.minlen)
			}
			switch {
			case len(succs[v]) > len(preds[v]) && hi != math.MaxInt && hi > rank[v]:
				rank[v], moved = hi, true
			case len(preds[v]) > len(succs[v]) && lo != math.MinInt && lo < rank[v]:
				rank[v], moved = lo, true
			}
		}
		if !moved {
			break
		}
	}
	least := math.MaxInt
	for _, r := range rank {
		least = min(least, r)
	}
	for v := range l.vs {
		l.vs[v].rank = rank[v] - least
	}
}

// split gives every edge a vertex in each layer it passes, its label one
// in the half layer nearest its middle.
func (l *layers) split() {
	for i := range l.edges {
		e := &l.edges[i]
		if e.self {
			// Loops nest on the right, their labels stacked beyond them.
			v := &l.vs[e.from]
			e.loop = v.loops
			v.loops++
			lb := l.edgeLabel(l.g.Edges[i])
			if lb != (Point{}) {
				e.label = Box{0, v.band, lb.X, lb.Y} // offsets, fixed in route
				v.band += lb.Y
			}
			v.extra = math.Max(v.extra, float64(v.loops)*selfLoop+4)
			if lb != (Point{}) {
				v.extra = math.Max(v.extra, float64(v.loops)*selfLoop+8+lb.X)
			}
			continue
		}
		a, b := e.dag()
		grp := l.lca(l.vs[a].grp, l.vs[b].grp)
		e.chain = append(e.chain, a)
		ra, rb := l.vs[a].rank, l.vs[b].rank
		label := l.edgeLabel(l.g.Edges[i])
		mid := -1
		if label != (Point{}) {
			best := math.MaxInt
			for r := ra + 1; r < rb; r++ {
				if r%2 == 1 {
					if d := abs(2*r - ra - rb); d < best {
						best, mid = d, r
					}
				}
			}
		}
		for r := ra + 1; r < rb; r++ {
			d := vertex{kind: kDummy, grp: grp, rank: r, edge: i}
			if r == mid {
				d.kind, d.w, d.h = kLabel, label.X, label.Y
			}
			e.chain = append(e.chain, len(l.vs))
			l.vs = append(l.vs, d)
		}
		e.chain = append(e.chain, b)
		e.downIdx, e.upIdx = len(l.vs[a].down), len(l.vs[b].up)
		for k := 0; k+1 < len(e.chain); k++ {
			u, w := e.chain[k], e.chain[k+1]
			l.vs[u].down = append(l.vs[u].down, w)
			l.vs[w].up = append(l.vs[w].up, u)
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// selfLoop is how far an edge from a node to itself reaches out.
const selfLoop = 20

// fill finds each group's layers and gives it a filler in each layer
// between its first and last where it holds nothing, so its box is one
// rectangle that the ordering keeps clear.
func (l *layers) fill() {
	ng := len(l.parent)
	l.gmin, l.gmax = make([]int, ng), make([]int, ng)
	for i := range l.gmin {
		l.gmin[i], l.gmax[i] = math.MaxInt, -1
	}
	present := map[[2]int]bool{}
	for _, v := range l.vs {
		for a := v.grp; a >= 0; a = l.parent[a] {
			l.gmin[a], l.gmax[a] = min(l.gmin[a], v.rank), max(l.gmax[a], v.rank)
			present[[2]int{a, v.rank}] = true
		}
	}
	for a := 0; a < ng; a++ {
		for r := l.gmin[a]; r <= l.gmax[a]; r++ {
			if !present[[2]int{a, r}] {
				l.vs = append(l.vs, vertex{kind: kFill, grp: a, rank: r, edge: -1})
				for b := a; b >= 0; b = l.parent[b] {
					present[[2]int{b, r}] = true
				}
			}
		}
	}
	top := 0
	for _, v := range l.vs {
		top = max(top, v.rank)
	}
	l.layers = make([][]int, top+1)
	// First order: a depth-first walk down from each vertex in turn.
	seen := make([]bool, len(l.vs))
	var stack []int
	for s := range l.vs {
		if seen[s] {
			continue
		}
		seen[s] = true
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			l.layers[l.vs[v].rank] = append(l.layers[l.vs[v].rank], v)
			for k := len(l.vs[v].down) - 1; k >= 0; k-- {
				if w := l.vs[v].down[k]; !seen[w] {
					seen[w] = true
					stack = append(stack, w)
				}
			}
		}
	}
	l.pos = make([]int, len(l.vs))
	l.renumber()
	l.gorder = make([]float64, ng)
	l.updateGroupOrder()
	key := make([]float64, len(l.vs))
	for _, layer := range l.layers {
		for _, v := range layer {
			key[v] = float64(l.pos[v])
		}
		l.sortLayer(layer, key)
	}
	l.renumber()
}

func (l *layers) renumber() {
	for _, layer := range l.layers {
		for i, v := range layer {
			l.pos[v] = i
		}
	}
}

// updateGroupOrder sets each group's place among its siblings: the mean
// of its vertices' relative places in their layers.
func (l *layers) updateGroupOrder() {
	ng := len(l.parent)
	if ng == 0 {
		return
	}
	sum := make([]float64, ng)
	cnt := make([]int, ng)
	for _, layer := range l.layers {
		for _, v := range layer {
			p := (float64(l.pos[v]) + 0.5) / float64(len(layer))
			for a := l.vs[v].grp; a >= 0; a = l.parent[a] {
				sum[a] += p
				cnt[a]++
			}
		}
	}
	for a := range sum {
		if cnt[a] > 0 {
			l.gorder[a] = sum[a] / float64(cnt[a])
		}
	}
}

// sortLayer orders one layer by key, each group's vertices together and
// sibling groups in their order (gorder) among the vertices beside them.
func (l *layers) sortLayer(layer []int, key []float64) {
	byKey := func(a, b int) int {
		if key[a] < key[b] {
			return -1
		}
		if key[a] > key[b] {
			return 1
		}
		return 0
	}
	if len(l.parent) == 0 {
		slices.SortStableFunc(layer, byKey)
		return
	}
	ng := len(l.parent) + 1
	direct := make([][]int, ng)
	kids := make([][]int, ng)
	sum := make([]float64, ng)
	cnt := make([]int, ng)
	for _, v := range layer {
		g := l.vs[v].grp
		direct[g+1] = append(direct[g+1], v)
		for a := g; a >= 0; a = l.parent[a] {
			if cnt[a+1] == 0 {
				kids[l.parent[a]+1] = append(kids[l.parent[a]+1], a)
			}
			sum[a+1] += key[v]
			cnt[a+1]++
		}
	}
	out := layer[:0]
	var emit func(g int)
	emit = func(g int) {
		d, k := direct[g+1], kids[g+1]
		slices.SortStableFunc(d, byKey)
		slices.SortFunc(k, func(a, b int) int {
			if l.gorder[a] != l.gorder[b] {
				if l.gorder[a] < l.gorder[b] {
					return -1
				}
				return 1
			}
			return a - b
		})
		i, j := 0, 0
		for i < len(d) || j < len(k) {
			if j < len(k) && (i == len(d) || sum[k[j]+1]/float64(cnt[k[j]+1]) < key[d[i]]) {
				emit(k[j])
				j++
			} else {
				out = append(out, d[i])
				i++
			}
		}
	}
	emit(-1)
}

// crossings counts the crossings between every two adjacent layers.
func (l *layers) crossings() int {
	n := 0
	var tree []int
	var south []int
	for r := 0; r+1 < len(l.layers); r++ {
		south = south[:0]
		for _, u := range l.layers[r] {
			start := len(south)
			for _, w := range l.vs[u].down {
				south = append(south, l.pos[w])
			}
			slices.Sort(south[start:])
		}
		// Inversions in south, by a Fenwick tree over the lower layer.
		m := len(l.layers[r+1])
		if cap(tree) < m+1 {
			tree = make([]int, m+1)
		}
		tree = tree[:m+1]
		clear(tree)
		for k, p := range south {
			// how many already seen lie right of p
			le := 0
			for i := p + 1; i > 0; i -= i & -i {
				le += tree[i]
			}
			n += k - le
			for i := p + 1; i <= m; i += i & -i {
				tree[i]++
			}
		}
	}
	return n
}

// order sweeps down and up by barycentres, transposing neighbours after
// each sweep, and keeps the order with the fewest crossings.
func (l *layers) order() {
	key := make([]float64, len(l.vs))
	best := l.crossings()
	saved := l.save(nil)
	const sweeps, patience = 24, 6
	for it, since := 0, 0; it < sweeps && since < patience && best > 0; it++ {
		down := it%2 == 0
		for k := range l.layers {
			r := k
			if !down {
				r = len(l.layers) - 1 - k
			}
			layer := l.layers[r]
			for _, v := range layer {
				nb := l.vs[v].up
				if !down {
					nb = l.vs[v].down
				}
				if len(nb) == 0 {
					key[v] = float64(l.pos[v])
					continue
				}
				s := 0.0
				for _, u := range nb {
					s += float64(l.pos[u])
				}
				key[v] = s / float64(len(nb))
			}
			l.sortLayer(layer, key)
			for i, v := range layer {
				l.pos[v] = i
			}
		}
		l.transpose()
		l.updateGroupOrder()
		if c := l.crossings(); c < best {
			best, since = c, 0
			saved = l.save(saved)
		} else {
			since++
		}
	}
	for r := range l.layers {
		copy(l.layers[r], saved[r])
	}
	l.renumber()
}

func (l *layers) save(into [][]int) [][]int {
	if into == nil {
		into = make([][]int, len(l.layers))
	}
	for r, layer := range l.layers {
		into[r] = append(into[r][:0], layer...)
	}
	return into
}

// transpose swaps neighbours in one group while that lessens crossings.
func (l *layers) transpose() {
	for pass := 0; pass < 8; pass++ {
		better := false
		for _, layer := range l.layers {
			for i := 0; i+1 < len(layer); i++ {
				u, v := layer[i], layer[i+1]
				if l.vs[u].grp != l.vs[v].grp {
					continue
				}
				if l.pairCross(u, v) > l.pairCross(v, u) {
					layer[i], layer[i+1] = v, u
					l.pos[u], l.pos[v] = i+1, i
					better = true
				}
			}
		}
		if !better {
			return
		}
	}
}

// pairCross counts the crossings between u's edges and v's with u left
// of v.
func (l *layers) pairCross(u, v int) int {
	n := 0
	for _, a := range l.vs[u].up {
		for _, b := range l.vs[v].up {
			if l.pos[a] > l.pos[b] {
				n++
			}
		}
	}
	for _, a := range l.vs[u].down {
		for _, b := range l.vs[v].down {
			if l.pos[a] > l.pos[b] {
				n++
			}
		}
	}
	return n
}
