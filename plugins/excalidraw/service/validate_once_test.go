package service

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// onceScene is a scene as an old editor or a careless tool leaves it:
// box "a" lists an arrow that does not exist, box "b" an arrow that does
// not bind it, box "e" itself as its arrow, arrow "ar" binds its end to
// an element that does not exist, no element has "updated" or "seed", and boxes "c" and "d" miss
// lining up by 2 px.
const onceScene = `{"type":"excalidraw","version":2,"elements":[
 {"id":"a","type":"rectangle","x":0,"y":0,"width":100,"height":60,"boundElements":[{"id":"gone","type":"arrow"}]},
 {"id":"b","type":"rectangle","x":300,"y":0,"width":100,"height":60,"boundElements":[{"id":"ar","type":"arrow"}]},
 {"id":"ar","type":"arrow","x":0,"y":200,"width":200,"height":0,"points":[[0,0],[200,0]],"startBinding":null,"endBinding":{"elementId":"nothere","focus":0,"gap":4}},
 {"id":"c","type":"rectangle","x":0,"y":400,"width":100,"height":60},
 {"id":"d","type":"rectangle","x":2,"y":500,"width":100,"height":60},
 {"id":"e","type":"rectangle","x":600,"y":0,"width":100,"height":60,"boundElements":[{"id":"e","type":"arrow"}]}
],"appState":{},"files":{}}`

// validate_scene says each binding fault once: the leftover boundElements
// entries as the lint's one stale_bound_entry (not also the validator's
// dangling_binding or one_sided_binding warning), a binding to nothing as
// the validator's dangling_binding error (not also the lint's); the
// fields no element has once for the scene, with a count; and no near-miss
// hints, since nothing was touched.
func TestValidateSceneSaysEachFaultOnce(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	res, err := s.ValidateScene(ctx, ValidateStoredRequest{Scene: json.RawMessage(onceScene)})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, d := range res.Diagnostics {
		said = append(said, fmt.Sprintf("diagnostic %s %s %s", d.Code, d.Severity, d.Pointer))
	}
	for _, f := range res.Lint {
		said = append(said, fmt.Sprintf("lint %s %v", f.Code, f.IDs))
	}
	all := strings.Join(said, "\n")
	count := func(prefix string) int {
		n := 0
		for _, l := range said {
			if strings.HasPrefix(l, prefix) {
				n++
			}
		}
		return n
	}
	for _, want := range []struct {
		prefix string
		n      int
	}{
		{"lint stale_bound_entry [a b e]", 1}, // one finding for the three entries
		{"lint stale_bound_entry", 1},
		{"diagnostic dangling_binding error /elements/2/endBinding", 1},
		{"diagnostic dangling_binding warning", 0},
		{"diagnostic one_sided_binding", 0},
		{"lint dangling_binding", 0},
		{"lint alignment_near_miss", 0},
		{"diagnostic missing_field warning", 2}, // what no element has; boundElements, which three have not
	} {
		if got := count(want.prefix); got != want.n {
			t.Errorf("%d × %q, want %d; validate_scene said:\n%s", got, want.prefix, want.n, all)
		}
	}
	everywhere := slices.IndexFunc(res.Diagnostics, func(d scene.Diagnostic) bool { return d.Code == scene.CodeMissingField && d.Count == 6 })
	if everywhere < 0 {
		t.Errorf("no missing_field warning counts the 6 elements: %v", res.Diagnostics)
	} else if d := res.Diagnostics[everywhere]; d.Pointer != "/elements/0" || d.ElementID != "a" ||
		!strings.Contains(d.Message, "updated") || !strings.Contains(d.Message, `6 elements ("a", "b", "ar", …)`) {
		t.Errorf("missing everywhere: %+v", d)
	}
	if res.LintCount != len(res.Lint) {
		t.Errorf("lintCount %d, %d listed", res.LintCount, len(res.Lint))
	}

	// Without the lint, the validator's diagnostics are all there.
	bare, err := s.ValidateScene(ctx, ValidateStoredRequest{Scene: json.RawMessage(onceScene), Lint: new(false)})
	if err != nil {
		t.Fatal(err)
	}
	if n := bare.Count(scene.CodeDanglingBinding) + bare.Count(scene.CodeOneSidedBinding); n != 4 {
		t.Errorf("without lint: %d binding diagnostics, want 4: %v", n, bare.Diagnostics)
	}
	// The lint alone has the near miss, and the dangling binding.
	doc, err := scene.Parse([]byte(onceScene), scene.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	fs := lint.Run(doc.Elements(), lint.Options{})
	if len(fs) < len(res.Lint)+2 {
		t.Errorf("lint alone %d findings, validate_scene %d", len(fs), len(res.Lint))
	}
}
