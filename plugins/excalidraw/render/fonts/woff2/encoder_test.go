package woff2

import (
	"bytes"
	"encoding/binary"

	"github.com/andybalholm/brotli"
)

// This file is a minimal WOFF2 encoder for the tests: it writes tables
// with whatever transform version and data the test gives, so the tests
// can make files the editor's fonts do not cover (null-transformed glyf,
// transformed hmtx, CFF, metadata, bad directories).

// testTable is one table for encodeWOFF2.
type testTable struct {
	tag     string
	version byte   // transform version, the flags' bits 6-7
	data    []byte // what goes into the compressed stream
	// origLength, for a transformed table (transformed reports whether
	// the entry has a transformLength); otherwise len(data).
	origLength  uint32
	transformed bool
}

// woff2File is what encodeWOFF2 writes.
type woff2File struct {
	flavor     uint32
	tables     []testTable
	meta, priv []byte // raw blocks, appended 4-byte aligned
	quality    int    // Brotli's, 0 for the best
}

func (f woff2File) encode() []byte {
	var dir, stream []byte
	for _, t := range f.tables {
		dir = appendEntry(dir, t)
		stream = append(stream, t.data...)
	}
	var compressed bytes.Buffer
	quality := f.quality
	if quality == 0 {
		quality = brotli.BestCompression
	}
	w := brotli.NewWriterLevel(&compressed, quality)
	w.Write(stream)
	w.Close()

	out := make([]byte, headerSize, headerSize+len(dir)+compressed.Len()+len(f.meta)+len(f.priv)+8)
	out = append(out, dir...)
	out = append(out, compressed.Bytes()...)
	var metaOffset, privOffset int
	if len(f.meta) > 0 {
		out = pad(out)
		metaOffset = len(out)
		out = append(out, f.meta...)
	}
	if len(f.priv) > 0 {
		out = pad(out)
		privOffset = len(out)
		out = append(out, f.priv...)
	}
	be := binary.BigEndian
	be.PutUint32(out[0:], signature)
	be.PutUint32(out[4:], f.flavor)
	be.PutUint32(out[8:], uint32(len(out)))
	be.PutUint16(out[12:], uint16(len(f.tables)))
	be.PutUint32(out[16:], uint32(12+16*len(f.tables)+len(stream))) // totalSfntSize, for reference only
	be.PutUint32(out[20:], uint32(compressed.Len()))
	be.PutUint16(out[24:], 1)
	be.PutUint32(out[28:], uint32(metaOffset))
	be.PutUint32(out[32:], uint32(len(f.meta)))
	be.PutUint32(out[36:], uint32(len(f.meta)))
	be.PutUint32(out[40:], uint32(privOffset))
	be.PutUint32(out[44:], uint32(len(f.priv)))
	return out
}

func pad(b []byte) []byte {
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// appendEntry appends t's table directory entry.
func appendEntry(dir []byte, t testTable) []byte {
	index := byte(explicitTag)
	for i, k := range knownTags {
		if k == t.tag {
			index = byte(i)
		}
	}
	dir = append(dir, t.version<<6|index)
	if index == explicitTag {
		dir = append(dir, t.tag...)
	}
	if !t.transformed {
		return appendBase128(dir, uint32(len(t.data)))
	}
	dir = appendBase128(dir, t.origLength)
	return appendBase128(dir, uint32(len(t.data)))
}

// append255 appends v as a 255UInt16, in its shortest form.
func append255(b []byte, v uint16) []byte {
	switch {
	case v < 253:
		return append(b, byte(v))
	case v < 506:
		return append(b, 255, byte(v-253))
	case v < 762:
		return append(b, 254, byte(v-506))
	default:
		return append(b, 253, byte(v>>8), byte(v))
	}
}

// nullTransformed returns the tables of the SFNT file sfnt for a WOFF2
// file with no transform (glyf and loca at version 3), in tag order.
func nullTransformed(sfnt []byte) []testTable {
	tables, err := sfntTables(sfnt)
	if err != nil {
		panic(err)
	}
	var out []testTable
	for _, tag := range sortedKeys(tables) {
		t := testTable{tag: tag, data: tables[tag]}
		if tag == "glyf" || tag == "loca" {
			t.version = 3
		}
		out = append(out, t)
	}
	return out
}
