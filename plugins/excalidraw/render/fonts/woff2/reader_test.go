package woff2

import (
	"math"
	"strings"
	"testing"
)

func TestBase128(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want uint32
		err  string // a part of the error, "" for none
	}{
		{[]byte{0x00}, 0, ""},
		{[]byte{0x3F}, 63, ""},
		{[]byte{0x7F}, 127, ""},
		{[]byte{0x81, 0x00}, 128, ""},
		{[]byte{0xFF, 0x7F}, 1<<14 - 1, ""},
		{[]byte{0x8F, 0xFF, 0xFF, 0xFF, 0x7F}, math.MaxUint32, ""},
		{[]byte{0x80, 0x3F}, 0, "leading zero"},
		{[]byte{0x80, 0x00}, 0, "leading zero"},
		{[]byte{0x90, 0x80, 0x80, 0x80, 0x00}, 0, "overflows"}, // 2³²
		{[]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x7F}, 0, "overflows"},
		{[]byte{0x81, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, "longer than 5"},
		{[]byte{0x81}, 0, "truncated"},
		{nil, 0, "truncated"},
	} {
		r := newReader(tc.in, "test")
		got := r.base128()
		if tc.err == "" {
			if r.err != nil || got != tc.want {
				t.Errorf("% x: got %d, %v; want %d", tc.in, got, r.err, tc.want)
			}
			if r.len() != 0 {
				t.Errorf("% x: %d bytes left", tc.in, r.len())
			}
			continue
		}
		if r.err == nil || !strings.Contains(r.err.Error(), tc.err) {
			t.Errorf("% x: got %d, %v; want an error with %q", tc.in, got, r.err, tc.err)
		}
	}
	// The encoder the tests use writes what base128 reads.
	for _, v := range []uint32{0, 1, 127, 128, 16383, 16384, 1 << 21, 1<<28 - 1, 1 << 28, math.MaxUint32} {
		b := appendBase128(nil, v)
		r := newReader(b, "test")
		if got := r.base128(); r.err != nil || got != v || r.len() != 0 {
			t.Errorf("%d → % x → %d, %v", v, b, got, r.err)
		}
	}
}

func TestU255(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want uint16
	}{
		{[]byte{0}, 0},
		{[]byte{252}, 252},
		{[]byte{255, 0}, 253},
		{[]byte{255, 255}, 508},
		{[]byte{254, 0}, 506},
		{[]byte{254, 255}, 761},
		{[]byte{253, 0x12, 0x34}, 0x1234},
		{[]byte{253, 0xFF, 0xFF}, 65535},
		{[]byte{253, 0x00, 0x00}, 0},
		// The spec's example: 506 three ways, all to be accepted.
		{[]byte{255, 253}, 506},
		{[]byte{253, 1, 250}, 506},
	} {
		r := newReader(tc.in, "test")
		if got := r.u255(); r.err != nil || got != tc.want || r.len() != 0 {
			t.Errorf("% x: got %d, %v; want %d", tc.in, got, r.err, tc.want)
		}
	}
	for _, in := range [][]byte{nil, {253}, {253, 1}, {254}, {255}} {
		r := newReader(in, "test")
		if r.u255(); r.err == nil || !strings.Contains(r.err.Error(), "truncated") {
			t.Errorf("% x: %v, want truncated", in, r.err)
		}
	}
	for v := range 65536 {
		b := append255(nil, uint16(v))
		r := newReader(b, "test")
		if got := r.u255(); r.err != nil || got != uint16(v) || r.len() != 0 {
			t.Fatalf("%d → % x → %d, %v", v, b, got, r.err)
		}
	}
}

// TestReaderStickyError checks that after a failed read every read
// fails and returns zero, so a structure can be read and checked once.
func TestReaderStickyError(t *testing.T) {
	r := newReader([]byte{1, 2, 3}, "test")
	if r.u32(); r.err == nil {
		t.Fatal("no error reading 4 bytes of 3")
	}
	if v := r.u8(); v != 0 || r.bytes(1) != nil || r.u16() != 0 || r.base128() != 0 || r.u255() != 0 {
		t.Error("a read after an error returned data")
	}
	if !strings.Contains(r.err.Error(), "test: truncated") {
		t.Errorf("error %q does not name the data", r.err)
	}
	if r := newReader([]byte{1}, "test"); r.bytes(-1) != nil || r.err == nil {
		t.Error("bytes(-1) did not fail")
	}
}
