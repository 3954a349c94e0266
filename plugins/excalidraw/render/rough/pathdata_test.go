package rough

import (
	"errors"
	"reflect"
	"testing"
)

func TestParsePathData(t *testing.T) {
	for _, tc := range []struct {
		d    string
		want []pathSeg
	}{
		{"M1 2 3 4", []pathSeg{{'M', []float64{1, 2}}, {'L', []float64{3, 4}}}},
		{"m1,2,3,4z", []pathSeg{{'m', []float64{1, 2}}, {'l', []float64{3, 4}}, {'z', []float64{}}}},
		{"L5 6", []pathSeg{{'M', []float64{0, 0}}, {'L', []float64{5, 6}}}},
		{"M1.5.5-2e1+.5E-1", []pathSeg{{'M', []float64{1.5, 0.5}}, {'L', []float64{-20, 0.05}}}},
		{"M1. -0", []pathSeg{{'M', []float64{1, 0}}}},
		{"", nil},
	} {
		got, err := parsePathData(tc.d)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parse %q = %v, %v; want %v", tc.d, got, err, tc.want)
		}
	}
	for _, d := range []string{
		"M 0 0 X 1 1", // not path data
		"M 0 0 L 1",   // ends short
		"M 0 0 L 1 Z", // a command where a number belongs
		"M 0 0 1e",    // an exponent without digits
		"M 0 0 Z 5 5", // rough.js loops for ever here
		"M 0 0 L - 5",
	} {
		if _, err := parsePathData(d); !errors.Is(err, errPathData) {
			t.Errorf("parse %q: error %v, want errPathData", d, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	segs, err := parsePathData("M 0 0 h 10 v 10 q 10 0 10 10 t 0 10 s 5 5 10 0 Z")
	if err != nil {
		t.Fatal(err)
	}
	var keys []byte
	for _, s := range normalize(absolutize(segs)) {
		keys = append(keys, s.key)
	}
	if string(keys) != "MLLCCCZ" {
		t.Errorf("normalized to %s, want MLLCCCZ", keys)
	}
	q := normalize(absolutize([]pathSeg{{'M', []float64{0, 0}}, {'Q', []float64{3, 3, 6, 0}}}))
	if want := []float64{2, 2, 4, 2, 6, 0}; !reflect.DeepEqual(q[1].data, want) {
		t.Errorf("Q as C: %v, want %v", q[1].data, want)
	}
}

func TestCleanPathData(t *testing.T) {
	for in, want := range map[string]string{
		"M 0 0\nL - 5 -\t6":  "M 0 0 L -5 -6",
		"M0 0/(ss)/gL1 1":    "M0 0 L1 1",
		"M 0 0  L 1 1":       "M 0 0  L 1 1", // rough's double-space folding never matches
		"M -\u00a01 0 L 2 2": "M -1 0 L 2 2",
	} {
		if got := cleanPathData(in); got != want {
			t.Errorf("clean %q = %q, want %q", in, got, want)
		}
	}
}

func TestPathErrors(t *testing.T) {
	if _, err := Path("M 0 0 L x", Defaults()); !errors.Is(err, errPathData) {
		t.Errorf("bad data: %v", err)
	}
	o := Defaults()
	o.Roughness = -2 // simplification distance below 0
	if _, err := Path("M 0 0 L 10 10", o); err == nil {
		t.Error("no error for a negative simplification distance")
	}
	if d, err := Path("", Defaults()); err != nil || len(d.Sets) != 0 {
		t.Errorf("empty path: %v, %v", d, err)
	}
}
