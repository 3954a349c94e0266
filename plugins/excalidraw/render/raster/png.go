package raster

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/klauspost/compress/flate"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"

	"github.com/dshgo/dsh/internal/parallel"
)

// encodePNG writes img as an 8-bit PNG, RGB when opaque (every pixel's
// alpha is 255: a picture on its background) and RGBA otherwise
// (non-premultiplied, as PNG holds colour), faster than image/png for
// these pictures: every row uses the Up filter (a drawing is mostly flat
// colour, which Up turns into zeros) instead of trying all five, and
// bands of rows are compressed on every processor at once, each band a
// run of deflate blocks ended by a sync flush, so the bands join into one
// zlib stream. The format is the PNG specification's; image/png decodes
// it (see the tests).
func encodePNG(w io.Writer, img *image.RGBA, opaque bool) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	channels := 4
	if opaque {
		channels = 3
	}
	stride := 1 + channels*width
	// Bands of at least 256 KiB, so each compresses well on its own.
	bands := max(1, min(runtime.GOMAXPROCS(0)*2, height, height*stride/(256<<10)))
	rowsPer := (height + bands - 1) / bands
	out := make([]bytes.Buffer, bands)
	sums := make([]uint32, bands) // adler32 of each band's filtered rows
	sizes := make([]int, bands)
	errs := make([]error, bands)
	band := func(i int) error {
		y0, y1 := i*rowsPer, min(height, (i+1)*rowsPer)
		fw := flaters.Get().(*flate.Writer)
		defer flaters.Put(fw)
		fw.Reset(&out[i])
		// Rows are filtered into a buffer of about 128 KiB and compressed
		// from it while it is still in the processor's cache.
		chunk := max(1, (128<<10)/stride)
		raw := make([]byte, min(chunk, max(0, y1-y0))*stride)
		var spare, next, prev []byte
		if !opaque {
			spare, next = make([]byte, 4*width), make([]byte, 4*width)
			if y0 > 0 && y0 < height {
				prev = straightRow(spare, rowPix(img, y0-1))
			}
		}
		sum := uint32(1)
		for c0 := y0; c0 < y1; c0 += chunk {
			c1 := min(y1, c0+chunk)
			buf := raw[:(c1-c0)*stride]
			for y := c0; y < c1; y++ {
				row := buf[(y-c0)*stride : (y-c0+1)*stride]
				if opaque {
					if y == 0 {
						row[0] = 0 // None
						packRGB(row[1:], rowPix(img, y))
					} else {
						row[0] = 2 // Up
						subRGB(row[1:], rowPix(img, y), rowPix(img, y-1))
					}
					continue
				}
				cur := straightRow(next, rowPix(img, y))
				if y == 0 {
					row[0] = 0 // None
					copy(row[1:], cur)
				} else {
					row[0] = 2 // Up
					subBytes(row[1:], cur, prev)
				}
				if &cur[0] == &next[0] { // keep it as prev: write the next row elsewhere
					spare, next = next, spare
				}
				prev = cur
			}
			sum = adler32Update(sum, buf)
			if _, err := fw.Write(buf); err != nil {
				return err
			}
		}
		sums[i], sizes[i] = sum, max(0, y1-y0)*stride
		if i == bands-1 {
			return fw.Close()
		}
		return fw.Flush()
	}
	parallel.For(bands, 1, func(i int) bool {
		errs[i] = band(i)
		return errs[i] == nil
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	var sum uint32 = 1
	for i := range bands {
		sum = adler32Combine(sum, sums[i], sizes[i])
	}
	zhead := []byte{0x78, 0x01} // zlib: deflate, 32K window, fastest
	var ztail [4]byte
	binary.BigEndian.PutUint32(ztail[:], sum)
	idat := [][]byte{zhead}
	for i := range out {
		idat = append(idat, out[i].Bytes())
	}
	idat = append(idat, ztail[:])

	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(height))
	hdr[8], hdr[9] = 8, 6 // 8 bits, RGBA
	if opaque {
		hdr[9] = 2 // RGB
	}
	bw := &chunkWriter{w: w}
	bw.raw([]byte("\x89PNG\r\n\x1a\n"))
	bw.chunk("IHDR", hdr[:])
	bw.chunk("IDAT", idat...) // the bands' streams written as they are, not joined first
	bw.chunk("IEND")
	return bw.err
}

var flaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed)
	return w
}}

// rowPix is row y of img's pixels (img's bounds start at 0, 0).
func rowPix(img *image.RGBA, y int) []byte {
	return img.Pix[y*img.Stride : y*img.Stride+4*img.Bounds().Dx()]
}

// straightRow is a row of premultiplied pixels with straight alpha: the
// row itself when it is opaque (most are: a picture has a background),
// else converted into buf.
func straightRow(buf, px []byte) []byte {
	const alphas = 0xff000000ff000000
	i := 0
	for ; i+8 <= len(px); i += 8 {
		if binary.LittleEndian.Uint64(px[i:])&alphas != alphas {
			break
		}
	}
	if i+8 > len(px) && (i == len(px) || px[len(px)-1] == 0xff) {
		return px
	}
	unpremultiply(buf, px)
	return buf
}

// packRGB copies the colour of RGBA pixels, dropping alpha.
func packRGB(dst, px []byte) {
	for i, j := 0, 0; j+3 < len(px); i, j = i+3, j+4 {
		dst[i], dst[i+1], dst[i+2] = px[j], px[j+1], px[j+2]
	}
}

// subRGB is subBytes for the colour of opaque RGBA pixels, packed as RGB,
// two pixels at a time.
func subRGB(dst, a, b []byte) {
	const high = 0x8080808080808080
	i, j := 0, 0
	// Eight bytes written for six: the two over are the next pair's.
	for ; j+8 <= len(a) && i+8 <= len(dst); i, j = i+6, j+8 {
		x, y := binary.LittleEndian.Uint64(a[j:]), binary.LittleEndian.Uint64(b[j:])
		d := ((x | high) - (y &^ high)) ^ ((x ^ ^y) & high)
		binary.LittleEndian.PutUint64(dst[i:], d&0xffffff|(d>>8)&0xffffff000000)
	}
	for ; j+3 < len(a); i, j = i+3, j+4 {
		dst[i], dst[i+1], dst[i+2] = a[j]-b[j], a[j+1]-b[j+1], a[j+2]-b[j+2]
	}
}

// adler32Update is hash/adler32's update of the checksum adler by p,
// with runs of zeros (most of an Up-filtered drawing) taken eight bytes
// at once: a zero adds nothing to the sum of bytes and that sum to the
// sum of sums.
func adler32Update(adler uint32, p []byte) uint32 {
	const mod, nmax = 65521, 5552 // nmax: the most bytes before s2 could overflow
	s1, s2 := adler&0xffff, adler>>16
	for len(p) > 0 {
		q := p[:min(len(p), nmax)]
		p = p[len(q):]
		i := 0
		for ; i+8 <= len(q); i += 8 {
			if binary.LittleEndian.Uint64(q[i:]) == 0 {
				s2 += 8 * s1
				continue
			}
			for _, c := range q[i : i+8] {
				s1 += uint32(c)
				s2 += s1
			}
		}
		for _, c := range q[i:] {
			s1 += uint32(c)
			s2 += s1
		}
		s1 %= mod
		s2 %= mod
	}
	return s2<<16 | s1
}

// subBytes sets dst[i] = a[i] - b[i] (mod 256), eight bytes at a time:
// each byte's high bit is set in a and cleared in b so no borrow crosses
// into the next byte, then put back by the xor.
func subBytes(dst, a, b []byte) {
	const high = 0x8080808080808080
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x, y := binary.LittleEndian.Uint64(a[i:]), binary.LittleEndian.Uint64(b[i:])
		binary.LittleEndian.PutUint64(dst[i:], ((x|high)-(y&^high))^((x^^y)&high))
	}
	for ; i < len(a); i++ {
		dst[i] = a[i] - b[i]
	}
}

// unpremultiply converts premultiplied RGBA pixels to straight alpha.
func unpremultiply(dst, src []byte) {
	for i := 0; i+3 < len(src); i += 4 {
		a := src[i+3]
		switch a {
		case 0xff:
			copy(dst[i:i+4], src[i:i+4])
		case 0:
			dst[i], dst[i+1], dst[i+2], dst[i+3] = 0, 0, 0, 0
		default:
			a32 := uint32(a)
			dst[i] = uint8((uint32(src[i])*0xff + a32/2) / a32)
			dst[i+1] = uint8((uint32(src[i+1])*0xff + a32/2) / a32)
			dst[i+2] = uint8((uint32(src[i+2])*0xff + a32/2) / a32)
			dst[i+3] = a
		}
	}
}

// adler32Combine is the Adler-32 of two byte runs joined, from each run's
// checksum and the second run's length (zlib's adler32_combine).
func adler32Combine(a, b uint32, lenB int) uint32 {
	const mod = 65521
	if lenB == 0 {
		return a
	}
	rem := uint32(lenB % mod)
	a1, a2 := a&0xffff, a>>16
	b1, b2 := b&0xffff, b>>16
	sum1 := (a1 + b1 + mod - 1) % mod
	sum2 := (rem*a1%mod + a2 + b2 + mod - rem) % mod
	return sum2<<16 | sum1
}

type chunkWriter struct {
	w   io.Writer
	err error
}

func (c *chunkWriter) raw(b []byte) {
	if c.err == nil {
		_, c.err = c.w.Write(b)
	}
}

// chunk writes a chunk whose data is the parts, one after another.
func (c *chunkWriter) chunk(typ string, parts ...[]byte) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(n))
	copy(head[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	c.raw(head[:])
	for _, p := range parts {
		crc.Write(p)
		c.raw(p)
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	c.raw(tail[:])
}
