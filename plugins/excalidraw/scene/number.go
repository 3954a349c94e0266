package scene

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// numState says what a JSON value read as a number turned out to be. JSON
// itself cannot hold NaN or Infinity, but a literal like 1e999 overflows
// float64 and would become Infinity in a browser, so it must be caught.
type numState int

const (
	numAbsent    numState = iota // member not present
	numNull                      // null
	numNotNumber                 // some other JSON type
	numNonFinite                 // a number that overflows float64
	numOK                        // a finite number
)

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// simpleNumber reads the numbers drawings are made of, [-]digits[.digits]
// with at most 15 digits, without strconv: the digits make an integer a
// float64 holds exactly, and one division by an exact power of ten rounds
// correctly, so the result is ParseFloat's (Clinger's fast path). Anything
// else is left to ParseFloat.
func simpleNumber(s string) (float64, bool) {
	i, neg := 0, false
	if len(s) > 0 && s[0] == '-' {
		i, neg = 1, true
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	f := float64(mant) / exactPow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// toNumber reads any ojson value as a number.
func toNumber(v any) (float64, numState) {
	switch n := v.(type) {
	case nil:
		return 0, numNull
	case json.Number:
		if f, ok := simpleNumber(string(n)); ok {
			return f, numOK
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err == nil {
			return f, numOK
		}
		if errors.Is(err, strconv.ErrRange) {
			if math.IsInf(f, 0) {
				return f, numNonFinite
			}
			return f, numOK // underflow rounds to zero, as in JavaScript
		}
		return 0, numNotNumber
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return n, numNonFinite
		}
		return n, numOK
	case int:
		return float64(n), numOK
	case int64:
		return float64(n), numOK
	}
	return 0, numNotNumber
}
