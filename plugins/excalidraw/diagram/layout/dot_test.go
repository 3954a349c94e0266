package layout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	graphviz "github.com/goccy/go-graphviz"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// dotLayout is how Layout worked before Layered: the graph laid out by
// Graphviz's dot, kept here, in the tests only, as the yardstick Layered
// is measured against (TestCompareCrossings, BenchmarkLayout). dot keeps
// one direction for a whole graph (a subgraph's rankdir is ignored), so
// groups in their own direction are laid out on their own as Layered
// does. ctx can stop a call waiting for its turn, not one dot started.
func dotLayout(ctx context.Context, g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) (*Result, error) {
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	if size == nil {
		return nil, fmt.Errorf("layout: no node sizes")
	}
	return layoutByDot(ctx, g, size, o.withDefaults())
}

// layoutByDot is dotLayout on a checked graph: the groups laid out in their own
// direction first, each then a box in the rest.
func layoutByDot(ctx context.Context, g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) (*Result, error) {
	if blocks := turnedGroups(g); len(blocks) > 0 {
		return layoutBlocks(ctx, g, blocks, size, o, layoutByDot)
	}
	return layoutDot(ctx, g, size, o)
}

// layoutDot is one graph laid out by one dot call.
func layoutDot(ctx context.Context, g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) (*Result, error) {
	res := newResult()
	if len(g.Nodes) == 0 && len(g.Groups) == 0 {
		return res, nil
	}
	in := build(g, size, o)
	out, err := run(ctx, in.dot)
	if err != nil {
		return nil, err
	}
	if err := in.read(out, res); err != nil {
		return nil, err
	}
	return res, nil
}

// engine is the process's one dot. What go-graphviz v0.2.10 does, as
// measured here:
//   - Its package init compiles and instantiates the WebAssembly module,
//     in every process that links it, whether it lays anything out or
//     not: about 30 ms with wazero's compilation cache warm
//     ($TMPDIR/go-graphviz, 6 MB), 0.8 to 1.1 s with it empty.
//   - Every graphviz.Graphviz shares that one instance: two calls at once
//     corrupt it (a nil graph and a segfault within a few layouts from two
//     goroutines, each with its own Graphviz), so a pool would not help,
//     and calls take turns on turn.
//   - A second context made after a render fails ("failed to create
//     graphviz context" by the second to fourth), so there is one, made
//     by the first call and kept.
//   - Memory is never given back: every string passed in is copied into
//     the module and not freed, and dot's layout with clusters leaks
//     inside it (100 nodes in 10 clusters: about 0.2 MB a layout; without
//     clusters about 10 KB), so the heap grows by that much a call for
//     the life of the process (BenchmarkLayout's retained-KB/op).
//   - The context does not stop a layout under way: wazero runs without
//     WithCloseOnContextDone.
var engine struct {
	turn chan struct{} // holds one token: the right to call dot
	once sync.Once
	gv   *graphviz.Graphviz
	err  error
}

func init() { engine.turn = make(chan struct{}, 1) }

// run lays the DOT text out with dot and returns its json0 output.
func run(ctx context.Context, src []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case engine.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-engine.turn }()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	engine.once.Do(func() {
		// No plugins: the core's json renderer is all this needs, and the
		// default PNG and JPEG plugins would only be registered for nothing.
		engine.gv, engine.err = graphviz.NewWithPlugins(context.Background())
	})
	if engine.err != nil {
		return nil, fmt.Errorf("layout: starting graphviz: %w", engine.err)
	}
	return render(ctx, engine.gv, src)
}

// render is one dot call on gv; the caller holds the turn.
func render(ctx context.Context, gv *graphviz.Graphviz, src []byte) ([]byte, error) {
	gr, err := graphviz.ParseBytes(src)
	if err != nil {
		return nil, fmt.Errorf("layout: graphviz did not take the graph: %w", err)
	}
	defer gr.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, gr, "json0", &out); err != nil {
		return nil, fmt.Errorf("layout: dot: %w", err)
	}
	return out.Bytes(), nil
}

// input is a graph written as DOT, with what is needed to read dot's
// answer back. Nodes are named n<index>, groups' clusters cluster_<index>
// and empty groups' stand-ins p<index>, so no id of the caller's is ever
// quoted into DOT.
type input struct {
	g          *diagram.Graph
	dot        []byte
	sizes      []Point // nodes' sizes, as asked for
	groupLabel []Point // groups' label sizes (zero: no label)
	edgeLabel  []Point // edges' label sizes (zero: no label)
	o          Options
}

const pointsPerInch = 72

func inches(v float64) string { return strconv.FormatFloat(v/pointsPerInch, 'f', 6, 64) }

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// fixedLabel is an HTML-like label of exactly w×h points: an empty cell of
// fixed size. Graphviz measures no text for it.
func fixedLabel(w, h float64) string {
	return fmt.Sprintf(`<<table border="0" cellborder="0" cellspacing="0" cellpadding="0"><tr><td fixedsize="true" width="%d" height="%d"></td></tr></table>>`,
		int(math.Ceil(w)), int(math.Ceil(h)))
}

func build(g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) *input {
	in := &input{g: g, o: o,
		sizes:      make([]Point, len(g.Nodes)),
		groupLabel: make([]Point, len(g.Groups)),
		edgeLabel:  make([]Point, len(g.Edges)),
	}
	var b strings.Builder
	dir := g.Flow()
	// newrank: rank the whole graph at once. Without it dot ranks each
	// cluster on its own, and an acyclic graph's edges can run flat or
	// back: 28 of 1,080 edges in TestRandomGraphs, and the CI/CD chain
	// turned back where it leaves the CI group (integration -> package).
	fmt.Fprintf(&b, "digraph G {\ngraph [rankdir=%s, nodesep=%s, ranksep=%s, compound=true, newrank=true];\n", dir, inches(o.NodeGap), inches(o.RankGap))
	// fixedsize: a node is the size it is given, whatever its (empty) label.
	b.WriteString("node [shape=box, fixedsize=true, label=\"\", margin=0];\nedge [dir=none];\n")

	groupIndex := make(map[string]int, len(g.Groups))
	for i, gr := range g.Groups {
		groupIndex[gr.ID] = i
	}
	children := make([][]int, len(g.Groups)) // groups' child groups
	var topGroups []int
	for i, gr := range g.Groups {
		if gr.Parent == "" {
			topGroups = append(topGroups, i)
		} else {
			p := groupIndex[gr.Parent]
			children[p] = append(children[p], i)
		}
	}
	members := make([][]int, len(g.Groups)) // groups' own nodes
	nodeIndex := make(map[string]int, len(g.Nodes))
	var topNodes []int
	for i, n := range g.Nodes {
		nodeIndex[n.ID] = i
		w, h := size(n)
		in.sizes[i] = Point{sane(w, 1), sane(h, 1)}
		if n.Group == "" {
			topNodes = append(topNodes, i)
		} else {
			gi := groupIndex[n.Group]
			members[gi] = append(members[gi], i)
		}
	}
	if o.GroupLabel != nil {
		for i, gr := range g.Groups {
			w, h := o.GroupLabel(gr)
			if w > 0 || h > 0 {
				in.groupLabel[i] = Point{sane(w, 1), sane(h, 1)}
			}
		}
	}
	// A group that holds no node anywhere below it gets an invisible
	// stand-in, or dot would drop it; rep is the node an edge to the
	// group is drawn to (clipped at the group's border).
	rep := make([]string, len(g.Groups))
	var repOf func(i int) string
	repOf = func(i int) string {
		if rep[i] != "" {
			return rep[i]
		}
		if len(members[i]) > 0 {
			rep[i] = "n" + strconv.Itoa(members[i][0])
		} else {
			for _, c := range children[i] {
				if r := repOf(c); r != "" {
					rep[i] = r
					break
				}
			}
		}
		if rep[i] == "" {
			rep[i] = "p" + strconv.Itoa(i)
		}
		return rep[i]
	}
	for i := range g.Groups {
		repOf(i)
	}

	writeNode := func(i int) {
		s := in.sizes[i]
		// Whole points, rounded up: dot rounds a node's size to points, and
		// rounding down could let two nodes' real boxes touch.
		fmt.Fprintf(&b, "n%d [width=%s, height=%s];\n", i, inches(math.Ceil(s.X)), inches(math.Ceil(s.Y)))
	}
	// Labels at the top left, where fewest of dot's routes enter a group
	// (measured on the goal diagrams: centred, 4 + 4 + 0 routes pass over
	// a group's label; at the left, 1 + 0 + 0). dot turns BT graphs over
	// and mirrors RL ones, labels and all, so those ask for the opposite.
	labelLoc, labelJust := "t", "l"
	switch dir {
	case diagram.BottomToTop:
		labelLoc = "b"
	case diagram.RightToLeft:
		labelJust = "r"
	}
	var writeGroup func(i int)
	writeGroup = func(i int) {
		// Every attribute is set in every cluster: a subgraph would inherit
		// its parent's label otherwise.
		label := `""`
		if l := in.groupLabel[i]; l != (Point{}) {
			label = fixedLabel(l.X, l.Y)
		}
		fmt.Fprintf(&b, "subgraph cluster_%d {\ngraph [margin=%s, label=%s, labelloc=%s, labeljust=%s];\n", i, num(o.GroupPadding), label, labelLoc, labelJust)
		for _, n := range members[i] {
			writeNode(n)
		}
		for _, c := range children[i] {
			writeGroup(c)
		}
		if rep[i] == "p"+strconv.Itoa(i) {
			fmt.Fprintf(&b, "p%d [width=%s, height=%s, style=invis];\n", i, inches(1), inches(1))
		}
		b.WriteString("}\n")
	}
	for _, i := range topGroups {
		writeGroup(i)
	}
	for _, i := range topNodes {
		writeNode(i)
	}

	// end is the DOT node an edge end is drawn to, and the cluster it is
	// clipped at when the end names a group.
	end := func(id string) (name string, cluster int) {
		if i, ok := nodeIndex[id]; ok {
			return "n" + strconv.Itoa(i), -1
		}
		gi := groupIndex[id]
		return rep[gi], gi
	}
	for i, e := range g.Edges {
		from, fromCluster := end(e.From)
		to, toCluster := end(e.To)
		fmt.Fprintf(&b, "%s -> %s [id=e%d", from, to, i)
		// Clip at a group's border only when the other end lies outside
		// it: dot ignores (and complains of) an lhead that holds the tail.
		if fromCluster >= 0 && !in.inside(e.To, fromCluster, nodeIndex, groupIndex) {
			fmt.Fprintf(&b, ", ltail=cluster_%d", fromCluster)
		}
		if toCluster >= 0 && !in.inside(e.From, toCluster, nodeIndex, groupIndex) {
			fmt.Fprintf(&b, ", lhead=cluster_%d", toCluster)
		}
		if e.Line == diagram.Invisible {
			b.WriteString(", style=invis")
		}
		if o.EdgeLabel != nil {
			if w, h := o.EdgeLabel(e); w > 0 || h > 0 {
				in.edgeLabel[i] = Point{sane(w, 1), sane(h, 1)}
				fmt.Fprintf(&b, ", label=%s", fixedLabel(in.edgeLabel[i].X, in.edgeLabel[i].Y))
			}
		}
		b.WriteString("];\n")
	}
	b.WriteString("}\n")
	in.dot = []byte(b.String())
	return in
}

// inside reports whether the node or group id lies in group gi, at any
// depth (a group lies inside itself).
func (in *input) inside(id string, gi int, nodeIndex, groupIndex map[string]int) bool {
	g := in.g
	cur := id // a group's id: a node's id names no group when it is a node's
	if i, ok := nodeIndex[id]; ok {
		cur = g.Nodes[i].Group
	}
	for cur != "" {
		if cur == g.Groups[gi].ID {
			return true
		}
		cur = g.Groups[groupIndex[cur]].Parent
	}
	return false
}

// jsonGraph is the part of dot's json0 output that is read.
type jsonGraph struct {
	BB      string       `json:"bb"`
	Objects []jsonObject `json:"objects"`
	Edges   []jsonEdge   `json:"edges"`
}

type jsonObject struct {
	Name string `json:"name"`
	BB   string `json:"bb"`  // clusters
	LP   string `json:"lp"`  // clusters' labels
	Pos  string `json:"pos"` // nodes
}

type jsonEdge struct {
	ID  string `json:"id"`
	Pos string `json:"pos"`
	LP  string `json:"lp"`
}

// read turns dot's answer into res: points (y up, origin anywhere) become
// scene coordinates (y down, the drawing's top-left corner at 0,0).
func (in *input) read(out []byte, res *Result) error {
	var jg jsonGraph
	if err := json.Unmarshal(out, &jg); err != nil {
		return fmt.Errorf("layout: reading dot's output: %w", err)
	}
	bb, err := floats(jg.BB, 4)
	if err != nil {
		return fmt.Errorf("layout: dot's bounding box: %w", err)
	}
	left, top := bb[0], bb[3]
	res.Width, res.Height = bb[2]-bb[0], bb[3]-bb[1]
	at := func(x, y float64) Point { return Point{x - left, top - y} }
	centered := func(c Point, size Point) Box { return Box{c.X - size.X/2, c.Y - size.Y/2, size.X, size.Y} }

	g := in.g
	for _, ob := range jg.Objects {
		switch {
		case strings.HasPrefix(ob.Name, "cluster_"):
			i, err := strconv.Atoi(ob.Name[len("cluster_"):])
			if err != nil || i < 0 || i >= len(g.Groups) {
				return fmt.Errorf("layout: dot named a cluster %q", ob.Name)
			}
			v, err := floats(ob.BB, 4)
			if err != nil {
				return fmt.Errorf("layout: group %q's box: %w", g.Groups[i].ID, err)
			}
			p, q := at(v[0], v[3]), at(v[2], v[1])
			res.Groups[g.Groups[i].ID] = Box{p.X, p.Y, q.X - p.X, q.Y - p.Y}
			if l := in.groupLabel[i]; l != (Point{}) && ob.LP != "" {
				v, err := floats(ob.LP, 2)
				if err != nil {
					return fmt.Errorf("layout: group %q's label: %w", g.Groups[i].ID, err)
				}
				res.GroupLabels[g.Groups[i].ID] = centered(at(v[0], v[1]), l)
			}
		case strings.HasPrefix(ob.Name, "n"):
			i, err := strconv.Atoi(ob.Name[1:])
			if err != nil || i < 0 || i >= len(g.Nodes) {
				return fmt.Errorf("layout: dot named a node %q", ob.Name)
			}
			v, err := floats(ob.Pos, 2)
			if err != nil {
				return fmt.Errorf("layout: node %q's position: %w", g.Nodes[i].ID, err)
			}
			res.Nodes[g.Nodes[i].ID] = centered(at(v[0], v[1]), in.sizes[i])
		}
	}
	if len(res.Nodes) != len(g.Nodes) || len(res.Groups) != len(g.Groups) {
		return fmt.Errorf("layout: dot placed %d of %d nodes and %d of %d groups", len(res.Nodes), len(g.Nodes), len(res.Groups), len(g.Groups))
	}

	res.Edges = make([]Route, len(g.Edges))
	for i := range res.Edges {
		res.Edges[i].Edge = i
	}
	for _, je := range jg.Edges {
		i, err := strconv.Atoi(strings.TrimPrefix(je.ID, "e"))
		if err != nil || i < 0 || i >= len(g.Edges) {
			return fmt.Errorf("layout: dot named an edge %q", je.ID)
		}
		r := &res.Edges[i]
		spline, err := parseSpline(je.Pos)
		if err != nil {
			return fmt.Errorf("layout: edge %d's route: %w", i, err)
		}
		for k := range spline {
			spline[k] = at(spline[k].X, spline[k].Y)
		}
		// dot gives a spline tail to head; make sure of it, so a route
		// always starts at From.
		if len(spline) > 1 && in.nearer(g.Edges[i], spline, res) {
			for a, z := 0, len(spline)-1; a < z; a, z = a+1, z-1 {
				spline[a], spline[z] = spline[z], spline[a]
			}
		}
		r.Spline = spline
		r.Points = flatten(spline, 8)
		if l := in.edgeLabel[i]; l != (Point{}) && je.LP != "" {
			v, err := floats(je.LP, 2)
			if err != nil {
				return fmt.Errorf("layout: edge %d's label: %w", i, err)
			}
			r.Label = centered(at(v[0], v[1]), l)
		}
	}
	return nil
}

// nearer reports whether the spline starts nearer the edge's To than its
// From (so it runs backwards).
func (in *input) nearer(e diagram.Edge, spline []Point, res *Result) bool {
	box := func(id string) (Box, bool) {
		if b, ok := res.Nodes[id]; ok {
			return b, true
		}
		b, ok := res.Groups[id]
		return b, ok
	}
	from, ok1 := box(e.From)
	to, ok2 := box(e.To)
	if !ok1 || !ok2 || e.From == e.To {
		return false
	}
	a, z := spline[0], spline[len(spline)-1]
	return distToBox(a, to)+distToBox(z, from) < distToBox(a, from)+distToBox(z, to)
}

func distToBox(p Point, b Box) float64 {
	dx := math.Max(0, math.Max(b.X-p.X, p.X-b.Right()))
	dy := math.Max(0, math.Max(b.Y-p.Y, p.Y-b.Bottom()))
	return math.Hypot(dx, dy)
}

// floats reads n comma-separated numbers.
func floats(s string, n int) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("%q is not %d numbers", s, n)
	}
	v := make([]float64, n)
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not %d numbers", s, n)
		}
		v[i] = f
	}
	return v, nil
}

// parseSpline reads dot's pos of an edge: "[s,x,y ][e,x,y ]p0 c1 c2 p1
// ...". Edges here have no arrowheads (dir=none), so the start and end
// points, which are the arrow tips, are kept only if present, as the ends
// of the route.
func parseSpline(s string) ([]Point, error) {
	// Several splines (';'-separated) come only from concentrate=true,
	// which is not used; the first is the edge.
	if i := strings.IndexByte(s, ';'); i >= 0 {
		s = s[:i]
	}
	var start, end *Point
	var pts []Point
	for _, f := range strings.Fields(s) {
		kind := ""
		if strings.HasPrefix(f, "s,") || strings.HasPrefix(f, "e,") {
			kind, f = f[:1], f[2:]
		}
		v, err := floats(f, 2)
		if err != nil {
			return nil, err
		}
		p := Point{v[0], v[1]}
		switch kind {
		case "s":
			start = &p
		case "e":
			end = &p
		default:
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 || (len(pts)-1)%3 != 0 {
		return nil, fmt.Errorf("%d control points is no B-spline", len(pts))
	}
	if start != nil {
		first := pts[0]
		pts = append([]Point{*start, lerp(*start, first, 1.0/3), lerp(*start, first, 2.0/3)}, pts...)
	}
	if end != nil {
		last := pts[len(pts)-1]
		pts = append(pts, lerp(last, *end, 1.0/3), lerp(last, *end, 2.0/3), *end)
	}
	return pts, nil
}

// flatten turns a cubic B-spline (p0, then c1 c2 p per piece) into a
// polyline of steps segments per piece.
func flatten(s []Point, steps int) []Point {
	if len(s) < 4 {
		return append([]Point(nil), s...)
	}
	out := make([]Point, 0, (len(s)-1)/3*steps+1)
	out = append(out, s[0])
	for i := 0; i+3 < len(s); i += 3 {
		p0, c1, c2, p1 := s[i], s[i+1], s[i+2], s[i+3]
		for k := 1; k <= steps; k++ {
			t := float64(k) / float64(steps)
			u := 1 - t
			a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
			out = append(out, Point{a*p0.X + b*c1.X + c*c2.X + d*p1.X, a*p0.Y + b*c1.Y + c*c2.Y + d*p1.Y})
		}
	}
	return out
}
