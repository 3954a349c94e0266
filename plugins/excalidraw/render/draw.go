package render

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/dshgo/dsh/internal/parallel"
	"github.com/dshgo/dsh/plugins/excalidraw/render/freehand"
	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// Excalidraw's export defaults and frame style.
const (
	DefaultPadding   = 10 // DEFAULT_EXPORT_PADDING, px
	frameRadius      = 8
	frameStrokeWidth = 2
	frameNameOffsetY = 3
	frameNameSize    = 14
	frameNameLineH   = 1.25
)

// DefaultMaxPixels bounds one image (width × height after scaling): 32
// megapixels, about what a browser canvas allows.
const DefaultMaxPixels = 32 << 20

// Options choose what of a scene is drawn and how. The zero value draws
// the whole scene at scale 1 with no padding; DefaultOptions is what
// Excalidraw's export does.
type Options struct {
	// IDs limits the picture to these elements (their bound labels
	// follow them). Empty: every element.
	IDs []string
	// Region is the part of the scene to draw, in scene coordinates;
	// nil fits the drawn elements plus Padding.
	Region *geom.Rect
	// Padding around the fitted elements, in scene px.
	Padding float64
	// Scale is output pixels per scene px; 0 means 1.
	Scale float64
	// Background paints the scene's viewBackgroundColor behind it.
	Background bool
	// Dark draws in Excalidraw's dark theme.
	Dark bool
	// MaxPixels refuses a picture larger than this (0: DefaultMaxPixels).
	MaxPixels int
	// Frame is the id of a frame to export as Excalidraw exports one
	// frame (exportToCanvas / exportToSvg with exportingFrame): the view
	// is exactly the frame's bounds (no Padding; a Region still wins),
	// the elements drawn are those overlapping it that are in no frame or
	// in it (of IDs, when given; see overlappingFrame), its children are
	// clipped to its box without rounded corners, and no frame outline or
	// name is drawn. Empty: no frame is exported.
	Frame string
}

// DefaultOptions are Excalidraw's export defaults: padding 10, scale 1,
// background on.
func DefaultOptions() Options { return Options{Padding: DefaultPadding, Scale: 1, Background: true} }

// ErrTooLarge is returned when a picture would exceed Options.MaxPixels.
var ErrTooLarge = errors.New("render: picture too large")

// ErrEmpty is returned when nothing would be drawn: no element matches.
var ErrEmpty = errors.New("render: nothing to draw")

// ErrNoFrame is returned when Options.Frame names no live frame.
var ErrNoFrame = errors.New("render: no such frame")

// Draw lays out doc as Excalidraw's exportToCanvas / exportToSvg would:
// on a copy restored as the export restores it (scene.Normalize, so a
// file from elsewhere draws as the editor shows it), elements in order,
// each container followed by its label, embeds last, frame names above
// frames and frame children clipped to them. doc is not modified.
//
// The copy is a fork (scene.Document.Fork): a document a write sealed
// (a fixed point of Normalize) lends it its frozen elements, which are
// neither copied nor restored again; any other is copied whole.
func Draw(doc *scene.Document, o Options) (*Picture, error) {
	doc = doc.Fork()
	scene.Normalize(doc)
	if o.Scale <= 0 || !finite(o.Scale) {
		o.Scale = 1
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = DefaultMaxPixels
	}
	d := newDrawing(doc, o)
	pic := &Picture{Scale: o.Scale, Dark: o.Dark, Bounds: map[string]geom.Rect{}}
	if o.Background {
		if c, ok := ParseColor(d.viewBackground); ok && c.A > 0 {
			pic.Background = &c
		}
	}
	var exporting *element
	if o.Frame != "" {
		if exporting = d.frames[o.Frame]; exporting == nil {
			return nil, fmt.Errorf("%w: %q", ErrNoFrame, o.Frame)
		}
	}
	drawn := d.selected()
	if exporting != nil {
		drawn = d.overlappingFrame(drawn, exporting)
	} else if len(drawn) == 0 && o.Region == nil {
		return nil, ErrEmpty
	}
	// The frames of the picture clip their children and lend them their
	// opacity; a child drawn without its frame is drawn as it is.
	for _, e := range drawn {
		if e.isFrame() {
			d.inPicture[e.id] = true
		}
	}
	if exporting != nil {
		d.inPicture[exporting.id] = true
	}
	// Frame names are drawn as text above each frame (Excalidraw adds
	// them as text elements for an export); an exported frame has
	// neither outline nor name, nor have the others.
	var withLabels []*element
	for _, e := range drawn {
		if e.isFrame() {
			if exporting != nil {
				continue
			}
			withLabels = append(withLabels, d.frameLabel(e))
		}
		withLabels = append(withLabels, e)
	}
	// Shapes first: the bounds of arrows depend on their rough curves,
	// and the labels of arrows are placed on them. Each element's come
	// from it alone (its seed), so they are made on every processor.
	shapes := make([][]drawable, len(withLabels))
	parallel.For(len(withLabels), 64, func(i int) bool {
		shapes[i] = cachedShapes(withLabels[i], d.viewBackground)
		return true
	})
	for i, e := range withLabels {
		d.shapes[e] = shapes[i]
	}
	for _, e := range withLabels {
		if c := d.byID[e.containerID]; e.typ == "text" && c != nil && scene.IsLinear(c.typ) {
			e.x, e.y = arrowLabelPosition(c, e, d.shapesOf(c))
		}
	}
	var view geom.Rect
	switch {
	case o.Region != nil:
		view = *o.Region
	case exporting != nil:
		view = d.boundsOf(exporting)
	default:
		first := true
		for _, e := range withLabels {
			if e.frameID != "" && d.inPicture[e.frameID] && !e.isFrame() {
				continue // clipped by its frame: the frame bounds it
			}
			b := d.boundsOf(e)
			if first {
				view, first = b, false
			} else {
				view = view.Union(b)
			}
		}
		view = geom.R(view.MinX-o.Padding, view.MinY-o.Padding, view.MaxX+o.Padding, view.MaxY+o.Padding)
	}
	if !finite(view.MinX) || !finite(view.MaxX) || !finite(view.MinY) || !finite(view.MaxY) || view.W() < 0 || view.H() < 0 {
		return nil, fmt.Errorf("render: the drawing has no finite extent")
	}
	pic.View = view
	if w, h := pic.PixelSize(); w <= 0 || h <= 0 {
		return nil, ErrEmpty
	} else if float64(w)*float64(h) > float64(o.MaxPixels) {
		return nil, fmt.Errorf("%w: %d × %d px is over %d pixels; draw a region, lower the scale or use tiles", ErrTooLarge, w, h, o.MaxPixels)
	}
	var embeds []*element
	for _, e := range withLabels {
		if e.typ == "text" && e.containerID != "" && d.byID[e.containerID] != nil && !d.byID[e.containerID].deleted {
			continue // drawn with its container
		}
		if e.isIframeLike() {
			embeds = append(embeds, e)
			continue
		}
		b := d.boundsOf(e)
		if o.Region != nil && !b.Intersects(view) {
			continue
		}
		d.emit(pic, e)
		if t := d.byID[e.boundText]; t != nil && !t.deleted && t.containerID == e.id {
			d.emit(pic, t)
		}
	}
	for _, e := range embeds {
		d.emit(pic, e)
	}
	return pic, nil
}

// drawing is the state of one Draw.
type drawing struct {
	o              Options
	elements       []*element // in scene order, deleted ones left out
	byID           map[string]*element
	frames         map[string]*element
	inPicture      map[string]bool // ids of the frames drawn or exported
	shapes         map[*element][]drawable
	abs, bounds    map[*element]geom.Rect // absoluteCoords and elementBounds, once each
	files          *ojson.Object
	viewBackground string
}

func newDrawing(doc *scene.Document, o Options) *drawing {
	d := &drawing{o: o, byID: map[string]*element{}, frames: map[string]*element{}, inPicture: map[string]bool{}, shapes: map[*element][]drawable{},
		abs: map[*element]geom.Rect{}, bounds: map[*element]geom.Rect{}, files: doc.Files(), viewBackground: "#ffffff"}
	if as := doc.AppState(); as != nil {
		if s, ok := as.String("viewBackgroundColor"); ok {
			d.viewBackground = s
		}
	}
	for _, obj := range doc.Elements() {
		e := readElement(obj)
		if e.deleted || e.typ == "selection" || e.id == "" {
			continue
		}
		d.elements = append(d.elements, e)
		d.byID[e.id] = e
		if e.isFrame() {
			d.frames[e.id] = e
		}
	}
	return d
}

// selected is what Options.IDs asks for, in scene order: the named
// elements, the labels of named containers, and the children of named
// frames.
func (d *drawing) selected() []*element {
	if len(d.o.IDs) == 0 {
		return d.elements
	}
	want := map[string]bool{}
	for _, id := range d.o.IDs {
		want[id] = true
	}
	var out []*element
	for _, e := range d.elements {
		switch {
		case want[e.id]:
		case e.containerID != "" && want[e.containerID]:
		case e.frameID != "" && want[e.frameID]:
		default:
			continue
		}
		out = append(out, e)
	}
	return out
}

// frameLabel is the text element Excalidraw adds above a frame in an
// export: its name (or "Frame") in Helvetica 14, truncated to the frame's
// width with "...".
func (d *drawing) frameLabel(f *element) *element {
	name := f.name
	if !f.hasName {
		name = "Frame"
		if f.typ == "magicframe" {
			name = "AI Frame"
		}
	}
	color := "#999999"
	if d.o.Dark {
		color = "#7a7a7a"
	}
	fam := textmetrics.FontFamily(2)
	size := textmetrics.Measure(name, fam, frameNameSize)
	if size.Width > f.w {
		rs := []rune(name)
		for i := len(rs); i > 0; i-- {
			t := string(rs[:i]) + "..."
			if textmetrics.MeasureLine(t, fam, frameNameSize) <= f.w {
				name = t
				break
			}
		}
		size.Width = f.w
	}
	return &element{
		id: f.id + ":name", typ: "text", x: f.x, y: f.y - frameNameOffsetY - size.Height, w: size.Width, h: size.Height,
		strokeColor: color, bgColor: "transparent", opacity: 100, text: name, fontSize: frameNameSize,
		fontFamily: 2, lineHeight: frameNameLineH, textAlign: "left", verticalAlign: "top", frameLabel: true,
	}
}

func (d *drawing) shapesOf(e *element) []drawable {
	if s, ok := d.shapes[e]; ok {
		return s
	}
	s := cachedShapes(e, d.viewBackground)
	d.shapes[e] = s
	return s
}

// absOf and boundsOf are absoluteCoords and elementBounds of e, computed
// once: they follow its rough curves. Arrow labels are placed before the
// first call.
func (d *drawing) absOf(e *element) geom.Rect {
	if r, ok := d.abs[e]; ok {
		return r
	}
	r := absoluteCoords(e, d.shapesOf(e))
	d.abs[e] = r
	return r
}

func (d *drawing) boundsOf(e *element) geom.Rect {
	if r, ok := d.bounds[e]; ok {
		return r
	}
	r := elementBounds(e, d.shapesOf(e))
	d.bounds[e] = r
	return r
}

// transform is how Excalidraw places an element: rotated by its angle
// about the centre of its absolute box, its local origin at (x, y).
func (d *drawing) transform(e *element) Affine {
	abs := d.absOf(e)
	cx, cy := (abs.MinX+abs.MaxX)/2, (abs.MinY+abs.MaxY)/2
	return Rotate(e.angle, cx, cy).Mul(Translate(e.x, e.y))
}

// clipOf is the clip of an element inside a frame.
func (d *drawing) clipOf(e *element) *Clip {
	if e.isFrame() || e.frameLabel {
		return nil
	}
	f := d.frames[e.frameID]
	if f == nil {
		if c := d.byID[e.containerID]; c != nil {
			f = d.frames[c.frameID]
		}
	}
	if f == nil || !d.inPicture[f.id] {
		return nil
	}
	radius := float64(frameRadius)
	if f.id == d.o.Frame {
		radius = 0 // an exported frame's clip has square corners
	}
	return &Clip{FrameID: f.id, Box: geom.R(0, 0, f.w, f.h), Radius: radius, Transform: d.transform(f)}
}

// opacityOf multiplies an element's opacity with its frame's, as
// Excalidraw does.
func (d *drawing) opacityOf(e *element) float64 {
	op := e.opacity / 100
	if f := d.frames[e.frameID]; f != nil && d.inPicture[f.id] && !e.isFrame() {
		op *= f.opacity / 100
	}
	return op
}

func (d *drawing) color(s string) (Color, bool) {
	c, ok := ParseColor(s)
	if !ok || c.A == 0 {
		return c, false
	}
	return c, true
}

// emit appends what e draws to pic.
func (d *drawing) emit(pic *Picture, e *element) {
	shapes := d.shapesOf(e)
	it := Item{ID: e.id, Type: e.typ, Transform: d.transform(e), Opacity: d.opacityOf(e), Clip: d.clipOf(e)}
	switch e.typ {
	case "rectangle", "diamond", "ellipse", "line", "arrow", "iframe", "embeddable":
		it.Shapes = d.paint(shapes)
		if e.typ == "arrow" {
			if t := d.byID[e.boundText]; t != nil && !t.deleted && t.containerID == e.id {
				it.Knockout = &geom.Rect{MinX: t.x, MinY: t.y, MaxX: t.x + t.w, MaxY: t.y + t.h}
			}
		}
	case "freedraw":
		it.Shapes = d.paint(shapes)
		if c, ok := d.color(e.strokeColor); ok {
			it.Shapes = append(it.Shapes, Shape{Path: cachedFreedrawPath(e), Paint: Paint{Fill: &c}})
		}
	case "text":
		c, ok := d.color(e.strokeColor)
		if !ok {
			return
		}
		it.Text = textItem(e, c)
	case "image":
		it.Image = d.image(e)
		it.NoFilter = it.Image != nil && it.Image.MIME != "image/svg+xml"
		if it.Image == nil {
			it.Shapes = placeholder(e)
		} else if e.scale != [2]float64{1, 1} {
			// Excalidraw flips an image about its box by its scale.
			it.Transform = it.Transform.Mul(Translate(e.w/2, e.h/2)).Mul(Affine{A: e.scale[0], D: e.scale[1]}).Mul(Translate(-e.w/2, -e.h/2))
		}
	case "frame", "magicframe":
		c := Color{0xbb, 0xbb, 0xbb, 0xff}
		if e.typ == "magicframe" {
			c = Color{0x7a, 0xff, 0xd7, 0xff}
			if d.o.Dark {
				c = Color{0x1d, 0x82, 0x64, 0xff}
			}
		}
		it.Shapes = []Shape{{Path: roundedRect(0, 0, e.w, e.h, frameRadius), Paint: Paint{Stroke: &c, Width: frameStrokeWidth}}}
	default:
		return
	}
	pic.Items = append(pic.Items, it)
	if !e.frameLabel {
		pic.Bounds[e.id] = d.boundsOf(e)
		pic.Order = append(pic.Order, e.id)
	}
}

// paint turns rough sets into shapes the way rough's canvas renderer
// paints them: a stroke in the stroke colour and width; a solid fill
// (even-odd for paths, polygons and curves); a sketch fill stroked with the
// fill colour at the fill weight.
func (d *drawing) paint(ds []drawable) []Shape {
	var out []Shape
	for _, dr := range ds {
		o := dr.d.Options
		stroke, hasStroke := d.color(dr.style.stroke)
		fill, hasFill := d.color(dr.style.fill)
		for _, set := range dr.d.Sets {
			p := opsPath(set.Ops)
			switch set.Kind {
			case rough.SetPath:
				if !hasStroke || !o.Stroke {
					continue
				}
				c := stroke
				out = append(out, Shape{Path: p, Paint: Paint{Stroke: &c, Width: o.StrokeWidth, Dash: dr.style.dash}})
			case rough.SetFillPath:
				if !hasFill {
					continue
				}
				c := fill
				evenOdd := dr.d.Shape == "curve" || dr.d.Shape == "polygon" || dr.d.Shape == "path"
				out = append(out, Shape{Path: p, Paint: Paint{Fill: &c, EvenOdd: evenOdd}})
			case rough.SetFillSketch:
				if !hasFill {
					continue
				}
				c := fill
				w := o.FillWeight
				if w < 0 {
					w = o.StrokeWidth / 2
				}
				out = append(out, Shape{Path: p, Paint: Paint{Stroke: &c, Width: w}})
			}
		}
	}
	return out
}

func opsPath(ops []rough.Op) Path {
	p := make(Path, 0, len(ops))
	for _, op := range ops {
		switch op.Kind {
		case rough.Move:
			p.MoveTo(op.Data[0], op.Data[1])
		case rough.LineTo:
			p.LineTo(op.Data[0], op.Data[1])
		case rough.CurveTo:
			p.CubicTo(op.Data[0], op.Data[1], op.Data[2], op.Data[3], op.Data[4], op.Data[5])
		}
	}
	return p
}

// freedrawPath is the outline Excalidraw fills for a freedraw stroke.
func freedrawPath(e *element) Path {
	outline := freehand.Outline(freehand.Element{Points: e.points, Pressures: e.pressures,
		SimulatePressure: e.simulatePressure, StrokeWidth: e.strokeWidth, LastCommitted: e.lastCommitted})
	var p Path
	for _, s := range freehand.Segments(outline) {
		switch s.Kind {
		case freehand.MoveTo:
			p.MoveTo(s.P[0][0], s.P[0][1])
		case freehand.QuadTo:
			p.QuadTo(s.P[0][0], s.P[0][1], s.P[1][0], s.P[1][1])
		case freehand.LineTo:
			p.LineTo(s.P[0][0], s.P[0][1])
		case freehand.Close:
			p.Close()
		}
	}
	return p
}

// roundedRect is the path of canvas roundRect(x, y, w, h, r).
func roundedRect(x, y, w, h, r float64) Path {
	r = math.Max(0, math.Min(r, math.Min(math.Abs(w), math.Abs(h))/2))
	const k = 0.5522847498 // cubic approximation of a quarter circle
	var p Path
	p.MoveTo(x+r, y)
	p.LineTo(x+w-r, y)
	p.CubicTo(x+w-r+r*k, y, x+w, y+r-r*k, x+w, y+r)
	p.LineTo(x+w, y+h-r)
	p.CubicTo(x+w, y+h-r+r*k, x+w-r+r*k, y+h, x+w-r, y+h)
	p.LineTo(x+r, y+h)
	p.CubicTo(x+r-r*k, y+h, x, y+h-r+r*k, x, y+h-r)
	p.LineTo(x, y+r)
	p.CubicTo(x, y+r-r*k, x+r-r*k, y, x+r, y)
	p.Close()
	return p
}

// image is the picture of an image element, nil when its file is missing
// or unreadable (Excalidraw then draws a placeholder).
func (d *drawing) image(e *element) *Image {
	if d.files == nil || e.fileID == "" {
		return nil
	}
	f, ok := d.files.Object(e.fileID)
	if !ok || f == nil {
		return nil
	}
	url, _ := f.String("dataURL")
	mime, data, ok := decodeDataURL(url)
	if !ok {
		return nil
	}
	if m, ok := f.String("mimeType"); ok && m != "" {
		mime = m
	}
	img := &Image{FileID: e.fileID, MIME: mime, Data: data, W: e.w, H: e.h}
	if e.crop != nil && e.crop.w > 0 && e.crop.h > 0 {
		img.Src = geom.R(e.crop.x, e.crop.y, e.crop.x+e.crop.w, e.crop.y+e.crop.h)
	}
	if e.roundness != 0 {
		img.Radius = cornerRadius(math.Min(e.w, e.h), e)
	}
	return img
}

func decodeDataURL(u string) (mime string, data []byte, ok bool) {
	rest, found := strings.CutPrefix(u, "data:")
	if !found {
		return "", nil, false
	}
	meta, payload, found := strings.Cut(rest, ",")
	if !found {
		return "", nil, false
	}
	mime, _, _ = strings.Cut(meta, ";")
	if strings.HasSuffix(meta, ";base64") {
		b, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(payload, "=")); err != nil {
				return "", nil, false
			}
		}
		return mime, b, true
	}
	return mime, []byte(payload), true
}

// placeholder is the grey box Excalidraw draws for an image it cannot show.
func placeholder(e *element) []Shape {
	c := Color{0xe7, 0xe7, 0xe7, 0xff}
	return []Shape{{Path: roundedRect(0, 0, e.w, e.h, 0), Paint: Paint{Fill: &c}}}
}
