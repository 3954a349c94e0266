package journal

import (
	"fmt"
	"testing"
)

// Fingerprints, parallel for many, is Fingerprint of each, in order.
func TestFingerprintsAreEachFingerprint(t *testing.T) {
	for _, n := range []int{0, 3, 500} {
		raws := make([][]byte, n)
		for i := range raws {
			raws[i] = fmt.Appendf(nil, `{ "id": "e%d", "x": %d }`, i, i*7)
		}
		got := Fingerprints(raws)
		for i, raw := range raws {
			if got[i] != Fingerprint(raw) {
				t.Fatalf("n=%d: %d is %s, want %s", n, i, got[i], Fingerprint(raw))
			}
		}
	}
}
