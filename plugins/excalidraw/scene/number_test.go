package scene

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func TestToNumber(t *testing.T) {
	cases := []struct {
		in    any
		want  float64
		state numState
	}{
		{json.Number("12.5"), 12.5, numOK},
		{json.Number("-0"), 0, numOK},
		{json.Number("1e999"), math.Inf(1), numNonFinite},
		{json.Number("-1e999"), math.Inf(-1), numNonFinite},
		{json.Number("1e-999"), 0, numOK},
		{json.Number("abc"), 0, numNotNumber},
		{nil, 0, numNull},
		{"12", 0, numNotNumber},
		{true, 0, numNotNumber},
		{3, 3, numOK},
		{int64(4), 4, numOK},
		{2.5, 2.5, numOK},
		{math.NaN(), 0, numNonFinite},
	}
	for _, c := range cases {
		got, st := toNumber(c.in)
		if st != c.state || (st == numOK && got != c.want) {
			t.Errorf("toNumber(%#v) = %v, %v; want %v, %v", c.in, got, st, c.want, c.state)
		}
	}
}

// TestSimpleNumberIsParseFloat: the fast path reads what ParseFloat reads.
func TestSimpleNumberIsParseFloat(t *testing.T) {
	cases := []string{"0", "-0", "1", "-1", "0.5", "1.25", "123456789012345", "-123456789.012345", "0.000000000000001",
		"1.", ".5", "-.5", "99999999999999.9", "0.1", "0.2", "0.3", "1234.5678", "1e3", "1234567890123456", "-", ".", "", "1.2.3", "+1", "1_0"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		n := rng.Uint64N(1_000_000_000_000_000)
		s := strconv.FormatUint(n, 10)
		if k := rng.IntN(len(s) + 1); k < len(s) {
			s = s[:k] + "." + s[k:]
		}
		if rng.IntN(2) == 0 {
			s = "-" + s
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		f, ok := simpleNumber(s)
		if !ok {
			continue
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(f) != math.Float64bits(want) {
			t.Fatalf("%q: %v, ParseFloat %v %v", s, f, want, err)
		}
	}
}
