package woff2

import "encoding/binary"

// Flags of a transformed hmtx table (§5.4).
const (
	hmtxNoLSB             = 0x01 // lsb[] omitted
	hmtxNoLeftSideBearing = 0x02 // leftSideBearing[] omitted
)

// reconstructHmtx undoes the hmtx transform (§5.4) on data: it takes the
// advances as they are and the left side bearings the flags say are
// omitted from xMin, each glyph's bounding box xMin (0 for an empty
// glyph). numHMetrics is hhea's; len(xMin) is the number of glyphs.
func reconstructHmtx(data []byte, numHMetrics int, xMin []int16) ([]byte, error) {
	numGlyphs := len(xMin)
	if numHMetrics < 1 || numHMetrics > numGlyphs {
		return nil, errorf("hmtx: numberOfHMetrics %d for %d glyphs", numHMetrics, numGlyphs)
	}
	r := newReader(data, "transformed hmtx")
	flags := r.u8()
	if r.err != nil {
		return nil, r.err
	}
	if flags&^(hmtxNoLSB|hmtxNoLeftSideBearing) != 0 || flags == 0 {
		return nil, errorf("hmtx: invalid transform flags %#02x", flags)
	}
	advances := r.bytes(2 * numHMetrics)
	var lsb, leftSideBearing []byte
	if flags&hmtxNoLSB == 0 {
		lsb = r.bytes(2 * numHMetrics)
	}
	if flags&hmtxNoLeftSideBearing == 0 {
		leftSideBearing = r.bytes(2 * (numGlyphs - numHMetrics))
	}
	if r.err != nil {
		return nil, r.err
	}
	out := make([]byte, 0, 4*numHMetrics+2*(numGlyphs-numHMetrics))
	for i := range numHMetrics {
		out = append(out, advances[2*i:2*i+2]...)
		if lsb != nil {
			out = append(out, lsb[2*i:2*i+2]...)
		} else {
			out = binary.BigEndian.AppendUint16(out, uint16(xMin[i]))
		}
	}
	if leftSideBearing != nil {
		return append(out, leftSideBearing...), nil
	}
	for _, x := range xMin[numHMetrics:] {
		out = binary.BigEndian.AppendUint16(out, uint16(x))
	}
	return out, nil
}

// glyfXMin returns the xMin of every glyph of an untransformed glyf
// table, located by loca in the format head's indexToLocFormat gives
// (long when longLoca), for a transformed hmtx next to a glyf that is not
// transformed. An empty glyph's xMin is 0.
func glyfXMin(glyf, loca []byte, numGlyphs int, longLoca bool) ([]int16, error) {
	entry := 2
	if longLoca {
		entry = 4
	}
	if len(loca) < entry*(numGlyphs+1) {
		return nil, errorf("loca: %d bytes for %d glyphs", len(loca), numGlyphs)
	}
	offset := func(i int) int {
		if longLoca {
			return int(binary.BigEndian.Uint32(loca[4*i:]))
		}
		return 2 * int(binary.BigEndian.Uint16(loca[2*i:]))
	}
	xMin := make([]int16, numGlyphs)
	for i := range xMin {
		start, end := offset(i), offset(i+1)
		switch {
		case start == end:
			continue
		case start < 0 || start > end || end > len(glyf) || end-start < 10:
			return nil, errorf("loca: glyph %d at [%d, %d) in a %d-byte glyf", i, start, end, len(glyf))
		}
		xMin[i] = int16(binary.BigEndian.Uint16(glyf[start+2:]))
	}
	return xMin, nil
}
