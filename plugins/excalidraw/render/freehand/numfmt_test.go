package freehand

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// What Node prints for each number: String(x), and the same through
// Excalidraw's TO_FIXED_PRECISION replacement.
var nodeNumbers = []struct {
	x           float64
	str, inPath string
}{
	{1e21, "1e+21", "1e+21"},
	{1e-7, "1e-7", "1e-7"},
	{1.5e-7, "1.5e-7", "1.5"},
	{123456789012345680000, "123456789012345680000", "123456789012345680000"},
	{0.000001, "0.000001", "0.00"},
	{1.2345e-5, "0.000012345", "0.00"},
	{math.Copysign(0, -1), "0", "0"},
	{5e-324, "5e-324", "5e-324"},
	{math.MaxFloat64, "1.7976931348623157e+308", "1.79+308"},
	{0.30000000000000004, "0.30000000000000004", "0.30"},
	{100, "100", "100"},
	{1.0 / 3, "0.3333333333333333", "0.33"},
	{-2.5e-10, "-2.5e-10", "-2.5"},
	{1e100, "1e+100", "1e+100"},
	{12345.678, "12345.678", "12345.67"},
	{-1.23456e21, "-1.23456e+21", "-1.23+21"},
	{0.00001, "0.00001", "0.00"},
	{999999999999999900000, "999999999999999900000", "999999999999999900000"},
	{-12.999, "-12.999", "-12.99"},
	{math.NaN(), "NaN", "NaN"},
	{math.Inf(-1), "-Infinity", "-Infinity"},
}

func TestNumberStrings(t *testing.T) {
	for _, c := range nodeNumbers {
		if got := jsString(c.x); got != c.str {
			t.Errorf("jsString(%v) = %q, want %q", c.x, got, c.str)
		}
		if got := pathNumber(c.x); got != c.inPath {
			t.Errorf("pathNumber(%v) = %q, want %q", c.x, got, c.inPath)
		}
	}
}

// toFixedPrecision is Excalidraw's pattern, applied to a whole path.
var toFixedPrecision = regexp.MustCompile(`(\s?[A-Z]?,?-?[0-9]*\.[0-9]{0,2})(([0-9]|e|-)*)`)

// TestNumberCutMatchesPattern checks that cutting number by number is the
// pattern's rewrite of the whole text, over numbers of every size.
func TestNumberCutMatchesPattern(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var raw, cut strings.Builder
	for i := range 8000 {
		x := (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(60)-30))
		if i%7 == 0 {
			x = math.Round(x)
		}
		sep := []string{"M ", ",", " ", " Q ", " L "}[i%5]
		raw.WriteString(sep + jsString(x))
		cut.WriteString(sep + pathNumber(x))
	}
	if got := toFixedPrecision.ReplaceAllString(raw.String(), "$1"); got != cut.String() {
		for i := range got {
			if i >= cut.Len() || got[i] != cut.String()[i] {
				t.Fatalf("differ at %d: pattern %.40q, cut %.40q", i, got[max(0, i-20):], cut.String()[max(0, i-20):])
			}
		}
	}
}

func TestPathValue(t *testing.T) {
	for s, want := range map[string]float64{"12.34": 12.34, "-0.00": 0, "1e-7": 1e-7, "1.23+21": 1.23, "-1.23+21": -1.23, "100": 100} {
		if got := pathValue([]byte(s)); got != want {
			t.Errorf("pathValue(%q) = %v, want %v", s, got, want)
		}
	}
}
