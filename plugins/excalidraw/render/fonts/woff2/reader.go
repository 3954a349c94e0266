package woff2

import "encoding/binary"

// reader reads big-endian values from a byte slice. A read past the end
// sets err and returns zeros; once err is set every later read fails too,
// so a caller may read a whole structure and check err once.
type reader struct {
	b   []byte
	off int
	err error
	// what names the data for error messages ("table directory", ...).
	what string
}

func newReader(b []byte, what string) *reader {
	return &reader{b: b, what: what}
}

// len returns the number of unread bytes.
func (r *reader) len() int { return len(r.b) - r.off }

// fail records the first error.
func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = errorf("%s: "+format, append([]any{r.what}, args...)...)
	}
}

// bytes returns the next n bytes, a sub-slice of the input.
func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > r.len() {
		r.fail("truncated: need %d bytes at offset %d, have %d", n, r.off, r.len())
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

func (r *reader) u8() uint8 {
	p := r.bytes(1)
	if p == nil {
		return 0
	}
	return p[0]
}

func (r *reader) u16() uint16 {
	p := r.bytes(2)
	if p == nil {
		return 0
	}
	return binary.BigEndian.Uint16(p)
}

func (r *reader) i16() int16 { return int16(r.u16()) }

func (r *reader) u32() uint32 {
	p := r.bytes(4)
	if p == nil {
		return 0
	}
	return binary.BigEndian.Uint32(p)
}

// base128 reads a UIntBase128 (§3.1): at most five bytes, the high bit
// marking continuation, no leading zero byte, no value above 2³²−1.
func (r *reader) base128() uint32 {
	var v uint32
	for i := 0; i < 5; i++ {
		b := r.u8()
		if r.err != nil {
			return 0
		}
		if i == 0 && b == 0x80 {
			r.fail("UIntBase128 with a leading zero")
			return 0
		}
		if v&0xFE000000 != 0 {
			r.fail("UIntBase128 overflows 32 bits")
			return 0
		}
		v = v<<7 | uint32(b&0x7F)
		if b&0x80 == 0 {
			return v
		}
	}
	r.fail("UIntBase128 longer than 5 bytes")
	return 0
}

// u255 reads a 255UInt16 (§3.1): one byte below 253 is the value itself;
// 253 is followed by a UInt16; 255 and 254 by one byte added to 253 and
// 506.
func (r *reader) u255() uint16 {
	const (
		wordCode         = 253
		oneMoreByteCode2 = 254
		oneMoreByteCode1 = 255
		lowestUCode      = 253
	)
	switch c := r.u8(); c {
	case wordCode:
		return r.u16()
	case oneMoreByteCode1:
		return uint16(r.u8()) + lowestUCode
	case oneMoreByteCode2:
		return uint16(r.u8()) + lowestUCode*2
	default:
		return uint16(c)
	}
}
