package build

import "math"

// normalizeAngle maps an angle into [0, 2π), the range the editor keeps
// rotations in, so one rotation has one spelling.
func normalizeAngle(a float64) float64 {
	a = math.Mod(a, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	if a >= 2*math.Pi {
		a = 0
	}
	return jsNum(a)
}
