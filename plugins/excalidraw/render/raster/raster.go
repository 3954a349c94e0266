// Package raster paints a render.Picture into pixels and encodes them as
// PNG: fills and round-joined strokes by exact signed-area coverage
// (coverage, stroker), glyphs from Excalidraw's fonts, images resampled
// into place.
package raster

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // image elements may hold GIFs
	_ "image/jpeg"
	"io"
	"math"
	"runtime"
	"sync"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // and WebP

	"github.com/dshgo/dsh/internal/parallel"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// Paint draws pic into a new image of pic.PixelSize(). Horizontal bands
// of the image are painted at once on every processor, each painting the
// items that reach it, in order, so overlaps blend as they would in one
// pass.
func Paint(pic *render.Picture, fs *fonts.Set) (*image.RGBA, error) {
	w, h := pic.PixelSize()
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("raster: empty picture")
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	paintInto(img, pic, fs, false)
	return img, nil
}

// paintInto paints pic into img, its size; dirty says img holds an
// earlier picture, to be cleared where there is no background.
func paintInto(img *image.RGBA, pic *render.Picture, fs *fonts.Set, dirty bool) {
	h := img.Rect.Dy()
	// More bands than processors, handed out in turn, so that one slowed
	// by a busy machine or a crowded part of the picture holds up little.
	bands := evenBands(min(4*runtime.GOMAXPROCS(0), h/32))
	rows := (h + bands - 1) / bands
	bg := background(pic, dirty)
	parallel.For(bands, 1, func(i int) bool {
		paintBand(img, pic, fs, bg, i*rows, min(h, (i+1)*rows))
		return true
	})
}

// evenBands is n bands (at least one) rounded down to a multiple of the
// processors when there are more of them: 3 bands on 2 processors end
// when one has painted two, 2 bands (each half again as tall) when each
// has painted one, in three quarters of the time.
func evenBands(n int) int {
	if procs := runtime.GOMAXPROCS(0); n > procs {
		n -= n % procs
	}
	return max(1, n)
}

// background is what a band is filled with before painting: the
// picture's background, transparency over an earlier picture (dirty), or
// nothing.
func background(pic *render.Picture, dirty bool) image.Image {
	if pic.Background != nil {
		return image.NewUniform(paint(pic, *pic.Background, false, 1))
	}
	if dirty {
		return image.Transparent
	}
	return nil
}

// paintBand paints rows y0 to y1 of img: fills them with bg (unless nil)
// and paints the items that reach them, in order, so overlaps blend as
// they would in one pass.
func paintBand(img *image.RGBA, pic *render.Picture, fs *fonts.Set, bg image.Image, y0, y1 int) {
	p := newPainter(img, pic, fs)
	defer func() {
		p.img, p.target, p.pic = nil, nil, nil
		painters.Put(p)
	}()
	p.band = image.Rect(0, y0, img.Rect.Dx(), y1)
	if bg != nil {
		draw.Draw(img, p.band, bg, image.Point{}, draw.Src)
	}
	for j := range pic.Items {
		p.item(&pic.Items[j])
	}
}

// PNG paints pic and writes it as a PNG (fast compression: the picture is
// flat colour and compresses well anyway). Each band is compressed as
// soon as it is painted, by the goroutine that painted it, while its
// pixels are still in the processor's caches.
func PNG(out io.Writer, pic *render.Picture, fs *fonts.Set) error {
	w, h := pic.PixelSize()
	if w <= 0 || h <= 0 {
		return fmt.Errorf("raster: empty picture")
	}
	// The pixels are a scratch buffer here, reused by the next PNG (a
	// fresh one costs the system's zeroing of every page).
	n := 4 * w * h
	var pix []byte
	if n <= maxPooled {
		if b, ok := pixPool.Get().(*[]byte); ok && cap(*b) >= n {
			pix = (*b)[:n]
		}
	}
	dirty := pix != nil
	if pix == nil {
		pix = make([]byte, n)
	}
	img := &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	// On an opaque background every pixel stays opaque (all painting is
	// source-over): RGB, a quarter less to filter and compress.
	opaque := pic.Background != nil && pic.Background.A == 255
	// Bands as paintInto's, but each large enough to compress well.
	bands := evenBands(min(4*runtime.GOMAXPROCS(0), h/32, encodeBands(w, h, opaque, math.MaxInt)))
	e := newPNGBands(img, opaque, bands)
	rows := e.rowsPer()
	bg := background(pic, dirty)
	parallel.For(bands, 1, func(i int) bool {
		y0, y1 := i*rows, min(h, (i+1)*rows)
		paintBand(img, pic, fs, bg, y0, y1)
		// The band above may still be painting: the first row is
		// filtered without it.
		return e.band(i, y0, y1, false) == nil
	})
	err := e.writeTo(out)
	if n <= maxPooled {
		pixPool.Put(&pix)
	}
	return err
}

// pixPool holds the pixels of PNGs painted, at most maxPooled bytes each.
var pixPool sync.Pool

const maxPooled = 256 << 20

type painter struct {
	img     *image.RGBA     // the picture
	target  *image.RGBA     // where shapes go now: the picture or a layer
	band    image.Rectangle // the rows this painter paints
	clip    image.Rectangle
	pic     *render.Picture
	fonts   *fonts.Set
	base    render.Affine // scene → pixels
	cov     coverage
	union   union
	stroker stroker
	path    devicePath     // reused between shapes
	flat    []render.Point // a subpath flattened, reused
	// Text laid out and glyph outlines at a size, kept between bands and
	// pictures: the same words and letters come back.
	lines    map[lineKey]fonts.Line
	outlines map[glyphKey][]fonts.Seg
}

type lineKey struct {
	set    *fonts.Set
	text   string
	family int
	size   float64
}

type glyphKey struct {
	glyph fonts.Glyph // at 0, 0
	size  float64
}

// maxCached bounds each of a painter's caches: past it, one starts over.
const maxCached = 4096

// layout is fonts.Layout, kept in the painter.
func (p *painter) layout(text string, family int, size float64) (fonts.Line, error) {
	k := lineKey{p.fonts, text, family, size}
	if l, ok := p.lines[k]; ok {
		return l, nil
	}
	l, err := p.fonts.Layout(text, family, size)
	if err != nil {
		return l, err
	}
	if p.lines == nil || len(p.lines) >= maxCached {
		p.lines = map[lineKey]fonts.Line{}
	}
	p.lines[k] = l
	return l, nil
}

// outline is g's outline at size, kept in the painter.
func (p *painter) outline(g fonts.Glyph, size float64) []fonts.Seg {
	g.X, g.Y = 0, 0
	k := glyphKey{g, size}
	if o, ok := p.outlines[k]; ok {
		return o
	}
	o := g.Outline(size)
	if p.outlines == nil || len(p.outlines) >= maxCached {
		p.outlines = map[glyphKey][]fonts.Seg{}
	}
	p.outlines[k] = o
	return o
}

// painters keeps painters between bands and pictures: their buffers
// (coverage, union, paths) are sized by the largest shapes they painted.
var painters = sync.Pool{New: func() any { return new(painter) }}

// newPainter is a painter of pic into img, from painters.
func newPainter(img *image.RGBA, pic *render.Picture, fs *fonts.Set) *painter {
	p := painters.Get().(*painter)
	p.img, p.target, p.pic, p.fonts = img, img, pic, fs
	p.base = render.Affine{A: pic.Scale, D: pic.Scale, E: -pic.View.MinX * pic.Scale, F: -pic.View.MinY * pic.Scale}
	return p
}

func (p *painter) color(c render.Color, noFilter bool, opacity float64) color.NRGBA {
	return paint(p.pic, c, noFilter, opacity)
}

// paint is the colour c is drawn in: the dark theme applied (unless
// noFilter: a raster image), its alpha times opacity.
func paint(pic *render.Picture, c render.Color, noFilter bool, opacity float64) color.NRGBA {
	if pic.Dark && !noFilter {
		c = render.ThemeFilter(c)
	}
	return color.NRGBA{c.R, c.G, c.B, uint8(math.Round(float64(c.A) * opacity))}
}

func (p *painter) item(it *render.Item) {
	m := p.base.Mul(it.Transform)
	p.clip = p.band
	if b, ok := p.pic.Bounds[it.ID]; ok {
		// Strokes wander a little outside an element's box: rough's
		// offsets, half the stroke width, round caps.
		pad := int(24*p.pic.Scale) + 4
		if !p.boxPixels(p.base, b).Inset(-pad).Overlaps(p.clip) {
			return
		}
	}
	if it.Clip != nil {
		p.clip = p.clip.Intersect(p.boxPixels(p.base.Mul(it.Clip.Transform), it.Clip.Box))
		if p.clip.Empty() {
			return
		}
	}
	if it.Knockout != nil {
		p.knockedOut(it, m)
		return
	}
	p.paintItem(it, m)
}

// knockedOut paints an item into a layer the size of its box, clears its
// knockout box there and composites the layer: an arrow with a gap where
// its label is.
func (p *painter) knockedOut(it *render.Item, m render.Affine) {
	r := p.clip
	if b, ok := p.pic.Bounds[it.ID]; ok {
		r = r.Intersect(p.boxPixels(p.base, b).Inset(-8))
	}
	if r.Empty() {
		return
	}
	layer := image.NewRGBA(r)
	p.target, p.clip = layer, r
	p.paintItem(it, m)
	p.target = p.img
	hole := p.boxPixels(p.base, *it.Knockout)
	draw.Draw(layer, hole, image.Transparent, image.Point{}, draw.Src)
	draw.Draw(p.img, r, layer, r.Min, draw.Over)
}

// boxPixels is the pixel box covering box under m.
func (p *painter) boxPixels(m render.Affine, box geom.Rect) image.Rectangle {
	pts := []render.Point{m.Apply(render.Point{X: box.MinX, Y: box.MinY}), m.Apply(render.Point{X: box.MaxX, Y: box.MinY}),
		m.Apply(render.Point{X: box.MaxX, Y: box.MaxY}), m.Apply(render.Point{X: box.MinX, Y: box.MaxY})}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range pts {
		minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
		maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
	}
	return pixelRect(minX, minY, maxX, maxY)
}

// pixelRect is the whole pixels covering a box, kept within int range.
func pixelRect(minX, minY, maxX, maxY float64) image.Rectangle {
	const lim = 1 << 28
	c := func(v float64) int { return int(math.Max(-lim, math.Min(lim, v))) }
	return image.Rect(c(math.Floor(minX)), c(math.Floor(minY)), c(math.Ceil(maxX)), c(math.Ceil(maxY)))
}

func (p *painter) paintItem(it *render.Item, m render.Affine) {
	scale := math.Sqrt(math.Abs(m.A*m.D - m.B*m.C))
	for _, s := range it.Shapes {
		if s.Paint.Fill != nil {
			p.path.reset()
			p.path.addPath(s.Path, m)
			p.fill(p.color(*s.Paint.Fill, it.NoFilter, it.Opacity), !s.Paint.EvenOdd)
		}
		if s.Paint.Stroke != nil && s.Paint.Width > 0 {
			p.path.reset()
			p.path.addPath(s.Path, m)
			p.stroke(p.color(*s.Paint.Stroke, it.NoFilter, it.Opacity), s.Paint.Width*scale, s.Paint.Dash, scale)
		}
	}
	if it.Text != nil {
		p.text(it.Text, m, it.Opacity, it.NoFilter)
	}
	if it.Image != nil {
		p.image(it.Image, m, it.Opacity)
	}
}

// devicePath is a path in pixels, with its bounds, ready for the scanner.
type devicePath struct {
	segs                   []deviceSeg
	minX, minY, maxX, maxY float64
}

type deviceSeg struct {
	op render.SegOp
	p  [3]render.Point
}

func (d *devicePath) reset() {
	d.segs = d.segs[:0]
	d.minX, d.minY, d.maxX, d.maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
}

func (d *devicePath) add(op render.SegOp, pts ...render.Point) {
	var s deviceSeg
	s.op = op
	for i, q := range pts {
		s.p[i] = q
		// Plain comparisons: a NaN point widens nothing (its edges are
		// dropped by the coverage), and they cost less than math.Min.
		if q.X < d.minX {
			d.minX = q.X
		}
		if q.X > d.maxX {
			d.maxX = q.X
		}
		if q.Y < d.minY {
			d.minY = q.Y
		}
		if q.Y > d.maxY {
			d.maxY = q.Y
		}
	}
	d.segs = append(d.segs, s)
}

// addPath adds path mapped by m. The bounds hold every control point, so
// they hold the curves.
func (d *devicePath) addPath(path render.Path, m render.Affine) {
	for _, s := range path {
		switch s.Op {
		case render.MoveTo, render.LineTo:
			d.add(s.Op, m.Apply(s.P[0]))
		case render.QuadTo:
			d.add(s.Op, m.Apply(s.P[0]), m.Apply(s.P[1]))
		case render.CubicTo:
			d.add(s.Op, m.Apply(s.P[0]), m.Apply(s.P[1]), m.Apply(s.P[2]))
		case render.Close:
			d.add(s.Op)
		}
	}
}

// begin readies the coverage for the part of the target the path can
// touch (its bounds grown by pad pixels, within the clip): the cost is
// that box's, not the picture's. It returns the box, or false when the
// path touches nothing visible.
func (p *painter) begin(pad float64) (image.Rectangle, bool) {
	d := &p.path
	if len(d.segs) == 0 || math.IsInf(d.minX, 0) || math.IsNaN(d.minX+d.minY+d.maxX+d.maxY) {
		return image.Rectangle{}, false
	}
	r := pixelRect(d.minX-pad, d.minY-pad, d.maxX+pad, d.maxY+pad).Intersect(p.clip).Intersect(p.target.Bounds())
	if r.Empty() {
		return image.Rectangle{}, false
	}
	p.cov.reset(r.Dx(), r.Dy())
	return r, true
}

// subpaths calls each with every subpath of the device path as points,
// its curves flattened, and whether it is closed. The points are reused
// between calls (buf in, buf out).
func (d *devicePath) subpaths(buf []render.Point, each func(pts []render.Point, closed bool)) []render.Point {
	pts := buf[:0]
	var first render.Point
	for _, s := range d.segs {
		if s.op != render.MoveTo && s.op != render.Close && len(pts) == 0 {
			pts = append(pts, first) // drawing on after a Close starts from the subpath's start
		}
		switch s.op {
		case render.MoveTo:
			if len(pts) > 0 {
				each(pts, false)
			}
			pts = append(pts[:0], s.p[0])
			first = s.p[0]
		case render.LineTo:
			pts = append(pts, s.p[0])
		case render.QuadTo:
			flattenQuad(pts[len(pts)-1], s.p[0], s.p[1], func(q render.Point) { pts = append(pts, q) })
		case render.CubicTo:
			flattenCubic(pts[len(pts)-1], s.p[0], s.p[1], s.p[2], func(q render.Point) { pts = append(pts, q) })
		case render.Close:
			if len(pts) > 0 {
				each(pts, true)
			}
			pts = pts[:0]
		}
	}
	if len(pts) > 0 {
		each(pts, false)
	}
	return pts
}

func (p *painter) fill(c color.NRGBA, nonZero bool) {
	if c.A == 0 {
		return
	}
	r, ok := p.begin(1)
	if !ok {
		return
	}
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	p.flat = p.path.subpaths(p.flat, func(pts []render.Point, _ bool) {
		for i, a := range pts { // every subpath is filled closed
			b := pts[(i+1)%len(pts)]
			p.cov.line(a.X-ox, a.Y-oy, b.X-ox, b.Y-oy)
		}
	})
	p.cov.paint(p.target.SubImage(r).(*image.RGBA), c, nonZero)
}

func (p *painter) stroke(c color.NRGBA, width float64, dash []float64, scale float64) {
	if c.A == 0 || !(width > 0) {
		return
	}
	r, ok := p.begin(width/2 + 2)
	if !ok {
		return
	}
	d := &p.path
	s := &p.stroker
	s.cov, s.hairs = &p.cov, &p.union
	s.setWidth(width)
	s.ox, s.oy = float64(r.Min.X), float64(r.Min.Y)
	s.dash = usableDash(dash, scale, 4*(d.maxX-d.minX+d.maxY-d.minY)*float64(len(d.segs)))
	dst := p.target.SubImage(r).(*image.RGBA)
	// Chromium blends each subpath of a stroke at most a pixel wide (a
	// hairline) on its own, and covers a wider stroke with the union of
	// its subpaths: the coverage holds one subpath at a time.
	s.hair = 0
	if width <= 1 {
		s.hair = width
	}
	n := 0
	p.union.reset(r.Dx(), r.Dy())
	s.before = func() {
		if n > 0 {
			if s.hair > 0 {
				p.union.paint(dst, c)
			} else {
				p.cov.merge(&p.union)
			}
		}
		n++
	}
	p.flat = d.subpaths(p.flat, s.subpath)
	s.before = nil
	if s.hair > 0 {
		p.union.paint(dst, c)
		return
	}
	if n <= 1 {
		p.cov.paint(dst, c, true)
		return
	}
	p.cov.merge(&p.union)
	p.union.paint(dst, c)
}

// text fills the glyphs of every line with one pass of the filler.
func (p *painter) text(t *render.Text, m render.Affine, opacity float64, noFilter bool) {
	if p.fonts == nil {
		return
	}
	p.path.reset()
	for _, line := range t.Lines {
		if line.Text == "" || !p.lineReaches(m, line.Y, t.Size) {
			continue
		}
		l, err := p.layout(line.Text, t.Family, t.Size)
		if err != nil {
			continue
		}
		x := line.X
		switch t.Anchor {
		case render.AnchorMiddle:
			x -= l.Width / 2
		case render.AnchorEnd:
			x -= l.Width
		}
		for _, g := range l.Glyphs {
			gm := m.Mul(render.Translate(x+g.X, line.Y+g.Y))
			open := false
			pt := func(q [2]float64) render.Point { return gm.Apply(render.Point{X: q[0], Y: q[1]}) }
			for _, s := range p.outline(g, t.Size) {
				switch s.Op {
				case fonts.MoveTo:
					if open {
						p.path.add(render.Close)
					}
					p.path.add(render.MoveTo, pt(s.P[0]))
					open = true
				case fonts.LineTo:
					p.path.add(render.LineTo, pt(s.P[0]))
				case fonts.QuadTo:
					p.path.add(render.QuadTo, pt(s.P[0]), pt(s.P[1]))
				case fonts.CubeTo:
					p.path.add(render.CubicTo, pt(s.P[0]), pt(s.P[1]), pt(s.P[2]))
				}
			}
			if open {
				p.path.add(render.Close)
			}
		}
	}
	p.fill(p.color(t.Color, noFilter, opacity), true)
}

// lineReaches says whether a line of text at baseline y, of font size
// size, under m, may reach the clip: a band paints only the lines of a
// long text that reach it. Glyphs stay within three sizes above the
// baseline and two below (well beyond any font's ascent and descent);
// a rotated line is always drawn.
func (p *painter) lineReaches(m render.Affine, y, size float64) bool {
	if m.B != 0 {
		return true
	}
	a, b := m.D*(y-3*size)+m.F, m.D*(y+2*size)+m.F
	return max(a, b) >= float64(p.clip.Min.Y) && min(a, b) <= float64(p.clip.Max.Y)
}

// image resamples an image file into its box (0, 0)–(W, H) under m.
func (p *painter) image(im *render.Image, m render.Affine, opacity float64) {
	src, _, err := image.Decode(bytes.NewReader(im.Data))
	if err != nil {
		return // an SVG or broken file: nothing, as a failed load in the browser
	}
	b := src.Bounds()
	sr := b
	if im.Src.W() > 0 && im.Src.H() > 0 {
		sr = image.Rect(b.Min.X+int(im.Src.MinX), b.Min.Y+int(im.Src.MinY), b.Min.X+int(math.Ceil(im.Src.MaxX)), b.Min.Y+int(math.Ceil(im.Src.MaxY))).Intersect(b)
	}
	if sr.Empty() {
		return
	}
	// Source pixels → the item's box → the image.
	k := m.Mul(render.Affine{A: im.W / float64(sr.Dx()), D: im.H / float64(sr.Dy())}).Mul(render.Translate(-float64(sr.Min.X), -float64(sr.Min.Y)))
	var mask image.Image
	if opacity < 1 {
		mask = image.NewUniform(color.Alpha{uint8(math.Round(opacity * 255))})
	}
	dst := p.target.SubImage(p.clip).(*image.RGBA)
	xdraw.ApproxBiLinear.Transform(dst, [6]float64{k.A, k.C, k.E, k.B, k.D, k.F}, src, sr, xdraw.Over, &xdraw.Options{SrcMask: mask})
}
