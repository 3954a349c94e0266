package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestCorpus runs every rule over the test corpus (the generated one, or
// real drawings with DSH_CORPUS): no panics, and structural errors are
// rare (Excalidraw writes consistent files). It logs a histogram of codes.
func TestCorpus(t *testing.T) {
	files := testcorpus.Files(t)
	hist := map[string]int{}
	perFile := map[string]map[string]bool{}
	perScene := map[string]map[string]int{} // parsed scene → code → findings
	elements, structural := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := model.Parse(data, model.DefaultLimits())
		if err != nil {
			t.Logf("%s: not parsed: %v", filepath.Base(path), err)
			continue
		}
		bg, _ := doc.AppState().String("viewBackgroundColor")
		var fs []Finding
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", filepath.Base(path), r)
				}
			}()
			fs = Run(doc.Elements(), Options{ViewBackgroundColor: bg})
		}()
		again := Run(doc.Elements(), Options{ViewBackgroundColor: bg})
		if fmt.Sprint(again) != fmt.Sprint(fs) {
			t.Errorf("%s: two runs differ", filepath.Base(path))
		}
		var ids []string
		for _, el := range doc.Elements() {
			if d, _ := el.Bool("isDeleted"); !d {
				elements++
				id, _ := el.String("id")
				ids = append(ids, id)
			}
		}
		// A scoped run finds exactly the full run's findings that involve
		// the scope, for touched sets sampled across the drawing.
		for k := 0; k < len(ids); k += max(1, len(ids)/5) {
			scope := Neighbours(doc.Elements(), ids[k:min(k+2, len(ids))])
			got := Run(doc.Elements(), Options{ViewBackgroundColor: bg, Scope: scope})
			if d := sameScoped(fs, got, scope); d != "" {
				t.Errorf("%s: scoped run of %v differs: %s", filepath.Base(path), ids[k:min(k+2, len(ids))], d)
			}
		}
		perScene[filepath.Base(path)] = map[string]int{}
		for _, f := range fs {
			perScene[filepath.Base(path)][f.Code]++
			hist[f.Code]++
			if perFile[f.Code] == nil {
				perFile[f.Code] = map[string]bool{}
			}
			perFile[f.Code][filepath.Base(path)] = true
			if f.Severity == Error {
				structural++
				if testing.Verbose() {
					t.Logf("%s: %s %s", filepath.Base(path), f.Code, f.Message)
				}
			}
		}
	}
	codes := make([]string, 0, len(hist))
	for c := range hist {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var b strings.Builder
	fmt.Fprintf(&b, "%d files, %d live elements; per scene, the median and the most findings of each code\n", len(files), elements)
	for _, c := range codes {
		counts := make([]int, 0, len(perScene))
		worst := ""
		for _, n := range perScene {
			counts = append(counts, n[c])
		}
		sort.Ints(counts)
		for name, n := range perScene {
			if n[c] == counts[len(counts)-1] && (worst == "" || name < worst) {
				worst = name
			}
		}
		fmt.Fprintf(&b, "  %-24s %6d in %2d files; median %d, most %d (%s)\n", c, hist[c], len(perFile[c]),
			counts[len(counts)/2], counts[len(counts)-1], worst)
	}
	t.Log("\n" + b.String())
	if elements > 0 && structural*100 > elements {
		t.Errorf("%d structural errors over %d elements: more than 1%%", structural, elements)
	}
}
