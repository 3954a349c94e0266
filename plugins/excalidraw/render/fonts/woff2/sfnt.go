package woff2

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
)

const (
	sfntHeaderSize  = 12
	sfntRecordSize  = 16
	headMinSize     = 54 // through glyphDataFormat
	headAdjustment  = 8  // offset of checkSumAdjustment in head
	headIndexToLoca = 50 // offset of indexToLocFormat in head
	checksumMagic   = 0xB1B0AFBA
)

// sfntTable is one table of the font Decode writes.
type sfntTable struct {
	tag  string
	data []byte
}

// writeSFNT lays out an SFNT file of flavor with tables, their data in
// the order given, each 4-byte aligned, after a table directory sorted
// by tag (OFF 5.1.1, 5.1.2). It fills in every table's checksum and
// head's checkSumAdjustment, and fails if the file would exceed
// maxDecodedSize.
func writeSFNT(flavor uint32, tables []sfntTable) ([]byte, error) {
	n := len(tables)
	if n == 0 || n > 0xFFFF {
		return nil, errorf("sfnt: %d tables", n)
	}
	size := sfntHeaderSize + sfntRecordSize*n
	var head []byte
	for _, t := range tables {
		size += pad4(len(t.data))
		if size > maxDecodedSize {
			return nil, errorf("sfnt: font exceeds %d bytes", maxDecodedSize)
		}
		if t.tag == "head" {
			head = t.data
		}
	}
	if len(head) < headMinSize {
		return nil, errorf("sfnt: 'head' missing or shorter than %d bytes", headMinSize)
	}
	// The adjustment is computed over the font with it zeroed.
	binary.BigEndian.PutUint32(head[headAdjustment:], 0)

	out := make([]byte, size)
	entrySelector := bits.Len(uint(n)) - 1
	searchRange := sfntRecordSize << entrySelector
	binary.BigEndian.PutUint32(out[0:], flavor)
	binary.BigEndian.PutUint16(out[4:], uint16(n))
	binary.BigEndian.PutUint16(out[6:], uint16(searchRange))
	binary.BigEndian.PutUint16(out[8:], uint16(entrySelector))
	binary.BigEndian.PutUint16(out[10:], uint16(n*sfntRecordSize-searchRange))

	type record struct {
		tag                      string
		checksum, offset, length uint32
	}
	records := make([]record, n)
	headOffset := 0
	off := sfntHeaderSize + sfntRecordSize*n
	for i, t := range tables {
		copy(out[off:], t.data)
		records[i] = record{t.tag, checksum(out[off : off+pad4(len(t.data))]), uint32(off), uint32(len(t.data))}
		if t.tag == "head" {
			headOffset = off
		}
		off += pad4(len(t.data))
	}
	slices.SortFunc(records, func(a, b record) int { return cmp.Compare(a.tag, b.tag) })
	for i, rec := range records {
		p := out[sfntHeaderSize+sfntRecordSize*i:]
		copy(p[0:4], rec.tag)
		binary.BigEndian.PutUint32(p[4:], rec.checksum)
		binary.BigEndian.PutUint32(p[8:], rec.offset)
		binary.BigEndian.PutUint32(p[12:], rec.length)
	}
	binary.BigEndian.PutUint32(out[headOffset+headAdjustment:], checksumMagic-checksum(out))
	return out, nil
}

// checksum is the OFF table checksum: the sum of b's big-endian 32-bit
// words, b's length being a multiple of 4.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i+4 <= len(b); i += 4 {
		sum += binary.BigEndian.Uint32(b[i:])
	}
	return sum
}

// pad4 rounds n up to a multiple of 4.
func pad4(n int) int { return (n + 3) &^ 3 }
