package raster

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/klauspost/compress/flate"
	"hash/crc32"
	"image"
	"io"
	"math/bits"
	"runtime"
	"sync"

	"github.com/dshgo/dsh/internal/parallel"
)

// encodePNG writes img as an 8-bit PNG, RGB when opaque (every pixel's
// alpha is 255: a picture on its background) and RGBA otherwise
// (non-premultiplied, as PNG holds colour), faster than image/png for
// these pictures: each row uses the Up or the Sub filter, chosen by a
// count of the bytes they leave that are not zero, instead of trying all
// five and scoring sums, and bands of rows are compressed on every
// processor at once (pngBands).
// The format is the PNG specification's; image/png decodes it (see the
// tests).
func encodePNG(w io.Writer, img *image.RGBA, opaque bool) error {
	b := img.Bounds()
	e := newPNGBands(img, opaque, encodeBands(b.Dx(), b.Dy(), opaque, runtime.GOMAXPROCS(0)*2))
	rows := e.rowsPer()
	parallel.For(len(e.out), 1, func(i int) bool {
		return e.band(i, i*rows, min(b.Dy(), (i+1)*rows), true) == nil
	})
	return e.writeTo(w)
}

// encodeBands is how many bands, at most most, a picture of width ×
// height is compressed in: each at least 256 KiB of filtered rows, so it
// compresses well on its own.
func encodeBands(width, height int, opaque bool, most int) int {
	channels := 4
	if opaque {
		channels = 3
	}
	return max(1, min(most, height, height*(1+channels*width)/(256<<10)))
}

// pngBands is a PNG's image data compressed band by band: each band of
// rows is filtered and compressed on its own (band), by any goroutine
// and in any order, into a run of deflate blocks ended by a sync flush
// (the last band: the final block), so the bands join into one zlib
// stream with the Adler-32 of their checksums combined (writeTo).
type pngBands struct {
	img                     *image.RGBA
	opaque                  bool
	width, height, channels int
	stride                  int            // a filtered row: the filter byte and the pixels
	out                     []bytes.Buffer // each band's deflate blocks
	sums                    []uint32       // each band's Adler-32 of its filtered rows
	sizes                   []int          // and their length
	errs                    []error
}

// newPNGBands is img's PNG data in the given number of bands.
func newPNGBands(img *image.RGBA, opaque bool, bands int) *pngBands {
	b := img.Bounds()
	e := &pngBands{img: img, opaque: opaque, width: b.Dx(), height: b.Dy(), channels: 4}
	if opaque {
		e.channels = 3
	}
	e.stride = 1 + e.channels*e.width
	if b, ok := bandBuffers.Get().(*[]bytes.Buffer); ok && len(*b) >= bands {
		e.out = (*b)[:bands]
	} else {
		e.out = make([]bytes.Buffer, bands)
	}
	e.sums = make([]uint32, bands)
	e.sizes = make([]int, bands)
	e.errs = make([]error, bands)
	return e
}

// rowsPer is the rows of a band when they are shared out evenly.
func (e *pngBands) rowsPer() int { return (e.height + len(e.out) - 1) / len(e.out) }

// band filters and compresses rows y0 to y1 of the image as band i.
// Each row uses the Up or the Sub filter, whichever leaves fewer bytes
// that are not zero (a drawing is mostly flat colour: Up turns what is
// the same as the row above into zeros, Sub what is the same as the
// pixel to the left, as text and sloping lines are), except the
// picture's first row (None) and, unless up, the band's first row (Sub:
// a band written before the row above it is final).
func (e *pngBands) band(i, y0, y1 int, up bool) (err error) {
	defer func() { e.errs[i] = err }()
	img, width, stride := e.img, e.width, e.stride
	fw := flaters.Get().(*flate.Writer)
	defer flaters.Put(fw)
	fw.Reset(&e.out[i])
	// Rows are filtered into a buffer of about 128 KiB and compressed
	// from it while it is still in the processor's cache.
	chunk := max(1, (128<<10)/stride)
	raw := make([]byte, min(chunk, max(0, y1-y0))*stride)
	var spare, next, prev []byte
	if !e.opaque {
		spare, next = make([]byte, 4*width), make([]byte, 4*width)
		if up && y0 > 0 && y0 < e.height {
			prev = straightRow(spare, rowPix(img, y0-1))
		}
	}
	sum := uint32(1)
	for c0 := y0; c0 < y1; c0 += chunk {
		c1 := min(y1, c0+chunk)
		buf := raw[:(c1-c0)*stride]
		for y := c0; y < c1; y++ {
			row := buf[(y-c0)*stride : (y-c0+1)*stride]
			if e.opaque {
				px := rowPix(img, y)
				switch {
				case y == 0:
					row[0] = 0 // None
					packRGB(row[1:], px)
				case !up && y == y0:
					row[0] = 1 // Sub
					leftRGB(row[1:], px)
				case bytes.Equal(px, rowPix(img, y-1)):
					// The row above again (a gap between shapes): Up
					// leaves zeros only.
					row[0] = 2 // Up
					clear(row[1:])
				default:
					row[0] = 2 // Up
					// A row Up leaves mostly zeros needs no other try.
					// (Sub's count: the alpha bytes are all 255, the same.)
					if n := subRGB(row[1:], px, rowPix(img, y-1)); n > len(row)/16 && differ(px[4:], px)+3 < n {
						row[0] = 1 // Sub
						leftRGB(row[1:], px)
					}
				}
				continue
			}
			cur := straightRow(next, rowPix(img, y))
			switch {
			case y == 0:
				row[0] = 0 // None
				copy(row[1:], cur)
			case !up && y == y0:
				row[0] = 1 // Sub
				leftDiff(row[1:], cur, 4)
			default:
				row[0] = 2 // Up
				subBytes(row[1:], cur, prev)
				if n := nonZero(row[1:]); n > len(cur)/16 && differ(cur[4:], cur)+4 < n {
					row[0] = 1 // Sub
					leftDiff(row[1:], cur, 4)
				}
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
	e.sums[i], e.sizes[i] = sum, max(0, y1-y0)*stride
	if i == len(e.out)-1 {
		return fw.Close()
	}
	return fw.Flush()
}

// bandBuffers keeps the bands' buffers of PNGs written, grown to the
// size of their compressed bands, for the next PNG.
var bandBuffers sync.Pool

// writeTo writes the PNG: its header, the bands' data as one IDAT chunk,
// its end. The bands' buffers go back to bandBuffers.
func (e *pngBands) writeTo(w io.Writer) error {
	defer func() {
		for i := range e.out {
			e.out[i].Reset()
		}
		out := e.out
		bandBuffers.Put(&out)
		e.out = nil
	}()
	if err := errors.Join(e.errs...); err != nil {
		return err
	}
	var sum uint32 = 1
	for i := range e.out {
		sum = adler32Combine(sum, e.sums[i], e.sizes[i])
	}
	zhead := []byte{0x78, 0x01} // zlib: deflate, 32K window, fastest
	var ztail [4]byte
	binary.BigEndian.PutUint32(ztail[:], sum)
	idat := [][]byte{zhead}
	for i := range e.out {
		idat = append(idat, e.out[i].Bytes())
	}
	idat = append(idat, ztail[:])

	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(e.width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(e.height))
	hdr[8], hdr[9] = 8, 6 // 8 bits, RGBA
	if e.opaque {
		hdr[9] = 2 // RGB
	}
	bw := &chunkWriter{w: w}
	bw.raw([]byte("\x89PNG\r\n\x1a\n"))
	bw.chunk("IHDR", hdr[:])
	bw.chunk("IDAT", idat...) // the bands' streams written as they are, not joined first
	bw.chunk("IEND")
	return bw.err
}

// leftRGB is leftDiff for the colour of opaque RGBA pixels, packed as
// RGB.
func leftRGB(dst, px []byte) {
	if len(px) < 4 {
		return
	}
	dst[0], dst[1], dst[2] = px[0], px[1], px[2]
	subRGB(dst[3:], px[4:], px[:len(px)-4])
}

// leftDiff is PNG's Sub filter: dst is row with each byte less the byte
// bpp before it (the same channel of the pixel to its left).
func leftDiff(dst, row []byte, bpp int) {
	copy(dst[:min(bpp, len(row))], row)
	if len(row) > bpp {
		subBytes(dst[bpp:], row[bpp:], row[:len(row)-bpp])
	}
}

// nonZero counts the bytes of b that are not zero, eight at a time.
func nonZero(b []byte) int {
	n, i := 0, 0
	for ; i+8 <= len(b); i += 8 {
		n += nonZeroBytes(binary.LittleEndian.Uint64(b[i:]))
	}
	for _, c := range b[i:] {
		if c != 0 {
			n++
		}
	}
	return n
}

// differ counts the bytes of a that differ from b's at the same place
// (b at least as long), eight at a time: the bytes a filter subtracting b
// from a leaves that are not zero.
func differ(a, b []byte) int {
	n, i := 0, 0
	for ; i+8 <= len(a); i += 8 {
		n += nonZeroBytes(binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]))
	}
	for ; i < len(a); i++ {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// nonZeroBytes counts the bytes of x that are not zero: each byte's bits
// are folded into its lowest (shifts that carry bits of the next byte
// into a byte's higher bits only).
func nonZeroBytes(x uint64) int {
	if x == 0 {
		return 0
	}
	x |= x >> 4
	x |= x >> 2
	x |= x >> 1
	return bits.OnesCount64(x & 0x0101010101010101)
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
// two pixels at a time. It returns how many of the bytes written are not
// zero.
func subRGB(dst, a, b []byte) int {
	const high = 0x8080808080808080
	i, j, n := 0, 0, 0
	// Four pixels at a time, and twelve zeros where they are the same
	// in a and b (most of a drawing's row is the row above's).
	for ; j+16 <= len(a) && j+16 <= len(b) && i+16 <= len(dst); i, j = i+12, j+16 {
		pa, pb, out := a[j:j+16], b[j:j+16], dst[i:i+16]
		x0, x1 := binary.LittleEndian.Uint64(pa), binary.LittleEndian.Uint64(pa[8:])
		y0, y1 := binary.LittleEndian.Uint64(pb), binary.LittleEndian.Uint64(pb[8:])
		if x0 == y0 && x1 == y1 {
			binary.LittleEndian.PutUint64(out, 0)
			binary.LittleEndian.PutUint32(out[8:], 0)
			continue
		}
		d0 := (((x0 | high) - (y0 &^ high)) ^ ((x0 ^ ^y0) & high)) & 0x00ffffff00ffffff
		d1 := (((x1 | high) - (y1 &^ high)) ^ ((x1 ^ ^y1) & high)) & 0x00ffffff00ffffff
		binary.LittleEndian.PutUint64(out, d0&0xffffff|(d0>>8)&0xffffff000000)
		binary.LittleEndian.PutUint64(out[6:], d1&0xffffff|(d1>>8)&0xffffff000000)
		n += nonZeroBytes(d0) + nonZeroBytes(d1)
	}
	// Eight bytes written for six: the two over are the next pair's.
	for ; j+8 <= len(a) && i+8 <= len(dst); i, j = i+6, j+8 {
		x, y := binary.LittleEndian.Uint64(a[j:]), binary.LittleEndian.Uint64(b[j:])
		d := (((x | high) - (y &^ high)) ^ ((x ^ ^y) & high)) & 0x00ffffff00ffffff
		binary.LittleEndian.PutUint64(dst[i:], d&0xffffff|(d>>8)&0xffffff000000)
		n += nonZeroBytes(d)
	}
	for ; j+3 < len(a); i, j = i+3, j+4 {
		dst[i], dst[i+1], dst[i+2] = a[j]-b[j], a[j+1]-b[j+1], a[j+2]-b[j+2]
		n += nonZero(dst[i : i+3])
	}
	return n
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
			x := binary.LittleEndian.Uint64(q[i:])
			s2 += 8 * s1
			if x == 0 {
				continue
			}
			// The bytes b0…b7 add b0 + … + b7 to s1 and 8·b0 + 7·b1 + …
			// + 1·b7 to s2: sums of 16-bit lanes (the even bytes, the odd
			// ones), each a multiplication whose top lane gathers them.
			even, odd := x&0x00ff00ff00ff00ff, (x>>8)&0x00ff00ff00ff00ff
			s1 += uint32((even + odd) * 0x0001000100010001 >> 48)
			s2 += uint32((even*0x0008000600040002 + odd*0x0007000500030001) >> 48)
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
