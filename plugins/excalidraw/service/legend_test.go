package service

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// TestLayLegend: the box holds every part with room to spare; each
// swatch and its label share a centre line; labels share a left edge;
// sizes come from the type scale (title the next size above body).
func TestLayLegend(t *testing.T) {
	p := profile.Profile{TypeScale: map[string]float64{"caption": 12, "body": 14, "subheading": 18, "title": 30}, Spacing: 30}
	entries := []LegendEntry{{Label: "stores data", Kind: "box", Fill: "#b2f2bb", Stroke: "#1e1e1e", StrokeStyle: "solid"},
		{Label: "async call", Kind: "line", Stroke: "#1e1e1e", StrokeStyle: "dashed"}}
	l := layLegend(p, "Legend", entries, geom.V(100, 50), "lgd_test")
	var els []map[string]any
	for _, raw := range l.inputs {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		els = append(els, m)
	}
	if len(els) != 1+1+2*len(entries) || els[0]["type"] != "rectangle" {
		t.Fatalf("%d inputs, first %v", len(els), els[0]["type"])
	}
	box := geom.R(100, 50, 100+l.w, 50+l.h)
	num := func(m map[string]any, k string) float64 { f, _ := m[k].(float64); return f }
	bounds := func(m map[string]any) geom.Rect {
		x, y := num(m, "x"), num(m, "y")
		switch m["type"] {
		case "text":
			s := textmetrics.Measure(m["text"].(string), textmetrics.FontFamily(num(m, "fontFamily")), num(m, "fontSize"))
			return geom.R(x, y, x+s.Width, y+s.Height)
		case "line":
			end := m["points"].([]any)[1].([]any)
			return geom.R(x, y, x+end[0].(float64), y+end[1].(float64))
		}
		return geom.R(x, y, x+num(m, "width"), y+num(m, "height"))
	}
	for _, m := range els[1:] {
		if b := bounds(m); b.MinX < box.MinX+10 || b.MaxX > box.MaxX-10 || b.MinY < box.MinY+10 || b.MaxY > box.MaxY-10 {
			t.Errorf("%v %q at %v is not well inside the box %v", m["type"], m["text"], b, box)
		}
	}
	if els[1]["fontSize"] != 18.0 {
		t.Errorf("title size %v, want the scale's next size above body (18)", els[1]["fontSize"])
	}
	labelX := -1.0
	for i := 2; i < len(els); i += 2 {
		sw, lb := els[i], els[i+1]
		if lb["fontSize"] != 14.0 {
			t.Errorf("label size %v, want body 14", lb["fontSize"])
		}
		mid := num(sw, "y") + num(sw, "height")/2
		s := textmetrics.Measure(lb["text"].(string), textmetrics.FontFamily(num(lb, "fontFamily")), 14)
		if lm := num(lb, "y") + s.Height/2; math.Abs(lm-mid) > 0.51 {
			t.Errorf("entry %d: swatch centre %v, label centre %v", i/2, mid, lm)
		}
		if labelX >= 0 && num(lb, "x") != labelX {
			t.Errorf("labels start at %v and %v", labelX, num(lb, "x"))
		}
		labelX = num(lb, "x")
	}
	if len(l.tags) != len(els) {
		t.Fatalf("%d tags for %d inputs", len(l.tags), len(els))
	}

	// Without a type scale: 16 and 20.
	plain := layLegend(profile.Profile{}, "Key", entries[:1], geom.V(0, 0), "lgd_x")
	var title, label map[string]any
	_ = json.Unmarshal(plain.inputs[1], &title)
	_ = json.Unmarshal(plain.inputs[3], &label)
	if title["fontSize"] != 20.0 || label["fontSize"] != 16.0 {
		t.Errorf("sizes without a profile: title %v, label %v", title["fontSize"], label["fontSize"])
	}
}
