package rough

import (
	"math"
	"testing"
)

func TestToFixed9(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{
		{0.1234567894, 0.123456789},
		{0.0009765625, 0.000976563}, // a tie at the 10th decimal: away from zero
		{-0.0009765625, -0.000976563},
		{1.5, 1.5},
		{-1e-12, math.Copysign(0, -1)},
	} {
		got := toFixed9(tc.x)
		if got != tc.want || math.Signbit(got) != math.Signbit(tc.want) {
			t.Errorf("toFixed9(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}
