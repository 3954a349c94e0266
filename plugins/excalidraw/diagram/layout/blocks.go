package layout

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// A group in its own direction. Layered, like dot, lays a whole graph out
// in one direction; dot has one rankdir per graph (a
// subgraph's rankdir is ignored: measured, a chain in an LR cluster of a
// TB graph comes out top to bottom), so such a group is laid out as a
// graph of its own and stands in the rest as one fixed-size node.

// layoutFunc lays a checked graph out (dot's or Layered's).
type layoutFunc func(ctx context.Context, g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) (*Result, error)

// tree answers what lies inside which group.
type tree struct {
	g      *diagram.Graph
	parent map[string]string // group id -> parent group id
	node   map[string]int    // node id -> index
}

func newTree(g *diagram.Graph) *tree {
	t := &tree{g: g, parent: make(map[string]string, len(g.Groups)), node: make(map[string]int, len(g.Nodes))}
	for _, gr := range g.Groups {
		t.parent[gr.ID] = gr.Parent
	}
	for i, n := range g.Nodes {
		t.node[n.ID] = i
	}
	return t
}

// within reports whether the node or group id lies in group b at any
// depth (b lies within itself).
func (t *tree) within(id, b string) bool {
	cur := id
	if i, ok := t.node[id]; ok {
		cur = t.g.Nodes[i].Group
	}
	for ; cur != ""; cur = t.parent[cur] {
		if cur == b {
			return true
		}
	}
	return false
}

// turnedGroups are the outermost groups to lay out on their own: a
// Direction other than the graph's, and no edge between what they hold
// and the outside (an edge to the group itself is not one).
func turnedGroups(g *diagram.Graph) []string {
	t := newTree(g)
	turned := map[string]bool{}
	for _, gr := range g.Groups {
		if gr.Direction == "" || gr.Direction == g.Flow() {
			continue
		}
		sealed := true
		for _, e := range g.Edges {
			in1, in2 := t.within(e.From, gr.ID), t.within(e.To, gr.ID)
			if in1 != in2 && e.From != gr.ID && e.To != gr.ID {
				sealed = false
				break
			}
		}
		if sealed {
			turned[gr.ID] = true
		}
	}
	var out []string
	for _, gr := range g.Groups {
		outermost := turned[gr.ID]
		for p := gr.Parent; p != "" && outermost; p = t.parent[p] {
			outermost = !turned[p]
		}
		if outermost {
			out = append(out, gr.ID)
		}
	}
	return out
}

// layoutBlocks lays each block (a turned group) out on its own, then the
// rest with each block as one node of the block's size, and puts the
// blocks' insides where their nodes went. layout lays each part out.
func layoutBlocks(ctx context.Context, g *diagram.Graph, blocks []string, size func(diagram.Node) (w, h float64), o Options, layout layoutFunc) (*Result, error) {
	t := newTree(g)
	blockOf := func(id string) string { // the block id lies in, or ""
		for _, b := range blocks {
			if t.within(id, b) {
				return b
			}
		}
		return ""
	}
	groupIndex := make(map[string]int, len(g.Groups))
	for i, gr := range g.Groups {
		groupIndex[gr.ID] = i
	}

	type block struct {
		g     diagram.Graph
		edges []int // the sub-graph's edges' indexes in g.Edges
		res   *Result
		stand string // the stand-in node's id in the rest
	}
	bs := make(map[string]*block, len(blocks))
	rest := diagram.Graph{Direction: g.Direction}
	var restEdges []int
	used := make(map[string]bool, len(g.Nodes)+len(g.Groups))
	for _, n := range g.Nodes {
		used[n.ID] = true
	}
	for _, gr := range g.Groups {
		used[gr.ID] = true
	}
	for _, b := range blocks {
		gr := g.Groups[groupIndex[b]]
		bl := &block{g: diagram.Graph{Direction: gr.Direction}}
		// A stand-in id that names nothing else.
		bl.stand = "block:" + b
		for used[bl.stand] {
			bl.stand += "'"
		}
		used[bl.stand] = true
		bs[b] = bl
		rest.Nodes = append(rest.Nodes, diagram.Node{ID: bl.stand, Group: gr.Parent})
	}
	for _, gr := range g.Groups {
		switch b := blockOf(gr.ID); {
		case b == "":
			rest.Groups = append(rest.Groups, gr)
		case b == gr.ID:
			top := gr
			top.Parent = ""
			bs[b].g.Groups = append(bs[b].g.Groups, top)
		default:
			bs[b].g.Groups = append(bs[b].g.Groups, gr)
		}
	}
	for _, n := range g.Nodes {
		if b := blockOf(n.ID); b != "" {
			bs[b].g.Nodes = append(bs[b].g.Nodes, n)
		} else {
			rest.Nodes = append(rest.Nodes, n)
		}
	}
	for i, e := range g.Edges {
		bf, bt := blockOf(e.From), blockOf(e.To)
		if bf != "" && bf == bt {
			bs[bf].g.Edges = append(bs[bf].g.Edges, e)
			bs[bf].edges = append(bs[bf].edges, i)
			continue
		}
		// An edge to a block ends at its stand-in.
		if bf != "" {
			e.From = bs[bf].stand
		}
		if bt != "" {
			e.To = bs[bt].stand
		}
		rest.Edges = append(rest.Edges, e)
		restEdges = append(restEdges, i)
	}

	for _, b := range blocks {
		bl := bs[b]
		r, err := layout(ctx, &bl.g, size, o)
		if err != nil {
			return nil, err
		}
		bl.res = r
	}
	standSize := make(map[string]Box, len(blocks))
	for _, b := range blocks {
		standSize[bs[b].stand] = bs[b].res.Groups[b]
	}
	restSize := func(n diagram.Node) (w, h float64) {
		if b, ok := standSize[n.ID]; ok {
			return b.W, b.H
		}
		return size(n)
	}
	rr, err := layout(ctx, &rest, restSize, o)
	if err != nil {
		return nil, err
	}

	res := newResult()
	res.Width, res.Height = rr.Width, rr.Height
	res.Edges = make([]Route, len(g.Edges))
	for id, b := range rr.Nodes {
		if _, stand := standSize[id]; !stand {
			res.Nodes[id] = b
		}
	}
	for id, b := range rr.Groups {
		res.Groups[id] = b
	}
	for id, b := range rr.GroupLabels {
		res.GroupLabels[id] = b
	}
	for k, r := range rr.Edges {
		r.Edge = restEdges[k]
		res.Edges[r.Edge] = r
	}
	for _, b := range blocks {
		bl := bs[b]
		at, from := rr.Nodes[bl.stand], bl.res.Groups[b]
		dx, dy := at.X-from.X, at.Y-from.Y
		move := func(x Box) Box { return Box{x.X + dx, x.Y + dy, x.W, x.H} }
		for id, x := range bl.res.Nodes {
			res.Nodes[id] = move(x)
		}
		for id, x := range bl.res.Groups {
			res.Groups[id] = move(x)
		}
		for id, x := range bl.res.GroupLabels {
			res.GroupLabels[id] = move(x)
		}
		for k, r := range bl.res.Edges {
			r.Edge = bl.edges[k]
			r.Points = movePoints(r.Points, dx, dy)
			r.Spline = movePoints(r.Spline, dx, dy)
			if r.Label != (Box{}) {
				r.Label = move(r.Label)
			}
			res.Edges[r.Edge] = r
		}
	}
	return res, nil
}

func movePoints(ps []Point, dx, dy float64) []Point {
	out := make([]Point, len(ps))
	for i, p := range ps {
		out[i] = Point{p.X + dx, p.Y + dy}
	}
	return out
}
