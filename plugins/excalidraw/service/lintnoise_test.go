package service

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// noiseScene is one drawing TestLintNoiseCorpus measures.
type noiseScene struct {
	group, name string
	data        []byte
}

// noiseTally is what the lint and the validator say over a group of
// drawings: per scene, and per write.
type noiseTally struct {
	scenes, writes int
	lint           []int          // validate_scene's lint findings, per scene
	diags          []int          // validate_scene's diagnostics, per scene
	worstLint      string         // the scene with the most lint findings
	lintBy         map[string]int // lint findings by code
	diagBy         map[string]int // diagnostics by code
	writeNew       []int          // findings a write reports as new, per write
	writePersist   []int          // findings a write counts as persisting, per write
	writeBy        map[string]int // new and persisting findings of writes, by code
	twice          int            // binding faults a report lists in both diagnostics and lint
	sample         []noiseFinding // every finding, for the sample to check by eye
}

// noiseFinding is one finding of validate_scene, named by its scene.
type noiseFinding struct {
	scene string
	f     lint.Finding
}

// TestLintNoiseCorpus measures how much validate_scene and a write's lint
// say about drawings: people's (the shared corpus, DSH_CORPUS) and the
// project's (the generated corpus and create_diagram's drawings). It
// logs, per group, the findings and diagnostics per scene (median and
// most), by code; and, for writes that move one shape of a drawing, what
// the envelope reports as new and persisting. With
// DSH_LINT_NOISE_SAMPLE=n it also logs n findings picked evenly from
// the people's drawings (the generated ones without DSH_CORPUS), to be
// checked by eye.
//
//	DSH_CORPUS=/work/shared/corpus go test ./plugins/excalidraw/service -run TestLintNoiseCorpus -count=1 -v
func TestLintNoiseCorpus(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	var scenes []noiseScene
	add := func(group string, files []string) {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			scenes = append(scenes, noiseScene{group, filepath.Base(f), data})
		}
	}
	if testcorpus.Shared() != "" {
		add("people's", testcorpus.Files(t))
	}
	generated, err := filepath.Glob(filepath.Join(testcorpus.Generated(t), "*.excalidraw"))
	if err != nil {
		t.Fatal(err)
	}
	add("generated", generated)
	for i, g := range noiseGraphs() {
		name := fmt.Sprintf("noise-diagram-%d", i)
		if _, err := s.Create(ctx, CreateRequest{Name: name}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Edit(ctx, WriteRequest{Name: name}, CreateDiagram{Direction: g.Direction, Nodes: g.Nodes, Edges: g.Edges, Groups: g.Groups, At: &engine.Point{}}); err != nil {
			t.Fatal(err)
		}
		data := fileBytes(t, dir, name)
		scenes = append(scenes, noiseScene{"generated", name + " (create_diagram)", data})
	}

	tallies := map[string]*noiseTally{}
	var groups []string
	for _, sc := range scenes {
		tl := tallies[sc.group]
		if tl == nil {
			tl = &noiseTally{lintBy: map[string]int{}, diagBy: map[string]int{}, writeBy: map[string]int{}}
			tallies[sc.group] = tl
			groups = append(groups, sc.group)
		}
		tl.measure(t, s, sc)
	}
	var b strings.Builder
	for _, g := range groups {
		tallies[g].print(&b, g)
	}
	t.Log("\n" + b.String())
	if n, _ := strconv.Atoi(os.Getenv("DSH_LINT_NOISE_SAMPLE")); n > 0 {
		tl := tallies[groups[0]]
		var sb strings.Builder
		fmt.Fprintf(&sb, "%d findings of %d, evenly picked from the %s drawings:\n", min(n, len(tl.sample)), len(tl.sample), groups[0])
		for k := range min(n, len(tl.sample)) {
			f := tl.sample[k*len(tl.sample)/min(n, len(tl.sample))]
			fmt.Fprintf(&sb, "  %s  %s %v\n      %s\n", f.scene, f.f.Code, f.f.IDs, f.f.Message)
		}
		t.Log("\n" + sb.String())
	}
}

// noiseGraphs are the diagrams TestLintNoiseCorpus has create_diagram
// draw: small and middling, plain and grouped, in each direction.
func noiseGraphs() []*diagram.Graph {
	var out []*diagram.Graph
	for i, n := range []int{8, 15, 30, 60} {
		g := benchGraph(n, i%2 == 1)
		g.Direction = []diagram.Direction{diagram.LeftToRight, diagram.TopToBottom}[i%2]
		out = append(out, g)
	}
	return out
}

// measure validates and lints one drawing as validate_scene does, and
// lints writes that each move one of its shapes 20 px down, as a write's
// envelope does.
func (tl *noiseTally) measure(t *testing.T, s *Service, sc noiseScene) {
	res, err := s.ValidateScene(ctx, ValidateStoredRequest{Scene: sc.data, Lint: new(false)})
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	doc, err := scene.Parse(sc.data, scene.DefaultLimits())
	if err != nil {
		t.Logf("%s: not parsed: %v", sc.name, err)
		return
	}
	tl.scenes++
	fs := onceEach(doc, &res.Report, lintScene(doc)) // as validate_scene lints
	tl.lint = append(tl.lint, len(fs))
	if len(fs) > 0 && len(fs) >= slices.Max(tl.lint) {
		tl.worstLint = sc.name
	}
	tl.diags = append(tl.diags, len(res.Diagnostics)+res.Omitted)
	for _, f := range fs {
		tl.lintBy[f.Code]++
		tl.sample = append(tl.sample, noiseFinding{sc.name, f})
	}
	for _, d := range res.Diagnostics {
		tl.diagBy[d.Code]++
	}
	tl.twice += twiceReported(res.Diagnostics, fs)
	checkQuiet(t, sc.name, doc, res.Diagnostics, fs)

	// Writes: up to five shapes, picked evenly, each moved 20 px down.
	els := doc.Elements()
	var shapes []int
	for i, e := range els {
		typ, _ := e.String("type")
		if !scene.IsDeleted(e) && (typ == "rectangle" || typ == "ellipse" || typ == "diamond") {
			shapes = append(shapes, i)
		}
	}
	bg := ""
	if a := doc.AppState(); a != nil {
		bg, _ = a.String("viewBackgroundColor")
	}
	for k := range min(5, len(shapes)) {
		i := shapes[k*len(shapes)/min(5, len(shapes))]
		after := slices.Clone(els)
		moved := els[i].Clone()
		y, _ := moved.Number("y")
		moved.Set("y", y+20)
		after[i] = moved
		id, _ := moved.String("id")
		added, _, persisting := lint.Delta(els, after, []string{id}, lint.DeltaOptions{BackgroundBefore: bg, BackgroundAfter: bg})
		tl.writes++
		tl.writeNew = append(tl.writeNew, len(added))
		tl.writePersist = append(tl.writePersist, len(persisting))
		for _, f := range append(added, persisting...) {
			tl.writeBy[f.Code]++
		}
	}
}

// bindingCodes are the codes, of the validator and of lint, about
// bindings and the lists that record them.
var bindingCodes = map[string]bool{scene.CodeDanglingBinding: true, scene.CodeOneSidedBinding: true,
	scene.CodeDanglingFrame: true, scene.CodeInvalidContainer: true, lint.CodeStaleBoundEntry: true}

// twiceReported counts the lint findings about bindings whose elements a
// binding diagnostic of the same report names too: one fault said twice.
func twiceReported(diags []scene.Diagnostic, fs []lint.Finding) int {
	named := map[string]bool{}
	for _, d := range diags {
		if bindingCodes[d.Code] && d.ElementID != "" {
			named[d.ElementID] = true
		}
	}
	n := 0
	for _, f := range fs {
		if bindingCodes[f.Code] && slices.ContainsFunc(f.IDs, func(id string) bool { return named[id] }) {
			n++
		}
	}
	return n
}

// checkQuiet checks what validate_scene says of a drawing against the
// rules that keep it quiet: no near misses (nothing was touched),
// each binding fault once, the leftover boundElements entries in one
// finding, each defaulted field in one missing_field warning.
func checkQuiet(t *testing.T, name string, doc *scene.Document, diags []scene.Diagnostic, fs []lint.Finding) {
	t.Helper()
	linted := map[string]bool{}
	stale := 0
	for _, f := range fs {
		if f.Code == lint.CodeStaleBoundEntry {
			stale++
		}
		if f.Code == lint.CodeAlignmentNearMiss || f.Code == lint.CodeUnboundArrowEnd {
			t.Errorf("%s: validate_scene has a near miss: %s", name, f.Message)
		}
		if k := findingFault(f); k != "" {
			linted[k] = true
		}
	}
	if stale > 1 {
		t.Errorf("%s: %d stale_bound_entry findings, want one for the scene", name, stale)
	}
	fields := map[string]bool{}
	for _, d := range diags {
		if k := diagnosticFault(doc, d); k != "" && (linted[k] || stale > 0 && strings.HasPrefix(k, faultEntry+"|")) {
			t.Errorf("%s: said twice: diagnostic %s and a lint finding", name, d)
		}
		if d.Code != scene.CodeMissingField || d.Severity != scene.SeverityWarning {
			continue
		}
		names, _, _ := strings.Cut(d.Message, " absent or null")
		for _, f := range strings.Split(strings.TrimSuffix(strings.TrimSuffix(names, " is"), " are"), ", ") {
			if fields[f] {
				t.Errorf("%s: field %s in two missing_field warnings", name, f)
			}
			fields[f] = true
		}
	}
}

// print writes a group's figures.
func (tl *noiseTally) print(b *strings.Builder, group string) {
	fmt.Fprintf(b, "%s drawings: %d scenes\n", group, tl.scenes)
	fmt.Fprintf(b, "  validate_scene lint findings per scene: median %s, most %d (%s); %d in all\n",
		median(tl.lint), maxOf(tl.lint), tl.worstLint, sum(tl.lint))
	fmt.Fprintf(b, "  validate_scene diagnostics per scene: median %s, most %d; %d in all\n", median(tl.diags), maxOf(tl.diags), sum(tl.diags))
	fmt.Fprintf(b, "  binding faults in both diagnostics and lint: %d\n", tl.twice)
	byCode(b, "  lint by code", tl.lintBy)
	byCode(b, "  diagnostics by code", tl.diagBy)
	fmt.Fprintf(b, "  %d writes moving one shape 20 px: new findings per write median %s, most %d; persisting median %s, most %d\n",
		tl.writes, median(tl.writeNew), maxOf(tl.writeNew), median(tl.writePersist), maxOf(tl.writePersist))
	byCode(b, "  writes' new and persisting findings by code", tl.writeBy)
}

// byCode writes counts by code, the most first.
func byCode(b *strings.Builder, title string, n map[string]int) {
	codes := make([]string, 0, len(n))
	for c := range n {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(x, y string) int { return cmp.Or(n[y]-n[x], strings.Compare(x, y)) })
	fmt.Fprintf(b, "%s:", title)
	for _, c := range codes {
		fmt.Fprintf(b, " %s %d,", c, n[c])
	}
	b.WriteString("\n")
}

func median(xs []int) string {
	if len(xs) == 0 {
		return "-"
	}
	c := slices.Clone(xs)
	slices.Sort(c)
	if len(c)%2 == 1 {
		return strconv.Itoa(c[len(c)/2])
	}
	return strconv.FormatFloat(float64(c[len(c)/2-1]+c[len(c)/2])/2, 'f', -1, 64)
}

func maxOf(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
