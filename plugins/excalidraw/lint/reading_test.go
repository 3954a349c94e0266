package lint

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// seg is a straight arrow from (x0, y0) to (x1, y1).
func seg(id string, x0, y0, x1, y1 float64, over ...kv) *ojson.Object {
	return arrow(id, x0, y0, [][2]float64{{0, 0}, {x1 - x0, y1 - y0}}, over...)
}

// poly is an arrow through global points.
func poly(id string, pts [][2]float64, over ...kv) *ojson.Object {
	rel := make([][2]float64, len(pts))
	for i, p := range pts {
		rel[i] = [2]float64{p[0] - pts[0][0], p[1] - pts[0][1]}
	}
	return arrow(id, pts[0][0], pts[0][1], rel, over...)
}

func TestArrowCrossing(t *testing.T) {
	// An X: each arrow is reported, naming the other.
	els := list(seg("a", 0, 0, 200, 200), seg("b", 0, 200, 200, 0))
	fs := Run(els, only(CodeArrowCrossing))
	f := expect(t, fs, CodeArrowCrossing, "a")
	if f.Severity != Info || !strings.Contains(f.Message, `arrow "b" once`) || f.Suggestion != nil {
		t.Errorf("finding %+v", f)
	}
	expect(t, fs, CodeArrowCrossing, "b")

	// A zigzag crossing a line twice, and a third arrow crossing it once:
	// one finding for the line, naming both, with the total.
	els = list(seg("line", 0, 100, 400, 100),
		poly("zig", [][2]float64{{0, 50}, {100, 150}, {200, 50}}),
		seg("down", 300, 0, 300, 200))
	f = expect(t, Run(els, only(CodeArrowCrossing)), CodeArrowCrossing, "line")
	if !strings.Contains(f.Message, `arrow "down" once, arrow "zig" twice (3 crossings)`) {
		t.Errorf("message %q", f.Message)
	}

	// A corner on the other path crosses it when the path goes on to the
	// other side, not when it turns back; a path that runs along the
	// other for a while does not cross it where it joins or leaves it
	// (collinear_arrows reports the run).
	els = list(seg("line", 0, 0, 400, 0), poly("corner", [][2]float64{{0, -50}, {100, 0}, {150, 50}}))
	expect(t, Run(els, only(CodeArrowCrossing)), CodeArrowCrossing, "corner")
	els = list(seg("line", 0, 0, 400, 0), poly("kiss", [][2]float64{{0, -50}, {100, 0}, {200, -50}}))
	none(t, Run(els, only(CodeArrowCrossing)), CodeArrowCrossing)
	els = list(seg("line", 0, 0, 400, 0), poly("along", [][2]float64{{0, -50}, {100, 0}, {200, 0}, {250, 50}}))
	fs = Run(els, Options{})
	none(t, fs, CodeArrowCrossing)
	expect(t, fs, CodeCollinearArrows, "along", "line")
	// Elbow arrows from one point along one route, parting at a corner.
	els = list(poly("a", [][2]float64{{160, 40}, {240, 40}, {240, 80}, {320, 80}}, kv{"elbowed": true}),
		poly("b", [][2]float64{{160, 40}, {240, 40}, {240, 280}, {320, 280}}, kv{"elbowed": true}))
	none(t, Run(els, only(CodeArrowCrossing)), CodeArrowCrossing)

	// Two arrows leaving one box side by side and crossing just outside
	// it fan out; the same geometry with unbound arrows is a crossing.
	fan := func(bind bool) []*ojson.Object {
		r := rectangle("r", 0, 0, 100, 100)
		a, b := seg("a", 100, 40, 300, 120), seg("b", 100, 60, 300, -20) // they cross at (125, 50)
		if bind {
			bindEnd(a, "start", r)
			bindEnd(b, "start", r)
		}
		return list(r, a, b)
	}
	none(t, Run(fan(true), only(CodeArrowCrossing)), CodeArrowCrossing)
	expect(t, Run(fan(false), only(CodeArrowCrossing)), CodeArrowCrossing, "a")

	// A curved arrow is judged by its curve: this short arrow crosses
	// the chord of the rounded one, not the curve drawn beside it.
	curve := func(round bool) []*ojson.Object {
		o := kv{}
		if round {
			o = kv{"roundness": kv{"type": 2.0}}
		}
		return list(poly("c", [][2]float64{{0, 0}, {100, 100}, {200, 0}}, o), seg("s", 58.49, 41.51, 45.76, 54.24))
	}
	expect(t, Run(curve(false), only(CodeArrowCrossing)), CodeArrowCrossing, "s")
	none(t, Run(curve(true), only(CodeArrowCrossing)), CodeArrowCrossing)

	cases := map[string][]*ojson.Object{
		"parallel":      list(seg("a", 0, 0, 200, 0), seg("b", 0, 20, 200, 20)),
		"apart":         list(seg("a", 0, 0, 100, 100), seg("b", 300, 0, 400, 100)),
		"T: ends on it": list(seg("a", 0, 0, 200, 0), seg("b", 100, 100, 100, 2)),
		"shared end":    list(seg("a", 0, 0, 100, 100), seg("b", 200, 0, 100, 100)),
		"end to end":    list(seg("a", 0, 0, 100, 0), seg("b", 100, 0, 200, 0)),
		"corners meet":  list(poly("a", [][2]float64{{0, 0}, {100, 0}, {100, 100}}), poly("b", [][2]float64{{200, 0}, {100, 0}, {100, -100}})),
		"lines, not arrows": list(linear("line", "a", 0, 0, [][2]float64{{0, 0}, {200, 200}}),
			linear("line", "b", 0, 200, [][2]float64{{0, 0}, {200, -200}})),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeArrowCrossing); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
}

func TestArrowOverText(t *testing.T) {
	// A free text with an arrow drawn through it.
	tx := text("t", 100, 100, "hello world")
	els := list(tx, seg("a", 50, 112, 400, 112))
	f := expect(t, Run(els, only(CodeArrowOverText)), CodeArrowOverText, "a", "t")
	if f.Severity != Warning || !strings.Contains(f.Message, "arrow's label") {
		t.Errorf("finding %+v", f)
	}

	// A box's label under an arrow that passes through the box.
	box := rectangle("box", 100, 100, 200, 80)
	lb := label(box, "lb", "Service")
	fs := Run(list(box, lb, seg("a", 0, 140, 400, 140)), Options{})
	if f := expect(t, fs, CodeArrowOverText, "a", "lb"); !strings.Contains(f.Message, `label of rectangle "box"`) {
		t.Errorf("message %q", f.Message)
	}
	expect(t, fs, CodeArrowThroughShape, "a", "box")

	// Another arrow's label, where the editor draws it (on that arrow's
	// middle, not at its stale stored place).
	other := seg("other", 0, 300, 400, 300)
	ol := label(other, "ol", "calls")
	ol.Set("x", 1000.0).Set("y", 1000.0)
	fs = Run(list(other, ol, seg("cross", 200, 200, 200, 400)), Options{})
	expect(t, fs, CodeArrowOverText, "cross", "ol")
	none(t, Run(list(other, ol, seg("stale", 950, 1010, 1200, 1010)), Options{}), CodeArrowOverText)

	mid := text("t", 100, 100, "hello world") // 25 px of line height, letters between about 4 and 21
	fixed := text("t", 100, 100, "hi", kv{"autoResize": false, "width": 300.0})
	bound := text("t", 100, 100, "target")
	ba := seg("a", 0, 112, 98, 112)
	bindEnd(ba, "end", bound)
	own := seg("own", 0, 0, 300, 0)
	cases := map[string][]*ojson.Object{
		"its own label":       list(own, label(own, "l", "a label")),
		"in the line gap":     list(mid, seg("a", 50, 102, 400, 102)),
		"beside, not through": list(mid, seg("a", 50, 140, 400, 140)),
		"past the letters":    list(fixed, seg("a", 200, 50, 200, 200)), // the box is 300 wide, "hi" is not
		"starts on it":        list(mid, seg("a", 130, 112, 400, 300)),
		"bound to it":         list(bound, ba),
		"invisible text":      list(text("t", 100, 100, "hello", kv{"opacity": 0.0}), seg("a", 50, 112, 400, 112)),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeArrowOverText); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
}

func TestTextOverlap(t *testing.T) {
	// Two free texts on each other: the upper one moves off.
	els := list(text("a", 100, 100, "first words"), text("b", 130, 105, "second words"))
	f := expect(t, Run(els, only(CodeTextOverlap)), CodeTextOverlap, "a", "b")
	if f.Severity != Warning || f.Suggestion["action"] != "move" || f.Suggestion["id"] != "b" {
		t.Errorf("finding %+v", f)
	}
	resolves(t, els, f)

	// A free text over a box's label: the free text is the one to move,
	// whichever is drawn on top.
	box := rectangle("box", 100, 100, 200, 80)
	lb := label(box, "lb", "Service")
	over := text("free", 160, 128, "note")
	if f := expect(t, Run(list(over, box, lb), Options{}), CodeTextOverlap, "free", "lb"); f.Suggestion["id"] != "free" {
		t.Errorf("suggestion %v", f.Suggestion)
	}

	// Two arrows' labels on one spot: their containers move, no
	// suggestion.
	a1, a2 := seg("a1", 0, 100, 400, 100), seg("a2", 0, 104, 400, 104)
	if f := expect(t, Run(list(a1, label(a1, "l1", "first"), a2, label(a2, "l2", "second")), Options{}), CodeTextOverlap, "l1", "l2"); f.Suggestion != nil {
		t.Errorf("suggestion %v", f.Suggestion)
	}

	h := text("x", 0, 0, "x").Get
	hv, _ := h("height")
	lineH := hv.(float64)
	cases := map[string][]*ojson.Object{
		// Lines stacked with their line boxes touching, even 3 px into
		// each other, do not print over each other.
		"stacked":      list(text("a", 100, 100, "upper line"), text("b", 100, 100+lineH-3, "lower line")),
		"side by side": list(text("a", 100, 100, "left"), text("b", 100+textWidth("left")-1, 100, "right")),
		"apart":        list(text("a", 100, 100, "one"), text("b", 400, 100, "two")),
		// A wide fixed box whose short line leaves room for another text.
		"past the letters": list(text("a", 100, 100, "hi", kv{"autoResize": false, "width": 400.0}), text("b", 200, 100, "there")),
		"twins":            list(text("a", 100, 100, "same"), text("b", 100.5, 100, "same")),
		"blank":            list(text("a", 100, 100, "text"), text("b", 100, 100, "   ")),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeTextOverlap); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
}

func textWidth(s string) float64 {
	w, _ := text("w", 0, 0, s).Number("width")
	return w
}

func TestCollinearArrows(t *testing.T) {
	els := list(seg("a", 0, 0, 200, 0), seg("b", 50, 2, 300, 2))
	f := expect(t, Run(els, only(CodeCollinearArrows)), CodeCollinearArrows, "a", "b")
	if f.Severity != Warning || !strings.Contains(f.Message, "for 150 px") {
		t.Errorf("finding %+v", f)
	}
	// Opposite directions on one line; two elbow arrows leaving one point
	// along the same first run.
	expect(t, Run(list(seg("a", 0, 0, 200, 0), seg("b", 300, 0, 100, 0)), Options{}), CodeCollinearArrows, "a", "b")
	els = list(poly("a", [][2]float64{{0, 0}, {0, 50}, {100, 50}}, kv{"elbowed": true}),
		poly("b", [][2]float64{{0, 0}, {0, 50}, {-100, 50}}, kv{"elbowed": true}))
	expect(t, Run(els, Options{}), CodeCollinearArrows, "a", "b")

	cases := map[string][]*ojson.Object{
		"10 px apart":       list(seg("a", 0, 0, 200, 0), seg("b", 50, 10, 300, 10)),
		"end to end":        list(seg("a", 0, 0, 200, 0), seg("b", 200, 0, 400, 0)),
		"overlap of 8 px":   list(seg("a", 0, 0, 200, 0), seg("b", 192, 0, 400, 0)),
		"crossing":          list(seg("a", 0, 0, 200, 0), seg("b", 100, -50, 110, 50)),
		"slight angle":      list(seg("a", 0, 0, 400, 0), seg("b", 0, 10, 400, -10)),
		"fan from a point":  list(seg("a", 0, 0, 200, 40), seg("b", 0, 0, 200, -40)),
		"lines, not arrows": list(linear("line", "a", 0, 0, [][2]float64{{0, 0}, {200, 0}}), linear("line", "b", 0, 0, [][2]float64{{0, 0}, {200, 0}})),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeCollinearArrows); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
}

func TestLabelBrokenMidWord(t *testing.T) {
	// The builder's layout of a long word in a narrow box breaks it.
	c := rectangle("c", 0, 0, 60, 120)
	l := label(c, "l", "Authentication service")
	fs := Run(list(c, l), Options{})
	f := expect(t, fs, CodeLabelBrokenMidWord, "c", "l")
	if f.Severity != Warning || !strings.Contains(f.Message, `"Authentication", "service"`) {
		t.Errorf("finding %+v", f)
	}
	// The width it names is enough: laid out again at that width, no
	// word breaks.
	var need float64
	for _, w := range strings.Fields(f.Message) {
		if n, err := json.Number(w).Float64(); err == nil {
			need = n
		}
	}
	c.Set("width", need)
	lay := build.LayoutLabel(c, l)
	l.Set("text", lay.Text)
	none(t, Run(list(c, l), Options{}), CodeLabelBrokenMidWord)
	c.Set("width", need-2)
	l.Set("text", build.LayoutLabel(c, l).Text)
	expect(t, Run(list(c, l), Options{}), CodeLabelBrokenMidWord, "c", "l")

	// A fixed-width free text.
	ft := text("ft", 0, 0, "x", kv{"text": "Observ\nability", "originalText": "Observability", "autoResize": false, "width": 70.0})
	if f := expect(t, Run(list(ft), Options{}), CodeLabelBrokenMidWord, "ft"); !strings.Contains(f.Message, `"Observability"`) {
		t.Errorf("message %q", f.Message)
	}

	// Wrapped where a person would wrap: not reported.
	cases := map[string][2]string{
		"at a space":           {"hello\nworld", "hello world"},
		"at several spaces":    {"hello\nworld", "hello   world"},
		"space kept":           {"hello \nworld", "hello world"},
		"after a hyphen":       {"well-\nknown", "well-known"},
		"original's own":       {"two\nlines", "two\nlines"},
		"after a slash":        {"a/\nb", "a/b"},
		"Chinese":              {"等待\n唤醒", "等待唤醒"},
		"not derived":          {"abc\ndef", "xyz"},
		"unwrapped":            {"one line", "one line"},
		"before a bracket":     {"call\n(x)", "call(x)"},
		"CRLF in the original": {"a\nb c\nd", "a\r\nb c d"},
	}
	for name, c := range cases {
		if w := brokenWords(c[0], c[1]); len(w) > 0 {
			t.Errorf("%s: %q", name, w)
		}
	}
	for _, c := range []struct {
		text, orig string
		want       []string
	}{
		{"Authen\ntication", "Authentication", []string{"Authentication"}},
		{"Auth\nentic\nation", "Authentication", []string{"Authentication"}},
		{"the Kuber\nnetes\ncluster", "the Kubernetes cluster", []string{"Kubernetes"}},
		{"12\n34", "1234", []string{"1234"}},
		{"Ver\nbindungs\naufbau and Daten\nbank", "Verbindungsaufbau and Datenbank", []string{"Verbindungsaufbau", "Datenbank"}},
		{"délé\ngué", "délégué", []string{"délégué"}},
	} {
		if w := brokenWords(c.text, c.orig); !slices.Equal(w, c.want) {
			t.Errorf("%q from %q: %q, want %q", c.text, c.orig, w, c.want)
		}
	}
}

// readingScene has a fault of each reading rule, and what they must not
// report beside them.
func readingScene(t *testing.T) []*ojson.Object {
	box := rectangle("box", 400, 0, 200, 80)
	narrow := rectangle("narrow", 700, 0, 60, 120)
	free := seg("x1", 0, 0, 200, 200)
	lab := label(free, "x1l", "crossing")
	return list(free, lab, seg("x2", 0, 200, 200, 0),
		box, label(box, "boxl", "Service"), seg("through", 350, 40, 650, 40),
		text("t1", 0, 400, "first words"), text("t2", 30, 405, "second words"),
		seg("c1", 0, 600, 200, 600), seg("c2", 50, 602, 300, 602),
		narrow, label(narrow, "narrowl", "Authentication"),
		rectangle("far", 2000, 2000, 100, 100))
}

func TestReadingRulesScoped(t *testing.T) {
	els := readingScene(t)
	all := Run(els, Options{})
	for _, code := range []string{CodeArrowCrossing, CodeArrowOverText, CodeTextOverlap, CodeCollinearArrows, CodeLabelBrokenMidWord} {
		if len(find(all, code)) == 0 {
			t.Errorf("no %s:\n%s", code, dump(all))
		}
	}
	// A scoped run finds what the full run finds about the scope.
	var ids []string
	for _, e := range els {
		id, _ := e.String("id")
		ids = append(ids, id)
	}
	for _, id := range ids {
		for _, scope := range []map[string]bool{{id: true}, Neighbours(els, []string{id})} {
			if d := sameScoped(all, Run(els, Options{Scope: scope}), scope); d != "" {
				t.Errorf("scope %v: %s", slices.Sorted(maps.Keys(scope)), d)
			}
		}
	}
	// Moving one arrow of the X away resolves both arrows' crossings and
	// adds nothing.
	after := make([]*ojson.Object, len(els))
	copy(after, els)
	for i, e := range after {
		if id, _ := e.String("id"); id == "x2" {
			after[i] = e.Clone().Set("x", 1000.0)
		}
	}
	added, resolved, _ := Delta(els, after, []string{"x2"}, DeltaOptions{})
	if len(find(resolved, CodeArrowCrossing)) != 2 || len(added) != 0 {
		t.Errorf("resolved:\n%s\nadded:\n%s", dump(resolved), dump(added))
	}
}

func TestDrawnPath(t *testing.T) {
	// Three points rounded: rough.js's curve through them, which at the
	// middle of its first piece is 8.8 px off the chord.
	s := newScene(list(poly("c", [][2]float64{{0, 0}, {100, 100}, {200, 0}}, kv{"roundness": kv{"type": 2.0}})), Options{}, nil)
	e, _ := s.get("c")
	p := e.path()
	if len(p) != 1+2*pathSamples || p[0] != geom.V(0, 0) || p[pathSamples] != geom.V(100, 100) || p[len(p)-1] != geom.V(200, 0) {
		t.Fatalf("path %v", p)
	}
	if mid := p[pathSamples/2]; mid.Dist(geom.V(43.75, 56.25)) > 1e-9 {
		t.Errorf("middle of the first piece at %v", mid)
	}
	// Sharp, elbowed and two-point arrows are their points.
	for _, o := range []kv{{"roundness": nil}, {"roundness": kv{"type": 2.0}, "elbowed": true}} {
		s := newScene(list(poly("c", [][2]float64{{0, 0}, {100, 100}, {200, 0}}, o)), Options{}, nil)
		e, _ := s.get("c")
		if len(e.path()) != 3 {
			t.Errorf("%v: path %v", o, e.path())
		}
	}
	if d := math.Abs(geom.PolylineLength(p) - 2*math.Hypot(100, 100)); d > 20 {
		t.Errorf("curve length %g", geom.PolylineLength(p))
	}
}

// The CI/CD flow of issue 26: a skip edge drawn straight along the
// chain lies on the chain's arrows, passes over the middle box's label
// and prints its own label on it. Before these rules lint said only that
// it passes through the box.
func TestSkipEdgeAlongAChain(t *testing.T) {
	els := built(t,
		`{"type":"rectangle","id":"lint","x":0,"y":0,"width":160,"height":80,"label":{"text":"lint"}}`,
		`{"type":"rectangle","id":"build","x":260,"y":0,"width":160,"height":80,"label":{"text":"build"}}`,
		`{"type":"rectangle","id":"test","x":520,"y":0,"width":160,"height":80,"label":{"text":"test"}}`,
		`{"type":"arrow","id":"e1","startElementId":"lint","endElementId":"build"}`,
		`{"type":"arrow","id":"e2","startElementId":"build","endElementId":"test"}`,
		`{"type":"arrow","id":"skip","startElementId":"lint","endElementId":"test","label":{"text":"docs only"}}`,
	)
	labelOf := func(id string) string {
		for _, e := range els {
			if c, _ := e.String("containerId"); c == id {
				l, _ := e.String("id")
				return l
			}
		}
		t.Fatalf("no label of %s", id)
		return ""
	}
	fs := Run(els, Options{})
	expect(t, fs, CodeArrowThroughShape, "build", "skip")
	expect(t, fs, CodeArrowOverText, "skip", labelOf("build"))
	expect(t, fs, CodeCollinearArrows, "e1", "skip")
	expect(t, fs, CodeCollinearArrows, "e2", "skip")
	expect(t, fs, CodeTextOverlap, labelOf("build"), labelOf("skip"))
	none(t, fs, CodeArrowCrossing)
}
