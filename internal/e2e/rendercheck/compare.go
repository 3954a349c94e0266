package rendercheck

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Score says how alike two images are. Both are first flattened onto
// white (transparent pixels count as white), turned to gray (Rec. 601
// luma, 0 black … 1 white) and blurred with a Gaussian of σ = 1.5 px, so
// anti-aliasing and sub-pixel placement count for little. (A dark export
// without a background is light ink on transparent: draw both onto a dark
// image before comparing them.)
//
// Sizes: images whose widths and heights differ by at most SizeSlack px
// (rounding of the export size) are compared on their common top-left
// part; otherwise both are placed top-left on a white canvas of the larger
// size, so what one has and the other lacks counts as a difference.
//
// Calibration (compare_test.go on a synthetic sketch of 2 px strokes and
// text; rendercheck_test.go on Excalidraw's own exports of corpus scenes):
//
//	identical                          SSIM 1,         MeanAbsDiff 0
//	a pixel narrower (rounding)        SSIM 1          (compared on the common part)
//	shifted right by 1 px              SSIM 0.92–0.94, MeanAbsDiff ≈ 0.006–0.013
//	shifted 1 px right and 1 px down   SSIM ≈ 0.83,    MeanAbsDiff ≈ 0.015
//	shifted 3 px right and down        SSIM ≈ 0.15     (strokes no longer overlap)
//	another scene                      SSIM 0.05–0.3,  MeanAbsDiff 0.04–0.12
//	blank against a drawing            SSIM ≈ 0.07
//
// So above ≈ 0.9 the drawings agree to about a pixel; below ≈ 0.5 they
// are different pictures. SSIM's luminance term is forgiving: flat areas
// of slightly different light colors (a pale fill against white) still
// score near 1, which is what keeps two unrelated light scenes near 0.3
// rather than 0; MeanAbsDiff sees those.
type Score struct {
	// SSIM is the structural similarity (Wang et al. 2004) of 8×8
	// windows stepped by 4 px, averaged with each window weighted by its
	// content (log(1 + (σa² + σb² + (μa−μb)²)/C2)): the empty paper
	// around a drawing, flat and equal in both, weighs nothing, so a
	// sparse drawing against a blank image scores low rather than near 1.
	// 1 means identical (two images equal and flat everywhere score 1).
	SSIM float64
	// MeanAbsDiff is the mean absolute difference of the blurred gray
	// images over the compared area: 0 identical, 1 black against white
	// everywhere.
	MeanAbsDiff float64
	// Width and Height are the compared area; Padded says the sizes
	// differed by more than SizeSlack, so it is the larger of each.
	Width, Height int
	Padded        bool
}

// SizeSlack is how many pixels the sizes may differ by and still be
// compared on their common part: Excalidraw truncates the scaled export
// size, a renderer that rounds is a pixel off.
const SizeSlack = 2

// Compare scores how alike a and b are; see Score.
func Compare(a, b image.Image) Score {
	ab, bb := a.Bounds(), b.Bounds()
	switch {
	case ab.Empty() && bb.Empty():
		return Score{SSIM: 1}
	case ab.Empty() || bb.Empty():
		return Score{SSIM: 0, MeanAbsDiff: 1, Width: max(ab.Dx(), bb.Dx()), Height: max(ab.Dy(), bb.Dy()), Padded: true}
	}
	w, h := min(ab.Dx(), bb.Dx()), min(ab.Dy(), bb.Dy())
	var s Score
	if abs(ab.Dx()-bb.Dx()) > SizeSlack || abs(ab.Dy()-bb.Dy()) > SizeSlack {
		w, h = max(ab.Dx(), bb.Dx()), max(ab.Dy(), bb.Dy())
		s.Padded = true
	}
	s.Width, s.Height = w, h
	ga := blur(grayOnWhite(a, w, h), w, h)
	gb := blur(grayOnWhite(b, w, h), w, h)

	var sum float64
	for i := range ga {
		sum += math.Abs(float64(ga[i] - gb[i]))
	}
	s.MeanAbsDiff = sum / float64(len(ga))
	s.SSIM = ssim(ga, gb, w, h)
	return s
}

// grayOnWhite returns img's luma, flattened onto white, as a w×h plane
// from its top-left corner (white where img is smaller).
func grayOnWhite(img image.Image, w, h int) []float32 {
	g := make([]float32, w*h)
	for i := range g {
		g[i] = 1
	}
	r := img.Bounds()
	iw, ih := min(w, r.Dx()), min(h, r.Dy())
	luma := func(r, g, b, a uint32) float32 { // 16-bit, alpha-premultiplied
		y := 0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b) + float64(0xffff-a)
		return float32(y / 0xffff)
	}
	switch m := img.(type) {
	case *image.NRGBA:
		for y := range ih {
			row := m.Pix[m.PixOffset(r.Min.X, r.Min.Y+y):]
			for x := range iw {
				p := row[4*x : 4*x+4]
				a := float64(p[3]) / 255
				l := (0.299*float64(p[0])+0.587*float64(p[1])+0.114*float64(p[2]))/255*a + (1 - a)
				g[y*w+x] = float32(l)
			}
		}
	case *image.RGBA:
		for y := range ih {
			row := m.Pix[m.PixOffset(r.Min.X, r.Min.Y+y):]
			for x := range iw {
				p := row[4*x : 4*x+4]
				l := (0.299*float64(p[0])+0.587*float64(p[1])+0.114*float64(p[2]))/255 + (1 - float64(p[3])/255)
				g[y*w+x] = float32(l)
			}
		}
	default:
		for y := range ih {
			for x := range iw {
				g[y*w+x] = luma(img.At(r.Min.X+x, r.Min.Y+y).RGBA())
			}
		}
	}
	return g
}

// blur is a separable Gaussian of σ = 1.5 px (radius 4), clamped at the
// edges.
func blur(src []float32, w, h int) []float32 {
	const sigma, radius = 1.5, 4
	var k [2*radius + 1]float32
	var ks float32
	for i := range k {
		d := float64(i - radius)
		k[i] = float32(math.Exp(-d * d / (2 * sigma * sigma)))
		ks += k[i]
	}
	for i := range k {
		k[i] /= ks
	}
	tmp := make([]float32, len(src))
	for y := range h {
		row := src[y*w : (y+1)*w]
		for x := range w {
			var v float32
			for i, kv := range k {
				v += kv * row[clamp(x+i-radius, w)]
			}
			tmp[y*w+x] = v
		}
	}
	dst := make([]float32, len(src))
	for y := range h {
		for i, kv := range k {
			row := tmp[clamp(y+i-radius, h)*w:]
			out := dst[y*w : (y+1)*w]
			for x := range out {
				out[x] += kv * row[x]
			}
		}
	}
	return dst
}

// ssim is the mean SSIM of 8×8 windows stepped by 4 (one window of the
// whole image when it is smaller), each weighted by how much it holds:
// log(1 + (σa² + σb² + (μa−μb)²)/C2), so windows flat and equal in both
// weigh nothing and faint ones (the blur's tail beside a stroke) little.
func ssim(a, b []float32, w, h int) float64 {
	const (
		c1 = 0.01 * 0.01 // (K1·L)², L = 1
		c2 = 0.03 * 0.03
	)
	ww, wh := min(8, w), min(8, h)
	var total, weights float64
	for y0 := 0; y0+wh <= h; y0 += 4 {
		for x0 := 0; x0+ww <= w; x0 += 4 {
			var sa, sb, saa, sbb, sab float64
			for y := y0; y < y0+wh; y++ {
				ra, rb := a[y*w+x0:y*w+x0+ww], b[y*w+x0:y*w+x0+ww]
				for i := range ra {
					va, vb := float64(ra[i]), float64(rb[i])
					sa += va
					sb += vb
					saa += va * va
					sbb += vb * vb
					sab += va * vb
				}
			}
			m := float64(ww * wh)
			ma, mb := sa/m, sb/m
			va, vb := max(saa/m-ma*ma, 0), max(sbb/m-mb*mb, 0)
			cov := sab/m - ma*mb
			weight := math.Log1p((va + vb + (ma-mb)*(ma-mb)) / c2)
			if weight < 1e-6 {
				continue
			}
			if sa == sb && saa == sbb && sab == saa { // equal windows: exactly 1, not 1−ε
				total += weight
				weights += weight
				continue
			}
			total += weight * ((2*ma*mb + c1) * (2*cov + c2)) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			weights += weight
		}
	}
	if weights == 0 {
		return 1
	}
	return total / weights
}

func clamp(i, n int) int { return min(max(i, 0), n-1) }

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// SideBySide lays a and b out left to right, each flattened onto white,
// with a third panel showing where they differ (darker red = a larger
// difference of the gray images), under a line of text: label and the
// score.
func SideBySide(a, b image.Image, label string) image.Image {
	const gap, head = 8, 20
	ab, bb := a.Bounds(), b.Bounds()
	dw, dh := max(ab.Dx(), bb.Dx()), max(ab.Dy(), bb.Dy())
	w := ab.Dx() + bb.Dx() + dw + 4*gap
	h := head + dh + 2*gap
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Bounds(), image.NewUniform(color.RGBA{0xd0, 0xd0, 0xd0, 0xff}), image.Point{}, draw.Src)

	x := gap
	panel := func(img image.Image) {
		r := image.Rect(x, head+gap, x+img.Bounds().Dx(), head+gap+img.Bounds().Dy())
		draw.Draw(out, r, image.White, image.Point{}, draw.Src)
		draw.Draw(out, r, img, img.Bounds().Min, draw.Over)
		x = r.Max.X + gap
	}
	panel(a)
	panel(b)
	ga, gb := grayOnWhite(a, dw, dh), grayOnWhite(b, dw, dh)
	diff := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for i := range ga {
		d := math.Abs(float64(ga[i] - gb[i]))
		v := uint8(255 - math.Round(255*d))
		g := uint8(math.Round(255 * min(float64(ga[i]), float64(gb[i]))))
		if d < 1.0/255 { // the same: the drawing, faint
			v = 255 - (255-g)/4
			diff.Pix[4*i], diff.Pix[4*i+1], diff.Pix[4*i+2], diff.Pix[4*i+3] = v, v, v, 255
			continue
		}
		diff.Pix[4*i], diff.Pix[4*i+1], diff.Pix[4*i+2], diff.Pix[4*i+3] = 255, v, v, 255
	}
	panel(diff)

	s := Compare(a, b)
	text := label
	if text != "" {
		text += "   "
	}
	text += "left: a  middle: b  right: difference   " + formatScore(s)
	d := font.Drawer{Dst: out, Src: image.Black, Face: basicfont.Face7x13, Dot: fixed.P(gap, 15)}
	d.DrawString(text)
	return out
}

func formatScore(s Score) string {
	return "SSIM " + strconv.FormatFloat(s.SSIM, 'f', 4, 64) + "  mean abs diff " + strconv.FormatFloat(s.MeanAbsDiff, 'f', 4, 64)
}

// WritePNG encodes img as a PNG file at path.
func WritePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
