package woff2

import "testing"

// tripletRow is a row of the spec's triplet encoding table (§5.2).
type tripletRow struct {
	byteCount, xBits, yBits int
	deltaX, deltaY          int32
	xPlus, yPlus            bool
}

// tripletTable builds the table of §5.2 row by row, as it is printed
// there, independently of decodeTriplet.
func tripletTable() []tripletRow {
	var rows []tripletRow
	signs := [4][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} // (-,-) (+,-) (-,+) (+,+)
	for _, d := range []int32{0, 256, 512, 768, 1024} {                             // 0-9: y only
		rows = append(rows, tripletRow{2, 0, 8, 0, d, false, false}, tripletRow{2, 0, 8, 0, d, false, true})
	}
	for _, d := range []int32{0, 256, 512, 768, 1024} { // 10-19: x only
		rows = append(rows, tripletRow{2, 8, 0, d, 0, false, false}, tripletRow{2, 8, 0, d, 0, true, false})
	}
	for _, dx := range []int32{1, 17, 33, 49} { // 20-83
		for _, dy := range []int32{1, 17, 33, 49} {
			for _, s := range signs {
				rows = append(rows, tripletRow{2, 4, 4, dx, dy, s[0], s[1]})
			}
		}
	}
	for _, dx := range []int32{1, 257, 513} { // 84-119
		for _, dy := range []int32{1, 257, 513} {
			for _, s := range signs {
				rows = append(rows, tripletRow{3, 8, 8, dx, dy, s[0], s[1]})
			}
		}
	}
	for _, s := range signs { // 120-123
		rows = append(rows, tripletRow{4, 12, 12, 0, 0, s[0], s[1]})
	}
	for _, s := range signs { // 124-127
		rows = append(rows, tripletRow{5, 16, 16, 0, 0, s[0], s[1]})
	}
	return rows
}

// decode reads the row's coordinates from data, bit by bit, x first,
// most significant bit first.
func (row tripletRow) decode(data []byte) (dx, dy int32) {
	pos := 0
	take := func(n int) int32 {
		var v int32
		for range n {
			v = v<<1 | int32(data[pos/8]>>(7-pos%8)&1)
			pos++
		}
		return v
	}
	dx, dy = row.deltaX+take(row.xBits), row.deltaY+take(row.yBits)
	if !row.xPlus {
		dx = -dx
	}
	if !row.yPlus {
		dy = -dy
	}
	return dx, dy
}

func TestTripletTable(t *testing.T) {
	rows := tripletTable()
	if len(rows) != 128 {
		t.Fatalf("%d rows", len(rows))
	}
	patterns := [][]byte{{0, 0, 0, 0}, {0xFF, 0xFF, 0xFF, 0xFF}, {0x12, 0x34, 0x56, 0x78}, {0xA5, 0x5A, 0xC3, 0x3C}, {0x80, 0x01, 0x7F, 0xFE}}
	for i, row := range rows {
		for _, offCurve := range []byte{0, 0x80} {
			flag := byte(i) | offCurve
			if n := tripletSize(flag); n != row.byteCount-1 {
				t.Errorf("index %d: size %d, want %d", i, n, row.byteCount-1)
			}
			for _, p := range patterns {
				data := p[:row.byteCount-1]
				dx, dy, on := decodeTriplet(flag, data)
				wx, wy := row.decode(data)
				if dx != wx || dy != wy || on != (offCurve == 0) {
					t.Errorf("flag %#02x, % x: got (%d, %d, %v), want (%d, %d, %v)", flag, data, dx, dy, on, wx, wy, offCurve == 0)
				}
			}
		}
	}
}

func TestDecodeTriplet(t *testing.T) {
	for _, tc := range []struct {
		flag   byte
		data   []byte
		dx, dy int32
		on     bool
	}{
		{0, []byte{5}, 0, -5, true},
		{1, []byte{5}, 0, 5, true},
		{0x80 | 9, []byte{0xFF}, 0, 1024 + 255, false},
		{10, []byte{16}, -16, 0, true},
		{11, []byte{16}, 16, 0, true},
		{19, []byte{0}, 1024, 0, true},
		{23, []byte{0x12}, 2, 3, true},
		{20, []byte{0xFF}, -16, -16, true},
		{83, []byte{0xFF}, 49 + 15, 49 + 15, true},
		{87, []byte{0, 0}, 1, 1, true},
		{119, []byte{0xFF, 0xFF}, 513 + 255, 513 + 255, true},
		{120, []byte{0xAB, 0xCD, 0xEF}, -0xABC, -0xDEF, true},
		{123, []byte{0xFF, 0xFF, 0xFF}, 4095, 4095, true},
		{124, []byte{0x12, 0x34, 0x56, 0x78}, -0x1234, -0x5678, true},
		{0xFF, []byte{0xFF, 0xFF, 0xFF, 0xFF}, 65535, 65535, false},
	} {
		dx, dy, on := decodeTriplet(tc.flag, tc.data)
		if dx != tc.dx || dy != tc.dy || on != tc.on {
			t.Errorf("flag %d, % x: got (%d, %d, %v), want (%d, %d, %v)", tc.flag, tc.data, dx, dy, on, tc.dx, tc.dy, tc.on)
		}
	}
}
