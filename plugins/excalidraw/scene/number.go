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

// toNumber reads any ojson value as a number.
func toNumber(v any) (float64, numState) {
	switch n := v.(type) {
	case nil:
		return 0, numNull
	case json.Number:
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
