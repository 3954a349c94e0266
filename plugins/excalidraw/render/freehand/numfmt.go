package freehand

import (
	"bytes"
	"math"
	"strconv"
)

// appendJS appends JavaScript's Number.prototype.toString of x: the
// shortest digits that read back as x, in plain notation for
// 1e-6 <= |x| < 1e21 and in exponent notation (1.5e-7, 1e+21) outside.
func appendJS(dst []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(dst, "NaN"...)
	case math.IsInf(x, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(x, -1):
		return append(dst, "-Infinity"...)
	case x == 0:
		return append(dst, '0') // -0 too
	}
	if a := math.Abs(x); a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(dst, x, 'f', -1, 64)
	}
	if x < 0 {
		dst = append(dst, '-')
		x = -x
	}
	// d.ddde±x → the digits, then e+x or e-x with no leading zeros.
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], x, 'e', -1, 64)
	e := bytes.IndexByte(s, 'e')
	dst = append(dst, s[:e]...)
	exp, _ := strconv.Atoi(string(s[e+1:]))
	dst = append(dst, 'e')
	if exp >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

// jsString is appendJS as a string.
func jsString(x float64) string { return string(appendJS(nil, x)) }

// appendPathNumber appends x as it reads in Excalidraw's freedraw path
// data: its JavaScript string cut (not rounded) to two decimals, the way
// getSvgPathFromStroke's TO_FIXED_PRECISION pattern rewrites it. A number
// without a point is left alone. The cut also swallows what follows the
// kept decimals up to anything but a digit, "e" or "-", so that 1.5e-7
// reads "1.5" and 1.2345e+21 "1.23+21": Excalidraw's quirk, kept.
func appendPathNumber(dst []byte, x float64) []byte {
	start := len(dst)
	dst = appendJS(dst, x)
	s := dst[start:]
	dot := bytes.IndexByte(s, '.')
	if dot < 0 {
		return dst
	}
	keep := dot + 1
	for keep < len(s) && keep < dot+3 && isDigit(s[keep]) {
		keep++
	}
	drop := keep
	for drop < len(s) && (isDigit(s[drop]) || s[drop] == 'e' || s[drop] == '-') {
		drop++
	}
	n := copy(s[keep:], s[drop:])
	return dst[:start+keep+n]
}

// pathNumber is appendPathNumber as a string.
func pathNumber(x float64) string { return string(appendPathNumber(nil, x)) }

// pathValue is the number a path reader takes from appendPathNumber's
// text: its leading number (all of it below 1e21).
func pathValue(s []byte) float64 {
	if i := bytes.IndexByte(s[1:], '+'); i >= 0 {
		s = s[:i+1]
	}
	v, _ := strconv.ParseFloat(string(s), 64)
	return v
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
