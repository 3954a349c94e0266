package freehand_test

import (
	"fmt"

	"github.com/dshgo/dsh/plugins/excalidraw/render/freehand"
)

// A freedraw element whose pen never moved is a dot: 13 outline points
// around its origin, written as Excalidraw writes them.
func ExampleOutline() {
	e := freehand.Element{Points: [][2]float64{{0, 0}, {0, 0}}, StrokeWidth: 1, SimulatePressure: true}
	outline := freehand.Outline(e)
	fmt.Println(len(outline))
	fmt.Println(freehand.PathData(outline))
	// Output:
	// 13
	// M 2.12,-0.66 Q 2.12,-0.66 2.15,-0.13 2.18,0.40 1.96,0.88 1.74,1.36 1.32,1.69 0.91,2.02 0.38,2.12 -0.13,2.21 -0.64,2.05 -1.14,1.90 -1.52,1.52 -1.90,1.14 -2.05,0.64 -2.21,0.13 -2.12,-0.38 -2.02,-0.91 -1.69,-1.32 -1.36,-1.74 -0.88,-1.96 -0.39,-2.18 0.13,-2.15 0.66,-2.11 1.11,-1.84 1.57,-1.56 1.84,-1.11 L 2.12,-0.66 Z
}

// Stroke is perfect-freehand's getStroke with any options.
func ExampleStroke() {
	o := freehand.DefaultOptions()
	o.Size = 8
	o.End.Taper = 20
	outline := freehand.Stroke([][3]float64{{0, 0, 0.5}, {10, 2, 0.6}, {20, 8, 0.7}, {30, 20, 0.4}}, o)
	fmt.Println(len(outline), "points")
	// Output:
	// 20 points
}

// Segments is the path as a rasterizer wants it.
func ExampleSegments() {
	e := freehand.Element{Points: [][2]float64{{0, 0}, {25, 10}, {50, 0}}, StrokeWidth: 2, SimulatePressure: true}
	segs := freehand.Segments(freehand.Outline(e))
	for _, s := range segs[:2] {
		fmt.Println(s.Kind, s.P)
	}
	fmt.Println(segs[len(segs)-1].Kind)
	// Output:
	// M [[1.48 -3.71] [0 0]]
	// Q [[1.48 -3.71] [8.46 -0.68]]
	// Z
}
