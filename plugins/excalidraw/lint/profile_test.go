package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// qaProfile is the profile the visual-qa tests check against.
var qaProfile = profile.Profile{
	TypeScale: map[string]float64{"title": 32, "heading": 24, "body": 16, "caption": 12},
	Roles: map[string]profile.Role{
		"database": {Fill: "#b2f2bb", Stroke: "#1e1e1e", Meaning: "stores data"},
		"external": {Fill: "#ffec99", Meaning: "outside our control"},
	},
	Strokes: map[string]string{"dashed": "async call"},
}

// dsh is a planner's tag as customData.
func dsh(kind, id, slot string, more ...any) kv {
	t := kv{"kind": kind, "id": id, "slot": slot}
	for i := 0; i+1 < len(more); i += 2 {
		t[more[i].(string)] = more[i+1]
	}
	return kv{"customData": kv{"dsh": t}}
}

func size(s float64) kv { return kv{"fontSize": s} }

// withCode are the findings of code, each as its sorted ids joined.
func withCode(fs []Finding, code string) []string {
	var out []string
	for _, f := range fs {
		if f.Code == code {
			out = append(out, strings.Join(f.IDs, ","))
		}
	}
	return out
}

func TestVisualQAFontSizeOffProfile(t *testing.T) {
	els := []*ojson.Object{text("on", 0, 0, "Body", size(16)), text("off", 0, 40, "Odd", size(15)), text("big", 0, 80, "Big", size(30))}
	fs := VisualQA(els, qaProfile)
	if got := withCode(fs, CodeFontSizeOffProfile); !slices.Equal(got, []string{"big", "off"}) {
		t.Fatalf("findings %v, want big and off", fs)
	}
	for _, f := range fs {
		want := map[string]float64{"off": 16, "big": 32}[f.IDs[0]]
		if f.Suggestion["value"] != want || f.Suggestion["field"] != "fontSize" {
			t.Errorf("%s: suggestion %v, want fontSize %v", f.IDs[0], f.Suggestion, want)
		}
	}
	if fs := VisualQA(els, profile.Profile{Spacing: 10}); len(fs) != 0 {
		t.Errorf("a profile without a type scale found %v", fs)
	}
}

func TestVisualQATypeScaleViolation(t *testing.T) {
	els := []*ojson.Object{
		text("c1", 0, 0, "a", size(16), dsh("table", "tbl_1", "cell")),
		text("c2", 0, 30, "b", size(16), dsh("table", "tbl_1", "cell")),
		text("c3", 0, 60, "c", size(12), dsh("table", "tbl_1", "cell")),
		text("l1", 200, 0, "x", size(16), dsh("legend", "lgd_1", "label")),
		text("l2", 200, 30, "y", size(16), dsh("legend", "lgd_1", "label")),
	}
	// A diagram's node labels: sizes of the bound texts.
	n1 := rectangle("n1", 400, 0, 100, 60, kv{"customData": kv{"dshDiagram": kv{"diagram": "dgA", "kind": "node", "key": "a"}}})
	n2 := rectangle("n2", 400, 100, 100, 60, kv{"customData": kv{"dshDiagram": kv{"diagram": "dgA", "kind": "node", "key": "b"}}})
	els = append(els, n1, label(n1, "n1t", "A", size(16)), n2, label(n2, "n2t", "B", size(24)))
	fs := VisualQA(els, qaProfile)
	got := withCode(fs, CodeTypeScaleViolation)
	if !slices.Equal(got, []string{"c3", "n1t"}) && !slices.Equal(got, []string{"c3", "n2t"}) {
		t.Fatalf("type_scale_violation %v, want the table's odd cell and one of the diagram's labels", got)
	}
	for _, f := range fs {
		if f.Code == CodeTypeScaleViolation && f.IDs[0] == "c3" && f.Suggestion["value"] != 16.0 {
			t.Errorf("suggestion %v, want the most common 16", f.Suggestion)
		}
	}
}

func TestVisualQAHierarchyInverted(t *testing.T) {
	els := []*ojson.Object{
		// A table whose header is smaller than its body; another whose is not.
		text("h1", 0, 0, "Name", size(12), dsh("table", "tbl_1", "header")),
		text("b1", 0, 30, "Ann", size(16), dsh("table", "tbl_1", "cell")),
		text("h2", 300, 0, "Name", size(24), dsh("table", "tbl_2", "header")),
		text("b2", 300, 30, "Ann", size(16), dsh("table", "tbl_2", "cell")),
		// A frame whose topmost text is smaller than another text in it.
		shape("frame", "f1", 0, 200, 400, 300, kv{"name": "Slide"}),
		text("ft", 20, 220, "Title", size(16), kv{"frameId": "f1"}),
		text("fb", 20, 300, "Body text", size(24), kv{"frameId": "f1"}),
		// A legend whose title is smaller than its labels.
		text("lt", 600, 0, "Legend", size(12), dsh("legend", "lgd_1", "title")),
		text("ll", 600, 30, "Service", size(16), dsh("legend", "lgd_1", "label", "entry", 0)),
	}
	got := withCode(VisualQA(els, qaProfile), CodeHierarchyInverted)
	want := []string{"fb,ft", "h1", "ll,lt"}
	if !slices.Equal(got, want) {
		t.Fatalf("hierarchy_inverted %v, want %v", got, want)
	}
}

func TestVisualQASemanticConflict(t *testing.T) {
	swatch := func(id string, entry int, fill string, more ...any) *ojson.Object {
		return rectangle(id, 0, float64(entry)*30, 30, 20, kv{"backgroundColor": fill}, dsh("legend", "lgd_1", "swatch", append([]any{"entry", entry}, more...)...))
	}
	lbl := func(id string, entry int, s string) *ojson.Object {
		return text(id, 40, float64(entry)*30, s, size(16), dsh("legend", "lgd_1", "label", "entry", entry))
	}
	line := linear("line", "s3", 0, 90, [][2]float64{{0, 0}, {30, 0}}, kv{"strokeStyle": "dashed"}, dsh("legend", "lgd_1", "swatch", "entry", 3))
	els := []*ojson.Object{
		swatch("s0", 0, "#B2F2BB"), lbl("t0", 0, "Stores data"), // agrees, in other case
		swatch("s1", 1, "#ffec99"), lbl("t1", 1, "Cache"), // the profile's external colour, another meaning
		swatch("s2", 2, "#a5d8ff"), lbl("t2", 2, "Service"),
		line, lbl("t3", 3, "sync call"), // dashed means async call
		swatch("s4", 4, "#a5d8ff"), lbl("t4", 4, "Worker"), // s2's swatch, another label
	}
	fs := VisualQA(els, qaProfile)
	got := withCode(fs, CodeSemanticConflict)
	want := []string{"s1,t1", "s2,s4,t2,t4", "s3,t3"}
	if !slices.Equal(got, want) {
		t.Fatalf("semantic_conflict %v, want %v", got, want)
	}
	for _, f := range fs {
		if f.Code == CodeSemanticConflict && f.IDs[0] == "s1" && f.Suggestion["value"] != "outside our control" {
			t.Errorf("suggestion %v", f.Suggestion)
		}
	}
}

func TestVisualQARoleColorMismatch(t *testing.T) {
	node := func(id, role, fill string) *ojson.Object {
		return rectangle(id, 0, 0, 100, 60, kv{"backgroundColor": fill, "customData": kv{"dshDiagram": kv{"diagram": "dgA", "kind": "node", "key": id, "role": role}}})
	}
	els := []*ojson.Object{
		node("ok", "database", "#B2F2BB"),
		node("wrong", "database", "#ffc9c9"),
		node("unknown", "queue", "#ffc9c9"), // no such role in the profile
		rectangle("sw", 0, 100, 30, 20, kv{"backgroundColor": "#ffec99", "strokeColor": "#e03131"}, dsh("legend", "lgd_1", "swatch", "role", "external", "entry", 0)),
	}
	fs := VisualQA(els, qaProfile)
	if got := withCode(fs, CodeRoleColorMismatch); !slices.Equal(got, []string{"wrong"}) {
		t.Fatalf("role_color_mismatch %v, want wrong (the swatch's role sets no stroke)", got)
	}
	if f := fs[slices.IndexFunc(fs, func(f Finding) bool { return f.Code == CodeRoleColorMismatch })]; f.Suggestion["field"] != "backgroundColor" || f.Suggestion["value"] != "#b2f2bb" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	p := qaProfile.Clone()
	p.Roles["external"] = profile.Role{Fill: "#ffec99", Stroke: "#1e1e1e"}
	if got := withCode(VisualQA(els, p), CodeRoleColorMismatch); !slices.Equal(got, []string{"sw", "wrong"}) {
		t.Errorf("with a stroke for external: %v, want sw and wrong", got)
	}
	if fs := VisualQA(els, profile.Profile{}); len(fs) != 0 {
		t.Errorf("the zero profile found %v", fs)
	}
}

func TestProfileRulesListed(t *testing.T) {
	codes := map[string]bool{}
	for _, r := range ProfileRules() {
		codes[r.Code] = true
		if r.Category != VisualQACategory || r.Summary == "" {
			t.Errorf("rule %+v", r)
		}
		if ruleByCode[r.Code].Code != "" {
			t.Errorf("%s runs in Run too", r.Code)
		}
	}
	if len(codes) != 5 {
		t.Errorf("codes %v", codes)
	}
}
