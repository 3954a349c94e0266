package woff2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// decodeParts takes a WOFF2 file apart: its header, table directory and
// decompressed table data.
func decodeParts(tb testing.TB, b []byte) (header, []tableEntry, []byte) {
	tb.Helper()
	h, err := parseHeader(b)
	if err != nil {
		tb.Fatal(err)
	}
	r := newReader(b[headerSize:], "table directory")
	tables, total, err := parseDirectory(r, int(h.numTables))
	if err != nil {
		tb.Fatal(err)
	}
	data, err := decompress(b[headerSize+r.off:][:h.totalCompressedSize], total)
	if err != nil {
		tb.Fatal(err)
	}
	return h, tables, data
}

// asTestTables returns a WOFF2 file's tables as they are in it, to
// encode again, edited.
func asTestTables(tables []tableEntry, data []byte) []testTable {
	out := make([]testTable, len(tables))
	for i, t := range tables {
		out[i] = testTable{tag: t.tag, data: data[t.offset : t.offset+t.length], origLength: t.origLength, transformed: t.transformed}
		switch {
		case t.tag == "hmtx" && t.transformed:
			out[i].version = 1
		case (t.tag == "glyf" || t.tag == "loca") && !t.transformed:
			out[i].version = 3
		}
	}
	return out
}

// sameTables checks that two SFNT files have the same tables, head
// compared without its checkSumAdjustment.
func sameTables(t *testing.T, got, want []byte) {
	t.Helper()
	a, err := sfntTables(got)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sfntTables(want)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) {
		t.Errorf("%d tables, want %d", len(a), len(b))
	}
	for tag, w := range b {
		g := a[tag]
		if tag == "head" && len(g) >= 12 && len(w) >= 12 {
			g, w = cat(g[:8], g[12:]), cat(w[:8], w[12:])
		}
		if !bytes.Equal(g, w) {
			t.Errorf("table %q differs (%d bytes, want %d)", tag, len(g), len(w))
		}
	}
}

// TestDecodeStructure checks the SFNT files Decode makes of the editor's
// fonts: directory, checksums, the same tables as the WOFF2 file (those
// not transformed byte for byte), a long loca consistent with glyf.
func TestDecodeStructure(t *testing.T) {
	for name, b := range editorFonts(t) {
		sfnt, err := Decode(b)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := checkSFNT(sfnt); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := checkGlyfLoca(sfnt); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := checkGlyphs(sfnt); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		h, entries, data := decodeParts(t, b)
		if flavor := binary.BigEndian.Uint32(sfnt); flavor != h.flavor {
			t.Errorf("%s: flavor %#08x, want %#08x", name, flavor, h.flavor)
		}
		tables, _ := sfntTables(sfnt)
		if len(tables) != len(entries) {
			t.Errorf("%s: %d tables, want %d", name, len(tables), len(entries))
		}
		for _, e := range entries {
			got, want := tables[e.tag], data[e.offset:e.offset+e.length]
			if e.tag == "head" {
				got, want = cat(got[:8], got[12:50], got[52:]), cat(want[:8], want[12:50], want[52:])
			}
			if !e.transformed && !bytes.Equal(got, want) {
				t.Errorf("%s: table %q differs", name, e.tag)
			}
		}
	}
}

// checkGlyfLoca checks that a font's loca is long, holds numGlyphs+1
// offsets that never decrease and end at glyf's end, as Decode writes
// it, and that head says so.
func checkGlyfLoca(sfnt []byte) error {
	tables, err := sfntTables(sfnt)
	if err != nil {
		return err
	}
	glyf, loca, head, maxp := tables["glyf"], tables["loca"], tables["head"], tables["maxp"]
	if glyf == nil && loca == nil {
		return nil
	}
	if len(head) < 54 || len(maxp) < 6 {
		return errors.New("head or maxp too short")
	}
	if f := binary.BigEndian.Uint16(head[50:]); f != 1 {
		return errors.New("indexToLocFormat is not 1")
	}
	n := int(binary.BigEndian.Uint16(maxp[4:]))
	if len(loca) != 4*(n+1) {
		return errors.New("loca is not numGlyphs+1 long offsets")
	}
	prev := uint32(0)
	for i := range n + 1 {
		off := binary.BigEndian.Uint32(loca[4*i:])
		if off < prev || off > uint32(len(glyf)) || (i == n && off != uint32(len(glyf))) {
			return errors.New("loca offsets out of order or not ending at glyf's end")
		}
		prev = off
	}
	return nil
}

// TestDecodeNullTransform encodes a decoded font again with no
// transform at all and checks that decoding that gives the same tables.
func TestDecodeNullTransform(t *testing.T) {
	sfnt, err := Decode(largestFont(t, "Excalifont/"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := Decode(woff2File{flavor: 0x00010000, tables: nullTransformed(sfnt)}.encode())
	if err != nil {
		t.Fatal(err)
	}
	sameTables(t, again, sfnt)
	if err := checkSFNT(again); err != nil {
		t.Error(err)
	}
}

// TestDecodeHmtxTransform transforms hmtx in real files, next to a
// transformed glyf and next to one that is not, and checks that Decode
// gives the hmtx back: Excalifont's left side bearings all equal the
// glyphs' xMin but for .notdef's, an empty glyph with a bearing of 69,
// which the transform makes 0.
func TestDecodeHmtxTransform(t *testing.T) {
	b := largestFont(t, "Excalifont/")
	want, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	wantTables, _ := sfntTables(want)
	hhea, hmtx := wantTables["hhea"], wantTables["hmtx"]
	if lsb := binary.BigEndian.Uint16(hmtx[2:]); lsb != 69 {
		t.Fatalf(".notdef's lsb is %d, not 69: see which glyphs' lsb is not xMin", lsb)
	}
	binary.BigEndian.PutUint16(hmtx[2:], 0)
	numHMetrics := int(binary.BigEndian.Uint16(hhea[34:]))
	advances := make([]byte, 0, 2*numHMetrics)
	for i := range numHMetrics {
		advances = append(advances, hmtx[4*i:4*i+2]...)
	}
	transformed := func(tables []testTable) []testTable {
		for i := range tables {
			if tables[i].tag == "hmtx" {
				tables[i] = testTable{tag: "hmtx", version: 1, data: cat([]byte{hmtxNoLSB | hmtxNoLeftSideBearing}, advances),
					origLength: uint32(len(hmtx)), transformed: true}
			}
		}
		return tables
	}

	h, entries, data := decodeParts(t, b)
	got, err := Decode(woff2File{flavor: h.flavor, tables: transformed(asTestTables(entries, data))}.encode())
	if err != nil {
		t.Fatal(err)
	}
	sameTables(t, got, want)

	got, err = Decode(woff2File{flavor: h.flavor, tables: transformed(nullTransformed(want))}.encode())
	if err != nil {
		t.Fatal(err)
	}
	sameTables(t, got, want)

	// A transformed hmtx needs glyf.
	var noGlyf []testTable
	for _, tb := range transformed(nullTransformed(want)) {
		if tb.tag != "glyf" && tb.tag != "loca" {
			noGlyf = append(noGlyf, tb)
		}
	}
	if _, err := Decode(woff2File{flavor: h.flavor, tables: noGlyf}.encode()); err == nil || !strings.Contains(err.Error(), "without 'glyf'") {
		t.Errorf("transformed hmtx without glyf: %v", err)
	}
}

// cffTables are the tables of a made-up CFF-flavored font of 3 glyphs,
// which go-text reads (its CFF table is not one, so no glyph has an
// outline).
func cffTables() []testTable {
	head := make([]byte, 54)
	binary.BigEndian.PutUint32(head[12:], 0x5F0F3CF5) // magicNumber
	binary.BigEndian.PutUint16(head[18:], 1000)       // unitsPerEm
	hhea := make([]byte, 36)
	binary.BigEndian.PutUint16(hhea[34:], 1) // numberOfHMetrics
	// A cmap with one format 4 subtable, mapping nothing.
	cmap := cat(u16s(0, 1, 3, 1, 0, 12), u16s(4, 24, 0, 2, 2, 0, 0, 0xFFFF, 0, 0xFFFF, 1, 0))
	return []testTable{
		{tag: "head", data: head},
		{tag: "CFF ", data: []byte("not really CFF, passed through as it is")},
		{tag: "maxp", data: []byte{0, 0, 0x50, 0, 0, 3}},
		{tag: "hhea", data: hhea},
		{tag: "hmtx", data: u16s(500, 0, 0, 0)},
		{tag: "cmap", data: cmap},
		{tag: "XXXX", data: []byte{1, 2, 3}},
	}
}

// TestDecodeCFF checks that a CFF-flavored font passes through.
func TestDecodeCFF(t *testing.T) {
	tables := cffTables()
	sfnt, err := Decode(woff2File{flavor: 0x4F54544F, tables: tables}.encode())
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSFNT(sfnt); err != nil {
		t.Error(err)
	}
	if string(sfnt[:4]) != "OTTO" {
		t.Errorf("flavor %q", sfnt[:4])
	}
	if _, err := parseFace(sfnt); err != nil {
		t.Error(err)
	}
	got, _ := sfntTables(sfnt)
	for _, tb := range tables {
		g := got[tb.tag]
		if tb.tag == "head" {
			g = cat(g[:8], make([]byte, 4), g[12:])
		}
		if !bytes.Equal(g, tb.data) {
			t.Errorf("table %q: % x, want % x", tb.tag, g, tb.data)
		}
	}
}

// TestDecodeBlocks checks metadata and private data blocks: skipped when
// laid out as §3 says, an error otherwise.
func TestDecodeBlocks(t *testing.T) {
	f := woff2File{flavor: 0x4F54544F, tables: cffTables(), meta: []byte("compressed metadata"), priv: []byte("private")}
	b := f.encode()
	if _, err := Decode(b); err != nil {
		t.Fatal(err)
	}
	be := binary.BigEndian
	edit := func(change func(b []byte) []byte) []byte { return change(bytes.Clone(b)) }
	for _, tc := range []struct {
		name string
		b    []byte
		err  string
	}{
		{"trailing bytes", edit(func(b []byte) []byte {
			b = append(b, 0, 0, 0, 0)
			be.PutUint32(b[8:], uint32(len(b)))
			return b
		}), "bytes after the last block"},
		{"metadata overlapping the font data", edit(func(b []byte) []byte {
			be.PutUint32(b[28:], be.Uint32(b[28:])-4)
			return b
		}), "metadata block at"},
		{"a gap before the private data", edit(func(b []byte) []byte {
			be.PutUint32(b[40:], be.Uint32(b[40:])+4)
			be.PutUint32(b[44:], be.Uint32(b[44:])-4)
			return b
		}), "private data block at"},
		{"compressed data length", edit(func(b []byte) []byte {
			be.PutUint32(b[20:], be.Uint32(b[20:])+1)
			return b
		}), ""},
	} {
		if _, err := Decode(tc.b); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	b := woff2File{flavor: 0x4F54544F, tables: cffTables()}.encode()
	if _, err := Decode(b); err != nil {
		t.Fatal(err)
	}
	be := binary.BigEndian
	headless := woff2File{flavor: 0x4F54544F, tables: cffTables()[1:]}.encode()
	// A stream that holds one byte more or less than the directory says.
	longer, shorter := cffTables(), cffTables()
	longer[6].data, shorter[6].data = []byte{1, 2, 3, 4}, []byte{1, 2}
	longerFile, shorterFile := woff2File{flavor: 0x4F54544F, tables: longer}.encode(), woff2File{flavor: 0x4F54544F, tables: shorter}.encode()
	splice := func(dst, src []byte) []byte { // src's compressed data under dst's directory
		dstEnd, srcEnd := len(dst), len(src)
		out := cat(dst[:dstEnd-int(be.Uint32(dst[20:]))], src[srcEnd-int(be.Uint32(src[20:])):])
		be.PutUint32(out[8:], uint32(len(out)))
		be.PutUint32(out[20:], be.Uint32(src[20:]))
		return out
	}
	total := 0
	for _, tb := range cffTables() {
		total += len(tb.data)
	}
	corrupt := bytes.Clone(b)
	for i := len(corrupt) - int(be.Uint32(b[20:])); i < len(corrupt); i++ {
		corrupt[i] ^= 0x55
	}
	for _, tc := range []struct {
		name string
		b    []byte
		err  string
	}{
		{"no head", headless, "'head' missing"},
		{"more data than the directory says", splice(b, longerFile), fmt.Sprintf("stream holds more than the %d bytes the table directory says", total)},
		{"less data than the directory says", splice(b, shorterFile), fmt.Sprintf("stream holds %d bytes, the table directory says %d", total-1, total)},
		{"corrupt brotli", corrupt, "brotli"},
	} {
		_, err := Decode(tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), "woff2: ") {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}

	ttcf := bytes.Clone(b)
	copy(ttcf[4:], "ttcf")
	if _, err := Decode(ttcf); !errors.Is(err, ErrCollection) || err.Error() != ErrCollection.Error() {
		t.Errorf("ttcf: %v, want ErrCollection", err)
	}
}

// TestDecodeTruncated decodes every prefix of a real file, as it is and
// with the header's length made to agree: each must fail, none panic,
// but for those that only lose the file's final padding.
func TestDecodeTruncated(t *testing.T) {
	b := editorFont(t, "Excalifont/")
	h, err := parseHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	r := newReader(b[headerSize:], "table directory")
	if _, _, err := parseDirectory(r, int(h.numTables)); err != nil {
		t.Fatal(err)
	}
	end := headerSize + r.off + int(h.totalCompressedSize) // then padding
	for n := range len(b) {
		if _, err := Decode(b[:n]); err == nil {
			t.Fatalf("%d of %d bytes: no error", n, len(b))
		}
		if n >= headerSize && n < end {
			c := bytes.Clone(b[:n])
			binary.BigEndian.PutUint32(c[8:], uint32(n))
			if _, err := Decode(c); err == nil {
				t.Fatalf("%d of %d bytes, length %d: no error", n, len(b), n)
			}
		}
	}
}

// TestDecodeMemoryBound checks that what Decode allocates follows the
// data the file really holds, not only what it declares: a directory
// declaring 60 MiB over a 1 KiB stream, and a 1 MiB table whose stream
// inflates to 60 MiB, both fail having allocated far less than 60 MiB
// (Brotli's window takes up to 16 MiB).
func TestDecodeMemoryBound(t *testing.T) {
	declared := woff2File{flavor: 0x4F54544F, tables: []testTable{{tag: "head", data: make([]byte, 1024)}}}.encode()
	be := binary.BigEndian
	// The entry is [flags, base128 1024 = 0x88 0x00]; make it 60 MiB.
	dir := appendBase128([]byte{1}, 60<<20)
	declared = cat(declared[:headerSize], dir, declared[headerSize+3:])
	be.PutUint32(declared[8:], uint32(len(declared)))

	bomb := woff2File{flavor: 0x4F54544F, tables: []testTable{{tag: "head", data: make([]byte, 60<<20)}}, quality: 1}.encode()
	dir = appendBase128([]byte{1}, 1<<20)
	bomb = cat(bomb[:headerSize], dir, bomb[headerSize+5:])
	be.PutUint32(bomb[8:], uint32(len(bomb)))

	for name, b := range map[string][]byte{"declared": declared, "bomb": bomb} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode(b)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "brotli: stream holds") {
			// "declared": fewer bytes than declared; "bomb": more.
			t.Errorf("%s: %v, want a size mismatch", name, err)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: allocated %.1f MiB", name, float64(alloc)/(1<<20))
		if alloc > 16<<20 {
			t.Errorf("%s: allocated %d MiB", name, alloc>>20)
		}
	}
}

func BenchmarkDecodeExcalifont(b *testing.B) {
	f := largestFont(b, "Excalifont/")
	b.SetBytes(int64(len(f)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(f); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDecodeGlyfWithoutMaxp checks that a transformed glyf needs maxp,
// whose glyph count the rebuilt loca must agree with.
func TestDecodeGlyfWithoutMaxp(t *testing.T) {
	h, entries, data := decodeParts(t, editorFont(t, "Excalifont/"))
	var tables []testTable
	for _, tb := range asTestTables(entries, data) {
		if tb.tag != "maxp" {
			tables = append(tables, tb)
		}
	}
	_, err := Decode(woff2File{flavor: h.flavor, tables: tables}.encode())
	if err == nil || !strings.Contains(err.Error(), "without a valid 'maxp'") {
		t.Errorf("got %v", err)
	}
}
