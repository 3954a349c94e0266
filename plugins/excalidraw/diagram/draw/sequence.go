package draw

import (
	"fmt"
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/layout"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// Drawable is a diagram laid out at (0, 0), ready to be written at an
// origin: a graph's Plan, or a SequencePlan.
type Drawable interface {
	// Size is the drawing's width and height.
	Size() (w, h float64)
	// Inputs writes its elements with the top-left corner at origin.
	Inputs(origin geom.Vec, id func(Part) string) *Drawing
}

var (
	_ Drawable = (*Plan)(nil)
	_ Drawable = (*SequencePlan)(nil)
)

// Size is the plan's width and height.
func (p *Plan) Size() (float64, float64) { return p.Width, p.Height }

// SequencePlan is a sequence diagram laid out (layout.Sequence) with the
// scene's text metrics.
type SequencePlan struct {
	res *layout.SequenceResult
	o   Options
}

// sequenceRowGap is the room between two steps: more than a binding's
// reach, so the last message does not read as meant for the feet below.
const sequenceRowGap = 24

// LaySequence lays s out.
func LaySequence(s *diagram.Sequence, o Options) (*SequencePlan, error) {
	o = o.withDefaults()
	f := textmetrics.FontFamily(o.FontFamily)
	res, err := layout.Sequence(s, func(text string) (float64, float64) {
		m := textmetrics.Measure(text, f, o.FontSize)
		return m.Width, m.Height
	}, layout.SequenceOptions{RowGap: sequenceRowGap})
	if err != nil {
		return nil, err
	}
	return &SequencePlan{res: res, o: o}, nil
}

// Size is the drawing's width and height.
func (sp *SequencePlan) Size() (float64, float64) { return sp.res.Width, sp.res.Height }

// Inputs writes the sequence: participant boxes (their heads and feet),
// dashed lifelines, activation bars, messages as arrows with their
// labels above, notes, and blocks as frames of lines with their titles,
// in that order from back to front.
func (sp *SequencePlan) Inputs(origin geom.Vec, id func(Part) string) *Drawing {
	d := &Drawing{}
	add := func(part Part, in map[string]any) {
		eid := id(part)
		in["id"] = eid
		d.Inputs = append(d.Inputs, mustJSON(in))
		d.Parts = append(d.Parts, part)
		d.IDs = append(d.IDs, eid)
	}
	at := func(x, y float64) (float64, float64) { return round2(origin.X + x), round2(origin.Y + y) }
	fam, size := sp.o.FontFamily, sp.o.FontSize
	text := func(part Part, b layout.Box, s string, colour string) {
		if s == "" || b.W <= 0 {
			return
		}
		x, y := at(b.X, b.Y)
		in := map[string]any{"type": "text", "x": x, "y": y, "text": s, "fontFamily": fam, "fontSize": size}
		if colour != "" {
			in["strokeColor"] = colour
		}
		add(part, in)
	}
	rect := func(part Part, b layout.Box, extra map[string]any) {
		x, y := at(b.X, b.Y)
		in := map[string]any{"type": "rectangle", "x": x, "y": y, "width": round2(b.W), "height": round2(b.H), "roundness": "sharp"}
		for k, v := range extra {
			in[k] = v
		}
		add(part, in)
	}
	line := func(part Part, pts []layout.Point, extra map[string]any) {
		x, y := at(pts[0].X, pts[0].Y)
		rel := make([][2]float64, len(pts))
		for i, q := range pts {
			rel[i] = [2]float64{round2(q.X - pts[0].X), round2(q.Y - pts[0].Y)}
		}
		in := map[string]any{"type": "line", "x": x, "y": y, "points": rel, "roundness": "sharp"}
		for k, v := range extra {
			in[k] = v
		}
		add(part, in)
	}
	res := sp.res

	for _, b := range res.Boxes {
		if b.Box.W <= 0 {
			continue
		}
		fill := b.Color
		if fill == "" || fill == "transparent" {
			fill = "#f8f9fa"
		}
		rect(Part{Kind: "box", Key: b.ID}, b.Box, map[string]any{"backgroundColor": fill, "fillStyle": "solid", "strokeColor": "#868e96", "strokeWidth": 1})
		text(Part{Kind: "box", Key: b.ID, Piece: "label"}, b.LabelBox, b.Label, "#495057")
	}
	for k, bl := range res.Blocks {
		key := fmt.Sprintf("%d", k)
		extra := map[string]any{"strokeColor": "#868e96", "strokeWidth": 1}
		if bl.Kind == diagram.Rect {
			extra["backgroundColor"], extra["fillStyle"] = orColour(bl.Color, "#f1f3f5"), "solid"
		}
		if bl.Kind == diagram.Rect {
			rect(Part{Kind: "block", Key: key}, bl.Box, extra)
		} else {
			// A frame of lines, not a shape: what it holds is not over it.
			b := bl.Box
			line(Part{Kind: "block", Key: key}, []layout.Point{{X: b.X, Y: b.Y}, {X: b.X + b.W, Y: b.Y}, {X: b.X + b.W, Y: b.Y + b.H}, {X: b.X, Y: b.Y + b.H}, {X: b.X, Y: b.Y}}, extra)
		}
		text(Part{Kind: "block", Key: key, Piece: "title"}, bl.TitleBox, bl.Title, "#495057")
		text(Part{Kind: "block", Key: key, Piece: "label"}, bl.LabelBox, bl.Label, "#495057")
		for k, sec := range bl.Sections { // the dividers before the second and later sections
			line(Part{Kind: "block", Key: key, Piece: fmt.Sprintf("section%d", k)},
				[]layout.Point{{X: bl.Box.X, Y: sec.Y}, {X: bl.Box.X + bl.Box.W, Y: sec.Y}},
				map[string]any{"strokeStyle": "dashed", "strokeColor": "#868e96", "strokeWidth": 1})
			text(Part{Kind: "block", Key: key, Piece: fmt.Sprintf("section%d-label", k)}, sec.LabelBox, sec.Label, "#495057")
		}
	}
	for _, pt := range sp.res.Participants {
		line(Part{Kind: "participant", Key: pt.ID, Piece: "lifeline"}, []layout.Point{{X: pt.X, Y: pt.Top}, {X: pt.X, Y: pt.Bottom}},
			map[string]any{"strokeStyle": "dashed", "strokeColor": "#868e96", "strokeWidth": 1})
	}
	for _, pt := range sp.res.Participants {
		typ, round := "rectangle", "sharp"
		style := map[string]any{}
		switch pt.Kind {
		case diagram.Actor:
			roleStyle(style, "user")
			round = "round"
		case diagram.Database:
			roleStyle(style, "database")
			round = "round"
		case diagram.Queue:
			roleStyle(style, "queue")
			round = "round"
		}
		for _, end := range []struct {
			b     layout.Box
			piece string
		}{{pt.Head, ""}, {pt.Foot, "foot"}} {
			if end.b.W <= 0 {
				continue
			}
			x, y := at(end.b.X, end.b.Y)
			in := map[string]any{"type": typ, "x": x, "y": y, "width": round2(end.b.W), "height": round2(end.b.H), "roundness": round,
				"label": map[string]any{"text": pt.Text, "fontFamily": fam, "fontSize": size}}
			for k, v := range style {
				in[k] = v
			}
			add(Part{Kind: "participant", Key: pt.ID, Piece: end.piece}, in)
		}
		if pt.Destroyed {
			c := layout.Point{X: pt.X, Y: pt.Bottom}
			line(Part{Kind: "participant", Key: pt.ID, Piece: "destroyed"}, []layout.Point{{X: c.X - 8, Y: c.Y - 8}, {X: c.X + 8, Y: c.Y + 8}}, map[string]any{"strokeWidth": 2})
			line(Part{Kind: "participant", Key: pt.ID, Piece: "destroyed2"}, []layout.Point{{X: c.X - 8, Y: c.Y + 8}, {X: c.X + 8, Y: c.Y - 8}}, map[string]any{"strokeWidth": 2})
		}
	}
	for k, a := range sp.res.Activations {
		rect(Part{Kind: "activation", Key: fmt.Sprintf("%d", k)}, a.Box, map[string]any{"backgroundColor": "#e9ecef", "fillStyle": "solid", "strokeWidth": 1})
	}
	for k, n := range sp.res.Notes {
		x, y := at(n.Box.X, n.Box.Y)
		in := map[string]any{"type": "rectangle", "x": x, "y": y, "width": round2(n.Box.W), "height": round2(n.Box.H), "roundness": "sharp",
			"label": map[string]any{"text": n.Note.Text, "fontFamily": fam, "fontSize": size}}
		roleStyle(in, "note")
		add(Part{Kind: "note", Key: fmt.Sprintf("%d", k)}, in)
	}
	for k, m := range sp.res.Messages {
		key := fmt.Sprintf("%d", k)
		pts := m.Points
		x, y := at(pts[0].X, pts[0].Y)
		rel := make([][2]float64, len(pts))
		for i, q := range pts {
			rel[i] = [2]float64{round2(q.X - pts[0].X), round2(q.Y - pts[0].Y)}
		}
		in := map[string]any{"type": "arrow", "x": x, "y": y, "points": rel, "roundness": "sharp",
			"startArrowhead": head(m.Message.Start), "endArrowhead": head(m.Message.Head)}
		if m.Message.Line == diagram.Dashed {
			in["strokeStyle"] = "dashed"
		}
		for _, end := range []struct {
			field string
			p     layout.Point
		}{{"startElementId", pts[0]}, {"endElementId", pts[len(pts)-1]}} {
			if k, ok := sp.barAt(end.p); ok {
				in[end.field] = id(Part{Kind: "activation", Key: fmt.Sprintf("%d", k)})
			}
		}
		add(Part{Kind: "message", Key: key}, in)
		text(Part{Kind: "message", Key: key, Piece: "label"}, m.Label, m.Text, "")
	}
	return d
}

func orColour(c, def string) string {
	if c == "" || c == "transparent" {
		return def
	}
	return c
}

// barAt is the activation bar whose side p lies on, innermost last.
func (sp *SequencePlan) barAt(p layout.Point) (int, bool) {
	found, at := false, 0
	for k, a := range sp.res.Activations {
		b := a.Box
		onSide := (math.Abs(p.X-b.X) < 0.5 || math.Abs(p.X-(b.X+b.W)) < 0.5) && p.Y >= b.Y-0.5 && p.Y <= b.Y+b.H+0.5
		if onSide {
			found, at = true, k
		}
	}
	return at, found
}
