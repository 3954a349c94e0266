package diagram

import (
	"encoding/json"
	"errors"
	"testing"
)

func sound() Graph {
	return Graph{
		Direction: LeftToRight,
		Groups:    []Group{{ID: "back", Label: "Backend"}, {ID: "data", Parent: "back"}},
		Nodes: []Node{
			{ID: "web", Label: "Web app", Shape: Rounded},
			{ID: "api", Label: "API", Group: "back"},
			{ID: "db", Label: "Postgres", Shape: Cylinder, Group: "data", Role: "database"},
		},
		Edges: []Edge{{From: "web", To: "api", Label: "HTTPS"}, {From: "api", To: "db", Line: Dashed, EndNone: true}},
	}
}

// A sound graph passes; each kind of mistake is named at its pointer.
func TestCheck(t *testing.T) {
	g := sound()
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		break_  func(*Graph)
		pointer string
	}{
		{"no id", func(g *Graph) { g.Nodes[1].ID = " " }, "/nodes/1/id"},
		{"an id twice", func(g *Graph) { g.Nodes[2].ID = "web" }, "/nodes/2/id"},
		{"a shape", func(g *Graph) { g.Nodes[0].Shape = "star" }, "/nodes/0/shape"},
		{"a node's group", func(g *Graph) { g.Nodes[1].Group = "front" }, "/nodes/1/group"},
		{"an edge's start", func(g *Graph) { g.Edges[0].From = "app" }, "/edges/0/from"},
		{"an edge's end", func(g *Graph) { g.Edges[1].To = "cache" }, "/edges/1/to"},
		{"a line", func(g *Graph) { g.Edges[1].Line = "dotted" }, "/edges/1/line"},
		{"an arrowhead", func(g *Graph) { g.Edges[0].End = "harpoon" }, "/edges/0/end"},
		{"the direction", func(g *Graph) { g.Direction = "up" }, "/direction"},
		{"a group's parent", func(g *Graph) { g.Groups[1].Parent = "nowhere" }, "/groups/1/parent"},
		{"a group in itself", func(g *Graph) { g.Groups[0].Parent = "data" }, "/groups/0/parent"},
		{"a group id twice", func(g *Graph) { g.Groups[1].ID = "back" }, "/groups/1/id"},
	} {
		g := sound()
		tc.break_(&g)
		var p Problem
		if err := g.Check(); !errors.As(err, &p) || p.Pointer != tc.pointer {
			t.Errorf("%s: %v, want a problem at %s", tc.name, err, tc.pointer)
		}
	}
}

// An edge is an arrow unless it says otherwise; a node shows its id when
// it has no label; the flow is top to bottom by default.
func TestDefaults(t *testing.T) {
	if h := (Edge{}).Head(); h != ArrowHead {
		t.Errorf("default head %q", h)
	}
	if h := (Edge{EndNone: true}).Head(); h != NoHead {
		t.Errorf("EndNone head %q", h)
	}
	if h := (Edge{End: CrossHead}).Head(); h != CrossHead {
		t.Errorf("cross head %q", h)
	}
	if s := (Node{ID: "a"}).Text(); s != "a" {
		t.Errorf("text %q", s)
	}
	if d := (&Graph{}).Flow(); d != TopToBottom {
		t.Errorf("flow %q", d)
	}
	b, err := json.Marshal(Graph{Nodes: []Node{{ID: "a"}}})
	if err != nil || string(b) != `{"nodes":[{"id":"a"}]}` {
		t.Errorf("a minimal graph encodes as %s %v", b, err)
	}
}

// An edge may end at a group (Mermaid's edge to a subgraph), and carries
// its own style.
func TestEdgeToGroup(t *testing.T) {
	g := sound()
	g.Edges = append(g.Edges, Edge{From: "web", To: "back", Style: Style{Stroke: "#e03131", StrokeWidth: 2}},
		Edge{From: "data", To: "web"})
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	g.Edges[2].To = "front"
	var p Problem
	if err := g.Check(); !errors.As(err, &p) || p.Pointer != "/edges/2/to" {
		t.Errorf("%v, want a problem at /edges/2/to", err)
	}
	b, err := json.Marshal(Edge{From: "a", To: "b", Style: Style{Stroke: "red"}})
	if err != nil || string(b) != `{"from":"a","to":"b","style":{"stroke":"red"}}` {
		t.Errorf("a styled edge encodes as %s %v", b, err)
	}
}
