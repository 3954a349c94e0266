package freehand

import (
	"math"
	"testing"
)

func near(a, b vec) bool { return math.Abs(a[0]-b[0]) < 1e-12 && math.Abs(a[1]-b[1]) < 1e-12 }

func TestVec(t *testing.T) {
	a, b := vec{1, 2}, vec{4, 6}
	for _, c := range []struct {
		name      string
		got, want vec
	}{
		{"add", add(a, b), vec{5, 8}},
		{"sub", sub(b, a), vec{3, 4}},
		{"neg", neg(a), vec{-1, -2}},
		{"scale", scale(a, 3), vec{3, 6}},
		{"perp", perp(a), vec{2, -1}},
		{"unit", unit(sub(b, a)), vec{0.6, 0.8}},
		{"lerp", lerp(a, b, 0.5), vec{2.5, 4}},
		{"project", project(a, vec{0, 1}, -2), vec{1, 0}},
		{"rotate", rotate(vec{2, 0}, vec{1, 0}, math.Pi/2), vec{1, 1}},
		{"rotate back", rotate(vec{1, 1}, vec{1, 0}, -math.Pi/2), vec{2, 0}},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if dot(a, b) != 16 || dist(a, b) != 5 || dist2(a, b) != 25 {
		t.Errorf("dot, dist, dist2 = %v, %v, %v", dot(a, b), dist(a, b), dist2(a, b))
	}
	if u := unit(vec{}); !math.IsNaN(u[0]) {
		t.Errorf("unit of zero = %v", u)
	}
}
