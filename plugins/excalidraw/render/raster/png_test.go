package raster

import (
	"bytes"
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// adler32Update is hash/adler32's checksum, for data with runs of zeros
// of every length and alignment, and past the 5552 bytes between
// reductions.
func TestAdler32UpdateIsAdler32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 200 {
		data := make([]byte, rng.IntN(40000))
		for i := range data {
			if rng.IntN(10) < n%10 {
				data[i] = byte(rng.IntN(256))
			}
		}
		if got, want := adler32Update(1, data), adler32.Checksum(data); got != want {
			t.Fatalf("%d bytes: %08x, want %08x", len(data), got, want)
		}
	}
	all := make([]byte, 1<<20)
	for i := range all {
		all[i] = 0xff
	}
	if got, want := adler32Update(1, all), adler32.Checksum(all); got != want {
		t.Fatalf("a megabyte of 0xff: %08x, want %08x", got, want)
	}
}

// subBytes and subRGB subtract byte by byte, with no borrow between bytes;
// subRGB counts the bytes it leaves that are not zero.
func TestSubtractionIsPerByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 400 {
		w := 1 + rng.IntN(50)
		a, b := make([]byte, 4*w), make([]byte, 4*w)
		for i := range a {
			a[i], b[i] = byte(rng.IntN(256)), byte(rng.IntN(256))
			if rng.IntN(3) == 0 {
				b[i] = a[i]
			}
		}
		for i := 0; i < w; i++ { // whole pixels the same, and runs of them
			if rng.IntN(2) == 0 {
				copy(b[4*i:4*i+4], a[4*i:4*i+4])
			}
		}
		d := make([]byte, 4*w)
		subBytes(d, a, b)
		rgb := make([]byte, 3*w)
		if n, want := subRGB(rgb, a, b), nonZero(rgb); n != want {
			t.Fatalf("subRGB counted %d bytes that are not zero, want %d", n, want)
		}
		for i := range a {
			if d[i] != a[i]-b[i] {
				t.Fatalf("subBytes byte %d: %d - %d = %d", i, a[i], b[i], d[i])
			}
			if i%4 < 3 && rgb[i/4*3+i%4] != a[i]-b[i] {
				t.Fatalf("subRGB pixel %d channel %d: %d - %d = %d", i/4, i%4, a[i], b[i], rgb[i/4*3+i%4])
			}
		}
	}
}

// nonZero and differ count the bytes that are not zero, whatever their
// values and place in a word; leftDiff subtracts from each byte the one
// bpp before (leftRGB: the colour of RGBA pixels packed as RGB).
func TestNonZeroAndLeftDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 200 {
		b := make([]byte, rng.IntN(70))
		want := 0
		for i := range b {
			if rng.IntN(3) == 0 {
				b[i] = byte(1 << rng.IntN(8))
				if rng.IntN(2) == 0 {
					b[i] = byte(rng.IntN(256))
				}
			}
			if b[i] != 0 {
				want++
			}
		}
		if got := nonZero(b); got != want {
			t.Fatalf("nonZero(%v) = %d, want %d", b, got, want)
		}
		if got := differ(b, make([]byte, len(b))); got != want {
			t.Fatalf("differ(%v, zeros) = %d, want %d", b, got, want)
		}
		if px := b[:len(b)/4*4]; len(px) > 0 {
			packed, want, got := make([]byte, len(px)/4*3), make([]byte, len(px)/4*3), make([]byte, len(px)/4*3)
			packRGB(packed, px)
			leftDiff(want, packed, 3)
			leftRGB(got, px)
			if !bytes.Equal(got, want) {
				t.Fatalf("leftRGB(%v) = %v, want %v", px, got, want)
			}
		}
		for _, bpp := range []int{3, 4} {
			d := make([]byte, len(b))
			leftDiff(d, b, bpp)
			for i := range b {
				w := b[i]
				if i >= bpp {
					w -= b[i-bpp]
				}
				if d[i] != w {
					t.Fatalf("leftDiff(%v, %d)[%d] = %d, want %d", b, bpp, i, d[i], w)
				}
			}
		}
	}
}
