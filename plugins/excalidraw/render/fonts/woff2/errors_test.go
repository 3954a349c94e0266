package woff2

import (
	"errors"
	"strings"
	"testing"
)

// TestErrors checks that Decode's errors say where they come from, and
// that a collection gives ErrCollection as it is.
func TestErrors(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("wOF2"), testHeader(100, nil)} {
		if _, err := Decode(b); err == nil || !strings.HasPrefix(err.Error(), "woff2: ") || strings.Contains(err.Error()[7:], "woff2: ") {
			t.Errorf("% x: %v, want one woff2: prefix", b[:min(len(b), 8)], err)
		}
	}
	ttcf := testHeader(100, func(b []byte) { copy(b[4:], "ttcf") })
	if _, err := Decode(ttcf); err != ErrCollection || !errors.Is(err, ErrCollection) {
		t.Errorf("ttcf: %v", err)
	}
}
