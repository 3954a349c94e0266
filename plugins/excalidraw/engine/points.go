package engine

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

type point [2]float64

// readPoints reads an array of [x, y] number pairs within ±maxCoord.
func readPoints(v any) ([]point, bool) {
	list, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]point, 0, len(list))
	for _, item := range list {
		pair, ok := item.([]any)
		if !ok || len(pair) != 2 {
			return nil, false
		}
		x, okx := ojson.AsFloat(pair[0])
		y, oky := ojson.AsFloat(pair[1])
		if !okx || !oky || math.Abs(x) > maxCoord || math.Abs(y) > maxCoord || math.IsNaN(x) || math.IsNaN(y) {
			return nil, false
		}
		out = append(out, point{x, y})
	}
	return out, true
}

// setPoints stores pts relative to the element as Excalidraw keeps them:
// the first point at the origin (x and y absorb its offset), width and
// height the extent of the points.
func setPoints(el *ojson.Object, pts []point) {
	ox, oy := pts[0][0], pts[0][1]
	el.Set("x", scene.NumberOf(el, "x")+ox)
	el.Set("y", scene.NumberOf(el, "y")+oy)
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	arr := make([]any, len(pts))
	for i, p := range pts {
		x, y := p[0]-ox, p[1]-oy
		arr[i] = []any{x, y}
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	el.Set("points", arr)
	el.Set("width", maxX-minX)
	el.Set("height", maxY-minY)
}

// pointsOf reads an element's points (nil when malformed).
func pointsOf(el *ojson.Object) []point {
	v, _ := el.Get("points")
	pts, _ := readPoints(v)
	return pts
}

// globalPoints are an element's points in scene coordinates (nil when
// malformed).
func globalPoints(el *ojson.Object) []point {
	pts := pointsOf(el)
	x, y := scene.NumberOf(el, "x"), scene.NumberOf(el, "y")
	for i := range pts {
		pts[i] = point{x + pts[i][0], y + pts[i][1]}
	}
	return pts
}

// setGlobalPoints stores points given in scene coordinates (see
// setPoints).
func setGlobalPoints(el *ojson.Object, pts []point) {
	x, y := scene.NumberOf(el, "x"), scene.NumberOf(el, "y")
	rel := make([]point, len(pts))
	for i, p := range pts {
		rel[i] = point{p[0] - x, p[1] - y}
	}
	setPoints(el, rel)
}
