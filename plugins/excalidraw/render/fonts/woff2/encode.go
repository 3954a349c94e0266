package woff2

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/andybalholm/brotli"
)

// Encode writes the tables of a TrueType font (by tag) as a WOFF2 file
// with every table under the null transform, Brotli at the given quality
// (0–11). 'loca' follows 'glyf' in the directory, as decoders expect;
// the other tables are in tag order.
func Encode(tables map[string][]byte, quality int) ([]byte, error) {
	tags := make([]string, 0, len(tables))
	for tag := range tables {
		if tag != "loca" {
			tags = append(tags, tag)
		}
	}
	slices.Sort(tags)
	if _, ok := tables["loca"]; ok {
		i := slices.Index(tags, "glyf")
		tags = slices.Insert(tags, i+1, "loca")
	}
	var dir []byte
	var stream bytes.Buffer
	sfntSize := uint32(12 + 16*len(tags))
	total := 0
	for _, t := range tables {
		total += len(t)
	}
	// A window no larger than the data: the encoder's tables grow with
	// it, and clearing them costs more than compressing a small font.
	bw := brotli.NewWriterOptions(&stream, brotli.WriterOptions{Quality: quality, LGWin: min(max(bits.Len(uint(total)), 10), 24)})
	for _, tag := range tags {
		data := tables[tag]
		i := slices.Index(knownTags[:], tag)
		flags := byte(explicitTag)
		if i >= 0 {
			flags = byte(i)
		}
		if tag == "glyf" || tag == "loca" {
			flags |= 3 << 6 // version 3: the null transform of glyf and loca
		}
		dir = append(dir, flags)
		if i < 0 {
			dir = append(dir, tag...)
		}
		dir = appendBase128(dir, uint32(len(data)))
		if _, err := bw.Write(data); err != nil {
			return nil, err
		}
		sfntSize += (uint32(len(data)) + 3) &^ 3
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	out := make([]byte, headerSize, headerSize+len(dir)+stream.Len()+3)
	out = append(out, dir...)
	out = append(out, stream.Bytes()...)
	for len(out)%4 != 0 {
		out = append(out, 0)
	}
	be := binary.BigEndian
	be.PutUint32(out[0:], signature)
	be.PutUint32(out[4:], flavorTrueType)
	be.PutUint32(out[8:], uint32(len(out)))
	be.PutUint16(out[12:], uint16(len(tags)))
	be.PutUint32(out[16:], sfntSize)
	be.PutUint32(out[20:], uint32(stream.Len()))
	be.PutUint16(out[24:], 1) // version 1.0
	return out, nil
}

// appendBase128 appends v as a UIntBase128, in its shortest form.
func appendBase128(b []byte, v uint32) []byte {
	var tmp [5]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7F)
	for v >>= 7; v != 0; v >>= 7 {
		i--
		tmp[i] = byte(v&0x7F) | 0x80
	}
	return append(b, tmp[i:]...)
}
