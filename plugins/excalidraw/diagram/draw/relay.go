package draw

import (
	"context"
	"math"
	"slices"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/layout"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// pushStep is how far a new node is pushed along the flow at a time
// until it overlaps nothing; pushLimit bounds the pushes.
const (
	pushStep  = 20
	pushLimit = 500
)

// Relay lays g out again in scene coordinates, keeping what is drawn:
// kept are the boxes the nodes already drawn have now (a node of g not
// in kept is new; one in kept but not in g is gone). A kept node stays
// where it is, centred where it was (its size follows its label, which
// may have changed), so the boxes a person moved stay where they put
// them and the others do not move. A new node goes where a fresh layout
// of g puts it, carried by the offset that best fits the fresh layout
// onto the kept nodes, and is pushed along the flow until it overlaps
// nothing. Groups are drawn round what they hold, and every edge is
// routed again. With nothing kept, the fresh layout is placed at origin.
func Relay(ctx context.Context, g *diagram.Graph, o Options, kept map[string]geom.Rect, origin geom.Vec) (*Plan, error) {
	p, err := laidOut(ctx, g, o)
	if err != nil {
		return nil, err
	}
	// The offset from the fresh layout to the drawing: the median of the
	// kept nodes' moves, or the origin when none is kept.
	var dxs, dys []float64
	for id, b := range p.nodes {
		if k, ok := kept[id]; ok {
			c := rectOf(b).Center()
			dxs, dys = append(dxs, k.Center().X-c.X), append(dys, k.Center().Y-c.Y)
		}
	}
	off := origin
	if len(dxs) > 0 {
		off = geom.V(median(dxs), median(dys))
	}
	placed := make([]geom.Rect, 0, len(p.nodes))
	var fresh []string
	for _, n := range g.Nodes {
		b := p.nodes[n.ID]
		if k, ok := kept[n.ID]; ok {
			c := k.Center()
			b.X, b.Y = math.Round(c.X-b.W/2), math.Round(c.Y-b.H/2)
			p.nodes[n.ID] = b
			placed = append(placed, rectOf(b))
			continue
		}
		b.X, b.Y = math.Round(b.X+off.X), math.Round(b.Y+off.Y)
		p.nodes[n.ID] = b
		fresh = append(fresh, n.ID)
	}
	step := flowStep(g.Flow())
	room := p.o.withDefaults().NodeGap / 2
	for _, id := range fresh {
		b := p.nodes[id]
		for range pushLimit {
			r := rectOf(b).Expand(room)
			if !slices.ContainsFunc(placed, func(q geom.Rect) bool { return r.Overlaps(q) }) {
				break
			}
			b.X, b.Y = b.X+step.X, b.Y+step.Y
		}
		p.nodes[id] = b
		placed = append(placed, rectOf(b))
	}
	for i := range p.reserved {
		p.reserved[i] = geom.Rect{} // the layout's label rooms are not where the nodes now are
	}
	p.wrapGroups()
	if err := p.route(); err != nil {
		return nil, err
	}
	return p, nil
}

// flowStep is a push along the flow.
func flowStep(d diagram.Direction) geom.Vec {
	switch d {
	case diagram.BottomToTop:
		return geom.V(0, -pushStep)
	case diagram.LeftToRight:
		return geom.V(pushStep, 0)
	case diagram.RightToLeft:
		return geom.V(-pushStep, 0)
	}
	return geom.V(0, pushStep)
}

// wrapGroups draws each group round what it holds (its nodes and the
// groups inside it), the layout's padding away, with room for its label
// at the top, innermost first.
func (p *Plan) wrapGroups() {
	padding := float64(layout.DefaultGroupPadding)
	inset := math.Min(8, padding/2)
	groups := p.groupsOuterFirst()
	p.groups = map[string]layout.Box{}
	p.groupLabels = map[string]layout.Box{}
	f := textmetrics.FontFamily(p.o.FontFamily)
	for k := len(groups) - 1; k >= 0; k-- {
		gr := groups[k]
		var box geom.Rect
		found := false
		add := func(r geom.Rect) {
			if !found {
				box, found = r, true
			} else {
				box = box.Union(r)
			}
		}
		for _, n := range p.Graph.Nodes {
			if n.Group == gr.ID {
				add(rectOf(p.nodes[n.ID]))
			}
		}
		for _, child := range groups {
			if child.Parent == gr.ID {
				if b, ok := p.groups[child.ID]; ok {
					add(rectOf(b))
				}
			}
		}
		if !found {
			continue
		}
		box = box.Expand(padding)
		if gr.Label != "" {
			s := textmetrics.Measure(gr.Label, f, p.o.GroupSize)
			lw, lh := s.Width+8, s.Height+4
			box.MinY -= lh + inset
			if w := lw + 2*inset; box.W() < w {
				box.MaxX = box.MinX + w
			}
			p.groupLabels[gr.ID] = layout.Box{X: box.MinX + inset, Y: box.MinY + inset, W: lw, H: lh}
		}
		p.groups[gr.ID] = layout.Box{X: box.MinX, Y: box.MinY, W: box.W(), H: box.H()}
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	return s[len(s)/2]
}
