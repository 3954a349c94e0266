package geom

import (
	"math"
	"testing"
)

func TestRotateClockwiseOnScreen(t *testing.T) {
	// y points down, so a positive angle turns right-pointing into
	// down-pointing.
	p := Rotate(Vec{10, 0}, Vec{0, 0}, math.Pi/2)
	if math.Abs(p.X) > 1e-12 || math.Abs(p.Y-10) > 1e-12 {
		t.Fatalf("rotate = %v, want (0, 10)", p)
	}
	if Rotate(Vec{3, 4}, Vec{1, 1}, 0) != (Vec{3, 4}) {
		t.Fatal("zero rotation moved the point")
	}
}

func TestSegmentDistance(t *testing.T) {
	cases := []struct {
		p, a, b Vec
		want    float64
	}{
		{Vec{0, 5}, Vec{-10, 0}, Vec{10, 0}, 5},
		{Vec{13, 4}, Vec{-10, 0}, Vec{10, 0}, 5},
		{Vec{3, 4}, Vec{0, 0}, Vec{0, 0}, 5},
	}
	for _, c := range cases {
		if got := SegmentDistance(c.p, c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("segmentDistance(%v, %v, %v) = %v, want %v", c.p, c.a, c.b, got, c.want)
		}
	}
}

func TestSegmentIntersection(t *testing.T) {
	p, ok := SegmentIntersection(Vec{0, 0}, Vec{10, 10}, Vec{0, 10}, Vec{10, 0})
	if !ok || p != (Vec{5, 5}) {
		t.Fatalf("crossing diagonals: %v, %v", p, ok)
	}
	if _, ok := SegmentIntersection(Vec{0, 0}, Vec{1, 1}, Vec{5, 0}, Vec{6, -1}); ok {
		t.Fatal("disjoint segments intersect")
	}
	if _, ok := SegmentIntersection(Vec{0, 0}, Vec{1, 0}, Vec{0, 1}, Vec{1, 1}); ok {
		t.Fatal("parallel segments intersect")
	}
}

func TestVecUnit(t *testing.T) {
	if (Vec{}).Unit() != (Vec{}) {
		t.Fatal("unit of zero")
	}
	if u := (Vec{3, 4}).Unit(); math.Abs(u.Len()-1) > 1e-12 {
		t.Fatalf("unit length %v", u.Len())
	}
}
