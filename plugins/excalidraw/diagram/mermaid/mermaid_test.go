package mermaid

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Each flowchart written here parses into the graph it says, and the
// graph passes Check.
func TestFlowcharts(t *testing.T) {
	if len(flowcharts) < 40 {
		t.Fatalf("%d flowcharts, want at least 40", len(flowcharts))
	}
	for _, c := range flowcharts {
		t.Run(c.name, func(t *testing.T) {
			g, err := Parse(c.src)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			if got := summary(g); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// Mistakes, syntax not taken and other kinds of diagram are errors at
// their line and column, saying what was expected.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"a link with no node after it", "flowchart LR\n    A --> --> B\n", "mermaid:2:11: expected a node id, got \"-->\""},
		{"sequence diagrams wait", "sequenceDiagram\n    Alice->>Bob: Hi\n", "mermaid:1:1: sequenceDiagram is not supported yet: only flowcharts (flowchart or graph) are"},
		{"class diagrams wait", "%% a class diagram\nclassDiagram\n    Animal <|-- Duck\n", "mermaid:2:1: classDiagram is not supported yet: only flowcharts (flowchart or graph) are"},
		{"state diagrams wait", "stateDiagram-v2\n    [*] --> Still\n", "mermaid:1:1: stateDiagram-v2 is not supported yet: only flowcharts (flowchart or graph) are"},
		{"ER diagrams wait", "erDiagram\n    CUSTOMER ||--o{ ORDER : places\n", "mermaid:1:1: erDiagram is not supported yet: only flowcharts (flowchart or graph) are"},
		{"no header", "A --> B\n", "mermaid:1:1: expected flowchart or graph, got \"A\""},
		{"nothing at all", "", "mermaid:1:1: expected flowchart or graph, got the end of the text"},
		{"an unknown direction", "graph XY\n    a --> b\n", "mermaid:1:7: expected a direction (TB, TD, BT, LR or RL), got \"XY\""},
		{"an unclosed bracket", "flowchart LR\n    A[text --> B\n", "mermaid:2:17: expected \"]\" to close the label opened at column 6, got the end of the line"},
		{"an unclosed quote", "flowchart LR\n    A[\"text] --> B\n", "mermaid:2:7: expected \" to close this quoted text"},
		{"text after a quoted label", "flowchart LR\n    A[\"text\" more] --> B\n", "mermaid:2:14: expected \"]\" after the label, got \"more\""},
		{"a link's text with no end", "flowchart LR\n    A -- text B\n", "mermaid:2:7: expected \"-->\" or \"---\" to end the link's text on this line"},
		{"end without subgraph", "flowchart LR\n    a --> b\n    end\n", "mermaid:3:5: end without a subgraph to close"},
		{"a subgraph without end", "flowchart LR\n    subgraph one\n        a --> b\n", "mermaid:2:5: subgraph \"one\" has no end: expected end after its body"},
		{"a node named end", "flowchart LR\n    a --> end\n", "mermaid:2:11: expected a node id, got \"end\" (it closes a subgraph; write End or END for a node)"},
		{"two nodes side by side", "flowchart LR\n    A B\n", "mermaid:2:7: expected a link, \"&\", \";\" or a new line, got \"B\""},
		{"an unclosed pipe label", "flowchart LR\n    A -->|text B\n", "mermaid:2:10: expected \"|\" to close the link's label on this line"},
		{"two labels on one link", "flowchart LR\n    A -- one -->|two| B\n", "mermaid:2:17: a link has one label: it has one before the arrow already"},
		{"linkStyle past the last link", "flowchart LR\n    a --> b\n    b --> c\n    linkStyle 0,2 stroke:#f00\n", "mermaid:4:17: linkStyle 2: there is no link 2 (links are numbered 0 to 1)"},
		{"linkStyle with no number", "flowchart LR\n    a --> b\n    linkStyle first stroke:#f00\n", "mermaid:3:15: expected a link's number (from 0) or default, got \"first\""},
		{"classDef without styles", "flowchart LR\n    classDef hot\n", "mermaid:2:17: expected styles such as fill:#f9f,stroke:#333, got the end of the line"},
		{"a style without a property", "flowchart LR\n    a\n    style a fill:#fff, red\n", "mermaid:3:24: expected a style such as fill:#f9f or stroke-width:2px, got \"red\""},
		{"an unknown @{ shape }", "flowchart LR\n    A@{ shape: doc, label: \"Report\" }\n", "mermaid:2:9: shape \"doc\" has no equivalent here; expected one of rect, rounded, stadium, subroutine, cyl, circle, dbl-circ, odd, diam, hex, lean-r, lean-l, trap-b, trap-t"},
		{"an icon", "flowchart LR\n    A@{ icon: \"fa:user\" }\n", "mermaid:2:9: expected shape or label in @{ }, got \"icon\" (icons, images and other properties are not supported)"},
		{"a subgraph id twice", "flowchart LR\n    subgraph a\n    end\n    subgraph a\n    end\n", "mermaid:4:14: subgraph \"a\" is defined twice (first at line 2)"},
		{"a node with a subgraph's id", "flowchart LR\n    s[Box] --> x\n    subgraph s\n        y\n    end\n", "mermaid:2:6: \"s\" is the id of the subgraph at line 3: it cannot be a node with a shape or label too"},
		{"an empty label", "flowchart LR\n    A[] --> B\n", "mermaid:2:6: expected a label between \"[\" and \"]\""},
		{"an unclosed front matter", "---\ntitle: x\nflowchart LR\n", "mermaid:1:1: expected --- to close the front matter"},
		{"columns count characters", "flowchart LR\n    Ünïcödé[\"é\"] --> -->\n", "mermaid:2:22: expected a node id, got \"-->\""},
		{"a bad direction in a subgraph", "flowchart LR\n    subgraph s\n        direction sideways\n    end\n", "mermaid:3:19: expected a direction (TB, TD, BT, LR or RL), got \"sideways\""},
		{"a mismatched bracket", "flowchart LR\n    A(text] --> B\n", "mermaid:2:18: expected \")\" to close the label opened at column 6, got the end of the line"},
		{"an unclosed directive", "%%{init: {}\nflowchart LR\n", "mermaid:1:1: expected }%% to close the directive"},
		{"a subgraph without a title", "flowchart LR\n    subgraph\n    end\n", "mermaid:2:13: expected a subgraph id or title, got the end of the line"},
		{"a single dash", "flowchart LR\n    A - B\n", "mermaid:2:7: expected a link, \"&\", \";\" or a new line, got \"-\""},
		{"a class with no name", "flowchart LR\n    A:::\n", "mermaid:2:9: expected a class name after :::, got the end of the line"},
		{"text after the header", "flowchart LR A --> B\n", "mermaid:1:14: expected \";\" or a new line after the header, got \"A\""},
		{"a link's text with the wrong end", "flowchart LR\n    A -. text --> B\n", "mermaid:2:7: expected \".->\" or \".-\" to end the link's text on this line"},
		{"class without a class name", "flowchart LR\n    class a\n", "mermaid:2:12: expected a class name after the ids, got the end of the line"},
		{"a style for nothing", "flowchart LR\n    style --> b\n", "mermaid:2:11: expected a node or subgraph id, got \"-->\""},
		{"text after end", "flowchart LR\n    subgraph s\n    end s\n", "mermaid:3:9: expected \";\" or a new line after end (a node named end is written End), got \"s\""},
	} {
		_, err := Parse(c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || fmt.Sprintf("mermaid:%d:%d: %s", e.Line, e.Column, e.Message) != c.want {
			t.Errorf("%s: %#v is not the *Error it prints", c.name, err)
		}
	}
}

// Labels: markdown backticks dropped, line breaks, entities, tags.
func TestText(t *testing.T) {
	for raw, want := range map[string]string{
		"  plain  ":                  "plain",
		"`**md** text`":              "**md** text",
		"a<br>b<BR/>c<br />d":        "a\nb\nc\nd",
		`one\ntwo`:                   "one\ntwo",
		"#quot;q#quot; #amp; #35;":   `"q" & #`,
		"&lt;b&gt; &#9829; &#x2665;": "<b> ♥ ♥",
		"#9829; #0; #99999999;":      "♥ #0; #99999999;",
		"<b>bold</b> <em>it</em>":    "bold it",
		"a < b > c":                  "a < b > c",
		"<script>x</script>":         "<script>x</script>",
		"line 1\n    line 2  ":       "line 1\nline 2",
		"#no-end":                    "#no-end",
		"C# & F#;":                   "C# & F#;",
		"fa:fa-twitter for peace":    "for peace",
		"a fab:fa-github b fa:fa-":   "a b fa:fa-",
		"sofa:fa-x and xfa:fa-y":     "sofa:fa-x and xfa:fa-y",
	} {
		if got := text(raw); got != want {
			t.Errorf("text(%q) = %q, want %q", raw, got, want)
		}
	}
}

// A long flowchart parses in one pass: 20,000 nodes in a chain, in
// subgraphs of 100, each node styled.
func TestLong(t *testing.T) {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	const n = 20000
	for i := 0; i < n; i++ {
		if i%100 == 0 {
			fmt.Fprintf(&b, "subgraph g%d [Group %d]\n", i/100, i/100)
		}
		fmt.Fprintf(&b, "n%d[Node %d]:::c --> n%d\n", i, i, i+1)
		if i%100 == 99 {
			b.WriteString("end\n")
		}
	}
	b.WriteString("classDef c fill:#eee\nlinkStyle default stroke:#333\n")
	g, err := Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != n+1 || len(g.Edges) != n || len(g.Groups) != n/100 {
		t.Fatalf("%d nodes, %d edges, %d groups", len(g.Nodes), len(g.Edges), len(g.Groups))
	}
	if g.Nodes[150].Group != "g1" || g.Nodes[150].Style.Fill != "#eee" || g.Edges[7].Style.Stroke != "#333" {
		t.Errorf("node 150 %+v, edge 7 %+v", g.Nodes[150], g.Edges[7])
	}
}

// Parsing is linear: inputs that would make a careless scanner
// quadratic (half a million characters of one kind) parse in far less
// than the minutes that would take.
func TestLinear(t *testing.T) {
	const n = 500000
	for name, src := range map[string]string{
		"hashes in a label":       "flowchart\n A[\"" + strings.Repeat("#", n) + "\"]",
		"ampersands in a label":   "flowchart\n A[\"" + strings.Repeat("&a", n/2) + "\"]",
		"angles in a label":       "flowchart\n A[\"" + strings.Repeat("<", n) + "\"]",
		"dashes in a link's text": "flowchart\n A -- " + strings.Repeat("- ", n/2) + "--> B",
		"dots in a link's text":   "flowchart\n A -. " + strings.Repeat(". ", n/2) + ".-> B",
		"an unclosed label":       "flowchart\n A[" + strings.Repeat("x", n),
		"quotes in a click":       "flowchart\n click A " + strings.Repeat(`"`, n),
		"a long & list":           "flowchart\n A" + strings.Repeat(" & A", n/4),
		"a long chain":            "flowchart\n A" + strings.Repeat(" --> B", n/6),
		"a long invisible link":   "flowchart\n A " + strings.Repeat("~", n) + " B",
		"unclosed quotes":         "flowchart\n A -- \"" + strings.Repeat(`x"`, n/2),
		"nested subgraphs":        nested(n / 20),
	} {
		start := time.Now()
		_, _ = Parse(src)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: %v", name, d)
		}
	}
}

// nested is a flowchart of depth subgraphs, one in the other, with a
// node in the innermost.
func nested(depth int) string {
	var b strings.Builder
	b.WriteString("flowchart\n")
	for i := range depth {
		fmt.Fprintf(&b, "subgraph s%d\n", i)
	}
	b.WriteString("a --> b\n")
	b.WriteString(strings.Repeat("end\n", depth))
	return b.String()
}

func BenchmarkParse(b *testing.B) {
	var src strings.Builder
	for _, c := range flowcharts {
		src.WriteString(c.src)
	}
	var all []string
	for _, c := range flowcharts {
		all = append(all, c.src)
	}
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		for _, s := range all {
			if _, err := Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// FuzzParse: Parse never panics; what it takes passes Check, and what it
// refuses is an *Error at a line and column of the text.
func FuzzParse(f *testing.F) {
	for _, c := range flowcharts {
		f.Add(c.src)
	}
	for _, s := range []string{
		"flowchart LR\n A -- x --> B -. y .-> C == z ==> D ~~~ E",
		"graph TD\n subgraph a [A]\n subgraph b\n x & y --> a\n end\n end\n b --> a",
		"flowchart\n A@{ shape: hex, label: \"x\" } --o B:::c\n classDef c fill:#fff\n linkStyle 0 stroke:red",
		"flowchart LR\n s --> s\n subgraph s\n s\n end",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := Parse(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 || e.Column < 1 || e.Line > strings.Count(src, "\n")+1 {
				t.Fatalf("%q: error %#v", src, err)
			}
			return
		}
		if err := g.Check(); err != nil {
			t.Fatalf("%q: accepted, but Check: %v", src, err)
		}
	})
}
