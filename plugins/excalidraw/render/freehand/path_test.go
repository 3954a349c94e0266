package freehand

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestPathData(t *testing.T) {
	for _, c := range []struct {
		outline [][2]float64
		want    string // as Excalidraw's getSvgPathFromStroke writes it (checked in Node)
	}{
		{nil, ""},
		{[][2]float64{{-0.004, 2}}, "M -0.00,2 Q -0.00,2 -0.00,2 L -0.00,2 Z"},
		{[][2]float64{{0, 0}, {10.126, -3.5}, {1.5e-8, 7}}, "M 0,0 Q 0,0 5.06,-1.75 10.12,-3.5 5.06,1.75 1.5,7 7.5,3.5 L 0,0 Z"},
	} {
		if got := PathData(c.outline); got != c.want {
			t.Errorf("PathData(%v) = %q, want %q", c.outline, got, c.want)
		}
	}
}

// TestSegmentsReadPathData checks that the segments are the path text
// read back: the same commands, the same numbers.
func TestSegmentsReadPathData(t *testing.T) {
	if Segments(nil) != nil {
		t.Error("segments of no outline")
	}
	outline := Outline(Element{Points: [][2]float64{{0, 0}, {12.5, 3}, {30, -4}, {31, 20}}, StrokeWidth: 2, SimulatePressure: true})
	segs := Segments(outline)
	if len(segs) != len(outline)+3 {
		t.Fatalf("%d segments for %d points", len(segs), len(outline))
	}
	// The text: commands, each followed by its coordinates.
	var cmds []string
	var nums []float64
	for _, tok := range strings.Fields(PathData(outline)) {
		if tok[0] >= 'A' && tok[0] <= 'Z' {
			cmds = append(cmds, tok)
			continue
		}
		x, y, _ := strings.Cut(tok, ",")
		for _, v := range []string{x, y} {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			nums = append(nums, f)
		}
	}
	var gotCmds []string
	var gotNums []float64
	for i, s := range segs {
		if i == 0 || s.Kind != segs[i-1].Kind {
			gotCmds = append(gotCmds, s.Kind.String())
		}
		switch s.Kind {
		case MoveTo, LineTo:
			gotNums = append(gotNums, s.P[0][0], s.P[0][1])
		case QuadTo:
			gotNums = append(gotNums, s.P[0][0], s.P[0][1], s.P[1][0], s.P[1][1])
		}
	}
	if !slices.Equal(cmds, gotCmds) || !slices.Equal(nums, gotNums) {
		t.Errorf("segments %v %v\nread text %v %v", gotCmds, gotNums, cmds, nums)
	}
	if got := fmt.Sprint(MoveTo, QuadTo, LineTo, Close, SegmentKind(9)); got != "M Q L Z ?" {
		t.Errorf("kinds print %q", got)
	}
}

func BenchmarkPathData500(b *testing.B) {
	outline := Stroke(stroke500(), ExcalidrawOptions(Element{StrokeWidth: 2}))
	b.ReportAllocs()
	for b.Loop() {
		PathData(outline)
	}
}
