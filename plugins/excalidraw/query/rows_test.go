package query

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func rowStrings(t *testing.T, els, all []*ojson.Object, fields ...string) []string {
	t.Helper()
	rows, err := Rows(els, all, fields)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = marshal(t, r)
	}
	return out
}

// TestRowsFixture: the default rows. A label whose container is read
// too folds into the container's row (its text is there), and the stroke
// colour is left to "style": the read stays within 120 bytes an element.
func TestRowsFixture(t *testing.T) {
	all := fixture(t)
	els, _ := Select(all, Target{IncludeDeleted: true})
	want := []string{
		`{"id":"a","type":"rectangle","x":0,"y":0,"w":100,"h":50,"text":"Client","backgroundColor":"#a5d8ff"}`,
		`{"id":"b","type":"rectangle","x":300,"y":0,"w":100,"h":50,"text":"Server"}`,
		`{"id":"c","type":"ellipse","x":0,"y":200,"w":80,"h":80}`,
		`{"id":"e1","type":"arrow","x":100,"y":25,"w":200,"h":0,"text":"calls","ends":"Client → Server"}`,
		`{"id":"e2","type":"arrow","x":350,"y":50,"w":150,"h":150,"ends":"Server →"}`,
		`{"id":"e3","type":"arrow","x":0,"y":400,"w":100,"h":0}`,
		`{"id":"l1","type":"line","x":0,"y":500,"w":400,"h":0}`,
		`{"id":"t","type":"text","x":500,"y":0,"w":220,"h":25,"text":"Notes about the system","link":"https://example.com/notes"}`,
		`{"id":"gone","type":"rectangle","x":0,"y":0,"w":10,"h":10,"deleted":true}`,
		`{"id":"f","type":"frame","x":280,"y":-20,"w":160,"h":100,"text":"Backend"}`,
	}
	got := rowStrings(t, els, all)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A label is shown once: on its container when both are read, in full
// when it is read alone.
func TestRowsLabelsInline(t *testing.T) {
	all := fixture(t)
	alone, _ := Select(all, Target{IDs: []string{"la", "le1"}})
	got := rowStrings(t, alone, all)
	want := []string{
		`{"id":"la","type":"text","x":20,"y":12,"w":60,"h":25,"text":"Client","in":"a"}`,
		`{"id":"le1","type":"text","x":180,"y":15,"w":40,"h":20,"text":"calls","in":"e1"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s", strings.Join(got, "\n"))
	}
	both, _ := Select(all, Target{IDs: []string{"a", "la"}})
	if got := rowStrings(t, both, all, "id", "type", "text", "labelId", "in"); got[0] != `{"id":"a","type":"rectangle","text":"Client","labelId":"la"}` || got[1] != `{"id":"la","type":"text","in":"a"}` {
		t.Fatalf("%q", got)
	}
}

// An arrow's ends: unique labels by name, others by id; the sign shows
// the arrowheads.
func TestRowsEnds(t *testing.T) {
	all := elements(t, `[
	 {"id":"p","type":"rectangle","x":0,"y":0,"width":10,"height":10},
	 {"id":"pl","type":"text","x":0,"y":0,"width":1,"height":1,"text":"Same","containerId":"p"},
	 {"id":"q","type":"rectangle","x":0,"y":0,"width":10,"height":10},
	 {"id":"ql","type":"text","x":0,"y":0,"width":1,"height":1,"text":"Same","containerId":"q"},
	 {"id":"r","type":"ellipse","x":0,"y":0,"width":10,"height":10},
	 {"id":"s","type":"text","x":0,"y":0,"width":10,"height":10,"text":"A very long name that goes on and on"},
	 {"id":"u","type":"text","x":0,"y":0,"width":10,"height":10,"text":"A very long name that goes elsewhere"},
	 {"id":"w","type":"diamond","x":0,"y":0,"width":10,"height":10},
	 {"id":"wl","type":"text","x":0,"y":0,"width":1,"height":1,"text":"Line 1\n  line 2","containerId":"w"},
	 {"id":"x1","type":"arrow","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"startBinding":{"elementId":"p"},"endBinding":{"elementId":"r"},"endArrowhead":"arrow"},
	 {"id":"x2","type":"arrow","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"startBinding":{"elementId":"s"},"endBinding":{"elementId":"w"},"startArrowhead":"arrow","endArrowhead":"triangle"},
	 {"id":"x3","type":"arrow","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"endBinding":{"elementId":"w"},"startArrowhead":"bar","endArrowhead":null},
	 {"id":"x4","type":"line","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"startBinding":{"elementId":"w"},"endBinding":{"elementId":"nowhere"}}
	]`)
	els, _ := Select(all, Target{Types: []string{"arrow", "line"}})
	got := rowStrings(t, els, all, "ends")
	want := []string{
		`{"id":"x1","ends":"p → r"}`,             // "Same" is on two boxes; r has no text
		`{"id":"x2","ends":"s ↔ Line 1 line 2"}`, // s and u read the same once cut at 24
		`{"id":"x3","ends":"← Line 1 line 2"}`,   // the free start is left out
		`{"id":"x4","ends":"Line 1 line 2 —"}`,   // an end bound to a missing element is free
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s", strings.Join(got, "\n"))
	}
	// Labels under 24 characters that differ are names.
	all[6].Set("text", "Short")
	if got := rowStrings(t, els[1:2], all, "ends"); got[0] != `{"id":"x2","ends":"A very long name that go… ↔ Line 1 line 2"}` {
		t.Fatal(got[0])
	}
}

func TestRowsTextAndRounding(t *testing.T) {
	long := strings.Repeat("é", MaxRowText+5)
	all := elements(t, `[
	 {"id":"t","type":"text","x":10.4,"y":-0.4,"width":99.5,"height":25.49,"text":"`+long+`","fontSize":36,"fontFamily":1,"strokeColor":"#e03131","opacity":50,"backgroundColor":"#fff","roughness":2,"strokeWidth":4},
	 {"id":"dot","type":"ellipse","x":10.44,"y":-0.04,"width":4.25,"height":4.25,"angle":0.00001},
	 {"id":"rot","type":"rectangle","x":0,"y":0,"width":40,"height":40,"angle":0.7853981633974483,"backgroundColor":"#ffec99","fillStyle":"hachure","strokeWidth":1,"strokeStyle":"dotted","roughness":0,"opacity":100,"locked":true,"groupIds":["inner","outer"],"frameId":"fr"},
	 {"id":"ar","type":"arrow","x":0.5,"y":0.5,"width":20.25,"height":0,"points":[[0,0],[20.25,0]],"backgroundColor":"#ffec99","strokeWidth":2}
	]`)
	got := rowStrings(t, all, all, "all")
	want := []string{
		// Text: font and colour and opacity, not fill, stroke width or roughness.
		`{"id":"t","type":"text","role":"standalone","x":10,"y":0,"w":100,"h":25,"text":"` + strings.Repeat("é", MaxRowText) + `…","strokeColor":"#e03131","opacity":50,"fontSize":36,"fontFamily":1}`,
		// Small: one decimal; an angle that rounds to 0 is left out.
		`{"id":"dot","type":"ellipse","role":"standalone","x":10.4,"y":0,"w":4.3,"h":4.3}`,
		`{"id":"rot","type":"rectangle","role":"standalone","x":0,"y":0,"w":40,"h":40,"angle":0.785,"frameId":"fr","groupIds":["inner","outer"],"locked":true,"backgroundColor":"#ffec99","fillStyle":"hachure","strokeWidth":1,"strokeStyle":"dotted","roughness":0}`,
		// An arrow has no fill.
		`{"id":"ar","type":"arrow","role":"standalone","x":1,"y":1,"w":20,"h":0,"points":[[0,0],[20,0]]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := rowStrings(t, all[:1], all, "style"); got[0] != `{"id":"t","strokeColor":"#e03131","opacity":50,"fontSize":36,"fontFamily":1}` {
		t.Fatal(got[0])
	}
}

func TestRowsFields(t *testing.T) {
	all := fixture(t)
	if got := rowStrings(t, all[:1], all, "x", "y"); got[0] != `{"id":"a","x":0,"y":0}` {
		t.Fatalf("the id is always there: %s", got[0])
	}
	_, err := Rows(all, all, []string{"id", "colour"})
	wantInvalid(t, err, "/fields/1")
	// An empty selection is answered without looking at the scene, but
	// its fields are still checked.
	_, err = Rows(nil, all, []string{"id", "colour"})
	wantInvalid(t, err, "/fields/1")
	if rows, err := Rows(nil, all, nil); err != nil || rows == nil || len(rows) != 0 {
		t.Fatalf("empty selection: %v, %v", rows, err)
	}
	if g := Graph(nil, all); g.Nodes == nil || g.Edges == nil || g.Unbound == nil || g.Isolated == nil || len(g.Nodes) != 0 {
		t.Fatalf("empty selection's graph: %+v", g)
	}
	for _, f := range Fields() {
		if _, err := Rows(all, all, []string{f}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if len(allFields) != len(fieldSet{}.on) {
		t.Fatal("fieldSet must have one slot per field")
	}
}

func TestMarkdown(t *testing.T) {
	all := fixture(t)
	els, _ := Select(all, Target{IDs: []string{"a", "la", "e1", "t"}})
	md, err := Markdown(els, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "| id | type | x | y | w | h | text | ends | link | backgroundColor |\n" +
		"|---|---|---|---|---|---|---|---|---|---|\n" +
		"| a | rectangle | 0 | 0 | 100 | 50 | Client |  |  | #a5d8ff |\n" +
		"| e1 | arrow | 100 | 25 | 200 | 0 | calls | Client → Server |  |  |\n" +
		"| t | text | 500 | 0 | 220 | 25 | Notes about the system |  | https://example.com/notes |  |\n"
	if md != want {
		t.Fatalf("got:\n%s\nwant:\n%s", md, want)
	}
	// Asked for, the label is listed with its container.
	md, _ = Markdown(els, all, []string{"id", "type", "in"})
	if !strings.Contains(md, "| la | text | a |") {
		t.Fatalf("with fields id, type, in:\n%s", md)
	}
	pipes := elements(t, `[{"id":"p","type":"line","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"groupIds":["g|1","g2"],"link":"a|b"}]`)
	md, _ = Markdown(pipes, pipes, []string{"groupIds", "link", "points"})
	if !strings.Contains(md, `| g\|1,g2 | a\|b | [[0,0],[1,1]] |`) {
		t.Fatal(md)
	}
	if md, _ := Markdown(nil, all, nil); md != "| id |\n|---|\n" {
		t.Fatalf("%q", md)
	}
	if _, err := Markdown(all, all, []string{"nope"}); err == nil {
		t.Fatal("unknown field accepted")
	}
}

func TestBounds(t *testing.T) {
	all := fixture(t)
	els, _ := Select(all, Target{FrameIDs: []string{"f"}})
	if b, ok := Bounds(els); !ok || b != (Box{300, 0, 100, 50}) {
		t.Fatalf("%+v %v", b, ok)
	}
	live, _ := Select(all, Target{})
	if b, ok := Bounds(live); !ok || b != (Box{0, -20, 720, 520}) {
		t.Fatalf("%+v", b)
	}
	if _, ok := Bounds(nil); ok {
		t.Fatal("bounds of nothing")
	}
	if r := (Box{0.44, 1.26, 5, 5}).Rounded(); r != (Box{0.4, 1.3, 5, 5}) {
		t.Fatalf("%+v", r)
	}
	if r := (Box{-0.4, 1.5, 50, 5}).Rounded(); r != (Box{0, 2, 50, 5}) || marshal(t, r.X) != "0" {
		t.Fatalf("%+v", r)
	}
}
