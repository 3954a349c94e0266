package woff2

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"testing"
)

// testGlyf is a transformed glyf table (§5.1) put together by hand.
type testGlyf struct {
	optionFlags, numGlyphs, indexFormat                                       uint16
	nContour, nPoints, flag, glyph, composite, bboxBitmap, bbox, instructions []byte
	overlap                                                                   []byte
}

func (g testGlyf) bytes() []byte {
	be := binary.BigEndian
	b := be.AppendUint16(nil, 0)
	b = be.AppendUint16(b, g.optionFlags)
	b = be.AppendUint16(b, g.numGlyphs)
	b = be.AppendUint16(b, g.indexFormat)
	bbox := append(slices.Clone(g.bboxBitmap), g.bbox...)
	streams := [][]byte{g.nContour, g.nPoints, g.flag, g.glyph, g.composite, bbox, g.instructions}
	for _, s := range streams {
		b = be.AppendUint32(b, uint32(len(s)))
	}
	for _, s := range streams {
		b = append(b, s...)
	}
	return append(b, g.overlap...)
}

func u16s(vs ...int) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.BigEndian.AppendUint16(b, uint16(int16(v)))
	}
	return b
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// sampleGlyf has four glyphs: 0 empty; 1 simple, two contours, computed
// bounding box, instructions; 2 simple, explicit bounding box, OVERLAP_SIMPLE,
// four equal steps; 3 composite of two components with instructions.
func sampleGlyf() testGlyf {
	return testGlyf{
		optionFlags: optionOverlapSimpleBitmap,
		numGlyphs:   4,
		nContour:    u16s(0, 2, 1, -1),
		nPoints:     []byte{3, 1, 4},
		// glyph 1: (+10,+20) on, (0,+280) off, (+390,0) on | (0,−320) on
		// glyph 2: four times (+1,+1), on
		flag: []byte{27, 0x80 | 3, 13, 2, 23, 23, 23, 23},
		glyph: []byte{
			9<<4 | 3, 24, 134, 64, 3, // glyph 1 coordinates, 3 instruction bytes
			0, 0, 0, 0, 0, // glyph 2 coordinates, no instructions
			2, // glyph 3: 2 instruction bytes
		},
		composite: cat(
			u16s(compArgsAreWords|0x0002|compHaveScale|compMoreComponents, 1, 100, -100, 0x2000),
			u16s(0x0002|compHaveInstruction, 2), []byte{5, 6},
		),
		bboxBitmap:   []byte{0x30, 0, 0, 0},
		bbox:         u16s(-5, -6, 700, 800, 0, 0, 1000, 1000),
		instructions: []byte{1, 2, 3, 9, 8},
		overlap:      []byte{0x20},
	}
}

func TestReconstructGlyf(t *testing.T) {
	res, err := reconstructGlyf(sampleGlyf().bytes(), 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := cat(
		// glyph 1
		u16s(2, 10, -20, 400, 300, 2, 3, 3), []byte{1, 2, 3},
		[]byte{
			flagOnCurve | flagXShort | flagXSame | flagYShort | flagYSame, // +10, +20
			flagXSame,               // 0, +280, off
			flagOnCurve | flagYSame, // +390, 0
			flagOnCurve | flagXSame, // 0, −320
		},
		[]byte{10, 0x01, 0x86},
		[]byte{20, 0x01, 0x18, 0xFE, 0xC0},
		[]byte{0},
		// glyph 2
		u16s(1, -5, -6, 700, 800, 3, 0),
		[]byte{0x37 | flagOverlapSimple, 0x37 | flagRepeat, 2},
		[]byte{1, 1, 1, 1, 1, 1, 1, 1},
		[]byte{0, 0, 0},
		// glyph 3
		u16s(-1, 0, 0, 1000, 1000),
		u16s(compArgsAreWords|0x0002|compHaveScale|compMoreComponents, 1, 100, -100, 0x2000),
		u16s(0x0002|compHaveInstruction, 2), []byte{5, 6},
		u16s(2), []byte{9, 8},
		[]byte{0, 0},
	)
	if !bytes.Equal(res.glyf, want) {
		t.Errorf("glyf\n got % x\nwant % x", res.glyf, want)
	}
	wantLoca := cat(u16s(0, 0), u16s(0, 0), u16s(0, 32), u16s(0, 60), u16s(0, 92))
	if !bytes.Equal(res.loca, wantLoca) {
		t.Errorf("loca\n got % x\nwant % x", res.loca, wantLoca)
	}
	if want := []int16{0, 10, -5, 0}; !slices.Equal(res.xMin, want) {
		t.Errorf("xMin %v, want %v", res.xMin, want)
	}

	// Without the bitmap, no glyph has OVERLAP_SIMPLE, so glyph 2's four
	// flags are one run; with indexFormat 1, loca's origLength is in
	// 4-byte entries, and the output in the long format all the same.
	g := sampleGlyf()
	g.optionFlags, g.overlap, g.indexFormat = 0, nil, 1
	res, err = reconstructGlyf(g.bytes(), 20, 4)
	if err != nil {
		t.Fatal(err)
	}
	glyph2 := cat(u16s(1, -5, -6, 700, 800, 3, 0), []byte{0x37 | flagRepeat, 3}, []byte{1, 1, 1, 1, 1, 1, 1, 1})
	want = slices.Concat(want[:32], glyph2, want[60:])
	wantLoca = cat(u16s(0, 0), u16s(0, 0), u16s(0, 32), u16s(0, 56), u16s(0, 88))
	if !bytes.Equal(res.glyf, want) || !bytes.Equal(res.loca, wantLoca) {
		t.Errorf("without overlapSimpleBitmap\n got % x\nwant % x\n got % x\nwant % x", res.glyf, want, res.loca, wantLoca)
	}
}

func TestReconstructGlyfErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		edit      func(g *testGlyf)
		loca      uint32
		numGlyphs int
		err       string
	}{
		{"loca size", nil, 12, 4, "loca: origLength 12, want 10"},
		{"maxp disagrees", nil, 10, 5, "4 glyphs, maxp has 5"},
		{"empty glyph with a bbox", func(g *testGlyf) { g.bboxBitmap[0] |= 0x80 }, 10, 4, "glyph 0: empty glyph with an explicit bounding box"},
		{"composite without a bbox", func(g *testGlyf) { g.bboxBitmap[0] &^= 0x10 }, 10, 4, "glyph 3: composite glyph without"},
		{"numberOfContours -2", func(g *testGlyf) { g.nContour[7] = 0xFE }, 10, 4, "glyph 3: numberOfContours -2"},
		{"nContour stream short", func(g *testGlyf) { g.nContour = g.nContour[:7] }, 10, 4, "glyph 3: nContour stream: truncated"},
		{"nPoints stream short", func(g *testGlyf) { g.nPoints = g.nPoints[:2] }, 10, 4, "glyph 2: nPoints stream: truncated"},
		{"flag stream short", func(g *testGlyf) { g.flag = g.flag[:7] }, 10, 4, "glyph 2: flag stream: truncated"},
		{"glyph stream short", func(g *testGlyf) { g.glyph = g.glyph[:10] }, 10, 4, "glyph 3: glyph stream: truncated"},
		{"composite stream short", func(g *testGlyf) { g.composite = g.composite[:15] }, 10, 4, "glyph 3: composite stream: truncated"},
		{"bbox stream short", func(g *testGlyf) { g.bbox = g.bbox[:15] }, 10, 4, "glyph 3: bbox stream: truncated"},
		{"bbox bitmap short", func(g *testGlyf) { g.bboxBitmap, g.bbox = g.bboxBitmap[:3], nil }, 10, 4, "bbox stream: truncated"},
		{"instruction stream short", func(g *testGlyf) { g.instructions = g.instructions[:4] }, 10, 4, "glyph 3: instruction stream: truncated"},
		{"overlap bitmap missing", func(g *testGlyf) { g.overlap = nil }, 10, 4, "transformed glyf: truncated"},
		{"point out of range", func(g *testGlyf) {
			g.nContour, g.nPoints, g.flag, g.glyph = u16s(1, 0, 0, 0), []byte{1}, []byte{127}, []byte{0xFF, 0xFF, 0, 0, 0}
		}, 10, 4, "glyph 0: point (65535, 0) outside"},
		{"too many points", func(g *testGlyf) {
			g.nContour, g.nPoints = u16s(2, 0, 0, 0), []byte{253, 0xFF, 0xFF, 1}
		}, 10, 4, "glyph 0: more than 65535 points"},
	} {
		g := sampleGlyf()
		if tc.edit != nil {
			tc.edit(&g)
		}
		if _, err := reconstructGlyf(g.bytes(), tc.loca, tc.numGlyphs); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}
	for n := range glyfHeaderSize {
		if _, err := reconstructGlyf(sampleGlyf().bytes()[:n], 10, 4); err == nil {
			t.Errorf("a %d-byte header: no error", n)
		}
	}
}

// TestOverlapSimpleNunito checks, on Nunito (whose files have the
// overlapSimpleBitmap), that exactly the simple glyphs the bitmap marks
// get OVERLAP_SIMPLE on their first flag.
func TestOverlapSimpleNunito(t *testing.T) {
	b := editorFont(t, "Nunito/")
	h, err := parseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(b[headerSize:], "table directory")
	tables, total, err := parseDirectory(r, int(h.numTables))
	if err != nil {
		t.Fatal(err)
	}
	data, err := decompress(b[headerSize+r.off:][:h.totalCompressedSize], total)
	if err != nil {
		t.Fatal(err)
	}
	g := find(tables, "glyf")
	transformed := data[g.offset : g.offset+g.length]
	if binary.BigEndian.Uint16(transformed[2:])&optionOverlapSimpleBitmap == 0 {
		t.Fatal("this Nunito file has no overlapSimpleBitmap")
	}
	n := int(binary.BigEndian.Uint16(transformed[4:]))
	bitmap := transformed[len(transformed)-(n+7)/8:]

	sfnt, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := sfntTables(sfnt)
	glyf, loca := out["glyf"], out["loca"]
	marked, set := 0, 0
	for i := range n {
		start, end := binary.BigEndian.Uint32(loca[4*i:]), binary.BigEndian.Uint32(loca[4*i+4:])
		rec := glyf[start:end]
		if len(rec) == 0 || int16(binary.BigEndian.Uint16(rec)) <= 0 {
			continue
		}
		nContours := int(binary.BigEndian.Uint16(rec))
		instructionLength := int(binary.BigEndian.Uint16(rec[10+2*nContours:]))
		first := rec[10+2*nContours+2+instructionLength]
		if bit(bitmap, i) {
			marked++
		}
		if first&flagOverlapSimple != 0 {
			set++
		}
		if bit(bitmap, i) != (first&flagOverlapSimple != 0) {
			t.Errorf("glyph %d: bitmap %v, first flag %#02x", i, bit(bitmap, i), first)
		}
	}
	if marked == 0 {
		t.Error("no simple glyph is marked")
	}
	t.Logf("%d of %d glyphs have OVERLAP_SIMPLE", set, n)
}
