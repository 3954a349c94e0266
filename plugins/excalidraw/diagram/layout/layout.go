// Package layout places a diagram's nodes and groups in layers along its
// direction, giving each node and group a box in Excalidraw scene
// coordinates and each edge a route. It is dsh's own layered (Sugiyama)
// layout, in Go (Layered); Graphviz's dot, which it replaced, is kept in
// the tests only, as the yardstick its crossings and speed are measured
// against (go-graphviz runs dot as WebAssembly: its package init compiles
// the module in every process that links it and caches it outside the
// data directory, one instance serves the process one call at a time,
// calls cannot be stopped, and its memory is never given back).
//
// Sizes come from the caller, who measures labels: a node's box is
// exactly the size it asked for, a group's box encloses its nodes and
// nested groups with Options.GroupPadding and room for its label, and an
// edge label given a size gets room of its own. Routes are polylines
// through the layers, kept for reference (the router draws the real
// arrows).
package layout

import (
	"context"
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// Point is a position in scene coordinates (y down).
type Point struct {
	X, Y float64
}

// Box is an axis-aligned rectangle in scene coordinates: its top-left
// corner, width and height.
type Box struct {
	X, Y, W, H float64
}

// Center is the box's middle.
func (b Box) Center() Point { return Point{b.X + b.W/2, b.Y + b.H/2} }

// Right is the box's right edge.
func (b Box) Right() float64 { return b.X + b.W }

// Bottom is the box's bottom edge.
func (b Box) Bottom() float64 { return b.Y + b.H }

// Contains reports whether c lies inside b, within eps.
func (b Box) Contains(c Box, eps float64) bool {
	return c.X >= b.X-eps && c.Y >= b.Y-eps && c.Right() <= b.Right()+eps && c.Bottom() <= b.Bottom()+eps
}

// Overlaps reports whether b and c share more than eps of area in both
// directions (touching edges do not overlap).
func (b Box) Overlaps(c Box, eps float64) bool {
	return b.X < c.Right()-eps && c.X < b.Right()-eps && b.Y < c.Bottom()-eps && c.Y < b.Bottom()-eps
}

// Options are the spacing of a layout, in scene units (Excalidraw pixels);
// zero takes the default.
type Options struct {
	// NodeGap is the least space between two neighbours in one layer
	// (default 40).
	NodeGap float64
	// RankGap is the space between two layers (default 60).
	RankGap float64
	// GroupPadding is the space between a group's border and what it
	// holds (default 20).
	GroupPadding float64
	// GroupLabel, if set, is the size of a group's label; the group's box
	// keeps room for it inside its top edge, at the left (Result.GroupLabels says
	// where). Without it groups get no label room.
	GroupLabel func(diagram.Group) (w, h float64)
	// EdgeLabel, if set, is the size of an edge's label; a label with a
	// positive size gets room beside its edge between the layers
	// (Route.Label says where).
	EdgeLabel func(diagram.Edge) (w, h float64)
}

// The default spacing.
const (
	DefaultNodeGap      = 40
	DefaultRankGap      = 60
	DefaultGroupPadding = 20
)

func (o Options) withDefaults() Options {
	if o.NodeGap <= 0 {
		o.NodeGap = DefaultNodeGap
	}
	if o.RankGap <= 0 {
		o.RankGap = DefaultRankGap
	}
	if o.GroupPadding <= 0 {
		o.GroupPadding = DefaultGroupPadding
	}
	return o
}

// Route is one edge as the layout drew it.
type Route struct {
	// Edge is the edge's index in Graph.Edges.
	Edge int
	// Points is the route as a polyline from the edge's From to its To;
	// its ends lie on the boxes' borders.
	Points []Point
	// Spline is the route as a B-spline: a start point, then three points
	// (two controls and an end) per cubic piece, From to To (Layered's
	// pieces are straight: Points again; dot's are curves).
	Spline []Point
	// Label is the box kept for the edge's label; zero when the edge has
	// none (no Options.EdgeLabel, or a zero size).
	Label Box
}

// Result is a diagram laid out. Coordinates start at (0, 0), the top-left
// corner of the whole drawing, and grow right and down.
type Result struct {
	// Width and Height are the size of the whole drawing.
	Width, Height float64
	// Nodes are the nodes' boxes by node id, each of the size asked for.
	Nodes map[string]Box
	// Groups are the groups' boxes by group id.
	Groups map[string]Box
	// GroupLabels are where the groups' labels go, for the groups that
	// Options.GroupLabel gave a size.
	GroupLabels map[string]Box
	// Edges are the edges' routes, in the order of Graph.Edges (invisible
	// edges too: they shape the layout, the caller draws none of them).
	Edges []Route
}

// Layout lays g out along its direction, by Layered. size gives each
// node's width and height (from 1 to 65535 each is used). The graph must
// pass diagram.Graph.Check. ctx stops a call between its steps.
//
// A group whose own Direction differs from the flow around it is laid
// out in its direction when no edge links what it holds to what it does
// not (Mermaid's rule; edges to the group itself may): such a group is
// laid out on its own and placed as one box. Otherwise its Direction is
// not used.
func Layout(ctx context.Context, g *diagram.Graph, size func(diagram.Node) (w, h float64), o Options) (*Result, error) {
	return Layered(ctx, g, size, o)
}

func newResult() *Result {
	return &Result{Nodes: map[string]Box{}, Groups: map[string]Box{}, GroupLabels: map[string]Box{}, Edges: []Route{}}
}

// maxSize is the largest size taken, for a node or a label: Graphviz
// takes no larger fixed-size label.
const maxSize = 65535

// sane is v when it is a number from lo to maxSize, lo below or
// without a number, maxSize above.
func sane(v, lo float64) float64 {
	switch {
	case math.IsNaN(v) || v < lo:
		return lo
	case v > maxSize:
		return maxSize
	}
	return v
}

func lerp(a, b Point, t float64) Point { return Point{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t} }
