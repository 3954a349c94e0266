package build

import (
	"math"
	"testing"
)

func TestNormalizeAngle(t *testing.T) {
	cases := map[float64]float64{0: 0, 1: 1, -math.Pi / 2: 3 * math.Pi / 2, 2 * math.Pi: 0, 5 * math.Pi: math.Pi, math.Copysign(0, -1): 0}
	for in, want := range cases {
		got := normalizeAngle(in)
		if math.Abs(got-want) > 1e-12 || math.Signbit(got) {
			t.Errorf("normalizeAngle(%v) = %v, want %v", in, got, want)
		}
	}
}
