package build

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
		{100, roundnessProportional, 25},
		{100, 1, 25},
		{100, roundnessAdaptive, 25},
		{200, roundnessAdaptive, 32},
		{128, roundnessAdaptive, 32},
	}
	for _, c := range cases {
		if got := cornerRadius(c.x, c.kind); got != c.want {
			t.Errorf("cornerRadius(%v, %d) = %v, want %v", c.x, c.kind, got, c.want)
		}
	}
}

func TestOutlines(t *testing.T) {
	cases := []struct {
		s       shape
		inside  []vec
		outside []vec
	}{
		{shape{typ: "rectangle", w: 100, h: 50}, []vec{{1, 1}, {99, 49}}, []vec{{101, 25}, {-1, 0}}},
		// Rounded corners cut the box's corner off.
		{shape{typ: "rectangle", w: 100, h: 50, roundness: roundnessAdaptive}, []vec{{50, 1}}, []vec{{1, 1}}},
		{shape{typ: "ellipse", w: 100, h: 50}, []vec{{50, 25}, {2, 25}}, []vec{{5, 5}, {95, 45}}},
		// getDiamondPoints puts the top vertex at floor(w/2)+1.
		{shape{typ: "diamond", w: 100, h: 50, roundness: 0}, []vec{{51, 1}, {50, 26}}, []vec{{10, 5}, {51, -1}}},
		{shape{typ: "diamond", w: 100, h: 50, roundness: roundnessProportional}, []vec{{50, 26}}, []vec{{51, 1}}},
		{shape{typ: "rectangle", x: 0, y: 0, w: 100, h: 10, angle: math.Pi / 2}, []vec{{50, -30}, {50, 40}}, []vec{{5, 5}, {95, 5}}},
	}
	for _, c := range cases {
		poly := c.s.outline()
		for _, p := range c.inside {
			if polygonDistance(poly, p) != 0 {
				t.Errorf("%+v: %v should be inside", c.s, p)
			}
		}
		for _, p := range c.outside {
			if polygonDistance(poly, p) == 0 {
				t.Errorf("%+v: %v should be outside", c.s, p)
			}
		}
	}
}

func TestEllipseOutlineAccuracy(t *testing.T) {
	poly := shape{typ: "ellipse", w: 1000, h: 1000}.outline()
	// The sampled polygon stays within a twentieth of a pixel of the
	// true circle of radius 500.
	for i := range 360 {
		a := float64(i) * math.Pi / 180
		p := vec{500 + 500*math.Cos(a), 500 + 500*math.Sin(a)}
		if d := polygonDistance(poly, p); d > 0.05 {
			t.Fatalf("circle point at %d° is %v outside the polygon", i, d)
		}
	}
}

func TestPolygonDistanceDegenerate(t *testing.T) {
	flat := shape{typ: "rectangle", w: 100, h: 0}.outline()
	if d := polygonDistance(flat, vec{50, 3}); math.Abs(d-3) > 1e-12 {
		t.Fatalf("distance to a flat box %v, want 3", d)
	}
	if !math.IsInf(polygonDistance(nil, vec{}), 1) {
		t.Fatal("distance to nothing should be infinite")
	}
}
