package rough_test

import (
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
)

// A filled rectangle as Excalidraw 0.18.1 asks rough.js for one: the
// element's seed, hachure fill, stroke width 2.
func ExampleRectangle() {
	o := rough.Defaults()
	o.Seed = 1278240551
	o.StrokeWidth = 2
	o.FillWeight = 1
	o.HachureGap = 8
	o.Fill = true
	d := rough.Rectangle(0, 0, 120, 60, o)
	for _, set := range d.Sets {
		first := set.Ops[0]
		fmt.Printf("%s: %d ops, first %s to (%.2f, %.2f)\n", set.Kind, len(set.Ops), first.Kind, first.Data[0], first.Data[1])
	}
	// Output:
	// fillSketch: 68 ops, first move to (0.00, 0.00)
	// path: 16 ops, first move to (1.76, 0.14)
}

// A round arrow's shaft: a curve through the element's points.
func ExampleCurve() {
	o := rough.Defaults()
	o.Seed = 42
	d := rough.Curve([]rough.Point{{0, 0}, {80, 40}, {160, 0}}, o)
	fmt.Println(d.Shape, len(d.Sets), d.Sets[0].Kind, len(d.Sets[0].Ops))
	// Output:
	// curve 1 path 6
}

// A rounded rectangle is a path, as Excalidraw draws it.
func ExamplePath() {
	o := rough.Defaults()
	o.Seed = 7
	o.PreserveVertices = true
	d, err := rough.Path("M 8 0 L 92 0 Q 100 0, 100 8 L 100 42 Q 100 50, 92 50 L 8 50 Q 0 50, 0 42 L 0 8 Q 0 0, 8 0", o)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(d.Sets), len(d.Sets[0].Ops))
	// Output:
	// 1 32
}
