package rough

import (
	"math"
	"testing"
)

// FuzzShapes calls a shape with arbitrary finite numbers and options: no
// panic, no NaN or infinity in the ops, and no more ops than the work limit
// allows (limits.go).
func FuzzShapes(f *testing.F) {
	f.Add(uint8(0), 10.0, 20.0, 100.0, 50.0, 0.0, 1.0, int32(1), 1.0, -1.0, -41.0, uint8(0), uint8(0), "")
	f.Add(uint8(1), 0.0, 0.0, 1e9, 1e-9, 3.0, 6.0, int32(0), 2.0, 0.1, 90.0, uint8(1), uint8(0xff), "")
	f.Add(uint8(5), -5.0, 5.0, 5.0, -5.0, 1.0, 1.0, int32(-1), 0.0, 4.0, 0.0, uint8(4), uint8(3), "")
	f.Add(uint8(6), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, int32(7), 1.5, 8.0, 45.0, uint8(2), uint8(1),
		"M 8 0 L 92 0 Q 100 0, 100 8 L 100 42 C 100 50, 92 50, 92 50 Z")
	f.Add(uint8(6), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, int32(9), 1.0, 8.0, 45.0, uint8(5), uint8(2),
		"m10 10 a 30 20 15 1 0 50 -40 h -20 v 30 s 5 5 10 0 t 5 5 z M 3 3")
	f.Add(uint8(7), 0.0, 0.0, 50.0, 50.0, 1.0, 1.0, int32(3), 1.0, 4.0, 30.0, uint8(6), uint8(0), "")
	f.Fuzz(func(t *testing.T, shape uint8, a, b, c, d, e, g float64, seed int32,
		roughness, gap, angle float64, style, flags uint8, path string) {
		for _, v := range []float64{a, b, c, d, e, g, roughness, gap, angle} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return // rough.js is not defined for non-finite input
			}
		}
		o := Defaults()
		o.Seed = seed
		o.Roughness = roughness
		o.HachureGap = gap
		o.HachureAngle = angle
		o.CurveStepCount = 9 + e
		o.ZigzagOffset = g
		o.FillStyle = allFillStyles[int(style)%len(allFillStyles)]
		o.Fill = flags&1 != 0
		o.Stroke = flags&2 == 0
		o.DisableMultiStroke = flags&4 != 0
		o.DisableMultiStrokeFill = flags&8 != 0
		o.PreserveVertices = flags&16 != 0
		if flags&32 != 0 {
			o.Simplification = 0.5
		}
		points := []Point{{a, b}, {c, d}, {e, g}, {a + c, b - d}}[:1+int(flags>>6)]
		var dr Drawable
		inputOps := 8 * len(points)
		switch shape % 8 {
		case 0:
			dr = Rectangle(a, b, c, d, o)
		case 1:
			dr = Ellipse(a, b, c, d, o)
		case 2:
			dr = Line(a, b, c, d, o)
		case 3:
			dr = LinearPath(points, o)
		case 4:
			dr = Polygon(points, o)
		case 5:
			dr = Curve(points, o)
		case 6:
			var err error
			if dr, err = Path(path, o); err != nil {
				return
			}
			inputOps = 16 * len(path)
		case 7:
			dr = Arc(a, b, c, d, e, g, flags&64 != 0, o)
		}
		n := 0
		for _, set := range dr.Sets {
			for _, op := range set.Ops {
				for _, v := range op.Data {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("non-finite op %v in %s", op, dr.Shape)
					}
				}
			}
			n += len(set.Ops)
		}
		if limit := 16*maxWork + inputOps + 64; n > limit {
			t.Fatalf("%s: %d ops, more than %d", dr.Shape, n, limit)
		}
	})
}
