package raster

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"
)

// BenchmarkEncodePNG encodes a 5000 × 1200 drawing-like picture: white,
// with outlined boxes and diagonal lines in a grid.
func BenchmarkEncodePNG(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 5000, 1200))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	rng := rand.New(rand.NewPCG(1, 1))
	for gy := 0; gy < 1200; gy += 60 {
		for gx := 0; gx < 5000; gx += 100 {
			c := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), 200, 255}
			for y := gy + 10; y < gy+50; y++ {
				for x := gx + 10; x < gx+90; x++ {
					if y < gy+12 || y > gy+47 || x < gx+12 || x > gx+87 || (x+y)%8 == 0 {
						img.SetRGBA(x, y, c)
					}
				}
			}
		}
	}
	var buf bytes.Buffer
	b.SetBytes(int64(len(img.Pix)))
	for b.Loop() {
		buf.Reset()
		if err := encodePNG(&buf, img, true); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1024, "KiB")
}
