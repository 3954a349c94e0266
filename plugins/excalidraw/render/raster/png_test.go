package raster

import (
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

// subBytes and subRGB subtract byte by byte, with no borrow between bytes.
func TestSubtractionIsPerByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100 {
		w := 1 + rng.IntN(50)
		a, b := make([]byte, 4*w), make([]byte, 4*w)
		for i := range a {
			a[i], b[i] = byte(rng.IntN(256)), byte(rng.IntN(256))
			if rng.IntN(3) == 0 {
				b[i] = a[i]
			}
		}
		d := make([]byte, 4*w)
		subBytes(d, a, b)
		rgb := make([]byte, 3*w)
		subRGB(rgb, a, b)
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
