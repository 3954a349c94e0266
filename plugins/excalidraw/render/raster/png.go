package raster

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"

	"github.com/dshgo/dsh/internal/parallel"
)

// encodePNG writes img as an 8-bit RGBA PNG (non-premultiplied, as PNG
// holds colour) faster than image/png for these pictures: every row uses
// the Up filter (a drawing is mostly flat colour, which Up turns into
// zeros) instead of trying all five, and bands of rows are compressed on
// every processor at once, each band a run of deflate blocks ended by a
// sync flush, so the bands join into one zlib stream. The format is the
// PNG specification's; image/png decodes it (see the tests).
func encodePNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	stride := 1 + 4*width
	bands := max(1, min(runtime.GOMAXPROCS(0)*2, height/64))
	rowsPer := (height + bands - 1) / bands
	out := make([]bytes.Buffer, bands)
	sums := make([]uint32, bands) // adler32 of each band's filtered rows
	sizes := make([]int, bands)
	errs := make([]error, bands)
	band := func(i int) error {
		y0, y1 := i*rowsPer, min(height, (i+1)*rowsPer)
		raw := make([]byte, max(0, y1-y0)*stride)
		prev, cur := make([]byte, 4*width), make([]byte, 4*width)
		if y0 > 0 && y0 < height {
			unpremultiply(prev, rowPix(img, y0-1))
		}
		for y := y0; y < y1; y++ {
			row := raw[(y-y0)*stride : (y-y0+1)*stride]
			unpremultiply(cur, rowPix(img, y))
			if y == 0 {
				row[0] = 0 // None
				copy(row[1:], cur)
			} else {
				row[0] = 2 // Up
				for k := range cur {
					row[1+k] = cur[k] - prev[k]
				}
			}
			prev, cur = cur, prev
		}
		sums[i], sizes[i] = adler32.Checksum(raw), len(raw)
		fw := flaters.Get().(*flate.Writer)
		defer flaters.Put(fw)
		fw.Reset(&out[i])
		if _, err := fw.Write(raw); err != nil {
			return err
		}
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
	var idat bytes.Buffer
	idat.Write([]byte{0x78, 0x01}) // zlib: deflate, 32K window, fastest
	for i := range out {
		idat.Write(out[i].Bytes())
	}
	binary.Write(&idat, binary.BigEndian, sum)

	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(height))
	hdr[8], hdr[9] = 8, 6 // 8 bits, RGBA
	bw := &chunkWriter{w: w}
	bw.raw([]byte("\x89PNG\r\n\x1a\n"))
	bw.chunk("IHDR", hdr[:])
	bw.chunk("IDAT", idat.Bytes())
	bw.chunk("IEND", nil)
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

func (c *chunkWriter) chunk(typ string, data []byte) {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	c.raw(head[:])
	c.raw(data)
	c.raw(tail[:])
}
