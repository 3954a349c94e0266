package journal

import (
	"fmt"
	"slices"
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

func TestClassifyAndAdd(t *testing.T) {
	for _, tc := range []struct {
		existed, wasDeleted, isDeleted, same bool
		want                                 ElementChange
	}{
		{false, false, true, false, ElementUnchanged},
		{false, false, false, false, ElementCreated},
		{true, false, false, true, ElementUnchanged},
		{true, true, true, false, ElementUnchanged},
		{true, true, false, false, ElementRevived},
		{true, false, true, false, ElementDeleted},
		{true, false, false, false, ElementUpdated},
	} {
		if got := Classify(tc.existed, tc.wasDeleted, tc.isDeleted, tc.same); got != tc.want {
			t.Errorf("%+v: %v", tc, got)
		}
	}
	var c Changes
	c.Add(ElementUnchanged, "u", []byte(`{}`), State{ID: "u"})
	c.Add(ElementCreated, "c", nil, State{ID: "c", Hash: "h"})
	c.Add(ElementMoved, "m", []byte(`{"id":"m"}`), State{ID: "m"})
	c.Add(ElementDeleted, "d", []byte(`{"id":"d"}`), State{ID: "d", Absent: true})
	if !slices.Equal(c.Created, []string{"c"}) || !slices.Equal(c.Updated, []string{"m"}) || !slices.Equal(c.Moved, []string{"m"}) ||
		!slices.Equal(c.Deleted, []string{"d"}) || len(c.Revived) != 0 {
		t.Fatalf("%+v", c)
	}
	if len(c.Images.Before) != 3 || c.Images.Before[0].Element != nil || string(c.Images.Before[1].Element) != `{"id":"m"}` ||
		len(c.Images.After) != 3 || c.Images.After[0].Hash != "h" || !c.Images.After[2].Absent {
		t.Fatalf("%+v", c.Images)
	}
}
