// Package draw turns a described diagram into Excalidraw element inputs:
// it sizes each node to its label with the scene's text metrics, lays
// the graph out in layers (package layout), routes every edge around the
// boxes (package route) and writes boxes with bound labels, containers
// for groups and elbow arrows bound at both ends, ready for the builder.
//
// Excalidraw draws rectangles (sharp or rounded), ellipses and diamonds;
// each diagram shape is the nearest of those: rounded, stadium, hexagon
// and cylinder are rounded rectangles, circles and ellipses ellipses,
// diamonds diamonds, the rest sharp rectangles. A node with Fields (a
// class, an entity) is a rectangle holding its title, a rule and its
// fields, grouped. Roles colour nodes (see Roles); a node's own Style
// wins over its role.
package draw

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/layout"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/route"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// Options tune a drawing; zero takes the default.
type Options struct {
	// NodeGap and RankGap are the layout's spacing (layout.Options).
	NodeGap, RankGap float64
	// FontFamily is Excalidraw's font number for every text (default 5,
	// Excalifont); FontSize the nodes' (default 16), edge labels a size
	// smaller.
	FontFamily int
	FontSize   float64
}

func (o Options) withDefaults() Options {
	if o.FontFamily == 0 {
		o.FontFamily = 5
	}
	if o.FontSize <= 0 {
		o.FontSize = 16
	}
	return o
}

// Text sizes and box bounds, in scene units.
const (
	maxLabelWidth = 220
	minNodeWidth  = 120
	minNodeHeight = 56
	padding       = 12
	dotSize       = 24 // a start or end state
	barLength     = 80 // a fork or join
	barThickness  = 8
)

// Plan is a diagram laid out and routed, at (0, 0): its elements come
// from Inputs, placed at an origin.
type Plan struct {
	Graph *diagram.Graph
	// Width and Height are the drawing's size.
	Width, Height float64
	nodes         map[string]layout.Box
	groups        map[string]layout.Box
	groupLabels   map[string]layout.Box
	paths         []*route.Path // by edge; nil for an invisible edge
	labels        []geom.Rect   // by edge, where its label goes
	placedEnds    []geom.Rect   // end labels written so far
	o             Options
}

// Lay sizes, lays out and routes g (which must pass Check).
func Lay(ctx context.Context, g *diagram.Graph, o Options) (*Plan, error) {
	o = o.withDefaults()
	if err := g.Check(); err != nil {
		return nil, err
	}
	lo := layout.Options{
		NodeGap: o.NodeGap, RankGap: o.RankGap,
		GroupLabel: func(gr diagram.Group) (float64, float64) {
			if gr.Label == "" {
				return 0, 0
			}
			s := textmetrics.Measure(gr.Label, textmetrics.FontFamily(o.FontFamily), o.FontSize)
			return s.Width + 8, s.Height + 4
		},
		EdgeLabel: func(e diagram.Edge) (float64, float64) {
			if e.Label == "" || e.Line == diagram.Invisible {
				return 0, 0
			}
			s := textmetrics.Measure(e.Label, textmetrics.FontFamily(o.FontFamily), o.FontSize-2)
			return s.Width + 10, s.Height + 6
		},
	}
	res, err := layout.Layout(ctx, g, func(n diagram.Node) (float64, float64) { return nodeSize(n, g.Flow(), o) }, lo)
	if err != nil {
		return nil, err
	}
	p := &Plan{Graph: g, Width: res.Width, Height: res.Height, nodes: res.Nodes, groups: res.Groups, groupLabels: res.GroupLabels, o: o}
	p.snapCentres()
	if err := p.route(); err != nil {
		return nil, err
	}
	return p, nil
}

// nodeSize is a node's box: its label's container (build.LabelBox, so the
// label neither overflows nor breaks a word), or its title and fields.
func nodeSize(n diagram.Node, flow diagram.Direction, o Options) (float64, float64) {
	switch {
	case n.Role == "start" || n.Role == "end":
		return dotSize, dotSize
	case n.Role == "bar":
		if flow == diagram.LeftToRight || flow == diagram.RightToLeft {
			return barThickness, barLength
		}
		return barLength, barThickness
	case len(n.Fields) > 0:
		f := textmetrics.FontFamily(o.FontFamily)
		title := textmetrics.Measure(n.Text(), f, o.FontSize)
		fields := textmetrics.Measure(strings.Join(n.Fields, "\n"), f, o.FontSize-2)
		w := math.Max(minNodeWidth, math.Max(title.Width, fields.Width)+2*padding)
		return grid(w), grid(title.Height + fields.Height + 3*padding)
	}
	typ, _ := elementType(n.Shape)
	w, h := build.LabelBox(typ, n.Text(), o.FontFamily, o.FontSize, maxLabelWidth, minNodeWidth, minNodeHeight)
	if n.Shape == diagram.Circle || n.Shape == diagram.DoubleCircle {
		w = math.Max(w, h)
		h = w
	}
	return grid(w), grid(h)
}

// sizeGrid is what node sizes are rounded up to: nodes of one layer are
// centred on one line, so their edges differ by multiples of half of it,
// never by the few pixels that read as a near miss.
const sizeGrid = 10

func grid(v float64) float64 { return math.Ceil(v/sizeGrid-1e-9) * sizeGrid }

// elementType is the Excalidraw type a shape is drawn as, and its
// roundness ("round" or "sharp").
func elementType(s diagram.Shape) (string, string) {
	switch s {
	case diagram.Diamond:
		return "diamond", "sharp"
	case diagram.Circle, diagram.DoubleCircle, diagram.Ellipse:
		return "ellipse", "round"
	case diagram.Rounded, diagram.Stadium, diagram.Hexagon, diagram.Cylinder:
		return "rectangle", "round"
	}
	return "rectangle", "sharp"
}

// route routes every visible edge around the nodes and the groups'
// labels.
func (p *Plan) route() error {
	boxes := map[string]geom.Rect{}
	corners := map[string]float64{}
	for id, b := range p.nodes {
		boxes["n:"+id] = rectOf(b)
		n := p.node(id)
		if typ, round := elementType(n.Shape); typ == "rectangle" && round == "round" && len(n.Fields) == 0 && n.Role == "" {
			corners["n:"+id] = geom.CornerRadius(math.Min(b.W, b.H), geom.RoundnessAdaptive)
		}
	}
	for id, b := range p.groupLabels {
		boxes["l:"+id] = rectOf(b)
	}
	var edges []route.Edge
	var which []int
	from, to := sides(p.Graph.Flow())
	for i, e := range p.Graph.Edges {
		if e.Line == diagram.Invisible {
			continue
		}
		a, b := p.endBox(e.From), p.endBox(e.To)
		if _, ok := boxes[a]; !ok {
			boxes[a] = rectOf(p.groups[e.From])
		}
		if _, ok := boxes[b]; !ok {
			boxes[b] = rectOf(p.groups[e.To])
		}
		fs, ts := from, to
		if !forward(p.Graph.Flow(), boxes[a], boxes[b]) {
			fs, ts = route.Auto, route.Auto
		}
		edges = append(edges, route.Edge{ID: fmt.Sprint(i), From: a, To: b, FromSide: fs, ToSide: ts,
			Within: append(p.groupsHolding(e.From), p.groupsHolding(e.To)...)})
		which = append(which, i)
	}
	regions := map[string]geom.Rect{}
	for id, b := range p.groups {
		regions[id] = rectOf(b)
	}
	o := route.Options{Corners: corners, Regions: regions}
	paths, err := route.Route(boxes, edges, o)
	if err != nil {
		return err
	}
	p.paths = make([]*route.Path, len(p.Graph.Edges))
	for k, i := range which {
		p.paths[i] = &paths[k]
	}
	p.placeLabels()
	return nil
}

// endBox is the router's box id for an edge end: a node's, or a group's.
func (p *Plan) endBox(id string) string {
	if _, ok := p.nodes[id]; ok {
		return "n:" + id
	}
	return "g:" + id
}

// groupsHolding are the groups that hold a node (or are, or hold, a
// group): an edge from or to it may run inside them.
func (p *Plan) groupsHolding(id string) []string {
	parent := map[string]string{}
	for _, g := range p.Graph.Groups {
		parent[g.ID] = g.Parent
	}
	var out []string
	g := p.node(id).Group
	if _, isGroup := parent[id]; isGroup {
		g = id
	}
	for ; g != ""; g = parent[g] {
		out = append(out, g)
	}
	return out
}

func (p *Plan) node(id string) diagram.Node {
	for _, n := range p.Graph.Nodes {
		if n.ID == id {
			return n
		}
	}
	return diagram.Node{ID: id}
}

// sides are the sides an edge along the flow leaves and enters by.
func sides(d diagram.Direction) (route.Side, route.Side) {
	switch d {
	case diagram.BottomToTop:
		return route.Top, route.Bottom
	case diagram.LeftToRight:
		return route.Right, route.Left
	case diagram.RightToLeft:
		return route.Left, route.Right
	}
	return route.Bottom, route.Top
}

// forward reports whether b lies past a along the flow.
func forward(d diagram.Direction, a, b geom.Rect) bool {
	switch d {
	case diagram.BottomToTop:
		return b.MaxY <= a.MinY
	case diagram.LeftToRight:
		return b.MinX >= a.MaxX
	case diagram.RightToLeft:
		return b.MaxX <= a.MinX
	}
	return b.MinY >= a.MaxY
}

func rectOf(b layout.Box) geom.Rect { return geom.R(b.X, b.Y, b.X+b.W, b.Y+b.H) }

// Paths are the edges' routes at (0, 0), by edge (nil for an invisible
// edge): for tests and figures.
func (p *Plan) Paths() []*route.Path { return p.paths }

// NodeBox is node id's box at (0, 0).
func (p *Plan) NodeBox(id string) (geom.Rect, bool) {
	b, ok := p.nodes[id]
	return rectOf(b), ok
}

// mustJSON encodes an input; inputs are maps of plain values.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// snapTolerance is how far apart two nodes' centres across the flow may
// be and still be put on one line: beyond lint's alignment tolerance
// (4 px), which reads a smaller miss as a mistake.
const snapTolerance = 5

// snapCentres puts nodes whose centres across the flow (x in a
// top-to-bottom diagram) differ by less than snapTolerance on one line,
// the first node's of each run. Nodes of one layer are far apart across
// the flow, so only nodes of different layers move, by a few pixels,
// within their groups' padding.
func (p *Plan) snapCentres() {
	across := func(b layout.Box) float64 { return b.X + b.W/2 }
	set := func(b *layout.Box, c float64) { b.X = c - b.W/2 }
	if d := p.Graph.Flow(); d == diagram.LeftToRight || d == diagram.RightToLeft {
		across = func(b layout.Box) float64 { return b.Y + b.H/2 }
		set = func(b *layout.Box, c float64) { b.Y = c - b.H/2 }
	}
	ids := make([]string, 0, len(p.nodes))
	for id := range p.nodes {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		ci, cj := across(p.nodes[ids[i]]), across(p.nodes[ids[j]])
		if ci != cj {
			return ci < cj
		}
		return ids[i] < ids[j]
	})
	for i := 0; i < len(ids); {
		line := across(p.nodes[ids[i]])
		j := i + 1
		for j < len(ids) && across(p.nodes[ids[j]])-line < snapTolerance {
			b := p.nodes[ids[j]]
			set(&b, line)
			p.nodes[ids[j]] = b
			j++
		}
		i = j
	}
}
