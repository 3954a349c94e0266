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
	// NodeGap and RankGap are the layout's spacing (layout.Options;
	// default 60 and 80, room for the routes between the boxes).
	NodeGap, RankGap float64
	// FontFamily is Excalidraw's font number for every text (default 5,
	// Excalifont); FontSize the nodes' labels and titles (default 16).
	FontFamily int
	FontSize   float64
	// SmallSize is the edge labels' and a node's fields' size (default
	// FontSize−2), EndSize the end labels' (default FontSize−4) and
	// GroupSize the group labels' (default FontSize): a board profile
	// puts them on its type scale.
	SmallSize, EndSize, GroupSize float64
}

func (o Options) withDefaults() Options {
	if o.NodeGap == 0 {
		o.NodeGap = 60
	}
	if o.RankGap == 0 {
		o.RankGap = 80
	}
	if o.FontFamily == 0 {
		o.FontFamily = 5
	}
	if o.FontSize <= 0 {
		o.FontSize = 16
	}
	if o.SmallSize <= 0 {
		o.SmallSize = o.FontSize - 2
	}
	if o.EndSize <= 0 {
		o.EndSize = o.FontSize - 4
	}
	if o.GroupSize <= 0 {
		o.GroupSize = o.FontSize
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
	paths         []*route.Path    // by edge; nil for an invisible edge
	labels        []geom.Rect      // by edge, where its label goes
	labelCrowded  []bool           // by edge: its label found no free place
	reserved      []geom.Rect      // by edge, the room the layout kept for its label
	forced        map[int]geom.Vec // edges routed through their label's room: its centre
	placedEnds    []geom.Rect      // end labels written so far
	o             Options
}

// Lay sizes, lays out and routes g (which must pass Check).
func Lay(ctx context.Context, g *diagram.Graph, o Options) (*Plan, error) {
	p, err := laidOut(ctx, g, o)
	if err != nil {
		return nil, err
	}
	if err := p.route(); err != nil {
		return nil, err
	}
	return p, nil
}

// laidOut is Lay without the routes: the layout's boxes, snapped.
func laidOut(ctx context.Context, g *diagram.Graph, o Options) (*Plan, error) {
	o = o.withDefaults()
	if err := g.Check(); err != nil {
		return nil, err
	}
	size, lo := Sizes(g, o)
	res, err := layout.Layout(ctx, g, size, lo)
	if err != nil {
		return nil, err
	}
	p := &Plan{Graph: g, Width: res.Width, Height: res.Height, nodes: res.Nodes, groups: res.Groups, groupLabels: res.GroupLabels, o: o}
	p.reserved = make([]geom.Rect, len(g.Edges))
	for i, r := range res.Edges {
		if i < len(p.reserved) && r.Label.W > 0 {
			p.reserved[i] = rectOf(r.Label)
		}
	}
	p.snapCentres()
	return p, nil
}

// Sizes are what Lay lays g out with: each node's size, and the layout's
// options (spacing, and the room kept for group and edge labels). Another
// layout given these places the same boxes (a yardstick's, say).
func Sizes(g *diagram.Graph, o Options) (func(diagram.Node) (float64, float64), layout.Options) {
	o = o.withDefaults()
	lo := layout.Options{
		NodeGap: o.NodeGap, RankGap: o.RankGap,
		GroupLabel: func(gr diagram.Group) (float64, float64) {
			if gr.Label == "" {
				return 0, 0
			}
			s := textmetrics.Measure(gr.Label, textmetrics.FontFamily(o.FontFamily), o.GroupSize)
			return s.Width + 8, s.Height + 4
		},
		EdgeLabel: func(e diagram.Edge) (float64, float64) {
			if e.Label == "" || e.Line == diagram.Invisible {
				return 0, 0
			}
			s := textmetrics.Measure(e.Label, textmetrics.FontFamily(o.FontFamily), o.SmallSize)
			return s.Width + 10, s.Height + 6
		},
	}
	return func(n diagram.Node) (float64, float64) { return nodeSize(n, g.Flow(), o) }, lo
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
		fields := textmetrics.Measure(strings.Join(n.Fields, "\n"), f, o.SmallSize)
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
	tips := map[string]bool{}
	for id, b := range p.nodes {
		boxes["n:"+id] = rectOf(b)
		n := p.node(id)
		switch typ, round := elementType(n.Shape); {
		case len(n.Fields) > 0 || n.Role == "start" || n.Role == "end" || n.Role == "bar":
		case typ == "rectangle" && round == "round":
			corners["n:"+id] = geom.CornerRadius(math.Min(b.W, b.H), geom.RoundnessAdaptive)
		case typ == "diamond" || typ == "ellipse":
			// Ends at the tips, where the editor, re-routing an end, keeps
			// its heading (elsewhere, inside the box, it may turn it).
			tips["n:"+id] = true
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
	// Once: the routes are drawn a second time through the labels' rooms
	// when labels crowd, and once each is enough for as few crossings as
	// dot's (the goal figures), at two thirds of the time.
	o := route.Options{Corners: corners, Tips: tips, Regions: regions, Once: true}
	paths, err := route.Route(boxes, edges, o)
	if err != nil {
		return err
	}
	p.paths = make([]*route.Path, len(p.Graph.Edges))
	for k, i := range which {
		p.paths[i] = &paths[k]
	}
	p.placeLabels()
	if crowded := p.crowdedLabels(boxes); len(crowded) > 0 {
		p.routeThroughLabels(boxes, edges, which, crowded, o)
	}
	return nil
}

// crowdedLabels are the labelled edges whose label found no free place on
// their route (placeLabels) and whose room the layout kept (beside the
// edge, between the layers) is free of every box: the way through it.
func (p *Plan) crowdedLabels(boxes map[string]geom.Rect) map[int]geom.Rect {
	out := map[int]geom.Rect{}
	for i, e := range p.Graph.Edges {
		if e.Label == "" || p.paths[i] == nil || !p.labelCrowded[i] {
			continue
		}
		r := p.reserved[i]
		if r.W() <= 0 {
			continue
		}
		free := true
		for _, b := range boxes {
			if r.Overlaps(b) {
				free = false
				break
			}
		}
		if free {
			out[i] = r
		}
	}
	return out
}

// routeThroughLabels routes every edge again, each crowded one in two
// legs through the room kept for its label (an obstacle to the others),
// and puts its label there; the other labels are placed again.
func (p *Plan) routeThroughLabels(boxes map[string]geom.Rect, edges []route.Edge, which []int, crowded map[int]geom.Rect, o route.Options) {
	all := make(map[string]geom.Rect, len(boxes)+len(crowded))
	for id, b := range boxes {
		all[id] = b
	}
	enter, leave := sides(p.Graph.Flow())
	enter, leave = leave, enter // a room is entered from before it, left after
	var legs []route.Edge
	for k, e := range edges {
		r, ok := crowded[which[k]]
		if !ok {
			legs = append(legs, e)
			continue
		}
		w := "w:" + e.ID
		all[w] = r
		in, out := enter, leave
		if e.FromSide == route.Auto {
			in, out = route.Auto, route.Auto
		}
		legs = append(legs,
			route.Edge{ID: e.ID + ">", From: e.From, To: w, FromSide: e.FromSide, ToSide: in, Within: e.Within},
			route.Edge{ID: e.ID + "<", From: w, To: e.To, FromSide: out, ToSide: e.ToSide, Within: e.Within})
	}
	paths, err := route.Route(all, legs, o)
	if err != nil {
		return // keep the first routes
	}
	byID := make(map[string]*route.Path, len(paths))
	for k := range paths {
		byID[paths[k].ID] = &paths[k]
	}
	p.forced = map[int]geom.Vec{}
	for k, e := range edges {
		i := which[k]
		r, ok := crowded[i]
		if !ok {
			p.paths[i] = byID[e.ID]
			continue
		}
		a, b := byID[e.ID+">"], byID[e.ID+"<"]
		joined := *a
		joined.ID = e.ID
		joined.Points = joinThrough(a.Points, b.Points, r.Center())
		joined.ToSide, joined.ToAt = b.ToSide, b.ToAt
		joined.Blocked = a.Blocked || b.Blocked
		p.paths[i] = &joined
		p.forced[i] = r.Center()
	}
	p.placeLabels()
}

// joinThrough joins a route ending on a room's border and one leaving it
// through the room's centre c, orthogonally: each end goes straight into
// the room up to c's line, then over to c.
func joinThrough(a, b []geom.Vec, c geom.Vec) []geom.Vec {
	e1, e2 := a[len(a)-1], b[0]
	into := func(e, prev geom.Vec) geom.Vec { // straight on from prev through e to c's line
		if prev.X == e.X {
			return geom.V(e.X, c.Y)
		}
		return geom.V(c.X, e.Y)
	}
	q1 := into(e1, a[len(a)-2])
	q2 := into(e2, b[1])
	pts := append(append([]geom.Vec{}, a...), q1, c, q2)
	pts = append(pts, b...)
	return route.Simplify(pts)
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
// the first node's of each run (nodes of one layer are far apart across
// the flow, so only nodes of different layers move, by a few pixels,
// within their groups' padding), then every box on a grid.
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
	// Every box on a grid of half sizeGrid: node sizes are whole grids, so
	// any two edges or centres are equal or at least half a grid apart,
	// never the few pixels that read as a near miss. Groups grow to whole
	// grids around what they hold (by at most a grid, within their
	// padding), their labels moving with their top-left corners.
	const half = sizeGrid / 2
	snap := func(v float64) float64 { return math.Round(v/half) * half }
	for id, b := range p.nodes {
		b.X, b.Y = snap(b.X), snap(b.Y)
		p.nodes[id] = b
	}
	for id, b := range p.groups {
		x, y := math.Floor(b.X/half)*half, math.Floor(b.Y/half)*half
		nb := layout.Box{X: x, Y: y, W: grid(b.X + b.W - x), H: grid(b.Y + b.H - y)}
		p.groups[id] = nb
		if lb, ok := p.groupLabels[id]; ok {
			lb.X, lb.Y = lb.X+nb.X-b.X, lb.Y+nb.Y-b.Y
			p.groupLabels[id] = lb
		}
	}
}
