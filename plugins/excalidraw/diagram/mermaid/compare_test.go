package mermaid

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// m2eDir is the Node project that bundles @excalidraw/mermaid-to-excalidraw
// (the version its package.json pins) into dist/m2e.js for a page.
const m2eDir = "testdata/m2e"

// m2eKnown are the flowcharts whose structure the library reads otherwise
// than Parse, by case name: why, and the difference itself, as
// compareStructures writes it ("dsh: line" only in ours, "m2e: line" only
// in the library's; "m2e: error …" when it throws, "m2e: image" when it
// returns a picture instead of elements). The test fails when a listed
// difference changes or goes away, and when a case not listed differs.
var m2eKnown = map[string]struct{ reason, diff string }{
	"markdown strings keep their text": {
		"the library takes Markdown's marks out (Excalidraw's text is plain); Parse keeps a markdown string's text as written",
		`dsh: node markdown "This **is** _Markdown_"
m2e: node markdown "This is Markdown"`},
	"entity codes": {
		"Parse's choice, not Mermaid's: Mermaid (and the library) make #name; &name;, " +
			"so what HTML does not know stays as it is (&x2665;, &unknown;); Parse reads #x2665; as hex and keeps #unknown;",
		`dsh: node C "<tag> & # ♥ #unknown; # alone"
m2e: node C "<tag> & # &x2665; &unknown; # alone"`},
	"every line": {
		"the library makes no arrow of an invisible link (~~~): Pele leaves it out of the drawing the library reads",
		`dsh: edge m -> n`},
	"longer links": {
		"the library makes no arrow of an invisible link (~~~~~)",
		`dsh: edge i -> j`},
	"labels on links": {
		"the library makes no arrow of an invisible link (~~~|hidden|), label and all",
		`dsh: edge s -> t "hidden"`},
	"style on nodes and subgraphs": {
		"the library (Pele, on Mermaid's grammar) takes no parentheses in a style's values (stroke:rgb(10,20,30)), and throws",
		`m2e: error Parse error on line 8: Expecting 'SEMI', 'NEWLINE', 'EOF', got 'PS'`},
	"comments and directives": {
		"the library, as Mermaid, takes %% comments on lines of their own only (not after a statement), and throws",
		`m2e: error Parse error on line 5: Expecting 'SEMI', 'NEWLINE', 'EOF', got 'NODE_STRING'`},
	"@{ shape } names": {
		"the library, as Mermaid's grammar, takes ::: before @{ … } only, not after (E@{ shape: stadium }:::x), and throws",
		`m2e: error Parse error on line 5: Expecting 'SEMI', 'NEWLINE', 'EOF', got 'STYLE_SEPARATOR'`},
	"Font Awesome icons are dropped, animated edges are plain": {
		"D(fa:fa-spinner) is an icon alone: the library keeps its label, empty; Parse drops the icon and the node has no label, so its id shows",
		`dsh: node D "D"
m2e: node D ""`},
	"spaces before the shape": {
		"the library, as Mermaid, takes no space between a node's id and its shape (a [Spaced]), and throws; Parse takes it",
		`m2e: error Parse error on line 2: Expecting 'SEMI', 'NEWLINE', 'EOF', got 'SQS'`},
}

// TestAgainstMermaidToExcalidraw compares, for every flowchart of
// cases_test.go, what Parse reads with what the official
// @excalidraw/mermaid-to-excalidraw makes of it in headless Chromium
// (parseMermaidToExcalidraw's skeleton elements): the nodes and their
// labels, the edges with theirs (a multiset of from → to), and which
// subgraph holds each node and subgraph, with the subgraphs' titles.
// Labels are compared with runs of white space (line breaks too) as one
// space. The library's elements carry no membership, so a node or
// subgraph is in the smallest subgraph whose box holds its box. The
// library's 3.x releases parse and lay Mermaid out with Pele (its own
// dependency, which the lock file pins), not with the mermaid package.
// One browser, one page, every source in one call: about 2 s.
func TestAgainstMermaidToExcalidraw(t *testing.T) {
	start := time.Now()
	bundle, version := requireM2E(t)
	ctx := testenv.Browser(t)

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html><head><meta charset="utf-8"><script src="/m2e.js"></script></head><body></body></html>`)
		case "/m2e.js":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			http.ServeFile(w, r, bundle)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	srcs := make([]string, len(flowcharts))
	for i, c := range flowcharts {
		srcs[i] = c.src
	}
	arg, err := json.Marshal(srcs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	pageVersion, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.m2eVersion`))
	if err != nil {
		t.Fatalf("the bundle did not load: %v", err)
	}
	results, err := chromedp.Run(ctx, chromedp.Evaluate[[]m2eResult](`window.m2e(`+string(arg)+`)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("running parseMermaidToExcalidraw in Chromium: %v", err)
	}
	if pageVersion != version {
		testenv.Missing(t, fmt.Sprintf("%s/dist/m2e.js bundles @excalidraw/mermaid-to-excalidraw %s, package.json pins %s: run make node-deps", m2eDir, pageVersion, version))
	}
	if len(results) != len(flowcharts) {
		t.Fatalf("%d results for %d flowcharts", len(results), len(flowcharts))
	}

	names := map[string]bool{}
	equal, known := 0, 0
	for i, c := range flowcharts {
		names[c.name] = true
		g, err := Parse(c.src)
		if err != nil {
			t.Errorf("%s: Parse: %v", c.name, err)
			continue
		}
		diff := compareStructures(dshStructure(g), results[i])
		k, listed := m2eKnown[c.name]
		switch {
		case diff == "" && listed:
			t.Errorf("%s: listed in m2eKnown (%s), but the library now reads it as Parse does: take it out of the table", c.name, k.reason)
		case diff == "":
			equal++
		case !listed:
			t.Errorf("%s: the library reads it otherwise (fix Parse, or list it in m2eKnown with the reason):\n%s", c.name, diff)
		case diff != k.diff:
			t.Errorf("%s: the known difference (%s) changed: update m2eKnown\ngot:\n%s\nlisted:\n%s", c.name, k.reason, diff, k.diff)
		default:
			known++
		}
	}
	for name := range m2eKnown {
		if !names[name] {
			t.Errorf("m2eKnown lists %q, which is no flowchart of cases_test.go", name)
		}
	}
	t.Logf("against @excalidraw/mermaid-to-excalidraw %s in Chromium: %d flowcharts compared, %d equal, %d known differences (%.1fs)",
		version, len(flowcharts), equal, known, time.Since(start).Seconds())
}

// requireM2E returns the bundle's path and the library version package.json
// pins; without the installed packages or the bundle the test ends
// (testenv.Missing: it fails under make test and CI).
func requireM2E(t *testing.T) (bundle, version string) {
	t.Helper()
	how := "run make node-deps (or, in " + m2eDir + ": npm ci && npm run build)"
	b, err := os.ReadFile(filepath.Join(m2eDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	version = pkg.Dependencies["@excalidraw/mermaid-to-excalidraw"]
	if version == "" {
		t.Fatalf("%s/package.json pins no @excalidraw/mermaid-to-excalidraw", m2eDir)
	}
	if _, err := os.Stat(filepath.Join(m2eDir, "node_modules", "@excalidraw", "mermaid-to-excalidraw", "package.json")); err != nil {
		testenv.Missing(t, "@excalidraw/mermaid-to-excalidraw is not installed in "+m2eDir+": "+how)
	}
	bundle = filepath.Join(m2eDir, "dist", "m2e.js")
	bi, err := os.Stat(bundle)
	if err != nil {
		testenv.Missing(t, bundle+" is not built: "+how)
	}
	for _, src := range []string{"entry.js", "build.mjs"} {
		si, err := os.Stat(filepath.Join(m2eDir, src))
		if err != nil {
			t.Fatal(err)
		}
		if si.ModTime().After(bi.ModTime()) {
			testenv.Missing(t, bundle+" is older than "+src+": "+how)
		}
	}
	return bundle, version
}

// m2eResult is what the page returns for a source: the skeleton elements,
// slimmed (entry.js), or the error parseMermaidToExcalidraw threw, and
// what it logged with console.error meanwhile.
type m2eResult struct {
	Elements []m2eElement `json:"elements"`
	Files    int          `json:"files"`
	Error    *string      `json:"error"`
	Logged   []string     `json:"logged"`
}

type m2eElement struct {
	Type     string   `json:"type"`
	ID       string   `json:"id"`
	Label    *string  `json:"label"`
	Start    string   `json:"start"`
	End      string   `json:"end"`
	GroupIDs []string `json:"groupIds"`
	X        float64  `json:"x"`
	Y        float64  `json:"y"`
	Width    float64  `json:"width"`
	Height   float64  `json:"height"`
}

// normLabel is a label as compared: runs of white space, line breaks
// among them, are one space, none at the ends.
func normLabel(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// dshStructure writes what Parse read as sorted lines:
//
//	node id "label" in group
//	edge from -> to "label"
//	group id "title" in parent
//
// A node without a label shows its id, and a subgraph without a title
// its id, as Mermaid draws them.
func dshStructure(g *diagram.Graph) []string {
	var lines []string
	for _, n := range g.Nodes {
		label := n.Label
		if label == "" {
			label = n.ID
		}
		lines = append(lines, structLine("node", n.ID, label, n.Group))
	}
	for _, gr := range g.Groups {
		label := gr.Label
		if label == "" {
			label = gr.ID
		}
		lines = append(lines, structLine("group", gr.ID, label, gr.Parent))
	}
	for _, e := range g.Edges {
		lines = append(lines, edgeLine(e.From, e.To, e.Label))
	}
	slices.Sort(lines)
	return lines
}

func structLine(kind, id, label, in string) string {
	s := fmt.Sprintf("%s %s %q", kind, id, normLabel(label))
	if in != "" {
		s += " in " + in
	}
	return s
}

func edgeLine(from, to, label string) string {
	s := fmt.Sprintf("edge %s -> %s", from, to)
	if l := normLabel(label); l != "" {
		s += fmt.Sprintf(" %q", l)
	}
	return s
}

// m2eStructure reads the library's skeleton elements into the lines
// dshStructure writes. Its flowchart converter emits: a rectangle with
// the subgraph's id and no label for each subgraph, and a rectangle
// id__title holding its title; a shape with the node's id and its label
// for each node (a double circle is an outer ellipse with the id and an
// inner one with the label, grouped as doublecircle_id}); an arrow with
// start and end ids and its label for each edge.
func m2eStructure(els []m2eElement) []string {
	type box struct {
		id, label  string
		x, y, w, h float64
		group      bool
	}
	var boxes []*box
	byID := map[string]*box{}
	titles := map[string]string{}
	var lines []string
	for _, el := range els {
		label := ""
		if el.Label != nil {
			label = *el.Label
		}
		switch {
		case el.Type == "arrow":
			lines = append(lines, edgeLine(el.Start, el.End, label))
		case el.Type == "line" || el.Type == "text":
			// swimlane headers' lines; nothing of the structure
		case strings.HasSuffix(el.ID, "__title") && el.Label != nil:
			titles[strings.TrimSuffix(el.ID, "__title")] = label
		case el.ID == "" && el.Label != nil && doubleCircle(el.GroupIDs) != "":
			if b := byID[doubleCircle(el.GroupIDs)]; b != nil {
				b.label = label
			}
		case el.ID != "":
			b := &box{id: el.ID, label: label, x: el.X, y: el.Y, w: el.Width, h: el.Height,
				group: el.Type == "rectangle" && el.Label == nil}
			boxes = append(boxes, b)
			byID[el.ID] = b
		}
	}
	// in: the smallest subgraph's box (not b's own) that holds b's box
	const slack = 0.5
	in := func(b *box) string {
		best, area := "", math.Inf(1)
		for _, g := range boxes {
			if !g.group || g == b {
				continue
			}
			if b.x >= g.x-slack && b.y >= g.y-slack && b.x+b.w <= g.x+g.w+slack && b.y+b.h <= g.y+g.h+slack && g.w*g.h < area {
				best, area = g.id, g.w*g.h
			}
		}
		return best
	}
	for _, b := range boxes {
		if b.group {
			title := titles[b.id]
			lines = append(lines, structLine("group", b.id, title, in(b)))
		} else {
			lines = append(lines, structLine("node", b.id, b.label, in(b)))
		}
	}
	slices.Sort(lines)
	return lines
}

// doubleCircle is the node id of a double circle's group, or "".
func doubleCircle(groupIDs []string) string {
	for _, g := range groupIDs {
		if id, ok := strings.CutPrefix(g, "doublecircle_"); ok {
			return strings.TrimSuffix(id, "}")
		}
	}
	return ""
}

// compareStructures is "" when the library read the source as ours says,
// else the difference: "dsh: line" for each line only ours has and
// "m2e: line" for each only the library's has (as multisets), or one
// line for an error or an image.
func compareStructures(ours []string, r m2eResult) string {
	if r.Error != nil {
		// a parse error's first line and its last (what was expected),
		// without the excerpt and caret between
		lines := strings.Split(strings.TrimSpace(*r.Error), "\n")
		msg := lines[0]
		if len(lines) > 1 {
			msg += " " + strings.TrimSpace(lines[len(lines)-1])
		}
		return "m2e: error " + msg
	}
	for _, el := range r.Elements {
		if el.Type == "image" {
			// the library draws what it cannot convert as a picture, and
			// logs why
			if len(r.Logged) > 0 {
				return "m2e: image (" + r.Logged[0] + ")"
			}
			return "m2e: image"
		}
	}
	theirs := m2eStructure(r.Elements)
	count := map[string]int{}
	for _, l := range ours {
		count[l]++
	}
	for _, l := range theirs {
		count[l]--
	}
	var diff []string
	for _, l := range ours {
		if count[l] > 0 {
			diff = append(diff, "dsh: "+l)
			count[l]--
		}
	}
	for _, l := range theirs {
		if count[l] < 0 {
			diff = append(diff, "m2e: "+l)
			count[l]++
		}
	}
	return strings.Join(diff, "\n")
}
