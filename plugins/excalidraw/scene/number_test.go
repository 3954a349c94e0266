package scene

import (
	"encoding/json"
	"math"
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
