package freehand

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestStrokeEmpty(t *testing.T) {
	if o := Stroke(nil, DefaultOptions()); o != nil {
		t.Errorf("no points: %v", o)
	}
	for _, size := range []float64{0, -1} {
		o := DefaultOptions()
		o.Size = size
		if got := Stroke([][3]float64{{0, 0, 0.5}, {5, 5, 0.5}}, o); got != nil {
			t.Errorf("size %v: %v", size, got)
		}
	}
}

func TestStrokeDot(t *testing.T) {
	// A stroke that never leaves its point is a full turn of 13 points
	// around it, at the radius for its pressure: 16·(0.5 - 0.5·(0.5 - 1))
	// = 12 with no easing. (A single input point gains a second one a unit
	// away, and becomes a short capsule.)
	o := DefaultOptions()
	o.SimulatePressure = false
	out := Stroke([][3]float64{{5, 5, 1}, {5, 5, 1}}, o)
	if len(out) != 13 {
		t.Fatalf("%d points", len(out))
	}
	for i, p := range out {
		if r := dist(p, vec{5, 5}); math.Abs(r-12) > 1e-9 {
			t.Errorf("point %d at distance %v", i, r)
		}
	}
}

func TestStrokeStraightLine(t *testing.T) {
	// A straight stroke of constant width (no thinning): both sides at
	// Size/2 from the axis, round caps reaching Size/2 beyond the ends.
	var in [][3]float64
	for x := 0.0; x <= 100; x += 2 {
		in = append(in, [3]float64{x, 0, 0.5})
	}
	o := Options{Size: 10, Smoothing: 0.5, Streamline: 0.5, Last: true}
	out := Stroke(in, o)
	minX, maxX, maxY := math.Inf(1), math.Inf(-1), 0.0
	for _, p := range out {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		maxY = math.Max(maxY, math.Abs(p[1]))
	}
	if math.Abs(minX+5) > 0.05 || math.Abs(maxX-105) > 0.05 || math.Abs(maxY-5) > 1e-9 {
		t.Errorf("x from %v to %v, |y| up to %v", minX, maxX, maxY)
	}
}

func TestStrokeCapsAndTapers(t *testing.T) {
	in := [][3]float64{{0, 0, 0.5}, {30, 0, 0.5}, {60, 0, 0.5}, {90, 0, 0.5}}
	base := Options{Size: 8, Thinning: 0.5, Smoothing: 0.5, Streamline: 0.5, Last: true}
	count := func(o Options) int { return len(Stroke(in, o)) }
	round := count(base)
	square := base
	square.Start.NoCap, square.End.NoCap = true, true
	// A round start cap is 13 points and a round end 29 (1/29 added up
	// falls short of 1 once more); square ones 4.
	if got := count(square); got != round-13-29+4+4 {
		t.Errorf("square caps: %d points, round %d", got, round)
	}
	tapered := base
	tapered.Start.TaperAll, tapered.End.Taper = true, 20
	// A tapered start has no cap, a tapered end just its last point.
	if got := count(tapered); got != round-13-29+1 {
		t.Errorf("tapered: %d points, round %d", got, round)
	}
}

func TestStrokeSharpCorner(t *testing.T) {
	// Going out and straight back turns around a half circle of 14 points
	// a side, π/13 apart: the nearest to the tip is π/26 off it.
	in := [][3]float64{{0, 0, 0.5}, {50, 0, 0.5}, {100, 0, 0.5}, {50, 0, 0.5}, {0, 0, 0.5}}
	o := Options{Size: 8, Smoothing: 0.5, Streamline: 0, Last: true}
	out := Stroke(in, o)
	maxX := 0.0
	for _, p := range out {
		maxX = math.Max(maxX, p[0])
	}
	if want := 100 + 4*math.Cos(math.Pi/26); math.Abs(maxX-want) > 1e-3 {
		t.Errorf("turn reaches x = %v, want %v", maxX, want)
	}
}

// stroke500 is a wavy 500-point stroke with varying pressure.
func stroke500() [][3]float64 {
	r := rand.New(rand.NewPCG(1, 500))
	pts := make([][3]float64, 500)
	for i := range pts {
		t := float64(i) / 10
		pts[i] = [3]float64{t * 12, 40 * math.Sin(t/3), 0.3 + 0.4*r.Float64()}
	}
	return pts
}

func BenchmarkStroke500(b *testing.B) {
	in := stroke500()
	o := ExcalidrawOptions(Element{StrokeWidth: 2})
	b.ReportAllocs()
	for b.Loop() {
		Stroke(in, o)
	}
}
