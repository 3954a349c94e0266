package woff2

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Decode converts the WOFF2 file b into the SFNT (TrueType or OpenType)
// font it encodes. Transformed glyf and loca tables are rebuilt with a
// long (32-bit) loca, head's indexToLocFormat set to match; a transformed
// hmtx gets its left side bearings back; every other table is copied. The
// table directory is sorted, and table checksums and head's
// checkSumAdjustment are recomputed. Extended metadata and private data
// are dropped.
//
// Decode returns ErrCollection for a font collection and an error for
// any malformed input. What it allocates follows the data the file
// really holds and is capped: the decompressed tables at the size the
// table directory declares, at most 64 MiB, and the rebuilt glyf and the
// output at 64 MiB each.
func Decode(b []byte) ([]byte, error) {
	sfnt, err := decode(b)
	if err != nil && !errors.Is(err, ErrCollection) {
		return nil, fmt.Errorf("woff2: %w", err)
	}
	return sfnt, err
}

// decode is Decode, its errors without the "woff2: " prefix.
func decode(b []byte) ([]byte, error) {
	h, err := parseHeader(b)
	if err != nil {
		return nil, err
	}
	r := newReader(b[headerSize:], "table directory")
	tables, total, err := parseDirectory(r, int(h.numTables))
	if err != nil {
		return nil, err
	}
	start := headerSize + r.off
	end := start + int(h.totalCompressedSize)
	if err := checkLayout(h, end, len(b)); err != nil {
		return nil, err
	}
	data, err := decompress(b[start:end], total)
	if err != nil {
		return nil, err
	}
	out, err := rebuildTables(tables, data)
	if err != nil {
		return nil, err
	}
	return writeSFNT(h.flavor, out)
}

// checkLayout checks that the blocks after the compressed data, which
// ends at end, follow it in order, each after at most 3 bytes of padding,
// up to the end of the file (§3): the metadata block if any, then the
// private data block if any.
func checkLayout(h header, end, fileLen int) error {
	blocks := []struct {
		name           string
		offset, length uint32
	}{
		{"metadata", h.metaOffset, h.metaLength},
		{"private data", h.privOffset, h.privLength},
	}
	if end > fileLen {
		return errorf("compressed data ends at %d, past the %d-byte file", end, fileLen)
	}
	for _, blk := range blocks {
		if blk.length == 0 {
			continue
		}
		if off := int(blk.offset); off < end || off > pad4(end) {
			return errorf("%s block at %d, want it after the block ending at %d", blk.name, off, end)
		}
		end = int(blk.offset) + int(blk.length)
	}
	if fileLen > pad4(end) {
		return errorf("%d bytes after the last block", fileLen-end)
	}
	return nil
}

// rebuildTables returns the font's tables, in directory order, from the
// decompressed data: untransformed ones as they are, transformed ones
// reconstructed.
func rebuildTables(tables []tableEntry, data []byte) ([]sfntTable, error) {
	get := func(tag string) (*tableEntry, []byte) {
		t := find(tables, tag)
		if t == nil {
			return nil, nil
		}
		return t, data[t.offset : t.offset+t.length]
	}
	numGlyphs := -1
	if _, maxp := get("maxp"); len(maxp) >= 6 {
		numGlyphs = int(binary.BigEndian.Uint16(maxp[4:]))
	}
	_, head := get("head")
	if len(head) < headMinSize {
		return nil, errorf("'head' missing or shorter than %d bytes", headMinSize)
	}
	replaced := map[string][]byte{}

	glyf, glyfData := get("glyf")
	loca, locaData := get("loca")
	var xMin []int16
	if glyf != nil && glyf.transformed {
		if numGlyphs < 0 {
			return nil, errorf("transformed 'glyf' without a valid 'maxp'")
		}
		res, err := reconstructGlyf(glyfData, loca.origLength, numGlyphs)
		if err != nil {
			return nil, err
		}
		replaced["glyf"], replaced["loca"], xMin = res.glyf, res.loca, res.xMin
		binary.BigEndian.PutUint16(head[headIndexToLoca:], 1)
	}

	if hmtx, hmtxData := get("hmtx"); hmtx != nil && hmtx.transformed {
		_, hhea := get("hhea")
		switch {
		case glyf == nil:
			return nil, errorf("transformed 'hmtx' without 'glyf'")
		case numGlyphs < 0:
			return nil, errorf("transformed 'hmtx' without 'maxp'")
		case len(hhea) < 36:
			return nil, errorf("transformed 'hmtx' without a valid 'hhea'")
		}
		if xMin == nil {
			longLoca := binary.BigEndian.Uint16(head[headIndexToLoca:]) != 0
			var err error
			if xMin, err = glyfXMin(glyfData, locaData, numGlyphs, longLoca); err != nil {
				return nil, err
			}
		}
		numHMetrics := int(binary.BigEndian.Uint16(hhea[34:]))
		h, err := reconstructHmtx(hmtxData, numHMetrics, xMin)
		if err != nil {
			return nil, err
		}
		replaced["hmtx"] = h
	}

	out := make([]sfntTable, len(tables))
	for i, t := range tables {
		d, ok := replaced[t.tag]
		if !ok {
			d = data[t.offset : t.offset+t.length]
		}
		out[i] = sfntTable{t.tag, d}
	}
	return out, nil
}
