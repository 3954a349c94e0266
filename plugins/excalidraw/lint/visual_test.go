package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// apply carries out a move, resize, set or delete suggestion on the
// elements (in place).
func apply(t *testing.T, els []*ojson.Object, sug map[string]any) {
	t.Helper()
	id, _ := sug["id"].(string)
	var target *ojson.Object
	for _, e := range els {
		if s, _ := e.String("id"); s == id {
			target = e
		}
	}
	if target == nil {
		t.Fatalf("suggestion names %q, which is not there", id)
	}
	num := func(k string) float64 { f, _ := target.Number(k); return f }
	switch sug["action"] {
	case "move":
		target.Set("x", num("x")+sug["dx"].(float64)).Set("y", num("y")+sug["dy"].(float64))
	case "resize":
		target.Set("width", sug["width"]).Set("height", sug["height"])
	case "set":
		target.Set(sug["field"].(string), sug["value"])
	case "delete":
		target.Set("isDeleted", true)
	default:
		t.Fatalf("cannot apply %v", sug)
	}
}

// resolves checks that applying the finding's suggestion removes it.
func resolves(t *testing.T, els []*ojson.Object, f Finding) {
	t.Helper()
	apply(t, els, f.Suggestion)
	for _, g := range Run(els, Options{}) {
		if g.Key() == f.Key() {
			t.Fatalf("after %v, still: %s", f.Suggestion, g.Message)
		}
	}
}

func TestOverlap(t *testing.T) {
	a := rectangle("a", 0, 0, 100, 100)
	b := shape("ellipse", "b", 50, 20, 100, 100)
	els := list(a, b)
	f := expect(t, Run(els, only(CodeOverlap)), CodeOverlap, "a", "b")
	if f.Severity != Warning || f.Suggestion["id"] != "b" {
		t.Errorf("finding %+v", f) // the upper one moves
	}
	resolves(t, els, f)

	// Rotated boxes are compared by their rotated bounds.
	r1 := rectangle("r1", 0, 0, 100, 20, kv{"angle": 1.5707963})
	r2 := rectangle("r2", 40, 40, 20, 100)
	expect(t, Run(list(r1, r2), only(CodeOverlap)), CodeOverlap, "r1", "r2")

	// 20% of the smaller box is an overlap, 10% is not.
	expect(t, Run(list(rectangle("a", 0, 0, 100, 100), rectangle("b", 80, 0, 100, 100)), Options{}), CodeOverlap, "a", "b")
	none(t, Run(list(rectangle("a", 0, 0, 100, 100), rectangle("b", 90, 0, 100, 100)), Options{}), CodeOverlap)

	cases := map[string][]*ojson.Object{
		"corner touch":   list(rectangle("a", 0, 0, 100, 100), rectangle("b", 90, 90, 100, 100)),
		"nested":         list(rectangle("panel", 0, 0, 400, 400), rectangle("card", 50, 50, 100, 100)),
		"same group":     list(rectangle("a", 0, 0, 100, 100, kv{"groupIds": []any{"g"}}), rectangle("b", 50, 0, 100, 100, kv{"groupIds": []any{"g"}})),
		"frame":          list(shape("frame", "f", 0, 0, 300, 300), rectangle("a", 50, 50, 100, 100, kv{"frameId": "f"})),
		"text and arrow": list(rectangle("a", 0, 0, 100, 100), text("t", 10, 10, "over it"), arrow("x", 20, 50, [][2]float64{{0, 0}, {50, 0}})),
		"apart":          list(rectangle("a", 0, 0, 100, 100), rectangle("b", 200, 0, 100, 100)),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeOverlap); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
	// A container and its label are not an overlap.
	c := rectangle("c", 0, 0, 100, 50)
	none(t, Run(list(c, label(c, "l", "x")), Options{}), CodeOverlap)

	// Shapes drawn over each other in part, clear of their labels, are a
	// picture people compose (a badge on a labelled card's corner, a
	// stack of sheets, a head on a body): validate_scene (nothing
	// touched) leaves them; a write that placed one of them is told.
	card := rectangle("card", 0, 0, 100, 100)
	badge := list(card, label(card, "title", "A"), shape("diamond", "badge", 70, -30, 60, 60))
	sheets := list(rectangle("s1", 0, 0, 260, 45), rectangle("s2", 13, 16, 260, 45), rectangle("s3", 19, 33, 260, 45))
	for name, els := range map[string][]*ojson.Object{"badge": badge, "sheets": sheets} {
		if fs := find(Run(els, Options{Touched: map[string]bool{}}), CodeOverlap); len(fs) > 0 {
			t.Errorf("%s, nothing touched: %s", name, dump(fs))
		}
	}
	expect(t, Run(badge, Options{Touched: map[string]bool{"badge": true}}), CodeOverlap, "badge", "card")
	// Untouched, still found: two boxes on one spot, and a box over part
	// of another's label.
	expect(t, Run(list(rectangle("a", 0, 0, 120, 60), rectangle("b", 0, 0, 120, 60, kv{"strokeColor": "#e03131"})),
		Options{Touched: map[string]bool{}}), CodeOverlap, "a", "b")
	lb := rectangle("lb", 60, 20, 120, 60)
	expect(t, Run(list(rectangle("a", 0, 0, 120, 60), lb, label(lb, "lbl", "B")), Options{Touched: map[string]bool{}}), CodeOverlap, "a", "lb")
}

func TestTextOverflow(t *testing.T) {
	c := rectangle("c", 0, 0, 80, 40)
	l := label(c, "l", "a label far too long for this little box")
	els := list(c, l)
	f := expect(t, Run(els, only(CodeTextOverflow)), CodeTextOverflow, "c", "l")
	if f.Suggestion["action"] != "resize" || f.Suggestion["id"] != "c" || f.Suggestion["height"].(float64) <= 40 {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	resolves(t, els, f)

	// A fixed-width text whose stored lines are wider than it.
	fixed := text("fx", 0, 0, "a single long line of text", kv{"autoResize": false, "width": 60.0})
	els = list(fixed)
	f = expect(t, Run(els, only(CodeTextOverflow)), CodeTextOverflow, "fx")
	resolves(t, els, f)

	// Negative: what the builder lays out fits; an auto-resizing text
	// never overflows; a wide fixed box holds its line.
	b := built(t, `{"type":"diamond","id":"d","x":0,"y":0,"width":60,"height":40,"label":{"text":"the builder grows the box to fit"}}`)
	none(t, Run(b, Options{}), CodeTextOverflow)
	none(t, Run(list(text("t", 0, 0, "any length at all", kv{"width": 5.0})), Options{}), CodeTextOverflow)
	none(t, Run(list(text("t", 0, 0, "short", kv{"autoResize": false, "width": 500.0})), Options{}), CodeTextOverflow)
}

func TestLabelWiderThanArrow(t *testing.T) {
	a := arrow("a", 0, 0, [][2]float64{{0, 0}, {40, 0}})
	l := label(a, "l", "a label much longer than the arrow")
	expect(t, Run(list(a, l), only(CodeLabelWiderThanArrow)), CodeLabelWiderThanArrow, "a", "l")

	// Negative: a long arrow; and a short vertical arrow whose label only
	// crosses it (its extent along the arrow is its height).
	long := arrow("a", 0, 0, [][2]float64{{0, 0}, {300, 0}})
	none(t, Run(list(long, label(long, "l", "go")), Options{}), CodeLabelWiderThanArrow)
	up := arrow("a", 0, 0, [][2]float64{{0, 0}, {0, 60}})
	none(t, Run(list(up, label(up, "l", "yes")), Options{}), CodeLabelWiderThanArrow)
}

func TestUnboundArrowEnd(t *testing.T) {
	r := rectangle("r", 0, 0, 100, 100)
	a := arrow("a", 110, 50, [][2]float64{{0, 0}, {200, 0}})
	f := expect(t, Run(list(r, a), only(CodeUnboundArrowEnd)), CodeUnboundArrowEnd, "a", "r")
	if f.Suggestion["action"] != "bind" || f.Suggestion["end"] != "start" || f.Suggestion["target"] != "r" || f.Suggestion["arrow"] != "a" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	// Just inside the outline counts too; the end is reported.
	b := arrow("b", -200, 50, [][2]float64{{0, 0}, {205, 0}})
	if f := expect(t, Run(list(r, b), only(CodeUnboundArrowEnd)), CodeUnboundArrowEnd, "b", "r"); f.Suggestion["end"] != "end" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	// The distance grows with the shape: 30 px binds to a 200 px box
	// (min(0.25 × 200, 32) = 32) but not to a 40 px one (16).
	big := rectangle("big", 0, 0, 200, 200)
	expect(t, Run(list(big, arrow("c", 230, 50, [][2]float64{{0, 0}, {100, 0}})), only(CodeUnboundArrowEnd)), CodeUnboundArrowEnd, "big", "c")
	small := rectangle("small", 0, 0, 40, 40)
	none(t, Run(list(small, arrow("c", 70, 20, [][2]float64{{0, 0}, {100, 0}})), Options{}), CodeUnboundArrowEnd)

	// Negative: far away; bound; a line (lines do not bind); deep inside
	// a panel.
	none(t, Run(list(r, arrow("a", 160, 50, [][2]float64{{0, 0}, {200, 0}})), Options{}), CodeUnboundArrowEnd)
	none(t, Run(flow(t), Options{}), CodeUnboundArrowEnd)
	none(t, Run(list(r, linear("line", "l", 110, 50, [][2]float64{{0, 0}, {200, 0}})), Options{}), CodeUnboundArrowEnd)
	none(t, Run(list(rectangle("panel", 0, 0, 1000, 1000), arrow("a", 300, 300, [][2]float64{{0, 0}, {200, 0}})), Options{}), CodeUnboundArrowEnd)
}

func TestZeroLength(t *testing.T) {
	a := arrow("a", 5, 5, [][2]float64{{0, 0}, {0.5, 0.2}})
	l := linear("line", "l", 5, 5, [][2]float64{{0, 0}})
	fs := Run(list(a, l), only(CodeZeroLength))
	if f := expect(t, fs, CodeZeroLength, "a"); f.Suggestion["action"] != "delete" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	expect(t, fs, CodeZeroLength, "l")
	none(t, Run(list(arrow("a", 0, 0, [][2]float64{{0, 0}, {10, 0}})), Options{}), CodeZeroLength)
}

func TestArrowThroughShape(t *testing.T) {
	els := built(t,
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":100}`,
		`{"type":"rectangle","id":"mid","x":250,"y":20,"width":100,"height":60}`,
		`{"type":"rectangle","id":"b","x":500,"y":0,"width":100,"height":100}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}`,
	)
	f := expect(t, Run(els, only(CodeArrowThroughShape)), CodeArrowThroughShape, "ab", "mid")
	if f.Suggestion != nil {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	// The bound ends' shapes are not crossed.
	if n := len(find(Run(els, Options{}), CodeArrowThroughShape)); n != 1 {
		t.Errorf("%d findings", n)
	}

	cases := map[string][]*ojson.Object{
		"above": built(t,
			`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":100}`,
			`{"type":"rectangle","id":"mid","x":250,"y":200,"width":100,"height":60}`,
			`{"type":"rectangle","id":"b","x":500,"y":0,"width":100,"height":100}`,
			`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}`),
		"inside a panel": list(rectangle("panel", 0, 0, 1000, 1000), arrow("a", 100, 100, [][2]float64{{0, 0}, {300, 0}})),
		"grazing":        list(rectangle("r", 0, 0, 100, 100), arrow("a", 80, -18, [][2]float64{{0, 0}, {40, 40}})), // cuts the corner 1 px deep
		"same group":     list(rectangle("r", 0, 0, 100, 100, kv{"groupIds": []any{"g"}}), arrow("a", -50, 50, [][2]float64{{0, 0}, {200, 0}}, kv{"groupIds": []any{"g"}})),
		"a line":         list(rectangle("r", 0, 0, 100, 100), linear("line", "l", -50, 50, [][2]float64{{0, 0}, {200, 0}})),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeArrowThroughShape); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
	// Cutting the same corner 5 px deep is crossing.
	expect(t, Run(list(rectangle("r", 0, 0, 100, 100), arrow("a", 80, -10, [][2]float64{{0, 0}, {40, 40}})), Options{}), CodeArrowThroughShape, "a", "r")
	// Elbow paths are checked segment by segment.
	elbow := arrow("e", -50, 50, [][2]float64{{0, 0}, {0, -100}, {200, -100}, {200, 0}})
	none(t, Run(list(rectangle("r", 0, 0, 100, 100), elbow), Options{}), CodeArrowThroughShape)
	cut := arrow("e", -50, -50, [][2]float64{{0, 0}, {100, 0}, {100, 200}})
	expect(t, Run(list(rectangle("r", 0, 0, 100, 100), cut), Options{}), CodeArrowThroughShape, "e", "r")
}

func TestOcclusion(t *testing.T) {
	under := rectangle("under", 20, 20, 60, 40)
	lbl := label(under, "ul", "hidden")
	cover := rectangle("cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff"})
	fs := Run(list(under, lbl, cover), only(CodeOcclusion))
	f := expect(t, fs, CodeOcclusion, "cover", "under")
	if f.Suggestion["action"] != "reorder" || f.Suggestion["id"] != "under" || f.Suggestion["above"] != "cover" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	if len(fs) != 1 {
		t.Errorf("the label is reported with its container:\n%s", dump(fs))
	}
	// Free text and arrows are content too.
	tx := text("t", 10, 10, "note")
	expect(t, Run(list(tx, cover), only(CodeOcclusion)), CodeOcclusion, "cover", "t")

	cases := map[string][]*ojson.Object{
		"cover below": list(rectangle("cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff"}), rectangle("under", 20, 20, 60, 40)),
		"translucent": list(rectangle("under", 20, 20, 60, 40), rectangle("cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff", "opacity": 60.0})),
		"alpha fill":  list(rectangle("under", 20, 20, 60, 40), rectangle("cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff80"})),
		"hachure":     list(rectangle("under", 20, 20, 60, 40), rectangle("cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff", "fillStyle": "hachure"})),
		"transparent": list(rectangle("under", 20, 20, 60, 40), rectangle("cover", 0, 0, 200, 200)),
		"partial":     list(rectangle("under", 150, 20, 100, 40), rectangle("cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff"})),
		"ellipse edge": list(rectangle("under", 0, 0, 40, 40),
			shape("ellipse", "cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff"})),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeOcclusion); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
}

func TestOcclusionFollowsIndex(t *testing.T) {
	// In array order the cover is last, but its fractional index puts it
	// first: it is drawn below.
	under := rectangle("under", 20, 20, 60, 40, kv{"index": "a1"})
	cover := rectangle("cover", 0, 0, 200, 200, kv{"backgroundColor": "#a5d8ff", "index": "a0"})
	none(t, Run(list(under, cover), Options{}), CodeOcclusion)
	// Without indices on every element, array order decides.
	cover.Delete("index")
	expect(t, Run(list(under, cover), Options{}), CodeOcclusion, "cover", "under")
}

func TestOffCanvasOutlier(t *testing.T) {
	els := list(rectangle("a", 0, 0, 100, 100), rectangle("b", 200, 0, 100, 100), rectangle("c", 0, 200, 100, 100),
		rectangle("far", 50000, 100, 100, 100))
	f := expect(t, Run(els, only(CodeOffCanvas)), CodeOffCanvas, "far")
	if f.Suggestion["action"] != "move" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	resolves(t, els, f)

	// Negative: two elements have no cluster; a spread-out drawing is
	// not an outlier of itself; labels travel with their container.
	none(t, Run(list(rectangle("a", 0, 0, 10, 10), rectangle("far", 90000, 0, 10, 10)), Options{}), CodeOffCanvas)
	none(t, Run(list(rectangle("a", 0, 0, 100, 100), rectangle("b", 3000, 0, 100, 100), rectangle("c", 6000, 0, 100, 100)), Options{}), CodeOffCanvas)
	c := rectangle("c", 0, 0, 100, 50)
	none(t, Run(list(c, label(c, "l", "x"), rectangle("d", 200, 0, 10, 10)), Options{}), CodeOffCanvas)
}

func TestNearDuplicate(t *testing.T) {
	a := rectangle("a", 0, 0, 100, 50)
	la := label(a, "la", "same")
	b := rectangle("b", 1, 0.5, 100.5, 50)
	lb := label(b, "lb", "same")
	els := list(a, la, b, lb)
	fs := Run(els, only(CodeNearDuplicate))
	f := expect(t, fs, CodeNearDuplicate, "a", "b")
	if f.Suggestion["action"] != "delete" || f.Suggestion["id"] != "b" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	if len(fs) != 1 {
		t.Errorf("labels are compared with their containers:\n%s", dump(fs))
	}
	// Twins are not also an overlap.
	none(t, Run(els, Options{}), CodeOverlap)
	// Arrows compare their points.
	p := [][2]float64{{0, 0}, {100, 0}}
	expect(t, Run(list(arrow("x", 0, 0, p), arrow("y", 0, 1, p)), Options{}), CodeNearDuplicate, "x", "y")

	cases := map[string][]*ojson.Object{
		"moved":      list(rectangle("a", 0, 0, 100, 50), rectangle("b", 5, 0, 100, 50)),
		"colour":     list(rectangle("a", 0, 0, 100, 50), rectangle("b", 0, 0, 100, 50, kv{"backgroundColor": "#ffc9c9"})),
		"type":       list(rectangle("a", 0, 0, 100, 50), shape("ellipse", "b", 0, 0, 100, 50)),
		"text":       list(text("a", 0, 0, "one"), text("b", 0, 0, "two")),
		"arrow back": list(arrow("x", 0, 0, [][2]float64{{0, 0}, {100, 0}}), arrow("y", 100, 0, [][2]float64{{0, 0}, {-100, 0}})),
	}
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeNearDuplicate); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
}

func TestTinyText(t *testing.T) {
	tx := text("t", 0, 0, "fine print", kv{"fontSize": 8.0})
	els := list(tx)
	f := expect(t, Run(els, only(CodeTinyText)), CodeTinyText, "t")
	if f.Suggestion["field"] != "fontSize" || f.Suggestion["value"] != suggestedFontSize {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	resolves(t, els, f)
	none(t, Run(list(text("t", 0, 0, "readable", kv{"fontSize": 12.0})), Options{}), CodeTinyText)

	// A footnote far smaller than the texts around it is found.
	note := list(text("a", 0, 0, "ip: 172.16.199.254/22"), text("b", 0, 60, "range usable"),
		text("n", 0, 30, "the last address of the network", kv{"fontSize": 6.5}))
	expect(t, Run(note, only(CodeTinyText)), CodeTinyText, "n")

	// A small table, every cell the same size, is drawn to be read
	// zoomed in: not one cell is found; nor a caption a little smaller
	// than its 9 px neighbours.
	var cells []*ojson.Object
	for i := range 6 {
		cells = append(cells, text(fmt.Sprintf("c%d", i), float64(100*(i%3)), float64(20*(i/3)), "<timestamp>", kv{"fontSize": 8.22}))
	}
	if fs := find(Run(cells, Options{}), CodeTinyText); len(fs) > 0 {
		t.Errorf("a table of 8.22 px cells: %s", dump(fs))
	}
	caption := list(text("s", 0, 0, "Storage:", kv{"fontSize": 8.84}), text("r", 0, 20, "Role: k3s worker", kv{"fontSize": 9.23}),
		text("u", 0, 40, "2x USB 2.0 flash drives", kv{"fontSize": 7.5}))
	if fs := find(Run(caption, Options{}), CodeTinyText); len(fs) > 0 {
		t.Errorf("a caption among 9 px texts: %s", dump(fs))
	}
	// Far apart, each 8 px text has no peer near; the scene's are 8 px.
	apart := list(text("p", 0, 0, "left", kv{"fontSize": 8.0}), text("q", 2000, 0, "right", kv{"fontSize": 8.0}))
	if fs := find(Run(apart, Options{}), CodeTinyText); len(fs) > 0 {
		t.Errorf("a scene all in 8 px: %s", dump(fs))
	}
}

func TestLowContrast(t *testing.T) {
	pale := text("pale", 0, 0, "pale yellow", kv{"strokeColor": "#ffec99"})
	els := list(pale)
	f := expect(t, Run(els, only(CodeLowContrast)), CodeLowContrast, "pale")
	if f.Suggestion["value"] != "#1e1e1e" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	resolves(t, els, f)

	// A dark label on a dark fill: the fill is named, white suggested.
	c := rectangle("c", 0, 0, 200, 80, kv{"backgroundColor": "#343a40"})
	l := label(c, "l", "dark on dark")
	els = list(c, l)
	f = expect(t, Run(els, only(CodeLowContrast)), CodeLowContrast, "c", "l")
	if f.Suggestion["value"] != "#ffffff" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	resolves(t, els, f)

	// Free text over a filled shape is read against the fill.
	panel := rectangle("panel", 0, 0, 400, 400, kv{"backgroundColor": "#1e1e1e"})
	expect(t, Run(list(panel, text("t", 50, 50, "default ink")), only(CodeLowContrast)), CodeLowContrast, "panel", "t")

	// Pale grey, pale red and yellow on white (1.4–1.5:1) are hard to
	// read at any size; the fix reaches 4.5:1.
	for _, pale := range []string{"#ced4da", "#ffc9c9", "#ffd43b"} {
		for _, size := range []float64{16, 36} {
			els := list(text("g", 0, 0, "pale", kv{"strokeColor": pale, "fontSize": size}))
			f := expect(t, Run(els, only(CodeLowContrast)), CodeLowContrast, "g")
			if f.Suggestion["value"] != "#1e1e1e" {
				t.Errorf("%s at %g px: suggestion %v", pale, size, f.Suggestion)
			}
			resolves(t, els, f)
		}
	}

	// Excalidraw's palette pairs are chosen on purpose and read fine:
	// a stroke shade as text on the light fill of its own hue (orange on
	// orange 1.85:1, on yellow 2.1:1), grey #868e96 on white (3.3:1), and
	// the Excalidraw MCP app's strokes on Excalidraw's fills (amber on
	// orange 1.6:1), at any size.
	for _, pair := range [][2]string{{"#f08c00", "#ffec99"}, {"#f08c00", "#ffd8a8"}, {"#e03131", "#ffc9c9"}, {"#2f9e44", "#b2f2bb"},
		{"#1971c2", "#a5d8ff"}, {"#6741d9", "#d0bfff"}, {"#868e96", "#ffffff"},
		{"#f59e0b", "#ffd8a8"}, {"#22c55e", "#b2f2bb"}, {"#4a9eed", "#a5d8ff"}} {
		for _, size := range []float64{14, 20, 36} {
			box := rectangle("b", 0, 0, 300, 100, kv{"backgroundColor": pair[1]})
			lab := label(box, "l", "chosen", kv{"strokeColor": pair[0], "fontSize": size})
			free := text("f", 20, 20, "chosen", kv{"strokeColor": pair[0], "fontSize": size})
			if fs := find(Run(list(box, lab), Options{}), CodeLowContrast); len(fs) > 0 {
				t.Errorf("label %s on %s at %g px: %s", pair[0], pair[1], size, dump(fs))
			}
			if fs := find(Run(list(box, free), Options{}), CodeLowContrast); len(fs) > 0 {
				t.Errorf("text %s over %s at %g px: %s", pair[0], pair[1], size, dump(fs))
			}
		}
	}

	// A shade of the fill's hue is still found when its letters fade
	// into the fill: the fill's own colour, light red on pale red.
	for _, pair := range [][2]string{{"#ffc9c9", "#ffc9c9"}, {"#ffa8a8", "#fff5f5"}} {
		box := rectangle("b", 0, 0, 300, 100, kv{"backgroundColor": pair[1]})
		expect(t, Run(list(box, label(box, "l", "faint", kv{"strokeColor": pair[0]})), only(CodeLowContrast)), CodeLowContrast, "b", "l")
	}

	// Ink faded to opacity 20: the fix is the opacity, not the colour.
	faded := text("f", 0, 0, "faded", kv{"opacity": 20.0})
	els = list(faded)
	f = expect(t, Run(els, only(CodeLowContrast)), CodeLowContrast, "f")
	if f.Suggestion["field"] != "opacity" || f.Suggestion["value"] != 100 || !strings.Contains(f.Message, "opacity 20") {
		t.Errorf("faded: %+v", f)
	}
	resolves(t, els, f)

	// Negative: the default ink; white text on a dark canvas; a filled
	// shape drawn above the text is not its background.
	none(t, Run(list(text("t", 0, 0, "ink")), Options{}), CodeLowContrast)
	none(t, Run(list(text("t", 0, 0, "white", kv{"strokeColor": "#ffffff"})), Options{ViewBackgroundColor: "#121212"}), CodeLowContrast)
	none(t, Run(list(text("t", 50, 50, "ink"), rectangle("p", 0, 0, 400, 400, kv{"backgroundColor": "#1e1e1e", "opacity": 100.0})), only(CodeLowContrast)), CodeLowContrast)
	c2 := rectangle("c2", 0, 0, 200, 80, kv{"backgroundColor": "#343a40"})
	none(t, Run(list(c2, label(c2, "l2", "white on dark", kv{"strokeColor": "#ffffff"})), Options{}), CodeLowContrast)
}
