package rendercheck

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// sketch draws what an export looks like: boxes, an ellipse and arrows of
// 2 px dark strokes, and lines of text, on white, from a seed.
func sketch(w, h int, seed uint64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	r := rand.New(rand.NewPCG(seed, 1))
	ras := vector.NewRasterizer(w, h)
	line := func(x0, y0, x1, y1 float64) {
		dx, dy := x1-x0, y1-y0
		l := math.Hypot(dx, dy)
		if l == 0 {
			return
		}
		nx, ny := -dy/l, dx/l // half of a 2 px stroke on each side
		ras.MoveTo(float32(x0+nx), float32(y0+ny))
		ras.LineTo(float32(x1+nx), float32(y1+ny))
		ras.LineTo(float32(x1-nx), float32(y1-ny))
		ras.LineTo(float32(x0-nx), float32(y0-ny))
		ras.ClosePath()
	}
	for range 6 {
		x, y := 10+r.Float64()*float64(w-120), 10+r.Float64()*float64(h-80)
		bw, bh := 40+r.Float64()*80, 30+r.Float64()*40
		line(x, y, x+bw, y)
		line(x+bw, y, x+bw, y+bh)
		line(x+bw, y+bh, x, y+bh)
		line(x, y+bh, x, y)
		line(x+bw/2, y+bh, x+bw/2+r.Float64()*60-30, y+bh+40)
	}
	cx, cy, rx, ry := float64(w)/2, float64(h)/2, float64(w)/6, float64(h)/8
	for i := range 48 {
		a0, a1 := float64(i)*math.Pi/24, float64(i+1)*math.Pi/24
		line(cx+rx*math.Cos(a0), cy+ry*math.Sin(a0), cx+rx*math.Cos(a1), cy+ry*math.Sin(a1))
	}
	ras.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{0x1e, 0x1e, 0x1e, 0xff}), image.Point{})
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{0x1e, 0x1e, 0x1e, 0xff}), Face: basicfont.Face7x13}
	for i := range 4 {
		d.Dot = fixed.P(20+r.IntN(40), 30+i*40+r.IntN(10))
		d.DrawString([]string{"Generate SQL given", "question & schema", "Results", "Database"}[r.IntN(4)])
	}
	return img
}

// shiftXY moves img's content right by dx and down by dy px, white
// coming in.
func shiftXY(img image.Image, dx, dy int) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(out, out.Bounds().Add(image.Pt(dx, dy)), img, img.Bounds().Min, draw.Src)
	return out
}

func blank(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	return img
}

// TestCompareCalibration documents what scores mean (see Score).
func TestCompareCalibration(t *testing.T) {
	a := sketch(400, 300, 1)
	// The same drawing without a background: ink #1e1e1e with the alpha
	// that gives a's gray over white.
	transparent := image.NewNRGBA(a.Bounds())
	for i := 0; i < len(a.Pix); i += 4 {
		alpha := (255 - int(a.Pix[i])) * 255 / (255 - 0x1e)
		transparent.Pix[i], transparent.Pix[i+1], transparent.Pix[i+2], transparent.Pix[i+3] = 0x1e, 0x1e, 0x1e, uint8(min(alpha, 255))
	}
	for _, tc := range []struct {
		name             string
		b                image.Image
		minSSIM, maxSSIM float64
		maxMAD           float64
		padded           bool
	}{
		{"identical", a, 1, 1, 0, false},
		{"transparent background counts as white", transparent, 0.99, 1, 0.005, false},
		{"a pixel narrower and shorter (rounding)", a.SubImage(image.Rect(0, 0, 399, 299)), 1, 1, 0, false},
		{"shifted right by 1 px", shiftXY(a, 1, 0), 0.85, 0.95, 0.02, false},
		{"shifted by 1 px right and down", shiftXY(a, 1, 1), 0.75, 0.9, 0.02, false},
		{"shifted by 3 px right and down", shiftXY(a, 3, 3), 0, 0.3, 0.05, false},
		{"a different drawing", sketch(400, 300, 2), 0, 0.3, 1, false},
		{"blank", blank(400, 300), 0, 0.15, 1, false},
		{"much larger (padded with white)", sketch(480, 300, 1), 0, 0.4, 1, true},
	} {
		s := Compare(a, tc.b)
		t.Logf("%-40s SSIM %.4f  MeanAbsDiff %.4f  %dx%d padded=%v", tc.name, s.SSIM, s.MeanAbsDiff, s.Width, s.Height, s.Padded)
		if s.SSIM < tc.minSSIM || s.SSIM > tc.maxSSIM || s.MeanAbsDiff > tc.maxMAD || s.Padded != tc.padded {
			t.Errorf("%s: %+v, want SSIM in [%v, %v], MeanAbsDiff ≤ %v, padded %v", tc.name, s, tc.minSSIM, tc.maxSSIM, tc.maxMAD, tc.padded)
		}
		if r := Compare(tc.b, a); math.Abs(r.SSIM-s.SSIM) > 1e-9 || math.Abs(r.MeanAbsDiff-s.MeanAbsDiff) > 1e-9 {
			t.Errorf("%s: not symmetric: %+v vs %+v", tc.name, s, r)
		}
	}
}

func TestCompareEdges(t *testing.T) {
	if s := Compare(blank(50, 40), blank(50, 40)); s.SSIM != 1 || s.MeanAbsDiff != 0 {
		t.Errorf("two blanks: %+v", s)
	}
	if s := Compare(image.NewRGBA(image.Rect(0, 0, 0, 0)), blank(3, 3)); s.SSIM != 0 || s.MeanAbsDiff != 1 {
		t.Errorf("empty against an image: %+v", s)
	}
	if s := Compare(image.NewRGBA(image.Rect(0, 0, 0, 0)), image.NewRGBA(image.Rect(0, 0, 0, 0))); s.SSIM != 1 {
		t.Errorf("two empty images: %+v", s)
	}
	// Smaller than a window: one window of the whole image.
	tiny := blank(3, 5)
	tiny.Set(1, 2, color.Black)
	if s := Compare(tiny, tiny); s.SSIM != 1 {
		t.Errorf("tiny: %+v", s)
	}
	if s := Compare(tiny, blank(3, 5)); s.SSIM >= 1 || s.MeanAbsDiff == 0 {
		t.Errorf("tiny against blank: %+v", s)
	}
	// Black against white everywhere.
	black := image.NewUniform(color.Black)
	bimg := image.NewRGBA(image.Rect(0, 0, 20, 20))
	draw.Draw(bimg, bimg.Bounds(), black, image.Point{}, draw.Src)
	if s := Compare(bimg, blank(20, 20)); s.SSIM > 0.01 || s.MeanAbsDiff < 0.99 {
		t.Errorf("black against white: %+v", s)
	}
	// An image whose bounds do not start at 0,0 compares by its content.
	a := sketch(200, 150, 3)
	moved := image.NewRGBA(image.Rect(30, 40, 230, 190))
	draw.Draw(moved, moved.Bounds(), a, image.Point{}, draw.Src)
	if s := Compare(a, moved); s.SSIM != 1 {
		t.Errorf("offset bounds: %+v", s)
	}
	// The generic path (a paletted image) agrees with the fast ones.
	p := image.NewPaletted(a.Bounds(), []color.Color{color.White, color.RGBA{0x1e, 0x1e, 0x1e, 0xff}, color.Gray{0x80}})
	draw.Draw(p, p.Bounds(), a, image.Point{}, draw.Src)
	if s := Compare(a, p); s.SSIM < 0.9 {
		t.Errorf("paletted: %+v", s)
	}
}

func TestSideBySide(t *testing.T) {
	a := sketch(200, 150, 1)
	b := sketch(220, 140, 2)
	img := SideBySide(a, b, "sketch 1 against 2")
	r := img.Bounds()
	if r.Dx() < 200+220+220 || r.Dy() < 150 {
		t.Fatalf("size %v", r)
	}
	// The diff panel is red where the two differ.
	var red int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Max.X - 230; x < r.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if c.R == 0xff && c.G < 0x80 && c.B < 0x80 {
				red++
			}
		}
	}
	if red == 0 {
		t.Error("no difference shown")
	}
	if testing.Verbose() {
		path := t.TempDir() + "/side.png"
		if err := WritePNG(path, img); err != nil {
			t.Fatal(err)
		}
	}
}
