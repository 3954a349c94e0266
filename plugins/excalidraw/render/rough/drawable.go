package rough

import "math"

// OpKind is what an [Op] does.
type OpKind uint8

// The operations: rough's "move", "lineTo" and "bcurveTo".
const (
	Move    OpKind = iota // start a new sub-path at Data[0], Data[1]
	LineTo                // straight line to Data[0], Data[1]
	CurveTo               // cubic bezier: controls Data[0..3], end Data[4], Data[5]
)

func (k OpKind) String() string {
	switch k {
	case Move:
		return "move"
	case LineTo:
		return "lineTo"
	case CurveTo:
		return "bcurveTo"
	}
	return "OpKind(?)"
}

// Op is one drawing operation. Move and LineTo use Data[0] and Data[1].
type Op struct {
	Kind OpKind
	Data [6]float64
}

// SetKind is how a [Set] is drawn.
type SetKind uint8

// The set kinds, rough's "path", "fillPath" and "fillSketch".
const (
	SetPath       SetKind = iota // stroked with the stroke colour and width
	SetFillPath                  // filled with the fill colour, not stroked
	SetFillSketch                // stroked with the fill colour and the fill weight
)

func (k SetKind) String() string {
	switch k {
	case SetPath:
		return "path"
	case SetFillPath:
		return "fillPath"
	case SetFillSketch:
		return "fillSketch"
	}
	return "SetKind(?)"
}

// Set is one list of operations drawn in one way.
type Set struct {
	Kind SetKind
	Ops  []Op
}

// Drawable is what a shape function returns: rough's Drawable. Sets come in
// rough's order (a fill before its outline).
type Drawable struct {
	Shape   string // "rectangle", "ellipse", "circle", "line", "linearPath", "polygon", "arc", "curve" or "path"
	Sets    []Set
	Options Options
}

func move(x, y float64) Op   { return Op{Kind: Move, Data: [6]float64{x, y}} }
func lineTo(x, y float64) Op { return Op{Kind: LineTo, Data: [6]float64{x, y}} }
func curveTo(x1, y1, x2, y2, x, y float64) Op {
	return Op{Kind: CurveTo, Data: [6]float64{x1, y1, x2, y2, x, y}}
}

// finish makes the Drawable, dropping every set when a number in it is not
// finite (rough.js would return NaN or ±Inf there) or when the call ran out
// of work (its result would not be rough's).
func finish(shape string, sets []Set, s *state) Drawable {
	d := Drawable{Shape: shape, Options: s.Options}
	if s.call.work < 0 {
		return d
	}
	for _, set := range sets {
		for _, op := range set.Ops {
			n := 2
			if op.Kind == CurveTo {
				n = 6
			}
			for _, v := range op.Data[:n] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return d
				}
			}
		}
	}
	d.Sets = sets
	return d
}
