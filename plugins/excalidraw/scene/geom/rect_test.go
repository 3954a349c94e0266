package geom

import (
	"encoding/json"
	"testing"
)

func TestRect(t *testing.T) {
	a, b := R(0, 0, 10, 4), R(10, 2, 14, 8)
	if a.W() != 10 || a.H() != 4 || a.Area() != 40 || a.Center() != V(5, 2) || b.Diagonal() != 2*b.Center().Dist(V(10, 2)) {
		t.Fatalf("%v %v", a, b)
	}
	if !a.Intersects(b) || a.Intersects(b.Expand(-0.5)) || a.Gap(b) != 0 || a.Gap(R(13, 8, 20, 20)) != 5 {
		t.Fatal("touching boxes intersect, apart ones have a gap")
	}
	if a.Overlaps(b) || !a.Overlaps(b.Expand(0.5)) || !a.Overlaps(a) {
		t.Fatal("touching boxes do not overlap, boxes sharing area do")
	}
	if a.Intersection(b) != R(10, 2, 10, 4) || a.Union(b) != R(0, 0, 14, 8) || !a.Union(b).Contains(a) || a.Contains(b) {
		t.Fatal("intersection, union, contains")
	}
	if BoundsOf([]Vec{V(3, -1), V(-2, 5), V(0, 0)}) != R(-2, -1, 3, 5) {
		t.Fatal("bounds of points")
	}
	if j, _ := json.Marshal(a); string(j) != `{"minX":0,"minY":0,"maxX":10,"maxY":4}` {
		t.Fatal(string(j))
	}
}
