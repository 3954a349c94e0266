package woff2

import (
	"encoding/binary"
	"math"
)

// glyfHeaderSize is the size of the transformed glyf table's header
// (§5.1): reserved, optionFlags, numGlyphs, indexFormat, then the sizes
// of the seven streams.
const glyfHeaderSize = 36

// optionOverlapSimpleBitmap is the optionFlags bit telling that an
// overlapSimpleBitmap follows the instruction stream.
const optionOverlapSimpleBitmap = 0x0001

// Simple glyph flags (OFF 5.3.3).
const (
	flagOnCurve       = 0x01
	flagXShort        = 0x02
	flagYShort        = 0x04
	flagRepeat        = 0x08
	flagXSame         = 0x10 // or, with flagXShort, positive
	flagYSame         = 0x20 // or, with flagYShort, positive
	flagOverlapSimple = 0x40
)

// Composite glyph flags (OFF 5.3.3).
const (
	compArgsAreWords    = 0x0001
	compHaveScale       = 0x0008
	compMoreComponents  = 0x0020
	compHaveXYScale     = 0x0040
	compHaveTwoByTwo    = 0x0080
	compHaveInstruction = 0x0100
)

// glyfStreams are the streams of a transformed glyf table, each read
// glyph by glyph.
type glyfStreams struct {
	nContour, nPoints, flag, glyph, composite, bbox, instruction *reader
	bboxBitmap, overlapBitmap                                    []byte
}

// glyfResult is a reconstructed glyf table with its loca, in the long
// format, and the xMin of every glyph (0 for an empty one), which a
// transformed hmtx takes its left side bearings from.
type glyfResult struct {
	glyf, loca []byte
	xMin       []int16
}

// reconstructGlyf undoes the glyf transform (§5.1) on data, the
// transformed table, and rebuilds loca (§5.3), always in the long format
// whatever indexFormat says, so that no offset can overflow. locaLength
// is the origLength of loca, which must be the size indexFormat implies.
// numGlyphs is maxp's, which the table's must equal.
func reconstructGlyf(data []byte, locaLength uint32, numGlyphs int) (glyfResult, error) {
	r := newReader(data, "transformed glyf")
	r.u16() // reserved
	optionFlags := r.u16()
	n := int(r.u16())
	indexFormat := r.u16()
	var sizes [7]uint32
	for i := range sizes {
		sizes[i] = r.u32()
	}
	var s glyfStreams
	for i, p := range []**reader{&s.nContour, &s.nPoints, &s.flag, &s.glyph, &s.composite, &s.bbox, &s.instruction} {
		*p = newReader(r.bytes(int(sizes[i])), streamNames[i])
	}
	if optionFlags&optionOverlapSimpleBitmap != 0 {
		s.overlapBitmap = r.bytes((n + 7) / 8)
	}
	if r.err != nil {
		return glyfResult{}, r.err
	}
	if n != numGlyphs {
		return glyfResult{}, errorf("transformed glyf: %d glyphs, maxp has %d", n, numGlyphs)
	}
	entry := uint32(2)
	if indexFormat != 0 {
		entry = 4
	}
	if want := uint32(n+1) * entry; locaLength != want {
		return glyfResult{}, errorf("loca: origLength %d, want %d for %d glyphs", locaLength, want, n)
	}
	s.bboxBitmap = s.bbox.bytes(4 * ((n + 31) / 32))
	if s.bbox.err != nil {
		return glyfResult{}, s.bbox.err
	}

	res := glyfResult{
		glyf: make([]byte, 0, min(4*len(data), maxDecodedSize)),
		loca: make([]byte, 0, 4*(n+1)),
		xMin: make([]int16, n),
	}
	var g glyphBuilder
	for i := range n {
		res.loca = binary.BigEndian.AppendUint32(res.loca, uint32(len(res.glyf)))
		xMin, out, err := g.glyph(&s, i, res.glyf)
		if err != nil {
			return glyfResult{}, errorf("glyph %d: %w", i, err)
		}
		res.glyf, res.xMin[i] = out, xMin
		for len(res.glyf)%4 != 0 {
			res.glyf = append(res.glyf, 0)
		}
		if len(res.glyf) > maxDecodedSize {
			return glyfResult{}, errorf("reconstructed glyf exceeds %d bytes", maxDecodedSize)
		}
	}
	res.loca = binary.BigEndian.AppendUint32(res.loca, uint32(len(res.glyf)))
	return res, nil
}

var streamNames = [7]string{"nContour stream", "nPoints stream", "flag stream", "glyph stream", "composite stream", "bbox stream", "instruction stream"}

// bit reports whether bit i of the MSB-first bit array b is set.
func bit(b []byte, i int) bool {
	return i/8 < len(b) && b[i/8]&(0x80>>(i%8)) != 0
}

// point is one outline point of a simple glyph, in absolute coordinates.
type point struct {
	x, y    int32
	onCurve bool
}

// glyphBuilder reconstructs glyph records, keeping its scratch space
// from one glyph to the next.
type glyphBuilder struct {
	endPts []uint16
	points []point
	flags  []byte
	xs, ys []byte
}

// glyph reads glyph i from the streams and appends its record to out.
// It returns the glyph's xMin and the extended out.
func (g *glyphBuilder) glyph(s *glyfStreams, i int, out []byte) (int16, []byte, error) {
	nContours := s.nContour.i16()
	if s.nContour.err != nil {
		return 0, nil, s.nContour.err
	}
	explicit := bit(s.bboxBitmap, i)
	switch {
	case nContours == 0:
		if explicit {
			return 0, nil, errorf("empty glyph with an explicit bounding box")
		}
		return 0, out, nil
	case nContours > 0:
		return g.simple(s, i, int(nContours), explicit, out)
	case nContours == -1:
		if !explicit {
			return 0, nil, errorf("composite glyph without an explicit bounding box")
		}
		return g.composite(s, out)
	default:
		return 0, nil, errorf("numberOfContours %d", nContours)
	}
}

// readBBox reads an explicit bounding box from the bbox stream.
func readBBox(s *glyfStreams) (bbox [4]int16, err error) {
	for j := range bbox {
		bbox[j] = s.bbox.i16()
	}
	return bbox, s.bbox.err
}

// simple reconstructs a simple glyph (§5.1, "Decoding of Simple Glyphs").
func (g *glyphBuilder) simple(s *glyfStreams, i, nContours int, explicit bool, out []byte) (int16, []byte, error) {
	g.endPts = g.endPts[:0]
	nPoints := 0
	for range nContours {
		nPoints += int(s.nPoints.u255())
		if s.nPoints.err != nil {
			return 0, nil, s.nPoints.err
		}
		if nPoints > math.MaxUint16 {
			return 0, nil, errorf("more than %d points", math.MaxUint16)
		}
		g.endPts = append(g.endPts, uint16(nPoints-1))
	}
	flags := s.flag.bytes(nPoints)
	if s.flag.err != nil {
		return 0, nil, s.flag.err
	}
	g.points = g.points[:0]
	var x, y int32
	bbox := [4]int32{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32}
	for _, f := range flags {
		p := s.glyph.bytes(tripletSize(f))
		if s.glyph.err != nil {
			return 0, nil, s.glyph.err
		}
		dx, dy, on := decodeTriplet(f, p)
		x, y = x+dx, y+dy
		if x < math.MinInt16 || x > math.MaxInt16 || y < math.MinInt16 || y > math.MaxInt16 {
			return 0, nil, errorf("point (%d, %d) outside the 16-bit range", x, y)
		}
		g.points = append(g.points, point{x, y, on})
		bbox = [4]int32{min(bbox[0], x), min(bbox[1], y), max(bbox[2], x), max(bbox[3], y)}
	}
	if nPoints == 0 {
		bbox = [4]int32{}
	}
	instructionLength := int(s.glyph.u255())
	instructions := s.instruction.bytes(instructionLength)
	if err := firstErr(s.glyph.err, s.instruction.err); err != nil {
		return 0, nil, err
	}
	var box [4]int16
	if explicit {
		var err error
		if box, err = readBBox(s); err != nil {
			return 0, nil, err
		}
	} else {
		box = [4]int16{int16(bbox[0]), int16(bbox[1]), int16(bbox[2]), int16(bbox[3])}
	}

	out = appendGlyphHeader(out, int16(nContours), box)
	for _, e := range g.endPts {
		out = binary.BigEndian.AppendUint16(out, e)
	}
	out = binary.BigEndian.AppendUint16(out, uint16(instructionLength))
	out = append(out, instructions...)
	out = g.appendPoints(out, bit(s.overlapBitmap, i))
	return box[0], out, nil
}

// appendPoints appends the flags and coordinates of g.points, in the
// compact form of OFF 5.3.3: one-byte or omitted deltas, repeated flags.
// overlap sets OVERLAP_SIMPLE on the first flag.
func (g *glyphBuilder) appendPoints(out []byte, overlap bool) []byte {
	g.flags, g.xs, g.ys = g.flags[:0], g.xs[:0], g.ys[:0]
	var px, py int32
	for j, p := range g.points {
		var f byte
		if p.onCurve {
			f |= flagOnCurve
		}
		if j == 0 && overlap {
			f |= flagOverlapSimple
		}
		var xf, yf byte
		xf, g.xs = appendDelta(g.xs, p.x-px, flagXShort, flagXSame)
		yf, g.ys = appendDelta(g.ys, p.y-py, flagYShort, flagYSame)
		g.flags = append(g.flags, f|xf|yf)
		px, py = p.x, p.y
	}
	for j := 0; j < len(g.flags); {
		f := g.flags[j]
		run := 1
		for j+run < len(g.flags) && g.flags[j+run] == f && run < 256 {
			run++
		}
		if run > 2 {
			out = append(out, f|flagRepeat, byte(run-1))
		} else {
			for range run {
				out = append(out, f)
			}
		}
		j += run
	}
	out = append(out, g.xs...)
	return append(out, g.ys...)
}

// appendDelta appends one coordinate delta to coords in the shortest
// form and returns the flag bits that say which: none for a zero delta,
// short with a sign for a magnitude below 256, else an Int16 (a delta
// between two 16-bit coordinates wraps as a 16-bit one does).
func appendDelta(coords []byte, d int32, short, same byte) (byte, []byte) {
	switch {
	case d == 0:
		return same, coords
	case d > 0 && d < 256:
		return short | same, append(coords, byte(d))
	case d < 0 && d > -256:
		return short, append(coords, byte(-d))
	default:
		return 0, binary.BigEndian.AppendUint16(coords, uint16(int16(d)))
	}
}

// composite reconstructs a composite glyph (§5.1, "Decoding of Composite
// Glyphs"): the components as they are in the composite stream, then the
// instructions if a component asks for them.
func (g *glyphBuilder) composite(s *glyfStreams, out []byte) (int16, []byte, error) {
	start := s.composite.off
	haveInstructions := false
	for more := true; more; {
		flags := s.composite.u16()
		n := 2 // glyphIndex
		if flags&compArgsAreWords != 0 {
			n += 4
		} else {
			n += 2
		}
		switch {
		case flags&compHaveScale != 0:
			n += 2
		case flags&compHaveXYScale != 0:
			n += 4
		case flags&compHaveTwoByTwo != 0:
			n += 8
		}
		s.composite.bytes(n)
		if s.composite.err != nil {
			return 0, nil, s.composite.err
		}
		haveInstructions = haveInstructions || flags&compHaveInstruction != 0
		more = flags&compMoreComponents != 0
	}
	components := s.composite.b[start:s.composite.off]
	var instructions []byte
	if haveInstructions {
		instructions = s.instruction.bytes(int(s.glyph.u255()))
		if err := firstErr(s.glyph.err, s.instruction.err); err != nil {
			return 0, nil, err
		}
	}
	box, err := readBBox(s)
	if err != nil {
		return 0, nil, err
	}
	out = appendGlyphHeader(out, -1, box)
	out = append(out, components...)
	if haveInstructions {
		out = binary.BigEndian.AppendUint16(out, uint16(len(instructions)))
		out = append(out, instructions...)
	}
	return box[0], out, nil
}

// appendGlyphHeader appends numberOfContours and the bounding box.
func appendGlyphHeader(out []byte, nContours int16, box [4]int16) []byte {
	out = binary.BigEndian.AppendUint16(out, uint16(nContours))
	for _, v := range box {
		out = binary.BigEndian.AppendUint16(out, uint16(v))
	}
	return out
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
