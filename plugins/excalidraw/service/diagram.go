package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/draw"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/mermaid"
	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
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

	profile profile.Profile
}

func (e CreateDiagram) Named() []string { return nil }

// WithProfile gives the diagram the board's profile (Profiled): its
// font, its type scale's sizes (diagramSizes), and its roles' colours for
// the nodes of those roles that give none of their own.
func (e CreateDiagram) WithProfile(p profile.Profile) Edit {
	e.profile = p
	return e
}

// options are the drawing's options: the call's spacing, the profile's
// font and its sizes (diagramSizes).
func (e CreateDiagram) options() draw.Options {
	o := draw.Options{NodeGap: e.NodeGap, RankGap: e.RankGap, FontFamily: e.profile.FontFamily}
	o.FontSize, o.SmallSize, o.EndSize, o.GroupSize = diagramSizes(e.profile)
	return o
}

// diagramSizes are the font sizes a diagram draws on a board with profile
// p, every one on its type scale: node labels and titles at "body" (or
// the scale's size nearest 16 without one); edge labels, end labels and a
// node's fields at "caption" when it is no larger, else the scale's
// smallest size; group labels at "subheading", else "heading", when no
// smaller than body, else body. Without a type scale all are 0: the
// drawing's own defaults (16, 14, 12, 16).
func diagramSizes(p profile.Profile) (body, small, end, group float64) {
	sizes := p.Sizes()
	if len(sizes) == 0 {
		return 0, 0, 0, 0
	}
	body = p.Size("body", p.Nearest(16))
	small = sizes[0]
	if c := p.Size("caption", 0); c > 0 && c <= body {
		small = c
	}
	group = body
	for _, level := range []string{"subheading", "heading"} {
		if s := p.Size(level, 0); s >= body {
			group = s
			break
		}
	}
	return body, small, small, group
}

// profiled colours g's nodes of a profile role with the role's colours,
// where the node sets none of its own.
func (e CreateDiagram) profiled(g *diagram.Graph) {
	if g == nil || len(e.profile.Roles) == 0 {
		return
	}
	g.Nodes = slices.Clone(g.Nodes)
	for i, n := range g.Nodes {
		r, ok := e.profile.Roles[n.Role]
		if !ok {
			continue
		}
		if n.Style.Fill == "" {
			g.Nodes[i].Style.Fill = r.Fill
		}
		if n.Style.Stroke == "" {
			g.Nodes[i].Style.Stroke = r.Stroke
		}
	}
}

func (e CreateDiagram) Plan(at string) Plan {
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		g, seq, err := e.graph(at)
		if err != nil {
			return PlanResult{}, err
		}
		e.profiled(g)
		opts := e.options()
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
		roles := nodeRoles(g)
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
			} else if r := roles[part.Key]; part.Kind == "node" && r != "" {
				rec.Set("role", r) // what visual-qa checks its colours against
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

// UpdateDiagram re-plans a drawn diagram (Diagram, the id create_diagram
// answered) to a new description: what it should show now, given as to
// create_diagram. Nodes already drawn stay where they are (those a
// person moved too), new ones are placed by the layout beside them,
// nodes left out are deleted, and every edge and group is drawn again.
type UpdateDiagram struct {
	Diagram string `json:"diagram"`
	CreateDiagram
}

func (e UpdateDiagram) Named() []string { return nil }

// WithProfile gives the re-planned diagram the board's profile, as
// CreateDiagram's.
func (e UpdateDiagram) WithProfile(p profile.Profile) Edit {
	e.profile = p
	return e
}

func (e UpdateDiagram) Plan(at string) Plan {
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		old := diagramElements(doc, e.Diagram)
		if len(old) == 0 {
			return PlanResult{}, sceneerr.New(sceneerr.NotFound, "no diagram %q in this scene; create_diagram answers its id", e.Diagram).
				With("pointer", at+"/diagram")
		}
		g, seq, err := e.graph(at)
		if err != nil {
			return PlanResult{}, err
		}
		if seq != nil {
			return PlanResult{}, opError(at+"/mermaid", "a sequence diagram is redrawn whole: delete it and call create_diagram")
		}
		roles := nodeRoles(g)
		// What is drawn now: each node's box, by key.
		kept := map[string]geom.Rect{}
		oldNode := map[string]*ojson.Object{}
		hasFields := map[string]bool{}
		var box geom.Rect
		for i, el := range old {
			b, _ := scene.ElementBounds(el.el)
			if i == 0 {
				box = b
			} else {
				box = box.Union(b)
			}
			if el.part.Kind != "node" {
				continue
			}
			if el.part.Piece != "" {
				hasFields[el.part.Key] = true
				continue
			}
			oldNode[el.part.Key] = el.el
			x, y := scene.NumberOf(el.el, "x"), scene.NumberOf(el.el, "y")
			kept[el.part.Key] = geom.R(x, y, x+scene.NumberOf(el.el, "width"), y+scene.NumberOf(el.el, "height"))
		}
		inNew := map[string]bool{}
		for _, n := range g.Nodes {
			inNew[n.ID] = true
		}
		for k := range kept {
			if !inNew[k] {
				delete(kept, k)
			}
		}
		e.profiled(g)
		p, err := draw.Relay(context.Background(), g, e.options(), kept, geom.V(box.MinX, box.MinY))
		if err != nil {
			return PlanResult{}, opError(at, "%v", err)
		}
		taken := map[string]bool{}
		for _, el := range doc.Elements() {
			taken[scene.StringOf(el, "id")] = true
		}
		newID := func(part draw.Part) string {
			base := elementID(e.Diagram, part)
			id := base
			for n := 2; taken[id]; n++ {
				id = fmt.Sprintf("%s-%d", base, n)
			}
			taken[id] = true
			return id
		}
		// A node keeps its element when it is still a plain box of the same
		// type; every other element of the diagram is drawn anew.
		reuse := map[string]string{}
		ids := map[draw.Part]string{}
		d := p.Inputs(geom.V(0, 0), func(part draw.Part) string {
			if id, ok := ids[part]; ok {
				return id
			}
			id := ""
			_, stays := kept[part.Key]
			if el := oldNode[part.Key]; el != nil && part.Kind == "node" && part.Piece == "" && stays && !hasFields[part.Key] {
				id = scene.StringOf(el, "id")
				reuse[part.Key] = id
			} else {
				id = newID(part)
			}
			ids[part] = id
			return id
		})
		var updates []engine.Update
		var inputs []json.RawMessage
		var parts []draw.Part
		reused := map[string]bool{}
		for i, part := range d.Parts {
			id := d.IDs[i]
			if part.Kind == "node" && part.Piece == "" && reuse[part.Key] == id {
				in := map[string]any{}
				if err := json.Unmarshal(d.Inputs[i], &in); err != nil {
					return PlanResult{}, err
				}
				if in["type"] == scene.StringOf(oldNode[part.Key], "type") {
					updates = append(updates, engine.Update{ID: id, Patch: nodePatch(in)})
					reused[id] = true
					continue
				}
				// Another shape: the old box goes, a new one comes.
				id = newID(part)
				in["id"] = id
				raw, _ := json.Marshal(in)
				d.Inputs[i], d.IDs[i] = raw, id
			}
			inputs = append(inputs, d.Inputs[i])
			parts = append(parts, part)
		}
		var gone []string
		for _, el := range old {
			id := scene.StringOf(el.el, "id")
			if !reused[id] && scene.StringOf(el.el, "containerId") == "" {
				gone = append(gone, id)
			}
		}
		if len(gone) > 0 {
			if err := tx.Delete(gone, at+"/diagram"); err != nil {
				return PlanResult{}, err
			}
		}
		if len(updates) > 0 {
			if err := tx.Update(updates, at+"/diagram"); err != nil {
				return PlanResult{}, err
			}
		}
		added, err := tx.Add(inputs, at+"/diagram")
		if err != nil {
			return PlanResult{}, err
		}
		nodes := map[string]string{}
		var targets []string
		tag := func(id string, part draw.Part) error {
			rec := ojson.New().Set("diagram", e.Diagram).Set("kind", part.Kind).Set("key", part.Key)
			if part.Piece != "" {
				rec.Set("piece", part.Piece)
			} else if r := roles[part.Key]; part.Kind == "node" && r != "" {
				rec.Set("role", r)
			}
			if part.Kind == "node" && part.Piece == "" {
				nodes[part.Key] = id
				targets = append(targets, id)
			}
			return tx.SetCustom(id, DiagramKey, rec, at)
		}
		for i, id := range added {
			if err := tag(id, parts[i]); err != nil {
				return PlanResult{}, err
			}
		}
		for key, id := range reuse {
			if reused[id] {
				nodes[key] = id
				targets = append(targets, id)
			}
		}
		// A kept node's tag follows its role, which may have changed.
		for key, id := range reuse {
			if !reused[id] {
				continue
			}
			rec := ojson.New().Set("diagram", e.Diagram).Set("kind", "node").Set("key", key)
			if r := roles[key]; r != "" {
				rec.Set("role", r)
			}
			if err := tx.SetCustom(id, DiagramKey, rec, at); err != nil {
				return PlanResult{}, err
			}
		}
		var removed []string
		for k := range oldNode {
			if !inNew[k] {
				removed = append(removed, k)
			}
		}
		sort.Strings(removed)
		return PlanResult{Targets: targets, Extra: map[string]any{
			"diagram": e.Diagram, "nodes": nodes, "kept": len(reused), "removed": removed,
		}}, nil
	}
}

// nodeRoles are the roles of g's nodes, by id (nil g: none).
func nodeRoles(g *diagram.Graph) map[string]string {
	out := map[string]string{}
	if g == nil {
		return out
	}
	for _, n := range g.Nodes {
		if n.Role != "" {
			out[n.ID] = n.Role
		}
	}
	return out
}

// diagramPart is an element of a drawn diagram and the part it draws.
type diagramPart struct {
	el   *ojson.Object
	part draw.Part
}

// diagramElements are the live elements tagged as parts of diagram id,
// in scene order.
func diagramElements(doc *scene.Document, id string) []diagramPart {
	var out []diagramPart
	for _, el := range doc.Elements() {
		if scene.IsDeleted(el) {
			continue
		}
		cd, ok := el.Object("customData")
		if !ok {
			continue
		}
		rec, ok := cd.Object(DiagramKey)
		if !ok || scene.StringOf(rec, "diagram") != id {
			continue
		}
		out = append(out, diagramPart{el: el, part: draw.Part{Kind: scene.StringOf(rec, "kind"), Key: scene.StringOf(rec, "key"), Piece: scene.StringOf(rec, "piece")}})
	}
	return out
}

// nodePatch is the update that makes a drawn node's box what input in
// says: its place and size, its label's text, and its colours (a field
// the input leaves out goes back to Excalidraw's default).
func nodePatch(in map[string]any) json.RawMessage {
	patch := map[string]any{
		"x": in["x"], "y": in["y"], "width": in["width"], "height": in["height"],
		"backgroundColor": "transparent", "strokeColor": "#1e1e1e", "fillStyle": "solid", "strokeStyle": "solid",
	}
	for _, k := range []string{"backgroundColor", "strokeColor", "fillStyle", "strokeStyle", "roundness", "strokeWidth"} {
		if v, ok := in[k]; ok {
			patch[k] = v
		}
	}
	if l, ok := in["label"].(map[string]any); ok {
		patch["text"] = l["text"]
	}
	raw, _ := json.Marshal(patch)
	return raw
}
