package gen

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
)

// pngRGB encodes a w×h 8-bit RGB picture whose pixels come from at. The
// image data is zlib with stored (uncompressed) deflate blocks, so the
// bytes depend on nothing but the pixels: no compressor's choices, which
// could change with the Go release, reach the committed files.
func pngRGB(w, h int, at func(x, y int) (r, g, b byte)) []byte {
	raw := make([]byte, 0, h*(1+3*w))
	for y := range h {
		raw = append(raw, 0) // filter: none
		for x := range w {
			r, g, b := at(x, y)
			raw = append(raw, r, g, b)
		}
	}
	var z bytes.Buffer
	z.Write([]byte{0x78, 0x01})
	for off := 0; off < len(raw) || off == 0; {
		n := min(len(raw)-off, 65535)
		final := byte(0)
		if off+n == len(raw) {
			final = 1
		}
		z.WriteByte(final)
		binary.Write(&z, binary.LittleEndian, uint16(n))
		binary.Write(&z, binary.LittleEndian, ^uint16(n))
		z.Write(raw[off : off+n])
		off += n
		if n == 0 {
			break
		}
	}
	binary.Write(&z, binary.BigEndian, adler32.Checksum(raw))

	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.Write(&out, binary.BigEndian, c.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits, truecolour
	chunk("IHDR", ihdr)
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}
