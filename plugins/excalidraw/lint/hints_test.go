package lint

import (
	"fmt"
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestAlignmentNearMiss(t *testing.T) {
	a := rectangle("a", 0, 0, 100, 50)
	b := rectangle("b", 2, 100, 140, 50) // left edges 2 px apart, a column
	els := list(a, b)
	f := expect(t, Run(els, only(CodeAlignmentNearMiss)), CodeAlignmentNearMiss, "a", "b")
	if f.Severity != Info || f.Suggestion["id"] != "b" || f.Suggestion["dx"] != -2.0 || f.Suggestion["dy"] != 0.0 {
		t.Errorf("finding %+v", f)
	}
	resolves(t, els, f)

	// A row, off by 3 px at the vertical centre.
	row := list(rectangle("a", 0, 0, 100, 50), rectangle("b", 200, -7, 100, 70))
	if f := expect(t, Run(row, only(CodeAlignmentNearMiss)), CodeAlignmentNearMiss, "a", "b"); f.Suggestion["dy"] != -3.0 {
		t.Errorf("suggestion %v", f.Suggestion) // centres 25 and 28; tops 7 and bottoms 13 apart: the centre is the near miss
	}

	cases := map[string][]*ojson.Object{
		"aligned":     list(rectangle("a", 0, 0, 100, 50), rectangle("b", 0, 100, 140, 50)),
		"centred":     list(rectangle("a", 0, 0, 100, 50), rectangle("b", -20, 100, 140, 50)), // left 20 off, centres equal
		"clearly off": list(rectangle("a", 0, 0, 100, 50), rectangle("b", 10, 100, 140, 50)),
		"far apart":   list(rectangle("a", 0, 0, 100, 50), rectangle("b", 2, 1000, 140, 50)),
		"float noise": list(rectangle("a", 0, 0, 100, 50), rectangle("b", 0.000001, 100, 140, 50)),
		"rotated":     list(rectangle("a", 0, 0, 100, 50), rectangle("b", 2, 100, 140, 50, kv{"angle": 0.3})),
		// Two units (a table's cell, a legend's swatch beside it) lining up
		// across the gap between them by chance; a unit and a loose box.
		"two groups":        list(rectangle("a", 0, 0, 100, 50, kv{"groupIds": []any{"table"}}), rectangle("b", 200, 2, 100, 50, kv{"groupIds": []any{"legend"}})),
		"a group and a box": list(rectangle("a", 0, 0, 100, 50, kv{"groupIds": []any{"table"}}), rectangle("b", 200, 2, 100, 50)),
		// A swatch inside the panel that holds it, 2.5 px off its centre.
		"nested": list(rectangle("panel", 0, 0, 300, 290), rectangle("swatch", 20, 135, 50, 25)),
	}
	// Parts of one unit are still held to each other.
	expect(t, Run(list(rectangle("a", 0, 0, 100, 50, kv{"groupIds": []any{"in", "g"}}), rectangle("b", 200, 2, 100, 50, kv{"groupIds": []any{"g"}})),
		only(CodeAlignmentNearMiss)), CodeAlignmentNearMiss, "a", "b")
	for name, els := range cases {
		if fs := find(Run(els, Options{}), CodeAlignmentNearMiss); len(fs) > 0 {
			t.Errorf("%s: %s", name, dump(fs))
		}
	}
}

func TestTooManyFonts(t *testing.T) {
	els := list(text("a", 0, 0, "a", kv{"fontFamily": 5.0}), text("b", 0, 50, "b", kv{"fontFamily": 5.0}),
		text("c", 0, 100, "c", kv{"fontFamily": 6.0}), text("d", 0, 150, "d", kv{"fontFamily": 8.0}))
	f := expect(t, Run(els, only(CodeTooManyFonts)), CodeTooManyFonts, "d")
	if f.Suggestion["field"] != "fontFamily" || f.Suggestion["value"] != 5 {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	none(t, Run(els[:3], Options{}), CodeTooManyFonts)
}

func TestTooManyStrokeColors(t *testing.T) {
	colours := []string{"#1e1e1e", "#e03131", "#2f9e44", "#1971c2", "#f08c00", "#6741d9", "#0c8599"}
	var els []*ojson.Object
	for i, c := range colours {
		els = append(els, rectangle(fmt.Sprint("r", i), float64(i)*200, 0, 100, 100, kv{"strokeColor": c}))
	}
	els = append(els, rectangle("extra", 0, 300, 100, 100, kv{"strokeColor": "#1E1E1E"})) // same colour, other spelling
	// #1e1e1e is used twice; of the six used once, the alphabetically
	// last (#f08c00, on r4) is the seventh.
	fs := Run(els, only(CodeTooManyStrokeColors))
	if f := expect(t, fs, CodeTooManyStrokeColors, "r4"); f.Severity != Info {
		t.Errorf("finding %+v", f)
	}
	none(t, Run(append(els[:6:6], els[7]), Options{}), CodeTooManyStrokeColors) // six colours
}

func TestParseColor(t *testing.T) {
	for in, want := range map[string]rgba{
		"#fff":              {1, 1, 1, 1},
		"#000000":           {0, 0, 0, 1},
		"#FF000080":         {1, 0, 0, 128.0 / 255},
		"#0f08":             {0, 1, 0, 136.0 / 255},
		"transparent":       {0, 0, 0, 0},
		"White":             {1, 1, 1, 1},
		"rgb(255, 0, 0)":    {1, 0, 0, 1},
		"rgba(0,0,255,0.5)": {0, 0, 1, 0.5},
	} {
		got, ok := parseColor(in)
		if !ok || math.Abs(got.r-want.r)+math.Abs(got.g-want.g)+math.Abs(got.b-want.b)+math.Abs(got.a-want.a) > 1e-9 {
			t.Errorf("parseColor(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "#12", "#ggg", "blue-ish", "rgb(1,2)"} {
		if _, ok := parseColor(in); ok {
			t.Errorf("parseColor(%q) accepted", in)
		}
	}
	if c := contrast(rgba{0, 0, 0, 1}, white); math.Abs(c-21) > 1e-9 {
		t.Errorf("black on white = %v", c)
	}
	if c := contrast(white, white); c != 1 {
		t.Errorf("white on white = %v", c)
	}
}

func TestBindingDistance(t *testing.T) {
	for _, c := range []struct {
		typ  string
		w, h float64
		want float64
	}{
		{"rectangle", 40, 40, 16}, {"rectangle", 100, 80, 20}, {"rectangle", 400, 300, 32},
		{"diamond", 160, 160, 160 / math.Sqrt2 / 4},
	} {
		if got := bindingDistance(c.typ, c.w, c.h); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s %gx%g: %v, want %v", c.typ, c.w, c.h, got, c.want)
		}
	}
}

func TestInkAlwaysResolves(t *testing.T) {
	for v := 0; v <= 255; v += 5 {
		bg := rgba{float64(v) / 255, float64(v) / 255, float64(v) / 255, 1}
		ink, _ := parseColor(inkFor(bg, 100, contrastFix))
		if r := contrast(ink, bg); r < contrastFix {
			t.Errorf("grey %d: %s gives %.2f", v, inkFor(bg, 100, contrastFix), r)
		}
	}
	mid := rectangle("c", 0, 0, 200, 80, kv{"backgroundColor": "#808080"})
	els := list(mid, label(mid, "l", "on grey", kv{"strokeColor": "#a0a0a0"}))
	f := expect(t, Run(els, only(CodeLowContrast)), CodeLowContrast, "c", "l")
	if f.Suggestion["value"] != "#000000" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	resolves(t, els, f)
}
