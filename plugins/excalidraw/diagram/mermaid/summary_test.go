package mermaid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// summary writes a graph one line a thing, for tests to compare:
//
//	dir LR
//	group id "label" in parent dir TB {style}
//	node id shape "label" role R in group {style}
//	  field "text"
//	edge from -> to line start>end "label" ends "start"/"end" {style}
//
// Empty parts are left out (a flowchart has no roles, fields or end
// labels); a head is "-" when there is none.
func summary(g *diagram.Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dir %s\n", g.Direction)
	for _, gr := range g.Groups {
		fmt.Fprintf(&b, "group %s %q", gr.ID, gr.Label)
		if gr.Parent != "" {
			fmt.Fprintf(&b, " in %s", gr.Parent)
		}
		if gr.Direction != "" {
			fmt.Fprintf(&b, " dir %s", gr.Direction)
		}
		b.WriteString(styleSummary(gr.Style))
		b.WriteByte('\n')
	}
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "node %s %s", n.ID, n.Shape)
		if n.Label != "" {
			fmt.Fprintf(&b, " %q", n.Label)
		}
		if n.Role != "" {
			fmt.Fprintf(&b, " role %s", n.Role)
		}
		if n.Group != "" {
			fmt.Fprintf(&b, " in %s", n.Group)
		}
		b.WriteString(styleSummary(n.Style))
		b.WriteByte('\n')
		for _, f := range n.Fields {
			fmt.Fprintf(&b, "  field %q\n", f)
		}
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "edge %s -> %s %s %s/%s", e.From, e.To, e.Line, head(e.Start), head(e.Head()))
		if e.Label != "" {
			fmt.Fprintf(&b, " %q", e.Label)
		}
		if e.StartLabel != "" || e.EndLabel != "" {
			fmt.Fprintf(&b, " ends %q/%q", e.StartLabel, e.EndLabel)
		}
		b.WriteString(styleSummary(e.Style))
		b.WriteByte('\n')
	}
	return b.String()
}

func head(h diagram.Arrowhead) string {
	if h == diagram.NoHead {
		return "-"
	}
	return string(h)
}

func styleSummary(s diagram.Style) string {
	if s.IsZero() {
		return ""
	}
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("fill", s.Fill)
	add("stroke", s.Stroke)
	add("text", s.Text)
	if s.StrokeWidth != 0 {
		add("width", strconv.FormatFloat(s.StrokeWidth, 'g', -1, 64))
	}
	if s.Dashed {
		parts = append(parts, "dashed")
	}
	return " {" + strings.Join(parts, " ") + "}"
}
