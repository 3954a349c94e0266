// Package diagram is a diagram described rather than drawn: nodes with
// labels and shapes, edges between them, groups that hold nodes, and a
// direction. Agents send one (create_diagram), Mermaid text parses into
// one (package mermaid), and dsh lays it out and routes it into
// Excalidraw elements; the description is kept with the scene so a later
// change re-plans it without undoing what people moved.
package diagram

import (
	"fmt"
	"slices"
	"strings"
)

// Direction is the way a diagram flows: its edges point mostly this way.
type Direction string

// The directions (Mermaid's and Graphviz's names).
const (
	TopToBottom Direction = "TB"
	BottomToTop Direction = "BT"
	LeftToRight Direction = "LR"
	RightToLeft Direction = "RL"
)

// Shape is a node's outline. Excalidraw draws rectangles (square or
// rounded corners), diamonds and ellipses; the other shapes are drawn
// from those and lines, as near as they go.
type Shape string

// The shapes, with Mermaid flowchart's syntax for each.
const (
	Rectangle        Shape = "rectangle"         // A[text]
	Rounded          Shape = "rounded"           // A(text)
	Stadium          Shape = "stadium"           // A([text])
	Subroutine       Shape = "subroutine"        // A[[text]]
	Cylinder         Shape = "cylinder"          // A[(text)]
	Circle           Shape = "circle"            // A((text))
	DoubleCircle     Shape = "doublecircle"      // A(((text)))
	Asymmetric       Shape = "asymmetric"        // A>text]
	Diamond          Shape = "diamond"           // A{text}
	Hexagon          Shape = "hexagon"           // A{{text}}
	Parallelogram    Shape = "parallelogram"     // A[/text/]
	ParallelogramAlt Shape = "parallelogram-alt" // A[\text\]
	Trapezoid        Shape = "trapezoid"         // A[/text\]
	TrapezoidAlt     Shape = "trapezoid-alt"     // A[\text/]
	Ellipse          Shape = "ellipse"
)

// Shapes are every shape, in the order above.
var Shapes = []Shape{Rectangle, Rounded, Stadium, Subroutine, Cylinder, Circle, DoubleCircle, Asymmetric,
	Diamond, Hexagon, Parallelogram, ParallelogramAlt, Trapezoid, TrapezoidAlt, Ellipse}

// Line is how an edge is drawn.
type Line string

// The lines (Mermaid: -->, -.->, ==>, ~~~).
const (
	Solid     Line = "solid"
	Dashed    Line = "dashed"
	Thick     Line = "thick"
	Invisible Line = "invisible" // placed by the layout, not drawn
)

// Arrowhead is an edge end's mark ("" is none).
type Arrowhead string

// The arrowheads: Mermaid flowchart's (-->, --o, --x) and the marks
// class and ER diagrams need, each drawn with Excalidraw's head of that
// name (a cross with its bar).
const (
	NoHead                Arrowhead = ""
	ArrowHead             Arrowhead = "arrow"
	CircleHead            Arrowhead = "circle"
	CrossHead             Arrowhead = "cross"
	BarHead               Arrowhead = "bar"
	DotHead               Arrowhead = "dot"
	CircleOutlineHead     Arrowhead = "circle_outline"
	TriangleHead          Arrowhead = "triangle"
	TriangleOutlineHead   Arrowhead = "triangle_outline"
	DiamondHead           Arrowhead = "diamond"
	DiamondOutlineHead    Arrowhead = "diamond_outline"
	CrowfootOneHead       Arrowhead = "crowfoot_one"
	CrowfootManyHead      Arrowhead = "crowfoot_many"
	CrowfootOneOrManyHead Arrowhead = "crowfoot_one_or_many"
)

// Arrowheads are every arrowhead but NoHead, in the order above.
var Arrowheads = []Arrowhead{ArrowHead, CircleHead, CrossHead, BarHead, DotHead, CircleOutlineHead,
	TriangleHead, TriangleOutlineHead, DiamondHead, DiamondOutlineHead,
	CrowfootOneHead, CrowfootManyHead, CrowfootOneOrManyHead}

// Style is a node's or group's own colours and stroke, over its role's.
// Colours are CSS colours as Excalidraw takes them ("#1e1e1e").
type Style struct {
	Fill        string  `json:"fill,omitempty"`
	Stroke      string  `json:"stroke,omitempty"`
	Text        string  `json:"text,omitempty"`
	StrokeWidth float64 `json:"strokeWidth,omitempty"`
	Dashed      bool    `json:"dashed,omitempty"`
}

// IsZero reports whether s sets nothing.
func (s Style) IsZero() bool { return s == Style{} }

// Node is one box of the diagram.
type Node struct {
	ID string `json:"id"`
	// Label is the node's text ("" shows its ID).
	Label string `json:"label,omitempty"`
	Shape Shape  `json:"shape,omitempty"`
	// Role names a style of the board's (primary, database, external…).
	Role string `json:"role,omitempty"`
	// Group is the innermost group holding the node ("" none).
	Group string `json:"group,omitempty"`
	Style Style  `json:"style,omitzero"`
	// Fields are lines shown under the label, below a rule: a class's
	// members, an entity's attributes.
	Fields []string `json:"fields,omitempty"`
}

// Text is what the node shows: its label, or its id.
func (n Node) Text() string {
	if n.Label != "" {
		return n.Label
	}
	return n.ID
}

// Edge joins two nodes. From or To may name a group instead, when no
// node has that id: the edge then ends at the group's border (Mermaid's
// edge to a subgraph).
type Edge struct {
	From  string    `json:"from"`
	To    string    `json:"to"`
	Label string    `json:"label,omitempty"`
	Line  Line      `json:"line,omitempty"`
	Start Arrowhead `json:"start,omitempty"`
	// End is the head at To; the zero Edge is drawn as an arrow, so an
	// edge without a head says so with EndNone.
	End     Arrowhead `json:"end,omitempty"`
	EndNone bool      `json:"endNone,omitempty"`
	// Style is the edge's own stroke colour and width and its label's
	// colour (Mermaid's linkStyle); Fill is unused, and a dashed edge
	// says so with Line.
	Style Style `json:"style,omitzero"`
	// StartLabel and EndLabel are short texts by the From and To ends (a
	// class relation's multiplicities, "1" and "*").
	StartLabel string `json:"startLabel,omitempty"`
	EndLabel   string `json:"endLabel,omitempty"`
}

// Head is the mark at To: End, an arrow by default, none with EndNone.
func (e Edge) Head() Arrowhead {
	switch {
	case e.EndNone:
		return NoHead
	case e.End == "":
		return ArrowHead
	}
	return e.End
}

// Group is a cluster of nodes (Mermaid's subgraph), drawn as a frame or a
// container box around them; groups nest through Parent.
type Group struct {
	ID     string `json:"id"`
	Label  string `json:"label,omitempty"`
	Parent string `json:"parent,omitempty"`
	// Direction, if set, is the group's own flow (Mermaid's direction
	// inside a subgraph).
	Direction Direction `json:"direction,omitempty"`
	Style     Style     `json:"style,omitzero"`
}

// Graph is a whole diagram.
type Graph struct {
	Direction Direction `json:"direction,omitempty"`
	Nodes     []Node    `json:"nodes"`
	Edges     []Edge    `json:"edges,omitempty"`
	Groups    []Group   `json:"groups,omitempty"`
}

// Flow is the graph's direction, top to bottom by default.
func (g *Graph) Flow() Direction {
	if g.Direction == "" {
		return TopToBottom
	}
	return g.Direction
}

// Problem is one thing wrong with a graph: where (a JSON pointer into it)
// and what.
type Problem struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

func (p Problem) Error() string { return p.Pointer + ": " + p.Message }

// Check returns the first problem of g: a node without an id or with one
// used twice, an edge to a node (or group) that does not exist, a group
// that does not exist or contains itself, a shape, line, arrowhead or
// direction that is not one of the above. nil when g is sound.
func (g *Graph) Check() error {
	if !validDirection(g.Direction) {
		return Problem{"/direction", fmt.Sprintf("direction %q is not one of TB, BT, LR, RL", g.Direction)}
	}
	groups := map[string]int{}
	for i, gr := range g.Groups {
		at := fmt.Sprintf("/groups/%d", i)
		if strings.TrimSpace(gr.ID) == "" {
			return Problem{at + "/id", "a group needs an id"}
		}
		if _, dup := groups[gr.ID]; dup {
			return Problem{at + "/id", fmt.Sprintf("group id %q is used twice", gr.ID)}
		}
		if !validDirection(gr.Direction) {
			return Problem{at + "/direction", fmt.Sprintf("direction %q is not one of TB, BT, LR, RL", gr.Direction)}
		}
		groups[gr.ID] = i
	}
	for i, gr := range g.Groups {
		seen := map[string]bool{gr.ID: true}
		for p := gr.Parent; p != ""; p = g.Groups[groups[p]].Parent {
			if _, ok := groups[p]; !ok {
				return Problem{fmt.Sprintf("/groups/%d/parent", i), fmt.Sprintf("there is no group %q", p)}
			}
			if seen[p] {
				return Problem{fmt.Sprintf("/groups/%d/parent", i), fmt.Sprintf("group %q contains itself", gr.ID)}
			}
			seen[p] = true
		}
	}
	nodes := map[string]bool{}
	for i, n := range g.Nodes {
		at := fmt.Sprintf("/nodes/%d", i)
		switch {
		case strings.TrimSpace(n.ID) == "":
			return Problem{at + "/id", "a node needs an id"}
		case nodes[n.ID]:
			return Problem{at + "/id", fmt.Sprintf("node id %q is used twice", n.ID)}
		case n.Shape != "" && !validShape(n.Shape):
			return Problem{at + "/shape", fmt.Sprintf("shape %q is not one of %s", n.Shape, shapeList())}
		}
		if _, ok := groups[n.Group]; n.Group != "" && !ok {
			return Problem{at + "/group", fmt.Sprintf("there is no group %q", n.Group)}
		}
		nodes[n.ID] = true
	}
	for i, e := range g.Edges {
		at := fmt.Sprintf("/edges/%d", i)
		switch {
		case !nodes[e.From] && !isGroup(groups, e.From):
			return Problem{at + "/from", fmt.Sprintf("there is no node or group %q", e.From)}
		case !nodes[e.To] && !isGroup(groups, e.To):
			return Problem{at + "/to", fmt.Sprintf("there is no node or group %q", e.To)}
		case !validLine(e.Line):
			return Problem{at + "/line", fmt.Sprintf("line %q is not one of solid, dashed, thick, invisible", e.Line)}
		case !validHead(e.Start):
			return Problem{at + "/start", fmt.Sprintf("arrowhead %q is not one of %s", e.Start, headList())}
		case !validHead(e.End):
			return Problem{at + "/end", fmt.Sprintf("arrowhead %q is not one of %s", e.End, headList())}
		}
	}
	return nil
}

func isGroup(groups map[string]int, id string) bool {
	_, ok := groups[id]
	return ok
}

func validDirection(d Direction) bool {
	switch d {
	case "", TopToBottom, BottomToTop, LeftToRight, RightToLeft:
		return true
	}
	return false
}

func validShape(s Shape) bool {
	for _, x := range Shapes {
		if s == x {
			return true
		}
	}
	return false
}

func shapeList() string {
	names := make([]string, len(Shapes))
	for i, s := range Shapes {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

func validLine(l Line) bool {
	switch l {
	case "", Solid, Dashed, Thick, Invisible:
		return true
	}
	return false
}

func validHead(h Arrowhead) bool {
	return h == NoHead || slices.Contains(Arrowheads, h)
}

func headList() string {
	names := make([]string, len(Arrowheads))
	for i, h := range Arrowheads {
		names[i] = string(h)
	}
	return strings.Join(names, ", ")
}
