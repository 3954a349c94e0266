package rough

import (
	"math"
	"testing"
	"time"
)

// Inputs on which rough.js never returns, or returns NaN, give an empty
// Drawable here, and quickly.
func TestUnboundedInputsGiveNothing(t *testing.T) {
	o := Defaults()
	o.Fill = true
	negativeSteps := o
	negativeSteps.CurveStepCount = -5
	zeroZigzag := o
	zeroZigzag.FillStyle = ZigZagLine
	zeroZigzag.ZigzagOffset = 0
	tinyGap := o
	tinyGap.HachureGap = 0.1
	for name, call := range map[string]func() Drawable{
		"arc with negative step count":     func() Drawable { return Arc(0, 0, 100, 100, 0, 1, false, negativeSteps) },
		"ellipse with negative step count": func() Drawable { return Ellipse(0, 0, 100, 100, negativeSteps) },
		"zigzag-line with zero offset":     func() Drawable { return Rectangle(0, 0, 100, 100, zeroZigzag) },
		"huge hachure":                     func() Drawable { return Rectangle(0, 0, 1e9, 1e9, tinyGap) },
		"huge ellipse":                     func() Drawable { return Ellipse(0, 0, 1e300, 1e300, o) },
		"arc start far below 0":            func() Drawable { return Arc(0, 0, 10, 10, -1e12, 1, true, o) },
		"overflowing rectangle":            func() Drawable { return Rectangle(-1e308, 0, 1e308, 1e308, Defaults()) },
		"NaN coordinate":                   func() Drawable { return Line(math.NaN(), 0, 1, 1, o) },
		"infinite option":                  func() Drawable { return Circle(0, 0, 10, Options{Roughness: math.Inf(1)}) },
		"curve of no points":               func() Drawable { return Curve(nil, o) },
	} {
		start := time.Now()
		d := call()
		if len(d.Sets) != 0 {
			t.Errorf("%s: %d sets, want none", name, len(d.Sets))
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("%s: took %v", name, took)
		}
	}
}

func TestOrdinaryShapesStayWithinTheLimit(t *testing.T) {
	o := Defaults()
	o.Fill = true
	o.FillStyle = CrossHatch
	o.HachureGap = 1
	if d := Rectangle(0, 0, 20000, 20000, o); len(d.Sets) != 2 {
		t.Errorf("a 20000 px square: %d sets, want fill and outline", len(d.Sets))
	}
}
