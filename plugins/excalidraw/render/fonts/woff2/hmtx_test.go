package woff2

import (
	"bytes"
	"strings"
	"testing"
)

func TestReconstructHmtx(t *testing.T) {
	xMin := []int16{0, 10, -5, 7}
	advances := u16s(500, 600)
	lsb := u16s(1, 2)
	leftSideBearing := u16s(3, 4)
	for _, tc := range []struct {
		name string
		data []byte
		want []byte
	}{
		{"no lsb", cat([]byte{hmtxNoLSB}, advances, leftSideBearing), u16s(500, 0, 600, 10, 3, 4)},
		{"no leftSideBearing", cat([]byte{hmtxNoLeftSideBearing}, advances, lsb), u16s(500, 1, 600, 2, -5, 7)},
		{"neither", cat([]byte{hmtxNoLSB | hmtxNoLeftSideBearing}, advances), u16s(500, 0, 600, 10, -5, 7)},
	} {
		got, err := reconstructHmtx(tc.data, 2, xMin)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: got % x, %v; want % x", tc.name, got, err, tc.want)
		}
	}
	// All glyphs with an advance: no leftSideBearing[].
	got, err := reconstructHmtx(cat([]byte{hmtxNoLSB}, u16s(1, 2, 3, 4)), 4, xMin)
	if want := u16s(1, 0, 2, 10, 3, -5, 4, 7); err != nil || !bytes.Equal(got, want) {
		t.Errorf("numberOfHMetrics = numGlyphs: got % x, %v; want % x", got, err, want)
	}

	for _, tc := range []struct {
		name        string
		data        []byte
		numHMetrics int
		err         string
	}{
		{"no flags", cat([]byte{0}, advances, lsb, leftSideBearing), 2, "invalid transform flags 0"},
		{"reserved flag", cat([]byte{hmtxNoLSB | 4}, advances, leftSideBearing), 2, "invalid transform flags"},
		{"empty", nil, 2, "truncated"},
		{"short advances", cat([]byte{3}, advances[:3]), 2, "truncated"},
		{"short lsb", cat([]byte{hmtxNoLeftSideBearing}, advances, lsb[:3]), 2, "truncated"},
		{"short leftSideBearing", cat([]byte{hmtxNoLSB}, advances, leftSideBearing[:3]), 2, "truncated"},
		{"numberOfHMetrics 0", []byte{3}, 0, "numberOfHMetrics 0"},
		{"numberOfHMetrics > numGlyphs", cat([]byte{3}, u16s(1, 2, 3, 4, 5)), 5, "numberOfHMetrics 5 for 4 glyphs"},
	} {
		if _, err := reconstructHmtx(tc.data, tc.numHMetrics, xMin); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}
}

func TestGlyfXMin(t *testing.T) {
	glyph := func(xMin int) []byte { return u16s(1, xMin, 0, 100, 100, 0) }
	glyf := cat(glyph(-3), glyph(12))
	for _, long := range []bool{false, true} {
		loca := u16s(0, 0, 6, 12) // short: offsets/2 0, 0, 12, 24
		if long {
			loca = u16s(0, 0, 0, 0, 0, 12, 0, 24)
		}
		got, err := glyfXMin(glyf, loca, 3, long)
		if err != nil || len(got) != 3 || got[0] != 0 || got[1] != -3 || got[2] != 12 {
			t.Errorf("long %v: %v, %v", long, got, err)
		}
	}
	for _, tc := range []struct {
		name string
		loca []byte
		err  string
	}{
		{"short loca", u16s(0, 0, 6), "loca: 6 bytes for 3 glyphs"},
		{"backwards", u16s(0, 6, 0, 12), "glyph 1"},
		{"past the end", u16s(0, 0, 6, 13), "glyph 2"},
		{"too short a glyph", u16s(0, 0, 4, 12), "glyph 1"},
	} {
		if _, err := glyfXMin(glyf, tc.loca, 3, false); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}
}
