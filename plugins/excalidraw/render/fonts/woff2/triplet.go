package woff2

// tripletSize returns how many bytes of the glyph stream the point whose
// flag-stream byte is flag takes (§5.1, step 3; §5.2): the "Byte Count"
// of the triplet table less the flag byte itself.
func tripletSize(flag byte) int {
	switch f := flag & 0x7F; {
	case f < 84:
		return 1
	case f < 120:
		return 2
	case f < 124:
		return 3
	default:
		return 4
	}
}

// decodeTriplet decodes one point's coordinates (§5.2): flag is its
// flag-stream byte, p its tripletSize(flag) bytes from the glyph stream.
// It returns the point's offset from the previous point and whether the
// point is on the curve (the flag's high bit clear).
func decodeTriplet(flag byte, p []byte) (dx, dy int32, onCurve bool) {
	onCurve = flag&0x80 == 0
	f := int32(flag & 0x7F)
	// In the table, within each group of indices the sign bits cycle:
	// the first bit of the index chooses +x, the second +y (for the
	// one-coordinate rows, the single bit chooses + for that coordinate).
	var xPlus, yPlus bool
	switch {
	case f < 10: // dx = 0, dy: 8 bits + 256·(f/2)
		dy = f>>1<<8 | int32(p[0])
		yPlus = f&1 != 0
	case f < 20: // dy = 0, dx: 8 bits + 256·((f−10)/2)
		g := f - 10
		dx = g>>1<<8 | int32(p[0])
		xPlus = g&1 != 0
	case f < 84: // 4 bits each, dx base 1+16·(g/16), dy base 1+16·((g%16)/4)
		g := f - 20
		dx = 1 + (g>>4)<<4 + int32(p[0]>>4)
		dy = 1 + ((g&15)>>2)<<4 + int32(p[0]&15)
		xPlus, yPlus = g&1 != 0, g&2 != 0
	case f < 120: // 8 bits each, dx base 1+256·(g/12), dy base 1+256·((g%12)/4)
		g := f - 84
		dx = 1 + (g/12)<<8 + int32(p[0])
		dy = 1 + ((g%12)>>2)<<8 + int32(p[1])
		xPlus, yPlus = g&1 != 0, g&2 != 0
	case f < 124: // 12 bits each
		g := f - 120
		dx = int32(p[0])<<4 | int32(p[1]>>4)
		dy = int32(p[1]&15)<<8 | int32(p[2])
		xPlus, yPlus = g&1 != 0, g&2 != 0
	default: // 16 bits each
		g := f - 124
		dx = int32(p[0])<<8 | int32(p[1])
		dy = int32(p[2])<<8 | int32(p[3])
		xPlus, yPlus = g&1 != 0, g&2 != 0
	}
	if !xPlus {
		dx = -dx
	}
	if !yPlus {
		dy = -dy
	}
	return dx, dy, onCurve
}
