package rough

import "testing"

func BenchmarkRectangleHachure(b *testing.B) {
	o := Defaults()
	o.Seed = 1278240551
	o.Fill = true
	o.StrokeWidth = 2
	o.HachureGap = 8
	b.ReportAllocs()
	for b.Loop() {
		Rectangle(0, 0, 300, 200, o)
	}
}

func BenchmarkCurve20(b *testing.B) {
	o := Defaults()
	o.Seed = 42
	points := make([]Point, 20)
	for i := range points {
		points[i] = Point{float64(i) * 25, float64((i * 37) % 90)}
	}
	b.ReportAllocs()
	for b.Loop() {
		Curve(points, o)
	}
}
