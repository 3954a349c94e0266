package freehand

import (
	"math"
	"testing"
)

func TestElementInput(t *testing.T) {
	pts := [][2]float64{{0, 0}, {3, 4}, {6, 8}}
	for _, c := range []struct {
		name string
		e    Element
		want [][3]float64 // NaN: no pressure
	}{
		{"pressures", Element{Points: pts, Pressures: []float64{0.1, 0.2, 0.3}}, [][3]float64{{0, 0, 0.1}, {3, 4, 0.2}, {6, 8, 0.3}}},
		{"too few pressures", Element{Points: pts, Pressures: []float64{0.1}}, [][3]float64{{0, 0, 0.1}, {3, 4, nan}, {6, 8, nan}}},
		{"simulated", Element{Points: pts, Pressures: []float64{0.1, 0.2, 0.3}, SimulatePressure: true}, [][3]float64{{0, 0, nan}, {3, 4, nan}, {6, 8, nan}}},
		{"no points", Element{}, [][3]float64{{0, 0, 0.5}}},
		{"no points, simulated", Element{SimulatePressure: true}, [][3]float64{}},
	} {
		got := c.e.Input()
		if len(got) != len(c.want) {
			t.Errorf("%s: %v", c.name, got)
			continue
		}
		for i := range got {
			g, w := got[i], c.want[i]
			if g[0] != w[0] || g[1] != w[1] || g[2] != w[2] && !(math.IsNaN(g[2]) && math.IsNaN(w[2])) {
				t.Errorf("%s: point %d = %v, want %v", c.name, i, g, w)
			}
		}
	}
}

var nan = math.NaN()

func TestExcalidrawOptions(t *testing.T) {
	o := ExcalidrawOptions(Element{StrokeWidth: 2, SimulatePressure: true, LastCommitted: true})
	if o.Size != 8.5 || o.Thinning != 0.6 || o.Smoothing != 0.5 || o.Streamline != 0.5 || !o.SimulatePressure || !o.Last {
		t.Errorf("%+v", o)
	}
	if plain := func(tp Tip) bool { return tp.Taper == 0 && !tp.TaperAll && !tp.NoCap && tp.Easing == nil }; !plain(o.Start) || !plain(o.End) {
		t.Errorf("tips %+v %+v", o.Start, o.End)
	}
	if o.Easing(0) != 0 || o.Easing(1) != 1 || math.Abs(o.Easing(0.5)-math.Sqrt2/2) > 1e-15 {
		t.Error("easing is not easeOutSine")
	}
}

func TestOutlineWithoutPoints(t *testing.T) {
	// Recorded pressures: a dot at the origin, at pressure 0.5.
	out := Outline(Element{StrokeWidth: 1})
	if len(out) != 44 { // the dot gains a second point: a short capsule
		t.Errorf("%d outline points", len(out))
	}
	for _, p := range out {
		if math.Hypot(p[0], p[1]) > 4.25+2 {
			t.Errorf("point %v far from the origin", p)
		}
	}
	// Simulated pressure: nothing at all.
	if out := Outline(Element{StrokeWidth: 1, SimulatePressure: true}); out != nil {
		t.Errorf("simulated, no points: %v", out)
	}
}
