// Package jsmath is JavaScript's Math as V8 (Node 20, the Chromium of the
// Excalidraw 0.18.1 era) computes it, where Go's math package differs:
// rough.js and perfect-freehand ported to Go draw the editor's strokes
// bit for bit only with these.
//
// Go's trigonometric functions (from Cephes) disagree with V8's fdlibm in
// the last bit for about a quarter of all arguments. rough.js rotates every
// filled polygon and then rounds coordinates, so those bits matter: these
// functions redo fdlibm's algorithms operation for operation (argument
// reduction by a three-part π/2, then the kernel polynomials). Products
// that feed a sum are converted to float64 so that no compiler fuses them.
package jsmath

import "math"

// PI is Math.PI as a variable: Go folds constant expressions such as
// math.Pi/180 exactly before rounding, JavaScript rounds Math.PI first.
var PI = math.Pi

func highWord(x float64) uint32 { return uint32(math.Float64bits(x) >> 32) }

// fromHighWord is the float64 whose high word is hi and low word zero.
func fromHighWord(hi uint32) float64 { return math.Float64frombits(uint64(hi) << 32) }

// sinPoly is sin(x+tail) for |x+tail| ≤ π/4; useTail says whether tail is
// meaningful (fdlibm's iy).
func sinPoly(x, tail float64, useTail bool) float64 {
	const (
		s1 = -1.66666666666666324348e-01
		s2 = 8.33333333332248946124e-03
		s3 = -1.98412698298579493134e-04
		s4 = 2.75573137070700676789e-06
		s5 = -2.50507602534068634195e-08
		s6 = 1.58969099521155010221e-10
	)
	if highWord(x)&0x7fffffff < 0x3e400000 { // |x| < 2^-27: sin x = x
		return x
	}
	z := x * x
	v := z * x
	r := s2 + float64(z*(s3+float64(z*(s4+float64(z*(s5+float64(z*s6)))))))
	if !useTail {
		return x + float64(v*(s1+float64(z*r)))
	}
	return x - ((float64(z*(float64(0.5*tail)-float64(v*r))) - tail) - float64(v*s1))
}

// cosPoly is cos(x+tail) for |x+tail| ≤ π/4.
func cosPoly(x, tail float64) float64 {
	const (
		c1 = 4.16666666666666019037e-02
		c2 = -1.38888888888741095749e-03
		c3 = 2.48015872894767294178e-05
		c4 = -2.75573143513906633035e-07
		c5 = 2.08757232129817482790e-09
		c6 = -1.13596475577881948265e-11
	)
	ix := highWord(x) & 0x7fffffff
	if ix < 0x3e400000 { // |x| < 2^-27: cos x = 1
		return 1
	}
	z := x * x
	r := float64(z * (c1 + float64(z*(c2+float64(z*(c3+float64(z*(c4+float64(z*(c5+float64(z*c6)))))))))))
	if ix < 0x3fd33333 { // |x| < 0.3
		return 1 - (float64(0.5*z) - (float64(z*r) - float64(x*tail)))
	}
	qx := 0.28125
	if ix <= 0x3fe90000 { // |x| ≤ 0.78125: qx = |x|/4, truncated
		qx = fromHighWord(ix - 0x00200000)
	}
	hz := float64(0.5*z) - qx
	a := 1 - qx
	return a - (hz - (float64(z*r) - float64(x*tail)))
}

// Pieces of π/2 for the reduction: each head has 33 significant bits so
// that n times it is exact for the n met here; the tails carry the rest.
const (
	invPio2 = 6.36619772367581382433e-01
	pio2h1  = 1.57079632673412561417e+00
	pio2t1  = 6.07710050650619224932e-11
	pio2h2  = 6.07710050630396597660e-11
	pio2t2  = 2.02226624879595063154e-21
	pio2h3  = 2.02226624871116645580e-21
	pio2t3  = 8.47842766036889956997e-32
)

// nearPio2Multiple holds the high words of n·π/2 for n = 1..32: an
// argument with one of them may lose bits to cancellation in the first
// reduction step, so that step's result is checked.
var nearPio2Multiple = [32]uint32{
	0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C,
	0x4025FDBB, 0x402921FB, 0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C,
	0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A,
	0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C,
	0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB, 0x4046C6CB, 0x40478FDB,
	0x404858EB, 0x404921FB,
}

// reducePio2 writes x as n·π/2 + (head+tail) with |head+tail| ≤ π/4, for
// π/4 < |x| ≤ 2^19·π/2. ok is false for larger |x|.
func reducePio2(x float64) (n int32, head, tail float64, ok bool) {
	hx := highWord(x)
	ix := hx & 0x7fffffff
	negative := hx>>31 == 1
	if ix < 0x4002d97c { // |x| < 3π/4: n = ±1
		if !negative {
			z := x - pio2h1
			if ix != 0x3ff921fb {
				head = z - pio2t1
				tail = (z - head) - pio2t1
			} else { // near π/2: one more piece
				z -= pio2h2
				head = z - pio2t2
				tail = (z - head) - pio2t2
			}
			return 1, head, tail, true
		}
		z := x + pio2h1
		if ix != 0x3ff921fb {
			head = z + pio2t1
			tail = (z - head) + pio2t1
		} else {
			z += pio2h2
			head = z + pio2t2
			tail = (z - head) + pio2t2
		}
		return -1, head, tail, true
	}
	if ix > 0x413921fb {
		return 0, 0, 0, false
	}
	t := math.Abs(x)
	n = int32(float64(t*invPio2) + 0.5)
	fn := float64(n)
	r := t - float64(fn*pio2h1)
	w := float64(fn * pio2t1)
	if n < 32 && ix != nearPio2Multiple[n-1] {
		head = r - w
	} else {
		exp := int32(ix >> 20)
		head = r - w
		if exp-int32((highWord(head)>>20)&0x7ff) > 16 { // cancellation: second piece
			t = r
			w = float64(fn * pio2h2)
			r = t - w
			w = float64(fn*pio2t2) - ((t - r) - w)
			head = r - w
			if exp-int32((highWord(head)>>20)&0x7ff) > 49 { // and a third
				t = r
				w = float64(fn * pio2h3)
				r = t - w
				w = float64(fn*pio2t3) - ((t - r) - w)
				head = r - w
			}
		}
	}
	tail = (r - head) - w
	if negative {
		return -n, -head, -tail, true
	}
	return n, head, tail, true
}

// Sin is V8's Math.sin.
func Sin(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return sinPoly(x, 0, false)
	}
	if ix >= 0x7ff00000 {
		return math.NaN()
	}
	n, a, b, ok := reducePio2(x)
	if !ok {
		return math.Sin(x)
	}
	switch n & 3 {
	case 0:
		return sinPoly(a, b, true)
	case 1:
		return cosPoly(a, b)
	case 2:
		return -sinPoly(a, b, true)
	default:
		return -cosPoly(a, b)
	}
}

// Cos is V8's Math.cos.
func Cos(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return cosPoly(x, 0)
	}
	if ix >= 0x7ff00000 {
		return math.NaN()
	}
	n, a, b, ok := reducePio2(x)
	if !ok {
		return math.Cos(x)
	}
	switch n & 3 {
	case 0:
		return cosPoly(a, b)
	case 1:
		return -sinPoly(a, b, true)
	case 2:
		return -cosPoly(a, b)
	default:
		return sinPoly(a, b, true)
	}
}

// Round is Math.round: the nearest integer, halves toward +∞, and -0
// for arguments in [-0.5, 0).
func Round(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	if x < 0 && x >= -0.5 {
		return math.Copysign(0, -1)
	}
	f := math.Floor(x)
	if x-f >= 0.5 {
		f++
	}
	return f
}

func lowWord(x float64) uint32 { return uint32(math.Float64bits(x)) }

// withLowWordZero is x with the low 32 bits of its representation cleared.
func withLowWordZero(x float64) float64 {
	return math.Float64frombits(math.Float64bits(x) &^ 0xffffffff)
}

// Atan is V8's Math.atan (fdlibm): the argument reduced to |x| < 7/16
// around one of four break points, then an odd polynomial.
func Atan(x float64) float64 {
	atanHi := [4]float64{4.63647609000806093515e-01, 7.85398163397448278999e-01, 9.82793723247329054082e-01, 1.57079632679489655800e+00}
	atanLo := [4]float64{2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17, 6.12323399573676603587e-17}
	aT := [11]float64{
		3.33333333333329318027e-01, -1.99999999998764832476e-01, 1.42857142725034663711e-01,
		-1.11111104054623557880e-01, 9.09088713343650656196e-02, -7.69187620504482999495e-02,
		6.66107313738753120669e-02, -5.83357013379057348645e-02, 4.97687799461593236017e-02,
		-3.65315727442169155270e-02, 1.62858201153657823623e-02,
	}
	hx := highWord(x)
	ix := hx & 0x7fffffff
	negative := hx>>31 == 1
	if ix >= 0x44100000 { // |x| ≥ 2^66, or NaN
		if math.IsNaN(x) {
			return x
		}
		if negative {
			return -atanHi[3] - atanLo[3]
		}
		return atanHi[3] + atanLo[3]
	}
	id := -1
	if ix < 0x3fdc0000 { // |x| < 0.4375
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
	} else {
		x = math.Abs(x)
		switch {
		case ix < 0x3fe60000: // 7/16 ≤ |x| < 11/16
			id, x = 0, (float64(2*x)-1)/(2+x)
		case ix < 0x3ff30000: // 11/16 ≤ |x| < 19/16
			id, x = 1, (x-1)/(x+1)
		case ix < 0x40038000: // 19/16 ≤ |x| < 39/16
			id, x = 2, (x-1.5)/(1+float64(1.5*x))
		default:
			id, x = 3, -1/x
		}
	}
	z := x * x
	w := z * z
	s1 := z * (aT[0] + float64(w*(aT[2]+float64(w*(aT[4]+float64(w*(aT[6]+float64(w*(aT[8]+float64(w*aT[10]))))))))))
	s2 := w * (aT[1] + float64(w*(aT[3]+float64(w*(aT[5]+float64(w*(aT[7]+float64(w*aT[9]))))))))
	if id < 0 {
		return x - float64(x*(s1+s2))
	}
	r := atanHi[id] - ((float64(x*(s1+s2)) - atanLo[id]) - x)
	if negative {
		return -r
	}
	return r
}

// Asin is V8's Math.asin (fdlibm): a rational approximation below 0.5,
// and above it asin x = π/2 - 2 asin(sqrt((1-x)/2)).
func Asin(x float64) float64 {
	const (
		pio2Hi = 1.57079632679489655800e+00
		pio2Lo = 6.12323399573676603587e-17
		pio4Hi = 7.85398163397448278999e-01
		pS0    = 1.66666666666666657415e-01
		pS1    = -3.25565818622400915405e-01
		pS2    = 2.01212532134862925881e-01
		pS3    = -4.00555345006794114027e-02
		pS4    = 7.91534994289814532176e-04
		pS5    = 3.47933107596021167570e-05
		qS1    = -2.40339491173441421878e+00
		qS2    = 2.02094576023350569471e+00
		qS3    = -6.88283971605453293030e-01
		qS4    = 7.70381505559019352791e-02
	)
	ratio := func(t float64) (p, q float64) {
		p = t * (pS0 + float64(t*(pS1+float64(t*(pS2+float64(t*(pS3+float64(t*(pS4+float64(t*pS5))))))))))
		q = 1 + float64(t*(qS1+float64(t*(qS2+float64(t*(qS3+float64(t*qS4)))))))
		return p, q
	}
	hx := highWord(x)
	ix := hx & 0x7fffffff
	switch {
	case ix >= 0x3ff00000: // |x| ≥ 1
		if ix-0x3ff00000 == 0 && lowWord(x) == 0 {
			return float64(x*pio2Hi) + float64(x*pio2Lo)
		}
		return math.NaN()
	case ix < 0x3fe00000: // |x| < 0.5
		if ix < 0x3e400000 { // |x| < 2^-27
			return x
		}
		p, q := ratio(x * x)
		return x + float64(x*(p/q))
	}
	w := 1 - math.Abs(x)
	t := w * 0.5
	p, q := ratio(t)
	s := math.Sqrt(t)
	if ix >= 0x3fef3333 { // |x| > 0.975
		t = pio2Hi - (float64(2*(s+float64(s*(p/q)))) - pio2Lo)
	} else {
		w = withLowWordZero(s)
		c := (t - float64(w*w)) / (s + w)
		r := p / q
		p = float64(2*s*r) - (pio2Lo - float64(2*c))
		q = pio4Hi - float64(2*w)
		t = pio4Hi - (p - q)
	}
	if hx>>31 == 1 {
		return -t
	}
	return t
}

// tanPoly is fdlibm's __kernel_tan: tan(x+tail) for |x+tail| ≤ π/4 when
// odd is false, -1/tan(x+tail) when it is set.
func tanPoly(x, tail float64, odd bool) float64 {
	T := [13]float64{
		3.33333333333334091986e-01, 1.33333333333201242699e-01, 5.39682539762260521377e-02,
		2.18694882948595424599e-02, 8.86323982359930005737e-03, 3.59207910759131235356e-03,
		1.45620945432529025516e-03, 5.88041240820264096874e-04, 2.46463134818469906812e-04,
		7.81794442939557092300e-05, 7.14072491382608190305e-05, -1.85586374855275456654e-05,
		2.59073051863633712884e-05,
	}
	const (
		pio4   = 7.85398163397448278999e-01
		pio4Lo = 3.06161699786838301793e-17
	)
	iy := 1.0
	if odd {
		iy = -1
	}
	// -1/(x+r), computed carefully.
	negInverse := func(x, r float64) float64 {
		w := x + r
		z := withLowWordZero(w)
		v := r - (z - x)
		a := -1 / w
		t := withLowWordZero(a)
		s := 1 + float64(t*z)
		return t + float64(a*(s+float64(t*v)))
	}
	hx := highWord(x)
	ix := hx & 0x7fffffff
	if ix < 0x3e300000 { // |x| < 2^-28
		switch {
		case ix|lowWord(x) == 0 && odd:
			return 1 / math.Abs(x)
		case !odd:
			return x
		default:
			return negInverse(x, tail)
		}
	}
	big := ix >= 0x3fe59428 // |x| ≥ 0.6744: use tan(π/4 - x)
	if big {
		if hx>>31 == 1 {
			x, tail = -x, -tail
		}
		z := pio4 - x
		w := pio4Lo - tail
		x = z + w
		tail = 0
	}
	z := x * x
	w := z * z
	r := T[1] + float64(w*(T[3]+float64(w*(T[5]+float64(w*(T[7]+float64(w*(T[9]+float64(w*T[11])))))))))
	v := z * (T[2] + float64(w*(T[4]+float64(w*(T[6]+float64(w*(T[8]+float64(w*(T[10]+float64(w*T[12]))))))))))
	s := z * x
	r = tail + float64(z*(float64(s*(r+v))+tail))
	r += float64(T[0] * s)
	w = x + r
	if big {
		sign := 1.0
		if (hx>>30)&2 != 0 {
			sign = -1
		}
		return sign * (iy - float64(2*(x-(float64(w*w)/(w+iy)-r))))
	}
	if !odd {
		return w
	}
	return negInverse(x, r)
}

// Tan is V8's Math.tan.
func Tan(x float64) float64 {
	ix := highWord(x) & 0x7fffffff
	if ix <= 0x3fe921fb {
		return tanPoly(x, 0, false)
	}
	if ix >= 0x7ff00000 {
		return math.NaN()
	}
	n, a, b, ok := reducePio2(x)
	if !ok {
		return math.Tan(x)
	}
	return tanPoly(a, b, n&1 == 1)
}

// Hypot is JavaScript's Math.hypot of two numbers as V8 computes it:
// both scaled by the larger, squared, summed, rooted and scaled back.
func Hypot(x, y float64) float64 {
	x, y = math.Abs(x), math.Abs(y)
	switch {
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		return math.Inf(1)
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	}
	m := math.Max(x, y)
	if m == 0 {
		return 0
	}
	a, b := x/m, y/m
	return math.Sqrt(float64(a*a)+float64(b*b)) * m
}
