// Package mermaid parses Mermaid text into the diagram model, in Go and
// without a browser, naming the line and column of anything it does not
// take: flowcharts (Parse) into a diagram.Graph, and through Read, which
// picks the parser by the header, class, state and ER diagrams into a
// Graph too and sequence diagrams into a diagram.Sequence.
//
// What it takes is Mermaid's documented flowchart syntax: the flowchart
// or graph header and its direction, every classic node shape (and the
// @{ shape: … } names that have one of ours), quoted and markdown labels,
// line breaks and entity codes in labels, every link (solid, dotted,
// thick, invisible, with arrow, circle or cross heads at either end, of
// any length, with a label), chains and & lists, subgraphs (nested, with
// their own direction), classDef, class, :::, style and linkStyle. Front
// matter, %% comments and %%{…}%% directives, click, accTitle and
// accDescr lines, and edge ids (A e1@--> B, e1@{ animate: true }) are
// read and dropped. Parsing is linear in the text (an & list on both
// sides of a link makes every pair an edge, as in Mermaid).
//
// Class diagrams (classDiagram, classDiagram-v2) take classes with
// members, generics (~T~, shown <T>), annotations (shown «interface»
// above the name), labels and `names`; every relation, at either end or
// both, with multiplicities and a label; namespaces (groups), notes,
// direction, and styles as in flowcharts (classDef, cssClass, :::,
// style). State diagrams (stateDiagram, stateDiagram-v2) take states,
// names and descriptions, [*], transitions, composite states (groups,
// nested), <<choice>>, <<fork>>, <<join>>, concurrent regions, notes,
// direction and styles (classDef, class, :::, style). ER diagrams
// (erDiagram) take entities, aliases, attributes with keys and comments,
// relationships with marks or words, direction and styles. Sequence
// diagrams (sequenceDiagram) take participants and actors (and their
// other kinds), boxes, messages of every arrow with activation marks,
// activate/deactivate, notes, loop, alt/else, opt, par/and,
// critical/option, break and rect blocks, autonumber, and create and
// destroy (parseSequence says what each becomes). In each,
// front matter, comments, accTitle and accDescr, click (and class
// diagrams' link and callback, state diagrams' hide and scale) are read
// and dropped. What each becomes in the model is written on parseClass,
// parseState and parseER.
//
// Choices where Mermaid's flowchart output has no exact counterpart in
// the model:
//
//   - An edge to or from a subgraph keeps the subgraph's id as its From or
//     To (diagram.Edge allows a group there): it is drawn to the group's
//     border. A node may not have a subgraph's id and its own shape.
//   - A node belongs to the first subgraph to close that mentions it in
//     its own body (not in a nested one), as in Mermaid; a subgraph's
//     parent is the subgraph it is written in.
//   - A subgraph with no id (its title is quoted, or several words) gets
//     the id subGraphN (N counts subgraphs from 0), as in Mermaid.
//   - A link's extra length (---->, -...->, ====>) is read and dropped:
//     the layout ranks nodes itself.
//   - Styles keep fill, stroke, stroke-width, color and stroke-dasharray;
//     other properties are dropped. A dashed linkStyle makes the edge's
//     line dashed. As in Mermaid, class and classDef may come in any
//     order, classDef default styles every node, and style on an id
//     nothing mentions makes a node.
//   - Markdown strings ("`…`") keep their text as written, without the
//     backticks; <br> and \n break lines; #name; and #123; (and the &
//     forms) become their characters; <b>, <i> and similar tags are
//     dropped.
package mermaid

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// Error is a mistake in Mermaid text, or syntax this package does not
// take, at a 1-based line and column (columns count characters).
type Error struct {
	Line    int
	Column  int
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("mermaid:%d:%d: %s", e.Line, e.Column, e.Message)
}

// Parse reads a Mermaid flowchart (flowchart or graph) into a graph that
// passes Check. Other kinds of diagram, and any syntax it does not take,
// are an *Error.
func Parse(src string) (*diagram.Graph, error) {
	return newParser(src).parse()
}

// otherKinds are the headers of Mermaid's other diagrams, refused by name.
var otherKinds = map[string]bool{
	"sequenceDiagram": true, "classDiagram": true, "classDiagram-v2": true,
	"stateDiagram": true, "stateDiagram-v2": true, "erDiagram": true,
	"gantt": true, "pie": true, "journey": true, "gitGraph": true,
	"mindmap": true, "timeline": true, "quadrantChart": true,
	"requirementDiagram": true, "C4Context": true, "C4Container": true,
	"C4Component": true, "C4Dynamic": true, "C4Deployment": true,
	"sankey": true, "sankey-beta": true, "xychart": true, "xychart-beta": true,
	"block": true, "block-beta": true, "packet": true, "packet-beta": true,
	"kanban": true, "architecture": true, "architecture-beta": true,
	"radar": true, "radar-beta": true, "treemap": true, "treemap-beta": true,
	"zenuml": true, "info": true,
}

// position turns a byte offset of src into a 1-based line and column.
func position(src string, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	before := src[:off]
	line = 1 + strings.Count(before, "\n")
	start := strings.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCountInString(before[start:])
}
