package service

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/draw"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/mermaid"
	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// DiagramKey is the customData member that records what an element of a
// drawn diagram stands for: {"diagram": id, "kind": "node"|"edge"|"group",
// "key": node or group id, or edge index, "piece": …} (draw.Part), so a
// later change re-plans the diagram from its elements.
const DiagramKey = "dshDiagram"

// besideGap is the room left between a diagram placed beside the scene's
// content and that content.
const besideGap = 100

// CreateDiagram draws a described diagram: Mermaid text, or nodes, edges
// and groups, laid out and routed (package diagram/draw), at At or beside
// what the scene holds.
type CreateDiagram struct {
	Mermaid   string            `json:"mermaid,omitempty"`
	Direction diagram.Direction `json:"direction,omitempty"`
	Nodes     []diagram.Node    `json:"nodes,omitempty"`
	Edges     []diagram.Edge    `json:"edges,omitempty"`
	Groups    []diagram.Group   `json:"groups,omitempty"`
	At        *engine.Point     `json:"at,omitempty"`
	NodeGap   float64           `json:"nodeGap,omitempty"`
	RankGap   float64           `json:"rankGap,omitempty"`
}

func (e CreateDiagram) Named() []string { return nil }

func (e CreateDiagram) Plan(at string) Plan {
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		g, seq, err := e.graph(at)
		if err != nil {
			return PlanResult{}, err
		}
		opts := draw.Options{NodeGap: e.NodeGap, RankGap: e.RankGap}
		var p draw.Drawable
		if seq != nil {
			p, err = draw.LaySequence(seq, opts)
		} else {
			p, err = draw.Lay(context.Background(), g, opts)
		}
		if err != nil {
			return PlanResult{}, opError(at, "%v", err)
		}
		width, height := p.Size()
		origin := besideContent(doc)
		if e.At != nil {
			origin = geom.V(e.At.X, e.At.Y)
		}
		did := newDiagramID(doc)
		d := p.Inputs(origin, func(part draw.Part) string { return elementID(did, part) })
		ids, err := tx.Add(d.Inputs, at+"/diagram")
		if err != nil {
			return PlanResult{}, err
		}
		nodes := map[string]string{}
		var targets []string
		for i, part := range d.Parts {
			rec := ojson.New().Set("diagram", did).Set("kind", part.Kind).Set("key", part.Key)
			if part.Piece != "" {
				rec.Set("piece", part.Piece)
			}
			if err := tx.SetCustom(ids[i], DiagramKey, rec, at); err != nil {
				return PlanResult{}, err
			}
			if (part.Kind == "node" || part.Kind == "participant") && part.Piece == "" {
				nodes[part.Key] = ids[i]
				targets = append(targets, ids[i])
			}
		}
		return PlanResult{Targets: targets, Extra: map[string]any{
			"diagram": did,
			"nodes":   nodes,
			"box":     map[string]float64{"x": origin.X, "y": origin.Y, "width": math.Round(width), "height": math.Round(height)},
		}}, nil
	}
}

// graph is the diagram described: parsed from Mermaid (a graph, or a
// sequence), or the nodes, edges and groups given, checked (errors
// located under at).
func (e CreateDiagram) graph(at string) (*diagram.Graph, *diagram.Sequence, error) {
	if e.Mermaid != "" {
		if len(e.Nodes)+len(e.Edges)+len(e.Groups) > 0 {
			return nil, nil, opError(at+"/mermaid", "give mermaid, or nodes, edges and groups, not both")
		}
		d, err := mermaid.Read(e.Mermaid)
		if err != nil {
			var me *mermaid.Error
			if errors.As(err, &me) {
				return nil, nil, sceneerr.New(sceneerr.InvalidOperation, "%v", err).
					With("pointer", at+"/mermaid").With("line", me.Line).With("column", me.Column)
			}
			return nil, nil, opError(at+"/mermaid", "%v", err)
		}
		if d.Sequence != nil {
			return nil, d.Sequence, nil
		}
		g := d.Graph
		if e.Direction != "" {
			g.Direction = e.Direction
		}
		return g, nil, nil
	}
	if len(e.Nodes) == 0 {
		return nil, nil, opError(at+"/nodes", "give nodes (and edges and groups), or mermaid")
	}
	g := &diagram.Graph{Direction: e.Direction, Nodes: e.Nodes, Edges: make([]diagram.Edge, len(e.Edges)), Groups: e.Groups}
	for i, ed := range e.Edges {
		if ed.Start == "none" {
			ed.Start = diagram.NoHead
		}
		if ed.End == "none" {
			ed.End, ed.EndNone = diagram.NoHead, true
		}
		g.Edges[i] = ed
	}
	if err := g.Check(); err != nil {
		var pr diagram.Problem
		if errors.As(err, &pr) {
			return nil, nil, opError(at+pr.Pointer, "%s", pr.Message)
		}
		return nil, nil, opError(at, "%v", err)
	}
	return g, nil, nil
}

// besideContent is where a diagram goes when no point is given: to the
// right of everything the scene shows, its top level with the top of
// that, or at the origin of an empty scene.
func besideContent(doc *scene.Document) geom.Vec {
	var box geom.Rect
	found := false
	for _, el := range doc.Elements() {
		if scene.IsDeleted(el) {
			continue
		}
		b, ok := scene.ElementBounds(el)
		if !ok {
			continue
		}
		if !found {
			box, found = b, true
		} else {
			box = box.Union(b)
		}
	}
	if !found {
		return geom.V(0, 0)
	}
	return geom.V(math.Round(box.MaxX+besideGap), math.Round(box.MinY))
}

// newDiagramID is a diagram id no element id of doc starts with.
func newDiagramID(doc *scene.Document) string {
	const letters = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	for {
		b := []byte("dg")
		for range 6 {
			b = append(b, letters[rand.IntN(len(letters))])
		}
		id := string(b)
		taken := false
		for _, el := range doc.Elements() {
			if strings.HasPrefix(scene.StringOf(el, "id"), id+"-") {
				taken = true
				break
			}
		}
		if !taken {
			return id
		}
	}
}

// elementID is the id of a diagram part's element: the diagram's id,
// the part's kind and an index or a tidy key, and its piece.
func elementID(did string, p draw.Part) string {
	key := tidyKey(p.Key)
	id := fmt.Sprintf("%s-%c-%s", did, p.Kind[0], key)
	if p.Piece != "" {
		id += "-" + p.Piece
	}
	return id
}

// tidyKey keeps an id's letters, digits, - and _, replacing the rest, and
// cuts it to fit an element id; a key that changed gets a short hash so
// that two keys stay apart.
func tidyKey(k string) string {
	var b strings.Builder
	changed := false
	for _, r := range k {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
			changed = true
		}
	}
	s := b.String()
	if len(s) > 24 {
		s, changed = s[:24], true
	}
	if changed {
		var h uint32 = 2166136261
		for i := 0; i < len(k); i++ {
			h = (h ^ uint32(k[i])) * 16777619
		}
		s += fmt.Sprintf("_%x", h)
	}
	return s
}
