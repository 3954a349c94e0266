package mermaid

import (
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// Kind is the kind of a Mermaid diagram, as its header names it.
type Kind string

// The kinds Read takes.
const (
	Flowchart Kind = "flowchart"
	Class     Kind = "class"
	State     Kind = "state"
	ER        Kind = "er"
	Sequence  Kind = "sequence"
)

// Diagram is Mermaid text read: a graph (flowchart, class, state and ER
// diagrams, laid out in layers) or a sequence diagram.
type Diagram struct {
	Kind     Kind
	Graph    *diagram.Graph    // every kind but Sequence
	Sequence *diagram.Sequence // Sequence only
}

// Read parses Mermaid text of any kind this package takes, chosen by its
// header (after front matter, comments and directives). Any other kind,
// and any syntax it does not take, is an *Error.
func Read(src string) (*Diagram, error) {
	switch kindOf(src) {
	case "classDiagram", "classDiagram-v2":
		g, err := parseClass(src)
		return graphOf(Class, g, err)
	case "stateDiagram", "stateDiagram-v2":
		g, err := parseState(src)
		return graphOf(State, g, err)
	case "erDiagram":
		g, err := parseER(src)
		return graphOf(ER, g, err)
	case "sequenceDiagram":
		s, err := parseSequence(src)
		if err != nil {
			return nil, err
		}
		return &Diagram{Kind: Sequence, Sequence: s}, nil
	}
	g, err := Parse(src)
	return graphOf(Flowchart, g, err)
}

func graphOf(k Kind, g *diagram.Graph, err error) (*Diagram, error) {
	if err != nil {
		return nil, err
	}
	return &Diagram{Kind: k, Graph: g}, nil
}

// kindOf is the first word of src's first statement: what follows front
// matter (--- … ---), blank lines, %% comments and %%{…}%% directives.
// It is only a guess at the kind; the parser of that kind reads the
// header again and reports its mistakes.
func kindOf(src string) string {
	lines := strings.Split(src, "\n")
	i := 0
	if i < len(lines) && strings.TrimSpace(lines[0]) == "---" {
		for i = 1; i < len(lines) && strings.TrimSpace(lines[i]) != "---"; i++ {
		}
		i++
	}
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "%%") {
			continue
		}
		if f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == ';' }); len(f) > 0 {
			return f[0]
		}
	}
	return ""
}
