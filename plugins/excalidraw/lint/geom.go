package lint

import (
	"math"
)

// round2 rounds to hundredths, for suggestions people and agents read.
func round2(x float64) float64 { return math.Round(x*100) / 100 }

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
