package draw

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// Part is what an element of a drawing stands for: a node, an edge (by
// index in Graph.Edges) or a group, and which piece of it.
type Part struct {
	// Kind is "node", "edge" or "group".
	Kind string `json:"kind"`
	// Key is the node's or group's id, or the edge's index.
	Key string `json:"key"`
	// Piece is "" for the element that is the thing (the box, the arrow,
	// the container), else "title", "rule", "fields", "label",
	// "startLabel" or "endLabel".
	Piece string `json:"piece,omitempty"`
}

// Drawing is a plan's element inputs at an origin, in drawing order
// (groups, nodes, arrows), each with the part it stands for.
type Drawing struct {
	Inputs []json.RawMessage
	Parts  []Part
	IDs    []string // each input's id
}

// Inputs writes the plan's elements with their top-left corner at
// origin; id names each element (unique in the scene, the caller's
// choice).
func (p *Plan) Inputs(origin geom.Vec, id func(Part) string) *Drawing {
	d := &Drawing{}
	add := func(part Part, in map[string]any) string {
		eid := id(part)
		in["id"] = eid
		d.Inputs = append(d.Inputs, mustJSON(in))
		d.Parts = append(d.Parts, part)
		d.IDs = append(d.IDs, eid)
		return eid
	}
	at := func(x, y float64) (float64, float64) { return round2(origin.X + x), round2(origin.Y + y) }
	fam, size := p.o.FontFamily, p.o.FontSize

	// Groups, outermost first so inner ones draw over them.
	for _, gr := range p.groupsOuterFirst() {
		b := p.groups[gr.ID]
		x, y := at(b.X, b.Y)
		in := map[string]any{"type": "rectangle", "x": x, "y": y, "width": b.W, "height": b.H,
			"strokeColor": "#868e96", "backgroundColor": "#f8f9fa", "fillStyle": "solid", "roundness": "round", "strokeWidth": 1}
		applyStyle(in, gr.Style)
		add(Part{Kind: "group", Key: gr.ID}, in)
		if l, ok := p.groupLabels[gr.ID]; ok && gr.Label != "" {
			lx, ly := at(l.X+4, l.Y+2)
			t := map[string]any{"type": "text", "x": lx, "y": ly, "text": gr.Label, "fontFamily": fam, "fontSize": p.o.GroupSize, "strokeColor": "#495057"}
			if gr.Style.Text != "" {
				t["strokeColor"] = gr.Style.Text
			}
			add(Part{Kind: "group", Key: gr.ID, Piece: "label"}, t)
		}
	}

	// Nodes.
	for _, n := range p.Graph.Nodes {
		b := p.nodes[n.ID]
		x, y := at(b.X, b.Y)
		if len(n.Fields) > 0 {
			p.fieldsNode(n, x, y, b.W, b.H, add)
			continue
		}
		typ, round := elementType(n.Shape)
		in := map[string]any{"type": typ, "x": x, "y": y, "width": b.W, "height": b.H, "roundness": round}
		roleStyle(in, n.Role)
		applyStyle(in, n.Style)
		if n.Role != "start" && n.Role != "end" && n.Role != "bar" {
			label := map[string]any{"text": n.Text(), "fontFamily": fam, "fontSize": size}
			if n.Style.Text != "" {
				label["strokeColor"] = n.Style.Text
			}
			in["label"] = label
		}
		add(Part{Kind: "node", Key: n.ID}, in)
	}

	// Edges.
	for i, e := range p.Graph.Edges {
		path := p.paths[i]
		if path == nil {
			continue
		}
		pts := path.Points
		if e.Label != "" {
			// Points in a line only where the label is not on the route's
			// own middle already: an edit in the editor can fold them.
			if c := p.labels[i].Center(); c.Dist(routeMiddle(pts)) > 1e-6 {
				pts = withMiddle(pts, c)
			}
		}
		x, y := at(pts[0].X, pts[0].Y)
		rel := make([][2]float64, len(pts))
		for k, q := range pts {
			rel[k] = [2]float64{round2(q.X - pts[0].X), round2(q.Y - pts[0].Y)}
		}
		in := map[string]any{"type": "arrow", "elbowed": true, "x": x, "y": y, "points": rel,
			"startElementId": id(p.endPart(e.From)), "endElementId": id(p.endPart(e.To)),
			"startArrowhead": head(e.Start), "endArrowhead": head(e.Head())}
		switch e.Line {
		case diagram.Dashed:
			in["strokeStyle"] = "dashed"
		case diagram.Thick:
			in["strokeWidth"] = 4
		}
		if e.Style.Stroke != "" {
			in["strokeColor"] = e.Style.Stroke
		}
		if e.Style.StrokeWidth > 0 {
			in["strokeWidth"] = e.Style.StrokeWidth
		}
		if e.Label != "" {
			label := map[string]any{"text": e.Label, "fontFamily": fam, "fontSize": p.o.SmallSize}
			if e.Style.Text != "" {
				label["strokeColor"] = e.Style.Text
			}
			in["label"] = label
		}
		key := fmt.Sprint(i)
		add(Part{Kind: "edge", Key: key}, in)
		for _, end := range []struct {
			text, piece string
			at, next    geom.Vec
		}{{e.StartLabel, "startLabel", pts[0], pts[1]}, {e.EndLabel, "endLabel", pts[len(pts)-1], pts[len(pts)-2]}} {
			if end.text == "" {
				continue
			}
			s := textmetrics.Measure(end.text, textmetrics.FontFamily(fam), p.o.EndSize)
			pos := p.endLabelAt(i, end.at, end.next, s.Width, s.Height)
			lx, ly := at(pos.X, pos.Y)
			add(Part{Kind: "edge", Key: key, Piece: end.piece},
				map[string]any{"type": "text", "x": lx, "y": ly, "text": end.text, "fontFamily": fam, "fontSize": p.o.EndSize})
		}
	}
	return d
}

// endPart is the part an edge end binds to: a node's box or a group's.
func (p *Plan) endPart(id string) Part {
	if _, ok := p.nodes[id]; ok {
		return Part{Kind: "node", Key: id}
	}
	return Part{Kind: "group", Key: id}
}

// fieldsNode writes a node with fields: a rectangle holding its title, a
// rule and the fields, grouped so they move as one.
func (p *Plan) fieldsNode(n diagram.Node, x, y, w, h float64, add func(Part, map[string]any) string) {
	fam, size := p.o.FontFamily, p.o.FontSize
	group := []string{"dg-" + sanitize(n.ID)}
	box := map[string]any{"type": "rectangle", "x": x, "y": y, "width": w, "height": h, "roundness": "sharp", "groupIds": group}
	roleStyle(box, n.Role)
	applyStyle(box, n.Style)
	add(Part{Kind: "node", Key: n.ID}, box)
	f := textmetrics.FontFamily(fam)
	title := textmetrics.Measure(n.Text(), f, size)
	add(Part{Kind: "node", Key: n.ID, Piece: "title"}, map[string]any{"type": "text", "x": round2(x + (w-title.Width)/2), "y": round2(y + padding/2),
		"text": n.Text(), "fontFamily": fam, "fontSize": size, "textAlign": "center", "groupIds": group})
	ruleY := round2(y + padding + title.Height)
	add(Part{Kind: "node", Key: n.ID, Piece: "rule"}, map[string]any{"type": "line", "x": x, "y": ruleY, "points": [][2]float64{{0, 0}, {w, 0}},
		"strokeWidth": 1, "roundness": "sharp", "groupIds": group})
	add(Part{Kind: "node", Key: n.ID, Piece: "fields"}, map[string]any{"type": "text", "x": round2(x + padding), "y": round2(ruleY + padding/2),
		"text": strings.Join(n.Fields, "\n"), "fontFamily": fam, "fontSize": p.o.SmallSize, "groupIds": group})
}

// groupsOuterFirst are the groups, parents before children.
func (p *Plan) groupsOuterFirst() []diagram.Group {
	depth := map[string]int{}
	var depthOf func(id string) int
	byID := map[string]diagram.Group{}
	for _, g := range p.Graph.Groups {
		byID[g.ID] = g
	}
	depthOf = func(id string) int {
		if d, ok := depth[id]; ok {
			return d
		}
		d := 0
		if par := byID[id].Parent; par != "" {
			d = depthOf(par) + 1
		}
		depth[id] = d
		return d
	}
	out := make([]diagram.Group, 0, len(p.Graph.Groups))
	for level := 0; len(out) < len(p.Graph.Groups); level++ {
		for _, g := range p.Graph.Groups {
			if depthOf(g.ID) == level {
				if _, ok := p.groups[g.ID]; ok {
					out = append(out, g)
				} else {
					out = append(out, g) // an empty group still gets its box when laid out
				}
			}
		}
		if level > len(p.Graph.Groups) {
			break
		}
	}
	return out
}

// head is an arrowhead input: null for none.
func head(h diagram.Arrowhead) any {
	switch h {
	case diagram.NoHead:
		return nil
	case diagram.CrossHead:
		return "bar"
	}
	return string(h)
}

func applyStyle(in map[string]any, s diagram.Style) {
	if s.Fill != "" {
		in["backgroundColor"] = s.Fill
		in["fillStyle"] = "solid"
	}
	if s.Stroke != "" {
		in["strokeColor"] = s.Stroke
	}
	if s.StrokeWidth > 0 {
		in["strokeWidth"] = s.StrokeWidth
	}
	if s.Dashed {
		in["strokeStyle"] = "dashed"
	}
}

// round2 rounds to hundredths, as a drawing's coordinates are written.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// sanitize makes s fit in an Excalidraw group id.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
