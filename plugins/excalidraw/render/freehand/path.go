package freehand

// The outline becomes path data as Excalidraw's getSvgPathFromStroke
// writes it: a move to the first outline point, then for every point a
// quadratic curve with that point as control, ending halfway to the next
// one (the last curve ends halfway back to the first point), a line back
// to the first point, and the close. Every coordinate is printed as
// JavaScript prints it and cut to two decimals (see appendPathNumber).

// SegmentKind says what one path segment draws.
type SegmentKind uint8

const (
	MoveTo SegmentKind = iota // start at P[0]
	QuadTo                    // quadratic Bézier with control P[0], ending at P[1]
	LineTo                    // straight to P[0]
	Close                     // close the subpath
)

func (k SegmentKind) String() string {
	switch k {
	case MoveTo:
		return "M"
	case QuadTo:
		return "Q"
	case LineTo:
		return "L"
	case Close:
		return "Z"
	}
	return "?"
}

// Segment is one piece of a path; P holds the points its kind uses.
type Segment struct {
	Kind SegmentKind
	P    [2][2]float64
}

func mid(a, b vec) vec { return vec{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2} }

// appendPoint appends " x,y" as the path prints p.
func appendPoint(dst []byte, p vec) []byte {
	dst = append(dst, ' ')
	dst = appendPathNumber(dst, p[0])
	dst = append(dst, ',')
	return appendPathNumber(dst, p[1])
}

// PathData is the SVG path data Excalidraw 0.18.1 draws a freedraw
// outline with (getFreeDrawSvgPath): the same text, number for number.
// Empty for an empty outline.
func PathData(outline [][2]float64) string {
	n := len(outline)
	if n == 0 {
		return ""
	}
	b := make([]byte, 0, 24*(2*n+2))
	b = append(b, 'M')
	b = appendPoint(b, outline[0])
	b = append(b, " Q"...)
	for i, p := range outline {
		b = appendPoint(b, p)
		b = appendPoint(b, mid(p, outline[(i+1)%n]))
	}
	b = append(b, " L"...)
	b = appendPoint(b, outline[0])
	b = append(b, " Z"...)
	return string(b)
}

// Segments is PathData as segments, for a rasterizer that fills it
// without parsing text: a MoveTo, one QuadTo per outline point, a LineTo
// back to the start and a Close. The numbers are the ones the text spells
// (cut to two decimals), which is what a browser draws. Nil for an empty
// outline.
func Segments(outline [][2]float64) []Segment {
	n := len(outline)
	if n == 0 {
		return nil
	}
	var scratch []byte
	printed := func(x float64) float64 {
		scratch = appendPathNumber(scratch[:0], x)
		return pathValue(scratch)
	}
	point := func(p vec) vec { return vec{printed(p[0]), printed(p[1])} }
	first := point(outline[0])
	segs := make([]Segment, 0, n+3)
	segs = append(segs, Segment{Kind: MoveTo, P: [2][2]float64{first}})
	for i, p := range outline {
		segs = append(segs, Segment{Kind: QuadTo, P: [2][2]float64{point(p), point(mid(p, outline[(i+1)%n]))}})
	}
	return append(segs,
		Segment{Kind: LineTo, P: [2][2]float64{first}},
		Segment{Kind: Close})
}
