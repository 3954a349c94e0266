package geom

import "math"

// Rect is an axis-aligned box in scene (or local) coordinates, MinX ≤
// MaxX and MinY ≤ MaxY. It is the one box type: bounds in validation
// stats and placement, the linter's spatial index, the renderer's views,
// clips and boxes, and the query package's boxes (shown to agents as
// x, y, width, height) are all Rects. As JSON:
//
//	{"minX":0,"minY":0,"maxX":100,"maxY":40}
type Rect struct {
	MinX float64 `json:"minX"`
	MinY float64 `json:"minY"`
	MaxX float64 `json:"maxX"`
	MaxY float64 `json:"maxY"`
}

// R is the box from (minX, minY) to (maxX, maxY).
func R(minX, minY, maxX, maxY float64) Rect {
	return Rect{MinX: minX, MinY: minY, MaxX: maxX, MaxY: maxY}
}

// BoundsOf is the box of points (at least one).
func BoundsOf(ps []Vec) Rect {
	r := R(ps[0].X, ps[0].Y, ps[0].X, ps[0].Y)
	for _, p := range ps[1:] {
		r.MinX, r.MinY = math.Min(r.MinX, p.X), math.Min(r.MinY, p.Y)
		r.MaxX, r.MaxY = math.Max(r.MaxX, p.X), math.Max(r.MaxY, p.Y)
	}
	return r
}

// W and H are the box's width and height.
func (r Rect) W() float64 { return r.MaxX - r.MinX }
func (r Rect) H() float64 { return r.MaxY - r.MinY }

// Area is W times H.
func (r Rect) Area() float64 { return r.W() * r.H() }

// Center is the box's centre.
func (r Rect) Center() Vec { return V((r.MinX+r.MaxX)/2, (r.MinY+r.MaxY)/2) }

// Diagonal is the length of the box's diagonal.
func (r Rect) Diagonal() float64 { return math.Hypot(r.W(), r.H()) }

// Intersects reports whether the boxes share any point (touching counts).
func (r Rect) Intersects(o Rect) bool {
	return r.MinX <= o.MaxX && o.MinX <= r.MaxX && r.MinY <= o.MaxY && o.MinY <= r.MaxY
}

// Overlaps reports whether the boxes' insides meet (touching does not
// count).
func (r Rect) Overlaps(o Rect) bool {
	return r.MinX < o.MaxX && o.MinX < r.MaxX && r.MinY < o.MaxY && o.MinY < r.MaxY
}

// Contains reports whether o lies within r (edges included).
func (r Rect) Contains(o Rect) bool {
	return o.MinX >= r.MinX && o.MaxX <= r.MaxX && o.MinY >= r.MinY && o.MaxY <= r.MaxY
}

// Intersection is the box both hold (an empty one has a negative side).
func (r Rect) Intersection(o Rect) Rect {
	return R(math.Max(r.MinX, o.MinX), math.Max(r.MinY, o.MinY), math.Min(r.MaxX, o.MaxX), math.Min(r.MaxY, o.MaxY))
}

// Union is the smallest box holding r and o.
func (r Rect) Union(o Rect) Rect {
	return R(math.Min(r.MinX, o.MinX), math.Min(r.MinY, o.MinY), math.Max(r.MaxX, o.MaxX), math.Max(r.MaxY, o.MaxY))
}

// Expand is the box grown by d on every side.
func (r Rect) Expand(d float64) Rect { return R(r.MinX-d, r.MinY-d, r.MaxX+d, r.MaxY+d) }

// Gap is the distance between two boxes, 0 when they touch or overlap.
func (r Rect) Gap(o Rect) float64 {
	dx := math.Max(0, math.Max(o.MinX-r.MaxX, r.MinX-o.MaxX))
	dy := math.Max(0, math.Max(o.MinY-r.MaxY, r.MinY-o.MaxY))
	return math.Hypot(dx, dy)
}
