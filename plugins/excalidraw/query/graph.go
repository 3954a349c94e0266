package query

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// maxGraphLabel bounds a node's or edge's label in a graph, in
// characters (cut with "…").
const maxGraphLabel = 40

// GraphView is a diagram as nodes and the arrows between them: what a
// model needs to follow a flow chart without paying for geometry.
//
// Its JSON is tables, not one object per item, because ids are long
// (Excalidraw's are 21 characters) and a graph names each node once per
// edge end: "cols" names the columns of the rows once, and edges refer
// to nodes by their row number in nodes (from 0), not by id.
//
//	{"nodes":{"cols":["id","type","label","x","y"],"rows":[["a","rectangle","Client",0,0],["b","rectangle","Server",300,0]]},
//	 "edges":{"cols":["id","from","to","label"],"rows":[["e1",0,1,"calls"]]},
//	 "unbound":{"cols":["id","label","from","to"],"rows":[["e2","",1,[420,40]]]},
//	 "isolated":[]}
//
// unbound lists the arrows (and lines) not bound at both ends; each end
// is a node's row number when bound, the end's [x, y] in the scene when
// free. isolated are the row numbers of nodes no arrow touches.
type GraphView struct {
	Nodes    []Node
	Edges    []Edge
	Unbound  []LooseArrow
	Isolated []int
}

// Node is an element arrows can bind to (a shape, free text, image,
// frame or embed). Label is its text (see [Target.TextContains]),
// white space collapsed and cut at 40 characters; X, Y its position,
// rounded as rows round it.
type Node struct {
	ID, Type, Label string
	X, Y            float64
}

// Edge is an arrow or line bound at both ends, From its start and To its
// end (indexes into GraphView.Nodes), Label its own label. Direction is
// the drawing's: from the start point to the end point, whatever the
// arrowheads.
type Edge struct {
	ID       string
	From, To int
	Label    string
}

// LooseArrow is an arrow bound at one end or neither, or a line bound at
// one end.
type LooseArrow struct {
	ID, Label string
	From, To  End
}

// End is where a loose arrow's end is: Node is the row number of the
// node it is bound to, or -1 when it is free at X, Y (scene coordinates,
// rotation applied, rounded).
type End struct {
	Node int
	X, Y float64
}

// MarshalJSON writes the tables shown on [GraphView].
func (g GraphView) MarshalJSON() ([]byte, error) {
	table := func(cols []any, n int, row func(i int) []any) *ojson.Object {
		rows := make([]any, n)
		for i := range rows {
			rows[i] = row(i)
		}
		return ojson.New().Set("cols", cols).Set("rows", rows)
	}
	isolated := make([]any, len(g.Isolated))
	for i, n := range g.Isolated {
		isolated[i] = n
	}
	out := ojson.New().
		Set("nodes", table([]any{"id", "type", "label", "x", "y"}, len(g.Nodes), func(i int) []any {
			n := g.Nodes[i]
			return []any{n.ID, n.Type, n.Label, n.X, n.Y}
		})).
		Set("edges", table([]any{"id", "from", "to", "label"}, len(g.Edges), func(i int) []any {
			e := g.Edges[i]
			return []any{e.ID, e.From, e.To, e.Label}
		})).
		Set("unbound", table([]any{"id", "label", "from", "to"}, len(g.Unbound), func(i int) []any {
			u := g.Unbound[i]
			return []any{u.ID, u.Label, u.From.value(), u.To.value()}
		})).
		Set("isolated", isolated)
	return ojson.Marshal(out)
}

func (e End) value() any {
	if e.Node >= 0 {
		return e.Node
	}
	return []any{e.X, e.Y}
}

// bindable are the types Excalidraw binds arrows to: a graph's nodes.
var bindable = map[string]bool{
	"rectangle": true, "diamond": true, "ellipse": true, "text": true, "image": true,
	"frame": true, "magicframe": true, "embeddable": true, "iframe": true,
}

// Graph is the selected elements els of the scene all as a graph. Nodes
// are the selected bindable elements (labels excepted: they name their
// container) and the elements the selected arrows are bound to even if
// not selected, in scene order; edges are the selected arrows and lines
// bound at both ends, loose arrows the selected arrows bound at fewer
// (and lines bound at one end: a line bound at none is a drawing, not a
// connection). Deleted elements are left out.
func Graph(els, all []*ojson.Object) GraphView {
	g := GraphView{Nodes: []Node{}, Edges: []Edge{}, Unbound: []LooseArrow{}, Isolated: []int{}}
	if len(els) == 0 {
		return g // nothing selected: no index of the scene
	}
	ix := newIndex(all)
	var nodes []*ojson.Object
	isNode := map[*ojson.Object]bool{}
	addNode := func(el *ojson.Object) {
		if !isNode[el] {
			isNode[el] = true
			nodes = append(nodes, el)
		}
	}
	var arrows []*ojson.Object
	for _, el := range els {
		if el == nil || scene.IsDeleted(el) {
			continue
		}
		typ := scene.StringOf(el, "type")
		switch {
		case scene.IsLinear(typ):
			start, end := ix.boundEnd(el, "startBinding"), ix.boundEnd(el, "endBinding")
			if typ == "line" && start == nil && end == nil {
				continue
			}
			arrows = append(arrows, el)
			if start != nil {
				addNode(start)
			}
			if end != nil {
				addNode(end)
			}
		case bindable[typ] && ix.containerOf(el) == nil:
			addNode(el)
		}
	}
	if !inSceneOrder(nodes, ix) {
		sorted := make([]*ojson.Object, 0, len(nodes))
		placed := make(map[*ojson.Object]bool, len(nodes))
		for _, el := range all {
			if isNode[el] && !placed[el] {
				placed[el] = true
				sorted = append(sorted, el)
			}
		}
		for _, el := range nodes { // selected but not in all: last, as met
			if !placed[el] {
				sorted = append(sorted, el)
			}
		}
		nodes = sorted
	}
	row := make(map[*ojson.Object]int, len(nodes))
	for i, el := range nodes {
		row[el] = i
		x, _ := scene.Finite(el, "x")
		y, _ := scene.Finite(el, "y")
		w, _ := scene.Finite(el, "width")
		h, _ := scene.Finite(el, "height")
		round := rounder(w, h)
		g.Nodes = append(g.Nodes, Node{
			ID: scene.StringOf(el, "id"), Type: scene.StringOf(el, "type"), Label: truncate(collapse(ix.text(el)), maxGraphLabel),
			X: round(x), Y: round(y),
		})
	}
	touched := make([]bool, len(nodes))
	for _, el := range arrows {
		id, label := scene.StringOf(el, "id"), truncate(collapse(ix.text(el)), maxGraphLabel)
		start, end := ix.boundEnd(el, "startBinding"), ix.boundEnd(el, "endBinding")
		if start != nil {
			touched[row[start]] = true
		}
		if end != nil {
			touched[row[end]] = true
		}
		if start != nil && end != nil {
			g.Edges = append(g.Edges, Edge{ID: id, From: row[start], To: row[end], Label: label})
			continue
		}
		first, last := endPoints(el)
		loose := LooseArrow{ID: id, Label: label, From: End{Node: -1, X: first[0], Y: first[1]}, To: End{Node: -1, X: last[0], Y: last[1]}}
		if start != nil {
			loose.From = End{Node: row[start]}
		}
		if end != nil {
			loose.To = End{Node: row[end]}
		}
		g.Unbound = append(g.Unbound, loose)
	}
	for i, t := range touched {
		if !t {
			g.Isolated = append(g.Isolated, i)
		}
	}
	return g
}

// inSceneOrder reports whether the nodes, collected as the selection
// met them, are already in scene order (the usual case when they are
// all selected), so that putting them in order costs nothing then.
func inSceneOrder(nodes []*ojson.Object, ix *index) bool {
	last := -1
	for _, el := range nodes {
		i, ok := ix.pos[scene.StringOf(el, "id")]
		if !ok || ix.all[i] != el || i < last {
			return false
		}
		last = i
	}
	return true
}

// endPoints are a linear element's first and last points in scene
// coordinates, rotation applied, rounded as its row rounds them.
func endPoints(el *ojson.Object) ([2]float64, [2]float64) {
	x, _ := scene.Finite(el, "x")
	y, _ := scene.Finite(el, "y")
	w, _ := scene.Finite(el, "width")
	h, _ := scene.Finite(el, "height")
	angle, _ := scene.Finite(el, "angle")
	round := rounder(w, h)
	pts := scene.Points(el)
	if len(pts) == 0 {
		pts = [][2]float64{{0, 0}}
	}
	lo, hi := pts[0], pts[0]
	for _, p := range pts[1:] {
		lo = [2]float64{min(lo[0], p[0]), min(lo[1], p[1])}
		hi = [2]float64{max(hi[0], p[0]), max(hi[1], p[1])}
	}
	cx, cy := x+(lo[0]+hi[0])/2, y+(lo[1]+hi[1])/2
	at := func(p [2]float64) [2]float64 {
		px, py := x+p[0], y+p[1]
		if angle != 0 {
			r := geom.Rotate(geom.V(px, py), geom.V(cx, cy), angle)
			px, py = r.X, r.Y
		}
		return [2]float64{round(px), round(py)}
	}
	return at(pts[0]), at(pts[len(pts)-1])
}
