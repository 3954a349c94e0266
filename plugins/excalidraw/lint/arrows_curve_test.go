package lint

import "testing"

// A curved arrow is judged on its curve: the straight segments between
// its points cut a box the curve goes around, which is no finding; the
// same points unrounded pass through it.
func TestArrowThroughShapeFollowsTheCurve(t *testing.T) {
	pts := [][2]float64{{0, 0}, {400, 400}, {800, 0}}
	box := rectangle("box", 185, 185, 30, 30) // on the chord from the first point to the second
	curved := list(arrow("a", 0, 0, pts, kv{"roundness": kv{"type": 2.0}}), box)
	none(t, Run(curved, Options{}), CodeArrowThroughShape)
	straight := list(arrow("a", 0, 0, pts), rectangle("box", 185, 185, 30, 30))
	expect(t, Run(straight, Options{}), CodeArrowThroughShape, "a", "box")

	// Where the curve leaves the chord, a box on it is found.
	bulge := list(arrow("a", 0, 0, pts, kv{"roundness": kv{"type": 2.0}}), rectangle("box", 160, 215, 20, 20))
	expect(t, Run(bulge, Options{}), CodeArrowThroughShape, "a", "box")
	none(t, Run(list(arrow("a", 0, 0, pts), rectangle("box", 160, 215, 20, 20)), Options{}), CodeArrowThroughShape)
}
