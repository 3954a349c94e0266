package build

import "testing"

func TestTextStyleLineHeights(t *testing.T) {
	want := map[int]float64{1: 1.25, 2: 1.15, 3: 1.2, 5: 1.25, 6: 1.35, 7: 1.15, 8: 1.25, 9: 1.15}
	for f, lh := range want {
		if got := (textStyle{fontFamily: f}).lineHeight(); got != lh {
			t.Errorf("font %d line height %v, want %v", f, got, lh)
		}
	}
}

func TestMeasuredHeightIsLinesTimesLineHeight(t *testing.T) {
	ts := textStyle{fontSize: 16, fontFamily: 6}
	size, lh := 16.0, 1.35
	if _, h := ts.measure("a\nb\nc"); h != size*lh*3 { // fontSize × lineHeight × lines, in that order, as in JS
		t.Fatalf("height %v", h)
	}
}
