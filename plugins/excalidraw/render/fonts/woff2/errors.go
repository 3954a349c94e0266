package woff2

import (
	"errors"
	"fmt"
)

// ErrCollection is returned for a WOFF2 font collection (flavor 'ttcf'),
// which Decode does not support.
var ErrCollection = errors.New("woff2: font collections (ttcf) are not supported")

// errorf returns an error of the decoder; Decode prefixes its message
// with "woff2: ".
func errorf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}
