package scene

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// linearFields works out restore's type-specific fields of a line, an
// arrow or a legacy "draw" (which becomes a line), in restore's order.
// Beyond restore, an arrow without elbowed gets false, as new arrows do.
func (n *normalizer) linearFields(out []assignment, f elemFix, typ string) []assignment {
	el := f.el
	elbow := typ == "arrow" && !jsFalsy(el.Get("elbowed"))
	if typ == "draw" {
		out = append(out, assignment{key: "type", val: "line", kind: FixLegacyType})
	}
	var endArrowhead any
	if typ == "arrow" {
		endArrowhead = "arrow"
	}
	out = append(out,
		bindingField(el, "startBinding", elbow),
		bindingField(el, "endBinding", elbow),
		assignment{key: "lastCommittedPoint", val: nil, kind: FixPoints},
		undefinedField(el, "startArrowhead", nil),
		undefinedField(el, "endArrowhead", endArrowhead),
	)
	out = pointsFields(out, el)
	if typ != "arrow" {
		return out
	}
	if elbow {
		return append(out, assignment{key: "elbowed", val: true, kind: FixDefaultField})
	}
	return append(out, nullishField(el, "elbowed", false))
}

// undefinedField is a destructuring default (`{ key = def } = el`): it
// replaces an absent member only, not a null one.
func undefinedField(el *ojson.Object, key string, def any) assignment {
	if el.Has(key) {
		return keep(key)
	}
	return assignment{key: key, val: def, kind: FixDefaultField}
}

// pointsFields returns points, x, y, width and height as restore sets
// them: fewer than two points become a segment from the origin to (width,
// height) (restore drops such an element, or crashes on one without
// points; the segment keeps it); points not starting at the origin are
// shifted so they do, x and y moving the other way; the size is the
// points' bounding box. Points that are not [x, y] numbers, which restore
// turns into NaN, are replaced by the segment too; an x or y that is not
// a number, which restore would concatenate with the shift, is left for
// Validate to report.
func pointsFields(buf []assignment, el *ojson.Object) []assignment {
	x, okX := coordinate(el, "x")
	y, okY := coordinate(el, "y")
	raw, _ := el.Array("points")
	pts, readable := readPoints(raw)
	rewrite := false
	switch {
	case !readable || len(pts) < 2:
		w, _ := finite(el, "width")
		h, _ := finite(el, "height")
		pts, rewrite = [][2]float64{{0, 0}, {w, h}}, true
	case pts[0][0] != 0 || pts[0][1] != 0:
		ox, oy := pts[0][0], pts[0][1]
		for k := range pts {
			pts[k] = [2]float64{pts[k][0] - ox, pts[k][1] - oy}
		}
		x, y, rewrite = x+ox, y+oy, true
	}
	points := keep("points")
	if rewrite {
		points = assignment{key: "points", val: pointValues(pts), kind: FixPoints}
	}
	w, h := sizeOfPoints(pts)
	buf = append(buf, points)
	if okX {
		buf = append(buf, numberField(el, "x", x, FixPoints))
	}
	if okY {
		buf = append(buf, numberField(el, "y", y, FixPoints))
	}
	return append(buf, numberField(el, "width", w, FixPoints), numberField(el, "height", h, FixPoints))
}

// numberField sets a number, keeping the member as written when it
// already holds that value.
func numberField(el *ojson.Object, key string, f float64, kind string) assignment {
	if old, ok := finite(el, key); ok && old == f {
		return keep(key)
	}
	return assignment{key: key, val: jsNumber(f), kind: kind}
}

// coordinate reads x or y: a finite number, or absent or null (then 0,
// restore's base default).
func coordinate(el *ojson.Object, key string) (float64, bool) {
	v, ok := el.Get(key)
	if jsNullish(v, ok) {
		return 0, true
	}
	f, st := toNumber(v)
	return f, st == numOK
}

// readPoints reads [x, y, ...] points, ignoring further coordinates as
// restore's geometry does.
func readPoints(raw []any) ([][2]float64, bool) {
	pts := make([][2]float64, len(raw))
	for k, p := range raw {
		xy, ok := p.([]any)
		if !ok || len(xy) < 2 {
			return nil, false
		}
		px, s0 := toNumber(xy[0])
		py, s1 := toNumber(xy[1])
		if s0 != numOK || s1 != numOK {
			return nil, false
		}
		pts[k] = [2]float64{px, py}
	}
	return pts, true
}

func pointValues(pts [][2]float64) []any {
	out := make([]any, len(pts))
	for k, p := range pts {
		out[k] = []any{jsNumber(p[0]), jsNumber(p[1])}
	}
	return out
}

// sizeOfPoints is getSizeFromPoints: the extent of the points.
func sizeOfPoints(pts [][2]float64) (w, h float64) {
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		minX, maxX = math.Min(minX, p[0]), math.Max(maxX, p[0])
		minY, maxY = math.Min(minY, p[1]), math.Max(maxY, p[1])
	}
	return maxX - minX, maxY - minY
}

// bindingField is repairBinding: no binding is null; a binding gets a
// focus (0 when missing); an elbow arrow's binding must carry a fixedPoint
// (or it is dropped), nudged off exactly 0.5. A binding that is not an
// object, which restore would spread into garbage, is dropped.
func bindingField(el *ojson.Object, key string, elbow bool) assignment {
	v, ok := el.Get(key)
	if jsNullish(v, ok) {
		return assignment{key: key, val: nil, kind: FixDefaultField}
	}
	b, isObject := v.(*ojson.Object)
	if jsFalsy(v, ok) || !isObject || b == nil {
		return assignment{key: key, val: nil, kind: FixBinding}
	}
	focus, hasFocus := b.Get("focus")
	fixFocus := jsFalsy(focus, hasFocus) && !(hasFocus && sameJSON(focus, jsNumber(0)))
	var fp any
	if elbow {
		var ok bool
		if fp, ok = b.Get("fixedPoint"); jsNullish(fp, ok) {
			return assignment{key: key, val: nil, kind: FixBinding}
		}
	}
	nudged := nudgeFixedPoint(fp)
	if !fixFocus && sameJSON(nudged, fp) {
		return keep(key)
	}
	b = b.Clone()
	if fixFocus {
		b.Set("focus", jsNumber(0))
	}
	if elbow {
		b.Set("fixedPoint", nudged)
	}
	return assignment{key: key, val: b, kind: FixBinding}
}

// nudgeFixedPoint is normalizeFixedPoint: ratios within 1e-4 of 0.5
// become 0.5001, as the editor avoids an exact centre (floating point
// error there makes the arrow's heading flip).
func nudgeFixedPoint(fp any) any {
	arr, ok := fp.([]any)
	if !ok || !(nearHalf(at(arr, 0)) || nearHalf(at(arr, 1))) {
		return fp
	}
	out := make([]any, len(arr))
	for k, r := range arr {
		out[k] = r
		if nearHalf(r) {
			out[k] = jsNumber(0.5001)
		}
	}
	return out
}

func at(arr []any, k int) any {
	if k < len(arr) {
		return arr[k]
	}
	return nil
}

func nearHalf(v any) bool {
	f, st := toNumber(v)
	return st == numOK && math.Abs(f-0.5) < 0.0001
}
