package geom

import (
	"math"
	"testing"
)

func TestCornerRadius(t *testing.T) {
	cases := []struct {
		x    float64
		kind int
		want float64
	}{
		{100, 0, 0},
		{100, RoundnessProportional, 25},
		{100, 1, 25},
		{100, RoundnessAdaptive, 25},
		{200, RoundnessAdaptive, 32},
		{128, RoundnessAdaptive, 32},
	}
	for _, c := range cases {
		if got := CornerRadius(c.x, c.kind); got != c.want {
			t.Errorf("cornerRadius(%v, %d) = %v, want %v", c.x, c.kind, got, c.want)
		}
	}
}

func TestOutlines(t *testing.T) {
	cases := []struct {
		s       Shape
		inside  []Vec
		outside []Vec
	}{
		{Shape{Type: "rectangle", W: 100, H: 50}, []Vec{{1, 1}, {99, 49}}, []Vec{{101, 25}, {-1, 0}}},
		// Rounded corners cut the box's corner off.
		{Shape{Type: "rectangle", W: 100, H: 50, Roundness: RoundnessAdaptive}, []Vec{{50, 1}}, []Vec{{1, 1}}},
		{Shape{Type: "ellipse", W: 100, H: 50}, []Vec{{50, 25}, {2, 25}}, []Vec{{5, 5}, {95, 45}}},
		// getDiamondPoints puts the top vertex at floor(w/2)+1.
		{Shape{Type: "diamond", W: 100, H: 50, Roundness: 0}, []Vec{{51, 1}, {50, 26}}, []Vec{{10, 5}, {51, -1}}},
		{Shape{Type: "diamond", W: 100, H: 50, Roundness: RoundnessProportional}, []Vec{{50, 26}}, []Vec{{51, 1}}},
		{Shape{Type: "rectangle", X: 0, Y: 0, W: 100, H: 10, Angle: math.Pi / 2}, []Vec{{50, -30}, {50, 40}}, []Vec{{5, 5}, {95, 5}}},
	}
	for _, c := range cases {
		poly := c.s.Outline()
		for _, p := range c.inside {
			if PolygonDistance(poly, p) != 0 {
				t.Errorf("%+v: %v should be inside", c.s, p)
			}
		}
		for _, p := range c.outside {
			if PolygonDistance(poly, p) == 0 {
				t.Errorf("%+v: %v should be outside", c.s, p)
			}
		}
	}
}

func TestEllipseOutlineAccuracy(t *testing.T) {
	poly := Shape{Type: "ellipse", W: 1000, H: 1000}.Outline()
	// The sampled polygon stays within a twentieth of a pixel of the
	// true circle of radius 500.
	for i := range 360 {
		a := float64(i) * math.Pi / 180
		p := Vec{500 + 500*math.Cos(a), 500 + 500*math.Sin(a)}
		if d := PolygonDistance(poly, p); d > 0.05 {
			t.Fatalf("circle point at %d° is %v outside the polygon", i, d)
		}
	}
}

func TestPolygonDistanceDegenerate(t *testing.T) {
	flat := Shape{Type: "rectangle", W: 100, H: 0}.Outline()
	if d := PolygonDistance(flat, Vec{50, 3}); math.Abs(d-3) > 1e-12 {
		t.Fatalf("distance to a flat box %v, want 3", d)
	}
	if !math.IsInf(PolygonDistance(nil, Vec{}), 1) {
		t.Fatal("distance to nothing should be infinite")
	}
}
