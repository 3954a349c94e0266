package jsmath

import (
	"math"
	"testing"
)

// Values of Math.sin and Math.cos from Node 20 (V8 11.3) at arguments
// where Go's math.Sin or math.Cos rounds differently.
var nodeTrig = [][3]float64{
	{3.14159, 2.65358979335273e-06, -0.9999999999964793},
	{-4.2, 0.8715757724135882, -0.4902608213406994},
	{9.42, 0.0047779425901285115, -0.9999885855671581},
	{1.5707963267948966, 1, 6.123233995736766e-17},
	{0.9, 0.7833269096274834, 0.6216099682706644},
	{0.48, 0.46177917554148284, 0.8869949227792842},
	{1.22, 0.9390993563190676, 0.34364574631604705},
	{1.59, 0.9998156151342908, -0.01920249290169265},
	{2.33, 0.7253843874668195, -0.6883440203992384},
	{6.03, -0.2504889826270749, 0.9681194500589547},
	{6.77, 0.4678130042085835, 0.8838274679445869},
	{7.14, 0.7557605080570537, 0.6548481155667656},
}

func TestTrigMatchesNodeWhereGoDiffers(t *testing.T) {
	for _, c := range nodeTrig {
		if s, k := Sin(c[0]), Cos(c[0]); s != c[1] || k != c[2] {
			t.Errorf("x = %v: sin, cos = %v, %v; Node %v, %v", c[0], s, k, c[1], c[2])
		}
	}
}

func TestTrigCloseToGo(t *testing.T) {
	for x := -30.0; x <= 30; x += 0.0137 {
		if d := math.Abs(Sin(x) - math.Sin(x)); d > 4e-16 {
			t.Fatalf("sin(%v) = %v, math.Sin %v", x, Sin(x), math.Sin(x))
		}
		if d := math.Abs(Cos(x) - math.Cos(x)); d > 4e-16 {
			t.Fatalf("cos(%v) = %v, math.Cos %v", x, Cos(x), math.Cos(x))
		}
	}
	for _, x := range []float64{1e7, -3e9, 1e300} { // beyond the medium reduction
		if Sin(x) != math.Sin(x) || Cos(x) != math.Cos(x) {
			t.Errorf("x = %v: falls back to math", x)
		}
	}
}

func TestTrigSpecialValues(t *testing.T) {
	negZero := math.Copysign(0, -1)
	if s := Sin(negZero); s != 0 || !math.Signbit(s) {
		t.Errorf("sin(-0) = %v", s)
	}
	if Cos(0) != 1 || Sin(1e-300) != 1e-300 {
		t.Error("tiny arguments")
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if !math.IsNaN(Sin(x)) || !math.IsNaN(Cos(x)) {
			t.Errorf("sin, cos(%v) = %v, %v", x, Sin(x), Cos(x))
		}
	}
}

func TestHypot(t *testing.T) {
	for _, c := range [][3]float64{
		{3, 4, 5}, {-3, 4, 5}, {0, 0, 0}, {0, -2, 2}, {1e300, 1e300, 1.4142135623730952e300},
		{1, 1 / 3.0, 1.0540925533894598}, // Node's Math.hypot(1, 1/3)
	} {
		if got := Hypot(c[0], c[1]); got != c[2] {
			t.Errorf("hypot(%v, %v) = %v, want %v", c[0], c[1], got, c[2])
		}
	}
	if !math.IsInf(Hypot(math.NaN(), math.Inf(-1)), 1) || !math.IsNaN(Hypot(math.NaN(), 1)) {
		t.Error("hypot of Inf and NaN")
	}
}
