package render

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// Point is a position in scene or local coordinates (y down).
type Point struct{ X, Y float64 }

// Affine maps (x, y) to (A*x + C*y + E, B*x + D*y + F): SVG's matrix(a b c d e f).
type Affine struct{ A, B, C, D, E, F float64 }

// Identity is the transform that changes nothing.
var Identity = Affine{A: 1, D: 1}

// Translate is m followed by a move by (x, y).
func Translate(x, y float64) Affine { return Affine{A: 1, D: 1, E: x, F: y} }

// Mul is the transform that applies n first, then m.
func (m Affine) Mul(n Affine) Affine {
	return Affine{
		A: m.A*n.A + m.C*n.B, B: m.B*n.A + m.D*n.B,
		C: m.A*n.C + m.C*n.D, D: m.B*n.C + m.D*n.D,
		E: m.A*n.E + m.C*n.F + m.E, F: m.B*n.E + m.D*n.F + m.F,
	}
}

// Rotate is a rotation by angle radians (clockwise on screen) about (cx, cy).
func Rotate(angle, cx, cy float64) Affine {
	if angle == 0 {
		return Identity
	}
	s, c := math.Sincos(angle)
	return Translate(cx, cy).Mul(Affine{A: c, B: s, C: -s, D: c}).Mul(Translate(-cx, -cy))
}

// Apply maps p.
func (m Affine) Apply(p Point) Point {
	return Point{m.A*p.X + m.C*p.Y + m.E, m.B*p.X + m.D*p.Y + m.F}
}

// IsIdentity reports whether m changes nothing.
func (m Affine) IsIdentity() bool { return m == Identity }

// SegOp is what a path segment does.
type SegOp uint8

const (
	MoveTo SegOp = iota
	LineTo
	QuadTo  // P[0] control, P[1] end
	CubicTo // P[0], P[1] controls, P[2] end
	Close
)

// Seg is one path segment.
type Seg struct {
	Op SegOp
	P  [3]Point
}

// Path is a list of segments, each subpath starting with MoveTo.
type Path []Seg

func (p *Path) MoveTo(x, y float64) { *p = append(*p, Seg{Op: MoveTo, P: [3]Point{{x, y}}}) }
func (p *Path) LineTo(x, y float64) { *p = append(*p, Seg{Op: LineTo, P: [3]Point{{x, y}}}) }
func (p *Path) QuadTo(cx, cy, x, y float64) {
	*p = append(*p, Seg{Op: QuadTo, P: [3]Point{{cx, cy}, {x, y}}})
}
func (p *Path) CubicTo(c1x, c1y, c2x, c2y, x, y float64) {
	*p = append(*p, Seg{Op: CubicTo, P: [3]Point{{c1x, c1y}, {c2x, c2y}, {x, y}}})
}
func (p *Path) Close() { *p = append(*p, Seg{Op: Close}) }

// Color is a straight (not premultiplied) sRGB colour.
type Color struct{ R, G, B, A uint8 }

// Paint is how a shape is filled and stroked; a nil part is not drawn.
type Paint struct {
	Fill    *Color
	EvenOdd bool // the fill rule; nonzero otherwise
	Stroke  *Color
	Width   float64
	Dash    []float64 // on, off, … in the shape's units; nil is solid
}

// Shape is a path with its paint. Strokes always have round caps and
// joins, as Excalidraw sets them for every element it draws.
type Shape struct {
	Path  Path
	Paint Paint
}

// Anchor is where a text line's x is: its start, middle or end.
type Anchor uint8

const (
	AnchorStart Anchor = iota
	AnchorMiddle
	AnchorEnd
)

// TextLine is one line of a text element, its x per Anchor and the y of
// its alphabetic baseline, in the item's coordinates.
type TextLine struct {
	Text string
	X, Y float64
}

// Text is a text element's lines in one font.
type Text struct {
	Lines  []TextLine
	Family int // Excalidraw's fontFamily id
	Size   float64
	Color  Color
	Anchor Anchor
	RTL    bool
}

// Image is a raster or SVG file drawn into the box (0, 0)–(W, H) of its
// item, showing the part Src of the file's natural pixels (all of it when
// Src is empty).
type Image struct {
	FileID string
	MIME   string
	Data   []byte // the decoded dataURL payload
	W, H   float64
	Src    geom.Rect
	Radius float64 // rounded corners (roundness), 0 for none
}

// Clip is a frame's clip region: a rounded box under a transform.
type Clip struct {
	FrameID   string
	Box       geom.Rect
	Radius    float64
	Transform Affine
}

// Item is what one element draws: shapes, a text, or an image, under a
// transform from its local coordinates to the scene, at an opacity.
type Item struct {
	ID        string // the element's id
	Type      string // the element's type
	Transform Affine
	Opacity   float64 // 0..1, applied to every fill and stroke, as canvas globalAlpha
	Clip      *Clip
	Shapes    []Shape
	Text      *Text
	Image     *Image
	// Knockout is a box, in the item's coordinates, that the item does
	// not paint: the label of an arrow is drawn in a gap of the arrow.
	Knockout *geom.Rect
	// KnockoutTransform maps Knockout's coordinates to the item's.
	KnockoutTransform Affine
	// NoFilter: a raster image keeps its colours in dark mode, as in
	// Excalidraw.
	NoFilter bool
}

// Picture is a scene drawn: the items in paint order over a view box of
// the scene. An output scales the view box by Scale.
type Picture struct {
	View       geom.Rect
	Scale      float64
	Background *Color
	Dark       bool
	Items      []Item
	// Bounds of each drawn element in scene coordinates, by id, for
	// badges and legends.
	Bounds map[string]geom.Rect
	Order  []string // ids of drawn elements, in paint order
}

// PixelSize is the size in pixels an output of p has: the view times the
// scale, truncated as Excalidraw sizes its export canvas.
func (p *Picture) PixelSize() (w, h int) {
	return int(math.Trunc(p.View.W() * p.Scale)), int(math.Trunc(p.View.H() * p.Scale))
}
