package build

import (
	"math"
	"testing"
)

func TestRotateClockwiseOnScreen(t *testing.T) {
	// y points down, so a positive angle turns right-pointing into
	// down-pointing.
	p := rotate(vec{10, 0}, vec{0, 0}, math.Pi/2)
	if math.Abs(p.x) > 1e-12 || math.Abs(p.y-10) > 1e-12 {
		t.Fatalf("rotate = %v, want (0, 10)", p)
	}
	if rotate(vec{3, 4}, vec{1, 1}, 0) != (vec{3, 4}) {
		t.Fatal("zero rotation moved the point")
	}
}

func TestSegmentDistance(t *testing.T) {
	cases := []struct {
		p, a, b vec
		want    float64
	}{
		{vec{0, 5}, vec{-10, 0}, vec{10, 0}, 5},
		{vec{13, 4}, vec{-10, 0}, vec{10, 0}, 5},
		{vec{3, 4}, vec{0, 0}, vec{0, 0}, 5},
	}
	for _, c := range cases {
		if got := segmentDistance(c.p, c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("segmentDistance(%v, %v, %v) = %v, want %v", c.p, c.a, c.b, got, c.want)
		}
	}
}

func TestSegmentIntersection(t *testing.T) {
	p, ok := segmentIntersection(vec{0, 0}, vec{10, 10}, vec{0, 10}, vec{10, 0})
	if !ok || p != (vec{5, 5}) {
		t.Fatalf("crossing diagonals: %v, %v", p, ok)
	}
	if _, ok := segmentIntersection(vec{0, 0}, vec{1, 1}, vec{5, 0}, vec{6, -1}); ok {
		t.Fatal("disjoint segments intersect")
	}
	if _, ok := segmentIntersection(vec{0, 0}, vec{1, 0}, vec{0, 1}, vec{1, 1}); ok {
		t.Fatal("parallel segments intersect")
	}
}

func TestVecUnit(t *testing.T) {
	if (vec{}).unit() != (vec{}) {
		t.Fatal("unit of zero")
	}
	if u := (vec{3, 4}).unit(); math.Abs(u.length()-1) > 1e-12 {
		t.Fatalf("unit length %v", u.length())
	}
}
